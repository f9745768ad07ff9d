// The prober manager (pkg/kubelet/prober/prober_manager.go and worker.go's run loop): one
// worker per probed container and probe type while its pod runs here, each a timer of its own
// ticking every periodSeconds, reading the pod's newest status (as the kubelet's workers read
// the status manager's), probing through prober.ts and keeping the results the sync and the
// status read (lifecycle/probes.ts holds every rule). A probe never runs under the pod's lock:
// the sync only reads the results, and a changed result asks for a sync (`changed`), as the
// kubelet's results managers feed its sync loop. Timers are unref'd and end with the pod.
//
// Unlike the kubelet, a worker's first probe is not delayed by a random part of its period after
// an agent start (the kubelet spreads probes that way after a restart of its own).

import type { Container, ContainerStatus, Pod, PodStatus, Probe } from '../../api/types.js';
import { bareContainerID, newProbeWorkerState, probeDecision, probedContainers, probeRecord, ProbeResults, proberResult, probeTiming, type HandlerOutcome, type ProbeTiming, type ProbeType, type ProbeView, type ProbeWorkerState, type ResultChange } from '../lifecycle/probes.js';
import type { EventSink } from './context.js';
import type { ProbeTarget } from './prober.js';

export interface ProbeHost {
  /** The clock the status times are read against (initialDelaySeconds). */
  now(): number;
  /** The pod's newest status, from its last sync (undefined before the first). */
  status(uid: string): PodStatus | undefined;
  /** Where to probe a running container, or undefined when it cannot be reached now. */
  target(uid: string, container: Container, id: string): ProbeTarget | undefined;
  run(probe: Probe, target: ProbeTarget): Promise<HandlerOutcome>;
  /** Where the Unhealthy and ProbeWarning events go (they happen between syncs). */
  record?: EventSink;
  /** A result changed: the pod wants a sync. */
  changed(uid: string): void;
}

interface Worker {
  uid: string;
  name: string;
  type: ProbeType;
  probe: Probe;
  timing: ProbeTiming;
  state: ProbeWorkerState;
  timer?: NodeJS.Timeout;
  /** The ticker's next tick (real time). */
  nextAt: number;
  running: boolean;
  /** A manual trigger while a probe ran (the kubelet's buffered manualTriggerCh). */
  triggered: boolean;
  stopped: boolean;
}

const key = (name: string, type: ProbeType) => `${name}\u0000${type}`;

export class ProbeManager {
  readonly results = new ProbeResults();
  private readonly workers = new Map<string, Map<string, Worker>>();
  private readonly podOf = new Map<string, Pod>();

  constructor(private readonly host: ProbeHost) {}

  /** AddPod: a worker for each probe of the pod's containers and sidecars that has none yet. */
  addPod(uid: string, pod: Pod): void {
    this.podOf.set(uid, pod);
    let ws = this.workers.get(uid);
    if (!ws) this.workers.set(uid, (ws = new Map()));
    for (const p of probedContainers(pod)) {
      const k = key(p.name, p.type);
      if (ws.has(k)) continue;
      const timing = probeTiming(p.probe);
      const w: Worker = { uid, name: p.name, type: p.type, probe: p.probe, timing, state: newProbeWorkerState(), nextAt: Date.now(), running: false, triggered: false, stopped: false };
      ws.set(k, w);
      void this.tick(w);
    }
  }

  /** StopLivenessAndStartup: the pod is being stopped; readiness goes on until it is removed. */
  stopLivenessAndStartup(uid: string, pod: Pod): void {
    if (this.podOf.has(uid)) this.podOf.set(uid, pod);
    for (const w of this.workers.get(uid)?.values() ?? []) if (w.type !== 'readiness') this.stop(w);
  }

  /** RemovePod: every worker of the pod ends and its results go. */
  removePod(uid: string): void {
    for (const w of this.workers.get(uid)?.values() ?? []) this.stop(w);
    this.workers.delete(uid);
    this.podOf.delete(uid);
  }

  /** Every pod's workers end (the agent stops; a later sync starts them again). */
  removeAll(): void {
    for (const uid of [...this.workers.keys()]) this.removePod(uid);
  }

  /**
   * UpdatePodStatus's manual trigger: probe readiness as soon as the status being built is the
   * pod's (the next turn of the event loop; a buffered trigger, never blocking the caller).
   */
  trigger(uid: string, name: string, type: ProbeType): void {
    const w = this.workers.get(uid)?.get(key(name, type));
    if (!w || w.stopped || w.triggered) return;
    w.triggered = true;
    if (!w.running) {
      setImmediate(() => {
        if (w.running || w.stopped) return;
        w.triggered = false;
        void this.tick(w);
      });
    }
  }

