// The scheduler: an in-process controller that binds pending pods (no spec.nodeName,
// schedulerName default-scheduler) to nodes. The rules are in src/scheduler (filters, scoring,
// messages, the cache). Like every controller it sees the API only through src/client: a
// KubeClient for its writes (the binding subresource, graceful deletes, status updates) and a
// SharedInformerFactory for its reads.
//
// Pods, nodes and PodDisruptionBudgets are read from shared informers, as kube-scheduler reads
// its own (the budgets only by preemption, which weighs them). The pod informer (a view of its
// own, named "scheduler") holds the pods that have not finished, without their managedFields
// (kube-scheduler's pod informer selects status.phase!=Succeeded,Failed and trims them), with
// an index of the pods nominated to each node. The pod and node events keep the
// scheduler cache (src/scheduler/cache.ts) current one object at a time: a NodeInfo per node with
// the requests of its pods summed, and the node list in name order, rebuilt only when a node
// comes or goes. An attempt reads that cache and never lists the store.
//
// Decisions are made one at a time, each synchronously from the cache, and bound as
// kube-scheduler's scheduling and binding cycles do it (schedule_one.go): the chosen node is
// assumed in the cache at once, so the next decision counts the pod there, and the binding is
// written in the background while the next pod is placed. The bound pod's event confirms the
// assumption; a binding that fails forgets it (the node's room is free again, and the pods that
// did not fit are tried again) and, unless the pod is gone or bound already, reports the error
// (FailedScheduling, PodScheduled=False/SchedulerError) and tries the pod again after a back-off
// of 1 s doubling to 10 s (upstream's podInitialBackoffSeconds and podMaxBackoffSeconds).
//
// Its writes can be paced as kube-scheduler's are by its client: a token bucket of `qps` per
// second and `burst` (KubeSchedulerConfiguration's clientConnection defaults, 50 and 100, the
// class's defaults), one token per binding and per failure's condition write, and a bucket of the
// same size for its events, which go through the controllers' EventRecorder
// (src/client/recorder.ts; with it, client-go's per-object spam filter and correlator). That
// limit protects a remote API server from a flood of writes; the server's own scheduler writes
// in process and runs unthrottled (qps 0 unless ServerOptions.schedulerQPS sets one,
// src/server/start.ts). Throttled bindings wait for their tokens in the background, as
// upstream's binding goroutines do: decisions go on meanwhile.
//
// A pod that fits nowhere gets, as kube-scheduler gives it, a Warning event FailedScheduling
// (source default-scheduler, written in the background; repeats of the same message bump the
// event's count) and the condition PodScheduled=False/Unschedulable with the same message; with
// no node at all the message is "no nodes available to schedule pods". It is tried again when a
// node appears or changes in a way that matters to scheduling, when a bound pod goes away or
// finishes, when its own spec or labels change, and every `resyncMs`.
//
// A pod with scheduling gates is not attempted at all (the SchedulingGates PreEnqueue plugin,
// src/scheduler/schedulinggates.ts): the API server marked it PodScheduled=False/SchedulingGated
// when it was created, and the update that removes its last gate brings it to the queue.
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
// pods of lower or equal priority (an assumed pod no longer counts as nominated). When the
// victims are gone the preemptor is tried again, its nominated node first, and bound; the
// binding clears nominatedNodeName. The budgets in the informer's cache are handed to the pure
// rules at each attempt that preempts: a node whose victims would violate fewer of them wins,
// and victims a budget protects are spared first; a victim is still deleted directly, never
// through the eviction subresource (for preemption a budget is best effort, as upstream).

import type { FeatureGates } from '../api/featuregates.js';
import { updatePodCondition, type ConditionUpdate } from '../api/podconditions.js';
import type { Node, Pod, PodDisruptionBudget } from '../api/types.js';
import { capabilitiesAnnotation } from '../policy/nodecapabilities.js';
import { podKey, SchedulerCache } from '../scheduler/cache.js';
import { isActivePod } from '../scheduler/filters.js';
import { schedulingGatesPreEnqueue } from '../scheduler/schedulinggates.js';
import { pickNodeInfo, type ScheduleDecision } from '../scheduler/pick.js';
import { DisruptionTarget, lowerPriorityNominatedPods, preemptedEventMessage, preemptionConditionMessage, ReasonPreemptionByScheduler, type Candidate } from '../scheduler/preemption.js';
import { isStatus } from '../client/errors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import type { KubeClient } from '../client/interface.js';
import { TokenBucket } from '../client/ratelimit.js';
import { EventRecorder } from '../client/recorder.js';
import { podDisruptionBudgetsRef, podsRef, nodesRef } from '../client/resources.js';
import { componentUserAgent } from '../client/useragent.js';
import { KeyedQueue } from './queue.js';
import { metaTime } from '../api/metatime.js';

