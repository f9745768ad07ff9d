// The Job controller's decisions (src/policy/job.ts, podfailurepolicy.ts), one row per rule of
// pkg/controller/job: parallelism and completions, counting finished pods once, backoffLimit,
// podFailurePolicy FailJob/Ignore/Count, activeDeadlineSeconds, the interim conditions before
// the terminal ones, suspend, and the pod made from the template.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Job, JobStatus, Pod } from '../../src/api/types.js';
import { afterManage, beginJobSync, jobTrackingFinalizer, podFromJobTemplate } from '../../src/policy/job.js';
import { backoffRemainingMs } from '../../src/policy/jobbackoff.js';
import { settleJobStatus, trackJobStatus } from '../../src/policy/jobstatus.js';
import { decideJobSync, type JobSyncDecision } from '../../src/policy/jobsync.js';
import { matchPodFailurePolicy } from '../../src/policy/podfailurepolicy.js';

const now = '2026-01-01T00:10:00Z';
const started = '2026-01-01T00:00:00Z';

function job(spec: NonNullable<Job['spec']> = {}, status: JobStatus = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'x', namespace: 'default', uid: 'u1' },
    spec: { parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', template: { metadata: { labels: { 'job-name': 'x' } }, spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' } }, ...spec },
    status: { startTime: started, ...status },
  };
}

let seq = 0;
function pod(phase: string, extra: { exitCode?: number; ready?: boolean; deleting?: boolean; counted?: boolean; conditions?: { type: string; status: string }[]; restarts?: number } = {}): Pod {
  const name = `x-${++seq}`;
  const conditions = [...(extra.conditions ?? []), ...(extra.ready ? [{ type: 'Ready', status: 'True' }] : [])];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, finalizers: extra.counted ? [] : [jobTrackingFinalizer], ...(extra.deleting ? { deletionTimestamp: now } : {}), creationTimestamp: started },
    spec: { containers: [{ name: 'main', image: 'busybox' }] },
    status: {
      phase,
      conditions,
      containerStatuses: [
        {
          name: 'main', ready: !!extra.ready, restartCount: extra.restarts ?? 0, image: 'busybox', imageID: '',
          state: extra.exitCode !== undefined ? { terminated: { exitCode: extra.exitCode, reason: extra.exitCode === 137 ? 'OOMKilled' : 'Error' } } : { running: {} },
        },
      ],
    },
  };
}

/** The pod as an Indexed job's pod of index `ix`. */
function indexed(p: Pod, ix: number): Pod {
  p.metadata.annotations = { 'batch.kubernetes.io/job-completion-index': String(ix) };
  return p;
}

const cond = (d: JobSyncDecision, type: string) => d.status.conditions?.find((c) => c.type === type);
const oomRule = { action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } };

