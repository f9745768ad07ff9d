// The watch cache (watchcache.ts) answers what the store path of rest.ts answers: the same
// items, resourceVersion and continue tokens for every list option it serves, the same watch
// events for every watch option, the same errors; it hands the reads it cannot answer exactly
// back to the store; and one event is encoded once for all its watchers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject, Pod } from '../../src/api/types.js';
import { BodyWriter, EncodedObject, encodeList, encodeTable, type Body, type EventLines } from '../../src/apiserver/encoding.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { Api, type ListOptions, type WatchEventType } from '../../src/apiserver/rest.js';
import { StatusError } from '../../src/apiserver/status.js';
import { escapeHTML } from '../../src/apiserver/jsontext.js';
import { toTable } from '../../src/apiserver/tables.js';
import { ObjectCache } from '../../src/apiserver/cache.js';
import { Cacher } from '../../src/apiserver/watchcache.js';
import { MemoryStore } from '../../src/storage/index.js';

const pods = findResource('', 'v1', 'pods')!;
const configmaps = findResource('', 'v1', 'configmaps')!;
const key = (ns: string, name: string) => storageKey(pods, ns, name);
const pod = (ns: string, name: string, labels: Record<string, string> = {}, phase?: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels, uid: `uid-${name}` }, spec: { containers: [{ name: 'c', image: 'busybox' }] }, ...(phase ? { status: { phase } } : {}) });

async function setup(historyCapacity?: number) {
  const store = new MemoryStore();
  const api = new Api({ store, gates: defaultFeatureGates });
  const cacher = new Cacher(store, { historyCapacity });
  // Started first: it keeps every change below.
  await cacher.list(pods, undefined, {});
  await store.create(key('a', 'web-1'), pod('a', 'web-1', { app: 'web' }, 'Running'));
  await store.create(key('a', 'web-2'), pod('a', 'web-2', { app: 'web' }, 'Pending'));
  await store.create(key('a', 'db-1'), pod('a', 'db-1', { app: 'db' }, 'Running'));
  await store.create(key('b', 'web-3'), pod('b', 'web-3', { app: 'web' }));
  await store.create(key('b', 'gone'), pod('b', 'gone'));
  return { store, api, cacher };
}

const plain = (o: unknown) => JSON.parse(JSON.stringify(o)) as unknown;
/** A body's bytes as one string (a piece may end inside a character). */
const text = (b: Body) => Buffer.concat(b.pieces).toString('utf8');

async function outcome<T>(f: () => Promise<T>): Promise<T | { error: number; message: string }> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof StatusError) return { error: e.code, message: e.status.message ?? '' };
    throw e;
  }
}

