// The Deployment controller (pkg/controller/deployment: deployment_controller.go syncDeployment
// and its event handlers; sync.go, rolling.go, recreate.go, progress.go). For each Deployment it
// claims the ReplicaSets its selector matches, finds or creates the new ReplicaSet (the one whose
// template equals the Deployment's: so a template that comes back, as `kubectl rollout undo`
// does, reuses its old ReplicaSet with a higher revision), and then, in upstream's order:
// refuses an empty selector (SelectingAll); a Deployment being deleted only gets its status; the
// Progressing condition notes pause and resume; a paused Deployment or a replicas change is
// scaled proportionally (sync); otherwise it rolls out (RollingUpdate: new up to the surge,
// old down within the unavailable budget; Recreate: old to 0, wait until their pods are gone,
// then new), cleans up old ReplicaSets past revisionHistoryLimit once complete, and writes the
// status with Available and Progressing. A rollout that makes no progress is looked at again
// when its deadline falls (KeyedQueue.addAfter). The decisions are src/policy/deployment.ts and
// deploymentutil.ts; events (source `deployment-controller`) as upstream: ScalingReplicaSet
// "Scaled up replica set NAME from A to B", SelectingAll, ReplicaSetCreateError.

import type { Deployment, DeploymentStatus, Pod, ReplicaSet } from '../api/types.js';
import { labelSelectorMatcher, selectsOrphan } from '../api/selectors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { deploymentsRef, podsRef, replicaSetsRef } from '../client/resources.js';
import { controllerOf, newControllerRef } from '../policy/controllerref.js';
import {
  calculateStatus,
  createdCondition,
  deploymentEventReasons,
  failedCreateCondition,
  foundCondition,
  isScalingEvent,
  newReplicaSetFor,
  oldPodsRunning,
  pausedConditionStatus,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  replicaSetsToCleanUp,
  rolloutStatus,
  scaledMessage,
  scalePlan,
  selectingAllMessage,
  selectsAll,
  statusEqual,
  syncedNewReplicaSet,
  type ScaleOp,
} from '../policy/deployment.js';
import {
  deploymentComplete,
  equalIgnoreHash,
  filterActive,
  findNewReplicaSet,
  findOldReplicaSets,
  getDeploymentCondition,
  hasProgressDeadline,
  maxRevision,
  maxSurge,
  replicasAnnotationsNeedUpdate,
  replicasOf,
  revisionAnnotation,
  rsReplicas,
  setDeploymentCondition,
  setReplicasAnnotations,
} from '../policy/deploymentutil.js';
import { claimObjects, resolveControllerRef } from './controllerref.js';
import { errorText, isNamespaceTerminating } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { ownersOfAdded, ownersOfUpdated, type OwnerLookup } from './ownerevents.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export const deploymentControllerName = 'deployment-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class DeploymentController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  protected readonly events: EventRecorder;
  private readonly deployments: SharedIndexInformer<Deployment>;
  private readonly rss: SharedIndexInformer<ReplicaSet>;
  private readonly pods: SharedIndexInformer<Pod>;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.events = opts.events ?? new EventRecorder(client, { component: deploymentControllerName });
    this.queue = new KeyedQueue(
      async (key) => {
        await this.sync(key);
        this.backoff.forget(key);
      },
      this.backoff.requeue(() => this.queue, deploymentControllerName),
    );
    this.deployments = informers.informerFor<Deployment>(deploymentsRef);
    this.rss = informers.informerFor<ReplicaSet>(replicaSetsRef);
    this.pods = informers.informerFor<Pod>(podsRef);
  }

  async start(): Promise<void> {
    await Promise.all([this.deployments.start(), this.rss.start(), this.pods.start()]);
    this.unsubscribe.push(
      this.deployments.addEventHandler({ add: (d) => this.queue.add(keyOf(d)), update: (_o, d) => this.queue.add(keyOf(d)), delete: (d) => this.queue.add(keyOf(d)) }),
      this.rss.addEventHandler({ add: (rs) => this.addReplicaSet(rs), update: (o, rs) => this.updateReplicaSet(o, rs), delete: (rs) => this.deleteReplicaSet(rs) }),
      this.pods.addEventHandler({ delete: (p) => this.deletePod(p) }),
    );
  }

  /** The Deployment a controller reference names, if it is the same one (uid); getDeploymentsForReplicaSet: the Deployments whose selector matches an orphan ReplicaSet. */
  private readonly owners: OwnerLookup<Deployment, ReplicaSet> = {
    resolve: (namespace, ref) => resolveControllerRef(namespace, ref, 'Deployment', (ns, name) => this.deployments.lister.get(ns, name)),
    adopters: (rs) => this.deployments.lister.list(rs.metadata.namespace ?? '').filter((d) => selectsOrphan(d.spec?.selector, rs.metadata.labels)),
  };

  private addReplicaSet(rs: ReplicaSet): void {
    if (rs.metadata.deletionTimestamp) return this.deleteReplicaSet(rs);
    const { controller, adopters } = ownersOfAdded(rs, this.owners);
    for (const d of controller ? [controller] : adopters) this.queue.add(keyOf(d));
  }

  private updateReplicaSet(old: ReplicaSet, cur: ReplicaSet): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const { previous, controller, adopters } = ownersOfUpdated(old, cur, this.owners);
    for (const d of [previous, controller, ...adopters]) if (d) this.queue.add(keyOf(d));
  }

  private deleteReplicaSet(rs: ReplicaSet): void {
    const d = this.owners.resolve(rs.metadata.namespace, controllerOf(rs));
    if (d) this.queue.add(keyOf(d));
  }

  /** A Recreate Deployment waits for its old pods to go: sync it once the last one has. */
  private deletePod(p: Pod): void {
    const rs = this.rss.lister.get(p.metadata.namespace, controllerOf(p)?.name ?? '');
    if (!rs || rs.metadata.uid !== controllerOf(p)?.uid) return;
    const d = this.owners.resolve(rs.metadata.namespace, controllerOf(rs));
    if (!d || d.spec?.strategy?.type !== 'Recreate') return;
    const owned = this.replicaSetsOf(d);
    let left = 0;
    for (const pods of this.podMap(d, owned).values()) left += pods.length;
    if (left === 0) this.queue.add(keyOf(d));
  }

  /** The ReplicaSets controlled by a Deployment, from the cache (ListReplicaSets without claiming). */
  private replicaSetsOf(d: Deployment): ReplicaSet[] {
    return this.rss.lister.list(d.metadata.namespace ?? '').filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
  }

  /** getPodMapForDeployment: the pods matching the selector, by the uid of the owned ReplicaSet controlling them. */
  private podMap(d: Deployment, rsList: readonly ReplicaSet[]): Map<string, Pod[]> {
    const m = new Map<string, Pod[]>(rsList.map((rs) => [rs.metadata.uid ?? '', []]));
    const matches = labelSelectorMatcher(d.spec?.selector);
    for (const p of this.pods.lister.list(d.metadata.namespace ?? '')) {
      if (!matches(p.metadata.labels)) continue;
      const owner = controllerOf(p)?.uid;
      if (owner && m.has(owner)) m.get(owner)!.push(p);
    }
    return m;
  }

  /** syncDeployment. */
  private async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.deployments.lister.get(namespace, name);
    if (!cached) return;
    const run = new DeploymentSync(this, deepCopyJSON(cached) as Deployment);
    await run.sync();
  }

  // ---- what DeploymentSync uses ----

  /** @internal */ get api(): KubeClient {
    return this.client;
  }
  /** @internal */ record(d: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): void {
    // core/v1 events through record.EventRecorder, as upstream's: no action.
    this.events.record(d, type, reason, '', message);
  }
  /** @internal */ async claimReplicaSets(d: Deployment): Promise<ReplicaSet[]> {
    const all = this.rss.lister.list(d.metadata.namespace ?? '');
    const claimed = await claimObjects(all, { client: this.client, ref: replicaSetsRef, owner: d, ownerRef: deploymentsRef, controllerRef: newControllerRef(d, 'apps/v1', 'Deployment') });
    return claimed.map((rs) => deepCopyJSON(rs) as ReplicaSet);
  }
  /** @internal */ podsByReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): Map<string, Pod[]> {
    return this.podMap(d, rsList);
  }
  /** @internal */ cachedReplicaSet(namespace: string | undefined, name: string): ReplicaSet | undefined {
    return this.rss.lister.get(namespace, name);
  }
  /** @internal */ requeueAfter(d: Deployment, ms: number): void {
    this.queue.addAfter(keyOf(d), ms);
  }
}

