// The scheduler against the real in-process API server.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/apiserver/server.js';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import type { Event, KubeObject, Pod } from '../../src/api/types.js';
import { SchedulerController } from '../../src/controllers/scheduler.js';
import { node, pod } from './helpers.js';

const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SchedulerController', () => {
  let dir: string;
  let s: RunningServer;
  let sched: SchedulerController;

  const create = (p: Pod) => s.api.create(s.api.def('pods'), 'default', { ...p, metadata: { name: p.metadata.name } } as KubeObject, { ...admin, warnings: [] });
  const get = (name: string) => s.api.get<Pod>(s.api.def('pods'), 'default', name);
  const boundTo = (name: string) => waitFor(`${name} bound`, async () => (await get(name)).spec.nodeName || undefined);
  const failedEvents = async (name: string) =>
    ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).filter((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-sched-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    for (const n of ['n1', 'n2']) await s.api.create(s.api.def('nodes'), undefined, node(n, { cpu: '2', memory: '1Gi', pods: '110' }), { ...admin, warnings: [] });
    sched = new SchedulerController(s.api, { resyncMs: 600_000 });
    await sched.start();
  });

  after(async () => {
    sched?.stop();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds pods, spreading them over the least requested node', async () => {
    await create(pod('p1', { memory: '600Mi' }));
    assert.equal(await boundTo('p1'), 'n1');
    await create(pod('p2', { memory: '600Mi' }));
    assert.equal(await boundTo('p2'), 'n2');
    const p1 = await get('p1');
    assert.equal(p1.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    const scheduled = ((await s.api.list(s.api.def('events'), 'default')).items as Event[]).find((e) => e.reason === 'Scheduled' && e.involvedObject.name === 'p1');
    assert.equal(scheduled?.message, 'Successfully assigned default/p1 to n1');
  });

  it('reports a pod that fits nowhere as kube-scheduler does, and retries', async () => {
    await create(pod('p3', { memory: '600Mi' }));
    const want = '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    const [ev] = await waitFor('FailedScheduling', async () => {
      const evs = await failedEvents('p3');
      return evs.length ? evs : undefined;
    });
    assert.equal(ev!.message, want);
    assert.equal(ev!.type, 'Warning');
    assert.equal(ev!.source?.component, 'default-scheduler');
    assert.equal(ev!.involvedObject.kind, 'Pod');
    assert.equal(ev!.count, 1);
    const cond = await waitFor('PodScheduled=False', async () => (await get('p3')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
    assert.deepEqual([cond.status, cond.reason, cond.message], ['False', 'Unschedulable', want]);
    assert.equal((await get('p3')).spec.nodeName, undefined);

    // The periodic retry fails the same way: the same event, counted.
    await sched.resyncAll();
    await sched.idle();
    const again = await failedEvents('p3');
    assert.equal(again.length, 1);
    assert.equal(again[0]!.count, 2);

    // A bound pod goes away: its node has room again.
    await s.api.delete(s.api.def('pods'), 'default', 'p1', { gracePeriodSeconds: 0 }, { ...admin, warnings: [] });
    assert.equal(await boundTo('p3'), 'n1');
  });

  it('keeps a pod with ulimits off nodes that do not declare ContainerUlimits until one does', async () => {
    const p = pod('ul', { memory: '10Mi' });
    p.spec.containers[0]!.securityContext = { ulimits: [{ name: 'nofile', soft: 1024, hard: 4096 }] };
    await create(p);
    const evs = await waitFor('FailedScheduling for ul', async () => {
      const e = await failedEvents('ul');
      return e.length ? e : undefined;
    });
    assert.equal(evs[0]!.message, "0/2 nodes are available: 2 node(s) didn't match Pod's required features. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    await s.api.create(s.api.def('nodes'), undefined, node('n3', { cpu: '2', memory: '1Gi', pods: '110' }, { declaredFeatures: ['ContainerUlimits'] }), { ...admin, warnings: [] });
    assert.equal(await boundTo('ul'), 'n3');
  });

  it('leaves pods of another scheduler alone', async () => {
    await create(pod('other', { memory: '10Mi' }, { schedulerName: 'my-scheduler' }));
    await new Promise((r) => setTimeout(r, 100));
    await sched.idle();
    assert.equal((await get('other')).spec.nodeName, undefined);
    assert.equal((await failedEvents('other')).length, 0);
  });
});
