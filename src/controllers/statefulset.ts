// The StatefulSet controller (pkg/controller/statefulset: stateful_set.go for the informers, the
// event handlers and sync; stateful_set_control.go for the revisions, the pod actions, the status
// write and the history; stateful_pod_control.go for the pod writes and their events). It reads
// StatefulSets, pods and ControllerRevisions from the shared informers and writes through the
// client; every decision is src/policy/statefulset.ts. Like upstream it keeps no expectations: a
// pod it created and does not see yet in the cache is created again, the API answers 409, and
// the set is synced again once the informer delivers the pod.
//
// Requeues as upstream: a failed sync with a per-key exponential back-off, and a set with
// minReadySeconds whose pods are not all available after minReadySeconds.

import type { ControllerRevision, Pod, StatefulSet, StatefulSetStatus } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { controllerRevisionsRef, persistentVolumeClaimsRef, podsRef, statefulSetsRef } from '../client/resources.js';
import { selectsOrphan } from '../api/selectors.js';
import { controllerOf, newControllerRef } from '../policy/controllerref.js';
import { equalRevision, sortRevisions } from '../policy/controllerrevision.js';
import {
  claimEvent, completeRollingUpdate, decideRevisions, isMemberOf, newStatefulSetRevision, planStatefulSet, podClaims, podEvent, replicasOf, statefulSetApiVersion,
  statefulSetHistoryToPrune, statefulSetKind, statusChanged, ordinalOf, type StatefulSetAction,
} from '../policy/statefulset.js';
import { claimObjects, resolveControllerRef } from './controllerref.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { writeStatusRetryingConflicts } from './statuswrite.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** The controller's name in events and its service account (kube-controller-manager's). */
export const statefulSetControllerName = 'statefulset-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class StatefulSetController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly sets: SharedIndexInformer<StatefulSet>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly revisions: SharedIndexInformer<ControllerRevision>;
  protected readonly events: EventRecorder;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, statefulSetControllerName));
    this.sets = informers.informerFor<StatefulSet>(statefulSetsRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.revisions = informers.informerFor<ControllerRevision>(controllerRevisionsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: statefulSetControllerName });
  }

  async start(): Promise<void> {
    const enqueue = (s: StatefulSet) => this.queue.add(keyOf(s));
    this.unsubscribe.push(this.sets.addEventHandler({ add: enqueue, update: (_o, s) => enqueue(s), delete: enqueue }));
    this.unsubscribe.push(
      this.pods.addEventHandler({
        add: (p) => this.podChanged(undefined, p),
        update: (old, p) => this.podChanged(old, p),
        delete: (p) => this.ownerOf(p) && enqueue(this.ownerOf(p)!),
      }),
    );
    await Promise.all([this.sets.start(), this.pods.start(), this.revisions.start()]);
  }

  private ownerOf(pod: Pod): StatefulSet | undefined {
    return resolveControllerRef(pod.metadata.namespace, controllerOf(pod), statefulSetKind, (ns, name) => this.sets.lister.get(ns, name));
  }

  /** addPod / updatePod: the owner, the former owner, or for an orphan every set that selects it. */
  private podChanged(old: Pod | undefined, pod: Pod): void {
    if (old && old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const owner = this.ownerOf(pod);
    if (old) {
      const was = controllerOf(old);
      if (was && was.uid !== controllerOf(pod)?.uid) {
        const prev = this.ownerOf(old);
        if (prev) this.queue.add(keyOf(prev));
      }
    }
    if (owner) return this.queue.add(keyOf(owner));
    if (controllerOf(pod)) return;
    const labelsChanged = !old || JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {}) || !!controllerOf(old);
    if (!labelsChanged) return;
    for (const s of this.sets.lister.list(pod.metadata.namespace)) if (selectsOrphan(s.spec?.selector, pod.metadata.labels)) this.queue.add(keyOf(s));
  }

  private nowMs(): number {
    return this.client.now().getTime();
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.sets.lister.get(namespace, name);
    if (!cached) return;
    const set = deepCopyJSON(cached) as StatefulSet;
    if (!set.spec?.selector) return;
    // adoptOrphanRevisions, then the pods (getPodsForStatefulSet: members by name and selector).
    const claim = { client: this.client, owner: set, ownerRef: statefulSetsRef, controllerRef: newControllerRef(set, statefulSetApiVersion, statefulSetKind) };
    const revisions = await claimObjects(this.revisions.lister.list(namespace), { ...claim, ref: controllerRevisionsRef });
    const pods = await claimObjects(this.pods.lister.list(namespace), { ...claim, ref: podsRef, filter: (p) => isMemberOf(set, p) });
    const status = await this.updateStatefulSet(set, pods, sortRevisions(revisions));
    this.backoff.forget(key);
    // One more sync after minReadySeconds, for the pods that become available by then.
    if ((set.spec.minReadySeconds ?? 0) > 0 && status && status.availableReplicas !== replicasOf(set)) this.queue.addAfter(key, set.spec.minReadySeconds! * 1000);
  }

  /** UpdateStatefulSet: revisions, the pod actions, the status, the history. */
  private async updateStatefulSet(set: StatefulSet, pods: Pod[], sorted: ControllerRevision[]): Promise<StatefulSetStatus | undefined> {
    const decided = decideRevisions(set, sorted);
    let collisionCount = decided.collisionCount;
    let update: ControllerRevision;
    switch (decided.update.kind) {
      case 'unchanged':
        update = decided.update.revision;
        break;
      case 'rollback':
        update = await this.client.update<ControllerRevision>(controllerRevisionsRef, set.metadata.namespace, { ...deepCopyJSON(decided.update.revision), revision: decided.update.to });
        break;
      case 'create': {
        const made = await this.createRevision(set, decided.update.revision, collisionCount);
        update = made.revision;
        collisionCount = made.collisionCount;
        break;
      }
    }
    const current = (decided.currentName && sorted.find((r) => r.metadata.name === decided.currentName)) || update;

    const plan = planStatefulSet(set, pods, current, update, collisionCount, this.nowMs());
    let failure: unknown;
    for (const a of plan.actions) {
      try {
        await this.apply(set, a);
      } catch (e) {
        failure = e;
        break;
      }
    }
    const status = completeRollingUpdate(set, plan.status);
    if (statusChanged(set, status)) await this.writeStatus(set, status);
    const prune = statefulSetHistoryToPrune(set, pods, sortRevisions([...sorted.filter((r) => r.metadata.name !== update.metadata.name), update]), current.metadata.name ?? '', update.metadata.name ?? '');
    for (const r of prune) {
      try {
        await this.client.delete(controllerRevisionsRef, set.metadata.namespace, r.metadata.name ?? '');
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
    }
    if (failure) throw failure;
    return status;
  }

  /** CreateControllerRevision: on a name taken by other data, the collision count goes up and the hash changes. */
  private async createRevision(set: StatefulSet, revision: ControllerRevision, collisionCount: number): Promise<{ revision: ControllerRevision; collisionCount: number }> {
    for (;;) {
      const rev = newStatefulSetRevision(set, revision.revision ?? 1, collisionCount);
      try {
        return { revision: await this.client.create(controllerRevisionsRef, set.metadata.namespace, rev), collisionCount };
      } catch (e) {
        if (!isStatus(e, 409)) throw e;
        const existing = await this.client.get<ControllerRevision>(controllerRevisionsRef, set.metadata.namespace, rev.metadata.name ?? '');
        if (equalRevision(existing, rev)) return { revision: existing, collisionCount };
        collisionCount++;
      }
    }
  }

  private async apply(set: StatefulSet, a: StatefulSetAction): Promise<void> {
    const ns = set.metadata.namespace;
    const name = a.pod.metadata.name ?? '';
    const record = (verb: 'create' | 'update' | 'delete', err?: unknown) => {
      const ev = podEvent(verb, set, name, err === undefined ? undefined : errorText(err));
      this.events.record(set, ev.type, ev.reason, verb === 'create' ? 'Create' : verb === 'update' ? 'Update' : 'Delete', ev.message);
    };
    switch (a.type) {
      case 'create': {
        try {
          await this.createClaims(set, a.pod);
        } catch (e) {
          record('create', e);
          throw e;
        }
        try {
          await this.client.create(podsRef, ns, a.pod);
        } catch (e) {
          // An AlreadyExists is the cache being behind: no event, the pod's add event requeues.
          if (!isStatus(e, 409)) record('create', e);
          throw e;
        }
        record('create');
        return;
      }
      case 'update':
        try {
          await this.client.update(podsRef, ns, a.pod);
        } catch (e) {
          record('update', e);
          throw e;
        }
        record('update');
        return;
      case 'delete':
        try {
          await this.client.delete(podsRef, ns, name);
        } catch (e) {
          record('delete', e);
          if (isStatus(e, 404) && a.why === 'update') return;
          throw e;
        }
        record('delete');
    }
  }

  /** createPersistentVolumeClaims: each claim of the pod, before the pod (no PVC is served here: see policy/statefulset.ts). */
  private async createClaims(set: StatefulSet, pod: Pod): Promise<void> {
    const errs: string[] = [];
    for (const { claim } of podClaims(set, ordinalOf(pod))) {
      try {
        await this.client.create(persistentVolumeClaimsRef, set.metadata.namespace, claim);
        const ev = claimEvent(set, pod.metadata.name ?? '', claim.metadata.name);
        this.events.record(set, ev.type, ev.reason, 'Create', ev.message);
      } catch (e) {
        if (isStatus(e, 409)) continue;
        errs.push(`failed to create PVC ${claim.metadata.name}: ${errorText(e)}`);
        const ev = claimEvent(set, pod.metadata.name ?? '', claim.metadata.name, errorText(e));
        this.events.record(set, ev.type, ev.reason, 'Create', ev.message);
      }
    }
    if (errs.length) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  }

  /** UpdateStatefulSetStatus: the status subresource, re-reading the set on a conflict (RetryOnConflict's 5 attempts). */
  private async writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    await writeStatusRetryingConflicts(this.client, statefulSetsRef, set, () => status, 4);
  }
}
