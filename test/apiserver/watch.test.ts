// Watch streams against a real server: a client that stops reading is cut off with its buffer
// bounded while a reading client on the same resource misses nothing (storage/cacher's slow
// watcher rule), BOOKMARK events, and the resourceVersion answers of a watch (too old, too new).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type TLSSocket } from 'node:tls';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/start.js';
import type { WatchEnd } from '../../src/apiserver/watchstream.js';
import { Client } from './client.js';

interface WatchEvent {
  type: string;
  object: { kind?: string; apiVersion?: string; metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number; reason?: string; message?: string; details?: unknown };
}

interface Harness {
  s: RunningServer;
  admin: Client;
  ends: WatchEnd[];
  stop(): Promise<void>;
}

async function harness(opts: Partial<ServerOptions>): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-watch-'));
  const ends: WatchEnd[] = [];
  const s = await startServer({
    dataDir: join(dir, 'data'),
    store: 'memory:',
    port: 0,
    scheduler: false,
    // No leader Lease renewals in the background: the cases count revisions.
    leaderElection: false,
    ...opts,
    extend: (h) => {
      const next = h.watch?.onEnd;
      h.watch = { ...h.watch, onEnd: (e) => (ends.push(e), next?.(e)) };
    },
  });
  const admin = new Client(s.url, s.caCert, s.adminToken);
  return {
    s,
    admin,
    ends,
    async stop() {
      admin.close();
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A reading watch client: every event, until `until` says stop or the server ends the stream. */
function watchStream(s: RunningServer, path: string, until: (e: WatchEvent, all: WatchEvent[]) => boolean = () => false, onHeaders?: () => void): Promise<{ status: number; events: WatchEvent[] }> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const req = request(new URL(path, s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}` } }, (res) => {
      onHeaders?.();
      let buf = '';
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode ?? 0, events });
      };
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let i;
        while (!done && (i = buf.indexOf('\n')) >= 0) {
          const e = JSON.parse(buf.slice(0, i)) as WatchEvent;
          buf = buf.slice(i + 1);
          events.push(e);
          if (until(e, events)) {
            finish();
            req.destroy();
          }
        }
      });
      res.on('end', finish);
      res.on('close', finish);
    });
    req.on('error', (e) => (events.length ? undefined : reject(e)));
    req.end();
  });
}

/** A watch client that reads the response headers and then nothing more. */
async function stalledWatch(s: RunningServer, path: string): Promise<{ socket: TLSSocket; ended: Promise<void> }> {
  const url = new URL(s.url);
  const socket = connect({ host: url.hostname, port: Number(url.port), ca: s.caCert, servername: 'localhost' });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve());
    socket.once('error', reject);
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${s.adminToken}\r\nAccept: application/json\r\n\r\n`);
  const head = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
  assert.match(head, /^HTTP\/1\.1 200 /);
  socket.pause();
  return { socket, ended };
}

const lease = (name: string, annotations: Record<string, string> = {}) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, annotations }, spec: {} });

describe('watch: a client that stops reading', () => {
  const bufferBytes = 256 * 1024;
  let h: Harness;
  before(async () => {
    h = await harness({ watchBufferBytes: bufferBytes });
  });
  after(() => h?.stop());

  it('is terminated with its buffer within the bound, counted, while a reading watcher gets every event', { timeout: 120_000 }, async () => {
    const { admin, s, ends } = h;
    assert.equal((await admin.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease('churn'))).status, 201);
    const rv = (await admin.request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases')).json().metadata.resourceVersion as string;
    const path = `/apis/coordination.k8s.io/v1/namespaces/default/leases?watch=true&resourceVersion=${rv}`;
    const stalled = await stalledWatch(s, path);
    const written: string[] = [];
    const reader = watchStream(s, path, (e) => e.object.metadata.name === 'end-marker');
    // Updates of 32 KiB each, until the stalled watcher has been cut off: the loopback socket
    // buffers take a few MiB first, so the cap is far above what termination needs.
    const payload = 'x'.repeat(32 * 1024);
    for (let i = 0; i < 1000 && !ends.some((e) => e.terminated); i++) {
      const r = await admin.request('PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/churn', lease('churn', { i: String(i), payload }));
      assert.equal(r.status, 200, r.text);
      written.push(r.json().metadata.resourceVersion);
    }
    const terminated = ends.filter((e) => e.terminated);
    assert.equal(terminated.length, 1, 'the stalled watcher was not terminated');
    assert.deepEqual({ group: terminated[0]!.group, resource: terminated[0]!.resource }, { group: 'coordination.k8s.io', resource: 'leases' });
    assert.ok(terminated[0]!.peakLiveBytes <= bufferBytes, `buffered ${terminated[0]!.peakLiveBytes} bytes, bound ${bufferBytes}`);
    // The stalled client, reading again, finds its stream ended by the server.
    stalled.socket.resume();
    await stalled.ended;
    const marker = (await admin.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease('end-marker'))).json().metadata.resourceVersion;
    const events = (await reader).events;
    assert.deepEqual(
      events.map((e) => [e.type, e.object.metadata.resourceVersion]),
      [...written.map((r) => ['MODIFIED', r]), ['ADDED', marker]],
    );
    const metrics = (await admin.request('GET', '/metrics')).text;
    assert.match(metrics, /^apiserver_terminated_watchers_total\{group="coordination.k8s.io",resource="leases"\} 1$/m);
  });

  it('a watch whose start replays more than the bound gets all of it and is not cut off', { timeout: 60_000 }, async () => {
    const { s, ends } = h;
    const before = ends.length;
    // Every update of the test above, replayed from the lease's creation: several MiB.
    const r = await watchStream(s, '/apis/coordination.k8s.io/v1/namespaces/default/leases?watch=true&resourceVersion=1', (e) => e.object.metadata.name === 'end-marker');
    const replayed = r.events.reduce((n, e) => n + JSON.stringify(e).length, 0);
    assert.ok(replayed > 4 * bufferBytes, `only ${replayed} bytes replayed`);
    assert.equal(r.events.at(-1)?.object.metadata.name, 'end-marker');
    assert.deepEqual(ends.slice(before).filter((e) => e.terminated), []);
  });
});