describe('decideJobSync', () => {
  const rows: { name: string; job: Job; pods: Pod[]; check: (d: JobSyncDecision) => void }[] = [
    { name: 'a new job creates one pod and sets startTime', job: job({}, { startTime: undefined }), pods: [], check: (d) => { assert.equal(d.create, 1); assert.equal(d.status.startTime, now); assert.equal(d.status.active, 1); } },
    { name: 'parallelism 3 with completions 5 runs 3 at once', job: job({ parallelism: 3, completions: 5 }), pods: [], check: (d) => assert.equal(d.create, 3) },
    { name: 'completions bound what is still wanted: 2 of 5 done, parallelism 4 → 3', job: job({ parallelism: 4, completions: 5 }, { succeeded: 2 }), pods: [], check: (d) => assert.equal(d.create, 3) },
    { name: 'too many active pods: the not-ready one is deleted', job: job({ parallelism: 1, completions: 3 }), pods: [pod('Running', { ready: true }), pod('Pending')], check: (d) => { assert.equal(d.create, 0); assert.deepEqual(d.delete.length, 1); assert.match(d.delete[0]!, /^x-/); assert.equal(d.status.ready, 1); } },
    { name: 'without completions, once one succeeded no more are created', job: job({ parallelism: 2, completions: undefined }), pods: [pod('Succeeded', { exitCode: 0 }), pod('Running')], check: (d) => { assert.equal(d.create, 0); assert.equal(d.status.succeeded, 1); } },
    {
      name: 'the last success: SuccessCriteriaMet, then Complete with completionTime once nothing runs',
      job: job(), pods: [pod('Succeeded', { exitCode: 0 })],
      check: (d) => {
        assert.equal(cond(d, 'SuccessCriteriaMet')?.reason, 'CompletionsReached');
        assert.deepEqual([cond(d, 'Complete')?.status, cond(d, 'Complete')?.reason, cond(d, 'Complete')?.message], ['True', 'CompletionsReached', 'Reached expected number of succeeded pods']);
        assert.equal(d.status.completionTime, now);
        assert.equal(d.status.succeeded, 1);
        assert.equal(d.removeFinalizer.length, 1);
        assert.deepEqual(d.events, [{ type: 'Normal', reason: 'Completed', message: 'Job completed' }]);
      },
    },
    { name: 'a finished pod already counted is not counted again', job: job({ completions: 2 }, { succeeded: 1 }), pods: [pod('Succeeded', { exitCode: 0, counted: true })], check: (d) => { assert.equal(d.status.succeeded, 1); assert.equal(d.removeFinalizer.length, 0); assert.equal(d.create, 1); } },
    { name: 'a failure under backoffLimit is replaced', job: job({ backoffLimit: 2 }, { failed: 1 }), pods: [pod('Failed', { exitCode: 1 })], check: (d) => { assert.equal(d.status.failed, 2); assert.equal(d.create, 1); assert.equal(cond(d, 'FailureTarget'), undefined); } },
    {
      name: 'failures beyond backoffLimit: FailureTarget and Failed with BackoffLimitExceeded',
      job: job({ backoffLimit: 1 }, { failed: 1 }), pods: [pod('Failed', { exitCode: 1 })],
      check: (d) => {
        assert.equal(d.status.failed, 2);
        assert.deepEqual([cond(d, 'FailureTarget')?.reason, cond(d, 'Failed')?.reason, cond(d, 'Failed')?.message], ['BackoffLimitExceeded', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
        assert.equal(d.create, 0);
        assert.equal(d.status.completionTime, undefined);
      },
    },
    {
      name: 'restartPolicy OnFailure: container restarts reaching backoffLimit fail the job, and the running pod is deleted first',
      job: job({ backoffLimit: 2, template: { spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'OnFailure' } } }), pods: [pod('Running', { restarts: 2 })],
      check: (d) => { assert.equal(cond(d, 'FailureTarget')?.reason, 'BackoffLimitExceeded'); assert.equal(cond(d, 'Failed'), undefined); assert.equal(d.delete.length, 1); assert.equal(d.status.terminating, 1); },
    },
    {
      name: 'podFailurePolicy FailJob on an OOM kill (exit 137) fails the job at once, with upstream\'s message',
      job: job({ backoffLimit: 6, podFailurePolicy: { rules: [oomRule] }, podReplacementPolicy: 'Failed' }), pods: [pod('Failed', { exitCode: 137 })],
      check: (d) => {
        const f = cond(d, 'Failed');
        assert.equal(f?.reason, 'PodFailurePolicy');
        assert.match(f?.message ?? '', /^Container main for pod default\/x-\d+ failed with exit code 137 matching FailJob rule at index 0$/);
        assert.equal(cond(d, 'FailureTarget')?.message, f?.message);
      },
    },
    { name: 'podFailurePolicy Ignore: the failure is not counted and the pod is replaced', job: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }, podReplacementPolicy: 'Failed' }), pods: [pod('Failed', { exitCode: 143, conditions: [{ type: 'DisruptionTarget', status: 'True' }] })], check: (d) => { assert.equal(d.status.failed, undefined); assert.equal(d.removeFinalizer.length, 1); assert.equal(d.create, 1); } },
    { name: 'podFailurePolicy Count: counted against backoffLimit as usual', job: job({ backoffLimit: 0, podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [42] } }] }, podReplacementPolicy: 'Failed' }), pods: [pod('Failed', { exitCode: 42 })], check: (d) => { assert.equal(d.status.failed, 1); assert.equal(cond(d, 'Failed')?.reason, 'BackoffLimitExceeded'); } },
    { name: 'activeDeadlineSeconds passed: DeadlineExceeded, running pods deleted, Failed waits for them', job: job({ activeDeadlineSeconds: 60 }), pods: [pod('Running')], check: (d) => { assert.deepEqual([cond(d, 'FailureTarget')?.reason, cond(d, 'FailureTarget')?.message], ['DeadlineExceeded', 'Job was active longer than specified deadline']); assert.equal(cond(d, 'Failed'), undefined); assert.equal(d.delete.length, 1); } },
    { name: 'after FailureTarget, Failed once the last pod has stopped', job: job({ activeDeadlineSeconds: 60 }, { conditions: [{ type: 'FailureTarget', status: 'True', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }] }), pods: [pod('Failed', { exitCode: 143 })], check: (d) => { assert.equal(cond(d, 'Failed')?.reason, 'DeadlineExceeded'); assert.equal(d.create, 0); assert.deepEqual(d.events, [{ type: 'Warning', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }]); } },
    { name: 'a deadline not yet reached changes nothing', job: job({ activeDeadlineSeconds: 6000 }), pods: [pod('Running')], check: (d) => { assert.equal(d.status.conditions, undefined); assert.equal(d.create, 0); } },
    { name: 'suspended: active pods deleted, Suspended condition', job: job({ suspend: true }), pods: [pod('Running')], check: (d) => { assert.deepEqual([cond(d, 'Suspended')?.reason, cond(d, 'Suspended')?.message], ['JobSuspended', 'Job suspended']); assert.equal(d.delete.length, 1); assert.equal(d.create, 0); } },
    { name: 'podReplacementPolicy Failed: a terminating pod is not replaced yet', job: job({ podReplacementPolicy: 'Failed' }), pods: [pod('Running', { deleting: true })], check: (d) => { assert.equal(d.create, 0); assert.equal(d.status.terminating, 1); } },
    { name: 'TerminatingOrFailed: a terminating pod counts as failed, and is replaced after the 10 s back-off from its deletion', job: job({ podReplacementPolicy: 'TerminatingOrFailed' }), pods: [pod('Running', { deleting: true })], check: (d) => { assert.equal(d.status.failed, 1); assert.equal(d.create, 0); assert.equal(d.requeueAfterMs, 10_000); } },
    { name: 'Indexed: the lowest pending indexes are created (0 done, parallelism 2 → 1 and 2)', job: job({ completionMode: 'Indexed', completions: 4, parallelism: 2 }, { completedIndexes: '0', succeeded: 1 }), pods: [], check: (d) => { assert.equal(d.create, 2); assert.deepEqual(d.createIndexes, [1, 2]); } },
    { name: 'Indexed: a succeeded pod adds its index to completedIndexes, succeeded is the number of indexes', job: job({ completionMode: 'Indexed', completions: 3, parallelism: 1 }, { completedIndexes: '0' }), pods: [indexed(pod('Succeeded', { exitCode: 0 }), 2)], check: (d) => { assert.equal(d.status.completedIndexes, '0,2'); assert.equal(d.status.succeeded, 2); assert.deepEqual(d.createIndexes, [1]); assert.equal(d.status.uncountedTerminatedPods?.succeeded, undefined); } },
    { name: 'Indexed: a second success of a completed index is not counted; only its finalizer goes', job: job({ completionMode: 'Indexed', completions: 3 }, { completedIndexes: '1', succeeded: 1 }), pods: [indexed(pod('Succeeded', { exitCode: 0 }), 1)], check: (d) => { assert.equal(d.status.succeeded, 1); assert.equal(d.status.completedIndexes, '1'); assert.equal(d.removeFinalizer.length, 1); } },
    { name: 'Indexed: two active pods of one index: the one not ready is deleted, nothing created that sync', job: job({ completionMode: 'Indexed', completions: 2, parallelism: 2 }), pods: [indexed(pod('Running', { ready: true }), 0), indexed(pod('Pending'), 0)], check: (d) => { assert.equal(d.delete.length, 1); assert.equal(d.create, 0); assert.equal(d.status.ready, 1); } },
    { name: 'Indexed: an active pod with an index past completions is deleted and its failure not counted', job: job({ completionMode: 'Indexed', completions: 2, parallelism: 2 }), pods: [indexed(pod('Running'), 0), indexed(pod('Running'), 5), indexed(pod('Failed', { exitCode: 1 }), 7)], check: (d) => { assert.equal(d.delete.length, 1); assert.equal(d.status.failed, undefined); } },
    { name: 'Indexed: every index done: Complete', job: job({ completionMode: 'Indexed', completions: 3 }, { completedIndexes: '0,1' , succeeded: 2 }), pods: [indexed(pod('Succeeded', { exitCode: 0 }), 2)], check: (d) => { assert.equal(d.status.completedIndexes, '0-2'); assert.equal(cond(d, 'Complete')?.reason, 'CompletionsReached'); assert.equal(d.status.succeeded, 3); } },
    { name: 'a finished job is left alone', job: job({}, { conditions: [{ type: 'Complete', status: 'True' }] }), pods: [pod('Running')], check: (d) => { assert.equal(d.create, 0); assert.deepEqual(d.delete, []); } },
  ];
  for (const r of rows) test(r.name, () => r.check(decideJobSync({ job: r.job, pods: r.pods, now })));
});

