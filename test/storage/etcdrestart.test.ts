// An etcd that crashes and comes back (SIGKILL, then the same member on the same ports and data
// dir): the store's watch feed resumes from the last revision it delivered, so a watch opened
// before the crash gets every later change exactly once, in order, and the store's own writes
// resolve again (they wait for the feed to deliver them).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EtcdStore } from '../../src/storage/etcd.js';
import { KeyExistsError, type WatchEvent } from '../../src/storage/store.js';
import { waitFor } from '../apiserver/childserver.js';
import { etcdMissing, startEtcd, type TestEtcd } from './etcdserver.js';

/** A create retried while the member is coming back; a retry that finds the key made means the first try landed. */
async function createRetrying(store: EtcdStore, key: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await store.create(key, 'v');
      return;
    } catch (e) {
      if (e instanceof KeyExistsError) return;
      if (i >= 100) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe('etcd store across an etcd crash and restart', { skip: etcdMissing() }, () => {
  let etcd: TestEtcd;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    await etcd?.stop();
  });

  it('a watch from before the crash gets every later change once, in order; writes resolve again', async () => {
    const watching = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/restart' });
    const writer = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/restart' });
    try {
      const events: WatchEvent[] = [];
      let failed: Error | undefined;
      await watching.watch('/k/', await watching.currentRevision(), { event: (e) => events.push(e), error: (e) => (failed = e) });
      await writer.create('/k/1', 'v');
      await waitFor('the first event', () => events.length === 1);
      await etcd.restart();
      await createRetrying(writer, '/k/2');
      await createRetrying(watching, '/k/3');
      await waitFor('the events after the restart', () => events.length >= 3 || failed !== undefined, 60_000);
      assert.equal(failed, undefined);
      assert.deepEqual(events.map((e) => e.kv.key), ['/k/1', '/k/2', '/k/3']);
      assert.ok(events.every((e, i) => i === 0 || e.kv.modRevision > events[i - 1]!.kv.modRevision));
    } finally {
      await watching.close();
      await writer.close();
    }
  });
});