describe('watch cache: LIST', () => {
  it('answers every option it serves as the store does (items, resourceVersion, continue, errors)', async () => {
    const { store, api, cacher } = await setup();
    await store.update(key('a', 'web-2'), pod('a', 'web-2', { app: 'web' }, 'Running'));
    await store.delete(key('b', 'gone'));
    // A write elsewhere moves the store's revision past the pods' last change.
    await store.create(storageKey(configmaps, 'a', 'x'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'a' } }));
    const current = await store.currentRevision();
    const rows: { name: string; ns?: string; opts: ListOptions }[] = [
      { name: 'a consistent read (no resourceVersion) is at the store current revision', opts: {} },
      { name: 'resourceVersion=0', opts: { resourceVersion: '0' } },
      { name: 'one namespace', ns: 'a', opts: {} },
      { name: 'a label selector', opts: { labelSelector: 'app=web' } },
      { name: 'a set-based label selector', opts: { labelSelector: 'app in (db),app' } },
      { name: 'a field selector', opts: { fieldSelector: 'status.phase=Running' } },
      { name: 'a field selector on the namespace', opts: { fieldSelector: 'metadata.namespace!=a' } },
      { name: 'limit: the first page and its continue token', opts: { limit: 2 } },
      { name: 'limit with a selector', opts: { limit: 1, labelSelector: 'app=web' } },
      { name: 'limit as large as the list: no continue', opts: { limit: 4 } },
      { name: 'NotOlderThan the current revision', opts: { resourceVersion: String(current), resourceVersionMatch: 'NotOlderThan' } },
      { name: 'a resourceVersion not newer than the current one', opts: { resourceVersion: '3' } },
      { name: 'Exact at the current revision', opts: { resourceVersion: String(current), resourceVersionMatch: 'Exact' } },
      { name: 'a future resourceVersion: 504', opts: { resourceVersion: String(current + 10) } },
      { name: 'a resourceVersion that is not a number: 400', opts: { resourceVersion: 'x' } },
      { name: 'an unknown field selector: 400', opts: { fieldSelector: 'spec.nope=1' } },
      { name: 'a continue token that is not base64 JSON: 400', opts: { continue: '!!' } },
    ];
    for (const r of rows) {
      const want = await outcome(async () => plain(await api.list(pods, r.ns, r.opts)));
      const got = await outcome(async () => {
        const c = await cacher.list(pods, r.ns, r.opts);
        assert.ok(c, `${r.name}: served by the cache`);
        const body = JSON.parse(text(encodeList('v1', 'PodList', {}, c.items))) as { items: unknown[] };
        return plain({ items: body.items, resourceVersion: c.resourceVersion, ...(c.continue ? { continue: c.continue } : {}) });
      });
      assert.deepEqual(got, want, r.name);
    }
    cacher.stop();
  });

  it('pages with continue from the cache while nothing changed, and hands the page to the store once something did', async () => {
    const { store, api, cacher } = await setup();
    const first = (await cacher.list(pods, undefined, { limit: 2 }))!;
    const next = await cacher.list(pods, undefined, { limit: 2, continue: first.continue });
    assert.deepEqual(plain(next!.items.map((e) => e.obj)), plain((await api.list(pods, undefined, { limit: 2, continue: first.continue })).items));
    await store.update(key('b', 'web-3'), pod('b', 'web-3', { app: 'other' }));
    const rows: { name: string; opts: ListOptions }[] = [
      { name: 'a continue token from before a change', opts: { limit: 2, continue: first.continue } },
      { name: 'Exact at a revision before the last change', opts: { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' } },
      { name: 'an unknown resourceVersionMatch', opts: { resourceVersion: '1', resourceVersionMatch: 'Sometimes' } },
    ];
    for (const r of rows) assert.equal(await cacher.list(pods, undefined, r.opts), undefined, r.name);
    // The store answers the old page as it was (web-3 still labelled app=web).
    const old = await api.list(pods, undefined, { limit: 10, continue: first.continue });
    assert.equal(old.items.find((o) => o.metadata?.name === 'web-3')?.metadata?.labels?.app, 'web');
    cacher.stop();
  });

  it('a continue token at a compacted revision is the store\'s (410 Gone), even when the cache has not changed', async () => {
    const { store, cacher } = await setup();
    const first = (await cacher.list(pods, undefined, { limit: 2 }))!;
    await store.create(storageKey(configmaps, 'a', 'x'), '{}');
    await store.compact(await store.currentRevision());
    assert.equal(await cacher.list(pods, undefined, { limit: 2, continue: first.continue }), undefined);
    cacher.stop();
  });

  it('encodes a Table as toTable does, for each includeObject', async () => {
    const { cacher } = await setup();
    const c = (await cacher.list(pods, undefined, { limit: 3 }))!;
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const include of ['None', 'Metadata', 'Object'] as const) {
      for (const withColumns of [undefined, false]) {
        const want = toTable('pods', c.items.map((e) => e.obj), { include, now, resourceVersion: c.resourceVersion, withColumns });
        want.metadata.continue = c.continue;
        const got = JSON.parse(text(encodeTable('pods', c.items, { include, now, resourceVersion: c.resourceVersion, continue: c.continue, withColumns }))) as unknown;
        assert.deepEqual(got, plain(want), `${include} ${String(withColumns)}`);
      }
    }
    cacher.stop();
  });
});

