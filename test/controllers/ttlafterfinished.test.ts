// The TTL-after-finished controller (src/controllers/ttlafterfinished.ts) against a fake client
// (fakecluster.ts): which Jobs it deletes, with which options, and that it decides on the Job as
// the server has it, not on a stale cache. The clock is the fake client's, stepped by the tests;
// processJob is called directly where upstream's delayed requeue would fire.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Job } from '../../src/api/types.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { jobsRef } from '../../src/client/resources.js';
import { TtlAfterFinishedController } from '../../src/controllers/ttlafterfinished.js';
import { FakeCluster } from './fakecluster.js';

const finishedAt = '2025-01-01T00:00:00Z';

function newJob(name: string, ttl: number | undefined, finished: 'Complete' | 'Failed' | undefined, extra: Partial<Job['metadata']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid: `uid-job-${name}`, ...extra },
    spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
    status: finished ? { conditions: [{ type: finished, status: 'True', lastTransitionTime: finishedAt }] } : {},
  };
}

async function cluster(secondsAfterFinish: number): Promise<{ fake: FakeCluster; ctl: TtlAfterFinishedController; step(seconds: number): void }> {
  const fake = new FakeCluster();
  fake.clock = new Date(Date.parse(finishedAt) + secondsAfterFinish * 1000);
  const ctl = new TtlAfterFinishedController(fake, new SharedInformerFactory(fake));
  await ctl.start();
  return { fake, ctl, step: (s) => (fake.clock = new Date(fake.clock.getTime() + s * 1000)) };
}

const deletes = (fake: FakeCluster) => fake.log.filter((w) => w.verb === 'delete').map((w) => ({ name: w.obj.metadata?.name, opts: w.opts }));

describe('TtlAfterFinishedController', () => {
  const rows: { name: string; job: Job; secondsAfterFinish: number; deleted: boolean }[] = [
    { name: 'Complete, ttl 10, 11 s after: deleted', job: newJob('a', 10, 'Complete'), secondsAfterFinish: 11, deleted: true },
    { name: 'Failed, ttl 10, 10 s after (no time left): deleted', job: newJob('a', 10, 'Failed'), secondsAfterFinish: 10, deleted: true },
    { name: 'Complete, ttl 0, at the finish time: deleted', job: newJob('a', 0, 'Complete'), secondsAfterFinish: 0, deleted: true },
    { name: 'Complete, ttl 10, 9 s after: not yet', job: newJob('a', 10, 'Complete'), secondsAfterFinish: 9, deleted: false },
    { name: 'Complete, no ttl, a day after: stays', job: newJob('a', undefined, 'Complete'), secondsAfterFinish: 86_400, deleted: false },
    { name: 'running, ttl 0: stays', job: newJob('a', 0, undefined), secondsAfterFinish: 86_400, deleted: false },
    { name: 'Complete, ttl 0, already being deleted: not deleted again', job: newJob('a', 0, 'Complete', { deletionTimestamp: finishedAt, finalizers: ['foregroundDeletion'] }), secondsAfterFinish: 60, deleted: false },
  ];
  for (const r of rows) {
    test(r.name, async () => {
      const { fake, ctl } = await cluster(r.secondsAfterFinish);
      fake.seed(jobsRef, r.job);
      await ctl.idle();
      assert.deepEqual(deletes(fake), r.deleted ? [{ name: 'a', opts: { propagationPolicy: 'Foreground', preconditions: { uid: 'uid-job-a' } } }] : []);
      await ctl.stop();
    });
  }

  test('a Job that finishes later (an update) is deleted once its TTL has passed, no event recorded', async () => {
    const { fake, ctl, step } = await cluster(0);
    fake.seed(jobsRef, newJob('b', 5, undefined));
    await ctl.idle();
    step(6);
    fake.seed(jobsRef, newJob('b', 5, 'Complete'));
    await ctl.idle();
    assert.deepEqual(fake.lines(), ['delete jobs b']);
    await ctl.stop();
  });

  test('a stale cache: the TTL was raised on the server, so the Job is not deleted at the old expiry; the new one is kept', async () => {
    const { fake, ctl, step } = await cluster(5);
    fake.seed(jobsRef, newJob('c', 10, 'Complete'));
    await ctl.idle();
    assert.deepEqual(deletes(fake), [], '5 s left');
    // The informer does not see the raise: its Job still says ttl 10.
    fake.holdWatches = true;
    fake.seed(jobsRef, newJob('c', 3600, 'Complete'));
    step(10);
    assert.equal(ctl.cached('default', 'c')?.spec?.ttlSecondsAfterFinished, 10);
    await ctl.processJob('default/c');
    assert.deepEqual(deletes(fake), [], 'the fresh Job has an hour left');
    step(3600);
    await ctl.processJob('default/c');
    assert.deepEqual(deletes(fake), [{ name: 'c', opts: { propagationPolicy: 'Foreground', preconditions: { uid: 'uid-job-c' } } }]);
    await ctl.stop();
  });

  test('a stale cache: the Job was recreated under the same name and runs; the new one is not deleted', async () => {
    const { fake, ctl, step } = await cluster(5);
    fake.seed(jobsRef, newJob('d', 10, 'Complete'));
    await ctl.idle();
    fake.holdWatches = true;
    await fake.delete(jobsRef, 'default', 'd');
    fake.seed(jobsRef, newJob('d', 10, undefined, { uid: 'uid-job-d-2' }));
    fake.log = [];
    step(10);
    await ctl.processJob('default/d');
    assert.deepEqual(deletes(fake), []);
    await ctl.stop();
  });
});
