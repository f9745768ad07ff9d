// A write hands the watch cache its own object in place of the value it stored (writehints.ts):
// what the cache then holds and serves is what decoding the stored value gives, member order
// included, and a hint stands in for nothing but the put it was offered for.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { decodeStored } from '../../src/apiserver/objects.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { Api, type RequestInfo } from '../../src/apiserver/rest.js';
import { StatusError } from '../../src/apiserver/status.js';
import { Cacher } from '../../src/apiserver/watchcache.js';
import { decodesToItself, WriteHints } from '../../src/apiserver/writehints.js';
import { MemoryStore } from '../../src/storage/index.js';

const configmaps = findResource('', 'v1', 'configmaps')!;
const namespaces = findResource('', 'v1', 'namespaces')!;
const req = (): RequestInfo => ({ user: { username: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Strict', warnings: [] }) as unknown as RequestInfo;

async function setup(batched: boolean) {
  const store = new MemoryStore();
  const api = new Api({ store, gates: defaultFeatureGates });
  const cacher = new Cacher(store);
  api.cacher = cacher;
  if (batched) api.strategies.set('configmaps', { serializeCreatesPerNamespace: true });
  await store.create(storageKey(namespaces, undefined, 'a'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
  await cacher.start(configmaps);
  return { store, api, cacher };
}

/** The cache's copy of a config map, and what decoding its stored value gives. */
async function cachedAndStored(api: Api, cacher: Cacher, name: string): Promise<{ cached: KubeObject; stored: KubeObject }> {
  const list = await cacher.list(configmaps, 'a', {});
  const cached = list!.items.find((e) => e.obj.metadata?.name === name)!.obj;
  const kv = await api.store.get(storageKey(configmaps, 'a', name));
  return { cached, stored: decodeStored(kv!) };
}

const cm = (name: string, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data: { k: 'v' } }) as KubeObject;

describe('write hints: the cache holds the writer object as the store value decodes', () => {
  for (const batched of [false, true]) {
    it(`a create (${batched ? 'batched per namespace' : 'one at a time'}): the cache holds the created object itself, encoding byte for byte as the stored value decodes`, async () => {
      const { api, cacher } = await setup(batched);
      const created = await api.create(configmaps, 'a', cm('one', { labels: { x: 'y' } }), req());
      const { cached, stored } = await cachedAndStored(api, cacher, 'one');
      assert.equal(cached, created, 'the writer object, not a second decoded copy');
      assert.equal(JSON.stringify(cached), JSON.stringify(stored));
      assert.ok(Object.isFrozen(cached.metadata));
      assert.equal(cacher.hints.size, 0);
    });
  }

  it('an update whose body carries resourceVersion among its metadata: the cache has it last, as decoded', async () => {
    const { api, cacher } = await setup(false);
    const created = await api.create(configmaps, 'a', cm('one'), req());
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', resourceVersion: created.metadata!.resourceVersion, labels: { x: 'z' } }, data: { k: 'w' } } as KubeObject;
    await api.update(configmaps, 'a', 'one', body, req());
    const { cached, stored } = await cachedAndStored(api, cacher, 'one');
    assert.equal(JSON.stringify(cached), JSON.stringify(stored));
    assert.deepEqual(Object.keys(cached.metadata!).at(-1), 'resourceVersion');
    assert.equal(cacher.hints.size, 0);
  });

  it('a create that loses (the name is taken) leaves no hint behind and the cache as it was', async () => {
    const { api, cacher } = await setup(false);
    await api.create(configmaps, 'a', cm('one', { labels: { first: 'yes' } }), req());
    await assert.rejects(api.create(configmaps, 'a', cm('one', { labels: { second: 'yes' } }), req()), (e) => e instanceof StatusError && e.code === 409);
    assert.equal(cacher.hints.size, 0);
    const { cached, stored } = await cachedAndStored(api, cacher, 'one');
    assert.deepEqual(cached.metadata?.labels, { first: 'yes' });
    assert.equal(JSON.stringify(cached), JSON.stringify(stored));
  });

  it('a batched create of a name the cache holds is refused as AlreadyExists without a write', async () => {
    const { api, store } = await setup(true);
    await api.create(configmaps, 'a', cm('one'), req());
    const before = await store.currentRevision();
    await assert.rejects(api.create(configmaps, 'a', cm('one'), req()), (e) => e instanceof StatusError && e.code === 409 && e.status.reason === 'AlreadyExists');
    assert.equal(await store.currentRevision(), before);
  });
});

describe('write hints: what a hint stands in for', () => {
  const kv = (key: string, value: string) => ({ key, value, createRevision: 1, modRevision: 1, version: 1 });
  const rows: { name: string; offer: [string, string]; event: [string, string]; taken: boolean }[] = [
    { name: 'the put of the same key and value takes it', offer: ['/k', '{"a":1}'], event: ['/k', '{"a":1}'], taken: true },
    { name: 'another value for the key does not', offer: ['/k', '{"a":1}'], event: ['/k', '{"a":2}'], taken: false },
    { name: 'another key does not', offer: ['/k', '{"a":1}'], event: ['/j', '{"a":1}'], taken: false },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const hints = new WriteHints({ verify: true });
      const obj = JSON.parse(row.offer[1]) as KubeObject;
      hints.offer(row.offer[0], row.offer[1], obj);
      assert.equal(hints.take(kv(...row.event)), row.taken ? obj : undefined);
      assert.equal(hints.size, row.taken ? 0 : 1);
      hints.withdraw(row.offer[0]);
      assert.equal(hints.size, 0);
    });
  }

  it('a hint is taken once: a second event with the same value decodes', () => {
    const hints = new WriteHints({ verify: true });
    const obj = { a: 1 } as unknown as KubeObject;
    hints.offer('/k', '{"a":1}', obj);
    assert.equal(hints.take(kv('/k', '{"a":1}')), obj);
    assert.equal(hints.take(kv('/k', '{"a":1}')), undefined);
  });

  const unfaithful: { name: string; value: string; obj: unknown }[] = [
    { name: 'an undefined member (dropped by the encoding)', value: '{"a":1}', obj: { a: 1, b: undefined } },
    { name: 'an undefined array item (null once encoded)', value: '{"a":[null]}', obj: { a: [undefined] } },
    { name: 'an array hole', value: '{"a":[null]}', obj: { a: new Array(1) } },
    { name: 'a non-plain object', value: '{"a":{}}', obj: { a: new Map() } },
    { name: 'a Date (a string once encoded)', value: '{"a":"2026-01-01T00:00:00.000Z"}', obj: { a: new Date(0) } },
    { name: 'an object without a prototype', value: '{"a":{}}', obj: { a: Object.create(null) as object } },
    { name: 'NaN (null once encoded)', value: '{"a":null}', obj: { a: NaN } },
    { name: '-0 (0 once encoded)', value: '{"a":0}', obj: { a: -0 } },
  ];
  for (const row of unfaithful) {
    it(`an object its value does not decode to is not offered (the cache decodes): ${row.name}`, () => {
      const hints = new WriteHints({ verify: true });
      hints.offer('/k', row.value, row.obj as KubeObject);
      assert.equal(hints.size, 0);
      assert.equal(decodesToItself(row.obj), false);
      assert.equal(decodesToItself(JSON.parse(row.value)), true);
    });
  }

  it('checking, an offer changed after its encoding is refused', () => {
    assert.throws(() => new WriteHints({ verify: true }).offer('/k', '{"a":1}', { a: 2 } as unknown as KubeObject), /is not what its stored value decodes to .* at \.a/);
  });

  it('checking, an object with resourceVersion (stored without it) is accepted', () => {
    const hints = new WriteHints({ verify: true });
    hints.offer('/k', '{"metadata":{"name":"x"}}', { metadata: { name: 'x', resourceVersion: '7' } } as KubeObject);
    assert.equal(hints.size, 1);
  });
});