describe('counting through uncountedTerminatedPods (trackJobStatusAndRemoveFinalizers), step by step', () => {
  const ok = () => pod('Succeeded', { exitCode: 0 });
  test('first write: the uid goes to uncountedTerminatedPods with the interim condition; the count waits for the finalizer', () => {
    const p = ok();
    const ctx = beginJobSync({ job: job(), pods: [p], now })!;
    afterManage(ctx, 0, true);
    const t = trackJobStatus(ctx, 0, false);
    assert.equal(t.needsFlush, true);
    assert.deepEqual(ctx.job.status?.uncountedTerminatedPods, { succeeded: [p.metadata.uid] });
    assert.equal(ctx.job.status?.succeeded, undefined);
    assert.deepEqual(ctx.job.status?.conditions?.map((c) => c.type), ['SuccessCriteriaMet']);
    assert.deepEqual(t.podsToRemoveFinalizer.map((x) => x.metadata.name), [p.metadata.name]);
    // The removal failed: the uid stays uncounted, the job not Complete.
    const s = settleJobStatus(ctx, t.uidsWithFinalizer);
    assert.equal(s.finished, false);
    assert.equal(ctx.job.status?.succeeded, undefined);
  });
  const rows: { name: string; job: Job; pods: Pod[]; check: (d: JobSyncDecision) => void }[] = [
    {
      name: 'a uid already uncounted whose pod still has the finalizer (a crash after the first write) is not added twice',
      job: job({ completions: 3 }, { uncountedTerminatedPods: { succeeded: ['uid-pre'] } }),
      pods: [{ ...ok(), metadata: { ...ok().metadata, name: 'pre', uid: 'uid-pre' } }],
      check: (d) => { assert.equal(d.status.succeeded, 1); assert.deepEqual(d.status.uncountedTerminatedPods, {}); assert.equal(d.create, 1); },
    },
    {
      name: 'an uncounted uid whose pod is gone is counted',
      job: job({ completions: 2 }, { succeeded: 1, uncountedTerminatedPods: { failed: ['uid-gone'] } }), pods: [],
      check: (d) => { assert.equal(d.status.failed, 1); assert.equal(d.status.succeeded, 1); },
    },
    {
      name: 'FailJob with another pod still running: FailureTarget now, the running pod deleted and counted failed, Failed waits for it to stop',
      job: job({ parallelism: 2, completions: 2, podFailurePolicy: { rules: [oomRule] }, podReplacementPolicy: 'Failed' }),
      pods: [pod('Failed', { exitCode: 137 }), pod('Running')],
      check: (d) => {
        assert.equal(cond(d, 'FailureTarget')?.reason, 'PodFailurePolicy');
        assert.equal(cond(d, 'Failed'), undefined);
        assert.equal(d.delete.length, 1);
        assert.equal(d.status.failed, 2);
        assert.equal(d.status.terminating, 1);
        assert.deepEqual(d.events, []);
      },
    },
    {
      name: 'a pod succeeding after the completions were met: SuccessCriteriaMet kept, Complete with TooManySucceededPods',
      job: job({ completions: 1 }, { succeeded: 1, conditions: [{ type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }] }),
      pods: [ok()],
      check: (d) => { assert.equal(cond(d, 'Complete')?.status, 'True'); assert.deepEqual(d.events.map((e) => e.reason), ['TooManySucceededPods', 'Completed']); },
    },
    {
      name: 'a second failure within the back-off: no pod yet, sync again when 20 s have passed since the last failure',
      job: job({ backoffLimit: 6 }, { failed: 1 }),
      pods: [{ ...pod('Failed', { exitCode: 1 }), status: { phase: 'Failed', containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:09:55Z' } } }] } }],
      check: (d) => { assert.equal(d.create, 0); assert.equal(d.requeueAfterMs, 5_000); assert.deepEqual(d.backoff, { failuresAfterLastSuccess: 1, lastFailureTime: Date.parse('2026-01-01T00:09:55Z') }); },
    },
    {
      name: 'a suspended job resumed: Suspended False with JobResumed, startTime restarts',
      job: job({ suspend: false }, { conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }] }), pods: [],
      check: (d) => { assert.deepEqual([cond(d, 'Suspended')?.status, cond(d, 'Suspended')?.reason], ['False', 'JobResumed']); assert.equal(d.status.startTime, now); assert.equal(d.create, 1); assert.equal(d.events[0]?.reason, 'Resumed'); },
    },
    {
      name: 'spec.managedBy another controller: left alone',
      job: job({ managedBy: 'example.com/other' }, { startTime: undefined }), pods: [],
      check: (d) => { assert.equal(d.create, 0); assert.equal(d.status.startTime, undefined); },
    },
    {
      name: 'activeDeadlineSeconds not reached: sync again at the deadline',
      job: job({ activeDeadlineSeconds: 660 }), pods: [pod('Running')],
      check: (d) => assert.equal(d.requeueAfterMs, 60_000),
    },
  ];
  for (const r of rows) test(r.name, () => r.check(decideJobSync({ job: r.job, pods: r.pods, now })));
});

describe('backoffRemainingMs (getRemainingTimeForFailuresCount): 10 s doubled per failure after the first, capped at 10 min', () => {
  const t0 = Date.parse(now);
  const rows: { failures: number; elapsedMs: number; want: number }[] = [
    { failures: 0, elapsedMs: 0, want: 0 },
    { failures: 1, elapsedMs: 0, want: 10_000 },
    { failures: 1, elapsedMs: 4_000, want: 6_000 },
    { failures: 2, elapsedMs: 0, want: 20_000 },
    { failures: 3, elapsedMs: 0, want: 40_000 },
    { failures: 7, elapsedMs: 0, want: 600_000 },
    { failures: 20, elapsedMs: 0, want: 600_000 },
    { failures: 2, elapsedMs: 30_000, want: 0 },
  ];
  for (const r of rows) test(`${r.failures} failures, ${r.elapsedMs} ms ago → ${r.want} ms`, () => assert.equal(backoffRemainingMs({ failuresAfterLastSuccess: r.failures, lastFailureTime: t0 - r.elapsedMs }, t0), r.want));
});

describe('matchPodFailurePolicy', () => {
  const j = (rules: NonNullable<NonNullable<Job['spec']>['podFailurePolicy']>['rules']) => job({ podFailurePolicy: { rules } });
  const rows: { name: string; job: Job; pod: Pod; want: { action?: string; countFailed: boolean } }[] = [
    { name: 'no policy: counted', job: job(), pod: pod('Failed', { exitCode: 1 }), want: { countFailed: true } },
    { name: 'NotIn matches an exit code outside the list', job: j([{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [1, 2] } }]), pod: pod('Failed', { exitCode: 3 }), want: { action: 'FailJob', countFailed: true } },
    { name: 'NotIn never matches exit code 0', job: j([{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [1] } }]), pod: pod('Failed', { exitCode: 0 }), want: { countFailed: true } },
    { name: 'containerName restricts the match', job: j([{ action: 'Ignore', onExitCodes: { containerName: 'other', operator: 'In', values: [137] } }]), pod: pod('Failed', { exitCode: 137 }), want: { countFailed: true } },
    { name: 'the first matching rule wins', job: j([{ action: 'Ignore', onExitCodes: { operator: 'In', values: [137] } }, oomRule]), pod: pod('Failed', { exitCode: 137 }), want: { action: 'Ignore', countFailed: false } },
    { name: 'FailIndex matches as itself (JobBackoffLimitPerIndex on, as in 1.32) and counts the failure', job: j([{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [137] } }, { action: 'Count', onExitCodes: { operator: 'In', values: [137] } }]), pod: pod('Failed', { exitCode: 137 }), want: { action: 'FailIndex', countFailed: true } },
  ];
  for (const r of rows) test(r.name, () => { const m = matchPodFailurePolicy(r.job, r.pod); assert.deepEqual({ action: m.action, countFailed: m.countFailed }, { action: r.want.action, countFailed: r.want.countFailed }); });
  test('a pod condition rule has upstream\'s message', () => {
    const p = pod('Failed', { exitCode: 1, conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    const m = matchPodFailurePolicy(j([{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]), p);
    assert.equal(m.message, `Pod default/${p.metadata.name} has condition DisruptionTarget matching FailJob rule at index 0`);
  });
});

test('podFromJobTemplate: generateName, labels, controlling ownerReference, tracking finalizer, the template spec', () => {
  const p = podFromJobTemplate(job());
  assert.equal(p.metadata.generateName, 'x-');
  assert.deepEqual(p.metadata.labels, { 'job-name': 'x' });
  assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'x', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(p.metadata.finalizers, [jobTrackingFinalizer]);
  assert.equal(p.spec.restartPolicy, 'Never');
});
