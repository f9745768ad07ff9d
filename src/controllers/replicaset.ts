// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps spec.replicas
// active pods for each ReplicaSet. It reads ReplicaSets and pods from shared informers, claims
// the pods its selector matches (adopting orphans, releasing pods that stopped matching; see
// controllerref.ts), creates the missing pods from the template in slow-start batches (1, 2, 4,
// …, so a refused create fails once, not N times) or deletes the surplus in upstream's order,
// and writes the status (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
// observedGeneration, ReplicaFailure). Expectations (expectations.ts) keep a slow informer from
// causing a second round of creates or deletes. Events as upstream: SuccessfulCreate "Created
// pod: NAME", SuccessfulDelete "Deleted pod: NAME", FailedCreate "Error creating: ERR",
// FailedDelete "Error deleting: ERR", from the source `replicaset-controller`. The decisions are
// src/policy/replicaset.ts and activepods.ts.

import type { Pod, ReplicaSet } from '../api/types.js';
import { labelSelectorMatcher, selectsOrphan } from '../api/selectors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { podsRef, replicaSetsRef } from '../client/resources.js';
import { isPodActive, isPodReady } from '../policy/activepods.js';
import { controllerOf, newControllerRef } from '../policy/controllerref.js';
import { podFromTemplate } from '../policy/podtemplate.js';
import { manageReplicas, minReadyRequeueSeconds, podEventReasons, replicaSetStatus, replicaSetStatusUnchanged, slowStartBatches, withObservedGeneration } from '../policy/replicaset.js';
import { claimObjects, resolveControllerRef } from './controllerref.js';
import { errorText, isNamespaceTerminating } from './errors.js';
import { ControllerExpectations } from './expectations.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { writeStatusRetryingConflicts } from './statuswrite.js';
import { labelsChanged, ownersOfAdded, ownersOfUpdated, type OwnerLookup } from './ownerevents.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export const replicaSetControllerName = 'replicaset-controller';
/** Index of ReplicaSets by their controller's uid (getReplicaSetsWithSameController). */
const byControllerIndex = 'controllerUID';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class ReplicaSetController extends WorkQueueController {
  readonly expectations: ControllerExpectations;
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  protected readonly events: EventRecorder;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly rss: SharedIndexInformer<ReplicaSet>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.expectations = new ControllerExpectations(() => client.now().getTime());
    this.events = opts.events ?? new EventRecorder(client, { component: replicaSetControllerName });
    this.queue = new KeyedQueue(
      async (key) => {
        await this.sync(key);
        this.backoff.forget(key);
      },
      this.backoff.requeue(() => this.queue, replicaSetControllerName),
    );
    this.pods = informers.informerFor<Pod>(podsRef);
    this.rss = informers.informerFor<ReplicaSet>(replicaSetsRef);
    this.rss.addIndex(byControllerIndex, (rs) => controllerOf(rs)?.uid);
  }

  async start(): Promise<void> {
    await Promise.all([this.pods.start(), this.rss.start()]);
    this.unsubscribe.push(
      this.rss.addEventHandler({
        add: (rs) => this.queue.add(keyOf(rs)),
        update: (_o, rs) => this.queue.add(keyOf(rs)),
        delete: (rs) => {
          this.expectations.delete(keyOf(rs));
          this.queue.add(keyOf(rs));
        },
      }),
      this.pods.addEventHandler({ add: (p) => this.addPod(p), update: (o, p) => this.updatePod(o, p), delete: (p) => this.deletePod(p) }),
    );
  }

  /** The ReplicaSet a controller reference names, if it is the same one (uid); GetPodReplicaSets: the ReplicaSets whose selector matches an orphan pod. */
  private readonly owners: OwnerLookup<ReplicaSet, Pod> = {
    resolve: (namespace, ref) => resolveControllerRef(namespace, ref, 'ReplicaSet', (ns, name) => this.rss.lister.get(ns, name)),
    adopters: (p) => this.rss.lister.list(p.metadata.namespace ?? '').filter((rs) => selectsOrphan(rs.spec?.selector, p.metadata.labels)),
  };

  private addPod(p: Pod): void {
    if (p.metadata.deletionTimestamp) return this.deletePod(p);
    const { controller, adopters } = ownersOfAdded(p, this.owners);
    if (controller) {
      this.expectations.creationObserved(keyOf(controller));
      this.queue.add(keyOf(controller));
    }
    for (const rs of adopters) this.queue.add(keyOf(rs));
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    if (cur.metadata.deletionTimestamp) {
      // Graceful deletion: the pod is as good as gone for the expectations; tell the old owner too if the labels moved.
      this.deletePod(cur);
      if (labelsChanged(old, cur)) this.deletePod(old);
      return;
    }
    const { previous, controller, adopters } = ownersOfUpdated(old, cur, this.owners);
    if (previous) this.queue.add(keyOf(previous));
    if (controller) {
      this.queue.add(keyOf(controller));
      // Ready now: come back once minReadySeconds have passed, when it counts as available (a second later: availability is strictly after).
      const min = controller.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && min > 0) this.queue.addAfter(keyOf(controller), min * 1000 + 1000);
    }
    for (const rs of adopters) this.queue.add(keyOf(rs));
  }

  private deletePod(p: Pod): void {
    const ref = controllerOf(p);
    if (!ref) return;
    const rs = this.owners.resolve(p.metadata.namespace, ref);
    if (!rs) return;
    this.expectations.deletionObserved(keyOf(rs), keyOf(p));
    this.queue.add(keyOf(rs));
  }

  /** syncReplicaSet. */
  private async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.rss.lister.get(namespace, name);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const rs = deepCopyJSON(cached) as ReplicaSet;
    const needsSync = this.expectations.satisfied(key);
    const active = this.pods.lister.list(namespace).filter(isPodActive);
    const owned = await claimObjects(active, { client: this.client, ref: podsRef, owner: rs, ownerRef: replicaSetsRef, controllerRef: newControllerRef(rs, 'apps/v1', 'ReplicaSet') });
    let manageError: unknown;
    if (needsSync && !rs.metadata.deletionTimestamp) {
      try {
        await this.manage(rs, owned);
      } catch (e) {
        manageError = e;
      }
    }
    const now = this.client.now();
    const status = replicaSetStatus(rs, owned, manageError === undefined ? undefined : errorText(manageError), now);
    const updated = await this.writeStatus(rs, status);
    const again = manageError === undefined ? minReadyRequeueSeconds(updated) : undefined;
    if (again !== undefined) this.queue.addAfter(key, again * 1000);
    if (manageError !== undefined) throw manageError;
  }

  /** manageReplicas: create or delete the difference. */
  private async manage(rs: ReplicaSet, owned: Pod[]): Promise<void> {
    const key = keyOf(rs);
    const related = this.relatedPods(rs);
    const d = manageReplicas(rs, owned, related, this.client.now());
    if (d.action === 'create') {
      this.expectations.expectCreations(key, d.count);
      let done = 0;
      let failure: unknown;
      for (const size of slowStartBatches(d.count)) {
        const results = await Promise.allSettled(Array.from({ length: size }, () => this.createPod(rs)));
        done += size;
        const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        // A failed create will never be observed.
        for (let i = 0; i < failed.length; i++) this.expectations.creationObserved(key);
        if (failed.length) {
          failure = failed[0]!.reason;
          break;
        }
      }
      // The batches never tried will not be observed either.
      for (let i = done; i < d.count; i++) this.expectations.creationObserved(key);
      if (failure !== undefined) throw failure;
    } else if (d.action === 'delete') {
      this.expectations.expectDeletions(key, d.pods.map(keyOf));
      const results = await Promise.allSettled(d.pods.map((p) => this.deletePodOf(rs, p)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  /** getIndirectlyRelatedPods: the pods of every ReplicaSet with the same controller (for the node ranks). */
  private relatedPods(rs: ReplicaSet): Pod[] {
    const ref = controllerOf(rs);
    if (!ref) return [];
    const seen = new Set<string>();
    const out: Pod[] = [];
    for (const other of this.rss.lister.byIndex(byControllerIndex, ref.uid).values()) {
      if (other.metadata.namespace !== rs.metadata.namespace) continue;
      const m = labelSelectorMatcher(other.spec?.selector);
      for (const p of this.pods.lister.list(rs.metadata.namespace ?? '')) {
        if (!m(p.metadata.labels) || seen.has(p.metadata.uid ?? '')) continue;
        seen.add(p.metadata.uid ?? '');
        out.push(p);
      }
    }
    return out;
  }

  private async createPod(rs: ReplicaSet): Promise<void> {
    const pod = podFromTemplate(rs.spec?.template, rs.metadata.name ?? '', newControllerRef(rs, 'apps/v1', 'ReplicaSet'));
    if (Object.keys(pod.metadata.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    try {
      const created = await this.client.create<Pod>(podsRef, rs.metadata.namespace, pod);
      this.events.record(rs, 'Normal', podEventReasons.successfulCreate, '', `Created pod: ${created.metadata.name}`);
    } catch (e) {
      // A namespace going away refuses every create: nothing to report or retry.
      if (isNamespaceTerminating(e)) return;
      this.events.record(rs, 'Warning', podEventReasons.failedCreate, '', `Error creating: ${errorText(e)}`);
      throw e;
    }
  }

  private async deletePodOf(rs: ReplicaSet, p: Pod): Promise<void> {
    try {
      await this.client.delete(podsRef, p.metadata.namespace, p.metadata.name ?? '');
      this.events.record(rs, 'Normal', podEventReasons.successfulDelete, '', `Deleted pod: ${p.metadata.name}`);
    } catch (e) {
      // Not deleted: the informer will not show it going.
      this.expectations.deletionObserved(keyOf(rs), keyOf(p));
      if (isStatus(e, 404)) return;
      this.events.record(rs, 'Warning', podEventReasons.failedDelete, '', `Error deleting: ${errorText(e)}`);
      throw e;
    }
  }

  /** updateReplicaSetStatus: written only when something changed; one retry on a fresh copy after a conflict. */
  private async writeStatus(rs: ReplicaSet, next: ReplicaSet['status'] & object): Promise<ReplicaSet> {
    if (replicaSetStatusUnchanged(rs, next)) return rs;
    return writeStatusRetryingConflicts(this.client, replicaSetsRef, rs, (target) => withObservedGeneration(target, next), 1);
  }
}
