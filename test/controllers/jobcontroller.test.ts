// The Job and CronJob controllers (src/controllers/job.ts, cronjob.ts) against a fake client
// (fakecluster.ts, on test/client/fakeclient.ts): which writes they make, in which order, for one
// change at a time. The order of the status writes and the finalizer patches is the point of
// trackJobStatusAndRemoveFinalizers, so it is asserted write by write. Pod events sync at once
// (batchMs 0); the clock is the fake client's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CronJob, Job, Pod } from '../../src/api/types.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { cronJobsRef, jobsRef, podsRef } from '../../src/client/resources.js';
import { CronJobController } from '../../src/controllers/cronjob.js';
import { JobController } from '../../src/controllers/job.js';
import { ControllerExpectations, UidTrackingExpectations } from '../../src/controllers/expectations.js';
import { FakeCluster } from './fakecluster.js';

const tracking = 'batch.kubernetes.io/job-tracking';

function newJob(name: string, spec: NonNullable<Job['spec']> = {}): Job {
  const uid = `uid-job-${name}`;
  const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid, generation: 1, creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: { parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', podReplacementPolicy: 'TerminatingOrFailed', selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }, template: { metadata: { labels }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
  };
}

async function jobCluster(): Promise<{ fake: FakeCluster; ctl: JobController }> {
  const fake = new FakeCluster();
  const ctl = new JobController(fake, new SharedInformerFactory(fake), { batchMs: 0 });
  await ctl.start();
  return { fake, ctl };
}

const podsOf = (fake: FakeCluster) => fake.all<Pod>(podsRef);
const events = (fake: FakeCluster) => fake.all<{ reason: string; message: string } & Pod>({ group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true }).map((e) => `${e.reason}: ${e.message}`);