describe('watch cache on a store whose current revision may not be delivered yet (etcd)', () => {
  it('hands consistent reads and reads newer than the cache to the store, serves the rest, and skips what a watch started after', async () => {
    const store = new MemoryStore();
    const cacher = new Cacher(store, { deliversOnCommit: false });
    await store.create(key('a', 'p'), pod('a', 'p'));
    assert.ok(await cacher.list(pods, undefined, { resourceVersion: '0' }));
    const cached = await store.currentRevision();
    // A write the cache's feed has not shown it (here: another resource) moves the store ahead.
    await store.create(storageKey(configmaps, 'a', 'x'), '{}');
    const current = await store.currentRevision();
    const rows: { name: string; opts: ListOptions; served: boolean }[] = [
      { name: 'a consistent read goes to the store', opts: {}, served: false },
      { name: 'resourceVersion=0 is served, at the cache revision', opts: { resourceVersion: '0' }, served: true },
      { name: 'NotOlderThan what the cache has is served', opts: { resourceVersion: String(cached) }, served: true },
      { name: 'NotOlderThan a revision the cache has not seen goes to the store', opts: { resourceVersion: String(current) }, served: false },
    ];
    for (const r of rows) assert.equal(!!(await cacher.list(pods, undefined, r.opts)), r.served, r.name);
    assert.equal(await cacher.watch(pods, undefined, {}, collector().sink), undefined, 'a consistent watch start goes to the store');
    const w = collector();
    await cacher.watch(pods, undefined, { resourceVersion: String(current) }, w.sink);
    await store.create(key('a', 'q'), pod('a', 'q'));
    assert.deepEqual(w.seen.map((e) => e.type), ['ADDED']);
    cacher.stop();
  });
});

