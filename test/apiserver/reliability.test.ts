// Reliability of the API server: concurrent creators against a quota, durability across a
// kill -9 of the server process (both on SQLite and on etcd), and hostile request bodies.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { startChildServer, waitFor } from './childserver.js';
import { Client } from './client.js';
import { etcdMissing, sharedEtcd } from '../storage/etcdserver.js';

/** The stores the quota race and the kill -9 test run on; etcd runs on this file's own etcd, each server under its own key prefix. */
const stores: { name: string; skip?: string; args(tag: string): Promise<{ store?: string; etcdPrefix?: string }> }[] = [
  { name: 'SQLite', args: async () => ({}) },
  { name: 'etcd', skip: etcdMissing(), args: async (tag) => ({ store: (await sharedEtcd()).spec, etcdPrefix: `/${tag}-${process.pid}` }) },
];

const podBody = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '10m', memory: '8Mi' } } }], ...extra },
});

async function createQuota(client: Client, ns: string, hard: Record<string, string>): Promise<void> {
  await client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const r = await client.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard } });
  assert.equal(r.status, 201, r.text);
  await waitFor('quota status', async () => (await client.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json().status?.used !== undefined);
}

for (const backend of stores) {
  describe(`API server reliability on ${backend.name}`, { skip: backend.skip }, () => {
    let s: RunningServer;
    let dir: string;
    let client: Client;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'bulkhead-rel-'));
      const { store, etcdPrefix } = await backend.args('race');
      s = await startServer({ dataDir: join(dir, 'data'), store, storeOptions: { etcdPrefix }, port: 0, quotaResyncSeconds: 5 });
      client = new Client(s.url, s.caCert, s.adminToken, 128);
    });
    after(async () => {
      client?.close();
      await s?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('100 concurrent creators against a quota of pods: 50 admit exactly 50', async () => {
      await createQuota(client, 'race', { pods: '50' });
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => client.request('POST', '/api/v1/namespaces/race/pods', podBody(`p${i}`))));
      const created = results.filter((r) => r.status === 201).length;
      const refused = results.filter((r) => r.status === 403);
      assert.equal(created, 50, results.filter((r) => r.status !== 201 && r.status !== 403).map((r) => r.text).join('\n'));
      assert.equal(refused.length, 50);
      assert.match(refused[0]!.json().message, /^pods "p\d+" is forbidden: exceeded quota: q, requested: pods=1, used: pods=50, limited: pods=50$/);
      const list = (await client.request('GET', '/api/v1/namespaces/race/pods')).json();
      assert.equal(list.items.length, 50);
      const q = (await client.request('GET', '/api/v1/namespaces/race/resourcequotas/q')).json();
      assert.equal(q.status.used.pods, '50');
    });
  });
}

describe('API server reliability', () => {
  let s: RunningServer;
  let dir: string;
  let client: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-rel-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, quotaResyncSeconds: 5 });
    client = new Client(s.url, s.caCert, s.adminToken, 128);
  });
  after(async () => {
    client?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('malformed and hostile bodies always get a 4xx Status, never a 5xx', async () => {
    const targets = ['/api/v1/namespaces/default/pods', '/api/v1/namespaces/default/resourcequotas', '/api/v1/namespaces/default/limitranges', '/api/v1/namespaces', '/api/v1/namespaces/default/events'];
    const bodies: (string | Buffer)[] = [
      '', 'null', '[]', '42', '"pod"', '{', '{"kind":', Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: 'nope' }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: 5 } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: {} } } }] } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '1e999999999' } } }] } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x'.repeat(100000) }, spec: { containers: [] } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', labels: { a: 5 } }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: 'all' } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { cpu: [1] }, scopes: 'x' } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 5 }] } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'UPPER' } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: 7 }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', bogus: true }, spec: { containers: [{ name: 'c', image: 'i', extra: 1 }], nope: {} } }),
      JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '1' }, unknown: [] } }),
      '['.repeat(100000) + ']'.repeat(100000),
      Buffer.alloc(4 * 1024 * 1024, 0x20),
    ];
    const check = async (method: string, path: string, body: string | Buffer, q = '') => {
      const r = await client.request(method, path + q, body, method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {});
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path}${q} with ${String(body).slice(0, 80)} → ${r.status} ${r.text.slice(0, 300)}`);
      const st = r.json();
      assert.equal(st.kind, 'Status');
      assert.equal(st.code, r.status);
    };
    for (const t of targets) for (const b of bodies) await check('POST', t, b, '?fieldValidation=Strict');
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(...targets), async (v, t) => {
        const r = await client.request('POST', t, JSON.stringify(v));
        assert.ok(r.status < 500, `${t} ${JSON.stringify(v).slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`);
      }),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.object({ maxDepth: 4 }), async (spec) => {
        const r = await client.request('POST', '/api/v1/namespaces/default/pods', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'f-' }, spec }));
        assert.ok(r.status < 500, `${JSON.stringify(spec).slice(0, 200)} → ${r.status} ${r.text.slice(0, 300)}`);
      }),
      { numRuns: 300 },
    );
  });
});

for (const backend of stores) describe(`durability across kill -9 of the server on ${backend.name}`, { skip: backend.skip }, () => {
  it('every acknowledged pod survives and quota usage is exact after restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-kill-'));
    const dataDir = join(dir, 'data');
    const { store, etcdPrefix } = await backend.args('kill');
    const start = () => startChildServer(dataDir, store ? ['--store', store, '--etcd-prefix', etcdPrefix!] : []);
    try {
      const first = await start();
      await createQuota(first.client, 'load', { pods: '100000', 'requests.cpu': '100000', 'requests.memory': '100000Gi' });
      const acked: string[] = [];
      let n = 0;
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const name = `p${n++}`;
          try {
            const r = await first.client.request('POST', '/api/v1/namespaces/load/pods', podBody(name));
            if (r.status === 201) acked.push(name);
          } catch {
            return; // the server is gone
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await waitFor('acknowledged creates', async () => acked.length >= 300);
      first.child.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      await first.stop();

      const second = await start();
      try {
        const pods = (await second.client.request('GET', '/api/v1/namespaces/load/pods')).json();
        const names = new Set((pods.items as { metadata: { name: string } }[]).map((p) => p.metadata.name));
        const lost = acked.filter((a) => !names.has(a));
        assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged pods lost`);
        // The charge was committed with each pod, so usage is exact before any resync.
        const q = (await second.client.request('GET', '/api/v1/namespaces/load/resourcequotas/q')).json();
        assert.equal(q.status.used.pods, String(names.size));
        assert.equal(q.status.used['requests.cpu'], `${names.size * 10}m`.replace(/^(\d+)000m$/, '$1'));
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
