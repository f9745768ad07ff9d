// The Job and CronJob controllers (src/controllers/job.ts, cronjob.ts) in the in-process server,
// driven by the real kubectl and the HTTP API. There is no node agent in this tier: pods stay
// Pending, and the tests play the kubelet by writing each pod's phase and container statuses
// through the pods/status subresource. The Job controller's batching and pod-failure back-off are
// shortened (50 ms, 200 ms) and the CronJob controller gets a clock the test moves forward, so no
// test waits a real minute. Every wait polls for a condition; nothing asserts on a duration.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
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
const cronJobsPath = `/apis/batch/v1/namespaces/${ns}/cronjobs`;
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

async function until<T>(what: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const v = await what();
    if (v) return v;
    await sleep(50);
  }
}

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

describe('Job and CronJob controllers with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  /** How far the CronJob controller's clock is ahead of the real one. */
  let cronClockAheadMs = 0;
  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-jobs-'));
    s = await startServer({
      dataDir: join(dir, 'data'),
      store: 'memory:',
      port: 0,
      scheduler: false,
      jobController: { batchMs: 50, backoffBaseMs: 200 },
      cronJobController: { now: () => new Date(Date.now() + cronClockAheadMs) },
    });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const job = async (name: string): Promise<Job> => (await admin.request('GET', `${jobsPath}/${name}`)).json();
  const podsOf = async (jobName: string): Promise<Pod[]> => (await admin.request('GET', `${podsPath}?labelSelector=batch.kubernetes.io/job-name=${jobName}`)).json().items;
  const cond = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type && c.status === 'True');
  const events = async (name: string): Promise<{ reason: string; message: string; type: string }[]> =>
    (await admin.request('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name=${name}`)).json().items;
  /** Plays the kubelet: the pod's container ended with this exit code. */
  const finish = async (pod: Pod, exitCode: number, reason = exitCode === 0 ? 'Completed' : 'Error') => {
    const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const container = pod.spec.containers[0]!.name;
    const r = await admin.request('PATCH', `${podsPath}/${pod.metadata.name}/status`, {
      status: {
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t, reason: 'PodCompleted' }],
        containerStatuses: [{ name: container, ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode, reason, startedAt: t, finishedAt: t } } }],
      },
    }, mergePatch);
    assert.equal(r.status, 200, r.text);
  };
  const waitPods = (jobName: string, n: number, filter: (p: Pod) => boolean = (p) => !p.status?.phase || p.status.phase === 'Pending') =>
    until(async () => {
      const ps = (await podsOf(jobName)).filter(filter);
      return ps.length >= n ? ps : undefined;
    });

  it('kubectl create job: a pod from the template with the tracking finalizer, labels and owner; Complete once it succeeded; kubectl get jobs', async () => {
    const r = await kubectl('create', 'job', 'ok', '--image=busybox', '--', 'true');
    assert.equal(r.code, 0, r.stderr);
    const [p] = await waitPods('ok', 1);
    const j0 = await job('ok');
    assert.match(p!.metadata.name!, /^ok-[a-z0-9]{5}$/);
    assert.equal(p!.metadata.generateName, 'ok-');
    assert.deepEqual(p!.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.equal(p!.metadata.labels?.['batch.kubernetes.io/controller-uid'], j0.metadata.uid);
    assert.equal(p!.metadata.labels?.['batch.kubernetes.io/job-name'], 'ok');
    assert.equal(p!.metadata.labels?.['controller-uid'], j0.metadata.uid);
    assert.equal(p!.metadata.labels?.['job-name'], 'ok');
    assert.deepEqual(p!.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'ok', uid: j0.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const running = await until(async () => ((await job('ok')).status?.active === 1 ? job('ok') : undefined));
    assert.ok(running.status?.startTime);
    const get0 = await kubectl('get', 'jobs', 'ok');
    assert.match(get0.stdout, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\n/);
    assert.match(get0.stdout, /\nok\s+Running\s+0\/1\s+/);

    await finish(p!, 0);
    const done = await until(async () => {
      const j = await job('ok');
      return cond(j, 'Complete') ? j : undefined;
    });
    assert.equal(done.status?.succeeded, 1);
    assert.equal(done.status?.active, undefined);
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    assert.deepEqual(done.status?.conditions?.map((c) => [c.type, c.status, c.reason]), [['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    assert.ok(done.status?.completionTime);
    const after = (await admin.request('GET', `${podsPath}/${p!.metadata.name}`)).json();
    assert.deepEqual(after.metadata.finalizers ?? [], []);
    const ev = await until(async () => {
      const es = await events('ok');
      return es.some((e) => e.reason === 'Completed') ? es : undefined;
    });
    assert.ok(ev.some((e) => e.reason === 'SuccessfulCreate' && e.message === `Created pod: ${p!.metadata.name}` && e.type === 'Normal'));
    assert.ok(ev.some((e) => e.reason === 'Completed' && e.message === 'Job completed'));
    const get = await kubectl('get', 'jobs', 'ok');
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /\nok\s+Complete\s+1\/1\s+\d+s\s+\d+s\n$/);
  });

  it('completions 3, parallelism 2: two pods at a time, a third after one succeeds, Complete at 3', async () => {
    const spec = { completions: 3, parallelism: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } };
    assert.equal((await admin.request('POST', jobsPath, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'three' }, spec })).status, 201);
    const first = await waitPods('three', 2);
    await sleep(200);
    assert.equal((await podsOf('three')).length, 2, 'no more than parallelism at once');
    await finish(first[0]!, 0);
    await until(async () => ((await podsOf('three')).length === 3 ? true : undefined));
    for (const p of await podsOf('three')) if (p.status?.phase !== 'Succeeded') await finish(p, 0);
    const done = await until(async () => {
      const j = await job('three');
      return cond(j, 'Complete') ? j : undefined;
    });
    assert.equal(done.status?.succeeded, 3);
    assert.match((await kubectl('get', 'job', 'three')).stdout, /\nthree\s+Complete\s+3\/3\s/);
  });

  it('backoffLimit 1: a failed pod is replaced after the back-off; the second failure fails the job with BackoffLimitExceeded', async () => {
    const spec = { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } };
    assert.equal((await admin.request('POST', jobsPath, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'flaky' }, spec })).status, 201);
    const [a] = await waitPods('flaky', 1);
    await finish(a!, 1);
    const [b] = await waitPods('flaky', 1);
    assert.notEqual(b!.metadata.name, a!.metadata.name);
    await finish(b!, 1);
    const failed = await until(async () => {
      const j = await job('flaky');
      return cond(j, 'Failed') ? j : undefined;
    });
    assert.equal(failed.status?.failed, 2);
    assert.deepEqual([cond(failed, 'FailureTarget')?.reason, cond(failed, 'Failed')?.reason, cond(failed, 'Failed')?.message], ['BackoffLimitExceeded', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
    const ev = await until(async () => {
      const es = await events('flaky');
      return es.some((e) => e.reason === 'BackoffLimitExceeded') ? es : undefined;
    });
    assert.ok(ev.some((e) => e.reason === 'BackoffLimitExceeded' && e.type === 'Warning' && e.message === 'Job has reached the specified backoff limit'));
    assert.match((await kubectl('get', 'job', 'flaky')).stdout, /\nflaky\s+Failed\s+0\/1\s/);
  });

  it('activeDeadlineSeconds: the controller comes back at the deadline, deletes the running pod and fails the job with DeadlineExceeded', async () => {
    const spec = { activeDeadlineSeconds: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } };
    assert.equal((await admin.request('POST', jobsPath, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'slow' }, spec })).status, 201);
    await waitPods('slow', 1);
    const failed = await until(async () => {
      const j = await job('slow');
      return cond(j, 'Failed') ? j : undefined;
    });
    assert.deepEqual([cond(failed, 'Failed')?.reason, cond(failed, 'Failed')?.message], ['DeadlineExceeded', 'Job was active longer than specified deadline']);
    assert.equal(failed.status?.failed, 1);
    assert.deepEqual(await podsOf('slow'), []);
    const es = await until(async () => {
      const e = await events('slow');
      return e.some((x) => x.reason === 'DeadlineExceeded') ? e : undefined;
    });
    assert.ok(es.some((e) => e.reason === 'SuccessfulDelete' && /^Deleted pod: slow-/.test(e.message)));
  });

  it('podFailurePolicy FailJob on exit code 137: Failed with reason PodFailurePolicy and upstream\'s message, no second pod', async () => {
    const spec = {
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [137] } }] },
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
    };
    assert.equal((await admin.request('POST', jobsPath, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'oom' }, spec })).status, 201);
    const [p] = await waitPods('oom', 1);
    await finish(p!, 137, 'OOMKilled');
    const failed = await until(async () => {
      const j = await job('oom');
      return cond(j, 'Failed') ? j : undefined;
    });
    const message = `Container main for pod default/${p!.metadata.name} failed with exit code 137 matching FailJob rule at index 0`;
    assert.deepEqual([cond(failed, 'FailureTarget')?.reason, cond(failed, 'Failed')?.reason, cond(failed, 'Failed')?.message], ['PodFailurePolicy', 'PodFailurePolicy', message]);
    assert.equal(failed.status?.failed, 1);
    assert.deepEqual((await podsOf('oom')).map((x) => x.metadata.name), [p!.metadata.name]);
    await until(async () => (await events('oom')).some((e) => e.reason === 'PodFailurePolicy' && e.message === message && e.type === 'Warning'));
  });

  it('suspend: the running pod goes and Suspended is True; resuming creates a pod again', async () => {
    assert.equal((await kubectl('create', 'job', 'pause', '--image=busybox', '--', 'sleep', '1000')).code, 0);
    await waitPods('pause', 1);
    assert.equal((await kubectl('patch', 'job', 'pause', '--type=merge', '-p', '{"spec":{"suspend":true}}')).code, 0);
    const susp = await until(async () => {
      const j = await job('pause');
      return cond(j, 'Suspended') && (await podsOf('pause')).length === 0 ? j : undefined;
    });
    assert.deepEqual([cond(susp, 'Suspended')?.reason, cond(susp, 'Suspended')?.message], ['JobSuspended', 'Job suspended']);
    assert.match((await kubectl('get', 'job', 'pause')).stdout, /\npause\s+Suspended\s+0\/1\s/);
    assert.equal((await kubectl('patch', 'job', 'pause', '--type=merge', '-p', '{"spec":{"suspend":false}}')).code, 0);
    await waitPods('pause', 1);
    const resumed = await job('pause');
    assert.equal(resumed.status?.conditions?.find((c) => c.type === 'Suspended')?.reason, 'JobResumed');
  });

  for (const cascade of ['background', 'foreground']) {
    it(`kubectl delete job --cascade=${cascade}: its pods go too, the tracking finalizer removed from them`, async () => {
      const name = `del-${cascade}`;
      assert.equal((await kubectl('create', 'job', name, '--image=busybox', '--', 'sleep', '1000')).code, 0);
      const [p] = await waitPods(name, 1);
      assert.deepEqual(p!.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
      const r = await kubectl('delete', 'job', name, `--cascade=${cascade}`);
      assert.equal(r.code, 0, r.stderr);
      await until(async () => (await admin.request('GET', `${podsPath}/${p!.metadata.name}`)).status === 404);
      await until(async () => (await admin.request('GET', `${jobsPath}/${name}`)).status === 404);
    });
  }

  it('kubectl create cronjob "* * * * *": a Job at the next minute (the controller\'s clock moved ahead), tracked in status.active, then SawCompletedJob', async () => {
    const r = await kubectl('create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'true');
    assert.equal(r.code, 0, r.stderr);
    await s.cronJobs!.idle();
    assert.deepEqual((await admin.request('GET', jobsPath)).json().items.filter((j: Job) => j.metadata.name?.startsWith('tick-')), []);
    // The controller's clock jumps past the next schedule time; the CronJob is synced again on a change.
    cronClockAheadMs = 61_000;
    assert.equal((await kubectl('label', 'cronjob', 'tick', 'moved=yes')).code, 0);
    const cj = await until(async () => {
      const c = (await admin.request('GET', `${cronJobsPath}/tick`)).json();
      return c.status?.active?.length === 1 ? c : undefined;
    });
    const jobName = cj.status.active[0].name as string;
    assert.match(jobName, /^tick-\d+$/);
    assert.equal(Number(jobName.slice(5)) * 60_000, Date.parse(cj.status.lastScheduleTime));
    const j = await job(jobName);
    assert.equal(j.metadata.ownerReferences?.[0]?.kind, 'CronJob');
    assert.ok(j.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']);
    // LAST SCHEDULE is the controller's (moved) time, ahead of the real one: kubectl prints <invalid> for a time in the future.
    assert.match((await kubectl('get', 'cronjob', 'tick')).stdout, /\ntick\s+\* \* \* \* \*\s+<none>\s+False\s+1\s+(<invalid>|\d+s)\s+\d+s\n$/);
    const [p] = await waitPods(jobName, 1);
    await finish(p!, 0);
    const after = await until(async () => {
      const c = (await admin.request('GET', `${cronJobsPath}/tick`)).json();
      return c.status?.lastSuccessfulTime && !c.status.active ? c : undefined;
    });
    assert.ok(after.status.lastSuccessfulTime);
    const es = await until(async () => {
      const e = await events('tick');
      return e.some((x) => x.reason === 'SawCompletedJob') ? e : undefined;
    });
    assert.ok(es.some((e) => e.reason === 'SuccessfulCreate' && e.message === `Created job ${jobName}`));
    assert.ok(es.some((e) => e.reason === 'SawCompletedJob' && e.message === `Saw completed job: ${jobName}, condition: Complete`));
  });
});