describe('watch cache: LIST bodies are byte for byte the store path\'s', () => {
  // The store path (handler.ts) sends JSON.stringify of the list Api.list returns, or of
  // toTable's Table, Go-escaped (sendJSON); the cache path splices each object's kept UTF-8 into
  // pooled pieces. A pod's Table cells hold `<none>`, which both write as Go does: \u003cnone\u003e.
  // Objects with multi-byte characters and ones larger than a piece make strings and bytes
  // land across piece boundaries.
  async function unicodeSetup() {
    const s = await setup();
    const big = 'é€😀'.repeat(30_000);
    await s.store.create(key('a', 'uni'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'uni', namespace: 'a', labels: { app: 'web' }, annotations: { note: 'naïve – “quoted” ✓ 😀' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }));
    await s.store.create(key('a', 'web-big'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-big', namespace: 'a', labels: { app: 'web' }, annotations: { big } }, spec: { containers: [{ name: 'c', image: 'busybox', args: [big.slice(1)] }] } }));
    for (let i = 0; i < 60; i++) await s.store.create(key('c', `p-${i}`), pod('c', `p-${i}`, { app: i % 2 ? 'web' : 'db', 'ü': 'ø' }, i % 3 ? 'Running' : undefined));
    return s;
  }
  const listRows: { name: string; ns?: string; opts: ListOptions }[] = [
    { name: 'everything', opts: {} },
    { name: 'resourceVersion=0', opts: { resourceVersion: '0' } },
    { name: 'one namespace', ns: 'a', opts: {} },
    { name: 'a label selector', opts: { labelSelector: 'app=web' } },
    { name: 'a field selector', opts: { fieldSelector: 'status.phase=Running' } },
    { name: 'limit: a first page with a continue token', opts: { limit: 3 } },
    { name: 'limit with a label selector', opts: { limit: 2, labelSelector: 'app=web' } },
    { name: 'an empty list', opts: { labelSelector: 'app=none' } },
  ];

  it('as JSON, for every list option', async () => {
    const { api, cacher } = await unicodeSetup();
    for (const r of listRows) {
      const c = (await cacher.list(pods, r.ns, r.opts))!;
      const meta = { resourceVersion: c.resourceVersion, ...(c.continue ? { continue: c.continue } : {}) };
      const stored = await api.list(pods, r.ns, r.opts);
      assert.equal(stored.continue, c.continue, r.name);
      const want = Buffer.from(escapeHTML(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: stored.resourceVersion, ...(stored.continue ? { continue: stored.continue } : {}) }, items: stored.items })));
      const body = encodeList('v1', 'PodList', meta, c.items);
      assert.ok(Buffer.concat(body.pieces).equals(want), r.name);
      // The continue token's next page, from the cache too.
      if (c.continue) {
        const next = (await cacher.list(pods, r.ns, { ...r.opts, continue: c.continue }))!;
        const storedNext = await api.list(pods, r.ns, { ...r.opts, continue: c.continue });
        assert.ok(Buffer.concat(encodeList('v1', 'PodList', { resourceVersion: next.resourceVersion }, next.items).pieces).equals(Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: storedNext.resourceVersion }, items: storedNext.items }))), `${r.name}: next page`);
      }
      body.release();
    }
    cacher.stop();
  });

  it('as a Table, for each includeObject, with and without columns', async () => {
    const { api, cacher } = await unicodeSetup();
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const r of listRows) {
      const c = (await cacher.list(pods, r.ns, r.opts))!;
      const stored = await api.list(pods, r.ns, r.opts);
      for (const include of ['None', 'Metadata', 'Object'] as const) {
        for (const [withColumns, apiVersion] of [[undefined, undefined], [false, undefined], [undefined, 'meta.k8s.io/v1beta1']] as const) {
          const t = toTable('pods', stored.items, { include, now, resourceVersion: stored.resourceVersion, withColumns, apiVersion });
          if (stored.continue) t.metadata.continue = stored.continue;
          const body = encodeTable('pods', c.items, { include, now, resourceVersion: c.resourceVersion, continue: c.continue, withColumns, apiVersion });
          assert.ok(Buffer.concat(body.pieces).equals(Buffer.from(escapeHTML(JSON.stringify(t)))), `${r.name}: ${include} ${String(withColumns)} ${String(apiVersion)}`);
          body.release();
        }
      }
    }
    cacher.stop();
  });

  it('a body\'s pieces are not reused before its release, and are after', () => {
    const fill = (ch: string) => {
      const w = new BodyWriter();
      for (let i = 0; i < 100; i++) w.addBytes(Buffer.from(ch.repeat(2000)));
      w.add(ch);
      const b = { pieces: w.done(), release: () => w.release() };
      return b;
    };
    const a = fill('a');
    const before = Buffer.concat(a.pieces);
    const b = fill('b');
    assert.ok(Buffer.concat(a.pieces).equals(before), 'a second body leaves the first alone');
    assert.equal(Buffer.concat(b.pieces).toString(), 'b'.repeat(200_001));
    a.release();
    const c = fill('c');
    assert.equal(Buffer.concat(c.pieces).toString(), 'c'.repeat(200_001));
    assert.ok(c.pieces.some((p) => a.pieces.some((q) => p.buffer === q.buffer)), 'the released pieces were taken again');
    b.release();
    c.release();
  });
});