describe('JobController', () => {
  test('a new Job: one pod with generateName, the job labels, the tracking finalizer and a controlling ownerReference; SuccessfulCreate', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('x'));
    await ctl.idle();
    const pods = podsOf(fake);
    assert.equal(pods.length, 1);
    const p = pods[0]!;
    assert.equal(p.metadata.generateName, 'x-');
    assert.deepEqual(p.metadata.finalizers, [tracking]);
    assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-name'], 'x');
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'x', uid: 'uid-job-x', controller: true, blockOwnerDeletion: true }]);
    const j = fake.lookup<Job>(jobsRef, 'default', 'x')!;
    assert.equal(j.status?.active, 1);
    assert.equal(j.status?.startTime, '2025-01-01T00:00:00Z');
    assert.deepEqual(events(fake), [`SuccessfulCreate: Created pod: ${p.metadata.name}`]);
    await ctl.stop();
  });

  test('an Indexed Job: a pod per index with the index annotation and label, hostname and generateName <job>-<i>, JOB_COMPLETION_INDEX from the label', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('ix', { completionMode: 'Indexed', completions: 3, parallelism: 3 }));
    await ctl.idle();
    const pods = podsOf(fake).sort((a, b) => a.metadata.generateName!.localeCompare(b.metadata.generateName!));
    assert.deepEqual(pods.map((p) => [p.metadata.generateName, p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], p.metadata.labels?.['batch.kubernetes.io/job-completion-index'], p.spec.hostname]), [
      ['ix-0-', '0', '0', 'ix-0'],
      ['ix-1-', '1', '1', 'ix-1'],
      ['ix-2-', '2', '2', 'ix-2'],
    ]);
    assert.deepEqual(pods[0]!.spec.containers[0]!.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);
    await ctl.stop();
  });

  test('an Indexed Job completes when every index has succeeded once: completedIndexes, succeeded, Complete', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('ix', { completionMode: 'Indexed', completions: 2, parallelism: 2 }));
    await ctl.idle();
    for (const p of podsOf(fake)) {
      fake.seed(podsRef, { ...p, status: { phase: 'Succeeded', containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, finishedAt: '2025-01-01T00:00:00Z' } } }] } } as Pod);
      await ctl.idle();
    }
    const j = fake.lookup<Job>(jobsRef, 'default', 'ix')!;
    assert.equal(j.status?.completedIndexes, '0,1');
    assert.equal(j.status?.succeeded, 2);
    assert.equal(j.status?.conditions?.find((c) => c.type === 'Complete')?.status, 'True');
    assert.equal(podsOf(fake).length, 2, 'no pod created for an index that completed');
    await ctl.stop();
  });

  test('a Job with backoffLimitPerIndex runs: each pod carries job-index-failure-count 0, status.failedIndexes is ""', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('ix', { completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 2147483647, backoffLimitPerIndex: 1 }));
    await ctl.idle();
    const pods = podsOf(fake).sort((a, b) => a.metadata.generateName!.localeCompare(b.metadata.generateName!));
    assert.deepEqual(pods.map((p) => [p.metadata.generateName, p.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count']]), [['ix-0-', '0'], ['ix-1-', '0']]);
    assert.equal(fake.lookup<Job>(jobsRef, 'default', 'ix')!.status?.failedIndexes, '');
    assert.ok(!events(fake).some((e) => e.startsWith('UnsupportedJobFeature')));
    await ctl.stop();
  });

  test('a succeeded pod: its uid in uncountedTerminatedPods with SuccessCriteriaMet, then the finalizer removed, then succeeded 1 and Complete', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('x'));
    await ctl.idle();
    const p = podsOf(fake)[0]!;
    fake.log = [];
    fake.seed(podsRef, { ...p, status: { phase: 'Succeeded', containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, finishedAt: '2025-01-01T00:00:00Z' } } }] } } as Pod);
    await ctl.idle();
    const order = fake.log.map((w) => `${w.verb}${w.subresource ? `/${w.subresource}` : ''} ${w.resource}`).filter((w) => !w.endsWith('events'));
    assert.deepEqual(order.slice(0, 3), ['update/status jobs', 'patch pods', 'update/status jobs']);
    const first = fake.log[0]!.obj as Job;
    assert.deepEqual(first.status?.uncountedTerminatedPods, { succeeded: [p.metadata.uid] });
    assert.equal(first.status?.succeeded, undefined);
    assert.deepEqual(first.status?.conditions?.map((c) => c.type), ['SuccessCriteriaMet']);
    assert.deepEqual((fake.log[1]!.obj as Pod).metadata.finalizers, []);
    const last = fake.lookup<Job>(jobsRef, 'default', 'x')!;
    assert.equal(last.status?.succeeded, 1);
    assert.deepEqual(last.status?.uncountedTerminatedPods, {});
    assert.deepEqual(last.status?.conditions?.map((c) => c.type), ['SuccessCriteriaMet', 'Complete']);
    assert.ok(events(fake).includes('Completed: Job completed'));
    await ctl.stop();
  });

  test('an orphan pod still carrying the tracking finalizer (the garbage collector dropped its reference) loses the finalizer', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(podsRef, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', namespace: 'default', uid: 'u-o', finalizers: [tracking, 'example.com/keep'] }, spec: { containers: [] } } as Pod);
    await ctl.idle();
    assert.deepEqual(fake.lookup<Pod>(podsRef, 'default', 'orphan')?.metadata.finalizers, ['example.com/keep']);
    await ctl.stop();
  });

  test('a deleted Job: its pods being deleted lose the finalizer and go', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('x'));
    await ctl.idle();
    const p = podsOf(fake)[0]!;
    await fake.delete(jobsRef, 'default', 'x');
    await fake.delete(podsRef, 'default', p.metadata.name!);
    await ctl.idle();
    assert.deepEqual(podsOf(fake), []);
    await ctl.stop();
  });

  test('parallelism lowered: the excess pod loses its finalizer first, then is deleted (not counted as failed)', async () => {
    const { fake, ctl } = await jobCluster();
    fake.seed(jobsRef, newJob('x', { parallelism: 2, completions: 4 }));
    await ctl.idle();
    assert.equal(podsOf(fake).length, 2);
    fake.log = [];
    fake.seed(jobsRef, { ...fake.lookup<Job>(jobsRef, 'default', 'x')!, metadata: { ...fake.lookup<Job>(jobsRef, 'default', 'x')!.metadata, generation: 2 }, spec: { ...newJob('x').spec, parallelism: 1, completions: 4 } } as Job);
    await ctl.idle();
    assert.deepEqual(fake.log.filter((w) => w.resource === 'pods').map((w) => w.verb), ['patch', 'delete']);
    assert.equal(podsOf(fake).length, 1);
    assert.equal(fake.lookup<Job>(jobsRef, 'default', 'x')?.status?.failed, undefined);
    await ctl.stop();
  });
});

describe('expectations', () => {
  test('ControllerExpectations: satisfied with no record, held while writes are unseen, satisfied once seen or after 5 minutes', () => {
    let now = 0;
    const e = new ControllerExpectations(() => now);
    const rows: { step: () => void; want: boolean }[] = [
      { step: () => undefined, want: true },
      { step: () => e.expectCreations('k', 2), want: false },
      { step: () => e.creationObserved('k'), want: false },
      { step: () => e.creationObserved('k'), want: true },
      { step: () => e.expectDeletions('k', 1), want: false },
      { step: () => (now += 5 * 60_000 + 1), want: true },
    ];
    for (const r of rows) {
      r.step();
      assert.equal(e.satisfied('k'), r.want);
    }
  });
  test('UidTrackingExpectations: a uid is expected until observed', () => {
    const u = new UidTrackingExpectations();
    u.expect('k', ['a', 'b']);
    u.observed('k', 'a');
    assert.deepEqual([...u.get('k')], ['b']);
  });
});

