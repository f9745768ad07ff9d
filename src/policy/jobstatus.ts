// Counting a Job's finished pods exactly once (pkg/controller/job/job_controller.go
// trackJobStatusAndRemoveFinalizers, canRemoveFinalizer, cleanUncountedPodsWithoutFinalizers,
// enactJobFinished, recordJobFinished). A finished pod that still carries the
// `batch.kubernetes.io/job-tracking` finalizer is first written to status.uncountedTerminatedPods
// (with the interim FailureTarget or SuccessCriteriaMet condition), then its finalizer is removed,
// and only then is its uid moved from the uncounted lists to status.succeeded / status.failed.
// A crash between the steps neither loses nor doubles a count. The terminal condition (Complete
// or Failed) waits until nothing is uncounted and no pod is terminating. With backoffLimitPerIndex,
// a failed pod whose index waits for a new pod keeps its finalizer (and is not counted) until then,
// and status.failedIndexes is written with the counts. Pure.

import type { JobCondition, Pod } from '../api/types.js';
import { hasTrackingFinalizer, hasValidIndex, isPodFailed, newCondition, podPhase, type JobSyncCtx } from './job.js';
import { completionIndexOf, intervalsHas, intervalsString, intervalsTotal, isIndexedJob, withIndexes } from './jobindexes.js';
import { matchPodFailurePolicy } from './podfailurepolicy.js';

/** MaxUncountedPods: status.uncountedTerminatedPods stays below ~20 KB. */
export const maxUncountedPods = 500;

export interface TrackResult {
  /** Pods whose tracking finalizer goes now (after the status write, if needsFlush). */
  podsToRemoveFinalizer: Pod[];
  /** Uids of the pods that still carry the finalizer (and are not expected to lose it). */
  uidsWithFinalizer: Set<string>;
  /** The status must be written before the finalizers are removed. */
  needsFlush: boolean;
  /** Stopped at maxUncountedPods: the job cannot finish this sync. */
  reachedMaxUncounted: boolean;
}

const uidOf = (p: Pod) => p.metadata.uid ?? '';

/**
 * canRemoveFinalizer: the job is being deleted or finishing, or the pod succeeded, or it failed
 * (unless it is the failed pod its index's replacement takes the failure count from).
 */
function canRemoveFinalizer(ctx: JobSyncCtx, p: Pod, failed: boolean): boolean {
  if (ctx.job.metadata.deletionTimestamp || ctx.finishedCondition || podPhase(p) === 'Succeeded') return true;
  if (!failed) return false;
  const delayed = ctx.delayedDeletion?.get(completionIndexOf(p));
  return !delayed || delayed.metadata.uid !== p.metadata.uid;
}

/**
 * Sets active/ready/terminating, adds the newly finished pods to uncountedTerminatedPods, moves
 * uids whose finalizer is already gone into the counters, and appends the interim condition
 * (turning ctx.finishedCondition into the terminal one it leads to).
 */