describe('encoding: an object JSON once', () => {
  const rows: { name: string; obj: KubeObject }[] = [
    { name: 'apiVersion, kind, metadata and more', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', labels: { x: '"y"' } }, spec: { containers: [] } } as KubeObject },
    { name: 'metadata first in the source', obj: { metadata: { name: 'a' }, kind: 'Pod', apiVersion: 'v1', status: {} } as KubeObject },
    { name: 'only metadata', obj: { metadata: { name: 'a' } } as KubeObject },
    { name: 'no metadata', obj: { apiVersion: 'v1', kind: 'Status' } as KubeObject },
    { name: 'nothing', obj: {} as KubeObject },
    { name: 'multi-byte characters before and in metadata', obj: { apiVersion: 'v1', kind: 'Pödé', metadata: { name: 'a', annotations: { x: '€😀' } }, spec: { y: 'ü' } } as KubeObject },
    { name: 'undefined members are left out', obj: { apiVersion: 'v1', kind: undefined, metadata: { name: 'a', uid: undefined }, spec: undefined } as unknown as KubeObject },
  ];
  for (const r of rows) {
    it(`${r.name}: bytes() parses to the object and metadataBytes() is its metadata's UTF-8`, () => {
      const e = new EncodedObject(r.obj);
      assert.deepEqual(JSON.parse(e.bytes().toString('utf8')), plain(r.obj));
      assert.ok(e.metadataBytes().equals(Buffer.from(JSON.stringify(r.obj.metadata ?? {}))));
    });
  }
});

interface Seen {
  type: WatchEventType;
  object: unknown;
}

function collector() {
  const seen: Seen[] = [];
  const lines: EventLines[] = [];
  let closed = false;
  return {
    seen,
    lines,
    get closed() {
      return closed;
    },
    sink: {
      send(type: WatchEventType, object: unknown, l?: EventLines) {
        seen.push({ type, object: plain(object) });
        if (l) {
          lines.push(l);
          // What the stream writes is the same event.
          assert.deepEqual(JSON.parse(l.line(type, undefined).toString()), { type, object: plain(object) });
          // And as a one-row Table (kubectl get -w), for each includeObject.
          for (const include of ['None', 'Metadata', 'Object'] as const) {
            for (const apiVersion of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1']) {
              const want = toTable('pods', [plain(object) as Pod], { include, now: 0, withColumns: false, apiVersion });
              assert.deepEqual(JSON.parse(l.line(type, { resource: 'pods', include, apiVersion, now: () => 0 }).toString()), { type, object: JSON.parse(JSON.stringify(want)) });
            }
          }
          // And as PartialObjectMetadata (a metadata informer's watch).
          assert.deepEqual(JSON.parse(l.line(type, { partial: 'meta.k8s.io/v1' }).toString()), { type, object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: (plain(object) as Pod).metadata } });
        }
      },
      close() {
        closed = true;
      },
    },
  };
}

