// A batched create (serializeCreatesPerNamespace) asks whether its name is taken: the watch
// cache answers where one is current on commit, else the store; either way the answer is the
// store's state, AlreadyExists is refused before any write, and a deleted name is free again.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { findResource, storageKey } from '../../src/apiserver/resources.js';
import { Api, type RequestInfo } from '../../src/apiserver/rest.js';
import { StatusError } from '../../src/apiserver/status.js';
import { Cacher } from '../../src/apiserver/watchcache.js';
import { MemoryStore } from '../../src/storage/index.js';

const configmaps = findResource('', 'v1', 'configmaps')!;
const namespaces = findResource('', 'v1', 'namespaces')!;
const req = (): RequestInfo => ({ user: { username: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Strict', warnings: [] }) as unknown as RequestInfo;
const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }) as KubeObject;

async function setup(cached: boolean) {
  const store = new MemoryStore();
  const api = new Api({ store, gates: defaultFeatureGates });
  api.strategies.set('configmaps', { serializeCreatesPerNamespace: true });
  await store.create(storageKey(namespaces, undefined, 'a'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
  if (cached) {
    api.cacher = new Cacher(store);
    await api.cacher.start(configmaps);
  }
  return { store, api };
}

const alreadyExists = (e: unknown) => e instanceof StatusError && e.code === 409 && e.status.reason === 'AlreadyExists' && e.status.message === 'configmaps "one" already exists';

describe('a batched create of a taken name', () => {
  for (const cached of [true, false]) {
    const by = cached ? 'the watch cache' : 'the store (no cache)';
    it(`is AlreadyExists before any write, answered by ${by}`, async () => {
      const { store, api } = await setup(cached);
      await api.create(configmaps, 'a', cm('one'), req());
      const before = await store.currentRevision();
      await assert.rejects(api.create(configmaps, 'a', cm('one'), req()), alreadyExists);
      assert.equal(await store.currentRevision(), before);
    });

    it(`is free again once deleted, answered by ${by}`, async () => {
      const { api } = await setup(cached);
      await api.create(configmaps, 'a', cm('one'), req());
      await api.delete(configmaps, 'a', 'one', {}, req());
      const again = await api.create(configmaps, 'a', cm('one'), req());
      assert.equal(again.metadata?.name, 'one');
    });

    it(`taken by a write straight to the store (not through this Api) is seen, answered by ${by}`, async () => {
      const { store, api } = await setup(cached);
      await store.create(storageKey(configmaps, 'a', 'one'), JSON.stringify(cm('one')));
      await assert.rejects(api.create(configmaps, 'a', cm('one'), req()), alreadyExists);
    });
  }
});
