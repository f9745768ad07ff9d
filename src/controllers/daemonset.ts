// The DaemonSet controller (pkg/controller/daemon/daemon_controller.go: informers, handlers,
// expectations, syncDaemonSet, manage, syncNodes, updateDaemonSetStatus; update.go:
// constructHistory, rollingUpdate, cleanupHistory). It reads DaemonSets, pods, nodes and
// ControllerRevisions from the shared informers and writes through the client; which nodes should
// run a pod is src/scheduler/daemonsetnode.ts, everything else src/policy/daemonset.ts.
//
// Pods are created unbound with a required node affinity on `metadata.name` for their node; the
// scheduler binds them (upstream's ScheduleDaemonSetPods). Expectations hold a set whose
// creations and deletions the informer has not delivered yet to status-only syncs, as upstream.
// Requeues: a failed sync with a per-key back-off; a failed daemon pod's node waits in an
// exponential back-off (1 s doubling to 15 min, flowcontrol.Backoff) before its next deletion;
// a set with minReadySeconds whose ready pods are not all available yet after minReadySeconds.

import type { ControllerRevision, DaemonSet, Node, Pod } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { controllerRevisionsRef, daemonSetsRef, nodesRef, podsRef } from '../client/resources.js';
import {
  burstReplicas, daemonPodTemplate, daemonSetApiVersion, daemonSetEvents, daemonSetHistoryToPrune, daemonSetKind, daemonSetRevisionLabel, daemonSetSnapshot, daemonSetStatus,
  daemonSetStatusUnchanged, manageDaemonSet, nodeNameAffinity, nodesToDaemonPods, planDaemonSetHistory, revisionMatches, rollingUpdateDaemonSet, type NodeEligibility,
} from '../policy/daemonset.js';
import { selectsOrphan } from '../api/selectors.js';
import { controllerOf, newControllerRef } from '../policy/controllerref.js';
import { podFromTemplate } from '../policy/podtemplate.js';
import { nodeShouldRunDaemonPod } from '../scheduler/daemonsetnode.js';
import { ControllerExpectations } from './expectations.js';
import { claimObjects, resolveControllerRef } from './controllerref.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { writeStatusRetryingConflicts } from './statuswrite.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export const daemonSetControllerName = 'daemonset-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** flowcontrol.Backoff for failed daemon pods, per set and node. */
class NodeBackoff {
  private readonly entries = new Map<string, { delay: number; last: number }>();
  constructor(private readonly initialMs = 1000, private readonly maxMs = 15 * 60 * 1000) {}
  /** IsInBackOffSinceUpdate: the delay left, or undefined when not backing off. */
  inBackoff(key: string, now: number): number | undefined {
    const e = this.entries.get(key);
    if (!e || now - e.last >= e.delay) return undefined;
    return e.delay;
  }
  /** Next: start at the initial delay (again after 2 × max idle), else double up to the max. */
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    if (!e || now - e.last > 2 * this.maxMs) this.entries.set(key, { delay: this.initialMs, last: now });
    else this.entries.set(key, { delay: Math.min(e.delay * 2, this.maxMs), last: now });
  }
}