describe('watch cache: WATCH', () => {
  it('sends the events the store path sends, for every option', async () => {
    const { store, api, cacher } = await setup();
    const setupRevision = await store.currentRevision();
    await store.update(key('a', 'web-1'), pod('a', 'web-1', { app: 'web' }, 'Succeeded'));
    const rows: { name: string; ns?: string; opts: ListOptions }[] = [
      { name: 'no resourceVersion: the current objects, then changes', opts: {} },
      { name: 'resourceVersion=0', opts: { resourceVersion: '0' } },
      { name: 'from a resourceVersion: the changes since', opts: { resourceVersion: String(setupRevision) } },
      { name: 'from an early resourceVersion', opts: { resourceVersion: '1' } },
      { name: 'one namespace', ns: 'a', opts: {} },
      { name: 'a label selector: leaving it is DELETED, entering it ADDED', opts: { labelSelector: 'app=web' } },
      { name: 'a field selector', opts: { resourceVersion: String(setupRevision), fieldSelector: 'status.phase=Running' } },
      { name: 'sendInitialEvents with bookmarks', opts: { sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: 'NotOlderThan' } },
      { name: 'sendInitialEvents=false', opts: { sendInitialEvents: false } },
      { name: 'a future resourceVersion: one ERROR', opts: { resourceVersion: '999' } },
    ];
    const watches = [];
    for (const r of rows) {
      const want = collector();
      const got = collector();
      const w1 = await api.watch(pods, r.ns, r.opts, want.sink);
      const w2 = await cacher.watch(pods, r.ns, r.opts, got.sink);
      assert.ok(w2, `${r.name}: served by the cache`);
      watches.push({ r, want, got, stop: () => (w1.cancel(), w2.cancel()) });
    }
    await store.create(key('a', 'web-9'), pod('a', 'web-9', { app: 'web' }, 'Running'));
    await store.update(key('a', 'web-9'), pod('a', 'web-9', { app: 'db' }, 'Running'));
    await store.update(key('a', 'db-1'), pod('a', 'db-1', { app: 'web' }, 'Pending'));
    await store.txn([], [{ op: 'delete', key: key('a', 'web-2') }, { op: 'put', key: key('b', 'new'), value: pod('b', 'new', { app: 'web' }) }]);
    await store.delete(key('a', 'web-9'));
    for (const { r, want, got, stop } of watches) {
      assert.deepEqual(got.seen, want.seen, r.name);
      assert.equal(got.closed, want.closed, r.name);
      stop();
    }
    cacher.stop();
  });

  it('encodes an event once for all its watchers', async () => {
    const { store, cacher } = await setup();
    const a = collector();
    const b = collector();
    const c = collector();
    await cacher.watch(pods, undefined, { sendInitialEvents: false }, a.sink);
    await cacher.watch(pods, 'a', { sendInitialEvents: false }, b.sink);
    await cacher.watch(pods, undefined, { sendInitialEvents: false, labelSelector: 'app' }, c.sink);
    await store.create(key('a', 'new'), pod('a', 'new', { app: 'x' }));
    assert.equal(a.lines.length, 1);
    assert.equal(b.lines[0], a.lines[0]);
    assert.equal(c.lines[0], a.lines[0]);
    assert.equal(b.lines[0]!.line('ADDED', undefined), a.lines[0]!.line('ADDED', undefined), 'the same bytes');
    cacher.stop();
  });

  it('hands a watch from before the changes it keeps to the store', async () => {
    const { store, api, cacher } = await setup(2);
    await cacher.list(pods, undefined, {});
    const from = await store.currentRevision();
    for (let i = 0; i < 5; i++) await store.create(key('c', `p${i}`), pod('c', `p${i}`));
    assert.equal(await cacher.watch(pods, undefined, { resourceVersion: String(from) }, collector().sink), undefined);
    // The changes it still keeps it replays as the store does.
    const recent = String((await store.currentRevision()) - 1);
    const want = collector();
    const got = collector();
    (await api.watch(pods, undefined, { resourceVersion: recent }, want.sink)).cancel();
    (await cacher.watch(pods, undefined, { resourceVersion: recent }, got.sink))!.cancel();
    assert.deepEqual(got.seen, want.seen);
    assert.equal(got.seen.length, 1);
    cacher.stop();
  });
});