function newCronJob(spec: NonNullable<CronJob['spec']> = {}, status: CronJob['status'] = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'cj', namespace: 'default', uid: 'uid-cj', creationTimestamp: '2025-01-01T00:00:30Z' },
    spec: { schedule: '* * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    status,
  };
}

const ownedJob = (name: string, cond?: string, startTime?: string): Job => ({
  ...newJob(name),
  metadata: { ...newJob(name).metadata, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'cj', uid: 'uid-cj', controller: true }] },
  status: { ...(startTime ? { startTime } : {}), ...(cond ? { conditions: [{ type: cond, status: 'True' }], ...(cond === 'Complete' ? { completionTime: startTime } : {}) } : {}) },
});

describe('CronJobController', () => {
  const at = (s: string) => () => new Date(s);
  async function cronCluster(now: string, seed: (fake: FakeCluster) => void) {
    const fake = new FakeCluster();
    fake.clock = new Date(now);
    seed(fake);
    const ctl = new CronJobController(fake, new SharedInformerFactory(fake), { now: at(now) });
    await ctl.start();
    await ctl.idle();
    await ctl.stop();
    return fake;
  }

  test('a schedule time passed: a Job named <cronjob>-<minutes> owned by the CronJob, in status.active with lastScheduleTime; SuccessfulCreate', async () => {
    const fake = await cronCluster('2025-01-01T00:01:05Z', (f) => f.seed(cronJobsRef, newCronJob()));
    const name = `cj-${Date.parse('2025-01-01T00:01:00Z') / 60000}`;
    const j = fake.lookup<Job>(jobsRef, 'default', name);
    assert.ok(j, fake.writesTo('jobs').join());
    assert.equal(j.metadata.ownerReferences?.[0]?.uid, 'uid-cj');
    const cj = fake.lookup<CronJob>(cronJobsRef, 'default', 'cj')!;
    assert.deepEqual(cj.status?.active?.map((a) => a.name), [name]);
    assert.equal(cj.status?.lastScheduleTime, '2025-01-01T00:01:00Z');
    assert.ok(events(fake).includes(`SuccessfulCreate: Created job ${name}`));
  });

  test('Forbid with a job still active: none created, JobAlreadyActive', async () => {
    const running = ownedJob('cj-old');
    const fake = await cronCluster('2025-01-01T00:02:05Z', (f) => {
      const j = f.seed(jobsRef, running) as Job;
      f.seed(cronJobsRef, newCronJob({ concurrencyPolicy: 'Forbid' }, { active: [{ kind: 'Job', name: 'cj-old', namespace: 'default', uid: j.metadata.uid, apiVersion: 'batch/v1' }], lastScheduleTime: '2025-01-01T00:01:00Z' }));
    });
    assert.deepEqual(fake.writesTo('jobs'), []);
    assert.ok(events(fake).includes('JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid'));
  });

  test('history limit 1: the older completed job is deleted, SawCompletedJob for the active one that finished, lastSuccessfulTime', async () => {
    const fake = await cronCluster('2025-01-01T00:03:30Z', (f) => {
      f.seed(jobsRef, ownedJob('cj-a', 'Complete', '2025-01-01T00:01:00Z'));
      const b = f.seed(jobsRef, ownedJob('cj-b', 'Complete', '2025-01-01T00:02:00Z')) as Job;
      f.seed(cronJobsRef, newCronJob({ successfulJobsHistoryLimit: 1, suspend: true }, { active: [{ kind: 'Job', name: 'cj-b', namespace: 'default', uid: b.metadata.uid, apiVersion: 'batch/v1' }], lastScheduleTime: '2025-01-01T00:02:00Z' }));
    });
    assert.deepEqual(fake.writesTo('jobs'), ['delete cj-a']);
    const cj = fake.lookup<CronJob>(cronJobsRef, 'default', 'cj')!;
    assert.equal(cj.status?.active, undefined);
    assert.equal(cj.status?.lastSuccessfulTime, '2025-01-01T00:02:00Z');
    const ev = events(fake);
    assert.ok(ev.includes('SuccessfulDelete: Deleted job cj-a'));
    assert.ok(ev.includes('SawCompletedJob: Saw completed job: cj-b, condition: Complete'));
  });

  test('startingDeadlineSeconds: a schedule time older than the deadline is not run (the window starts at now - startingDeadlineSeconds)', async () => {
    const fake = await cronCluster('2025-01-01T00:01:50Z', (f) => f.seed(cronJobsRef, newCronJob({ startingDeadlineSeconds: 10 }, { lastScheduleTime: '2025-01-01T00:00:00Z' })));
    assert.deepEqual(fake.writesTo('jobs'), []);
  });
});