export const defaultSchedulerName = 'default-scheduler';

/** The name of the scheduler's own view of pods in the informer factory (active pods, no managedFields). */
export const schedulerPodsInformer = 'scheduler';

/** The pod informer's index of pending pods by the node they are nominated to (status.nominatedNodeName). */
export const nominatedPodsByNodeIndex = 'scheduler/nominated-by-node';

/** kube-scheduler's DefaultPodMaxInUnschedulablePodsDuration: an unschedulable pod is retried at least this often. */
export const defaultResyncMs = 5 * 60_000;

/** kube-scheduler's podInitialBackoffSeconds and podMaxBackoffSeconds, in milliseconds: the retries of a pod whose binding failed. */
export const initialBackoffMs = 1000;
export const maxBackoffMs = 10_000;

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
  /** KubeSchedulerConfiguration percentageOfNodesToScore (0 or absent: adaptive, upstream's default). */
  percentageOfNodesToScore?: number;
}

/**
 * Whether a change of a pending pod can change a scheduling decision: its spec or labels. Both
 * states were decoded from the store's JSON, which keeps key order, so plain JSON compares them.
 */
function schedulingInputsChanged(old: Pod, p: Pod): boolean {
  // The watch cache hands an update's unchanged parts over as the previous state's objects.
  return (old.spec !== p.spec && JSON.stringify(old.spec) !== JSON.stringify(p.spec)) || (old.metadata.labels !== p.metadata.labels && JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(p.metadata.labels ?? {}));
}

/** What of a node can change a scheduling decision (not heartbeats). */
function nodeSchedulingInputs(n: Node): string {
  return JSON.stringify([
    n.metadata.labels ?? {},
    n.metadata.annotations?.[capabilitiesAnnotation] ?? '',
    n.spec ?? {},
    n.status?.allocatable ?? {},
    n.status?.declaredFeatures ?? [],
    (n.status?.conditions ?? []).map((c) => [c.type, c.status]),
  ]);
}

/**
 * Whether a node's change can change a decision. Both states were decoded from the store's
 * JSON, which keeps key order, so plain JSON compares them (a reordering only costs a retry).
 */
function nodeSchedulingChanged(old: Node, n: Node): boolean {
  return nodeSchedulingInputs(old) !== nodeSchedulingInputs(n);
}

function boundActiveNode(p: Pod): string | undefined {
  return p.spec.nodeName && isActivePod(p) ? p.spec.nodeName : undefined;
}

/** A pending pod's nominated node (the nominator's view: kube-scheduler's queue holds pods not yet bound). */
function nominatedNode(p: Pod): string | undefined {
  return !p.spec.nodeName && isActivePod(p) && p.status?.nominatedNodeName ? p.status.nominatedNodeName : undefined;
}

const noPods: readonly Pod[] = Object.freeze([]);

/**
 * The pods nominated to each node as the walk reads them, from the informer's index: none for
 * most nodes, and never a pod already assumed (upstream's DeleteNominatedPodIfExists on assume).
 */
class NominatedOnNodes extends Map<string, readonly Pod[]> {
  constructor(private readonly pods: SharedIndexInformer<Pod>, private readonly cache: SchedulerCache) {
    super();
  }

