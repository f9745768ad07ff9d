// Two API servers on one etcd behave as one cluster: a create on one reaches a watch on the
// other (kubectl's, when kubectl is installed, and a plain HTTP watch), compaction through one
// is 410 Gone for old watches on the other, and creates spread over
// both against one ResourceQuota admit exactly its limit, because every quota charge is a
// compare on the quota object's mod_revision in the same etcd transaction as the pod's create.
// The controllers and the scheduler run on one of them at a time (Lease leader election); when
// it stops, the other takes over. Both serve one data dir (one CA, one token file), as servers
// of one cluster share them.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, kubeconfig, type RunningServer } from '../../src/server/start.js';
import { waitFor } from './childserver.js';
import { Client } from './client.js';
import { etcdMissing, sharedEtcd } from '../storage/etcdserver.js';
import { request } from 'node:https';

/** A watch request's body, line by line, until closed. */
function watchLines(s: RunningServer, path: string, onLine: (line: string) => void): { close(): void } {
  let buffered = '';
  const req = request(new URL(path, s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}`, Accept: 'application/json' } }, (res) => {
    res.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  return { close: () => req.destroy() };
}

const kubectlMissing = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return 'BULKHEAD_SKIP_KUBECTL is set';
  const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? undefined : 'kubectl is not installed';
})();

const podBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '10m', memory: '8Mi' } } }] },
});

describe('two API servers on one etcd', { skip: etcdMissing() }, () => {
  let dir: string;
  let a: RunningServer;
  let b: RunningServer;
  let ca: Client;
  let cb: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-multi-'));
    const etcd = await sharedEtcd();
    const opts = { dataDir: join(dir, 'data'), store: etcd.spec, storeOptions: { etcdPrefix: `/multi-${process.pid}` }, port: 0, quotaResyncSeconds: 5 };
    a = await startServer(opts);
    b = await startServer(opts);
    ca = new Client(a.url, a.caCert, a.adminToken, 64);
    cb = new Client(b.url, b.caCert, b.adminToken, 64);
  });
  let aClosed = false;
  after(async () => {
    ca?.close();
    cb?.close();
    if (!aClosed) await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serve one cluster: one CA, one admin token, the same objects', async () => {
    assert.equal(a.caCert, b.caCert);
    assert.equal(a.adminToken, b.adminToken);
    const r = await ca.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shared' } });
    assert.equal(r.status, 201, r.text);
    const got = await cb.request('GET', '/api/v1/namespaces/shared');
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json().metadata.uid, r.json().metadata.uid);
  });

  it('a watch on one server sees a create made on the other, at the creating server\'s resourceVersion', async () => {
    const list = (await cb.request('GET', '/api/v1/namespaces/shared/configmaps')).json();
    const lines: string[] = [];
    const watch = watchLines(b, `/api/v1/namespaces/shared/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`, (line) => lines.push(line));
    try {
      const created = await ca.request('POST', '/api/v1/namespaces/shared/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-a' }, data: { k: 'v' } });
      assert.equal(created.status, 201, created.text);
      await waitFor('the ADDED event on the other server', () => lines.some((l) => l.includes('"from-a"')));
      const event = JSON.parse(lines.find((l) => l.includes('"from-a"'))!);
      assert.equal(event.type, 'ADDED');
      assert.equal(event.object.metadata.resourceVersion, created.json().metadata.resourceVersion);
    } finally {
      watch.close();
    }
  });

  it('kubectl get --watch on one server prints a pod created on the other', { skip: kubectlMissing }, async () => {
    const kcfg = join(dir, 'kubeconfig-b');
    writeFileSync(kcfg, kubeconfig(b.url, b.caCert, 'bulkhead-admin', b.adminToken), { mode: 0o600 });
    // A pod made beforehand shows that kubectl's list is done and its watch has started.
    assert.equal((await ca.request('POST', '/api/v1/namespaces/shared/pods', podBody('listed'))).status, 201);
    const proc = spawn('kubectl', ['--kubeconfig', kcfg, 'get', 'pods', '-n', 'shared', '--watch', '-o', 'name'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise((r) => proc.once('exit', r));
    try {
      await waitFor('kubectl to list and start watching', () => /pod\/listed/.test(out) || proc.exitCode !== null);
      assert.equal(proc.exitCode, null, `kubectl exited: ${out}`);
      const r = await ca.request('POST', '/api/v1/namespaces/shared/pods', podBody('seen-by-kubectl'));
      assert.equal(r.status, 201, r.text);
      await waitFor('kubectl on the other server to print the event', () => /pod\/seen-by-kubectl/.test(out) || proc.exitCode !== null);
      assert.match(out, /pod\/seen-by-kubectl/);
    } finally {
      proc.kill('SIGTERM');
      await exited;
    }
  });

  it('history compacted through one server answers a watch on the other from before it with 410 Gone', async () => {
    const old = (await cb.request('GET', '/api/v1/namespaces/shared/configmaps')).json().metadata.resourceVersion;
    assert.equal((await ca.request('POST', '/api/v1/namespaces/shared/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-old' } })).status, 201);
    await a.store.compact(await a.store.currentRevision());
    assert.equal(await b.store.compactRevision(), await a.store.compactRevision());
    const lines: string[] = [];
    const watch = watchLines(b, `/api/v1/namespaces/shared/configmaps?watch=1&resourceVersion=${old}`, (line) => lines.push(line));
    try {
      await waitFor('the ERROR event', () => lines.length > 0);
      const event = JSON.parse(lines[0]!);
      assert.equal(event.type, 'ERROR');
      assert.equal(event.object.code, 410);
      assert.equal(event.object.reason, 'Expired');
    } finally {
      watch.close();
    }
  });

  it('200 concurrent creates spread over both servers against pods: 50 admit exactly 50', async () => {
    const ns = 'race';
    assert.equal((await ca.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
    const q = await cb.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '50' } } });
    assert.equal(q.status, 201, q.text);
    for (const c of [ca, cb]) await waitFor('quota status on both servers', async () => (await c.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json().status?.used !== undefined);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? ca : cb).request('POST', `/api/v1/namespaces/${ns}/pods`, podBody(`p${i}`))));
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 403);
    const other = results.filter((r) => r.status !== 201 && r.status !== 403);
    assert.equal(created.length, 50, `${created.length} admitted; other answers: ${other.map((r) => `${r.status} ${r.text}`).join('\n')}`);
    assert.equal(refused.length, 150, other.map((r) => `${r.status} ${r.text}`).join('\n'));
    assert.match(refused[0]!.json().message, /exceeded quota: q, requested: pods=1, used: pods=50, limited: pods=50$/);
    // Even-numbered requests went to the first server, odd ones to the second: both admitted some.
    const admittedBy = new Set(results.flatMap((r, i) => (r.status === 201 ? [i % 2] : [])));
    assert.deepEqual([...admittedBy].sort(), [0, 1]);
    for (const c of [ca, cb]) {
      const list = (await c.request('GET', `/api/v1/namespaces/${ns}/pods`)).json();
      assert.equal(list.items.length, 50);
      const quota = (await c.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json();
      assert.equal(quota.status.used.pods, '50');
    }
  });

  // Last: it stops the first server.
  it('one server runs the controllers and the scheduler; when it stops, the other takes over', async () => {
    assert.deepEqual(a.leading(), { controllers: true, scheduler: true });
    assert.deepEqual(b.leading(), { controllers: false, scheduler: false });
    ca.close();
    aClosed = true;
    await a.close();
    await waitFor('the second server to lead', () => b.leading().controllers && b.leading().scheduler);
    // Its controllers run: a new namespace gets its default ServiceAccount.
    assert.equal((await cb.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-failover' } })).status, 201);
    await waitFor('the default ServiceAccount', async () => (await cb.request('GET', '/api/v1/namespaces/after-failover/serviceaccounts/default')).status === 200);
  });
});
