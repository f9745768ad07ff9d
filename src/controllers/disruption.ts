// The disruption controller (pkg/controller/disruption/disruption.go): keeps each
// PodDisruptionBudget's status — expectedPods, currentHealthy, desiredHealthy,
// disruptionsAllowed, disruptedPods, observedGeneration and the DisruptionAllowed condition —
// from the shared informers of budgets, pods and the scalable controllers (ReplicaSet,
// Deployment, StatefulSet). The arithmetic is src/policy/disruption.ts.
//
// As upstream: a budget is synced when it or a pod it selects changes, and again when an entry
// of disruptedPods runs out (two minutes after the eviction); a sync that fails (a selected pod
// whose controller has no scale) writes the fail-safe status (no disruption allowed,
// DisruptionAllowed False/SyncFailed with the error) and is not retried until something changes;
// a status write that fails is retried with a back-off. One difference: a change to a
// ReplicaSet, Deployment or StatefulSet also syncs the budgets of its namespace, so a budget
// whose percentage depends on a controller's scale follows a scale change without waiting for
// the pods (upstream reads those kinds through listers only).

import { stableJSON } from '../api/stablejson.js';
import type { Deployment, OwnerReference, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, ReplicaSet, StatefulSet } from '../api/types.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { deploymentsRef, podDisruptionBudgetsRef, podsRef, replicaSetsRef, statefulSetsRef } from '../client/resources.js';
import { controllerOf } from '../policy/controllerref.js';
import { budgetSelects, budgetStatus, countHealthyPods, sameStringMap, disruptedPodMap, expectedPodCount, failSafeStatus, unmanagedPodsMessage, type ControllerScale } from '../policy/disruption.js';
import { errorText } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** The controller's name in events and its service account (kube-controller-manager's). */
export const disruptionControllerName = 'disruption-controller';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0]! : '');

/** Served kinds without a scale subresource: what getScaleController's RESTMapping and implementsScale find. */
const unscalable: Record<string, string> = {
  'apps/DaemonSet': 'daemonsets.apps',
  'apps/ControllerRevision': 'controllerrevisions.apps',
  'batch/Job': 'jobs.batch',
  'batch/CronJob': 'cronjobs.batch',
  '/Pod': 'pods',
  '/Node': 'nodes',
  '/Namespace': 'namespaces',
  '/ConfigMap': 'configmaps',
  '/Secret': 'secrets',
  '/ServiceAccount': 'serviceaccounts',
};

