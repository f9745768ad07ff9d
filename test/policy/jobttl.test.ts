// The TTL-after-finished rule (src/policy/jobttl.ts), one row per rule of pkg/controller/
// ttlafterfinished's needsCleanup, jobFinishTime and timeLeft (the rows of upstream's
// TestTimeLeft among them): which Jobs need cleanup, the finish time it counts from, the time
// left, and the errors for a finish time that cannot be read.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Job, JobCondition } from '../../src/api/types.js';
import { jobTtlDecision, needsCleanup, type JobTtlDecision } from '../../src/policy/jobttl.js';

const now = Date.parse('2026-01-01T00:10:00Z');
const at = (secondsFromNow: number) => new Date(now + secondsFromNow * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const cond = (type: string, status: string, secondsFromNow?: number): JobCondition => ({ type, status, ...(secondsFromNow !== undefined ? { lastTransitionTime: at(secondsFromNow) } : {}) });

function job(ttl: number | undefined, conditions: JobCondition[], extra: { deleting?: boolean; completionTime?: string } = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'x', namespace: 'default', uid: 'u1', ...(extra.deleting ? { deletionTimestamp: at(-1) } : {}) },
    spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: { spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' } } },
    status: { conditions, ...(extra.completionTime ? { completionTime: extra.completionTime } : {}) },
  };
}

const wait = (afterSeconds: number, expireFromNow: number, finishedInFuture = false): JobTtlDecision => ({ action: 'wait', afterMs: afterSeconds * 1000, expireAt: now + expireFromNow * 1000, finishedInFuture });
const del = (expireFromNow: number): JobTtlDecision => ({ action: 'delete', expireAt: now + expireFromNow * 1000, finishedInFuture: false });

describe('jobTtlDecision (processTTL / timeLeft)', () => {
  const rows: { name: string; job: Job; want: JobTtlDecision }[] = [
    { name: 'not finished (no condition): nothing to do', job: job(100, []), want: { action: 'none' } },
    { name: 'not finished (SuccessCriteriaMet and FailureTarget are interim, Complete False): nothing to do', job: job(0, [cond('SuccessCriteriaMet', 'True', -10), cond('FailureTarget', 'True', -10), cond('Complete', 'False', -10)]), want: { action: 'none' } },
    { name: 'finished, ttl unset: nothing to do', job: job(undefined, [cond('Complete', 'True', -1000)]), want: { action: 'none' } },
    { name: 'finished, being deleted: nothing to do', job: job(0, [cond('Complete', 'True', -1000)], { deleting: true }), want: { action: 'none' } },
    { name: 'completed now, 10s ttl: 10s left', job: job(10, [cond('Complete', 'True', 0)]), want: wait(10, 10) },
    { name: 'completed 10s ago, 15s ttl: 5s left', job: job(15, [cond('Complete', 'True', -10)]), want: wait(5, 5) },
    { name: 'failed 10s ago, 15s ttl: 5s left', job: job(15, [cond('Failed', 'True', -10)]), want: wait(5, 5) },
    { name: 'completed 20s ago, 15s ttl: expired', job: job(15, [cond('Complete', 'True', -20)]), want: del(-5) },
    { name: 'failed 20s ago, 15s ttl: expired', job: job(15, [cond('Failed', 'True', -20)]), want: del(-5) },
    { name: 'expiring exactly now (time left 0): expired', job: job(15, [cond('Complete', 'True', -15)]), want: del(0) },
    { name: 'ttl 0, completed now: expired at the finish time', job: job(0, [cond('Complete', 'True', 0)]), want: del(0) },
    { name: 'ttl 0, failed now: expired at the finish time', job: job(0, [cond('Failed', 'True', 0)]), want: del(0) },
    { name: 'ttl raised after it finished (20s ago, now 60s): counted from the same finish time, 40s left', job: job(60, [cond('Complete', 'True', -20)]), want: wait(40, 40) },
    { name: 'ttl lowered after it finished (20s ago, now 10s): expired', job: job(10, [cond('Complete', 'True', -20)]), want: del(-10) },
    {
      name: "the finish time is the Complete condition's lastTransitionTime, not SuccessCriteriaMet's or completionTime",
      job: job(30, [cond('SuccessCriteriaMet', 'True', -100), cond('Complete', 'True', -10)], { completionTime: at(-100) }),
      want: wait(20, 20),
    },
    { name: "the finish time is the Failed condition's, not FailureTarget's", job: job(30, [cond('FailureTarget', 'True', -100), cond('Failed', 'True', -10)]), want: wait(20, 20) },
    { name: 'finished in the future (clock skew): deferred, flagged for the warning', job: job(0, [cond('Complete', 'True', 10)]), want: wait(10, 10, true) },
    { name: 'finish time missing (no lastTransitionTime): the error upstream retries', job: job(10, [cond('Complete', 'True')]), want: { action: 'error', message: 'unable to find the time when the Job default/x finished' } },
    { name: "finish time zero (Go's zero time): the same error", job: job(10, [{ type: 'Failed', status: 'True', lastTransitionTime: '0001-01-01T00:00:00Z' }]), want: { action: 'error', message: 'unable to find the time when the Job default/x finished' } },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(jobTtlDecision(r.job, now), r.want));
});

describe('needsCleanup', () => {
  const rows: { name: string; job: Job; want: boolean }[] = [
    { name: 'ttl set, Complete True', job: job(5, [cond('Complete', 'True', 0)]), want: true },
    { name: 'ttl 0, Failed True', job: job(0, [cond('Failed', 'True', 0)]), want: true },
    { name: 'ttl set, running', job: job(5, []), want: false },
    { name: 'ttl unset, Complete True', job: job(undefined, [cond('Complete', 'True', 0)]), want: false },
    { name: 'ttl set, Complete True but no transition time (it still needs cleanup; the time is the error)', job: job(5, [cond('Complete', 'True')]), want: true },
  ];
  for (const r of rows) test(r.name, () => assert.equal(needsCleanup(r.job), r.want));
});