  override get(node: string): readonly Pod[] {
    const bucket = this.pods.lister.byIndex(nominatedPodsByNodeIndex, node);
    if (bucket.size === 0) return noPods;
    return [...bucket.values()].filter((p) => !this.cache.isAssumed(podKey(p)));
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
  /** Read by preemption only: no handler, a budget's change retries nothing (as upstream). */
  private readonly pdbs: SharedIndexInformer<PodDisruptionBudget>;
  private unsubscribe: (() => void)[] = [];
  /** One decision at a time. */
  private chain: Promise<void> = Promise.resolve();
  /** Pending pods that fit nowhere at their last attempt. */
  private readonly unschedulable = new Set<string>();
  /** The nodes and the pods counted on them, assumed ones included. */
  readonly cache: SchedulerCache;
  /** Bindings being written. */
  private readonly binding = new Set<Promise<void>>();
  /** Failed bindings of each pod in a row, and when its back-off ends (performance.now()). */
  private readonly bindFailures = new Map<string, { count: number; until: number }>();
  /** nextStartNodeIndex: where the next walk over the nodes starts. */
  private nextStartNodeIndex = 0;
  private readonly nominated: NominatedOnNodes;
  /** The pods nominated anywhere: with none, the walk need not look for them per node. */
  private readonly nominatedKeys = new Set<string>();

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: SchedulerOptions) {
    this.schedulerName = opts.schedulerName ?? defaultSchedulerName;
    this.resyncMs = opts.resyncMs ?? defaultResyncMs;
    this.queue = new KeyedQueue((key) => this.serialized(() => this.scheduleOne(key)));
    const qps = opts.qps ?? defaultClientQPS;
    const burst = opts.burst ?? defaultClientBurst;
    this.limiter = new TokenBucket(qps, burst);
    // kube-scheduler's event clientset is a second client with the same limits.
    this.events = new EventRecorder(client, { component: this.schedulerName }, { limiter: new TokenBucket(qps, burst) });
    this.pods = informers.informerFor<Pod>(podsRef, { keep: isActivePod }, schedulerPodsInformer);
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.pdbs = informers.informerFor<PodDisruptionBudget>(podDisruptionBudgetsRef);
    this.pods.addIndex(nominatedPodsByNodeIndex, nominatedNode);
    this.cache = new SchedulerCache(opts.gates);
    this.nominated = new NominatedOnNodes(this.pods, this.cache);
  }

  /** Every PodDisruptionBudget in the informer's cache, for preemption (getPodDisruptionBudgets). */
  private readonly budgets = (): readonly PodDisruptionBudget[] => this.pdbs.lister.list();

  /** Whether this scheduler is responsible for a pod that still needs a node. */
  private responsibleFor(p: Pod): boolean {
    return !p.spec.nodeName && !p.metadata.deletionTimestamp && (p.spec.schedulerName ?? defaultSchedulerName) === this.schedulerName && isActivePod(p);
  }

  /** Starts the informers (WaitForCacheSync), then handles pod and node changes and queues every pending pod. */
  async start(): Promise<void> {
    await Promise.all([this.pods.start(), this.nodes.start(), this.pdbs.start()]);
    this.started = true;
    // On a synced informer a new handler first gets every stored object as an add: the cache
    // fills from these.
    this.unsubscribe.push(
      this.nodes.addEventHandler({
        add: (n) => this.onNode('ADDED', n),
        update: (old, n) => this.onNode('MODIFIED', n, old),
        delete: (n) => this.onNode('DELETED', n),
      }),
    );
    this.unsubscribe.push(
      this.pods.addEventHandler({
        add: (p) => this.onPod('ADDED', p, undefined),
        update: (old, p) => this.onPod('MODIFIED', p, old),
        delete: (p) => this.onPod('DELETED', p, undefined),
      }),
    );
    this.resyncAll();
    this.timer = setInterval(() => this.resyncAll(), this.resyncMs);
    this.timer.unref();
  }

  private onPod(type: string, p: Pod, old: Pod | undefined): void {
    const key = podKey(p);
    if (type !== 'DELETED' && nominatedNode(p)) this.nominatedKeys.add(key);
    else this.nominatedKeys.delete(key);
    if (type === 'DELETED') {
      this.cache.removePod(key);
      this.bindFailures.delete(key);
      this.unschedulable.delete(key);
      this.events.forget(p.metadata.uid);
      // A bound pod going away frees its node's resources; so does a nominated one.
      if (boundActiveNode(p) || nominatedNode(p)) this.retryUnschedulable();
      return;
    }
    this.cache.updatePod(p);
    // A pod losing its nomination gives the room it held back to the others.
    if (old && nominatedNode(old) && nominatedNode(old) !== nominatedNode(p)) this.retryUnschedulable();
    if (this.responsibleFor(p)) {
      // Our own status writes (the PodScheduled condition) change nothing that matters.
      if (!this.unschedulable.has(key) || !old || !this.responsibleFor(old) || schedulingInputsChanged(old, p)) this.queue.add(key);
      return;
    }
    this.unschedulable.delete(key);
    this.bindFailures.delete(key);
    // A bound pod that finished frees its node's resources (the informer, which drops finished
    // pods, reports this as a delete of the last active state above).
    if (old && boundActiveNode(old) && !boundActiveNode(p)) this.retryUnschedulable();
  }

