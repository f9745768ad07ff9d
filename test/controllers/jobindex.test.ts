// Indexed Jobs with backoffLimitPerIndex, maxFailedIndexes and successPolicy in the in-process
// server (src/controllers/job.ts on src/policy/jobperindex.ts and jobsuccesspolicy.ts), through the
// HTTP API. As in job.test.ts there is no node agent: the tests play the kubelet by writing each
// pod's phase and container statuses through pods/status, and the Job controller's batching and
// back-off are shortened (50 ms, 200 ms). Every wait polls for a state; nothing asserts a duration.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, Pod } from '../../src/api/types.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from '../apiserver/client.js';

const ns = 'default';
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const indexKey = 'batch.kubernetes.io/job-completion-index';
const failureCountKey = 'batch.kubernetes.io/job-index-failure-count';

/** Polls until `what` gives a value; a generous bound (not a timing assertion) turns a hang into a failure. */
async function until<T>(what: () => Promise<T | undefined | false>, boundMs = 120_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`not reached within ${boundMs} ms`);
    await sleep(50);
  }
}

describe('Indexed Jobs: backoffLimitPerIndex and successPolicy', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-jobindex-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, jobController: { batchMs: 50, backoffBaseMs: 200 } });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = async (name: string, spec: Record<string, unknown>) => {
    const body = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { completionMode: 'Indexed', ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } };
    const r = await admin.request('POST', jobsPath, body);
    assert.equal(r.status, 201, r.text);
  };
  const job = async (name: string): Promise<Job> => (await admin.request('GET', `${jobsPath}/${name}`)).json();
  const podsOf = async (jobName: string): Promise<Pod[]> => (await admin.request('GET', `${podsPath}?labelSelector=batch.kubernetes.io/job-name=${jobName}`)).json().items;
  const cond = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type && c.status === 'True');
  const events = async (name: string): Promise<{ reason: string; message: string; type: string }[]> =>
    (await admin.request('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=${name}`)).json().items;
  const indexOf = (p: Pod) => Number(p.metadata.annotations?.[indexKey]);
  /** The pods not yet finished, by index. */
  const pendingByIndex = async (jobName: string): Promise<Map<number, Pod[]>> => {
    const out = new Map<number, Pod[]>();
    for (const p of await podsOf(jobName)) {
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' || p.metadata.deletionTimestamp) continue;
      out.set(indexOf(p), [...(out.get(indexOf(p)) ?? []), p]);
    }
    return out;
  };
  /** Waits for a pending pod of each of `indexes` and returns them in that order. */
  const waitIndexes = (jobName: string, indexes: number[]) =>
    until(async () => {
      const m = await pendingByIndex(jobName);
      return indexes.every((ix) => m.get(ix)?.length === 1) ? indexes.map((ix) => m.get(ix)![0]!) : undefined;
    });
  /** Plays the kubelet: the pod's container ended with this exit code. */
  const finish = async (pod: Pod, exitCode: number) => {
    const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const r = await admin.request('PATCH', `${podsPath}/${pod.metadata.name}/status`, {
      status: {
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t, reason: 'PodCompleted' }],
        containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: t, finishedAt: t } } }],
      },
    }, mergePatch);
    assert.equal(r.status, 200, r.text);
  };
  const waitCondition = (name: string, type: string) =>
    until(async () => {
      const j = await job(name);
      return cond(j, type) ? j : undefined;
    });

  it('backoffLimitPerIndex 1: a failed index is retried once with job-index-failure-count 1, then fails alone; the job ends Failed with FailedIndexes', async () => {
    await create('per-index', { completions: 3, parallelism: 3, backoffLimitPerIndex: 1 });
    const j0 = await job('per-index');
    assert.equal(j0.spec?.backoffLimit, 2147483647, 'backoffLimit defaults to MaxInt32 with backoffLimitPerIndex');
    const [p0, p1, p2] = await waitIndexes('per-index', [0, 1, 2]);
    assert.deepEqual([p0, p1, p2].map((p) => p!.metadata.annotations?.[failureCountKey]), ['0', '0', '0']);
    assert.equal((await until(async () => ((await job('per-index')).status?.failedIndexes === '' ? job('per-index') : undefined))).status?.failedIndexes, '');

    await finish(p0!, 1);
    const [retry] = await waitIndexes('per-index', [0]);
    assert.notEqual(retry!.metadata.name, p0!.metadata.name);
    assert.equal(retry!.metadata.annotations?.[failureCountKey], '1');
    // Once the replacement exists, the first failure is counted and its pod loses the finalizer.
    const counted = await until(async () => {
      const j = await job('per-index');
      return j.status?.failed === 1 ? j : undefined;
    });
    assert.equal(counted.status?.failedIndexes, '');
    await until(async () => !(await podsOf('per-index')).find((p) => p.metadata.name === p0!.metadata.name)?.metadata.finalizers?.length);

    await finish(retry!, 1);
    const indexFailed = await until(async () => {
      const j = await job('per-index');
      return j.status?.failedIndexes === '0' ? j : undefined;
    });
    assert.equal(cond(indexFailed, 'Failed'), undefined, 'one failed index does not fail the job');
    await finish(p1!, 0);
    await finish(p2!, 0);
    const failed = await waitCondition('per-index', 'Failed');
    assert.deepEqual([cond(failed, 'FailureTarget')?.reason, cond(failed, 'Failed')?.reason, cond(failed, 'Failed')?.message], ['FailedIndexes', 'FailedIndexes', 'Job has failed indexes']);
    assert.equal(failed.status?.completedIndexes, '1,2');
    assert.equal(failed.status?.failedIndexes, '0');
    assert.equal(failed.status?.failed, 2);
    assert.equal(failed.status?.succeeded, 2);
    assert.equal((await podsOf('per-index')).filter((p) => indexOf(p) === 0).length, 2, 'no third pod for the failed index');
    const es = await until(async () => {
      const e = await events('per-index');
      return e.some((x) => x.reason === 'FailedIndexes') ? e : undefined;
    });
    assert.ok(es.some((e) => e.type === 'Warning' && e.reason === 'FailedIndexes' && e.message === 'Job has failed indexes'));
    assert.ok(!es.some((e) => e.reason === 'UnsupportedJobFeature'));
  });

  it('a FailIndex rule with maxFailedIndexes 0: the first failed index fails the job with MaxFailedIndexesExceeded and the other pods are deleted', async () => {
    await create('max-failed', {
      completions: 3, parallelism: 3, backoffLimitPerIndex: 2, maxFailedIndexes: 0,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] },
    });
    const [, p1] = await waitIndexes('max-failed', [0, 1, 2]);
    await finish(p1!, 42);
    const failed = await waitCondition('max-failed', 'Failed');
    assert.deepEqual([cond(failed, 'FailureTarget')?.reason, cond(failed, 'Failed')?.reason, cond(failed, 'Failed')?.message], ['MaxFailedIndexesExceeded', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes']);
    assert.equal(failed.status?.failedIndexes, '1');
    assert.equal(failed.status?.active, undefined);
    // The running pods were deleted and lost their finalizers; only the failed one is left.
    const left = await until(async () => {
      const ps = await podsOf('max-failed');
      return ps.length === 1 ? ps : undefined;
    });
    assert.equal(left[0]!.metadata.name, p1!.metadata.name);
    await until(async () => (await events('max-failed')).filter((e) => e.reason === 'SuccessfulDelete').length === 2);
  });

  it('successPolicy succeededIndexes "0": once index 0 succeeded, SuccessCriteriaMet (SuccessPolicy, "Matched rules at index 0"), the other pods deleted, then Complete', async () => {
    await create('lead', { completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const [p0] = await waitIndexes('lead', [0, 1, 2]);
    await finish(p0!, 0);
    const done = await waitCondition('lead', 'Complete');
    assert.deepEqual(done.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['SuccessCriteriaMet', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
      ['Complete', 'True', 'SuccessPolicy', 'Matched rules at index 0'],
    ]);
    assert.ok(done.status?.completionTime);
    assert.equal(done.status?.completedIndexes, '0');
    assert.equal(done.status?.succeeded, 1);
    assert.equal(done.status?.active, undefined);
    const left = await until(async () => {
      const ps = await podsOf('lead');
      return ps.length === 1 ? ps : undefined;
    });
    assert.equal(left[0]!.metadata.name, p0!.metadata.name);
    await until(async () => {
      const e = await events('lead');
      return e.some((x) => x.reason === 'Completed') && e.filter((x) => x.reason === 'SuccessfulDelete').length === 2;
    });
  });

  it('successPolicy succeededCount 2: any two indexes succeeding complete the job', async () => {
    await create('any-two', { completions: 4, parallelism: 4, successPolicy: { rules: [{ succeededCount: 2 }] } });
    const [, p1, , p3] = await waitIndexes('any-two', [0, 1, 2, 3]);
    await finish(p3!, 0);
    await until(async () => ((await job('any-two')).status?.completedIndexes === '3' ? true : undefined));
    assert.equal(cond(await job('any-two'), 'SuccessCriteriaMet'), undefined);
    await finish(p1!, 0);
    const done = await waitCondition('any-two', 'Complete');
    assert.equal(cond(done, 'SuccessCriteriaMet')?.message, 'Matched rules at index 0');
    assert.equal(done.status?.completedIndexes, '1,3');
  });

  it('a successPolicy the API refuses: succeededIndexes past completions, with upstream\'s message', async () => {
    const body = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'bad' }, spec: { completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '1-3' }] }, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } };
    const r = await admin.request('POST', jobsPath, body);
    assert.equal(r.status, 422, r.text);
    assert.match(r.json().message, /spec\.successPolicy\.rules\[0\]\.succeededIndexes: Invalid value: "1-3": error parsing succeededIndexes: too large index: "3"/);
  });
});
