// The etcd store when a connection breaks in the middle of a call, through a proxy that loses
// chosen answers (etcdproxy.ts). A write whose request may have reached etcd is sent once and
// never turned into a wrong answer: etcd committed it, so the store must not report it as refused
// (409) because a re-sent copy found its own effect, nor apply it twice. Reads are retried and
// answer. One row per rule.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EtcdStore } from '../../src/storage/etcd.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError, StoreUnavailableError, type Store } from '../../src/storage/store.js';
import { etcdMissing, sharedEtcd } from './etcdserver.js';
import { startEtcdProxy, type EtcdProxy } from './etcdproxy.js';

const Txn = '/etcdserverpb.KV/Txn';
const Range = '/etcdserverpb.KV/Range';
const prefix = `/retry-${process.pid}`;
const etcdKey = (k: string) => Buffer.from(prefix + k);

/** Errors that would be a wrong answer for a write etcd did commit. */
const refusals = [KeyExistsError, KeyNotFoundError, RevisionConflictError];

interface WriteRow {
  rule: string;
  key: string;
  /** Writes made directly (not through the proxy) before the row. */
  setup?(direct: Store): Promise<number>;
  /** The write whose answer is lost; `rev` is what setup returned. */
  write(store: Store, rev: number): Promise<unknown>;
  /** What etcd holds afterwards: the write applied exactly once. */
  check(direct: Store, rev: number): Promise<void>;
}

const writeRows: WriteRow[] = [
  {
    rule: 'a create whose answer is lost is not answered "exists", and the key is created once',
    key: '/c/create',
    write: (s) => s.create('/c/create', 'v'),
    async check(direct) {
      const kv = await direct.get('/c/create');
      assert.equal(kv?.value, 'v');
      assert.equal(kv?.version, 1);
    },
  },
  {
    rule: 'an update whose answer is lost is not answered "conflict", and is applied once',
    key: '/c/update',
    setup: async (d) => (await d.create('/c/update', 'v1')).modRevision,
    write: (s, rev) => s.update('/c/update', 'v2', rev),
    async check(direct) {
      const kv = await direct.get('/c/update');
      assert.equal(kv?.value, 'v2');
      assert.equal(kv?.version, 2);
    },
  },
  {
    rule: 'an unconditional update whose answer is lost is applied once (not re-applied over itself)',
    key: '/c/update-any',
    setup: async (d) => (await d.create('/c/update-any', 'v1')).modRevision,
    write: (s) => s.update('/c/update-any', 'v2'),
    async check(direct) {
      const kv = await direct.get('/c/update-any');
      assert.equal(kv?.value, 'v2');
      assert.equal(kv?.version, 2);
    },
  },
  {
    rule: 'a delete whose answer is lost is not answered "not found", and the key is gone',
    key: '/c/delete',
    setup: async (d) => (await d.create('/c/delete', 'v1')).modRevision,
    write: (s, rev) => s.delete('/c/delete', rev),
    async check(direct) {
      assert.equal(await direct.get('/c/delete'), undefined);
    },
  },
  {
    rule: 'a txn (object and quota charge) whose answer is lost commits both once',
    key: '/c/txn-obj',
    setup: async (d) => (await d.create('/c/txn-quota', 'used=0')).modRevision,
    write: (s, rev) =>
      s.txn(
        [{ key: '/c/txn-obj', modRevision: 0 }, { key: '/c/txn-quota', modRevision: rev }],
        [{ op: 'put', key: '/c/txn-obj', value: 'v' }, { op: 'put', key: '/c/txn-quota', value: 'used=1' }],
      ),
    async check(direct) {
      assert.equal((await direct.get('/c/txn-obj'))?.version, 1);
      const q = await direct.get('/c/txn-quota');
      assert.equal(q?.value, 'used=1');
      assert.equal(q?.version, 2);
    },
  },
];

