// The Job controller (pkg/controller/job/job_controller.go): informers over jobs and pods, a
// queue of job keys and one of orphan pods. syncJob runs the pure steps of src/policy/job.ts and
// jobstatus.ts with the writes between them: delete the active pods of a finishing job (keeping
// their finalizers), or manageJob (create pods from the template in slow-start batches, or remove
// the tracking finalizer from excess pods and delete them, or wait out the failure back-off), then
// trackJobStatusAndRemoveFinalizers (write the newly finished pods' uids to
// status.uncountedTerminatedPods with the interim condition, remove their finalizers, then move the
// uids to the counters and set Complete or Failed). Expectations keep a sync from acting twice on a
// cache that has not seen its own writes. The orphan queue removes the tracking finalizer from pods
// whose job is gone or finished (syncOrphanPod), so a deleted Job's pods can go. Pod events sync the
// job after syncJobBatchPeriod (1 s); activeDeadlineSeconds and the back-off come back through
// KeyedQueue.addAfter. Indexed completion as NonIndexed, by index (src/policy/jobindexes.ts), with
// backoffLimitPerIndex (src/policy/jobperindex.ts: a new pod of an index carries the index's failure
// count, and waits out the index's own back-off) and successPolicy (src/policy/jobsuccesspolicy.ts).
// Not here: adopting orphan pods that match a selector. ttlSecondsAfterFinished is the
// TTL-after-finished controller's (ttlafterfinished.ts), as upstream.

import type { Job, Pod } from '../api/types.js';
import { isPodReady } from '../policy/activepods.js';
import { afterManage, beginJobSync, hasTrackingFinalizer, isJobFinished, jobTrackingFinalizer, manageJobPlan, podFromJobTemplate, type JobSyncCtx } from '../policy/job.js';
import type { BackoffRecord } from '../policy/jobbackoff.js';
import { settleJobStatus, trackJobStatus } from '../policy/jobstatus.js';
import { isStatus } from '../client/errors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { objectKey } from '../client/indexer.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { jobsRef, podsRef } from '../client/resources.js';
import { ControllerExpectations, UidTrackingExpectations } from './expectations.js';
import { errorText, isNamespaceTerminating } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { metaTime } from '../api/metatime.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface JobControllerOptions {
  /** syncJobBatchPeriod: how long pod events wait before the job syncs (upstream 1 s). */
  batchMs?: number;
  /** The pod-failure back-off (upstream 10 s and 10 min). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The controller's clock (default: the client's, i.e. the server's). */
  now?: () => Date;
}

/** Pods by the uid of the Job that controls them. */
const byJobUid = 'job-controller-uid';
/** SlowStartInitialBatchSize. */
const slowStartInitialBatch = 1;
/** The API back-off after a failed sync: DefaultJobApiBackOff doubled, capped at MaxJobApiBackOff. */
const apiBackoffMs = 1000;
const maxApiBackoffMs = 60_000;

