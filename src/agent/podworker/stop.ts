// Stopping a pod's containers in the kubelet's order (kuberuntime_container.go
// killContainersWithSyncResult and killContainer, with the sidecar order of
// KEP-753): SIGTERM, SIGKILL after the grace, the sandbox last. Never blocks for the grace: a
// step signals what is due and says when it wants to run again.

import type { Pod } from '../../api/types.js';
import type { KillRequest } from '../lifecycle/actions.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { InstanceRecord } from '../podrecords.js';
import { emit, minimumGraceSeconds, sleep, type EventSink, type PodMemory, type View, type WorkerContext } from './context.js';
import { observe } from './observe.js';

export type StopTarget = { all: true } | { kill: KillRequest[] };

/**
 * One step of stopping `targets` (every container and then the sandbox when `all`): SIGTERM in
 * the kubelet's order (regular and init containers together, then sidecars in reverse spec
 * order, each group once the ones before it have exited or the grace is used up), SIGKILL to
 * whatever outlives its grace (at least minimumGraceSeconds after its SIGTERM), the sandbox
 * SIGKILLed once no container is left. Returns whether everything targeted has exited.
 */
export async function stopStep(w: WorkerContext, pod: Pod, view: View, target: StopTarget, graceSeconds: number, record: EventSink, mem: PodMemory): Promise<{ done: boolean; nextMs: number }> {
  const now = w.now();
  const live = view.recs.filter((r) => r.state !== 'exited');
  const wanted = 'all' in target ? live : live.filter((r) => target.kill.some((k) => k.id === r.id));
  const containers = wanted.filter((r) => r.kind !== 'sandbox');
  const sandbox = 'all' in target ? wanted.filter((r) => r.kind === 'sandbox') : [];
  if (containers.length === 0 && sandbox.length === 0) {
    mem.stopSince = undefined;
    mem.stopGraceMs = undefined;
    return { done: true, nextMs: 0 };
  }
  mem.stopSince ??= now;
  mem.stopGraceMs ??= Math.max(0, graceSeconds) * 1000;
  const deadline = mem.stopSince + mem.stopGraceMs;
  const inits = pod.spec.initContainers ?? [];
  const sidecarIndex = (r: InstanceRecord) => (r.kind === 'sidecar' ? inits.findIndex((c) => c.name === r.container) : -1);
  const groups: InstanceRecord[][] = [
    containers.filter((r) => r.kind !== 'sidecar'),
    ...containers.filter((r) => r.kind === 'sidecar').sort((a, b) => sidecarIndex(b) - sidecarIndex(a)).map((r) => [r]),
  ];
  let nextMs = Number.POSITIVE_INFINITY;
  let earlierAlive = false;
  for (const g of groups) {
    const mayStart = !earlierAlive || now >= deadline;
    for (const r of g) {
      let k = mem.kills.get(r.id);
      if (!k) {
        if (!mayStart) {
          nextMs = Math.min(nextMs, deadline - now);
          continue;
        }
        await w.runtime.kill(r.id, 'TERM').catch(() => undefined);
        const msg = 'kill' in target ? target.kill.find((x) => x.id === r.id)?.message : undefined;
        emit(record, pod, 'Normal', reasons.killing, msg ?? messages.stopping(r.container));
        k = { termAt: now, killAt: now + Math.max(deadline - now, minimumGraceSeconds * 1000), killed: false };
        mem.kills.set(r.id, k);
      }
      if (!k.killed && now >= k.killAt) {
        k.killed = await sigkill(w, r.id);
        if (!k.killed) k.killAt = now + killRetryMs;
      }
      nextMs = Math.min(nextMs, k.killed ? 20 : k.killAt - now);
    }
    if (g.length) earlierAlive = true;
  }
  if (containers.length === 0) {
    for (const r of sandbox) {
      const k = mem.kills.get(r.id);
      if (!k || (!k.killed && now >= k.killAt)) {
        const killed = await sigkill(w, r.id);
        mem.kills.set(r.id, { termAt: k?.termAt ?? now, killAt: killed ? now : now + killRetryMs, killed });
      }
      nextMs = Math.min(nextMs, 20);
    }
  }
  return { done: false, nextMs: Math.max(1, nextMs) };
}

/**
 * A SIGKILL the runtime refused (runc failed, the state was busy) is sent again this long after,
 * as the kubelet's next sync retries killContainer; one that was sent is not: the process dies,
 * and observe sees it go (a container that has exited meanwhile also refuses the signal).
 */
const killRetryMs = 1000;

async function sigkill(w: WorkerContext, id: string): Promise<boolean> {
  return w.runtime.kill(id, 'KILL').then(
    () => true,
    () => false,
  );
}

/** Steps stopStep, observing exits, until done or `budgetMs` has passed. */
export async function stopFor(w: WorkerContext, pod: Pod, uid: string, target: StopTarget, graceSeconds: number, budgetMs: number, record: EventSink, mem: PodMemory): Promise<{ done: boolean; nextMs: number; view: View }> {
  const end = Date.now() + budgetMs;
  for (;;) {
    const view = await observe(w, uid, mem);
    const step = await stopStep(w, pod, view, target, graceSeconds, record, mem);
    if (step.done) return { ...step, view };
    if (Date.now() >= end) return { ...step, view };
    await sleep(Math.max(1, Math.min(10, step.nextMs, end - Date.now())));
  }
}
