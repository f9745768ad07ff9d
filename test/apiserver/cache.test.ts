// ObjectCache: current as soon as a write resolves, indexes that follow objects between
// buckets, a filter and a transform as informers have them, listeners that see the previous
// state, a listener's failure kept away from the watch that feeds every reader, and a watch that
// ends (etcd lost, history compacted) followed by a new list and watch, as a reflector relists.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../src/api/types.js';
import { withoutManagedFields } from '../../src/api/cachetransforms.js';
import { ObjectCache, type CacheEventType, type HeldList } from '../../src/apiserver/cache.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { MemoryStore } from '../../src/storage/index.js';
import type { KeyValue, Store, WatchHandlers } from '../../src/storage/store.js';
import { Cacher } from '../../src/apiserver/watchcache.js';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.js';
import { LogStore } from '../../src/storage/engine.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const podsDef = findResource('', 'v1', 'pods')!;
const key = (name: string) => storageKey(podsDef, 'default', name);
const value = (name: string, node?: string, phase?: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [], ...(node ? { nodeName: node } : {}) }, ...(phase ? { status: { phase } } : {}) });
const byNode = (p: Pod) => (p.spec.nodeName && p.status?.phase !== 'Succeeded' ? p.spec.nodeName : undefined);
const names = (m: ReadonlyMap<string, Pod>) => [...m.values()].map((p) => p.metadata.name).sort();

