// The kubelet's container probes as pure rules (pkg/kubelet/prober: worker.go doProbe,
// prober_manager.go UpdatePodStatus and isContainerStarted, prober.go probe; results/
// results_manager.go): a probe worker's state machine, its thresholds, the result cache the
// status and the sync read, and the words of the events. The probing itself (exec, TCP, HTTP in
// the pod's network namespace) and the timers are the pod worker's (podworker/probes.ts).
//
// - Each container with a probe gets one worker per probe type while its pod runs here. A
//   worker's value for a container ID starts at the type's initial value (readiness Failure,
//   liveness Success, startup Unknown) when it first sees that ID; a restarted container (a new
//   ID) starts again from there.
// - Liveness and readiness wait for startup to succeed; startup stops probing once started.
// - A result counts once it repeats failureThreshold (successThreshold) times in a row; a
//   liveness or startup failure puts the worker on hold until the container is replaced.
// - A probe that errored (it could not be run at all) changes nothing.

import type { ContainerStatus, Pod, Probe } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';

export type ProbeType = 'liveness' | 'readiness' | 'startup';
export const probeTypes: readonly ProbeType[] = ['startup', 'readiness', 'liveness'];
/** results.Result: what the sync and the status read. */
export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** probeType.String(), the first word of the events. */
export const probeTypeName: Record<ProbeType, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

/** The value a worker sets for a container it has not probed yet. */
export const initialValue: Record<ProbeType, ProbeResult> = { readiness: 'Failure', liveness: 'Success', startup: 'Unknown' };

export function probeOf(c: { livenessProbe?: Probe; readinessProbe?: Probe; startupProbe?: Probe }, type: ProbeType): Probe | undefined {
  return type === 'liveness' ? c.livenessProbe : type === 'readiness' ? c.readinessProbe : c.startupProbe;
}

/** The probe's timing with SetDefaults_Probe's values where the spec leaves them out. */
export interface ProbeTiming {
  initialDelaySeconds: number;
  timeoutSeconds: number;
  periodSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

export function probeTiming(p: Probe): ProbeTiming {
  const pos = (v: number | undefined, d: number) => (typeof v === 'number' && v > 0 ? v : d);
  return {
    initialDelaySeconds: typeof p.initialDelaySeconds === 'number' && p.initialDelaySeconds > 0 ? p.initialDelaySeconds : 0,
    timeoutSeconds: pos(p.timeoutSeconds, 1),
    periodSeconds: pos(p.periodSeconds, 10),
    successThreshold: pos(p.successThreshold, 1),
    failureThreshold: pos(p.failureThreshold, 3),
  };
}

/** The containers the prober manager makes workers for (AddPod): regular containers and sidecars. */
export function probedContainers(pod: Pod): { name: string; type: ProbeType; probe: Probe }[] {
  const out: { name: string; type: ProbeType; probe: Probe }[] = [];
  for (const c of [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter(isSidecar)]) {
    for (const type of probeTypes) {
      const probe = probeOf(c, type);
      if (probe) out.push({ name: c.name, type, probe });
    }
  }
  return out;
}

/**
 * The kubelet's three results managers in one: per probe type, the result per container ID
 * (the bare runtime id). set() answers whether the value changed (the kubelet's Updates channel
 * is fed only then).
 */
export class ProbeResults {
  private readonly byType = new Map<ProbeType, Map<string, ProbeResult>>(probeTypes.map((t) => [t, new Map()]));

  get(type: ProbeType, id: string): ProbeResult | undefined {
    return this.byType.get(type)!.get(id);
  }

  set(type: ProbeType, id: string, result: ProbeResult): boolean {
    const m = this.byType.get(type)!;
    if (m.get(id) === result) return false;
    m.set(id, result);
    return true;
  }