function controllerOf(o: { metadata?: { ownerReferences?: { controller?: boolean; kind: string; apiVersion: string; uid: string; name: string }[] } }) {
  return (o.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

const removeFinalizerPatch = { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [jobTrackingFinalizer] } };

export class JobController extends WorkQueueController {
  private readonly jobs: SharedIndexInformer<Job>;
  private readonly pods: SharedIndexInformer<Pod>;
  protected readonly queue: KeyedQueue;
  private readonly orphans: KeyedQueue;
  private readonly expectations: ControllerExpectations;
  private readonly finalizerExpectations = new UidTrackingExpectations();
  private readonly backoff = new Map<string, BackoffRecord>();
  private readonly syncBackoff = new FailureBackoff(apiBackoffMs, maxApiBackoffMs);
  private readonly orphanBackoff = new FailureBackoff(apiBackoffMs, maxApiBackoffMs);
  protected readonly events: EventRecorder;
  private readonly now: () => Date;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: JobControllerOptions = {}) {
    super();
    this.now = opts.now ?? (() => client.now());
    this.expectations = new ControllerExpectations(() => this.now().getTime());
    this.events = new EventRecorder(client, { component: 'job-controller' }, { now: this.now });
    this.jobs = informers.informerFor<Job>(jobsRef);
    this.pods = informers.informerFor<Pod>(podsRef);
    this.pods.addIndex(byJobUid, (p) => {
      const r = controllerOf(p);
      return r && r.kind === 'Job' && r.apiVersion === 'batch/v1' ? r.uid : undefined;
    });
    this.queue = new KeyedQueue(
      async (key) => {
        await this.syncJob(key);
        this.syncBackoff.forget(key);
      },
      this.syncBackoff.requeue(() => this.queue, 'job-controller'),
    );
    this.orphans = new KeyedQueue(
      async (key) => {
        await this.syncOrphanPod(key);
        this.orphanBackoff.forget(key);
      },
      this.orphanBackoff.requeue(() => this.orphans, 'job-controller: orphan pod'),
    );
  }

  async start(): Promise<void> {
    this.unsubscribe.push(
      this.jobs.addEventHandler({
        add: (j) => this.queue.add(objectKey(j)),
        update: (old, cur) => this.updateJob(old, cur),
        delete: (j) => {
          this.queue.add(objectKey(j));
          this.cleanupPodFinalizers(j);
        },
      }),
      this.pods.addEventHandler({
        add: (p) => this.addPod(p),
        update: (old, cur) => this.updatePod(old, cur),
        delete: (p) => this.deletePod(p, true),
      }),
    );
    await Promise.all([this.jobs.start(), this.pods.start()]);
  }

  private batched(key: string): void {
    this.queue.addAfter(key, this.opts.batchMs ?? 1000);
  }

  /** resolveControllerRef: the job the reference names, if it is still that job. */
  private resolve(namespace: string | undefined, ref: ReturnType<typeof controllerOf>): Job | undefined {
    if (!ref || ref.kind !== 'Job') return undefined;
    const job = this.jobs.lister.get(namespace, ref.name);
    return job && job.metadata.uid === ref.uid ? job : undefined;
  }

  private updateJob(old: Job, cur: Job): void {
    const key = objectKey(cur);
    if (cur.metadata.generation === old.metadata.generation) this.batched(key);
    else this.queue.add(key);
    // The job finishes only once its pods' finalizers are gone; this is the backup.
    if (isJobFinished(cur)) this.cleanupPodFinalizers(cur);
  }

  private addPod(p: Pod): void {
    if (p.metadata.deletionTimestamp) return this.deletePod(p, false);
    const ref = controllerOf(p);
    if (ref) {
      const job = this.resolve(p.metadata.namespace, ref);
      if (!job) return;
      this.expectations.creationObserved(objectKey(job));
      this.batched(objectKey(job));
      return;
    }
    if (hasTrackingFinalizer(p)) this.orphans.add(objectKey(p));
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (cur.metadata.resourceVersion === old.metadata.resourceVersion) return;
    if (cur.metadata.deletionTimestamp) return this.deletePod(cur, false);
    const finalizerRemoved = !hasTrackingFinalizer(cur);
    const curRef = controllerOf(cur);
    const oldRef = controllerOf(old);
    if (oldRef && oldRef.uid !== curRef?.uid) {
      const job = this.resolve(old.metadata.namespace, oldRef);
      if (job) {
        if (finalizerRemoved) this.finalizerExpectations.observed(objectKey(job), cur.metadata.uid ?? '');
        this.batched(objectKey(job));
      }
    }
    if (curRef) {
      const job = this.resolve(cur.metadata.namespace, curRef);
      // Its job is gone: the garbage collector drops the reference or deletes the pod, and that event brings it to the orphan queue.
      if (!job) return;
      if (finalizerRemoved) this.finalizerExpectations.observed(objectKey(job), cur.metadata.uid ?? '');
      this.batched(objectKey(job));
      return;
    }
    if (hasTrackingFinalizer(cur)) this.orphans.add(objectKey(cur));
  }

  /** A pod deleted (final) or being deleted: expectations, and the finalizer of a pod no running job will count. */
  private deletePod(p: Pod, final: boolean): void {
    const ref = controllerOf(p);
    const has = hasTrackingFinalizer(p);
    if (!ref) {
      if (has) this.orphans.add(objectKey(p));
      return;
    }
    const job = this.resolve(p.metadata.namespace, ref);
    if (!job || isJobFinished(job)) {
      if (has) this.orphans.add(objectKey(p));
      return;
    }
    const key = objectKey(job);
    this.expectations.deletionObserved(key);
    if (final || !has) this.finalizerExpectations.observed(key, p.metadata.uid ?? '');
    this.batched(key);
  }

  /** The pods a deleted or finished job still holds by the finalizer go to the orphan queue. */
  private cleanupPodFinalizers(job: Job): void {
    for (const p of this.pods.lister.byIndex(byJobUid, job.metadata.uid ?? '').values()) if (hasTrackingFinalizer(p)) this.orphans.add(objectKey(p));
  }

  /** syncOrphanPod: removes the tracking finalizer unless a running job still controls the pod. */
  async syncOrphanPod(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const pod = this.pods.lister.get(ns, name);
    if (!pod || !hasTrackingFinalizer(pod)) return;
    const ref = controllerOf(pod);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolve(ns, ref);
      if (job && !isJobFinished(job)) return;
    }
    await this.patchOutFinalizer(pod);
  }

  private async patchOutFinalizer(pod: Pod): Promise<void> {
    try {
      await this.client.patch(podsRef, pod.metadata.namespace, pod.metadata.name ?? '', 'application/strategic-merge-patch+json', removeFinalizerPatch);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }

  private podsOf(job: Job): Pod[] {
    return [...this.pods.lister.byIndex(byJobUid, job.metadata.uid ?? '').values()].filter((p) => p.metadata.namespace === job.metadata.namespace);
  }

  async syncJob(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const shared = this.jobs.lister.get(ns, name);
    if (!shared) {
      this.expectations.delete(key);
      this.finalizerExpectations.delete(key);
      this.backoff.delete(key);
      return;
    }
    if (isJobFinished(shared)) {
      this.backoff.delete(key);
      return;
    }
    const mode = shared.spec?.completionMode;
    if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
      this.events.record(shared, 'Warning', 'UnknownCompletionMode', '', 'Skipped Job sync because completion mode is unknown');
      return;
    }
    // Expectations before the pods: a pod arriving after this read defers the sync to its own event.
    const satisfied = this.expectations.satisfied(key);
    const pods = this.podsOf(shared);
    const now = this.now();
    const ctx = beginJobSync({ job: shared, pods, now: metaTime(now), expectedRmFinalizers: this.finalizerExpectations.get(key), backoff: this.backoff.get(key) });
    if (!ctx) return;
    if (ctx.deadlineAfterMs !== undefined) this.queue.addAfter(key, ctx.deadlineAfterMs);

    let active = ctx.activePods.length;
    let manageErr: unknown;
    if (ctx.finishedCondition) {
      const r = await this.deleteActivePods(ctx.job, ctx.activePods);
      if (r.deleted !== active || !satisfied) ctx.finishedCondition = undefined;
      active -= r.deleted;
      ctx.terminating += r.deleted;
      ctx.ready -= r.deletedReady;
      manageErr = r.err;
    } else {
      let called = false;
      if (satisfied && !shared.metadata.deletionTimestamp) {
        const r = await this.manageJob(key, ctx);
        active = r.active;
        manageErr = r.err;
        called = true;
      }
      afterManage(ctx, active, called);
    }
    await this.trackStatusAndRemoveFinalizers(key, ctx, active);
    if (manageErr) throw manageErr;
  }

  /** deleteActivePods: plain deletes that keep the finalizers; they are removed while counting. */
  private async deleteActivePods(job: Job, pods: readonly Pod[]): Promise<{ deleted: number; deletedReady: number; err?: unknown }> {
    let deleted = 0;
    let deletedReady = 0;
    let err: unknown;
    await Promise.all(
      pods.map(async (p) => {
        try {
          await this.deletePodRecorded(job, p);
        } catch (e) {
          if (!isStatus(e, 404)) {
            err ??= e;
            return;
          }
        }
        deleted++;
        if (isPodReady(p)) deletedReady++;
      }),
    );
    return { deleted, deletedReady, err };
  }

  /** RealPodControl.DeletePod with its events. */
  private async deletePodRecorded(job: Job, p: Pod): Promise<void> {
    try {
      await this.client.delete(podsRef, p.metadata.namespace, p.metadata.name ?? '');
    } catch (e) {
      if (!isStatus(e, 404)) this.events.record(job, 'Warning', 'FailedDelete', '', `Error deleting: ${errorText(e)}`);
      throw e;
    }
    this.events.record(job, 'Normal', 'SuccessfulDelete', '', `Deleted pod: ${p.metadata.name}`);
  }

  /** manageJob's writes; returns how many pods are active after them. */
  private async manageJob(key: string, ctx: JobSyncCtx): Promise<{ active: number; err?: unknown }> {
    const job = ctx.job;
    let active = ctx.activePods.length;
    const plan = manageJobPlan(ctx, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
    switch (plan.action) {
      case 'none':
        return { active };
      case 'wait':
        this.queue.addAfter(key, Math.max(plan.afterMs, this.opts.batchMs ?? 1000));
        return { active };
      case 'delete': {
        // deleteJobPods: the finalizer first (an excess or suspended pod is not counted), then the delete.
        this.expectations.expectDeletions(key, plan.pods.length);
        let err: unknown;
        await Promise.all(
          plan.pods.map(async (p) => {
            try {
              await this.patchOutFinalizer(p);
              await this.deletePodRecorded(job, p);
            } catch (e) {
              this.expectations.deletionObserved(key);
              if (!isStatus(e, 404)) {
                err ??= e;
                return;
              }
            }
            active--;
            ctx.terminating++;
            if (isPodReady(p)) ctx.ready--;
          }),
        );
        return { active, err };
      }
      case 'create': {
        let diff = plan.count;
        this.expectations.expectCreations(key, diff);
        active += diff;
        let err: unknown;
        const template = plan.indexes ? undefined : podFromJobTemplate(job);
        const indexes = [...(plan.indexes ?? [])];
        for (let batch = Math.min(diff, slowStartInitialBatch); diff > 0; batch = Math.min(2 * batch, diff)) {
          let failed = 0;
          await Promise.all(
            Array.from({ length: batch }, async () => {
              try {
                const ix = indexes.shift();
                const pod = template ? deepCopyJSON(template) : podFromJobTemplate(job, ix, ix === undefined ? undefined : ctx.delayedDeletion?.get(ix));
                const created = await this.client.create<Pod>(podsRef, job.metadata.namespace, pod);
                this.events.record(job, 'Normal', 'SuccessfulCreate', '', `Created pod: ${created.metadata.name}`);
              } catch (e) {
                this.expectations.creationObserved(key);
                active--;
                // A terminating namespace refuses every create; nothing to report.
                if (isNamespaceTerminating(e)) return;
                this.events.record(job, 'Warning', 'FailedCreate', '', `Error creating: ${errorText(e)}`);
                failed++;
                err ??= e;
              }
            }),
          );
          diff -= batch;
          if (failed > 0 && diff > 0) {
            // Slow start: the rest are not tried this sync and not expected.
            for (let i = 0; i < diff; i++) this.expectations.creationObserved(key);
            active -= diff;
            break;
          }
        }
        return { active, err };
      }
    }
  }

  /** trackJobStatusAndRemoveFinalizers and flushUncountedAndRemoveFinalizers. */
  private async trackStatusAndRemoveFinalizers(key: string, ctx: JobSyncCtx, active: number): Promise<void> {
    const track = trackJobStatus(ctx, active, false);
    if (track.needsFlush) {
      ctx.job = await this.updateStatus(ctx.job);
      this.backoff.set(key, ctx.backoff);
    }
    const withFinalizer = new Set(track.uidsWithFinalizer);
    let rmErr: unknown;
    if (track.podsToRemoveFinalizer.length > 0) {
      this.finalizerExpectations.expect(key, track.podsToRemoveFinalizer.map((p) => p.metadata.uid ?? ''));
      await Promise.all(
        track.podsToRemoveFinalizer.map(async (p) => {
          try {
            await this.client.patch(podsRef, p.metadata.namespace, p.metadata.name ?? '', 'application/strategic-merge-patch+json', removeFinalizerPatch);
          } catch (e) {
            this.finalizerExpectations.observed(key, p.metadata.uid ?? '');
            if (!isStatus(e, 404)) {
              rmErr ??= e;
              return;
            }
          }
          withFinalizer.delete(p.metadata.uid ?? '');
        }),
      );
    }
    const settle = settleJobStatus(ctx, withFinalizer, track.reachedMaxUncounted || rmErr !== undefined);
    if (settle.needsFlush) ctx.job = await this.updateStatus(ctx.job);
    for (const e of ctx.events) this.events.record(ctx.job, e.type, e.reason, '', e.message);
    if (rmErr) throw rmErr;
  }

  private async updateStatus(job: Job): Promise<Job> {
    const out = await this.client.update<Job>(jobsRef, job.metadata.namespace, job, { subresource: 'status' });
    return deepCopyJSON(out);
  }

  /** Resolves when nothing is queued or running (timers still pending are not waited for). */
  override async idle(): Promise<void> {
    await super.idle();
    await this.orphans.idle();
    await this.events.flush();
  }

  override async stop(): Promise<void> {
    this.orphans.stop();
    await super.stop();
  }
}

export function splitKey(key: string): [string | undefined, string] {
  const i = key.indexOf('/');
  return i < 0 ? [undefined, key] : [key.slice(0, i), key.slice(i + 1)];
}