describe('ObjectCache', () => {
  it('has every write by the time the write resolves, and starts from what is stored', async () => {
    const store = new MemoryStore();
    await store.create(key('old'), value('old'));
    const c = new ObjectCache<Pod>(store, podsDef);
    await c.start();
    assert.equal(c.get('default', 'old')?.obj.metadata.name, 'old');
    const kv = await store.create(key('new'), value('new', 'n1'));
    assert.equal(c.get('default', 'new')?.modRevision, kv.modRevision);
    assert.equal(c.get('default', 'new')?.obj.metadata.resourceVersion, String(kv.modRevision));
    assert.ok(Object.isFrozen(c.get('default', 'new')!.obj));
    assert.equal(c.size, 2);
    c.stop();
  });

  it('keeps an index current through adds, moves, bucket exits and deletes', async () => {
    const store = new MemoryStore();
    await store.create(key('a'), value('a', 'n1'));
    const c = new ObjectCache<Pod>(store, podsDef);
    await c.start();
    c.addIndex('node', byNode);
    const steps: { name: string; write: () => Promise<unknown>; want: Record<string, string[]> }[] = [
      { name: 'built from the current contents', write: async () => undefined, want: { n1: ['a'], n2: [] } },
      { name: 'an added object joins its bucket', write: () => store.create(key('b'), value('b', 'n1')), want: { n1: ['a', 'b'], n2: [] } },
      { name: 'an object without a value is in no bucket', write: () => store.create(key('c'), value('c')), want: { n1: ['a', 'b'], n2: [] } },
      { name: 'a change of value moves it', write: () => store.update(key('b'), value('b', 'n2')), want: { n1: ['a'], n2: ['b'] } },
      { name: 'a change to no value takes it out', write: () => store.update(key('a'), value('a', 'n1', 'Succeeded')), want: { n1: [], n2: ['b'] } },
      { name: 'a delete takes it out', write: () => store.delete(key('b')), want: { n1: [], n2: [] } },
      { name: 'a value gained puts it in', write: () => store.update(key('c'), value('c', 'n2')), want: { n1: [], n2: ['c'] } },
    ];
    for (const s of steps) {
      await s.write();
      for (const [bucket, want] of Object.entries(s.want)) assert.deepEqual(names(c.byIndex('node', bucket)), want, `${s.name}: ${bucket}`);
    }
    c.stop();
  });

  it('holds only what `keep` accepts (leaving as DELETED) and transforms what it holds', async () => {
    const store = new MemoryStore();
    const withFields = (name: string, phase?: string) => JSON.stringify({ ...JSON.parse(value(name, 'n1', phase)), metadata: { name, namespace: 'default', managedFields: [{ manager: 'x' }] } });
    await store.create(key('done'), withFields('done', 'Succeeded'));
    const c = new ObjectCache<Pod>(store, podsDef, { keep: (p) => p.status?.phase !== 'Succeeded', transform: withoutManagedFields });
    await c.start();
    const seen: [CacheEventType, string | undefined][] = [];
    c.subscribe((type, obj) => seen.push([type, obj.status?.phase]));
    assert.equal(c.get('default', 'done'), undefined);
    await store.create(key('live'), withFields('live', 'Running'));
    assert.equal(c.get('default', 'live')?.obj.metadata.managedFields, undefined);
    await store.update(key('live'), withFields('live', 'Succeeded'));
    assert.equal(c.get('default', 'live'), undefined);
    // The last state held is what listeners get for the departure.
    assert.deepEqual(seen, [
      ['ADDED', 'Running'],
      ['DELETED', 'Running'],
    ]);
    c.stop();
  });

  it('holds the watch cache\'s object for a write the cache has (one decoded copy), and decodes its own for one it has not', async () => {
    const store = new MemoryStore();
    await store.create(key('before'), value('before', 'n1'));
    const cacher = new Cacher(store);
    await cacher.start(podsDef);
    const c = new ObjectCache<Pod>(store, podsDef, { keep: (p) => !!p.spec.nodeName, decoded: cacher.decoded(podsDef) as (kv: KeyValue) => Pod | undefined });
    await c.start();
    await store.create(key('after'), value('after', 'n1'));
    await store.create(key('pending'), value('pending'));
    const listed = await cacher.list(podsDef, 'default', {});
    for (const name of ['before', 'after']) {
      assert.equal(c.get('default', name)?.obj, listed?.items.find((e) => e.obj.metadata?.name === name)?.obj, `${name}: the cache's object`);
    }
    assert.equal(c.get('default', 'pending'), undefined, 'keep still decides');
    // A store without the pods' cache (stopped): the cache decodes its own copy.
    cacher.stop();
    await store.update(key('after'), value('after', 'n2'));
    assert.equal(c.get('default', 'after')?.obj.spec.nodeName, 'n2');
    c.stop();
  });

  it('starts from the watch cache\'s snapshot without listing the store, and watches from its revision (a write in between is not lost)', async () => {
    const store = new MemoryStore();
    await store.create(key('bound'), value('bound', 'n1'));
    await store.create(key('pending'), value('pending'));
    const cacher = new Cacher(store);
    await cacher.start(podsDef);
    const held = cacher.snapshot(podsDef)!;
    assert.deepEqual(held.items.map((e) => e.obj.metadata?.name), ['bound', 'pending']);
    // Written after the snapshot was taken, before the cache watches: the watch from its revision replays it.
    await store.create(key('between'), value('between', 'n1'));
    const lists: string[] = [];
    const list = store.list.bind(store);
    store.list = async (...args: Parameters<Store['list']>) => (lists.push(args[0]), list(...args));
    const c = new ObjectCache<Pod>(store, podsDef, { keep: (p) => !!p.spec.nodeName, decoded: cacher.decoded(podsDef) as (kv: KeyValue) => Pod | undefined, initial: () => held as unknown as HeldList<Pod> });
    await c.start();
    assert.deepEqual(lists, [], 'no list of the store');
    assert.equal(c.get('default', 'bound')?.obj, held.items[0]!.obj, 'the snapshot\'s object, shared');
    assert.equal(c.get('default', 'pending'), undefined, 'keep still decides');
    await store.create(key('after'), value('after', 'n1'));
    assert.deepEqual(c.list('default').map((o) => o.obj.metadata.name), ['after', 'between', 'bound']);
    c.stop();
    cacher.stop();
  });

  it('without a snapshot (the watch cache not started) lists the store as before', async () => {
    const store = new MemoryStore();
    await store.create(key('bound'), value('bound', 'n1'));
    const cacher = new Cacher(store);
    assert.equal(cacher.snapshot(podsDef), undefined);
    const c = new ObjectCache<Pod>(store, podsDef, { initial: () => cacher.snapshot(podsDef) as HeldList<Pod> | undefined });
    await c.start();
    assert.equal(c.get('default', 'bound')?.obj.metadata.name, 'bound');
    c.stop();
  });

  it('tells listeners the change, the new state and the previous one; a throwing listener stops nothing', async () => {
    const store = new MemoryStore();
    const c = new ObjectCache<Pod>(store, podsDef);
    await c.start();
    const seen: [CacheEventType, string | undefined, string | undefined][] = [];
    c.subscribe(() => {
      throw new Error('listener bug');
    });
    const stopListening = c.subscribe((type, obj, old) => seen.push([type, obj.spec.nodeName, old?.spec.nodeName]));
    const error = console.error;
    console.error = () => undefined;
    try {
      await store.create(key('p'), value('p'));
      await store.update(key('p'), value('p', 'n1'));
      await store.delete(key('p'));
    } finally {
      console.error = error;
    }
    stopListening();
    await store.create(key('q'), value('q'));
    assert.deepEqual(seen, [
      ['ADDED', undefined, undefined],
      ['MODIFIED', 'n1', undefined],
      ['DELETED', 'n1', 'n1'],
    ]);
    assert.equal(c.get('default', 'q')?.obj.metadata.name, 'q');
    c.stop();
  });

  it('lists again when its watch ends, and tells listeners what changed meanwhile', async () => {
    const store = new MemoryStore();
    // The store's watch can be ended from outside, and its next list can be made to fail.
    let end: ((err: Error) => void) | undefined;
    let failLists = 0;
    const breakable: Store = Object.create(store, {
      watch: {
        value: async (prefix: string, rev: number, h: WatchHandlers) => {
          const w = await store.watch(prefix, rev, h);
          end = (err) => {
            w.cancel();
            h.error?.(err);
          };
          return w;
        },
      },
      list: {
        value: async (...args: Parameters<Store['list']>) => {
          if (failLists > 0) {
            failLists--;
            throw new Error('connection refused');
          }
          return store.list(...args);
        },
      },
    });
    await store.create(key('kept'), value('kept'));
    await store.create(key('changed'), value('changed'));
    await store.create(key('gone'), value('gone'));
    const c = new ObjectCache<Pod>(breakable, podsDef);
    await c.start();
    c.addIndex('node', byNode);
    const seen: string[] = [];
    let caughtUp!: () => void;
    const done = new Promise<void>((r) => (caughtUp = r));
    c.subscribe((type, obj) => {
      seen.push(`${type} ${obj.metadata.name}`);
      if (seen.length === 3) caughtUp();
    });
    const error = console.error;
    const logged: string[] = [];
    console.error = (m: string) => void logged.push(m);
    try {
      failLists = 1;
      end!(new Error('etcd: lost connection'));
      // Written while no watch runs: only the new list can show them.
      await store.create(key('added'), value('added'));
      await store.update(key('changed'), value('changed', 'n1'));
      await store.delete(key('gone'));
      await done;
    } finally {
      console.error = error;
    }
    assert.deepEqual(seen.sort(), ['ADDED added', 'DELETED gone', 'MODIFIED changed']);
    assert.deepEqual(c.list('default').map((o) => o.obj.metadata.name), ['added', 'changed', 'kept']);
    assert.deepEqual(names(c.byIndex('node', 'n1')), ['changed']);
    assert.ok(logged.some((m) => m.includes('watch ended (etcd: lost connection)')), logged.join('\n'));
    assert.ok(logged.some((m) => m.includes('list: connection refused')), 'the failed list is retried');
    // And the new watch delivers again.
    await store.create(key('later'), value('later'));
    assert.equal(c.get('default', 'later')?.obj.metadata.name, 'later');
    c.stop();
  });
});

