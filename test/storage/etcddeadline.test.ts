// The etcd store against a silent member (one that accepts calls and never answers, on a
// connection that stays open: etcdproxy.ts's holdAnswers), with a request's deadline
// (deadline.ts): every call carries it, as clientv3 carries its context's, and ends with Go's
// context error when it passes, the gRPC call cancelled; a write that had been sent has an
// unknown outcome; the store works again once the member answers. One row per rule. The
// deadline is short (1 s) and nothing here asserts how long anything took.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EtcdStore } from '../../src/storage/etcd.js';
import { withDeadline } from '../../src/storage/deadline.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError, StoreUnavailableError, type Store } from '../../src/storage/store.js';
import { etcdMissing, sharedEtcd } from './etcdserver.js';
import { startEtcdProxy, type EtcdProxy } from './etcdproxy.js';

const Txn = '/etcdserverpb.KV/Txn';
const Range = '/etcdserverpb.KV/Range';
const prefix = `/deadline-${process.pid}`;
const etcdKey = (k: string) => Buffer.from(prefix + k);
const deadlineMs = 1000;
const soon = () => ({ at: Date.now() + deadlineMs });
/** A deadline no healthy call comes near. */
const generous = () => ({ at: Date.now() + 60_000 });

/** Polls `cond` until it holds, failing after a generous bound (the proxy hears of a cancel a moment after the client). */
async function eventually(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(cond(), what);
}

const outcome = (p: Promise<unknown>) => p.then((ok) => ({ ok, err: undefined as Error | undefined }), (err: Error) => ({ ok: undefined, err }));

interface Row {
  rule: string;
  /** The call whose answer is held: its method and a key its request carries. */
  method: string;
  key: string;
  /** Made directly (not through the proxy) before the row; returns a revision for `call`. */
  setup?(direct: Store): Promise<number>;
  call(store: Store, rev: number): Promise<unknown>;
  /** A write: its outcome is unknown once sent. */
  write: boolean;
  /** What etcd holds afterwards, given whether etcd answered (committed) the held write. */
  check?(direct: Store, committed: boolean): Promise<void>;
}

const rows: Row[] = [
  { rule: 'a get against a silent member ends at the deadline with the context error, its call cancelled', method: Range, key: '/r/a', write: false, call: (s) => s.get('/r/a') },
  { rule: 'a list against a silent member ends at the deadline with the context error, its call cancelled', method: Range, key: '/r/', write: false, call: (s) => s.list('/r/') },
  { rule: 'a count (a read-only txn) against a silent member ends at the deadline with the context error', method: Txn, key: '', write: false, call: (s) => s.count('') },
  {
    rule: 'a create against a silent member ends with an unknown outcome (not "exists"), sent once, and is there at most once',
    method: Txn,
    key: '/w/create',
    write: true,
    call: (s) => s.create('/w/create', 'v'),
    async check(direct, committed) {
      const kv = await direct.get('/w/create');
      if (committed) assert.equal(kv?.version, 1);
      else assert.equal(kv, undefined);
    },
  },
  {
    rule: 'an update against a silent member ends with an unknown outcome (not "conflict"), sent once, applied at most once',
    method: Txn,
    key: '/w/update',
    write: true,
    setup: async (d) => (await d.create('/w/update', 'v1')).modRevision,
    call: (s, rev) => s.update('/w/update', 'v2', rev),
    async check(direct, committed) {
      const kv = await direct.get('/w/update');
      assert.equal(kv?.value, committed ? 'v2' : 'v1');
      assert.equal(kv?.version, committed ? 2 : 1);
    },
  },
  {
    rule: 'a delete against a silent member ends with an unknown outcome (not "not found")',
    method: Txn,
    key: '/w/delete',
    write: true,
    setup: async (d) => (await d.create('/w/delete', 'v1')).modRevision,
    call: (s, rev) => s.delete('/w/delete', rev),
    async check(direct, committed) {
      const kv = await direct.get('/w/delete');
      if (committed) assert.equal(kv, undefined);
      else assert.equal(kv?.value, 'v1');
    },
  },
];