describe('watch cache: managedFields field sets', () => {
  it('objects with the same field set share one frozen copy of it, and encode as the store path does', async () => {
    const { store, api, cacher } = await setup();
    const fields = (app: string) => ({ 'f:metadata': { 'f:labels': { '.': {}, [`f:${app}`]: {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
    const managed = (name: string, app: string, time: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'm', uid: `uid-${name}`, labels: { [app]: 'x' }, managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: fields(app) }] },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      });
    await store.create(key('m', 'p1'), managed('p1', 'web', '2026-01-01T00:00:00Z'));
    await store.create(key('m', 'p2'), managed('p2', 'web', '2026-01-01T00:00:01Z'));
    await store.create(key('m', 'p3'), managed('p3', 'db', '2026-01-01T00:00:02Z'));
    const items = (await cacher.list(pods, 'm', {}))!.items;
    const sets = items.map((e) => e.obj.metadata!.managedFields![0]!.fieldsV1 as object);
    assert.equal(sets[0], sets[1], 'the same field set is one object');
    assert.notEqual(sets[0], sets[2], 'a different field set is its own');
    assert.ok(Object.isFrozen((sets[0] as Record<string, Record<string, unknown>>)['f:metadata']!['f:labels']), 'a shared set is frozen throughout');
    const direct = await api.list(pods, 'm', {});
    assert.deepEqual(
      items.map((e) => JSON.parse(e.bytes().toString('utf8')) as unknown),
      direct.items.map((o) => plain(o)),
    );
    cacher.stop();
  });
});

describe('watch cache: objects another cache decoded first', () => {
  it('takes the admission cache\'s object of each write (quotas, namespaces defaulted on read) and serves the same LIST and WATCH bytes as a cache decoding its own', async () => {
    const quotas = findResource('', 'v1', 'resourcequotas')!;
    const namespaces = findResource('', 'v1', 'namespaces')!;
    const quota = (name: string, used: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name, namespace: 'q', uid: `uid-${name}`, managedFields: [{ manager: 'bulkhead', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:used': { 'f:pods': {} } } } }] },
        spec: { hard: { pods: '10' } },
        status: { hard: { pods: '10' }, used: { pods: used } },
      });
    // A namespace stored without the name label its decoding adds (SetDefaults_Namespace).
    const namespace = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: `uid-${name}` }, spec: { finalizers: ['kubernetes'] } });
    const run = async (share: boolean) => {
      const store = new MemoryStore();
      // Started before the watch caches, as the server starts its admission caches.
      const admission = { quotas: new ObjectCache(store, quotas), namespaces: new ObjectCache(store, namespaces) };
      await admission.quotas.start();
      await admission.namespaces.start();
      const cacher = new Cacher(store);
      if (share) {
        cacher.shareDecoded(quotas, (kv) => admission.quotas.decodedAt(kv.key, kv.modRevision));
        cacher.shareDecoded(namespaces, (kv) => admission.namespaces.decodedAt(kv.key, kv.modRevision));
      }
      await store.create(storageKey(quotas, 'q', 'a'), quota('a', '0'));
      await store.create(storageKey(namespaces, undefined, 'q'), namespace('q'));
      await cacher.list(quotas, undefined, {});
      await cacher.list(namespaces, undefined, {});
      const events: string[] = [];
      const sink = (resource: string) => ({
        send(type: WatchEventType, _object: unknown, l?: EventLines) {
          events.push(`${resource} ${l!.line(type, undefined).toString()}`);
        },
        close() {},
      });
      const from = String(await store.currentRevision());
      await cacher.watch(quotas, undefined, { resourceVersion: from }, sink('quotas'));
      await cacher.watch(namespaces, undefined, { resourceVersion: from }, sink('namespaces'));
      for (let i = 1; i <= 3; i++) await store.update(storageKey(quotas, 'q', 'a'), quota('a', String(i)));
      await store.create(storageKey(quotas, 'q', 'b'), quota('b', '1'));
      await store.update(storageKey(namespaces, undefined, 'q'), namespace('q'));
      await store.create(storageKey(namespaces, undefined, 'r'), namespace('r'));
      await store.delete(storageKey(quotas, 'q', 'b'));
      const lists = [];
      for (const def of [quotas, namespaces]) lists.push(text(encodeList('v1', `${def.kind}List`, {}, (await cacher.list(def, undefined, {}))!.items)));
      const entries = [...(await cacher.list(quotas, undefined, {}))!.items, ...(await cacher.list(namespaces, undefined, {}))!.items];
      const held = [admission.quotas.get('q', 'a')?.obj, admission.namespaces.get(undefined, 'q')?.obj, admission.namespaces.get(undefined, 'r')?.obj];
      cacher.stop();
      admission.quotas.stop();
      admission.namespaces.stop();
      return { events, lists, entries, held };
    };
    const own = await run(false);
    const shared = await run(true);
    assert.deepEqual(shared.events, own.events, 'the same watch events');
    assert.deepEqual(shared.lists, own.lists, 'the same LIST bodies');
    assert.equal(own.events.length, 7);
    // Sharing happened: each object written since the caches started is the admission cache's, frozen throughout.
    for (const obj of shared.held) {
      assert.ok(shared.entries.some((e) => e.obj === obj), `${obj?.metadata?.name}: the watch cache holds the admission cache's object`);
      assert.ok(Object.isFrozen(obj!.metadata) && Object.isFrozen(obj!.metadata!.managedFields?.[0] ?? Object.freeze({})) && Object.isFrozen((obj as { spec: object }).spec), 'frozen deep');
    }
    assert.ok(own.held.every((obj) => !own.entries.some((e) => e.obj === obj)), 'without sharing, each cache decodes its own');
  });
});

