// The scheduler: an in-process controller that binds pending pods (no spec.nodeName,
// schedulerName default-scheduler) to nodes, one pod at a time so that every decision sees the
// pods bound before it. The rules are in src/scheduler (filters, scoring, messages); binding
// goes through the binding subresource's rules (src/scheduler/bind.ts).
//
// A pod that fits nowhere gets, as kube-scheduler gives it, a Warning event FailedScheduling
// (source default-scheduler; repeats of the same message bump the event's count) and the
// condition PodScheduled=False/Unschedulable with the same message. It is tried again when a
// node appears or changes in a way that matters to scheduling, when a bound pod goes away or
// finishes, when its own spec or labels change, and every `resyncMs`.

import type { Event, KubeObject, Node, Pod, PodCondition } from '../api/types.js';
import type { Api, RequestInfo } from '../apiserver/rest.js';
import { timestamp } from '../apiserver/objects.js';
import { StatusError } from '../apiserver/status.js';
import { bindPod } from '../apiserver/binding.js';
import { isActivePod } from '../scheduler/filters.js';
import { pickNode, type ScheduleDecision } from '../scheduler/pick.js';
import { KeyedQueue } from './queue.js';

export const defaultSchedulerName = 'default-scheduler';

const schedulerUser: RequestInfo = {
  user: { name: 'system:kube-scheduler', groups: ['system:masters'] },
  dryRun: false,
  fieldManager: 'default-scheduler',
  fieldValidation: 'Ignore',
  warnings: [],
};

export interface SchedulerOptions {
  /** Milliseconds between retries of every unschedulable pod (upstream: at most 5 minutes). */
  resyncMs?: number;
  schedulerName?: string;
  /** Called after every attempt (tests, metrics). */
  onDecision?: (pod: Pod, decision: ScheduleDecision) => void;
}