  remove(type: ProbeType, id: string): void {
    this.byType.get(type)!.delete(id);
  }
}

/** What a worker keeps between probes (worker.go's fields). */
export interface ProbeWorkerState {
  /** The container ID the worker last saw (bare runtime id). */
  containerID?: string;
  /** The last probe's result, and how many times in a row it came. Go's zero value is Success. */
  lastResult: ProbeResult;
  resultRun: number;
  /** After a liveness or startup failure: no probing until the container is replaced. */
  onHold: boolean;
}

export function newProbeWorkerState(): ProbeWorkerState {
  return { lastResult: 'Success', resultRun: 0, onHold: false };
}

/** What the status shows of the probed container (regular or init), as doProbe reads it. */
export interface ProbeSubject {
  /** The bare runtime id, when the container has one. */
  id?: string;
  /** Running since (ms since the epoch); undefined when not running. */
  runningSince?: number;
  terminated: boolean;
  started: boolean;
}

export interface ProbeContext {
  type: ProbeType;
  timing: ProbeTiming;
  /** The pod's phase in the status the worker reads; undefined while the pod has none yet. */
  phase?: string;
  deleting: boolean;
  restartPolicy: string;
  /** undefined: the container has no status, or no ID yet. */
  subject?: ProbeSubject;
  now: number;
}

/** A change to the results cache. */
export type ResultChange = { op: 'set'; id: string; result: ProbeResult } | { op: 'remove'; id: string };

/**
 * doProbe up to the probe itself: whether to probe now (`probe`), to wait for the next period
 * (`wait`), or to end the worker (`stop`, and its cleanup removes the result of its container),
 * and the cache changes on the way.
 */
export function probeDecision(s: ProbeWorkerState, c: ProbeContext): { next: 'probe' | 'wait' | 'stop'; state: ProbeWorkerState; changes: ResultChange[] } {
  const changes: ResultChange[] = [];
  const state = { ...s };
  const out = (next: 'probe' | 'wait' | 'stop') => ({ next, state, changes });
  // No status yet: wait. A terminated pod ends the worker.
  if (c.phase === undefined) return out('wait');
  if (c.phase === 'Failed' || c.phase === 'Succeeded') return out('stop');
  const sub = c.subject;
  if (!sub?.id) return out('wait');
  if (state.containerID !== sub.id) {
    if (state.containerID) changes.push({ op: 'remove', id: state.containerID });
    state.containerID = sub.id;
    changes.push({ op: 'set', id: sub.id, result: initialValue[c.type] });
    state.onHold = false;
  }
  if (state.onHold) return out('wait');
  if (sub.runningSince === undefined) {
    changes.push({ op: 'set', id: sub.id, result: 'Failure' });
    // A container that will not be restarted ends the worker.
    return out(!sub.terminated || c.restartPolicy !== 'Never' ? 'wait' : 'stop');
  }
  // Graceful shutdown: liveness and startup go quiet with a last Success.
  if (c.deleting && (c.type === 'liveness' || c.type === 'startup')) {
    changes.push({ op: 'set', id: sub.id, result: 'Success' });
    return out('stop');
  }
  // int32(time.Since(startedAt).Seconds()) < initialDelaySeconds
  if (Math.trunc((c.now - sub.runningSince) / 1000) < c.timing.initialDelaySeconds) return out('wait');
  if (sub.started) {
    if (c.type === 'startup') return out('wait');
  } else if (c.type !== 'startup') return out('wait');
  return out('probe');
}

/**
 * doProbe after the probe: the run of equal results, the thresholds, and the hold after a
 * liveness or startup failure. `result` undefined: the probe errored, its result is thrown away.
 */
export function probeRecord(s: ProbeWorkerState, type: ProbeType, timing: ProbeTiming, result: 'Success' | 'Failure' | undefined): { state: ProbeWorkerState; changes: ResultChange[] } {
  const id = s.containerID;
  if (result === undefined || !id) return { state: s, changes: [] };
  const state = { ...s };
  if (state.lastResult === result) state.resultRun++;
  else {
    state.lastResult = result;
    state.resultRun = 1;
  }
  if ((result === 'Failure' && state.resultRun < timing.failureThreshold) || (result === 'Success' && state.resultRun < timing.successThreshold)) return { state, changes: [] };
  const changes: ResultChange[] = [{ op: 'set', id, result }];
  if ((type === 'liveness' || type === 'startup') && result === 'Failure') {
    state.onHold = true;
    state.resultRun = 0;
  }
  return { state, changes };
}

/** What a handler reports (pkg/probe's Result with its output), or an error: it could not probe. */
export type HandlerOutcome = { result: 'Success' | 'Failure' | 'Warning' | 'Unknown'; output: string } | { error: string };

export const probeReasons = {
  /** events.ContainerUnhealthy */
  unhealthy: 'Unhealthy',
  /** events.ContainerProbeWarning */
  probeWarning: 'ProbeWarning',
} as const;

/**
 * prober.probe: the worker's result (undefined: errored, thrown away) and the Warning event,
 * in the kubelet's words. Warning (an HTTP redirect not followed) counts as Success.
 */
export function proberResult(type: ProbeType, o: HandlerOutcome): { result?: 'Success' | 'Failure'; event?: { reason: string; message: string } } {
  const name = probeTypeName[type];
  if ('error' in o) return { event: { reason: probeReasons.unhealthy, message: `${name} probe errored: ${o.error}` } };
  switch (o.result) {
    case 'Success':
      return { result: 'Success' };
    case 'Warning':
      return { result: 'Success', event: { reason: probeReasons.probeWarning, message: `${name} probe warning: ${o.output}` } };
    default:
      return { result: 'Failure', event: { reason: probeReasons.unhealthy, message: `${name} probe failed: ${o.output}` } };
  }
}

/** The prober manager's view for the status: results, and which workers exist now. */
export interface ProbeView {
  result(type: ProbeType, id: string): ProbeResult | undefined;
  hasWorker(container: string, type: ProbeType): boolean;
}

export const noProbes: ProbeView = { result: () => undefined, hasWorker: () => false };

/** The bare runtime id of a status's containerID (`runc://<id>`). */
export function bareContainerID(containerID: string | undefined): string | undefined {
  if (!containerID) return undefined;
  const i = containerID.indexOf('://');
  return i >= 0 ? containerID.slice(i + 3) : containerID;
}

/** isContainerStarted. */
export function containerStarted(s: ContainerStatus, probes: ProbeView): boolean {
  if (!s.state?.running) return false;
  const id = bareContainerID(s.containerID);
  const r = id ? probes.result('startup', id) : undefined;
  if (r !== undefined) return r === 'Success';
  return !probes.hasWorker(s.name, 'startup');
}

/**
 * UpdatePodStatus for one regular container or sidecar: `started`, and `ready` once started (a
 * container not started keeps ready false). `triggerReadiness`: ready waits on a readiness
 * worker that has no success yet, which the kubelet then asks to probe at once.
 */
export function applyProbes(s: ContainerStatus, probes: ProbeView): { status: ContainerStatus; triggerReadiness: boolean } {
  const started = containerStarted(s, probes);
  if (!started) return { status: { ...s, started, ready: false }, triggerReadiness: false };
  if (!s.state?.running) return { status: { ...s, started, ready: false }, triggerReadiness: false };
  const id = bareContainerID(s.containerID);
  if (id && probes.result('readiness', id) === 'Success') return { status: { ...s, started, ready: true }, triggerReadiness: false };
  const worker = probes.hasWorker(s.name, 'readiness');
  return { status: { ...s, started, ready: !worker }, triggerReadiness: worker };
}

/** Why a running container is killed over its probes (computePodActions), if it is. */
export function probeKillReason(id: string, probes: Pick<ProbeView, 'result'>): 'liveness' | 'startup' | undefined {
  if (probes.result('liveness', id) === 'Failure') return 'liveness';
  if (probes.result('startup', id) === 'Failure') return 'startup';
  return undefined;
}

/** The Killing event of a probe kill: `Container app failed liveness probe, will be restarted`. */
export function probeKillMessage(name: string, why: 'liveness' | 'startup', init: boolean, restart: boolean): string {
  return `${init ? 'Init container' : 'Container'} ${name} failed ${why} probe${restart ? ', will be restarted' : ''}`;
}

/**
 * setTerminationGracePeriod for a probe kill: the probe's terminationGracePeriodSeconds when set,
 * else the pod's (a deleting pod's own grace wins, but deleting pods are stopped whole here).
 */
export function probeKillGrace(pod: Pod, probe: Probe | undefined): number | undefined {
  if (pod.metadata.deletionGracePeriodSeconds != null) return pod.metadata.deletionGracePeriodSeconds;
  if (pod.spec.terminationGracePeriodSeconds == null) return undefined;
  return probe?.terminationGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds;
}