describe('watch cache: what an update left as it was', () => {
  it('holds the previous state\'s copy of each unchanged member (and of the metadata\'s), and encodes every state as the store path does', async () => {
    const { store, api, cacher } = await setup();
    const k = key('a', 'web-1');
    const base = JSON.parse(pod('a', 'web-1', { app: 'web' }, 'Running')) as Pod;
    const w = collector();
    await cacher.watch(pods, 'a', { resourceVersion: String(await store.currentRevision()) }, w.sink);
    const before = (await cacher.list(pods, 'a', {}))!.items.find((e) => e.key === k)!.obj as Pod;
    const rows: { name: string; write: Pod; shared: string[]; own: string[] }[] = [
      { name: 'a status write keeps the spec and the labels', write: { ...base, status: { phase: 'Succeeded' } }, shared: ['spec', 'metadata.labels'], own: ['status'] },
      { name: 'a label change keeps the spec and the status', write: { ...base, metadata: { ...base.metadata, labels: { app: 'db' } }, status: { phase: 'Succeeded' } }, shared: ['spec', 'status'], own: ['metadata.labels'] },
      // The same members in another order encode differently: not shared.
      { name: 'the spec with its members reordered', write: { ...base, metadata: { ...base.metadata, labels: { app: 'db' } }, spec: { ...JSON.parse(JSON.stringify(base.spec)), containers: [{ image: 'busybox', name: 'c' }] }, status: { phase: 'Succeeded' } }, shared: ['status', 'metadata.labels'], own: ['spec'] },
      { name: 'an equal spec written again', write: { ...base, metadata: { ...base.metadata, labels: { app: 'db' } }, spec: { containers: [{ image: 'busybox', name: 'c' }] }, status: { phase: 'Succeeded' } }, shared: ['spec', 'status', 'metadata.labels'], own: [] },
    ];
    let prev = before;
    const at = (o: Pod, path: string) => path.split('.').reduce<unknown>((v, p) => (v as Record<string, unknown>)[p], o);
    for (const r of rows) {
      await store.update(k, JSON.stringify(r.write));
      const cur = (await cacher.list(pods, 'a', {}))!.items.find((e) => e.key === k)!;
      for (const path of r.shared) assert.equal(at(cur.obj as Pod, path), at(prev, path), `${r.name}: ${path} is the previous state's`);
      for (const path of r.own) assert.notEqual(at(cur.obj as Pod, path), at(prev, path), `${r.name}: ${path} is its own`);
      assert.ok(Object.isFrozen((cur.obj as Pod).spec) && Object.isFrozen((cur.obj as Pod).spec.containers[0]), `${r.name}: frozen deep`);
      assert.equal(cur.bytes().toString('utf8'), JSON.stringify(await api.get(pods, 'a', 'web-1')), `${r.name}: the store path's bytes`);
      prev = cur.obj as Pod;
    }
    assert.deepEqual(w.seen.map((e) => e.type), ['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
    cacher.stop();
  });
});
