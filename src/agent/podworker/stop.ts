// Stopping a pod's containers in the kubelet's order (kuberuntime_container.go
// killContainersWithSyncResult and killContainer, with the sidecar order of
// KEP-753): the preStop hook (hooks.ts) within the grace, SIGTERM, SIGKILL after what is left of
// the grace (at least 2 s), the sandbox last. Never blocks for the grace or a hook: a
// step signals what is due and says when it wants to run again. stopFor steps until done, out of
// budget, or (with a give-up bound) until what it waits for has outlived its SIGKILL by that
// bound: a process in uninterruptible sleep or in a frozen cgroup v1 survives a delivered SIGKILL,
// and the kubelet's StopContainer, too, fails once its --runtime-request-timeout has passed.

import type { Container, LifecycleHandler, Pod } from '../../api/types.js';
import type { KillRequest } from '../lifecycle/actions.js';
import { graceAfterPreStop, hookMessages, hookReasons, preStopRuns } from '../lifecycle/hooks.js';
import { deadlineExceeded, type KillFailure } from '../lifecycle/killresult.js';
import { messages, reasons } from '../lifecycle/wording.js';
import type { InstanceRecord } from '../podrecords.js';
import { emit, minimumGraceSeconds, sleep, type EventSink, type PodMemory, type View, type WorkerContext } from './context.js';
import { runHook } from './hooks.js';
import { observe } from './observe.js';
import { podNetnsByUID } from './queries.js';

export type StopTarget = { all: true } | { kill: KillRequest[] };

/**
 * One step of stopping `targets` (every container and then the sandbox when `all`): SIGTERM in
 * the kubelet's order (regular and init containers together, then sidecars in reverse spec
 * order, each group once the ones before it have exited or the grace is used up), SIGKILL to
 * whatever outlives its grace (at least minimumGraceSeconds after its SIGTERM), the sandbox
 * SIGKILLed once no container is left. Returns whether everything targeted has exited, and what
 * the step waits for now (the targeted containers still there, or else the sandbox).
 */
export async function stopStep(w: WorkerContext, pod: Pod, view: View, target: StopTarget, graceSeconds: number, record: EventSink, mem: PodMemory): Promise<{ done: boolean; nextMs: number; waiting: InstanceRecord[] }> {
  const now = w.now();
  const live = view.recs.filter((r) => r.state !== 'exited');
  const wanted = 'all' in target ? live : live.filter((r) => target.kill.some((k) => k.id === r.id));
  const containers = wanted.filter((r) => r.kind !== 'sandbox');
  const sandbox = 'all' in target ? wanted.filter((r) => r.kind === 'sandbox') : [];
  if (containers.length === 0 && sandbox.length === 0) {
    mem.stopSince = undefined;
    mem.stopGraceMs = undefined;
    return { done: true, nextMs: 0, waiting: [] };
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
        const req = 'kill' in target ? target.kill.find((x) => x.id === r.id) : undefined;
        // A kill with a grace of its own (a probe's terminationGracePeriodSeconds) is not the pod's.
        const graceMs = req?.graceSeconds !== undefined ? Math.max(0, req.graceSeconds) * 1000 : deadline - now;
        const spec = containerSpec(pod, r);
        const preStop = spec?.lifecycle?.preStop;
        // killContainer: the Killing event, then the preStop hook (every container's at once, as
        // the kubelet kills them in parallel), and SIGTERM once it is done and it is the group's turn.
        if (!mayStart && !preStopRuns(preStop, graceMs)) {
          nextMs = Math.min(nextMs, deadline - now);
          continue;
        }
        emit(record, pod, 'Normal', reasons.killing, req?.message ?? messages.stopping(r.container));
        if (spec && preStopRuns(preStop, graceMs)) {
          k = { termAt: now, killAt: now + graceMs, killed: false, preStop: { startedAt: now, graceMs, done: false } };
          mem.kills.set(r.id, k);
          startPreStop(w, pod, r, spec, preStop, k.preStop!, record);
        } else {
          await w.runtime.kill(r.id, 'TERM').catch(() => undefined);
          k = { termAt: now, killAt: now + Math.max(graceMs, minimumGraceSeconds * 1000), killed: false };
          mem.kills.set(r.id, k);
        }
      }
      if (k.preStop) {
        const hook = k.preStop;
        const hookEnd = hook.startedAt + hook.graceMs;
        if (!(hook.done || now >= hookEnd) || !mayStart) {
          nextMs = Math.min(nextMs, hook.done ? deadline - now : Math.min(hookPollMs, hookEnd - now));
          continue;
        }
        // The hook is over (or out of time): SIGTERM with what is left of the grace.
        await w.runtime.kill(r.id, 'TERM').catch(() => undefined);
        k.termAt = now;
        k.killAt = now + graceAfterPreStop(hook.graceMs, now - hook.startedAt, minimumGraceSeconds);
        delete k.preStop;
      }
      if (!k.killed && now >= k.killAt) {
        const err = await sigkill(w, r.id);
        k.killTried = true;
        k.killed = err === undefined;
        if (err !== undefined) {
          k.killError = err;
          k.killAt = now + killRetryMs;
        } else delete k.killError;
      }
      nextMs = Math.min(nextMs, k.killed ? 20 : k.killAt - now);
    }
    if (g.length) earlierAlive = true;
  }
  if (containers.length === 0) {
    for (const r of sandbox) {
      const k = mem.kills.get(r.id);
      if (!k || (!k.killed && now >= k.killAt)) {
        const err = await sigkill(w, r.id);
        const killed = err === undefined;
        mem.kills.set(r.id, { termAt: k?.termAt ?? now, killAt: killed ? now : now + killRetryMs, killed, killTried: true, ...(killed ? {} : { killError: err }) });
      }
      nextMs = Math.min(nextMs, 20);
    }
  }
  return { done: false, nextMs: Math.max(1, nextMs), waiting: containers.length ? containers : sandbox };
}

