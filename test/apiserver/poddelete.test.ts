// Deleting pods over HTTPS: which deletes are immediate and which mark the pod (the pod
// strategy's CheckGracefulDelete), shortening a mark, and what the node identity may do with
// the pods bound to it (delete them when their containers stopped, write their status, write
// events), as the node authorizer allows it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

describe('pod deletion', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  let node1: Client;
  let node2: Client;

  const path = (name: string) => `/api/v1/namespaces/default/pods/${name}`;
  const create = async (name: string, spec: Record<string, unknown> = {}) => {
    const r = await admin.request('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });
    assert.equal(r.status, 201, r.text);
  };
  const bind = async (name: string, node = 'node-1') => {
    const r = await admin.request('POST', `${path(name)}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } });
    assert.equal(r.status, 201, r.text);
  };
  const setPhase = async (name: string, phase: string) => {
    const r = await admin.request('PATCH', `${path(name)}/status`, { status: { phase } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.text);
  };
  const del = (c: Client, name: string, grace?: number) => c.request('DELETE', path(name), grace === undefined ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: grace });
  const exists = async (name: string) => (await admin.request('GET', path(name))).status === 200;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-delete-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    node1 = new Client(s.url, s.caCert, s.nodeToken('node-1'));
    node2 = new Client(s.url, s.caCert, s.nodeToken('node-2'));
  });
  after(async () => {
    for (const c of [admin, node1, node2]) c?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const immediate: { name: string; setup: (n: string) => Promise<void>; grace?: number }[] = [
    { name: 'an unscheduled pod is deleted at once, whatever the grace asked', setup: async () => undefined, grace: 60 },
    { name: 'a Succeeded pod is deleted at once', setup: async (n) => (await bind(n), await setPhase(n, 'Succeeded')) },
    { name: 'a Failed pod is deleted at once', setup: async (n) => (await bind(n), await setPhase(n, 'Failed')) },
    { name: 'gracePeriodSeconds=0 deletes a running pod at once', setup: async (n) => (await bind(n), await setPhase(n, 'Running')), grace: 0 },
  ];
  immediate.forEach((c, i) => {
    it(c.name, async () => {
      const name = `now-${i}`;
      await create(name);
      await c.setup(name);
      const r = await del(admin, name, c.grace);
      assert.equal(r.status, 200, r.text);
      assert.equal(await exists(name), false);
    });
  });

  it('a bound pod is marked with its terminationGracePeriodSeconds and stays until the node deletes it', async () => {
    await create('graceful', { terminationGracePeriodSeconds: 45 });
    await bind('graceful');
    const t0 = Date.now();
    const r = await del(admin, 'graceful');
    const t1 = Date.now();
    assert.equal(r.status, 200, r.text);
    const p = r.json();
    assert.equal(p.metadata.deletionGracePeriodSeconds, 45);
    // Bracketed by the request's start and answer (the timestamp drops the milliseconds), so a
    // slow machine cannot fail it.
    const deadline = Date.parse(p.metadata.deletionTimestamp);
    assert.ok(deadline >= Math.floor(t0 / 1000) * 1000 + 45_000 && deadline <= t1 + 45_000, `deletionTimestamp ${p.metadata.deletionTimestamp}, request ${new Date(t0).toISOString()}…${new Date(t1).toISOString()}`);
    // BeforeDelete bumps a generation only when it is positive, and a 1.32 pod has none.
    assert.equal(p.metadata.generation, undefined);
    assert.equal(await exists('graceful'), true);

    // Asking again with a longer grace changes nothing.
    const again = (await del(admin, 'graceful', 100)).json();
    assert.deepEqual([again.metadata.deletionTimestamp, again.metadata.deletionGracePeriodSeconds], [p.metadata.deletionTimestamp, 45]);

    // A shorter one moves the deadline, counted from when the deletion started.
    const shorter = (await del(admin, 'graceful', 5)).json();
    assert.equal(shorter.metadata.deletionGracePeriodSeconds, 5);
    assert.equal(Date.parse(shorter.metadata.deletionTimestamp), deadline - 40_000);
    const stored = (await admin.request('GET', path('graceful'))).json();
    assert.deepEqual([stored.metadata.deletionTimestamp, stored.metadata.deletionGracePeriodSeconds], [shorter.metadata.deletionTimestamp, 5]);

    // Another node may not finish it; its own node does, once the containers stopped.
    const foreign = await del(node2, 'graceful', 0);
    assert.equal(foreign.status, 403);
    assert.match(foreign.json().message, /no relationship found between node 'node-2' and this object/);
    const done = await del(node1, 'graceful', 0);
    assert.equal(done.status, 200, done.text);
    assert.equal(await exists('graceful'), false);
  });

  it('the default grace is 30 seconds; a negative one counts as 1', async () => {
    await create('default-grace');
    await bind('default-grace');
    assert.equal((await del(admin, 'default-grace')).json().metadata.deletionGracePeriodSeconds, 30);
    await create('negative');
    await bind('negative');
    assert.equal((await del(admin, 'negative', -7)).json().metadata.deletionGracePeriodSeconds, 1);
  });

  it('a status write during the grace period keeps the mark', async () => {
    await create('terminating');
    await bind('terminating');
    const marked = (await del(admin, 'terminating', 30)).json();
    const r = await node1.request('PATCH', `${path('terminating')}/status`, { status: { phase: 'Running' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.text);
    const p = r.json();
    assert.deepEqual([p.metadata.deletionTimestamp, p.metadata.deletionGracePeriodSeconds, p.status.phase], [marked.metadata.deletionTimestamp, 30, 'Running']);
  });

  it('the node writes the status of its own pods only', async () => {
    await create('mine');
    await bind('mine');
    const cur = (await node1.request('GET', path('mine'))).json();
    const put = await node1.request('PUT', `${path('mine')}/status`, { ...cur, status: { ...cur.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json().status.phase, 'Running');
    const patch = await node2.request('PATCH', `${path('mine')}/status`, { status: { phase: 'Failed' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patch.status, 403);
    // The spec is not the node's to change.
    const spec = await node1.request('PATCH', path('mine'), { metadata: { labels: { x: 'y' } } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(spec.status, 403);
  });

  it('the node may not delete a pod that is not bound to it', async () => {
    await create('unbound');
    const r = await del(node1, 'unbound', 0);
    assert.equal(r.status, 403);
    assert.equal(await exists('unbound'), true);
  });

  it('the node writes events', async () => {
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'mine.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'mine' },
      reason: 'Started',
      message: 'Started container c',
      source: { component: 'kubelet', host: 'node-1' },
      type: 'Normal',
      count: 1,
    };
    const r = await node1.request('POST', '/api/v1/namespaces/default/events', ev);
    assert.equal(r.status, 201, r.text);
    const bump = await node1.request('PUT', '/api/v1/namespaces/default/events/mine.1', { ...(r.json() as Record<string, unknown>), count: 2 });
    assert.equal(bump.status, 200, bump.text);
  });
});
