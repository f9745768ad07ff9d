// Bringing a pod's records up to date with the runtime, the kubelet's PLEG relist and
// kuberuntime_manager.go GetPodStatus in one: an exit announced in the exit directory is
// recorded and the container deleted, a creation a crashed agent left behind is adopted or
// discarded, old attempts are pruned, and the result is the PodRuntime view the lifecycle
// rules (lifecycle/actions.ts, containerstatus.ts) read.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerInstance, PodRuntime } from '../lifecycle/runtime.js';
import type { InstanceRecord } from '../podrecords.js';
import { processAlive } from '../runtime/proc.js';
import { sandboxName, sleep, type PodMemory, type Prepared, type View, type WorkerContext } from './context.js';
import { discard, finalize } from './instances.js';

export function monitorAlive(w: WorkerContext, rec: InstanceRecord): boolean {
  return w.runtime.monitorAlive(rec.id, w.records.bundleDir(rec.id));
}

/** The sandbox's init is alive, and is still the process the runtime started (in the sandbox's own cgroup, not a reused pid). */
export function sandboxAlive(w: WorkerContext, rec: InstanceRecord): boolean {
  return rec.pid !== undefined && processAlive(rec.pid) && w.cgroups.pidIn(rec.pid, rec.cgroupsPath);
}

/**
 * Announces the end of a running sandbox the way conmon announces a container's: a file named
 * by its id appears in exitDir (which the agent watches). The file is empty, as the exit code
 * is unknown (readExit reads no code from it); observe() then finds the sandbox dead.
 */
export function watchSandbox(w: WorkerContext, rec: InstanceRecord): void {
  w.sandboxExits.add(
    rec.id,
    w.cgroups.populatedEventsFile(rec.cgroupsPath),
    () => sandboxAlive(w, rec),
    () => {
      // Not for a sandbox that this worker (or another over the same directories) has finished or removed meanwhile.
      if (w.records.readInstance(rec.id)?.state !== 'running') return;
      try {
        writeFileSync(join(w.exitDir, rec.id), '', { flag: 'a' });
      } catch {
        // The next sync (resync, or the pod's containers' own exits) finds it dead all the same.
      }
    },
  );
}

/**
 * Brings the records up to date with the runtime (an exit noticed is recorded and the
 * container deleted; a creation a crashed agent left behind is adopted or discarded), keeps the
 * two newest instances per container and the newest sandbox, and returns the pod's view.
 * `preparing`: instances this sync is making (see prepareStarts), not yet part of the pod;
 * `startingSandbox`: the sandbox this sync is starting (part of the pod, left as it is).
 */
export async function observe(w: WorkerContext, uid: string, mem: PodMemory, preparing?: ReadonlyMap<string, Prepared>, startingSandbox?: string): Promise<View> {
  const made = new Set([...(preparing?.values() ?? [])].map((p) => p.rec.id));
  for (const r of w.records.listInstances(uid)) {
    if (r.state === 'exited' || made.has(r.id) || r.id === startingSandbox) continue;
    const code = w.runtime.readExit(r.id);
    if (code !== undefined) {
      await finalize(w, r, code, mem);
      continue;
    }
    if (r.state === 'running') {
      if (r.kind !== 'sandbox') {
        if (monitorAlive(w, r)) continue;
      } else if (sandboxAlive(w, r)) {
        // Adopted from an earlier agent: it needs a watch in this process.
        watchSandbox(w, r);
        continue;
      } else if (r.pid !== undefined) {
        // A sandbox's end needs no runtime state: it is gone, and its exit code matters to no one.
        await finalize(w, r, w.runtime.readExit(r.id), mem);
        continue;
      }
    }
    // The monitor is gone, or a previous agent stopped in the middle of a creation: ask the runtime.
    const st = await w.runtime.state(r.id);
    const late = w.runtime.readExit(r.id);
    if (late !== undefined) {
      await finalize(w, r, late, mem);
      continue;
    }
    if (r.state === 'creating') {
      if (st?.status === 'running' && monitorAlive(w, r)) {
        r.state = 'running';
        r.startedAt ??= st.created;
        r.pid = st.pid;
        w.records.writeInstance(r);
      } else await discard(w, r);
      continue;
    }
    // Running without its monitor: the exit code would be lost. Stop it and call the end unknown.
    if (st && st.status !== 'stopped') {
      await w.runtime.kill(r.id, 'KILL').catch(() => undefined);
      for (let i = 0; i < 100; i++) {
        const s = await w.runtime.state(r.id);
        if (!s || s.status === 'stopped') break;
        await sleep(20);
      }
    }
    await finalize(w, r, w.runtime.readExit(r.id), mem);
  }

  // Keep what status and logs need: per container the current and the last terminated instance.
  const recs = w.records.listInstances(uid).filter((r) => !made.has(r.id));
  const byName = new Map<string, InstanceRecord[]>();
  for (const r of recs) {
    const k = r.kind === 'sandbox' ? `\u0000${sandboxName}` : r.container;
    byName.set(k, [...(byName.get(k) ?? []), r]);
  }
  const kept: InstanceRecord[] = [];
  for (const [k, list] of byName) {
    list.sort((a, b) => b.attempt - a.attempt);
    const keep = k === `\u0000${sandboxName}` ? 1 : 2;
    for (const [i, r] of list.entries()) {
      if (i < keep || r.state !== 'exited') kept.push(r);
      else await discard(w, r);
    }
  }
  return { recs: kept, rt: runtimeView(kept) };
}

export function runtimeView(recs: InstanceRecord[]): PodRuntime {
  const sandboxes = recs.filter((r) => r.kind === 'sandbox').sort((a, b) => b.attempt - a.attempt);
  const sb = sandboxes[0];
  const rt: PodRuntime = { containers: {} };
  if (sb) rt.sandbox = { ready: sb.state === 'running', attempt: sb.attempt, id: sb.id };
  for (const r of recs) {
    if (r.kind === 'sandbox') continue;
    const inst: ContainerInstance = {
      name: r.container,
      attempt: r.attempt,
      id: r.id,
      state: r.state === 'running' ? 'running' : r.state === 'exited' ? 'exited' : 'created',
      createdAt: r.createdAt,
      image: r.image,
      imageID: r.imageID,
      inCurrentSandbox: sb !== undefined && r.sandboxID === sb.id,
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.message ? { message: r.message } : {}),
      ...(r.startedAt ? { startedAt: r.startedAt } : {}),
      ...(r.finishedAt ? { finishedAt: r.finishedAt } : {}),
      ...(r.specHash ? { specHash: r.specHash } : {}),
    };
    (rt.containers[r.container] ??= []).push(inst);
  }
  for (const l of Object.values(rt.containers)) l.sort((a, b) => b.attempt - a.attempt);
  return rt;
}