/** How often a stop step looks whether a running preStop hook has ended. */
const hookPollMs = 20;

/** The spec of the container an instance runs (undefined: not in the pod's spec any more). */
function containerSpec(pod: Pod, r: InstanceRecord): Container | undefined {
  const list = r.kind === 'container' ? pod.spec.containers : (pod.spec.initContainers ?? []);
  return list.find((c) => c.name === r.container);
}

/**
 * executePreStopHook: runs the hook in the background; `state.done` once it has ended. A hook that
 * fails is a FailedPreStopHook Warning (the message withheld, as the kubelet withholds it), to the
 * sink of events between syncs when there is one: the hook may end after the sync that started it.
 */
function startPreStop(w: WorkerContext, pod: Pod, r: InstanceRecord, c: Container, h: LifecycleHandler, state: { done: boolean }, syncRecord: EventSink): void {
  const record = w.opts.probeEvents ?? syncRecord;
  const netns = podNetnsByUID(w, r.podUID);
  void runHook(w.runtime, pod, c, h, { container: c, id: r.id, bundle: w.records.bundleDir(r.id), netns, dialer: w.dialer })
    .then(
      (res) => {
        if (!res.ok) emit(record, pod, 'Warning', hookReasons.failedPreStopHook, hookMessages.preStopFailed);
      },
      () => emit(record, pod, 'Warning', hookReasons.failedPreStopHook, hookMessages.preStopFailed),
    )
    .finally(() => (state.done = true));
}

/**
 * A SIGKILL the runtime refused (runc failed, the state was busy) is sent again this long after,
 * as the kubelet's next sync retries killContainer; one that was sent is not: the process dies,
 * and observe sees it go (a container that has exited meanwhile also refuses the signal).
 */
const killRetryMs = 1000;

/** SIGKILL: undefined when the runtime sent it, else its refusal. */
async function sigkill(w: WorkerContext, id: string): Promise<string | undefined> {
  return w.runtime.kill(id, 'KILL').then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}

export interface StopResult {
  done: boolean;
  nextMs: number;
  view: View;
  /** Set when stopFor gave up: what did not exit within the bound after its SIGKILL, and why, in the kubelet's terms. */
  failures?: KillFailure[];
}

/**
 * Steps stopStep, observing exits, until done or `budgetMs` has passed, or, with `giveUpMs`, until
 * everything the step waits for has had its SIGKILL tried and `giveUpMs` has passed since this call
 * first saw it so (a retry whose SIGKILL went out earlier waits the bound once more, as the
 * kubelet's next StopContainer does): then it returns not done, with the failures. The bound is
 * real time, as the kubelet's CRI timeout is, whatever clock the grace is measured on.
 */
export async function stopFor(w: WorkerContext, pod: Pod, uid: string, target: StopTarget, graceSeconds: number, budgetMs: number, record: EventSink, mem: PodMemory, giveUpMs?: number): Promise<StopResult> {
  const end = Date.now() + budgetMs;
  let killedSince: number | undefined;
  for (;;) {
    const view = await observe(w, uid, mem);
    const step = await stopStep(w, pod, view, target, graceSeconds, record, mem);
    if (step.done) return { done: true, nextMs: step.nextMs, view };
    const t = Date.now();
    if (giveUpMs !== undefined) {
      const killed = step.waiting.length > 0 && step.waiting.every((r) => mem.kills.get(r.id)?.killTried);
      killedSince = killed ? (killedSince ?? t) : undefined;
      if (killedSince !== undefined && t - killedSince >= giveUpMs) return { done: false, nextMs: step.nextMs, view, failures: step.waiting.map((r) => killFailure(r, mem, pod)) };
    }
    if (t >= end) return { done: false, nextMs: step.nextMs, view };
    await sleep(Math.max(1, Math.min(10, step.nextMs, end - t)));
  }
}

/** How the kubelet would name a container or sandbox that outlived its stop: the runtime's refusal, or its CRI timeout. */
function killFailure(r: InstanceRecord, mem: PodMemory, pod: Pod): KillFailure {
  const message = mem.kills.get(r.id)?.killError ?? deadlineExceeded;
  return r.kind === 'sandbox' ? { action: 'KillPodSandbox', target: pod.metadata.uid ?? r.podUID, message } : { action: 'KillContainer', target: r.container, message };
}
