// The TTL-after-finished rule for Jobs (pkg/controller/ttlafterfinished/
// ttlafterfinished_controller.go: needsCleanup, jobFinishTime, getFinishAndExpireTime, timeLeft
// and processTTL's decision). A Job is cleaned up when spec.ttlSecondsAfterFinished is set and it
// has finished (Complete or Failed True, as IsJobFinished); it finished at that condition's
// lastTransitionTime and expires ttlSecondsAfterFinished seconds later. The TTL is read from the
// Job as it is now, so a TTL changed after the Job finished counts from the same finish time;
// a TTL of 0 expires at the finish time. A Job being deleted is left alone. No I/O, no clock:
// the caller passes the time.

import type { Job } from '../api/types.js';
import { isJobFinished } from './job.js';

/** Go's zero time.Time (0001-01-01T00:00:00Z), which metav1.Time.IsZero also calls zero. */
const zeroTimeMs = Date.parse('0001-01-01T00:00:00Z');

/** needsCleanup: the Job has a TTL and has finished. */
export function needsCleanup(job: Job): boolean {
  return job.spec?.ttlSecondsAfterFinished != null && isJobFinished(job);
}

/**
 * jobFinishTime: the lastTransitionTime of the first Complete or Failed condition that is True,
 * in ms since the epoch, or upstream's error when it is missing.
 */
export function jobFinishTime(job: Job): { at: number } | { error: string } {
  const who = `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`;
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') {
      const at = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
      if (Number.isNaN(at) || at === zeroTimeMs) return { error: `unable to find the time when the Job ${who} finished` };
      return { at };
    }
  }
  // Not reached for a finished Job.
  return { error: `unable to find the status of the finished Job ${who}` };
}

export type JobTtlDecision =
  /** Not finished, no TTL, or being deleted: nothing to do (and no requeue). */
  | { action: 'none' }
  /** The finish time cannot be read: an error, retried with back-off as upstream's processTTL returns it. */
  | { action: 'error'; message: string }
  /** Not yet: come back after `afterMs`. `finishedInFuture`: clock skew, upstream logs a warning. */
  | { action: 'wait'; afterMs: number; expireAt: number; finishedInFuture: boolean }
  /** The TTL has expired (time left ≤ 0): delete the Job. */
  | { action: 'delete'; expireAt: number; finishedInFuture: boolean };

/** processTTL: what to do with this Job at `now` (ms since the epoch). */
export function jobTtlDecision(job: Job, now: number): JobTtlDecision {
  if (job.metadata.deletionTimestamp || !needsCleanup(job)) return { action: 'none' };
  const finish = jobFinishTime(job);
  if ('error' in finish) return { action: 'error', message: finish.error };
  const expireAt = finish.at + job.spec!.ttlSecondsAfterFinished! * 1000;
  const left = expireAt - now;
  const finishedInFuture = finish.at > now;
  return left <= 0 ? { action: 'delete', expireAt, finishedInFuture } : { action: 'wait', afterMs: left, expireAt, finishedInFuture };
}