export class DaemonSetController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly failedPods = new NodeBackoff();
  private readonly expectations: ControllerExpectations;
  private readonly sets: SharedIndexInformer<DaemonSet>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly revisions: SharedIndexInformer<ControllerRevision>;
  protected readonly events: EventRecorder;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, daemonSetControllerName));
    this.expectations = new ControllerExpectations(() => this.nowMs());
    this.sets = informers.informerFor<DaemonSet>(daemonSetsRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.nodes = informers.informerFor<Node>(nodesRef);
    this.revisions = informers.informerFor<ControllerRevision>(controllerRevisionsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: daemonSetControllerName });
  }

  async start(): Promise<void> {
    const enqueue = (d: DaemonSet) => this.queue.add(keyOf(d));
    this.unsubscribe.push(this.sets.addEventHandler({ add: enqueue, update: (_o, d) => enqueue(d), delete: enqueue }));
    this.unsubscribe.push(
      this.pods.addEventHandler({
        add: (p) => this.podAdded(p),
        update: (old, p) => this.podUpdated(old, p),
        delete: (p) => this.podDeleted(p),
      }),
    );
    const allSets = () => {
      for (const d of this.sets.lister.list()) enqueue(d);
    };
    this.unsubscribe.push(this.nodes.addEventHandler({ add: allSets, update: (old, n) => !sameSchedulingView(old, n) && allSets(), delete: allSets }));
    const revisionOwner = (r: ControllerRevision) => {
      const owner = resolveControllerRef(r.metadata.namespace, controllerOf(r), daemonSetKind, (ns, name) => this.sets.lister.get(ns, name));
      if (owner) enqueue(owner);
      else if (!controllerOf(r)) for (const d of this.sets.lister.list(r.metadata.namespace)) if (selectsOrphan(d.spec?.selector, r.metadata.labels)) enqueue(d);
    };
    this.unsubscribe.push(this.revisions.addEventHandler({ add: revisionOwner, update: (_o, r) => revisionOwner(r), delete: revisionOwner }));
    await Promise.all([this.sets.start(), this.pods.start(), this.nodes.start(), this.revisions.start()]);
  }

  private ownerOf(pod: Pod): DaemonSet | undefined {
    return resolveControllerRef(pod.metadata.namespace, controllerOf(pod), daemonSetKind, (ns, name) => this.sets.lister.get(ns, name));
  }

  private orphanOwners(pod: Pod): void {
    for (const d of this.sets.lister.list(pod.metadata.namespace)) if (selectsOrphan(d.spec?.selector, pod.metadata.labels)) this.queue.add(keyOf(d));
  }

  /** addPod: a creation observed (or, for a pod already being deleted, a deletion). */
  private podAdded(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.podDeleted(pod);
    const owner = this.ownerOf(pod);
    if (owner) {
      this.expectations.creationObserved(keyOf(owner));
      return this.queue.add(keyOf(owner));
    }
    if (!controllerOf(pod)) this.orphanOwners(pod);
  }

  private podUpdated(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      if (controllerOf(old)?.uid !== controllerOf(pod)?.uid) this.podDeleted(old);
      return;
    }
    if (controllerOf(old) && controllerOf(old)?.uid !== controllerOf(pod)?.uid) {
      const prev = this.ownerOf(old);
      if (prev) this.queue.add(keyOf(prev));
    }
    const owner = this.ownerOf(pod);
    if (owner) return this.queue.add(keyOf(owner));
    if (!controllerOf(pod)) this.orphanOwners(pod);
  }

  private podDeleted(pod: Pod): void {
    const owner = this.ownerOf(pod);
    if (!owner) return;
    this.expectations.deletionObserved(keyOf(owner), keyOf(pod));
    this.queue.add(keyOf(owner));
  }

  private nowMs(): number {
    return this.client.now().getTime();
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.sets.lister.get(namespace, name);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const ds = deepCopyJSON(cached) as DaemonSet;
    const sel = ds.spec?.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) {
      const e = daemonSetEvents.selectingAll;
      this.events.record(ds, e.type, e.reason, 'Sync', e.message);
      return;
    }
    // A set being deleted: its history may be half gone, so nothing is computed (as upstream).
    if (ds.metadata.deletionTimestamp) return;
    const claim = { client: this.client, owner: ds, ownerRef: daemonSetsRef, controllerRef: newControllerRef(ds, daemonSetApiVersion, daemonSetKind) };
    const histories = await claimObjects(this.revisions.lister.list(namespace), { ...claim, ref: controllerRevisionsRef });
    const { current, old } = await this.constructHistory(ds, histories);
    const hash = current.metadata.labels?.[daemonSetRevisionLabel] ?? '';
    const nodes = this.nodes.lister.list();
    const eligibility = nodes.map((n) => nodeShouldRunDaemonPod(n, ds));
    let pods = await claimObjects(this.pods.lister.list(namespace), { ...claim, ref: podsRef });

    if (!this.expectations.satisfied(key)) {
      // Only the status: observedGeneration stays, the controller has not acted on this generation.
      await this.writeStatus(ds, eligibility, pods, hash, false);
      return;
    }
    let failure: unknown;
    try {
      await this.manage(key, ds, eligibility, pods, hash);
      if (this.expectations.satisfied(key) && (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
        const ru = rollingUpdateDaemonSet(ds, eligibility, pods, hash, this.nowMs());
        await this.syncNodes(key, ds, ru.delete, ru.createOn, hash);
      }
      await this.cleanupHistory(ds, old, pods);
    } catch (e) {
      failure = e;
    }
    pods = this.pods.lister.list(namespace).filter((p) => controllerOf(p)?.uid === ds.metadata.uid);
    await this.writeStatus(ds, eligibility, pods, hash, true);
    if (failure) throw failure;
    this.backoff.forget(key);
  }

  /** manage: the nodes missing a pod, the pods that must go, failed pods through their back-off. */
  private async manage(key: string, ds: DaemonSet, eligibility: NodeEligibility[], pods: Pod[], hash: string): Promise<void> {
    const now = this.nowMs();
    const plan = manageDaemonSet(ds, eligibility, nodesToDaemonPods(pods), hash, now);
    for (const { pod, node } of plan.failed) {
      const bk = `${ds.metadata.uid}/${node}`;
      const wait = this.failedPods.inBackoff(bk, now);
      if (wait !== undefined) {
        this.queue.addAfter(key, wait);
        continue;
      }
      this.failedPods.next(bk, now);
      const e = daemonSetEvents.failedDaemonPod(pod, node);
      this.events.record(ds, e.type, e.reason, 'Delete', e.message);
      plan.delete.push(pod.metadata.name!);
    }
    await this.syncNodes(key, ds, plan.delete, plan.createOn, hash);
  }

  /**
   * syncNodes: expectations first, then the creations in slow-start batches (1, 2, 4, …: a
   * failing batch stops the rest, as a quota refusal would refuse them all) and the deletions.
   */
  private async syncNodes(key: string, ds: DaemonSet, podsToDelete: string[], nodesNeedingPods: string[], hash: string): Promise<void> {
    const createOn = nodesNeedingPods.slice(0, burstReplicas);
    const del = podsToDelete.slice(0, burstReplicas);
    const ns = ds.metadata.namespace ?? '';
    this.expectations.set(key, createOn.length, del.map((n) => `${ns}/${n}`));
    const template = daemonPodTemplate(ds, hash);
    const ref = newControllerRef(ds, daemonSetApiVersion, daemonSetKind);
    const errors: unknown[] = [];
    let pos = 0;
    for (let batch = Math.min(1, createOn.length); batch > 0; batch = Math.min(2 * batch, createOn.length - pos)) {
      const results = await Promise.all(
        createOn.slice(pos, pos + batch).map(async (node) => {
          const pod = podFromTemplate(template, ds.metadata.name ?? '', ref);
          pod.spec.affinity = nodeNameAffinity(pod.spec.affinity, node);
          try {
            const made = await this.client.create<Pod>(podsRef, ns, pod);
            const e = daemonSetEvents.created(made.metadata.name ?? '');
            this.events.record(ds, e.type, e.reason, 'Create', e.message);
            return true;
          } catch (err) {
            this.expectations.creationObserved(key);
            const e = daemonSetEvents.createFailed(errorText(err));
            this.events.record(ds, e.type, e.reason, 'Create', e.message);
            errors.push(err);
            return false;
          }
        }),
      );
      pos += batch;
      if (results.includes(false)) {
        // The ones never tried are not expected either.
        for (let i = pos; i < createOn.length; i++) this.expectations.creationObserved(key);
        break;
      }
    }
    await Promise.all(
      del.map(async (name) => {
        try {
          await this.client.delete(podsRef, ns, name);
          const e = daemonSetEvents.deleted(name);
          this.events.record(ds, e.type, e.reason, 'Delete', e.message);
        } catch (err) {
          this.expectations.deletionObserved(key, `${ns}/${name}`);
          if (isStatus(err, 404)) return;
          const e = daemonSetEvents.deleteFailed(errorText(err));
          this.events.record(ds, e.type, e.reason, 'Delete', e.message);
          errors.push(err);
        }
      }),
    );
    if (errors.length) throw errors[0];
  }

  /** constructHistory: label, dedup, create or renumber the revision of the current template. */
  private async constructHistory(ds: DaemonSet, histories: ControllerRevision[]): Promise<{ current: ControllerRevision; old: ControllerRevision[] }> {
    const ns = ds.metadata.namespace;
    const relabelled = new Map<string, ControllerRevision>();
    for (const h of planDaemonSetHistory(ds, histories).relabel) {
      const updated = await this.client.update<ControllerRevision>(controllerRevisionsRef, ns, { ...deepCopyJSON(h), metadata: { ...deepCopyJSON(h.metadata), labels: { ...(h.metadata.labels ?? {}), [daemonSetRevisionLabel]: h.metadata.name ?? '' } } });
      relabelled.set(h.metadata.name ?? '', updated);
    }
    const all = histories.map((h) => relabelled.get(h.metadata.name ?? '') ?? h);
    const plan = planDaemonSetHistory(ds, all);
    for (const d of plan.duplicates) {
      try {
        await this.client.delete(controllerRevisionsRef, ns, d.metadata.name ?? '');
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
    }
    let current = plan.current;
    if (!current) current = await this.snapshot(ds, plan.revision);
    else if ((current.revision ?? 0) < plan.revision) current = await this.client.update<ControllerRevision>(controllerRevisionsRef, ns, { ...deepCopyJSON(current), revision: plan.revision });
    return { current, old: plan.old };
  }

  /** snapshot: create the revision; a name taken by other data bumps status.collisionCount and fails this sync. */
  private async snapshot(ds: DaemonSet, revision: number): Promise<ControllerRevision> {
    const rev = daemonSetSnapshot(ds, revision);
    try {
      return await this.client.create(controllerRevisionsRef, ds.metadata.namespace, rev);
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
      const existing = await this.client.get<ControllerRevision>(controllerRevisionsRef, ds.metadata.namespace, rev.metadata.name ?? '');
      if (revisionMatches(ds, existing)) return existing;
      const cur = await this.client.get<DaemonSet>(daemonSetsRef, ds.metadata.namespace, ds.metadata.name ?? '');
      if ((cur.status?.collisionCount ?? undefined) !== (ds.status?.collisionCount ?? undefined)) {
        throw new Error(`found a stale collision count (${ds.status?.collisionCount}, expected ${cur.status?.collisionCount}) of DaemonSet "${ds.metadata.name}" while processing; will retry until it is updated`);
      }
      const count = (cur.status?.collisionCount ?? 0) + 1;
      await this.client.update(daemonSetsRef, ds.metadata.namespace, { ...cur, status: { ...cur.status, collisionCount: count } }, { subresource: 'status' });
      throw new Error(`found a possible hash collision for DaemonSet "${ds.metadata.name}". Bumping collisionCount to ${count} to resolve it`);
    }
  }

  private async cleanupHistory(ds: DaemonSet, old: ControllerRevision[], pods: Pod[]): Promise<void> {
    for (const r of daemonSetHistoryToPrune(ds, old, pods)) {
      try {
        await this.client.delete(controllerRevisionsRef, ds.metadata.namespace, r.metadata.name ?? '');
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
    }
  }

  /** updateDaemonSetStatus / storeDaemonSetStatus (one retry on a conflict, with the set read again). */
  private async writeStatus(ds: DaemonSet, eligibility: NodeEligibility[], pods: Pod[], hash: string, observed: boolean): Promise<void> {
    const s = daemonSetStatus(ds, eligibility, pods, hash, this.nowMs());
    const minReady = ds.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && s.numberReady !== s.numberAvailable) this.queue.addAfter(keyOf(ds), minReady * 1000);
    if (daemonSetStatusUnchanged(ds, s)) return;
    await writeStatusRetryingConflicts(this.client, daemonSetsRef, ds, (target) => ({ ...target.status, ...s, ...(observed ? { observedGeneration: ds.metadata.generation } : {}) }), 1);
  }
}

/** shouldIgnoreNodeUpdate: a node change that leaves labels, taints, unschedulable and conditions' statuses alone (a heartbeat) does not matter. */
function sameSchedulingView(a: Node, b: Node): boolean {
  const conds = (n: Node) => JSON.stringify((n.status?.conditions ?? []).map((c) => [c.type, c.status]));
  return JSON.stringify(a.metadata.labels ?? {}) === JSON.stringify(b.metadata.labels ?? {}) && JSON.stringify(a.spec ?? {}) === JSON.stringify(b.spec ?? {}) && conds(a) === conds(b);
}
