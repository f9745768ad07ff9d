// The Job controller's decisions for one sync, as pure functions in the order of pkg/controller/
// job/job_controller.go syncJob: beginJobSync (the counts, startTime, the back-off record, and the
// failure that finishes the job: a FailJob rule, backoffLimit, activeDeadlineSeconds), then either
// the active pods to delete when finishing (deleteActivePods) or manageJob's plan (create, delete
// the excess, wait for the back-off, or delete everything when suspended), then afterManage (the
// success check and the Suspended condition). Counting finished pods and the terminal conditions
// are in jobstatus.ts (trackJobStatusAndRemoveFinalizers). decideJobSync composes the steps as if
// every write succeeded (jobsync.ts). NonIndexed and Indexed completion (jobindexes.ts), an Indexed
// job's backoffLimitPerIndex and maxFailedIndexes (jobperindex.ts) and successPolicy
// (jobsuccesspolicy.ts). No I/O, no clock.

import type { Job, JobCondition, Pod } from '../api/types.js';
import { isPodReady } from './activepods.js';
import { newControllerRef } from './controllerref.js';
import { podFromTemplate } from './podtemplate.js';
import { backoffRemainingMs, newBackoffRecord, type BackoffRecord } from './jobbackoff.js';
import { completionIndexEnvName, completionIndexKey, completionIndexOf, duplicatedIndexPods, firstPendingIndexes, generateNameWithIndex, intervalsTotal, isIndexedJob, mergeIntervals, succeededIndexes, type Intervals } from './jobindexes.js';
import { failedIndexes, hasBackoffLimitPerIndex, indexesReadyToCreate, indexFailureAnnotations, podsWithDelayedDeletion } from './jobperindex.js';
import { hasTrackingFinalizer, isActivePod, isPodFailed, isTerminatingPod, jobTrackingFinalizer, onlyReplaceFailedPods, podPhase } from './jobpod.js';
import { matchSuccessPolicy, successPolicyReason } from './jobsuccesspolicy.js';
import { matchPodFailurePolicy } from './podfailurepolicy.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export { hasTrackingFinalizer, isActivePod, isPodFailed, jobTrackingFinalizer, onlyReplaceFailedPods, podPhase };

/** The value of spec.managedBy this controller syncs (absent means the same). */
export const jobControllerName = 'kubernetes.io/job-controller';

/** Reasons and messages of batch/v1 types.go and job_controller.go. */
export const jobReasons = {
  backoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  podFailurePolicy: 'PodFailurePolicy',
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  suspended: { reason: 'JobSuspended', message: 'Job suspended' },
  resumed: { reason: 'JobResumed', message: 'Job resumed' },
  maxFailedIndexesExceeded: { reason: 'MaxFailedIndexesExceeded', message: 'Job has exceeded the specified maximal number of failed indexes' },
  failedIndexes: { reason: 'FailedIndexes', message: 'Job has failed indexes' },
  successPolicy: successPolicyReason,
} as const;

export interface JobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** One sync's working state (upstream's syncJobCtx); the steps read and update it. */
export interface JobSyncCtx {
  /** A copy of the job whose status the steps change. */
  job: Job;
  pods: readonly Pod[];
  activePods: Pod[];
  now: string;
  succeeded: number;
  failed: number;
  ready: number;
  terminating: number;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  /** Pods whose finalizer removal was sent but not yet seen (finalizerExpectations). */
  expectedRmFinalizers: ReadonlySet<string>;
  backoff: BackoffRecord;
  /** The condition that finishes the job (interim or terminal), once known. */
  finishedCondition?: JobCondition;
  suspendCondChanged: boolean;
  events: JobEvent[];
  /** activeDeadlineSeconds not reached yet: sync again after this many ms. */
  deadlineAfterMs?: number;
  /** Indexed: status.completedIndexes as read, and with the newly succeeded pods' indexes. */
  prevSucceededIndexes?: Intervals;
  succeededIndexes?: Intervals;
  /** backoffLimitPerIndex: status.failedIndexes with the indexes failed since. */
  failedIndexes?: Intervals;
  /** backoffLimitPerIndex: per index waiting for a new pod, the failed pod that keeps its finalizer until then. */
  delayedDeletion?: Map<number, Pod>;
}

