// The Job controller's back-off before re-creating pods after failures (pkg/controller/job/
// backoff_utils.go): a record per job of the failures since the last success and when the last
// one finished; the delay is 10 s doubled per further failure, capped at 10 minutes
// (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff of current upstream; releases before
// 1.29 capped at 6 minutes), counted from the last failure's finish time. Pure: `now` in ms.

import type { Pod } from '../api/types.js';

export const defaultJobPodFailureBackOffMs = 10_000;
export const maxJobPodFailureBackOffMs = 10 * 60_000;

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  /** When the last counted failure finished (epoch ms). */
  lastFailureTime?: number;
}

const ms = (s: string | undefined) => (s ? Date.parse(s) : NaN);

/**
 * getFinishedTime: the latest container finish when every container finished, else the Ready=False
 * transition, else deletionTimestamp minus the grace period, else creation.
 */
export function podFinishedTime(p: Pod): number {
  const statuses = p.status?.containerStatuses ?? [];
  let latest: number | undefined;
  let all = statuses.length > 0;
  for (const cs of statuses) {
    const t = ms(cs.state?.terminated?.finishedAt);
    if (Number.isNaN(t)) {
      all = false;
      break;
    }
    if (latest === undefined || t > latest) latest = t;
  }
  if (all && latest !== undefined) return latest;
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
  if (ready?.status === 'False' && !Number.isNaN(ms(ready.lastTransitionTime))) return ms(ready.lastTransitionTime);
  if (p.metadata?.deletionTimestamp) return ms(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return ms(p.metadata?.creationTimestamp) || 0;
}

/** newBackoffRecord: the record after this sync's newly finished pods. */
export function newBackoffRecord(prev: BackoffRecord | undefined, newSucceeded: readonly Pod[], newFailed: readonly Pod[]): BackoffRecord {
  const rec: BackoffRecord = { failuresAfterLastSuccess: prev?.failuresAfterLastSuccess ?? 0, lastFailureTime: prev?.lastFailureTime };
  const failedTimes = newFailed.map(podFinishedTime).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return rec;
    return { failuresAfterLastSuccess: rec.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
  }
  const lastSuccess = Math.max(...newSucceeded.map(podFinishedTime));
  const out: BackoffRecord = { failuresAfterLastSuccess: 0 };
  for (let i = failedTimes.length - 1; i >= 0; i--) {
    if (!(failedTimes[i]! > lastSuccess)) break;
    out.lastFailureTime ??= failedTimes[i];
    out.failuresAfterLastSuccess++;
  }
  return out;
}

/** getRemainingTimeForFailuresCount: how long pod creation still waits (0: create now). */
export function backoffRemainingMs(rec: BackoffRecord, now: number, baseMs = defaultJobPodFailureBackOffMs, maxMs = maxJobPodFailureBackOffMs): number {
  if (rec.failuresAfterLastSuccess === 0 || rec.lastFailureTime === undefined) return 0;
  let delay = baseMs;
  for (let i = 1; i < rec.failuresAfterLastSuccess; i++) {
    delay *= 2;
    if (delay >= maxMs) {
      delay = maxMs;
      break;
    }
  }
  const elapsed = now - rec.lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}