  private onNode(type: string, n: Node, old?: Node): void {
    if (type === 'DELETED') {
      this.cache.removeNode(n.metadata?.name ?? '');
      return;
    }
    // Heartbeats change nothing the filters read: the NodeInfo stays as it is.
    if (old && !nodeSchedulingChanged(old, n)) return;
    this.cache.setNode(n);
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

  /** One scheduling attempt for one pod: decided from the cache; a binding is written in the background. */
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
    // PreEnqueue: a gated pod waits, with no event and no condition, until an update removes its
    // gates (that update's spec change queues it again, onPod).
    if (schedulingGatesPreEnqueue(pod) !== undefined) {
      this.unschedulable.delete(key);
      return;
    }
    // skipPodSchedule: its binding is being written.
    if (this.cache.isAssumed(key)) return;
    // A pod whose binding failed waits out its back-off, whatever brought it back (its own status write, another pod's retry).
    const wait = (this.bindFailures.get(key)?.until ?? 0) - performance.now();
    if (wait > 0) {
      this.queue.addAfter(key, wait);
      return;
    }
    const nodes = this.cache.nodeList();
    const decision = pickNodeInfo(pod, nodes, this.opts.gates, this.nominatedKeys.size ? this.nominated : undefined, {
      startIndex: this.nextStartNodeIndex,
      percentageOfNodesToScore: this.opts.percentageOfNodesToScore,
      budgets: this.budgets,
    });
    if (nodes.length) this.nextStartNodeIndex = (this.nextStartNodeIndex + decision.processed) % nodes.length;
    this.opts.onDecision?.(pod, decision);
    if (decision.node) {
      this.cache.assume(pod, decision.node);
      this.unschedulable.delete(key);
      const b = this.bind(pod, decision.node).finally(() => this.binding.delete(b));
      this.binding.add(b);
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

  /** The binding cycle of an assumed pod: write the binding; on failure forget the assumption and try the pod again. */
  private async bind(pod: Pod, node: string): Promise<void> {
    const key = podKey(pod);
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    await this.limiter.take();
    if (this.stopped) {
      this.cache.forget(pod);
      return;
    }
    try {
      await this.client.bind(namespace, name, node, pod.metadata.uid ? { uid: pod.metadata.uid } : {});
    } catch (e) {
      this.bindingFailed(pod, e);
      return;
    }
    this.bindFailures.delete(key);
    // The binding set PodScheduled=True in the same write.
    this.events.record(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${node}`);
  }

  /** handleBindingCycleError: the room is given back, and the pod is reported and tried again unless it is gone or bound. */
  private bindingFailed(pod: Pod, e: unknown): void {
    const key = podKey(pod);
    if (this.cache.forget(pod)) this.retryUnschedulable();
    // Bound or deleted meanwhile: nothing left to do for this pod.
    if (isStatus(e, 409, 404) || this.stopped) return;
    const failures = (this.bindFailures.get(key)?.count ?? 0) + 1;
    const backoff = Math.min(initialBackoffMs * 2 ** (failures - 1), maxBackoffMs);
    this.bindFailures.set(key, { count: failures, until: performance.now() + backoff });
    const message = e instanceof Error ? e.message : String(e);
    this.events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    const report = this.setPodStatus(pod.metadata.namespace ?? '', pod.metadata.name ?? '', { type: 'PodScheduled', status: 'False', reason: 'SchedulerError', message })
      .catch((err: unknown) => console.error(`scheduler: ${key}: ${err instanceof Error ? err.message : String(err)}`))
      .then(() => undefined)
      .finally(() => this.binding.delete(report));
    this.binding.add(report);
    this.queue.addAfter(key, backoff);
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

  /** Resolves when no scheduling attempt is queued or running, no binding is being written, and every event is written. */
  async idle(): Promise<void> {
    for (;;) {
      await this.queue.idle();
      await this.chain;
      if (this.binding.size === 0) break;
      await Promise.allSettled([...this.binding]);
    }
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
    await Promise.allSettled([...this.binding]);
    // The informers are the factory's: whoever composed the controllers stops them.
    await this.events.stop();
  }
}
