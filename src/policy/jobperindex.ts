// backoffLimitPerIndex (pkg/controller/job/indexed_job_utils.go calculateFailedIndexes,
// isIndexFailed, getPodsWithDelayedDeletionPerIndex, addIndexFailureCountAnnotation,
// getNewIndexFailureCounts, the index failure count annotations; backoff_utils.go
// getRemainingTimePerIndex; job_controller.go getPodCreationInfoForIndependentIndexes). An Indexed
// job's index fails on its own: each pod carries in batch.kubernetes.io/job-index-failure-count how
// many counted failures its index had before it, and the index fails once a counted failure
// reaches spec.backoffLimitPerIndex (or at once by a FailIndex rule of the podFailurePolicy). Failed
// indexes go to status.failedIndexes and are not run again. A failed pod of an index that still
// has tries keeps its tracking finalizer until its replacement exists, so that the replacement can
// take the count from it; the replacement waits out a back-off of its own index (10 s doubled per
// failure of the index, ignored ones included, capped at 10 minutes). Pure: `now` in ms.

import type { Job, Pod } from '../api/types.js';
import { podFinishedTime, defaultJobPodFailureBackOffMs, maxJobPodFailureBackOffMs } from './jobbackoff.js';
import { completionIndexOf, intervalsHas, parseIntervals, withIndexes, type Intervals } from './jobindexes.js';
import { isPodFailed } from './jobpod.js';
import { matchPodFailurePolicy } from './podfailurepolicy.js';

export const indexFailureCountKey = 'batch.kubernetes.io/job-index-failure-count';
export const indexIgnoredFailureCountKey = 'batch.kubernetes.io/job-index-ignored-failure-count';
const maxInt32 = 2147483647;

/** hasBackoffLimitPerIndex (the JobBackoffLimitPerIndex gate is on in 1.32). */
export const hasBackoffLimitPerIndex = (job: Job) => job.spec?.backoffLimitPerIndex !== undefined;

/** parseInt32 of an annotation: 0 when absent, not an integer, negative or past int32. */
function annotationCount(p: Pod | undefined, key: string): number {
  const v = p?.metadata?.annotations?.[key];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > maxInt32 ? 0 : n;
}

/** getIndexFailureCount: the counted failures of the pod's index before this pod. */
export const indexFailureCount = (p: Pod | undefined) => annotationCount(p, indexFailureCountKey);
/** getIndexAbsoluteFailureCount: the counted and the ignored failures of the index before this pod. */
export const indexAbsoluteFailureCount = (p: Pod | undefined) => annotationCount(p, indexFailureCountKey) + annotationCount(p, indexIgnoredFailureCountKey);

/** isIndexFailed: the pod failed by a FailIndex rule, or by a counted failure that reaches backoffLimitPerIndex. */
export function isIndexFailed(job: Job, p: Pod): boolean {
  if (!isPodFailed(p, job)) return false;
  const m = matchPodFailurePolicy(job, p);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && indexFailureCount(p) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/**
 * calculateFailedIndexes: status.failedIndexes as read, with the indexes of the not yet counted
 * pods (`fresh`: a valid index and the tracking finalizer) that failed their index.
 */
export function failedIndexes(job: Job, pods: readonly Pod[], fresh: (p: Pod) => boolean): Intervals {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIntervals(job.status?.failedIndexes, completions);
  const now = new Set<number>();
  for (const p of pods) if (fresh(p) && isIndexFailed(job, p)) now.add(completionIndexOf(p));
  return withIndexes(prev, [...now].sort((a, b) => a - b));
}

/**
 * getPodsWithDelayedDeletionPerIndex: per index that has neither succeeded nor failed nor an active
 * pod, its latest failed pod (of the `fresh` ones): the one with the highest failure count,
 * the later finish breaking ties. It keeps its finalizer until its replacement is created.
 */
export function podsWithDelayedDeletion(job: Job, fresh: readonly Pod[], activePods: readonly Pod[], succeeded: Intervals, failed: Intervals): Map<number, Pod> {
  const active = new Set(activePods.map(completionIndexOf));
  const out = new Map<number, Pod>();
  for (const p of fresh) {
    if (!isPodFailed(p, job)) continue;
    const ix = completionIndexOf(p);
    if (intervalsHas(succeeded, ix) || intervalsHas(failed, ix) || active.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && podFinishedTime(p) >= podFinishedTime(last))) out.set(ix, p);
  }
  return out;
}

/**
 * addIndexFailureCountAnnotation: the annotations of a new pod of a backoffLimitPerIndex job that
 * replaces `replaced` (none: the index's first pod): its failure counted, or ignored by the
 * podFailurePolicy; the ignored count only when above 0.
 */
export function indexFailureAnnotations(job: Job, replaced: Pod | undefined): Record<string, string> {
  let counted = 0;
  let ignored = 0;
  if (replaced) {
    counted = indexFailureCount(replaced);
    ignored = annotationCount(replaced, indexIgnoredFailureCountKey);
    if (matchPodFailurePolicy(job, replaced).countFailed) counted++;
    else ignored++;
  }
  return { [indexFailureCountKey]: String(counted), ...(ignored > 0 ? { [indexIgnoredFailureCountKey]: String(ignored) } : {}) };
}

/** getRemainingTimePerIndex: how long the index's next pod waits after `lastFailed` (0: create now). */
export function remainingMsPerIndex(lastFailed: Pod | undefined, now: number, baseMs = defaultJobPodFailureBackOffMs, maxMs = maxJobPodFailureBackOffMs): number {
  if (!lastFailed) return 0;
  const failures = indexAbsoluteFailureCount(lastFailed) + 1;
  let delay = baseMs;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= maxMs) {
      delay = maxMs;
      break;
    }
  }
  const elapsed = now - podFinishedTime(lastFailed);
  return delay < elapsed ? 0 : delay - elapsed;
}

/**
 * getPodCreationInfoForIndependentIndexes: of `indexes`, those whose back-off has passed; when
 * none has, the shortest wait among them.
 */
export function indexesReadyToCreate(indexes: readonly number[], delayed: ReadonlyMap<number, Pod>, now: number, baseMs?: number, maxMs?: number): { indexes: number[]; waitMs: number } {
  const ready: number[] = [];
  let wait: number | undefined;
  for (const ix of indexes) {
    const ms = remainingMsPerIndex(delayed.get(ix), now, baseMs, maxMs);
    if (ms === 0) ready.push(ix);
    else if (wait === undefined || ms < wait) wait = ms;
  }
  return ready.length > 0 ? { indexes: ready, waitMs: 0 } : { indexes: [], waitMs: wait ?? 0 };
}