describe('watch: bookmarks and resourceVersion answers', () => {
  let fast: Harness;
  let plain: Harness;
  const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  let oldRV = 0;
  let compactRV = 0;
  before(async () => {
    // Bookmarks every 50 ms; compaction only when the test asks for it.
    fast = await harness({ watchBookmarkSeconds: 0.05, compactionSeconds: 0 });
    plain = await harness({ compactionSeconds: 0 });
    oldRV = await fast.s.store.currentRevision();
    for (const name of ['a', 'b']) assert.equal((await fast.admin.request('POST', leases, lease(name))).status, 201);
    compactRV = await fast.s.store.currentRevision();
    await fast.s.store.compact(compactRV);
  });
  after(async () => {
    await fast?.stop();
    await plain?.stop();
  });

  const bookmarkOf = (rv: number) => ({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { resourceVersion: String(rv) } });
  const tooLarge = (requested: number, current: number) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    reason: 'Timeout',
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    code: 504,
  });
  const cases: { name: string; run(): Promise<void> }[] = [
    {
      name: 'allowWatchBookmarks=true: periodic BOOKMARK events carry the kind with only metadata.resourceVersion',
      async run() {
        const rv = await fast.s.store.currentRevision();
        const r = await watchStream(fast.s, `${leases}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`, (_e, all) => all.filter((x) => x.type === 'BOOKMARK').length === 2);
        assert.equal(r.status, 200);
        assert.deepEqual(r.events, [
          { type: 'BOOKMARK', object: bookmarkOf(rv) },
          { type: 'BOOKMARK', object: bookmarkOf(rv) },
        ]);
      },
    },
    {
      name: 'a bookmark comes after the events it covers, with their resourceVersion',
      async run() {
        const rv = await fast.s.store.currentRevision();
        let created = '';
        const r = watchStream(fast.s, `${leases}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`, (e) => e.type === 'BOOKMARK' && e.object.metadata.resourceVersion === created);
        created = (await fast.admin.request('POST', leases, lease('bookmarked'))).json().metadata.resourceVersion;
        const events = (await r).events.filter((e) => e.type !== 'BOOKMARK' || e.object.metadata.resourceVersion === created);
        assert.deepEqual(events.map((e) => [e.type, e.object.metadata.resourceVersion]), [['ADDED', created], ['BOOKMARK', created]]);
      },
    },
    ...['', '&allowWatchBookmarks=false'].map((q) => ({
      name: `no BOOKMARK events unless asked for (${q || 'parameter absent'})`,
      async run() {
        const rv = await fast.s.store.currentRevision();
        const r = await watchStream(fast.s, `${leases}?watch=true&resourceVersion=${rv}&timeoutSeconds=1${q}`);
        assert.equal(r.status, 200);
        assert.deepEqual(r.events, []);
      },
    })),
    {
      name: 'with the default interval, the one bookmark comes shortly before timeoutSeconds ends the watch',
      async run() {
        const rv = await plain.s.store.currentRevision();
        const r = await watchStream(plain.s, `${leases}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=3`);
        assert.deepEqual(r.events, [{ type: 'BOOKMARK', object: bookmarkOf(rv) }]);
      },
    },
    {
      name: 'a watch from a compacted resourceVersion is a 200 stream with one ERROR event: 410 Expired, too old resource version',
      async run() {
        const r = await watchStream(fast.s, `${leases}?watch=true&resourceVersion=${oldRV}`);
        assert.equal(r.status, 200);
        assert.deepEqual(r.events, [
          { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${oldRV} (${compactRV})`, reason: 'Expired', code: 410 } },
        ]);
      },
    },
    {
      name: 'a watch from a future resourceVersion is a 200 stream with one ERROR event: 504 Too large resource version',
      async run() {
        const current = await fast.s.store.currentRevision();
        const r = await watchStream(fast.s, `${leases}?watch=true&resourceVersion=${current + 100}&allowWatchBookmarks=true`);
        assert.equal(r.status, 200);
        assert.deepEqual(r.events, [{ type: 'ERROR', object: tooLarge(current + 100, current) }]);
      },
    },
    {
      name: 'a list from a future resourceVersion answers 504 with the same Status',
      async run() {
        const current = await fast.s.store.currentRevision();
        const r = await fast.admin.request('GET', `${leases}?resourceVersion=${current + 100}`);
        assert.equal(r.status, 504);
        assert.deepEqual(r.json(), tooLarge(current + 100, current));
      },
    },
    {
      name: 'sendInitialEvents=true: the current objects as ADDED, a BOOKMARK annotated k8s.io/initial-events-end at their resourceVersion, then live events',
      async run() {
        const ns = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';
        for (const name of ['i1', 'i2']) assert.equal((await plain.admin.request('POST', ns, lease(name))).status, 201);
        const listRV = await plain.s.store.currentRevision();
        let live = '';
        const r = await watchStream(plain.s, `${ns}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`, (e) => {
          if (e.type === 'BOOKMARK') void plain.admin.request('POST', ns, lease('live')).then((x) => (live = x.json().metadata.resourceVersion));
          return e.object.metadata.name === 'live';
        });
        assert.deepEqual(
          r.events.map((e) => [e.type, e.object.metadata.name ?? '', e.object.metadata.resourceVersion, e.object.metadata.annotations]),
          [
            // The leases are created with `annotations: {}`, which is omitted as Go omits it.
            ['ADDED', 'i1', String(listRV - 1), undefined],
            ['ADDED', 'i2', String(listRV), undefined],
            ['BOOKMARK', '', String(listRV), { 'k8s.io/initial-events-end': 'true' }],
            ['ADDED', 'live', live || String(listRV + 1), undefined],
          ],
        );
      },
    },
    {
      name: 'sendInitialEvents=false without a resourceVersion: no initial events, changes from now on',
      async run() {
        const ns = '/apis/coordination.k8s.io/v1/namespaces/kube-public/leases';
        assert.equal((await plain.admin.request('POST', ns, lease('existing'))).status, 201);
        const r = await watchStream(
          plain.s,
          `${ns}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
          (e) => e.object.metadata.name === 'new',
          () => void plain.admin.request('POST', ns, lease('new')),
        );
        assert.deepEqual(r.events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'new']]);
      },
    },
    ...[
      { query: 'sendInitialEvents=true', errors: ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'] },
      { query: 'resourceVersionMatch=NotOlderThan', errors: ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'] },
      {
        query: 'sendInitialEvents=true&resourceVersionMatch=Exact',
        errors: ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', 'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'],
      },
    ].map(({ query, errors }) => ({
      name: `watch options are validated as ValidateListOptions does: ${query} is 422 Invalid`,
      async run() {
        const r = await fast.admin.request('GET', `${leases}?watch=true&${query}`);
        assert.equal(r.status, 422);
        const st = r.json();
        assert.equal(st.reason, 'Invalid');
        assert.equal(st.message, `ListOptions.meta.k8s.io "" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
        assert.deepEqual({ group: st.details.group, kind: st.details.kind, fields: st.details.causes.map((c: { field: string }) => c.field) }, { group: 'meta.k8s.io', kind: 'ListOptions', fields: errors.map(() => 'resourceVersionMatch') });
      },
    })),
    {
      name: 'a watch the request itself makes impossible (unknown field selector) answers its HTTP status, not a stream',
      async run() {
        const r = await fast.admin.request('GET', `${leases}?watch=true&fieldSelector=spec.bogus%3D1`);
        assert.equal(r.status, 400);
        assert.equal(r.json().reason, 'BadRequest');
      },
    },
  ];
  for (const c of cases) it(c.name, { timeout: 30_000 }, () => c.run());
});
