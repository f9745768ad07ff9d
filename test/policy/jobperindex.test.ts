// backoffLimitPerIndex, maxFailedIndexes and successPolicy of Indexed Jobs (src/policy/jobperindex.ts,
// jobsuccesspolicy.ts, through job.ts and jobstatus.ts), one row per rule, after the cases of
// pkg/controller/job/job_controller_test.go (TestSyncJobWithJobBackoffLimitPerIndex,
// TestSyncJobWithJobSuccessPolicy) and success_policy_test.go (TestMatchSuccessPolicy).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Job, JobStatus, Pod } from '../../src/api/types.js';
import { jobTrackingFinalizer, podFromJobTemplate } from '../../src/policy/job.js';
import { parseIntervals } from '../../src/policy/jobindexes.js';
import { remainingMsPerIndex } from '../../src/policy/jobperindex.js';
import { matchSucceededIndexesRule, matchSuccessPolicy } from '../../src/policy/jobsuccesspolicy.js';
import { decideJobSync, type JobSyncDecision } from '../../src/policy/jobsync.js';

const now = '2026-01-01T00:10:00Z';
const started = '2026-01-01T00:00:00Z';
/** Long enough ago that no back-off is pending. */
const longAgo = '2026-01-01T00:01:00Z';
const maxInt32 = 2147483647;
const failureCount = 'batch.kubernetes.io/job-index-failure-count';
const ignoredCount = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** An Indexed job of 3 indexes, all at once, with backoffLimitPerIndex 1 (backoffLimit defaulted to MaxInt32). */
function job(spec: NonNullable<Job['spec']> = {}, status: JobStatus = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'x', namespace: 'default', uid: 'u1' },
    spec: {
      parallelism: 3, completions: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1, backoffLimit: maxInt32, podReplacementPolicy: 'TerminatingOrFailed',
      template: { metadata: { labels: { 'job-name': 'x' } }, spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' } },
      ...spec,
    },
    status: { startTime: started, ...status },
  };
}

let seq = 0;
/** A pod of index `ix` with the tracking finalizer; `failures` is its job-index-failure-count annotation. */
function pod(ix: number, phase: string, o: { exitCode?: number; finishedAt?: string; failures?: number; ignored?: number; deleting?: boolean } = {}): Pod {
  const name = `x-${ix}-${++seq}`;
  const annotations: Record<string, string> = { 'batch.kubernetes.io/job-completion-index': String(ix), [failureCount]: String(o.failures ?? 0) };
  if (o.ignored !== undefined) annotations[ignoredCount] = String(o.ignored);
  const exitCode = o.exitCode ?? (phase === 'Succeeded' ? 0 : phase === 'Failed' ? 1 : undefined);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations, finalizers: [jobTrackingFinalizer], creationTimestamp: started, ...(o.deleting ? { deletionTimestamp: now } : {}) },
    spec: { containers: [{ name: 'main', image: 'busybox' }] },
    status: {
      phase,
      containerStatuses: [
        {
          name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '',
          state: exitCode === undefined ? { running: {} } : { terminated: { exitCode, finishedAt: o.finishedAt ?? longAgo } },
        },
      ],
    },
  };
}

const cond = (d: JobSyncDecision, type: string) => d.status.conditions?.find((c) => c.type === type && c.status === 'True');
const reasons = (d: JobSyncDecision) => (d.status.conditions ?? []).map((c) => `${c.type}=${c.reason}`);
const failIndexOn42 = { podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] }, podReplacementPolicy: 'Failed' };