export interface JobSyncInput {
  job: Job;
  /** The pods the job owns (controlled by it). */
  pods: readonly Pod[];
  /** The sync's time, RFC 3339. */
  now: string;
  expectedRmFinalizers?: ReadonlySet<string>;
  /** The job's back-off record from earlier syncs. */
  backoff?: BackoffRecord;
}

const isTrue = (conds: JobCondition[] | undefined, type: string) => (conds ?? []).some((c) => c.type === type && c.status === 'True');

/** IsJobFinished: Complete or Failed is True. */
export function isJobFinished(job: Job): boolean {
  return isTrue(job.status?.conditions, 'Complete') || isTrue(job.status?.conditions, 'Failed');
}

/** The job is another controller's (spec.managedBy names someone else). */
export function managedElsewhere(job: Job): boolean {
  const m = job.spec?.managedBy;
  return m !== undefined && m !== jobControllerName;
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts of active pods count as failures. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (podPhase(p) !== 'Running' && podPhase(p) !== 'Pending') continue;
    for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += cs.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** pastActiveDeadline: activeDeadlineSeconds have passed since status.startTime (never while suspended). */
export function pastActiveDeadline(job: Job, now: string): boolean {
  const deadline = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (deadline === undefined || !start || job.spec?.suspend === true) return false;
  return Date.parse(now) - Date.parse(start) >= deadline * 1000;
}

export function newCondition(type: string, status: string, reason: string, message: string, now: string): JobCondition {
  return { type, status, lastProbeTime: now, lastTransitionTime: now, reason, message };
}

/** ensureJobConditionStatus: replaces a condition that differs, appends a new one unless it is False. */
export function ensureCondition(conds: JobCondition[], type: string, status: string, reason: string, message: string, now: string): { conditions: JobCondition[]; changed: boolean } {
  const i = conds.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = conds[i]!;
    if (c.status === status && c.reason === reason && c.message === message) return { conditions: conds, changed: false };
    const next = [...conds];
    next[i] = newCondition(type, status, reason, message, now);
    return { conditions: next, changed: true };
  }
  if (status === 'False') return { conditions: conds, changed: false };
  return { conditions: [...conds, newCondition(type, status, reason, message, now)], changed: true };
}

/**
 * controller.ActivePods ordering, the pods to delete first: unscheduled before scheduled,
 * pending before running, not ready before ready, newest first.
 */
function deletionOrder(a: Pod, b: Pod): number {
  const rank = (p: Pod) => [p.spec?.nodeName ? 1 : 0, podPhase(p) === 'Running' ? 1 : 0, isPodReady(p) ? 1 : 0];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  return Date.parse(b.metadata?.creationTimestamp ?? '') - Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
}

/** getFailJobMessage: the first failed pod a FailJob rule matches. */
function failJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
  if (!job.spec?.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const m = matchPodFailurePolicy(job, p);
    if (m.action === 'FailJob') return m.message;
  }
  return undefined;
}

/**
 * syncJob up to the choice between finishing and manageJob. Undefined when there is nothing to
 * do: the job finished already, or it is another controller's.
 */