/** JSON with object keys sorted, so that equal values print equally. */
function stableJSON(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

function podKey(p: KubeObject): string {
  return `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
}

/** What of a pending pod can change a scheduling decision. */
function podFingerprint(p: Pod): string {
  return stableJSON({ spec: p.spec, labels: p.metadata.labels ?? {} });
}

/** What of a node can change a scheduling decision (not heartbeats). */
function nodeFingerprint(n: Node): string {
  return stableJSON({
    labels: n.metadata.labels ?? {},
    spec: n.spec ?? {},
    allocatable: n.status?.allocatable ?? {},
    features: n.status?.declaredFeatures ?? [],
    conditions: (n.status?.conditions ?? []).map((c) => [c.type, c.status]),
  });
}

export class SchedulerController {
  private readonly queue: KeyedQueue;
  private readonly schedulerName: string;
  private readonly resyncMs: number;
  private timer?: NodeJS.Timeout;
  private watches: { cancel(): void }[] = [];
  private stopped = false;
  /** One decision at a time. */
  private chain: Promise<void> = Promise.resolve();
  /** Pending pods that fit nowhere at their last attempt, with the spec that was tried. */
  private readonly unschedulable = new Map<string, string>();
  private readonly nodes = new Map<string, string>();
  /** FailedScheduling events written, by pod uid and message. */
  private readonly events = new Map<string, string>();
  private eventSeq = 0;

  constructor(private readonly api: Api, private readonly opts: SchedulerOptions = {}) {
    this.schedulerName = opts.schedulerName ?? defaultSchedulerName;
    this.resyncMs = opts.resyncMs ?? 60_000;
    this.queue = new KeyedQueue((key) => this.serialized(() => this.scheduleOne(key)));
  }

  /** Whether this scheduler is responsible for a pod that still needs a node. */
  private responsibleFor(p: Pod): boolean {
    return !p.spec.nodeName && !p.metadata.deletionTimestamp && (p.spec.schedulerName ?? defaultSchedulerName) === this.schedulerName && isActivePod(p);
  }

  async start(): Promise<void> {
    await this.watchPods();
    await this.watchNodes();
    this.timer = setInterval(() => void this.resyncAll().catch(() => undefined), this.resyncMs);
    this.timer.unref();
  }

  private async watchPods(): Promise<void> {
    const w = await this.api.watch(this.api.def('pods'), undefined, {}, {
      send: (t, o) => {
        if (t !== 'ADDED' && t !== 'MODIFIED' && t !== 'DELETED') return;
        const p = o as Pod;
        const key = podKey(p);
        if (t === 'DELETED') {
          this.unschedulable.delete(key);
          // A bound pod going away frees its node's resources.
          if (p.spec.nodeName && isActivePod(p)) this.retryUnschedulable();
          return;
        }
        if (this.responsibleFor(p)) {
          const tried = this.unschedulable.get(key);
          // Our own status writes (the PodScheduled condition) change nothing that matters.
          if (tried === undefined || tried !== podFingerprint(p)) this.queue.add(key);
          return;
        }
        this.unschedulable.delete(key);
        // A bound pod that finished frees its node's resources.
        if (p.spec.nodeName && !isActivePod(p)) this.retryUnschedulable();
      },
      close: () => this.rewatch(() => this.watchPods()),
    });
    this.watches.push(w);
  }

  private async watchNodes(): Promise<void> {
    const w = await this.api.watch(this.api.def('nodes'), undefined, {}, {
      send: (t, o) => {
        const n = o as Node;
        const name = n.metadata?.name ?? '';
        if (t === 'DELETED') {
          this.nodes.delete(name);
          return;
        }
        if (t !== 'ADDED' && t !== 'MODIFIED') return;
        const fp = nodeFingerprint(n);
        if (this.nodes.get(name) === fp) return;
        this.nodes.set(name, fp);
        this.retryUnschedulable();
      },
      close: () => this.rewatch(() => this.watchNodes()),
    });
    this.watches.push(w);
  }

  /** A watch that ended (compaction) starts over from a fresh list. */
  private rewatch(again: () => Promise<void>): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (!this.stopped) void again().catch((e: unknown) => console.error(`scheduler: watch: ${e instanceof Error ? e.message : String(e)}`));
    }, 200).unref();
  }

  private retryUnschedulable(): void {
    for (const key of this.unschedulable.keys()) this.queue.add(key);
  }

  /** Tries every pending pod again (the periodic flush of upstream's unschedulable queue). */
  async resyncAll(): Promise<void> {
    const pods = (await this.api.list(this.api.def('pods'), undefined)).items as Pod[];
    for (const p of pods) if (this.responsibleFor(p)) this.queue.add(podKey(p));
  }

  private serialized(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One scheduling attempt for one pod. */
  async scheduleOne(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const pod = await this.api.tryGet<Pod>(this.api.def('pods'), namespace, name);
    if (!pod || !this.responsibleFor(pod)) {
      this.unschedulable.delete(key);
      return;
    }
    const nodes = (await this.api.list(this.api.def('nodes'), undefined)).items as Node[];
    const all = (await this.api.list(this.api.def('pods'), undefined)).items as Pod[];
    const podsByNode = new Map<string, Pod[]>();
    for (const p of all) {
      if (!p.spec.nodeName || !isActivePod(p)) continue;
      let list = podsByNode.get(p.spec.nodeName);
      if (!list) podsByNode.set(p.spec.nodeName, (list = []));
      list.push(p);
    }
    const decision = pickNode(pod, nodes, podsByNode, this.api.gates);
    this.opts.onDecision?.(pod, decision);
    if (decision.node) {
      try {
        await bindPod(this.api, namespace, name, decision.node, { ...schedulerUser, warnings: [] });
      } catch (e) {
        // Bound or deleted meanwhile: nothing left to do for this pod.
        if (e instanceof StatusError && (e.code === 409 || e.code === 404)) {
          this.unschedulable.delete(key);
          return;
        }
        throw e;
      }
      this.unschedulable.delete(key);
      await this.setScheduledCondition(namespace, name, { type: 'PodScheduled', status: 'True' });
      await this.recordEvent(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${decision.node}`);
      return;
    }
    const message = decision.message!;
    this.unschedulable.set(key, podFingerprint(pod));
    await this.recordEvent(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    await this.setScheduledCondition(namespace, name, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message });
  }

  /** Sets the PodScheduled condition through the status subresource, when it changes. */
  private async setScheduledCondition(namespace: string, name: string, cond: PodCondition): Promise<void> {
    const def = this.api.def('pods');
    for (let attempt = 0; attempt < 5; attempt++) {
      const pod = await this.api.tryGet<Pod>(def, namespace, name);
      if (!pod) return;
      const conditions = [...(pod.status?.conditions ?? [])];
      const i = conditions.findIndex((c) => c.type === cond.type);
      const old = i >= 0 ? conditions[i] : undefined;
      if (old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return;
      const next: PodCondition = {
        type: cond.type,
        status: cond.status,
        lastProbeTime: null,
        lastTransitionTime: old && old.status === cond.status && old.lastTransitionTime ? old.lastTransitionTime : timestamp(this.api.now()),
        ...(cond.reason ? { reason: cond.reason } : {}),
        ...(cond.message ? { message: cond.message } : {}),
      };
      if (i >= 0) conditions[i] = next;
      else conditions.push(next);
      try {
        await this.api.update(def, namespace, name, { ...pod, status: { ...(pod.status ?? {}), conditions } } as Pod, { ...schedulerUser, warnings: [] }, 'status');
        return;
      } catch (e) {
        if (e instanceof StatusError && e.code === 404) return;
        if (e instanceof StatusError && e.code === 409) continue;
        throw e;
      }
    }
  }

  /** Writes a core/v1 event about a pod, or bumps the count of the same one written before. */
  private async recordEvent(pod: Pod, type: string, reason: string, action: string, message: string): Promise<void> {
    const def = this.api.def('events');
    const namespace = pod.metadata.namespace!;
    const now = timestamp(this.api.now());
    const cacheKey = `${pod.metadata.uid}\u0000${reason}\u0000${message}`;
    const known = this.events.get(cacheKey);
    if (known) {
      const ev = await this.api.tryGet<Event>(def, namespace, known);
      if (ev) {
        try {
          await this.api.update(def, namespace, known, { ...ev, count: (ev.count ?? 1) + 1, lastTimestamp: now } as Event, { ...schedulerUser, warnings: [] });
          return;
        } catch (e) {
          if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
        }
      }
    }
    const name = `${pod.metadata.name}.${(Date.now() * 1000 + (this.eventSeq++ % 1000)).toString(16)}`;
    const ev: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { kind: 'Pod', namespace, name: pod.metadata.name, uid: pod.metadata.uid, apiVersion: 'v1', resourceVersion: pod.metadata.resourceVersion },
      reason,
      message,
      source: { component: this.schedulerName },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.schedulerName,
      reportingInstance: this.schedulerName,
      action,
    };
    try {
      await this.api.create(def, namespace, ev, { ...schedulerUser, warnings: [] });
      this.events.set(cacheKey, name);
    } catch (e) {
      // The namespace may be going away; an event is not worth failing the attempt for.
      if (!(e instanceof StatusError)) throw e;
    }
  }

  /** Resolves when no scheduling attempt is queued or running. */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.chain;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const w of this.watches) w.cancel();
    this.watches = [];
    this.queue.stop();
  }
}