describe('backoffLimitPerIndex (decideJobSync)', () => {
  const rows: { name: string; job: Job; pods: Pod[]; check: (d: JobSyncDecision, pods: Pod[]) => void }[] = [
    {
      name: 'a new job: a pod for every index, failedIndexes "" from the first status write',
      job: job(), pods: [],
      check: (d) => { assert.deepEqual(d.createIndexes, [0, 1, 2]); assert.equal(d.status.failedIndexes, ''); },
    },
    {
      name: 'a failed pod of an index under its limit keeps its finalizer and is not counted until its replacement exists; the replacement is created',
      job: job(), pods: [pod(0, 'Failed'), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.deepEqual(d.createIndexes, [0]); assert.deepEqual(d.removeFinalizer, []); assert.equal(d.status.failed, undefined); assert.equal(d.status.failedIndexes, ''); },
    },
    {
      name: 'the replacement waits out its own index\'s back-off: 10 s after the failure',
      job: job(), pods: [pod(0, 'Failed', { finishedAt: '2026-01-01T00:09:58Z' }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.equal(d.create, 0); assert.equal(d.requeueAfterMs, 8_000); },
    },
    {
      name: 'the back-off of an index doubles with each failure of that index (the second: 20 s)',
      job: job({ backoffLimitPerIndex: 3 }), pods: [pod(0, 'Failed', { failures: 1, finishedAt: now }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.equal(d.create, 0); assert.equal(d.requeueAfterMs, 20_000); },
    },
    {
      name: 'one index waiting does not hold back another whose back-off has passed',
      job: job(), pods: [pod(0, 'Failed', { finishedAt: now }), pod(1, 'Failed'), pod(2, 'Running')],
      check: (d) => { assert.deepEqual(d.createIndexes, [1]); },
    },
    {
      name: 'once replaced, the failed pod loses its finalizer and is counted in status.failed',
      job: job(), pods: [pod(0, 'Failed'), pod(0, 'Running', { failures: 1 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d, ps) => { assert.deepEqual(d.removeFinalizer, [ps[0]!.metadata.name]); assert.equal(d.status.failed, 1); assert.equal(d.create, 0); assert.equal(d.status.failedIndexes, ''); },
    },
    {
      name: 'a counted failure reaching backoffLimitPerIndex fails the index: in failedIndexes, not recreated, the job goes on',
      job: job(), pods: [pod(0, 'Failed', { failures: 1 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.equal(d.status.failedIndexes, '0'); assert.equal(d.create, 0); assert.equal(d.status.failed, 1); assert.deepEqual(reasons(d), []); },
    },
    {
      name: 'podFailurePolicy FailIndex fails the index at its first failure',
      job: job({ backoffLimitPerIndex: 3, ...failIndexOn42 }), pods: [pod(0, 'Running'), pod(1, 'Failed', { exitCode: 42 }), pod(2, 'Running')],
      check: (d) => { assert.equal(d.status.failedIndexes, '1'); assert.equal(d.create, 0); assert.equal(d.status.failed, 1); },
    },
    {
      name: 'podFailurePolicy Ignore: the failure counts for neither the index nor the job, and the index is run again',
      job: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [143] } }] }, podReplacementPolicy: 'Failed' }),
      pods: [pod(0, 'Failed', { exitCode: 143, failures: 1 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.equal(d.status.failedIndexes, ''); assert.deepEqual(d.createIndexes, [0]); assert.equal(d.status.failed, undefined); },
    },
    {
      name: 'an index in status.failedIndexes is never run again',
      job: job({}, { failedIndexes: '0', failed: 2 }), pods: [],
      check: (d) => { assert.deepEqual(d.createIndexes, [1, 2]); assert.equal(d.status.failedIndexes, '0'); },
    },
    {
      name: 'every index finished, some failed: FailureTarget then Failed with FailedIndexes, and its Warning',
      job: job({}, { completedIndexes: '1,2', succeeded: 2 }), pods: [pod(0, 'Failed', { failures: 1 })],
      check: (d) => {
        assert.deepEqual(reasons(d), ['FailureTarget=FailedIndexes', 'Failed=FailedIndexes']);
        assert.equal(cond(d, 'Failed')?.message, 'Job has failed indexes');
        assert.equal(d.status.failedIndexes, '0');
        assert.deepEqual(d.events, [{ type: 'Warning', reason: 'FailedIndexes', message: 'Job has failed indexes' }]);
      },
    },
    {
      name: 'more failed indexes than maxFailedIndexes: MaxFailedIndexesExceeded, the running pods deleted, Failed once they are gone',
      job: job({ maxFailedIndexes: 0 }), pods: [pod(0, 'Failed', { failures: 1 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => {
        assert.deepEqual([cond(d, 'FailureTarget')?.reason, cond(d, 'FailureTarget')?.message], ['MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes']);
        assert.equal(cond(d, 'Failed'), undefined);
        assert.equal(d.delete.length, 2);
        assert.equal(d.create, 0);
      },
    },
    {
      name: 'failed indexes up to maxFailedIndexes: the job goes on',
      job: job({ maxFailedIndexes: 1 }), pods: [pod(0, 'Failed', { failures: 1 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.deepEqual(reasons(d), []); assert.equal(d.status.failedIndexes, '0'); },
    },
    {
      name: 'backoffLimit still counts every failure: past it the job fails with BackoffLimitExceeded before any index does',
      job: job({ backoffLimit: 0, backoffLimitPerIndex: 2 }), pods: [pod(0, 'Failed'), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => { assert.equal(cond(d, 'FailureTarget')?.reason, 'BackoffLimitExceeded'); assert.equal(d.status.failedIndexes, ''); },
    },
    {
      name: 'podFailurePolicy FailJob still fails the whole job',
      job: job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] }, podReplacementPolicy: 'Failed' }),
      pods: [pod(0, 'Failed', { exitCode: 3 }), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => assert.equal(cond(d, 'FailureTarget')?.reason, 'PodFailurePolicy'),
    },
    {
      name: 'podReplacementPolicy Failed: the index of a terminating pod is not given a second pod',
      job: job({ ...failIndexOn42 }), pods: [pod(0, 'Running', { deleting: true })],
      check: (d) => { assert.deepEqual(d.createIndexes, [1, 2]); assert.equal(d.status.terminating, 1); },
    },
  ];
  for (const r of rows) test(r.name, () => r.check(decideJobSync({ job: r.job, pods: r.pods, now }), r.pods));
});

describe('the failure count a new pod of a backoffLimitPerIndex job carries (addIndexFailureCountAnnotation)', () => {
  const ann = (p: Pod) => [p.metadata.annotations?.[failureCount], p.metadata.annotations?.[ignoredCount]];
  const rows: { name: string; job: Job; replaces?: Pod; want: (string | undefined)[] }[] = [
    { name: 'an index\'s first pod: 0, no ignored count', job: job(), want: ['0', undefined] },
    { name: 'replacing a counted failure: its count plus one', job: job({ backoffLimitPerIndex: 3 }), replaces: pod(0, 'Failed', { failures: 1 }), want: ['2', undefined] },
    { name: 'replacing an ignored failure: the ignored count plus one, the counted one kept', job: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [143] } }] } }), replaces: pod(0, 'Failed', { exitCode: 143, failures: 1, ignored: 2 }), want: ['1', '3'] },
    { name: 'a count that is not an int32 is read as 0', job: job(), replaces: { ...pod(0, 'Failed'), metadata: { ...pod(0, 'Failed').metadata, annotations: { 'batch.kubernetes.io/job-completion-index': '0', [failureCount]: '-4' } } }, want: ['1', undefined] },
    { name: 'no backoffLimitPerIndex: no count at all', job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6 }), replaces: pod(0, 'Failed'), want: [undefined, undefined] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(ann(podFromJobTemplate(r.job, 0, r.replaces)), r.want));
  test('the per-index back-off counts ignored failures too (getIndexAbsoluteFailureCount)', () => {
    const p = pod(0, 'Failed', { failures: 1, ignored: 1, finishedAt: now });
    assert.equal(remainingMsPerIndex(p, Date.parse(now)), 40_000);
    assert.equal(remainingMsPerIndex(undefined, Date.parse(now)), 0);
  });
});