describe('etcd store: a silent member and a request deadline', { skip: etcdMissing() }, () => {
  let proxy: EtcdProxy;
  let store: EtcdStore;
  let direct: EtcdStore;
  before(async () => {
    const etcd = await sharedEtcd();
    proxy = await startEtcdProxy(etcd.endpoint);
    direct = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix });
    await direct.create('/r/a', 'a');
    await direct.create('/r/b', 'b');
    store = await EtcdStore.open({ endpoints: [proxy.endpoint], prefix });
  });
  after(async () => {
    proxy?.answerAgain();
    await store?.close();
    await direct?.close();
    await proxy?.close();
  });

  for (const row of rows) {
    // A generous bound: without a deadline the call would wait for ever.
    it(row.rule, { timeout: 20_000 }, async () => {
      const rev = (await row.setup?.(direct)) ?? 0;
      const sentBefore = proxy.forwarded.get(row.method) ?? 0;
      const heldBefore = { ...proxy.held };
      proxy.holdAnswers({ method: row.method, bodyContains: etcdKey(row.key) });
      let r;
      try {
        r = await outcome(withDeadline(soon(), () => row.call(store, rev)));
        // Before the member answers again: a held call the client cancelled is never relayed.
        await eventually('the client cancelled the held call', () => proxy.held.cancelledByClient - heldBefore.cancelledByClient === 1);
      } finally {
        proxy.answerAgain();
      }
      if (!r.err) assert.fail(`a call that was never answered was answered ${JSON.stringify(r.ok)}`);
      for (const R of [KeyExistsError, KeyNotFoundError, RevisionConflictError]) assert.ok(!(r.err instanceof R), `answered ${r.err.constructor.name}: ${r.err.message}`);
      assert.ok(r.err instanceof StoreUnavailableError, String(r.err));
      assert.equal(r.err.message, 'context deadline exceeded');
      assert.equal(r.err.outcomeUnknown, row.write, 'a write that was sent has an unknown outcome; a read has none');
      assert.equal(proxy.held.calls - heldBefore.calls, 1, 'the call reached the silent member once (not re-sent)');
      if (row.write) assert.equal((proxy.forwarded.get(row.method) ?? 0) - sentBefore, 1, 'the write was sent once');
      await row.check?.(direct, proxy.held.answeredByEtcd > heldBefore.answeredByEtcd);
    });
  }

  it('a call whose deadline has passed is not sent: the context error, and a write\'s outcome is known (nothing sent)', { timeout: 20_000 }, async () => {
    const sent = proxy.forwarded.get(Txn) ?? 0;
    const r = await outcome(withDeadline({ at: Date.now() - 1 }, () => store.create('/w/late', 'v')));
    assert.ok(r.err instanceof StoreUnavailableError, String(r.err ?? r.ok));
    assert.equal(r.err.message, 'context deadline exceeded');
    assert.equal(r.err.outcomeUnknown, false);
    assert.equal((proxy.forwarded.get(Txn) ?? 0) - sent, 0);
    assert.equal(await direct.get('/w/late'), undefined);
  });

  it('once the member answers again the store works: reads, writes and a watch', { timeout: 20_000 }, async () => {
    proxy.holdAnswers();
    const stuck = outcome(withDeadline(soon(), () => store.get('/r/a')));
    assert.ok((await stuck).err instanceof StoreUnavailableError);
    proxy.answerAgain();
    const events: string[] = [];
    const w = await store.watch('/again/', await store.currentRevision(), { event: (e) => events.push(e.kv.key) });
    try {
      assert.equal((await withDeadline(generous(), () => store.get('/r/a')))?.value, 'a');
      assert.deepEqual((await store.list('/r/')).items.map((kv) => kv.key), ['/r/a', '/r/b']);
      assert.equal((await withDeadline(generous(), () => store.create('/again/x', 'v'))).version, 1);
      await eventually('the watch saw the write', () => events.includes('/again/x'));
    } finally {
      w.cancel();
    }
  });
});