describe('API server start', () => {
  // The watch cache of pods lists them; the node authorizer's bound-pods cache starts from its
  // snapshot instead of listing every pod a second time before the server listens.
  it('lists the stored pods once, and the bound-pods cache still has them and follows later writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-cache-start-'));
    const opts = { dataDir: join(dir, 'data'), store: `sqlite:${join(dir, 'bulkhead.db')}`, port: 0 };
    const pod = (name: string, nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...(nodeName ? { nodeName } : {}) } });
    const admin = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore' as const, warnings: [] };
    const first = await startApiServer(opts);
    try {
      // Admission looks the pods' ServiceAccount up (no controller makes it here).
      await first.api.create(first.api.def('serviceaccounts'), 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } }, { ...admin, warnings: [] });
      await first.api.create(first.api.def('pods'), 'default', pod('bound', 'n1'), { ...admin, warnings: [] });
      await first.api.create(first.api.def('pods'), 'default', pod('pending'), { ...admin, warnings: [] });
    } finally {
      await first.close();
    }
    const podsPrefix = storageKey(podsDef, undefined);
    const list = LogStore.prototype.list;
    let podLists = 0;
    LogStore.prototype.list = function (this: LogStore, ...args: Parameters<Store['list']>) {
      if (args[0] === podsPrefix) podLists++;
      return list.apply(this, args);
    };
    let s: RunningApiServer | undefined;
    try {
      s = await startApiServer(opts);
    } finally {
      LogStore.prototype.list = list;
    }
    try {
      assert.equal(podLists, 1, 'pods listed from the store at start');
      const bound = s.api.caches.get('boundpods') as unknown as ObjectCache<Pod>;
      assert.deepEqual(names(bound.byIndex('nodeName', 'n1')), ['bound']);
      await s.api.create(s.api.def('pods'), 'default', pod('later', 'n1'), { ...admin, warnings: [] });
      assert.deepEqual(names(bound.byIndex('nodeName', 'n1')), ['bound', 'later']);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