describe('successPolicy (decideJobSync)', () => {
  const rows: { name: string; job: Job; pods: Pod[]; check: (d: JobSyncDecision) => void }[] = [
    {
      name: 'a succeededIndexes rule met: SuccessCriteriaMet with SuccessPolicy and "Matched rules at index 0", the other pods deleted, Complete waits for them',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, successPolicy: { rules: [{ succeededIndexes: '0' }] } }), pods: [pod(0, 'Succeeded'), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => {
        assert.deepEqual([cond(d, 'SuccessCriteriaMet')?.reason, cond(d, 'SuccessCriteriaMet')?.message], ['SuccessPolicy', 'Matched rules at index 0']);
        assert.equal(d.delete.length, 2);
        assert.equal(cond(d, 'Complete'), undefined);
        assert.equal(d.status.completedIndexes, '0');
        assert.equal(d.status.failed, undefined, 'the pods deleted on success are not failures');
      },
    },
    {
      name: 'SuccessCriteriaMet already set and no pod left: Complete with the same reason and message, and completionTime',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, successPolicy: { rules: [{ succeededIndexes: '0' }] } }, { completedIndexes: '0', succeeded: 1, conditions: [{ type: 'SuccessCriteriaMet', status: 'True', reason: 'SuccessPolicy', message: 'Matched rules at index 0' }] }),
      pods: [],
      check: (d) => {
        assert.deepEqual([cond(d, 'Complete')?.reason, cond(d, 'Complete')?.message], ['SuccessPolicy', 'Matched rules at index 0']);
        assert.equal(d.status.completionTime, now);
        assert.equal(d.create, 0);
        assert.deepEqual(d.events, [{ type: 'Normal', reason: 'Completed', message: 'Job completed' }]);
      },
    },
    {
      name: 'a succeededCount rule: met once that many indexes succeeded, whichever',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, successPolicy: { rules: [{ succeededCount: 2 }] } }, { completedIndexes: '0', succeeded: 1 }), pods: [pod(2, 'Succeeded'), pod(1, 'Running')],
      check: (d) => { assert.equal(cond(d, 'SuccessCriteriaMet')?.message, 'Matched rules at index 0'); assert.equal(d.status.completedIndexes, '0,2'); },
    },
    {
      name: 'the first rule met decides, and the message names its index',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, successPolicy: { rules: [{ succeededIndexes: '2' }, { succeededCount: 1 }] } }), pods: [pod(0, 'Succeeded'), pod(1, 'Running'), pod(2, 'Running')],
      check: (d) => assert.equal(cond(d, 'SuccessCriteriaMet')?.message, 'Matched rules at index 1'),
    },
    {
      name: 'a rule not met yet: the job goes on',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, parallelism: 1, successPolicy: { rules: [{ succeededIndexes: '0-1' }] } }), pods: [pod(0, 'Succeeded')],
      check: (d) => { assert.deepEqual(reasons(d), []); assert.deepEqual(d.createIndexes, [1]); },
    },
    {
      name: 'with backoffLimitPerIndex, a job that met both fails: FailedIndexes before SuccessPolicy',
      job: job({ completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } }), pods: [pod(0, 'Succeeded'), pod(1, 'Failed', { failures: 1 })],
      check: (d) => { assert.deepEqual(reasons(d), ['FailureTarget=FailedIndexes', 'Failed=FailedIndexes']); },
    },
    {
      name: 'with backoffLimitPerIndex, a failed index does not stop the success policy: SuccessCriteriaMet',
      job: job({ successPolicy: { rules: [{ succeededIndexes: '0' }] } }), pods: [pod(0, 'Succeeded'), pod(1, 'Failed', { failures: 1 }), pod(2, 'Running')],
      check: (d) => { assert.equal(cond(d, 'SuccessCriteriaMet')?.reason, 'SuccessPolicy'); assert.equal(d.status.failedIndexes, '1'); assert.equal(d.delete.length, 1); },
    },
    {
      name: 'with backoffLimit exceeded, the job fails though the success policy is met',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 0, successPolicy: { rules: [{ succeededIndexes: '0' }] } }), pods: [pod(0, 'Succeeded'), pod(1, 'Failed'), pod(2, 'Running')],
      check: (d) => { assert.equal(cond(d, 'FailureTarget')?.reason, 'BackoffLimitExceeded'); assert.equal(cond(d, 'SuccessCriteriaMet'), undefined); },
    },
    {
      name: 'with a FailJob rule matched, the job fails though the success policy is met',
      job: job({ backoffLimitPerIndex: undefined, backoffLimit: 6, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] }, successPolicy: { rules: [{ succeededIndexes: '0' }] } }),
      pods: [pod(0, 'Succeeded'), pod(1, 'Failed', { exitCode: 3 }), pod(2, 'Running')],
      check: (d) => { assert.equal(cond(d, 'FailureTarget')?.reason, 'PodFailurePolicy'); assert.equal(cond(d, 'SuccessCriteriaMet'), undefined); },
    },
  ];
  for (const r of rows) test(r.name, () => r.check(decideJobSync({ job: r.job, pods: r.pods, now })));
});

