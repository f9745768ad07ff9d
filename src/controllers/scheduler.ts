// The scheduler: an in-process controller that binds pending pods (no spec.nodeName,
// schedulerName default-scheduler) to nodes, one pod at a time so that every decision sees the
// pods bound before it. The rules are in src/scheduler (filters, scoring, messages). Like every
// controller it sees the API only through src/client: a KubeClient for its writes (the binding
// subresource, graceful deletes, status updates) and a SharedInformerFactory for its reads.
//
// Pods and nodes are read from shared informers, as kube-scheduler reads its own: the pod
// informer (a view of its own, named "scheduler") holds the pods that have not finished, without
// their managedFields (kube-scheduler's pod informer selects status.phase!=Succeeded,Failed and
// trims them), with indexers of the pods bound and nominated to each node, so an attempt costs
// O(nodes + pods on the nodes it looks at), never a listing of the store. The node informer is
// the one shared with the other controllers. Over the loopback client a write's watch event
// arrives before the write resolves, so the attempt after a binding sees the bound pod.
//
// Its writes can be paced as kube-scheduler's are by its client: a token bucket of `qps` per
// second and `burst` (KubeSchedulerConfiguration's clientConnection defaults, 50 and 100, the
// class's defaults), one token per binding and per failure's condition write, and a bucket of the
// same size for its events, which go through the controllers' EventRecorder
// (src/client/recorder.ts; with it, client-go's per-object spam filter and correlator). That
// limit protects a remote API server from a flood of writes; the server's own scheduler writes
// in process and runs unthrottled (qps 0, src/server/start.ts): 50 QPS capped it at about 74
// pods/s where the writes alone take 4,000/s (`npm run bench:scheduler`).
//
// A pod that fits nowhere gets, as kube-scheduler gives it, a Warning event FailedScheduling
// (source default-scheduler, written in the background; repeats of the same message bump the
// event's count) and the condition PodScheduled=False/Unschedulable with the same message; with
// no node at all the message is "no nodes available to schedule pods". It is tried again when a
// node appears or changes in a way that matters to scheduling, when a bound pod goes away or
// finishes, when its own spec or labels change, and every `resyncMs`.
//
// Preemption, as kube-scheduler's DefaultPreemption carries it out (the rules are in
// src/scheduler/preemption.ts; preemption.go's prepareCandidate and PreemptPod, schedule_one.go's
// handleSchedulingFailure): when a pod fits nowhere and removing lower-priority pods from a node
// would make room, each victim not already being deleted gets the condition
// DisruptionTarget=True/PreemptionByScheduler ("<schedulerName>: preempting to accommodate a
// higher priority pod") through its status, then a DELETE with its own grace period, then a
// Normal event Preempted ("Preempted by pod <uid> on node <node>", action Preempting); pods of
// lower priority nominated to that node lose their nomination. The preemptor then gets its
// FailedScheduling event (the FitError without a preemption message) and, in one status write,
// PodScheduled=False and status.nominatedNodeName. Pods nominated to a node count there against
// pods of lower or equal priority. When the victims are gone the preemptor is tried again, its
// nominated node first, and bound; the binding clears nominatedNodeName.

import type { FeatureGates } from '../api/featuregates.js';
import { updatePodCondition, type ConditionUpdate } from '../api/podconditions.js';
import type { KubeObject, Node, Pod } from '../api/types.js';
import { isActivePod } from '../scheduler/filters.js';
import { pickNode, type ScheduleDecision } from '../scheduler/pick.js';
import { DisruptionTarget, lowerPriorityNominatedPods, preemptedEventMessage, preemptionConditionMessage, ReasonPreemptionByScheduler, type Candidate } from '../scheduler/preemption.js';
import { isStatus } from '../client/errors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import { stripManagedFields, type SharedIndexInformer } from '../client/informer.js';
import type { KubeClient } from '../client/interface.js';
import { TokenBucket } from '../client/ratelimit.js';
import { EventRecorder } from '../client/recorder.js';
import { podsRef, nodesRef } from '../client/resources.js';
import { componentUserAgent } from '../client/useragent.js';
import { KeyedQueue } from './queue.js';

export const defaultSchedulerName = 'default-scheduler';

/** The name of the scheduler's own view of pods in the informer factory (active pods, no managedFields). */
export const schedulerPodsInformer = 'scheduler';