export function trackJobStatus(ctx: JobSyncCtx, active: number, needsStatusUpdate: boolean): TrackResult {
  const status = ctx.job.status!;
  let needsFlush = needsStatusUpdate || ctx.suspendCondChanged || active !== (status.active ?? 0) || ctx.ready !== status.ready || ctx.terminating !== status.terminating;
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  const uncounted = status.uncountedTerminatedPods!;
  uncounted.succeeded ??= [];
  uncounted.failed ??= [];
  const uidsWithFinalizer = new Set(ctx.pods.filter((p) => hasTrackingFinalizer(p) && !ctx.expectedRmFinalizers.has(uidOf(p))).map(uidOf));
  if (cleanUncounted(status, uidsWithFinalizer)) needsFlush = true;

  const podsToRemoveFinalizer: Pod[] = [];
  let reachedMaxUncounted = false;
  const failing = !!ctx.finishedCondition && ctx.finishedCondition.type !== 'SuccessCriteriaMet';
  // Indexed: a succeeded pod is counted by its index (no uid is tracked); one of an index that
  // completed already, or out of range, only loses its finalizer.
  const indexed = isIndexedJob(ctx.job);
  const newSucceededIndexes: number[] = [];
  for (const p of ctx.pods) {
    if (!hasTrackingFinalizer(p) || ctx.expectedRmFinalizers.has(uidOf(p))) continue;
    const failed = isPodFailed(p, ctx.job);
    if (!canRemoveFinalizer(ctx, p, failed)) continue;
    podsToRemoveFinalizer.push(p);
    const uid = uidOf(p);
    if (podPhase(p) === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (indexed) {
        const ix = completionIndexOf(p);
        if (hasValidIndex(ctx.job, p) && !intervalsHas(ctx.prevSucceededIndexes ?? [], ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncounted.succeeded.has(uid)) {
        uncounted.succeeded.push(uid);
        ctx.uncounted.succeeded.add(uid);
        needsFlush = true;
      }
    } else if (failed || failing) {
      // When the job is failing, every pod not yet terminated counts as failed.
      if (!ctx.uncounted.failed.has(uid) && (!indexed || hasValidIndex(ctx.job, p)) && matchPodFailurePolicy(ctx.job, p).countFailed) {
        uncounted.failed.push(uid);
        ctx.uncounted.failed.add(uid);
        needsFlush = true;
      }
    }
    if (newSucceededIndexes.length + uncounted.succeeded.length + uncounted.failed.length >= maxUncountedPods) {
      reachedMaxUncounted = true;
      break;
    }
  }
  if (indexed) {
    const done = withIndexes(ctx.succeededIndexes ?? [], [...new Set(newSucceededIndexes)].sort((a, b) => a - b));
    const text = intervalsString(done);
    if (text !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = intervalsTotal(done);
    status.completedIndexes = text;
    // A backoffLimitPerIndex job always has failedIndexes, "" while none failed.
    const failed = ctx.failedIndexes ? intervalsString(ctx.failedIndexes) : undefined;
    if (failed !== status.failedIndexes) {
      if (failed === undefined) delete status.failedIndexes;
      else status.failedIndexes = failed;
      needsFlush = true;
    }
  }

  const fc = ctx.finishedCondition;
  if (fc?.type === 'FailureTarget') {
    status.conditions = [...(status.conditions ?? []), fc];
    needsFlush = true;
    ctx.finishedCondition = newCondition('Failed', 'True', fc.reason ?? '', fc.message ?? '', ctx.now);
  } else if (fc?.type === 'SuccessCriteriaMet') {
    if (!(status.conditions ?? []).some((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True')) {
      status.conditions = [...(status.conditions ?? []), fc];
      needsFlush = true;
    }
    ctx.finishedCondition = newCondition('Complete', 'True', fc.reason ?? '', fc.message ?? '', ctx.now);
  }
  tidyStatus(status);
  return { podsToRemoveFinalizer, uidsWithFinalizer, needsFlush, reachedMaxUncounted };
}

/**
 * The status as batch/v1 serializes it: active, succeeded and failed are omitted at 0 (int32
 * omitempty), ready and terminating kept (pointers), uncountedTerminatedPods present with its empty
 * lists omitted, no empty conditions list.
 */
export function tidyStatus(status: NonNullable<JobSyncCtx['job']['status']>): void {
  for (const k of ['active', 'succeeded', 'failed'] as const) if (!status[k]) delete status[k];
  const u = (status.uncountedTerminatedPods ??= {});
  if (u.succeeded?.length === 0) delete u.succeeded;
  if (u.failed?.length === 0) delete u.failed;
  if (status.conditions?.length === 0) delete status.conditions;
  if (status.completedIndexes === '') delete status.completedIndexes;
}

/** cleanUncountedPodsWithoutFinalizers: uids whose pods lost the finalizer (or are gone) become counts. */
export function cleanUncounted(status: NonNullable<JobSyncCtx['job']['status']>, uidsWithFinalizer: ReadonlySet<string>): boolean {
  const u = status.uncountedTerminatedPods ?? {};
  let changed = false;
  const keepS = (u.succeeded ?? []).filter((x) => uidsWithFinalizer.has(x));
  if (keepS.length !== (u.succeeded ?? []).length) {
    status.succeeded = (status.succeeded ?? 0) + (u.succeeded ?? []).length - keepS.length;
    u.succeeded = keepS;
    changed = true;
  }
  const keepF = (u.failed ?? []).filter((x) => uidsWithFinalizer.has(x));
  if (keepF.length !== (u.failed ?? []).length) {
    status.failed = (status.failed ?? 0) + (u.failed ?? []).length - keepF.length;
    u.failed = keepF;
    changed = true;
  }
  status.uncountedTerminatedPods = u;
  return changed;
}

export interface SettleResult {
  needsFlush: boolean;
  /** The terminal condition was set: its events are in ctx.events. */
  finished: boolean;
}

/**
 * After the finalizers were removed (`uidsWithFinalizer`: those still carrying it): the counts
 * move out of uncountedTerminatedPods, and the terminal condition is set once nothing is uncounted
 * and no pod is terminating (enactJobFinished), with recordJobFinished's events.
 */
export function settleJobStatus(ctx: JobSyncCtx, uidsWithFinalizer: ReadonlySet<string>, reachedMaxUncounted = false): SettleResult {
  const status = ctx.job.status!;
  let needsFlush = cleanUncounted(status, uidsWithFinalizer);
  tidyStatus(status);
  const fc: JobCondition | undefined = ctx.finishedCondition;
  if (!fc || reachedMaxUncounted) return { needsFlush, finished: false };
  const u = status.uncountedTerminatedPods ?? {};
  if ((u.succeeded?.length ?? 0) + (u.failed?.length ?? 0) > 0 || ctx.terminating > 0) return { needsFlush, finished: false };
  const conds = status.conditions ?? [];
  const i = conds.findIndex((c) => c.type === fc.type);
  const cond = newCondition(fc.type, fc.status, fc.reason ?? '', fc.message ?? '', ctx.now);
  status.conditions = i >= 0 ? conds.map((c, j) => (j === i ? cond : c)) : [...conds, cond];
  if (fc.type === 'Complete') {
    status.completionTime = cond.lastTransitionTime;
    const completions = ctx.job.spec?.completions;
    if (completions !== undefined && (status.succeeded ?? 0) > completions) ctx.events.push({ type: 'Warning', reason: 'TooManySucceededPods', message: 'Too many succeeded pods running after completion count reached' });
    ctx.events.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
  } else {
    ctx.events.push({ type: 'Warning', reason: fc.reason ?? '', message: fc.message ?? '' });
  }
  needsFlush = true;
  return { needsFlush, finished: true };
}