describe('etcd store: a lost answer to a write', { skip: etcdMissing() }, () => {
  let proxy: EtcdProxy;
  let store: EtcdStore;
  let direct: EtcdStore;
  before(async () => {
    const etcd = await sharedEtcd();
    proxy = await startEtcdProxy(etcd.endpoint);
    store = await EtcdStore.open({ endpoints: [proxy.endpoint], prefix });
    direct = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix });
  });
  after(async () => {
    await store?.close();
    await direct?.close();
    await proxy?.close();
  });

  for (const row of writeRows) {
    it(row.rule, async () => {
      const rev = (await row.setup?.(direct)) ?? 0;
      const txnsBefore = proxy.forwarded.get(Txn) ?? 0;
      let lost = false;
      void proxy.dropAnswer({ method: Txn, bodyContains: etcdKey(row.key) }).then(() => (lost = true));
      const outcome: { ok?: unknown; err?: Error } = await row.write(store, rev).then(
        (v) => ({ ok: v }),
        (e: Error) => ({ err: e }),
      );
      proxy.disarm();
      assert.equal((proxy.forwarded.get(Txn) ?? 0) - txnsBefore, 1, `the write was sent once (${outcome.err ?? 'no error'})`);
      assert.ok(lost, 'its answer was lost');
      // The one answer that can be right is an error saying the outcome is unknown.
      if (!outcome.err) assert.fail(`a write whose answer never came was answered ${JSON.stringify(outcome.ok)}`);
      for (const R of refusals) assert.ok(!(outcome.err instanceof R), `answered ${outcome.err.constructor.name}: ${outcome.err.message}`);
      assert.ok(outcome.err instanceof StoreUnavailableError && outcome.err.outcomeUnknown, String(outcome.err));
      assert.equal(outcome.err.message, 'rpc error: code = Unavailable desc = Connection dropped');
      await row.check(direct, rev);
    });
  }

  it('three lost answers in a row do not shut the member out: the next write goes at once and commits', async () => {
    for (let i = 0; i < 3; i++) {
      let lost = false;
      void proxy.dropAnswer({ method: Txn, bodyContains: etcdKey(`/c/row/${i}`) }).then(() => (lost = true));
      await assert.rejects(store.create(`/c/row/${i}`, 'v'), StoreUnavailableError);
      proxy.disarm();
      assert.ok(lost);
    }
    const txns = proxy.forwarded.get(Txn) ?? 0;
    assert.equal((await store.create('/c/row/next', 'v')).version, 1);
    assert.equal((proxy.forwarded.get(Txn) ?? 0) - txns, 1);
  });

  it('a write whose connection drops while it is sent is not sent again: an error, and nothing written', async () => {
    let lost = false;
    void proxy.dropRequest({ method: Txn, bodyContains: etcdKey('/c/never') }).then(() => (lost = true));
    await assert.rejects(store.create('/c/never', 'v'), (e: Error) => e instanceof StoreUnavailableError && e.outcomeUnknown);
    proxy.disarm();
    assert.ok(lost, 'its connection dropped');
    assert.equal(await direct.get('/c/never'), undefined);
  });
});

interface ReadRow {
  rule: string;
  drop: 'request' | 'answer';
  /** The read through the proxy, and what it must answer. */
  read(store: Store): Promise<void>;
  /** The call to break: its method and a key its request carries. */
  method: string;
  key: string;
}

const readRows: ReadRow[] = [
  {
    rule: 'a get whose connection drops before etcd sees it is retried and answers',
    drop: 'request',
    method: Range,
    key: '/r/a',
    read: async (s) => assert.equal((await s.get('/r/a'))?.value, 'a'),
  },
  {
    rule: 'a get whose answer is lost is retried and answers',
    drop: 'answer',
    method: Range,
    key: '/r/a',
    read: async (s) => assert.equal((await s.get('/r/a'))?.value, 'a'),
  },
  {
    rule: 'a list whose answer is lost is retried and answers',
    drop: 'answer',
    method: Range,
    key: '/r/',
    read: async (s) => assert.deepEqual((await s.list('/r/')).items.map((kv) => kv.key), ['/r/a', '/r/b']),
  },
  {
    rule: 'a count (a read-only txn) whose answer is lost is retried and answers',
    drop: 'answer',
    method: Txn,
    key: '',
    read: async (s) => assert.equal(await s.count(''), 2),
  },
];

describe('etcd store: a broken connection under a read', { skip: etcdMissing() }, () => {
  let proxy: EtcdProxy;
  let store: EtcdStore;
  const readPrefix = `${prefix}-read`;
  before(async () => {
    const etcd = await sharedEtcd();
    proxy = await startEtcdProxy(etcd.endpoint);
    const direct = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: readPrefix });
    await direct.create('/r/a', 'a');
    await direct.create('/r/b', 'b');
    await direct.close();
    store = await EtcdStore.open({ endpoints: [proxy.endpoint], prefix: readPrefix });
  });
  after(async () => {
    await store?.close();
    await proxy?.close();
  });

  for (const row of readRows) {
    it(row.rule, async () => {
      const rule = { method: row.method, bodyContains: Buffer.from(readPrefix + row.key) };
      let dropped = false;
      void (row.drop === 'request' ? proxy.dropRequest(rule) : proxy.dropAnswer(rule)).then(() => (dropped = true));
      try {
        await row.read(store);
      } finally {
        proxy.disarm();
      }
      assert.ok(dropped, 'the connection dropped under the read');
    });
  }
});