describe('matchSuccessPolicy', () => {
  const rows: { name: string; policy: NonNullable<Job['spec']>['successPolicy']; completions: number; succeeded: string; want?: string }[] = [
    { name: 'no successPolicy', policy: undefined, completions: 10, succeeded: '0-9' },
    { name: 'no index succeeded yet', policy: { rules: [{ succeededCount: 0 }] }, completions: 10, succeeded: '' },
    { name: 'no rules', policy: { rules: [] }, completions: 10, succeeded: '0-9' },
    { name: 'succeededIndexes that parse to nothing below completions: the rule is skipped', policy: { rules: [{ succeededIndexes: 'invalid' }, { succeededIndexes: '12-15' }] }, completions: 10, succeeded: '0-9' },
    { name: 'succeededIndexes all succeeded', policy: { rules: [{ succeededIndexes: '0-2' }] }, completions: 10, succeeded: '0-3', want: 'Matched rules at index 0' },
    { name: 'succeededIndexes not all succeeded', policy: { rules: [{ succeededIndexes: '0-2' }] }, completions: 10, succeeded: '0,1,3' },
    { name: 'succeededCount reached', policy: { rules: [{ succeededCount: 3 }] }, completions: 10, succeeded: '0,4,8', want: 'Matched rules at index 0' },
    { name: 'succeededCount not reached', policy: { rules: [{ succeededCount: 4 }] }, completions: 10, succeeded: '0,4,8' },
    { name: 'succeededIndexes with succeededCount: enough of those indexes', policy: { rules: [{ succeededIndexes: '0-4', succeededCount: 2 }] }, completions: 10, succeeded: '1,3,7', want: 'Matched rules at index 0' },
    { name: 'succeededIndexes with succeededCount: succeeded indexes outside the rule do not count', policy: { rules: [{ succeededIndexes: '0-4', succeededCount: 2 }] }, completions: 10, succeeded: '3,6-9' },
    { name: 'several rules: the first met is named', policy: { rules: [{ succeededIndexes: '9' }, { succeededCount: 5 }, { succeededIndexes: '0' }] }, completions: 10, succeeded: '0-4', want: 'Matched rules at index 1' },
    { name: 'rule indexes past completions are cut off', policy: { rules: [{ succeededIndexes: '3-20' }] }, completions: 5, succeeded: '3,4', want: 'Matched rules at index 0' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(matchSuccessPolicy(r.policy, r.completions, parseIntervals(r.succeeded, r.completions)), r.want));
});

describe('matchSucceededIndexesRule', () => {
  const rows: { name: string; rule: string; succeeded: string; count?: number; want: boolean }[] = [
    { name: 'the rule\'s intervals inside one succeeded interval', rule: '1,3,5', succeeded: '0-6', want: true },
    { name: 'one rule interval spanning several succeeded ones with a gap', rule: '0-6', succeeded: '0-2,4-6', want: false },
    { name: 'the gap is allowed by succeededCount', rule: '0-6', succeeded: '0-2,4-6', count: 6, want: true },
    { name: 'intervals ending together advance both', rule: '0-2,5-7', succeeded: '0-2,5-7', want: true },
    { name: 'succeeded intervals entirely outside the rule', rule: '3-4', succeeded: '0-2,5-9', want: false },
  ];
  for (const r of rows) test(r.name, () => assert.equal(matchSucceededIndexesRule(parseIntervals(r.rule, 100), parseIntervals(r.succeeded, 100), r.count), r.want));
});