/** The pod informer's index of active pods by the node they are bound to. */
export const activePodsByNodeIndex = 'scheduler/active-by-node';

/** The pod informer's index of pending pods by the node they are nominated to (status.nominatedNodeName). */
export const nominatedPodsByNodeIndex = 'scheduler/nominated-by-node';

/** kube-scheduler's DefaultPodMaxInUnschedulablePodsDuration: an unschedulable pod is retried at least this often. */
export const defaultResyncMs = 5 * 60_000;

/** KubeSchedulerConfiguration clientConnection defaults. */
export const defaultClientQPS = 50;
export const defaultClientBurst = 100;

/**
 * The scheduler's loopback identity: its writes are recorded in managedFields as kube-scheduler's
 * are ("default-scheduler" is the profile's schedulerName, the events' source, not the manager).
 */
export const schedulerIdentity = { user: 'system:kube-scheduler', groups: ['system:masters'], userAgent: componentUserAgent('kube-scheduler', 'scheduler') };

export interface SchedulerOptions {
  /** The feature gates the filters read (the API server's). */
  gates: FeatureGates;
  /** Milliseconds between retries of every unschedulable pod (default: upstream's 5 minutes). */
  resyncMs?: number;
  schedulerName?: string;
  /** Called after every attempt (tests, metrics). */
  onDecision?: (pod: Pod, decision: ScheduleDecision) => void;
  /** The client-side rate limit of the scheduler's writes (default 50 per second, burst 100; 0: none). */
  qps?: number;
  burst?: number;
}