  /** How many workers run (all pods, or one): none once a pod is removed. */
  workerCount(uid?: string): number {
    if (uid !== undefined) return this.workers.get(uid)?.size ?? 0;
    let n = 0;
    for (const ws of this.workers.values()) n += ws.size;
    return n;
  }

  /** What the sync and the status read for one pod. */
  view(uid: string): ProbeView {
    return {
      result: (type, id) => this.results.get(type, id),
      hasWorker: (name, type) => this.workers.get(uid)?.has(key(name, type)) === true,
    };
  }

  /** The readiness workers a status waits on (started, running, not ready): asked to probe at once. */
  triggerWaiting(uid: string, statuses: readonly ContainerStatus[]): void {
    for (const s of statuses) if (s.started && !s.ready && s.state?.running) this.trigger(uid, s.name, 'readiness');
  }

  private stop(w: Worker): void {
    if (w.stopped) return;
    w.stopped = true;
    if (w.timer) clearTimeout(w.timer);
    w.timer = undefined;
    const ws = this.workers.get(w.uid);
    if (ws?.get(key(w.name, w.type)) === w) ws.delete(key(w.name, w.type));
    // The worker's cleanup: its container's result goes with it (a probe in flight is dropped).
    if (w.state.containerID) this.results.remove(w.type, w.state.containerID);
  }

  private schedule(w: Worker): void {
    if (w.stopped) return;
    const now = Date.now();
    const period = w.timing.periodSeconds * 1000;
    while (w.nextAt <= now) w.nextAt += period;
    w.timer = setTimeout(() => void this.tick(w), w.nextAt - now);
    w.timer.unref();
  }

  private async tick(w: Worker): Promise<void> {
    if (w.stopped) return;
    if (w.running) {
      w.triggered = true;
      return;
    }
    if (w.timer) clearTimeout(w.timer);
    w.timer = undefined;
    w.running = true;
    let keepGoing = true;
    try {
      keepGoing = await this.doProbe(w);
    } catch {
      // As doProbe's recover: the worker goes on.
    } finally {
      w.running = false;
    }
    if (w.stopped) return;
    if (!keepGoing) {
      this.stop(w);
      return;
    }
    if (w.triggered) {
      w.triggered = false;
      setImmediate(() => void this.tick(w));
      return;
    }
    this.schedule(w);
  }

  private apply(uid: string, changes: ResultChange[], type: ProbeType): void {
    let changed = false;
    for (const c of changes) {
      if (c.op === 'remove') this.results.remove(type, c.id);
      else if (this.results.set(type, c.id, c.result)) changed = true;
    }
    if (changed) this.host.changed(uid);
  }

  /** One doProbe: whether the worker goes on. */
  private async doProbe(w: Worker): Promise<boolean> {
    const pod = this.podOf.get(w.uid);
    if (!pod) return true;
    const status = this.host.status(w.uid);
    const find = (l: ContainerStatus[] | undefined) => l?.find((s) => s.name === w.name && s.containerID);
    const cs = find(status?.containerStatuses) ?? find(status?.initContainerStatuses);
    const id = bareContainerID(cs?.containerID);
    const runningSince = cs?.state?.running ? Date.parse(cs.state.running.startedAt ?? '') : undefined;
    const d = probeDecision(w.state, {
      type: w.type,
      timing: w.timing,
      ...(status?.phase ? { phase: status.phase } : {}),
      deleting: !!pod.metadata.deletionTimestamp,
      restartPolicy: pod.spec.restartPolicy ?? 'Always',
      ...(cs && id ? { subject: { id, ...(runningSince !== undefined && !Number.isNaN(runningSince) ? { runningSince } : {}), terminated: cs.state?.terminated !== undefined, started: cs.started === true } } : {}),
      now: this.host.now(),
    });
    w.state = d.state;
    this.apply(w.uid, d.changes, w.type);
    if (d.next !== 'probe' || !id) return d.next !== 'stop';
    const container = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === w.name);
    const target = container ? this.host.target(w.uid, container, id) : undefined;
    if (!target) return true;
    const outcome = await this.host.run(w.probe, target);
    if (w.stopped || w.state.containerID !== id) return true;
    const r = proberResult(w.type, outcome);
    if (r.event && this.host.record) {
      try {
        this.host.record(pod, 'Warning', r.event.reason, r.event.message);
      } catch {
        // An event sink failure must not stop the probes.
      }
    }
    const rec = probeRecord(w.state, w.type, w.timing, r.result);
    w.state = rec.state;
    this.apply(w.uid, rec.changes, w.type);
    return true;
  }
}