export function beginJobSync({ job: shared, pods, now, expectedRmFinalizers = new Set(), backoff }: JobSyncInput): JobSyncCtx | undefined {
  if (isJobFinished(shared) || managedElsewhere(shared)) return undefined;
  const job: Job = deepCopyJSON(shared);
  const status = (job.status ??= {});
  const uncounted = { succeeded: new Set(status.uncountedTerminatedPods?.succeeded ?? []), failed: new Set(status.uncountedTerminatedPods?.failed ?? []) };
  status.uncountedTerminatedPods = { succeeded: [...uncounted.succeeded], failed: [...uncounted.failed] };
  const activePods = pods.filter(isActivePod);
  const indexed = isIndexedJob(job);
  // getValidPodsWithFilter: an Indexed job's pod counts only with an index in range.
  const validIndex = (p: Pod) => !indexed || hasValidIndex(job, p);
  const fresh = (p: Pod, set: Set<string>) => hasTrackingFinalizer(p) && !set.has(p.metadata.uid ?? '') && !expectedRmFinalizers.has(p.metadata.uid ?? '') && validIndex(p);
  const newSucceeded = pods.filter((p) => fresh(p, uncounted.succeeded) && podPhase(p) === 'Succeeded');
  const newFailed = pods.filter((p) => fresh(p, uncounted.failed) && isPodFailed(p, job));
  const notIgnored = newFailed.filter((p) => matchPodFailurePolicy(job, p).countFailed).length;
  const ctx: JobSyncCtx = {
    job,
    pods,
    activePods,
    now,
    succeeded: (status.succeeded ?? 0) + newSucceeded.length + uncounted.succeeded.size,
    failed: (status.failed ?? 0) + notIgnored + uncounted.failed.size,
    ready: activePods.filter(isPodReady).length,
    terminating: pods.filter(isTerminatingPod).length,
    uncounted,
    expectedRmFinalizers,
    backoff: newBackoffRecord(backoff, newSucceeded, newFailed),
    suspendCondChanged: false,
    events: [],
  };
  if (indexed) {
    const ix = succeededIndexes(job, pods, (p) => hasTrackingFinalizer(p) && !expectedRmFinalizers.has(p.metadata.uid ?? ''));
    ctx.prevSucceededIndexes = ix.prev;
    ctx.succeededIndexes = ix.now;
    ctx.succeeded = intervalsTotal(ix.now);
  }
  const suspended = job.spec?.suspend === true;
  if (!status.startTime && !suspended) status.startTime = now;

  const conds = status.conditions ?? [];
  ctx.finishedCondition = conds.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
  if (!ctx.finishedCondition) {
    const target = conds.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    const message = target ? undefined : failJobMessage(job, pods);
    if (target) ctx.finishedCondition = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
    else if (message !== undefined) ctx.finishedCondition = newCondition('FailureTarget', 'True', jobReasons.podFailurePolicy, message, now);
  }
  if (!ctx.finishedCondition) {
    const failure = (r: { reason: string; message: string }) => newCondition('FailureTarget', 'True', r.reason, r.message, now);
    if (ctx.failed > (job.spec?.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) ctx.finishedCondition = failure(jobReasons.backoffLimitExceeded);
    else if (pastActiveDeadline(job, now)) ctx.finishedCondition = failure(jobReasons.deadlineExceeded);
    else if (job.spec?.activeDeadlineSeconds !== undefined && !suspended && status.startTime) {
      ctx.deadlineAfterMs = job.spec.activeDeadlineSeconds * 1000 - (Date.parse(now) - Date.parse(status.startTime));
    }
  }
  if (indexed) indexedJobOutcome(ctx);
  return ctx;
}

/**
 * The Indexed job's part of syncJob before manageJob: with backoffLimitPerIndex its failed indexes
 * (failing the job past maxFailedIndexes, or once every index succeeded or failed with some failed)
 * and the failed pods that wait for their replacement; then the successPolicy.
 */
function indexedJobOutcome(ctx: JobSyncCtx): void {
  const { job, pods, now } = ctx;
  const completions = job.spec?.completions ?? 0;
  const succeeded = ctx.succeededIndexes ?? [];
  const failure = (r: { reason: string; message: string }) => newCondition('FailureTarget', 'True', r.reason, r.message, now);
  if (hasBackoffLimitPerIndex(job)) {
    const failed = failedIndexes(job, pods, (p) => hasTrackingFinalizer(p) && hasValidIndex(job, p));
    ctx.failedIndexes = failed;
    if (!ctx.finishedCondition) {
      const max = job.spec?.maxFailedIndexes;
      if (max !== undefined && intervalsTotal(failed) > max) ctx.finishedCondition = failure(jobReasons.maxFailedIndexesExceeded);
      else if (intervalsTotal(failed) > 0 && intervalsTotal(failed) + intervalsTotal(succeeded) >= completions) ctx.finishedCondition = failure(jobReasons.failedIndexes);
    }
    const fresh = pods.filter((p) => hasTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(p.metadata.uid ?? '') && hasValidIndex(job, p));
    ctx.delayedDeletion = podsWithDelayedDeletion(job, fresh, ctx.activePods, succeeded, failed);
  }
  if (!ctx.finishedCondition) {
    const message = matchSuccessPolicy(job.spec?.successPolicy, completions, succeeded);
    if (message !== undefined) ctx.finishedCondition = newCondition('SuccessCriteriaMet', 'True', jobReasons.successPolicy, message, now);
  }
}

/** An Indexed job's pod has an index below completions. */
export function hasValidIndex(job: Job, p: Pod): boolean {
  const ix = completionIndexOf(p);
  return ix >= 0 && ix < (job.spec?.completions ?? 0);
}

/** What manageJob does this sync: at most one of creating and deleting. */
export type ManagePlan =
  | { action: 'none' }
  /** Indexed: `indexes` are the indexes of the pods to create (count of them). */
  | { action: 'create'; count: number; indexes?: number[] }
  /** The back-off after failures has not passed: sync again then. */
  | { action: 'wait'; afterMs: number }
  /** Remove the tracking finalizer, then delete (deleteJobPods): excess pods, or all when suspended. */
  | { action: 'delete'; pods: Pod[] };

/** manageJob's decision (called only with expectations satisfied and the job not being deleted). */
export function manageJobPlan(ctx: JobSyncCtx, backoffBaseMs?: number, backoffMaxMs?: number): ManagePlan {
  const { job, activePods } = ctx;
  const active = activePods.length;
  if (job.spec?.suspend === true) return active > 0 ? { action: 'delete', pods: activePodsForRemoval(job, activePods, active) } : { action: 'none' };
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  let wantActive: number;
  if (completions === undefined) wantActive = ctx.succeeded > 0 ? active : parallelism;
  else wantActive = Math.max(0, Math.min(completions - ctx.succeeded, parallelism));
  const toDelete = activePodsForRemoval(job, activePods, Math.max(0, active - wantActive)).slice(0, 500);
  // Deleting takes precedence over creating (an Indexed job with a repeated index may need both).
  if (toDelete.length > 0) return { action: 'delete', pods: toDelete };
  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  const diff = wantActive - terminating - active;
  if (diff <= 0) return { action: 'none' };
  const perIndex = hasBackoffLimitPerIndex(job);
  // With backoffLimitPerIndex each index waits out its own back-off instead.
  const wait = perIndex ? 0 : backoffRemainingMs(ctx.backoff, Date.parse(ctx.now), backoffBaseMs, backoffMaxMs);
  if (wait > 0) return { action: 'wait', afterMs: wait };
  const count = Math.min(diff, 500);
  if (!isIndexedJob(job)) return { action: 'create', count };
  const holding = onlyReplaceFailedPods(job) ? [...activePods, ...ctx.pods.filter(isTerminatingPod)] : activePods;
  let indexes = firstPendingIndexes(holding, mergeIntervals(ctx.succeededIndexes ?? [], ctx.failedIndexes ?? []), count, completions ?? 0);
  if (perIndex) {
    const ready = indexesReadyToCreate(indexes, ctx.delayedDeletion ?? new Map(), Date.parse(ctx.now), backoffBaseMs, backoffMaxMs);
    if (ready.waitMs > 0) return { action: 'wait', afterMs: ready.waitMs };
    indexes = ready.indexes;
  }
  return indexes.length > 0 ? { action: 'create', count: indexes.length, indexes } : { action: 'none' };
}

/**
 * activePodsForRemoval: for an Indexed job first the pods without a valid index and all but one of
 * each repeated index, then (to reach `rmAtLeast`) the rest in deletion order.
 */
export function activePodsForRemoval(job: Job, pods: readonly Pod[], rmAtLeast: number): Pod[] {
  let rm: Pod[] = [];
  let left: Pod[] = [...pods];
  if (isIndexedJob(job)) ({ rm, left } = duplicatedIndexPods(pods, job.spec?.completions ?? 0, deletionOrder));
  if (rm.length < rmAtLeast) rm = [...rm, ...left.sort(deletionOrder).slice(0, rmAtLeast - rm.length)];
  return rm;
}

/**
 * After manageJob (or in its place, when it was not called): `active` is what runs now. The job
 * met its completions, or the Suspended condition follows spec.suspend (with its events; a resumed
 * job's startTime restarts the deadline).
 */
export function afterManage(ctx: JobSyncCtx, active: number, manageJobCalled: boolean): void {
  const { job, now } = ctx;
  const completions = job.spec?.completions;
  const complete = completions === undefined ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= completions && active === 0;
  if (complete) {
    ctx.finishedCondition = newCondition('SuccessCriteriaMet', 'True', jobReasons.completionsReached.reason, jobReasons.completionsReached.message, now);
    return;
  }
  if (!manageJobCalled) return;
  const status = job.status!;
  if (job.spec?.suspend === true) {
    const r = ensureCondition(status.conditions ?? [], 'Suspended', 'True', jobReasons.suspended.reason, jobReasons.suspended.message, now);
    status.conditions = r.conditions;
    if (r.changed) {
      ctx.suspendCondChanged = true;
      ctx.events.push({ type: 'Normal', reason: 'Suspended', message: jobReasons.suspended.message });
    }
  } else {
    const r = ensureCondition(status.conditions ?? [], 'Suspended', 'False', jobReasons.resumed.reason, jobReasons.resumed.message, now);
    status.conditions = r.conditions;
    if (r.changed) {
      ctx.suspendCondChanged = true;
      ctx.events.push({ type: 'Normal', reason: 'Resumed', message: jobReasons.resumed.message });
      status.startTime = now;
    }
  }
}

/**
 * The pod manageJob creates: GetPodFromTemplate of the template with the tracking finalizer
 * appended (appendJobCompletionFinalizerIfNotFound), the job as controlling owner; NonIndexed with
 * no name of its own. An Indexed job's pod for `index` also gets the index as annotation and label,
 * JOB_COMPLETION_INDEX in every container's env (from the label, unless the container sets it),
 * the hostname `<job>-<index>` and the generateName `<job>-<index>-`; with backoffLimitPerIndex the
 * index's failure counts so far, taken from the failed pod it `replaces` (none: 0).
 */
export function podFromJobTemplate(job: Job, index?: number, replaces?: Pod): Pod {
  const t = job.spec?.template ?? {};
  const finalizers = [...(t.metadata?.finalizers ?? [])];
  if (!finalizers.includes(jobTrackingFinalizer)) finalizers.push(jobTrackingFinalizer);
  const jobName = job.metadata.name ?? '';
  const controllerRef = newControllerRef(job, 'batch/v1', 'Job');
  if (index === undefined) return podFromTemplate({ ...t, metadata: { ...t.metadata, finalizers } }, jobName, controllerRef);
  const ix = String(index);
  const withEnv = <C extends { env?: { name: string }[] }>(c: C): C =>
    (c.env ?? []).some((e) => e.name === completionIndexEnvName) ? c : { ...c, env: [...(c.env ?? []), { name: completionIndexEnvName, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${completionIndexKey}']` } } }] };
  const spec = t.spec ? { ...t.spec, hostname: `${jobName}-${index}`, containers: t.spec.containers.map(withEnv), ...(t.spec.initContainers ? { initContainers: t.spec.initContainers.map(withEnv) } : {}) } : undefined;
  const perIndex = hasBackoffLimitPerIndex(job) ? indexFailureAnnotations(job, replaces) : {};
  const metadata = { ...t.metadata, finalizers, annotations: { ...t.metadata?.annotations, [completionIndexKey]: ix, ...perIndex }, labels: { ...t.metadata?.labels, [completionIndexKey]: ix } };
  const pod = podFromTemplate({ ...t, metadata, ...(spec ? { spec } : {}) }, jobName, controllerRef);
  pod.metadata.generateName = generateNameWithIndex(jobName, index);
  return pod;
}