export class DisruptionController extends WorkQueueController {
  protected readonly queue: KeyedQueue;
  private readonly backoff = new FailureBackoff();
  private readonly pdbs: SharedIndexInformer<PodDisruptionBudget>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly rss: SharedIndexInformer<ReplicaSet>;
  private readonly deployments: SharedIndexInformer<Deployment>;
  private readonly sets: SharedIndexInformer<StatefulSet>;
  protected readonly events: EventRecorder;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, opts: { events?: EventRecorder } = {}) {
    super();
    this.queue = new KeyedQueue((key) => this.sync(key), this.backoff.requeue(() => this.queue, disruptionControllerName));
    this.pdbs = informers.informerFor<PodDisruptionBudget>(podDisruptionBudgetsRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.rss = informers.informerFor<ReplicaSet>(replicaSetsRef);
    this.deployments = informers.informerFor<Deployment>(deploymentsRef);
    this.sets = informers.informerFor<StatefulSet>(statefulSetsRef);
    this.events = opts.events ?? new EventRecorder(client, { component: disruptionControllerName });
  }

  async start(): Promise<void> {
    const enqueue = (p: PodDisruptionBudget) => this.queue.add(keyOf(p));
    this.unsubscribe.push(this.pdbs.addEventHandler({ add: enqueue, update: (_o, p) => enqueue(p), delete: enqueue }));
    this.unsubscribe.push(
      this.pods.addEventHandler({
        add: (p) => this.podChanged(p),
        update: (old, p) => {
          if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
          // Most namespaces have no budget: nothing to compare then (this runs for every pod write).
          if (this.pdbs.lister.list(p.metadata.namespace).length === 0) return;
          this.podChanged(p);
          if (!sameStringMap(old.metadata.labels, p.metadata.labels)) this.podChanged(old);
        },
        delete: (p) => this.podChanged(p),
      }),
    );
    const namespaceChanged = (o: { metadata?: { namespace?: string } }) => {
      for (const p of this.pdbs.lister.list(o.metadata?.namespace)) enqueue(p);
    };
    for (const inf of [this.rss, this.deployments, this.sets] as SharedIndexInformer<ReplicaSet | Deployment | StatefulSet>[]) {
      this.unsubscribe.push(
        inf.addEventHandler({
          add: namespaceChanged,
          update: (old, o) => (old.spec?.replicas !== o.spec?.replicas ? namespaceChanged(o) : undefined),
          delete: namespaceChanged,
        }),
      );
    }
    await Promise.all([this.pdbs.start(), this.pods.start(), this.rss.start(), this.deployments.start(), this.sets.start()]);
  }

  /** addPod / updatePod / deletePod: the budgets that select the pod. */
  private podChanged(pod: Pod): void {
    for (const p of this.pdbs.lister.list(pod.metadata.namespace)) if (budgetSelects(p, pod)) this.queue.add(keyOf(p));
  }

  /**
   * The finders (getPodDeployment, getPodReplicaSet, getPodStatefulSet, getScaleController): a
   * ReplicaSet's Deployment when it has one, else the ReplicaSet or StatefulSet itself.
   */
  private findScale(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    const group = groupOf(ref.apiVersion);
    const scaleOf = (o: { metadata: { uid?: string }; spec?: { replicas?: number } } | undefined, uid: string) =>
      o && o.metadata.uid === uid ? { uid, scale: o.spec?.replicas ?? 1 } : undefined;
    const appsLike = group === 'apps' || group === 'extensions';
    if (appsLike && ref.kind === 'ReplicaSet') {
      const rs = this.rss.lister.get(namespace, ref.name);
      if (!rs || rs.metadata.uid !== ref.uid) return undefined;
      const owner = controllerOf(rs);
      if (owner && owner.kind === 'Deployment' && ['apps', 'extensions'].includes(groupOf(owner.apiVersion))) {
        const found = scaleOf(this.deployments.lister.get(namespace, owner.name), owner.uid);
        if (found) return found;
      }
      return scaleOf(rs, ref.uid);
    }
    if (group === 'apps' && ref.kind === 'StatefulSet') return scaleOf(this.sets.lister.get(namespace, ref.name), ref.uid);
    if (group === 'apps' && ref.kind === 'Deployment') return scaleOf(this.deployments.lister.get(namespace, ref.name), ref.uid);
    const gr = unscalable[`${group}/${ref.kind}`];
    if (gr) throw new Error(`${gr} does not implement the scale subresource`);
    throw new Error(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const pdb = this.pdbs.lister.get(namespace, name);
    if (!pdb) return;
    const now = this.client.now().getTime();
    let status: PodDisruptionBudgetStatus | undefined;
    let recheckAtMs: number | undefined;
    try {
      const pods = this.pods.lister.list(namespace).filter((p) => budgetSelects(pdb, p));
      if (pods.length === 0) this.events.record(pdb, 'Normal', 'NoPods', '', 'No matching pods found');
      let counts;
      try {
        counts = expectedPodCount(pdb, pods, (ref, ns) => this.findScale(ref, ns));
      } catch (e) {
        this.events.record(pdb, 'Warning', 'CalculateExpectedPodCountFailed', '', `Failed to calculate the number of expected pods: ${errorText(e)}`);
        throw e;
      }
      if (counts.unmanagedPods.length > 0) this.events.record(pdb, 'Warning', 'UnmanagedPods', '', unmanagedPodsMessage(pdb));
      const disrupted = disruptedPodMap(pods, pdb, now);
      // Upstream's message names the budget's namespace twice.
      for (const p of disrupted.notDeleted) this.events.record(p, 'Warning', 'NotDeleted', '', `Pod was expected by PDB ${namespace}/${namespace} to be deleted but it wasn't`);
      recheckAtMs = disrupted.recheckAtMs;
      const currentHealthy = countHealthyPods(pods, disrupted.disruptedPods, now);
      status = budgetStatus(pdb, { currentHealthy, desiredHealthy: counts.desiredHealthy, expectedCount: counts.expectedCount, disruptedPods: disrupted.disruptedPods }, now);
    } catch (e) {
      status = failSafeStatus(pdb, errorText(e), now);
      recheckAtMs = undefined;
      // Written once: the write's own event brings the budget back here with the same failure.
      if (stableJSON(status) === stableJSON(pdb.status)) status = undefined;
    }
    if (status) await this.client.update<PodDisruptionBudget>(podDisruptionBudgetsRef, namespace, { ...deepCopyJSON(pdb), status }, { subresource: 'status' });
    this.backoff.forget(key);
    if (recheckAtMs !== undefined) this.queue.addAfter(key, recheckAtMs - now);
  }
}