/** RFC 3339 seconds, as metav1.Time is written (condition transition times). */
function metaTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** JSON with object keys sorted, so that equal values print equally. */
function stableJSON(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

/**
 * Whether a change of a pending pod can change a scheduling decision: its spec or labels. Both
 * states were decoded from the store's JSON, which keeps key order, so plain JSON compares them.
 */
function schedulingInputsChanged(old: Pod, p: Pod): boolean {
  return JSON.stringify(old.spec) !== JSON.stringify(p.spec) || JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(p.metadata.labels ?? {});
}

function podKey(p: KubeObject): string {
  return `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
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

function boundActiveNode(p: Pod): string | undefined {
  return p.spec.nodeName && isActivePod(p) ? p.spec.nodeName : undefined;
}

/** A pending pod's nominated node (the nominator's view: kube-scheduler's queue holds pods not yet bound). */
function nominatedNode(p: Pod): string | undefined {
  return !p.spec.nodeName && isActivePod(p) && p.status?.nominatedNodeName ? p.status.nominatedNodeName : undefined;
}

/** The pods of each node as pickNode reads them, taken from an index only for the nodes it asks about. */
class PodsOnNodes extends Map<string, readonly Pod[]> {
  constructor(private readonly pods: SharedIndexInformer<Pod>, private readonly index = activePodsByNodeIndex) {
    super();
  }

  override get(node: string): readonly Pod[] {
    let list = super.get(node);
    if (!list) super.set(node, (list = [...this.pods.lister.byIndex(this.index, node).values()]));
    return list;
  }
}

export class SchedulerController {
  private readonly queue: KeyedQueue;
  private readonly schedulerName: string;
  private readonly resyncMs: number;
  private readonly events: EventRecorder;
  private readonly limiter: TokenBucket;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private started = false;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private unsubscribe: (() => void)[] = [];
  /** One decision at a time. */
  private chain: Promise<void> = Promise.resolve();
  /** Pending pods that fit nowhere at their last attempt. */
  private readonly unschedulable = new Set<string>();
  private readonly nodeFingerprints = new Map<string, string>();

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: SchedulerOptions) {
    this.schedulerName = opts.schedulerName ?? defaultSchedulerName;
    this.resyncMs = opts.resyncMs ?? defaultResyncMs;
    this.queue = new KeyedQueue((key) => this.serialized(() => this.scheduleOne(key)));
    const qps = opts.qps ?? defaultClientQPS;
    const burst = opts.burst ?? defaultClientBurst;
    this.limiter = new TokenBucket(qps, burst);
    // kube-scheduler's event clientset is a second client with the same limits.
    this.events = new EventRecorder(client, { component: this.schedulerName }, { limiter: new TokenBucket(qps, burst) });
    this.pods = informers.informerFor<Pod>(podsRef, { keep: isActivePod, transform: stripManagedFields }, schedulerPodsInformer);
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.pods.addIndex(activePodsByNodeIndex, boundActiveNode);
    this.pods.addIndex(nominatedPodsByNodeIndex, nominatedNode);
  }

  /** Whether this scheduler is responsible for a pod that still needs a node. */
  private responsibleFor(p: Pod): boolean {
    return !p.spec.nodeName && !p.metadata.deletionTimestamp && (p.spec.schedulerName ?? defaultSchedulerName) === this.schedulerName && isActivePod(p);
  }

  /** Starts both informers (WaitForCacheSync), then handles their changes and queues every pending pod. */
  async start(): Promise<void> {
    await Promise.all([this.pods.start(), this.nodes.start()]);
    for (const n of this.nodes.indexer.values()) this.nodeFingerprints.set(n.metadata.name ?? '', nodeFingerprint(n));
    this.started = true;
    // On a synced informer a new handler first gets every stored object as an add.
    this.unsubscribe.push(
      this.pods.addEventHandler({
        add: (p) => this.onPod('ADDED', p, undefined),
        update: (old, p) => this.onPod('MODIFIED', p, old),
        delete: (p) => this.onPod('DELETED', p, undefined),
      }),
    );
    this.unsubscribe.push(
      this.nodes.addEventHandler({
        add: (n) => this.onNode('ADDED', n),
        update: (_old, n) => this.onNode('MODIFIED', n),
        delete: (n) => this.onNode('DELETED', n),
      }),
    );
    this.resyncAll();
    this.timer = setInterval(() => this.resyncAll(), this.resyncMs);
    this.timer.unref();
  }

  private onPod(type: string, p: Pod, old: Pod | undefined): void {
    const key = podKey(p);
    if (type === 'DELETED') {
      this.unschedulable.delete(key);
      this.events.forget(p.metadata.uid);
      // A bound pod going away frees its node's resources; so does a nominated one.
      if (boundActiveNode(p) || nominatedNode(p)) this.retryUnschedulable();
      return;
    }
    // A pod losing its nomination gives the room it held back to the others.
    if (old && nominatedNode(old) && nominatedNode(old) !== nominatedNode(p)) this.retryUnschedulable();
    if (this.responsibleFor(p)) {
      // Our own status writes (the PodScheduled condition) change nothing that matters.
      if (!this.unschedulable.has(key) || !old || !this.responsibleFor(old) || schedulingInputsChanged(old, p)) this.queue.add(key);
      return;
    }
    this.unschedulable.delete(key);
    // A bound pod that finished frees its node's resources (the informer, which drops finished
    // pods, reports this as a delete of the last active state above).
    if (old && boundActiveNode(old) && !boundActiveNode(p)) this.retryUnschedulable();
  }

  private onNode(type: string, n: Node): void {
    const name = n.metadata?.name ?? '';
    if (type === 'DELETED') {
      this.nodeFingerprints.delete(name);
      return;
    }
    const fp = nodeFingerprint(n);
    if (this.nodeFingerprints.get(name) === fp) return;
    this.nodeFingerprints.set(name, fp);
    this.retryUnschedulable();
  }

  private retryUnschedulable(): void {
    for (const key of this.unschedulable) this.queue.add(key);
  }

  /** Tries every pending pod again (the periodic flush of upstream's unschedulable queue). */
  resyncAll(): void {
    if (!this.started) return;
    for (const p of this.pods.indexer.values()) if (this.responsibleFor(p)) this.queue.add(podKey(p));
  }

  private serialized(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One scheduling attempt for one pod. */
  async scheduleOne(key: string): Promise<void> {
    if (!this.started || this.stopped) return;
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const pod = this.pods.lister.get(namespace, name);
    if (!pod || !this.responsibleFor(pod)) {
      this.unschedulable.delete(key);
      return;
    }
    const nodes = [...this.nodes.indexer.values()];
    const decision = pickNode(pod, nodes, new PodsOnNodes(this.pods), this.opts.gates, new PodsOnNodes(this.pods, nominatedPodsByNodeIndex));
    this.opts.onDecision?.(pod, decision);
    if (decision.node) {
      await this.limiter.take();
      if (this.stopped) return;
      try {
        await this.client.bind(namespace, name, decision.node);
      } catch (e) {
        // Bound or deleted meanwhile: nothing left to do for this pod.
        if (isStatus(e, 409, 404)) {
          this.unschedulable.delete(key);
          return;
        }
        throw e;
      }
      // The binding set PodScheduled=True in the same write.
      this.unschedulable.delete(key);
      this.events.record(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${decision.node}`);
      return;
    }
    const message = decision.message!;
    this.unschedulable.add(key);
    // The PostFilter runs before the failure is recorded, as in kube-scheduler's scheduling cycle.
    if (decision.preemption) await this.prepareCandidate(pod, decision.preemption);
    if (this.stopped) return;
    this.events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    await this.setPodStatus(namespace, name, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }, decision.nominatedNodeName);
  }

  /**
   * prepareCandidate: preempts the victims not already being deleted (condition, graceful
   * delete, event), then takes the node away from the lower-priority pods nominated to it.
   */
  private async prepareCandidate(preemptor: Pod, c: Candidate): Promise<void> {
    const schedulerName = preemptor.spec.schedulerName ?? defaultSchedulerName;
    for (const victim of c.victims) {
      if (victim.metadata.deletionTimestamp || this.stopped) continue;
      const ns = victim.metadata.namespace ?? '';
      const vname = victim.metadata.name ?? '';
      const marked = await this.setPodStatus(ns, vname, { type: DisruptionTarget, status: 'True', reason: ReasonPreemptionByScheduler, message: preemptionConditionMessage(schedulerName) }, undefined, victim.metadata.uid);
      if (marked === 'gone') continue;
      await this.limiter.take();
      if (this.stopped) return;
      try {
        // No grace period given: the victim's own terminationGracePeriodSeconds.
        await this.client.delete(podsRef, ns, vname, { preconditions: { uid: victim.metadata.uid } });
      } catch (e) {
        // Already deleted (or replaced by a pod of the same name): nothing to preempt.
        if (isStatus(e, 404, 409)) continue;
        throw e;
      }
      this.events.record(victim, 'Normal', 'Preempted', 'Preempting', preemptedEventMessage(preemptor.metadata.uid ?? '', c.node));
    }
    const nominated = [...this.pods.lister.byIndex(nominatedPodsByNodeIndex, c.node).values()];
    for (const p of lowerPriorityNominatedPods(preemptor, nominated)) {
      if (this.stopped) return;
      await this.setPodStatus(p.metadata.namespace ?? '', p.metadata.name ?? '', undefined, '');
    }
  }

  /**
   * Writes a pod's status through the status subresource (a rate-limited request) when it
   * changes: `cond` set (as UpdatePodCondition does) and, when `nominated` is given, its
   * nominatedNodeName ('' removes it). 'gone' when the pod (of that uid) no longer exists.
   */
  private async setPodStatus(namespace: string, name: string, cond: ConditionUpdate | undefined, nominated?: string, uid?: string): Promise<'done' | 'gone'> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const pod = this.pods.lister.get(namespace, name);
      if (!pod || (uid && pod.metadata.uid !== uid)) return 'gone';
      const now = metaTime(this.client.now());
      const { conditions, changed } = cond ? updatePodCondition(pod.status?.conditions ?? [], cond, now) : { conditions: pod.status?.conditions, changed: false };
      const nominationChanged = nominated !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominated;
      if (!changed && !nominationChanged) return 'done';
      await this.limiter.take();
      if (this.stopped) return 'done';
      // The pod may have changed while this waited for its turn.
      if (this.pods.lister.get(namespace, name) !== pod) continue;
      const status = { ...(pod.status ?? {}), ...(conditions ? { conditions } : {}) };
      if (nominated !== undefined) {
        if (nominated) status.nominatedNodeName = nominated;
        else delete status.nominatedNodeName;
      }
      try {
        // Guarded by the cached resourceVersion: a newer status is read again, never overwritten.
        await this.client.update<Pod>(podsRef, namespace, { ...pod, status }, { subresource: 'status' });
        return 'done';
      } catch (e) {
        if (isStatus(e, 404)) return 'gone';
        if (isStatus(e, 409)) continue;
        throw e;
      }
    }
    return 'done';
  }

  /** Resolves when no scheduling attempt is queued or running and every event is written. */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.chain;
    await this.events.flush();
  }

  /** Stops taking work; resolves once the attempt and the event write in progress are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.queue.stop();
    this.limiter.releaseAll();
    await this.chain;
    // The informers are the factory's: whoever composed the controllers stops them.
    await this.events.stop();
  }
}
