// The TTL-after-finished controller (src/controllers/ttlafterfinished.ts) in the in-process
// server, beside the Job controller and the garbage collector, over the HTTP API. There is no
// node agent in this tier: the tests play the kubelet by writing a pod's phase through
// pods/status. The controller's clock is the real one moved ahead by `aheadMs`, so no test waits
// out a TTL; a Job that must stay is checked once the controller's informer has seen the write
// that triggers it and its queue is idle. Every wait polls for a condition; nothing asserts on
// a duration.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, Pod } from '../../src/api/types.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from '../apiserver/client.js';

const ns = 'default';
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const jobsPath = `/apis/batch/v1/namespaces/${ns}/jobs`;
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
const hold = 'bulkhead.test/hold';

/** Polls until `what` gives a value; fails (rather than hangs) after a generous bound. */
async function until<T>(what: () => Promise<T | undefined | false>, label: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${label}`);
    await sleep(50);
  }
}

describe('TTL-after-finished controller in the server', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  /** How far the controller's clock is ahead of the real one. */
  let aheadMs = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-jobttl-'));
    s = await startServer({
      dataDir: join(dir, 'data'),
      store: 'memory:',
      port: 0,
      scheduler: false,
      jobController: { batchMs: 50 },
      ttlAfterFinishedController: { now: () => new Date(Date.now() + aheadMs) },
    });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    aheadMs = 0;
  });

  const getJob = (name: string) => admin.request('GET', `${jobsPath}/${name}`);
  const createJob = async (name: string, ttl?: number): Promise<Job> => {
    const r = await admin.request('POST', jobsPath, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
    });
    assert.equal(r.status, 201, r.text);
    return r.json();
  };
  const podOf = (name: string) =>
    until(async () => ((await admin.request('GET', `${podsPath}?labelSelector=batch.kubernetes.io/job-name=${name}`)).json().items as Pod[])[0], `a pod of job ${name}`);
  /** Plays the kubelet: the pod's container exited 0. */
  const succeed = async (pod: Pod) => {
    const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const r = await admin.request('PATCH', `${podsPath}/${pod.metadata.name}/status`, {
      status: {
        phase: 'Succeeded',
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: t, reason: 'PodCompleted' }],
        containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: t, finishedAt: t } } }],
      },
    }, mergePatch);
    assert.equal(r.status, 200, r.text);
  };
  const completed = (name: string) =>
    until(async () => {
      const j: Job = (await getJob(name)).json();
      return j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
    }, `job ${name} Complete`);
  /** Once the controller's informer holds this version of the Job (or a later one), its queue has the key: wait for it to be idle. */
  const settled = async (job: Job) => {
    const rv = Number(job.metadata.resourceVersion);
    await until(async () => Number(s.ttlAfterFinished!.cached(ns, job.metadata.name!)?.metadata.resourceVersion ?? 0) >= rv, `the controller's cache at ${rv}`);
    await s.ttlAfterFinished!.idle();
  };
  /** A change that makes the controller look at the Job again (an update event). */
  const touch = async (name: string, value: string): Promise<Job> => {
    const r = await admin.request('PATCH', `${jobsPath}/${name}`, { metadata: { labels: { touched: value } } }, mergePatch);
    assert.equal(r.status, 200, r.text);
    return r.json();
  };

  it('ttl 0: the finished Job is deleted in the foreground, its pod first (held by a finalizer, the Job waits for it); no event', async () => {
    await createJob('gone', 0);
    const pod = await podOf('gone');
    const held = await admin.request('PATCH', `${podsPath}/${pod.metadata.name}`, [{ op: 'add', path: '/metadata/finalizers/-', value: hold }], jsonPatch);
    assert.equal(held.status, 200, held.text);
    await succeed(pod);
    // Foreground: the Job is marked with foregroundDeletion and stays while its pod is being deleted.
    const deleting = await until(async () => {
      const r = await getJob('gone');
      const j: Job | undefined = r.status === 200 ? r.json() : undefined;
      const p: Pod = (await admin.request('GET', `${podsPath}/${pod.metadata.name}`)).json();
      return j?.metadata.deletionTimestamp && p.metadata.deletionTimestamp ? j : undefined;
    }, 'the Job and its pod being deleted');
    assert.deepEqual(deleting.metadata.finalizers, ['foregroundDeletion']);
    assert.equal((await getJob('gone')).status, 200, 'the Job waits for its pod');
    const released = await admin.request('PATCH', `${podsPath}/${pod.metadata.name}`, { metadata: { finalizers: null } }, mergePatch);
    assert.equal(released.status, 200, released.text);
    await until(async () => (await admin.request('GET', `${podsPath}/${pod.metadata.name}`)).status === 404, 'the pod gone');
    await until(async () => (await getJob('gone')).status === 404, 'the Job gone');
    const events: { source?: { component?: string }; reportingComponent?: string }[] = (await admin.request('GET', `/api/v1/namespaces/${ns}/events`)).json().items;
    assert.deepEqual(events.filter((e) => e.source?.component === 'ttl-after-finished-controller' || e.reportingComponent === 'ttl-after-finished-controller'), []);
  });

  it('no ttlSecondsAfterFinished: the finished Job stays, however late it is', async () => {
    await createJob('kept');
    await succeed(await podOf('kept'));
    await settled(await completed('kept'));
    aheadMs = 365 * 86_400_000;
    await settled(await touch('kept', 'late'));
    assert.equal((await getJob('kept')).status, 200);
  });

  it('ttl 60 raised to 3600 before it expired: the Job stays past the old expiry, and goes past the new one', async () => {
    await createJob('raised', 60);
    await succeed(await podOf('raised'));
    await settled(await completed('raised'));
    assert.equal((await getJob('raised')).status, 200, 'a minute left');
    const r = await admin.request('PATCH', `${jobsPath}/raised`, { spec: { ttlSecondsAfterFinished: 3600 } }, mergePatch);
    assert.equal(r.status, 200, r.text);
    await settled(r.json());
    aheadMs = 120_000;
    await settled(await touch('raised', 'past-old-expiry'));
    assert.equal((await getJob('raised')).status, 200, 'the old expiry has passed, the new one has not');
    aheadMs = 3_700_000;
    await touch('raised', 'past-new-expiry');
    await until(async () => (await getJob('raised')).status === 404, 'the Job gone past its new expiry');
  });
});