/** One sync of one Deployment: the working copy `d` follows every write of it. */
class DeploymentSync {
  constructor(private readonly c: DeploymentController, private d: Deployment) {}

  private get client(): KubeClient {
    return this.c.api;
  }
  private now(): Date {
    return this.client.now();
  }

  async sync(): Promise<void> {
    const d = this.d;
    if (selectsAll(d)) {
      this.c.record(d, 'Warning', deploymentEventReasons.selectingAll, selectingAllMessage);
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) await this.writeStatus({ ...(d.status ?? {}), observedGeneration: d.metadata.generation });
      return;
    }
    const rsList = await this.c.claimReplicaSets(d);
    const podMap = this.c.podsByReplicaSet(d, rsList);
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(rsList);
    const paused = pausedConditionStatus(this.d, this.now());
    if (paused) await this.writeStatus(paused);
    if (this.d.spec?.paused) return this.scaleSync(rsList);
    const [newRS, oldRSs] = await this.allReplicaSets(rsList, false);
    if (isScalingEvent(this.d, [...oldRSs, newRS])) return this.scaleSync(rsList);
    switch (this.d.spec?.strategy?.type ?? 'RollingUpdate') {
      case 'Recreate':
        return this.rolloutRecreate(rsList, podMap);
      case 'RollingUpdate':
        return this.rolloutRolling(rsList);
      default:
        throw new Error(`unexpected deployment strategy type: ${this.d.spec?.strategy?.type}`);
    }
  }

  /** UpdateStatus with the working copy; the working copy becomes what the server returned. */
  private async writeStatus(status: DeploymentStatus): Promise<void> {
    this.d = await this.client.update<Deployment>(deploymentsRef, this.d.metadata.namespace, { ...this.d, status }, { subresource: 'status' });
  }

  /** getAllReplicaSetsAndSyncRevision. */
  private async allReplicaSets(rsList: ReplicaSet[], create: boolean): Promise<[ReplicaSet | undefined, ReplicaSet[]]> {
    const oldRSs = findOldReplicaSets(this.d, rsList);
    const newRS = await this.newReplicaSet(rsList, oldRSs, create);
    return [newRS, oldRSs];
  }

  /** getNewReplicaSet: sync the existing one's annotations and the Deployment's revision, or create it. */
  private async newReplicaSet(rsList: ReplicaSet[], oldRSs: ReplicaSet[], create: boolean): Promise<ReplicaSet | undefined> {
    const existing = findNewReplicaSet(this.d, rsList);
    const newRevision = maxRevision(oldRSs) + 1;
    const now = this.now();
    if (existing) {
      const synced = syncedNewReplicaSet(this.d, existing, newRevision);
      if (synced) {
        const updated = await this.client.update<ReplicaSet>(replicaSetsRef, synced.metadata.namespace, synced);
        // Later steps of this sync read the list again: they see what was written.
        rsList[rsList.indexOf(existing)] = updated;
        return updated;
      }
      const status = deepCopyJSON(this.d.status ?? {});
      let needsUpdate = this.setRevision(existing.metadata.annotations?.[revisionAnnotation]);
      if (hasProgressDeadline(this.d) && !getDeploymentCondition(status, 'Progressing')) {
        setDeploymentCondition(status, foundCondition(existing.metadata.name ?? '', now));
        needsUpdate = true;
      }
      if (needsUpdate) await this.writeStatus(status);
      return existing;
    }
    if (!create) return undefined;
    const rs = newReplicaSetFor(this.d, oldRSs, newRevision);
    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = await this.client.create<ReplicaSet>(replicaSetsRef, this.d.metadata.namespace, rs);
    } catch (e) {
      if (isStatus(e, 409)) {
        // A slow cache or a fast resync; or a hash collision.
        alreadyExists = true;
        const found = this.c.cachedReplicaSet(rs.metadata.namespace, rs.metadata.name ?? '') ?? (await this.client.get<ReplicaSet>(replicaSetsRef, rs.metadata.namespace, rs.metadata.name ?? ''));
        if (controllerOf(found)?.uid === this.d.metadata.uid && equalIgnoreHash(this.d.spec?.template, found.spec?.template)) {
          created = found;
        } else {
          const status = deepCopyJSON(this.d.status ?? {});
          status.collisionCount = (status.collisionCount ?? 0) + 1;
          await this.writeStatus(status);
          throw e;
        }
      } else if (isNamespaceTerminating(e)) {
        throw e;
      } else {
        const { condition, message } = failedCreateCondition(rs.metadata.name ?? '', errorText(e), now);
        if (hasProgressDeadline(this.d)) {
          const status = deepCopyJSON(this.d.status ?? {});
          setDeploymentCondition(status, condition);
          await this.writeStatus(status).catch(() => undefined);
        }
        this.c.record(this.d, 'Warning', deploymentEventReasons.failedRSCreate, message);
        throw e;
      }
    }
    if (!alreadyExists && rsReplicas(created) > 0) this.c.record(this.d, 'Normal', deploymentEventReasons.scalingReplicaSet, `Scaled up replica set ${created.metadata.name} from 0 to ${rsReplicas(created)}`);
    const status = deepCopyJSON(this.d.status ?? {});
    let needsUpdate = this.setRevision(String(newRevision));
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      setDeploymentCondition(status, createdCondition(created.metadata.name ?? '', now));
      needsUpdate = true;
    }
    if (needsUpdate) await this.writeStatus(status);
    return created;
  }

  /** SetDeploymentRevision on the working copy (written with the next status update, as upstream's UpdateStatus carries it). */
  private setRevision(revision: string | undefined): boolean {
    if (revision === undefined) return false;
    const a = this.d.metadata.annotations ?? {};
    if (a[revisionAnnotation] === revision) return false;
    this.d.metadata.annotations = { ...a, [revisionAnnotation]: revision };
    return true;
  }

  /** scaleReplicaSet: the size and the replicas annotations in one update; the event when the size changed. */
  private async scaleReplicaSet(rs: ReplicaSet, to: number, always: boolean): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const from = rsReplicas(rs);
    const desired = replicasOf(this.d);
    const max = desired + maxSurge(this.d);
    const sizeChanged = from !== to;
    if (!sizeChanged && (!always || !replicasAnnotationsNeedUpdate(rs, desired, max))) return { scaled: false, rs };
    const copy = deepCopyJSON(rs);
    copy.spec = { ...(copy.spec ?? {}), replicas: to };
    const annotations = { ...(copy.metadata.annotations ?? {}) };
    setReplicasAnnotations(annotations, desired, max);
    copy.metadata.annotations = annotations;
    const updated = await this.client.update<ReplicaSet>(replicaSetsRef, copy.metadata.namespace, copy);
    if (sizeChanged) this.c.record(this.d, 'Normal', deploymentEventReasons.scalingReplicaSet, scaledMessage(updated.metadata.name ?? '', from, to));
    return { scaled: sizeChanged, rs: updated };
  }

  /** Applies a plan in order; a ReplicaSet written twice is written over its first result. */
  private async apply(ops: ScaleOp[]): Promise<boolean> {
    const written = new Map<string, ReplicaSet>();
    let any = false;
    for (const op of ops) {
      const base = written.get(op.rs.metadata.uid ?? '') ?? op.rs;
      const r = await this.scaleReplicaSet(base, op.to, op.always ?? false);
      written.set(op.rs.metadata.uid ?? '', r.rs);
      any ||= r.scaled;
    }
    return any;
  }

  /** sync: scaling events and paused Deployments. */
  private async scaleSync(rsList: ReplicaSet[]): Promise<void> {
    const [newRS, oldRSs] = await this.allReplicaSets(rsList, false);
    await this.apply(scalePlan(this.d, newRS, oldRSs));
    if (this.d.spec?.paused) await this.cleanup(oldRSs);
    await this.syncDeploymentStatus([...oldRSs, newRS], newRS);
  }

  private async syncStatusOnly(rsList: ReplicaSet[]): Promise<void> {
    const [newRS, oldRSs] = await this.allReplicaSets(rsList, false);
    await this.syncDeploymentStatus([...oldRSs, newRS], newRS);
  }

  /** syncDeploymentStatus: calculateStatus, written when it differs. */
  private async syncDeploymentStatus(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): Promise<void> {
    const s = calculateStatus(allRSs, newRS, this.d, this.now());
    if (statusEqual(this.d.status ?? {}, s)) return;
    await this.writeStatus(s);
  }

  /** syncRolloutStatus, with requeueStuckDeployment when nothing changed. */
  private async syncRolloutStatus(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): Promise<void> {
    const r = rolloutStatus(this.d, allRSs, newRS, this.now());
    if (r.unchanged) {
      if (r.requeueAfterMs !== undefined) this.c.requeueAfter(this.d, r.requeueAfterMs);
      return;
    }
    await this.writeStatus(r.status);
  }

  private async cleanup(oldRSs: ReplicaSet[]): Promise<void> {
    for (const rs of replicaSetsToCleanUp(this.d, oldRSs)) {
      try {
        await this.client.delete(replicaSetsRef, rs.metadata.namespace, rs.metadata.name ?? '');
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
      }
    }
  }

  /** rolloutRolling. */
  private async rolloutRolling(rsList: ReplicaSet[]): Promise<void> {
    const [created, oldRSs] = await this.allReplicaSets(rsList, true);
    const newRS = created!;
    const allRSs = [...oldRSs, newRS];
    const target = reconcileNewReplicaSet(this.d, allRSs, newRS);
    if (target !== undefined && (await this.scaleReplicaSet(newRS, target, false)).scaled) return this.syncRolloutStatus(allRSs, newRS);
    const { ops, scaledDown } = reconcileOldReplicaSets(this.d, allRSs, filterActive(oldRSs), newRS);
    await this.apply(ops);
    if (scaledDown > 0) return this.syncRolloutStatus(allRSs, newRS);
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(allRSs, newRS);
  }

  /** rolloutRecreate. */
  private async rolloutRecreate(rsList: ReplicaSet[], podMap: Map<string, Pod[]>): Promise<void> {
    let [newRS, oldRSs] = await this.allReplicaSets(rsList, false);
    let allRSs: (ReplicaSet | undefined)[] = [...oldRSs, newRS];
    if (await this.apply(filterActive(oldRSs).map((rs) => ({ rs, to: 0 })))) return this.syncRolloutStatus(allRSs, newRS);
    if (oldPodsRunning(newRS, oldRSs, podMap)) return this.syncRolloutStatus(allRSs, newRS);
    if (!newRS) {
      [newRS, oldRSs] = await this.allReplicaSets(rsList, true);
      allRSs = [...oldRSs, newRS];
    }
    await this.apply([{ rs: newRS!, to: replicasOf(this.d) }]);
    if (deploymentComplete(this.d, this.d.status ?? {})) await this.cleanup(oldRSs);
    return this.syncRolloutStatus(allRSs, newRS);
  }
}
