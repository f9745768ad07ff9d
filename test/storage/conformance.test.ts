// The storage contract (src/storage/store.ts, DESIGN.md "Storage"), one row per rule, run
// against every backend. A backend passes only if it passes every row.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionConflictError,
  type Store,
} from '../../src/storage/store.js';
import { allBackends, Recorder, type Backend } from './backends.js';

interface Rule {
  name: string;
  run(store: Store, backend: Backend): Promise<void>;
}

const rules: Rule[] = [
  {
    name: 'the revision is 0 before the first write and the first write gets revision 1',
    async run(s) {
      assert.equal(await s.currentRevision(), 0);
      assert.equal(await s.compactRevision(), 0);
      const kv = await s.create('/a', 'v');
      assert.deepEqual(kv, { key: '/a', value: 'v', createRevision: 1, modRevision: 1, version: 1 });
      assert.equal(await s.currentRevision(), 1);
    },
  },
  {
    name: 'every write gets a new revision, strictly greater than the last',
    async run(s) {
      const revs: number[] = [];
      revs.push((await s.create('/a', '1')).modRevision);
      revs.push((await s.create('/b', '1')).modRevision);
      revs.push((await s.update('/a', '2')).modRevision);
      revs.push((await s.delete('/b')).modRevision);
      revs.push((await s.txn([], [{ op: 'put', key: '/c', value: '1' }])).revision);
      revs.push((await s.create('/b', 'again')).modRevision);
      assert.deepEqual(revs, [1, 2, 3, 4, 5, 6]);
      assert.equal(await s.currentRevision(), 6);
    },
  },
  {
    name: 'create fails with KeyExistsError when the key exists, and takes no revision',
    async run(s) {
      await s.create('/a', '1');
      await assert.rejects(s.create('/a', '2'), (e: unknown) => e instanceof KeyExistsError && e.key === '/a');
      assert.equal(await s.currentRevision(), 1);
      assert.equal((await s.get('/a'))?.value, '1');
    },
  },
  {
    name: 'create after delete starts a new life: createRevision and version start again',
    async run(s) {
      await s.create('/a', '1');
      await s.update('/a', '2');
      await s.delete('/a');
      const kv = await s.create('/a', '3');
      assert.deepEqual(kv, { key: '/a', value: '3', createRevision: 4, modRevision: 4, version: 1 });
    },
  },
  {
    name: 'update replaces the value, keeps createRevision and counts versions',
    async run(s) {
      await s.create('/a', '1');
      await s.create('/other', 'x');
      const kv = await s.update('/a', '2');
      assert.deepEqual(kv, { key: '/a', value: '2', createRevision: 1, modRevision: 3, version: 2 });
      assert.deepEqual(await s.get('/a'), kv);
    },
  },
  {
    name: 'update with the expected modRevision succeeds (compare-and-swap)',
    async run(s) {
      const a = await s.create('/a', '1');
      const b = await s.update('/a', '2', a.modRevision);
      assert.equal(b.modRevision, 2);
      const c = await s.update('/a', '3', b.modRevision);
      assert.equal(c.value, '3');
      assert.equal(c.version, 3);
    },
  },
  {
    name: 'update with a stale modRevision fails with RevisionConflictError and writes nothing',
    async run(s) {
      const a = await s.create('/a', '1');
      await s.update('/a', '2');
      await assert.rejects(
        s.update('/a', '3', a.modRevision),
        (e: unknown) => e instanceof RevisionConflictError && e.key === '/a' && e.expected === 1 && e.actual === 2,
      );
      assert.equal((await s.get('/a'))?.value, '2');
      assert.equal(await s.currentRevision(), 2);
    },
  },
  {
    name: 'update of an absent key fails with KeyNotFoundError, with or without an expected revision',
    async run(s) {
      await assert.rejects(s.update('/a', '1'), (e: unknown) => e instanceof KeyNotFoundError && e.key === '/a');
      await assert.rejects(s.update('/a', '1', 0), KeyNotFoundError);
      await assert.rejects(s.update('/a', '1', 7), KeyNotFoundError);
      assert.equal(await s.currentRevision(), 0);
    },
  },
  {
    name: 'delete with the expected modRevision returns the last value at the deletion revision',
    async run(s) {
      const a = await s.create('/a', '1');
      await s.create('/b', '1');
      const d = await s.delete('/a', a.modRevision);
      assert.deepEqual(d, { key: '/a', value: '1', createRevision: 1, modRevision: 3, version: 1 });
      assert.equal(await s.get('/a'), undefined);
      assert.equal(await s.currentRevision(), 3);
    },
  },
  {
    name: 'delete with a stale modRevision fails with RevisionConflictError and keeps the key',
    async run(s) {
      const a = await s.create('/a', '1');
      await s.update('/a', '2');
      await assert.rejects(s.delete('/a', a.modRevision), RevisionConflictError);
      assert.equal((await s.get('/a'))?.value, '2');
    },
  },
  {
    name: 'delete of an absent key fails with KeyNotFoundError and takes no revision',
    async run(s) {
      await s.create('/b', '1');
      await assert.rejects(s.delete('/a'), (e: unknown) => e instanceof KeyNotFoundError && e.key === '/a');
      await assert.rejects(s.delete('/a', 1), KeyNotFoundError);
      assert.equal(await s.currentRevision(), 1);
    },
  },
  {
    name: 'txn: when every compare holds the success branch runs, all writes at one revision',
    async run(s) {
      const a = await s.create('/a', '1');
      const r = await s.txn(
        [{ key: '/a', modRevision: a.modRevision }, { key: '/b', modRevision: 0 }],
        [
          { op: 'put', key: '/a', value: '2' },
          { op: 'put', key: '/b', value: '1' },
        ],
        [{ op: 'put', key: '/failed', value: 'x' }],
      );
      assert.equal(r.succeeded, true);
      assert.equal(r.revision, 2);
      assert.deepEqual(r.results, [
        { key: '/a', value: '2', createRevision: 1, modRevision: 2, version: 2 },
        { key: '/b', value: '1', createRevision: 2, modRevision: 2, version: 1 },
      ]);
      assert.equal(await s.get('/failed'), undefined);
      assert.equal(await s.currentRevision(), 2);
    },
  },
  {
    name: 'txn: a failing compare writes nothing of the success branch and runs the failure branch',
    async run(s) {
      await s.create('/quota', '1');
      const r = await s.txn(
        [{ key: '/quota', modRevision: 99 }],
        [
          { op: 'put', key: '/quota', value: '2' },
          { op: 'put', key: '/pod', value: 'p' },
        ],
        [{ op: 'put', key: '/conflicts', value: '1' }],
      );
      assert.equal(r.succeeded, false);
      assert.equal(r.revision, 2);
      assert.equal(r.results.length, 1);
      assert.equal((await s.get('/quota'))?.value, '1');
      assert.equal(await s.get('/pod'), undefined);
      assert.equal((await s.get('/conflicts'))?.modRevision, 2);
    },
  },
  {
    name: 'txn: a compare on modRevision 0 means "the key does not exist"',
    async run(s) {
      const first = await s.txn([{ key: '/a', modRevision: 0 }], [{ op: 'put', key: '/a', value: '1' }]);
      assert.equal(first.succeeded, true);
      const second = await s.txn([{ key: '/a', modRevision: 0 }], [{ op: 'put', key: '/a', value: '2' }]);
      assert.equal(second.succeeded, false);
      await s.delete('/a');
      const third = await s.txn([{ key: '/a', modRevision: 0 }], [{ op: 'put', key: '/a', value: '3' }]);
      assert.equal(third.succeeded, true);
      assert.equal(third.results[0]?.createRevision, 3);
    },
  },
  {
    name: 'txn: a transaction that writes nothing keeps the revision and produces no event',
    async run(s) {
      await s.create('/a', '1');
      const rec = new Recorder();
      await s.watch('', 1, rec.handlers);
      const failed = await s.txn([{ key: '/a', modRevision: 5 }], [{ op: 'put', key: '/a', value: 'x' }]);
      assert.deepEqual(failed, { succeeded: false, revision: 1, results: [] });
      const empty = await s.txn([], []);
      assert.deepEqual(empty, { succeeded: true, revision: 1, results: [] });
      const deleteAbsent = await s.txn([], [{ op: 'delete', key: '/absent' }]);
      assert.deepEqual(deleteAbsent, { succeeded: true, revision: 1, results: [undefined] });
      assert.equal(await s.currentRevision(), 1);
      assert.deepEqual(rec.events, []);
    },
  },
  {
    name: 'txn: delete returns the deleted state at the txn revision',
    async run(s) {
      await s.create('/a', '1');
      await s.create('/b', '1');
      const r = await s.txn([], [{ op: 'delete', key: '/a' }, { op: 'delete', key: '/zz' }, { op: 'put', key: '/b', value: '2' }]);
      assert.deepEqual(r.results, [
        { key: '/a', value: '1', createRevision: 1, modRevision: 3, version: 1 },
        undefined,
        { key: '/b', value: '2', createRevision: 2, modRevision: 3, version: 2 },
      ]);
      assert.equal(await s.get('/a'), undefined);
    },
  },
  {
    name: 'txn: two operations on one key are refused (as etcd) and nothing is written',
    async run(s) {
      await assert.rejects(
        s.txn([], [{ op: 'put', key: '/a', value: '1' }, { op: 'delete', key: '/a' }]),
        /duplicate key/,
      );
      await assert.rejects(s.txn([], [], [{ op: 'put', key: '/a', value: '1' }, { op: 'put', key: '/a', value: '2' }]), /duplicate key/);
      assert.equal(await s.currentRevision(), 0);
    },
  },
  {
    name: 'txn: one revision per txn, one event per op in op order, all with that revision',
    async run(s) {
      await s.create('/q', '0');
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      await s.txn([{ key: '/q', modRevision: 1 }], [
        { op: 'put', key: '/q', value: '1' },
        { op: 'put', key: '/p/b', value: 'b' },
        { op: 'put', key: '/p/a', value: 'a' },
      ]);
      assert.deepEqual(rec.summary, [
        ['PUT', '/q', 1],
        ['PUT', '/q', 2],
        ['PUT', '/p/b', 2],
        ['PUT', '/p/a', 2],
      ]);
      // A replay gives the same order.
      const replay = new Recorder();
      await s.watch('/', 1, replay.handlers);
      assert.deepEqual(replay.summary, rec.summary.slice(1));
    },
  },
  {
    name: 'list returns the keys under the prefix in key order, by range not pattern',
    async run(s) {
      for (const key of ['/pods/b', '/pods/a', '/pods_x', '/podsy', '/pod', '/pods/%', '/pods/_', '/q']) await s.create(key, key);
      const r = await s.list('/pods/');
      assert.deepEqual(r.items.map((kv) => kv.key), ['/pods/%', '/pods/_', '/pods/a', '/pods/b']);
      assert.equal(r.revision, 8);
      assert.equal(r.more, false);
      // '_' and '%' are not wildcards.
      assert.deepEqual((await s.list('/pods_')).items.map((kv) => kv.key), ['/pods_x']);
      assert.deepEqual((await s.list('/pods/%')).items.map((kv) => kv.key), ['/pods/%']);
      assert.equal((await s.list('')).items.length, 8);
    },
  },
  {
    name: 'keys are ordered by code point (UTF-8 byte order), prefixes match whole code points',
    async run(s) {
      const keys = ['/k/\u{1F600}', '/k/\uffff', '/k/\ue000', '/k/\u00e9', '/k/z', '/k/\u{10FFFF}', '/k/\u{10FFFF}x', '/k/\u{10FFFF}\u{10FFFF}'];
      for (const key of keys) await s.create(key, 'v');
      const want = ['/k/z', '/k/\u00e9', '/k/\ue000', '/k/\uffff', '/k/\u{1F600}', '/k/\u{10FFFF}', '/k/\u{10FFFF}x', '/k/\u{10FFFF}\u{10FFFF}'];
      assert.deepEqual((await s.list('/k/')).items.map((kv) => kv.key), want);
      assert.deepEqual((await s.list('/k/\u{10FFFF}')).items.map((kv) => kv.key), want.slice(5));
      assert.deepEqual((await s.list('/k/', { after: '/k/\uffff' })).items.map((kv) => kv.key), want.slice(4));
      assert.equal(await s.count('/k/\u{10FFFF}'), 3);
      await assert.rejects(s.create('/k/\ud800', 'lone surrogate'), TypeError);
    },
  },
  {
    name: 'list with limit and after pages through every key exactly once',
    async run(s) {
      const keys = Array.from({ length: 23 }, (_, i) => `/p/${String(i).padStart(2, '0')}`);
      for (const key of [...keys].reverse()) await s.create(key, key);
      await s.create('/q/0', 'outside');
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await s.list('/p/', { limit: 5, after, revision: 24 });
        pages++;
        seen.push(...page.items.map((kv) => kv.key));
        assert.equal(page.revision, 24);
        if (!page.more) break;
        assert.equal(page.items.length, 5);
        after = page.items.at(-1)!.key;
      }
      assert.deepEqual(seen, keys);
      assert.equal(pages, 5);
      const exact = await s.list('/p/', { limit: 23 });
      assert.equal(exact.more, false);
      assert.equal(exact.items.length, 23);
      // `after` below the prefix is the prefix itself; past the prefix, nothing.
      assert.equal((await s.list('/p/', { after: '/a' })).items.length, 23);
      assert.deepEqual((await s.list('/p/', { after: '/z' })).items, []);
    },
  },
  {
    name: 'list at a past revision is the consistent snapshot at that revision',
    async run(s) {
      await s.create('/p/a', 'a1'); // 1
      await s.create('/p/b', 'b1'); // 2
      await s.update('/p/a', 'a2'); // 3
      await s.delete('/p/b'); // 4
      await s.create('/p/c', 'c1'); // 5
      await s.txn([], [{ op: 'put', key: '/p/b', value: 'b2' }, { op: 'delete', key: '/p/a' }]); // 6
      const at = async (revision: number) =>
        (await s.list('/p/', { revision })).items.map((kv) => `${kv.key}=${kv.value}@${kv.modRevision}`);
      assert.deepEqual(await at(1), ['/p/a=a1@1']);
      assert.deepEqual(await at(2), ['/p/a=a1@1', '/p/b=b1@2']);
      assert.deepEqual(await at(3), ['/p/a=a2@3', '/p/b=b1@2']);
      assert.deepEqual(await at(4), ['/p/a=a2@3']);
      assert.deepEqual(await at(5), ['/p/a=a2@3', '/p/c=c1@5']);
      assert.deepEqual(await at(6), ['/p/b=b2@6', '/p/c=c1@5']);
      assert.deepEqual(await at(0), await at(6));
      assert.equal((await s.list('/p/', { revision: 3 })).revision, 3);
      assert.deepEqual((await s.list('/p/', { revision: 3, limit: 1 })).more, true);
    },
  },
  {
    name: 'get at a revision returns the state at that revision (undefined before creation and after deletion)',
    async run(s) {
      await s.create('/x', 'x'); // 1
      await s.create('/a', '1'); // 2
      await s.update('/a', '2'); // 3
      await s.delete('/a'); // 4
      await s.create('/a', '3'); // 5
      assert.equal(await s.get('/a', 1), undefined);
      assert.deepEqual(await s.get('/a', 2), { key: '/a', value: '1', createRevision: 2, modRevision: 2, version: 1 });
      assert.deepEqual(await s.get('/a', 3), { key: '/a', value: '2', createRevision: 2, modRevision: 3, version: 2 });
      assert.equal(await s.get('/a', 4), undefined);
      assert.deepEqual(await s.get('/a', 5), { key: '/a', value: '3', createRevision: 5, modRevision: 5, version: 1 });
      assert.deepEqual(await s.get('/a', 0), await s.get('/a'));
    },
  },
  {
    name: 'count counts the live keys under a prefix',
    async run(s) {
      await s.create('/p/a', '1');
      await s.create('/p/b', '1');
      await s.create('/q/a', '1');
      await s.delete('/p/a');
      assert.equal(await s.count('/p/'), 1);
      assert.equal(await s.count(''), 2);
      assert.equal(await s.count('/none/'), 0);
    },
  },
  {
    name: 'reads at a revision newer than the store fail with FutureRevisionError',
    async run(s) {
      await s.create('/a', '1');
      await assert.rejects(s.get('/a', 2), (e: unknown) => e instanceof FutureRevisionError && e.requested === 2 && e.current === 1);
      await assert.rejects(s.list('/', { revision: 5 }), FutureRevisionError);
      await assert.rejects(s.compact(2), FutureRevisionError);
    },
  },
  {
    name: 'watch replays the changes after the revision in order, then delivers live ones',
    async run(s) {
      await s.create('/a', '1'); // 1
      await s.create('/b', '1'); // 2
      await s.update('/a', '2'); // 3
      const rec = new Recorder();
      const w = await s.watch('/', 1, rec.handlers);
      assert.deepEqual(rec.summary, [['PUT', '/b', 2], ['PUT', '/a', 3]]);
      await s.delete('/b'); // 4
      assert.deepEqual(rec.summary.at(-1), ['DELETE', '/b', 4], 'live events are delivered before the write resolves');
      await s.update('/a', '3'); // 5
      assert.deepEqual(rec.summary.map((r) => r[2]), [2, 3, 4, 5]);
      w.cancel();
      await s.update('/a', '4');
      assert.equal(rec.events.length, 4);
      // From the current revision: nothing to replay.
      const now = new Recorder();
      await s.watch('/', await s.currentRevision(), now.handlers);
      assert.deepEqual(now.events, []);
    },
  },
  {
    name: 'watch delivers only keys under its prefix',
    async run(s) {
      await s.create('/pods/a', '1');
      await s.create('/podsx', '1');
      const rec = new Recorder();
      await s.watch('/pods/', 0, rec.handlers);
      await s.create('/pods/b', '1');
      await s.create('/nodes/a', '1');
      await s.txn([], [{ op: 'put', key: '/pods/c', value: '1' }, { op: 'put', key: '/quota', value: '1' }]);
      assert.deepEqual(rec.events.map((e) => e.kv.key), ['/pods/a', '/pods/b', '/pods/c']);
    },
  },
  {
    name: 'watch events: PUT carries created and prevKv; DELETE carries the last value and prevKv',
    async run(s) {
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      await s.create('/a', '1');
      await s.update('/a', '2');
      await s.delete('/a');
      const [created, updated, deleted] = rec.events;
      assert.deepEqual(created, { type: 'PUT', kv: { key: '/a', value: '1', createRevision: 1, modRevision: 1, version: 1 }, created: true });
      assert.deepEqual(updated, {
        type: 'PUT',
        kv: { key: '/a', value: '2', createRevision: 1, modRevision: 2, version: 2 },
        prevKv: { key: '/a', value: '1', createRevision: 1, modRevision: 1, version: 1 },
        created: false,
      });
      assert.deepEqual(deleted, {
        type: 'DELETE',
        kv: { key: '/a', value: '2', createRevision: 1, modRevision: 3, version: 2 },
        prevKv: { key: '/a', value: '2', createRevision: 1, modRevision: 2, version: 2 },
        created: false,
      });
      // The replay builds the same events.
      const replay = new Recorder();
      await s.watch('/', 0, replay.handlers);
      assert.deepEqual(replay.events, rec.events);
    },
  },
  {
    name: 'watch events are built once per write, shared by every watcher, and frozen',
    async run(s) {
      const one = new Recorder();
      const two = new Recorder();
      await s.watch('/', 0, one.handlers);
      await s.watch('/a', 0, two.handlers);
      await s.create('/a', '1');
      await s.update('/a', '2');
      assert.equal(one.events.length, 2);
      for (let i = 0; i < 2; i++) assert.equal(one.events[i], two.events[i]);
      assert.ok(Object.isFrozen(one.events[1]) && Object.isFrozen(one.events[1]!.kv) && Object.isFrozen(one.events[1]!.prevKv));
    },
  },
  {
    name: 'watch: cancel stops delivery immediately, even inside one transaction',
    async run(s) {
      const got: string[] = [];
      let self: { cancel(): void } | undefined;
      const other = new Recorder();
      self = await s.watch('/', 0, {
        event(e) {
          got.push(e.kv.key);
          self?.cancel();
        },
      });
      const w2 = await s.watch('/', 0, {
        event(e) {
          other.events.push(e);
          if (e.kv.key === '/b') w2.cancel();
        },
      });
      await s.txn([], [{ op: 'put', key: '/a', value: '1' }, { op: 'put', key: '/b', value: '1' }, { op: 'put', key: '/c', value: '1' }]);
      assert.deepEqual(got, ['/a']);
      assert.deepEqual(other.events.map((e) => e.kv.key), ['/a', '/b']);
      self.cancel(); // idempotent
    },
  },
  {
    name: 'watch from a revision in the future delivers only the changes after it',
    async run(s) {
      await s.create('/a', '1');
      const rec = new Recorder();
      await s.watch('/', 3, rec.handlers);
      await s.update('/a', '2'); // 2
      await s.update('/a', '3'); // 3
      await s.update('/a', '4'); // 4
      assert.deepEqual(rec.summary, [['PUT', '/a', 4]]);
    },
  },
  {
    name: 'watch from below the compact revision fails with CompactedError; from it, replays what follows',
    async run(s) {
      for (let i = 0; i < 6; i++) await s.create(`/k${i}`, String(i));
      await s.compact(4);
      await assert.rejects(
        s.watch('/', 3, { event() {} }),
        (e: unknown) => e instanceof CompactedError && e.requested === 3 && e.compactRevision === 4,
      );
      const rec = new Recorder();
      await s.watch('/', 4, rec.handlers);
      assert.deepEqual(rec.summary, [['PUT', '/k4', 5], ['PUT', '/k5', 6]]);
    },
  },
  {
    name: 'reads below the compact revision fail with CompactedError; at it they still work',
    async run(s) {
      await s.create('/a', '1'); // 1
      await s.update('/a', '2'); // 2
      await s.update('/a', '3'); // 3
      await s.compact(2);
      assert.equal(await s.compactRevision(), 2);
      await assert.rejects(s.get('/a', 1), (e: unknown) => e instanceof CompactedError && e.requested === 1 && e.compactRevision === 2);
      await assert.rejects(s.list('/', { revision: 1 }), CompactedError);
      assert.equal((await s.get('/a', 2))?.value, '2');
      assert.deepEqual((await s.list('/', { revision: 2 })).items.map((kv) => kv.value), ['2']);
    },
  },
  {
    name: 'compaction keeps the current values and the state at the compact revision',
    async run(s) {
      await s.create('/live', '1'); // 1
      await s.create('/gone', '1'); // 2
      await s.update('/live', '2'); // 3
      await s.delete('/gone'); // 4
      await s.create('/old', 'o'); // 5
      await s.create('/late', '1'); // 6
      await s.update('/late', '2'); // 7
      const before = await s.list('');
      await s.compact(6);
      assert.deepEqual(await s.list(''), before);
      assert.deepEqual((await s.list('', { revision: 6 })).items.map((kv) => `${kv.key}=${kv.value}`), ['/late=1', '/live=2', '/old=o']);
      assert.equal(await s.get('/gone', 6), undefined);
      assert.deepEqual(await s.get('/live', 6), { key: '/live', value: '2', createRevision: 1, modRevision: 3, version: 2 });
      assert.equal(await s.currentRevision(), 7);
      // The next write continues the counter, and prevKv of a key last written before the compaction is intact.
      const rec = new Recorder();
      await s.watch('/live', 6, rec.handlers);
      await s.update('/live', '3');
      assert.deepEqual(rec.events[0]?.prevKv, { key: '/live', value: '2', createRevision: 1, modRevision: 3, version: 2 });
      assert.equal(rec.events[0]?.kv.modRevision, 8);
    },
  },
  {
    name: 'compaction to the current revision after a deletion keeps the revision counter',
    async run(s) {
      await s.create('/a', '1');
      await s.delete('/a');
      await s.compact(2);
      assert.equal(await s.currentRevision(), 2);
      assert.deepEqual((await s.list('')).items, []);
      assert.equal((await s.create('/a', '2')).modRevision, 3);
    },
  },
  {
    name: 'compaction over many revisions (several slices) keeps exactly the live state',
    async run(s) {
      const keys = 7;
      for (let i = 0; i < keys; i++) await s.create(`/k/${i}`, '0');
      for (let i = 0; i < 12000; i++) await s.update(`/k/${i % keys}`, String(i));
      await s.delete('/k/0');
      const rev = await s.currentRevision();
      const before = await s.list('/k/');
      const mid = rev - 10;
      const atMid = await s.list('/k/', { revision: mid });
      await s.compact(mid);
      assert.deepEqual(await s.list('/k/'), before);
      assert.deepEqual(await s.list('/k/', { revision: mid }), atMid);
      const rec = new Recorder();
      await s.watch('/k/', mid, rec.handlers);
      assert.equal(rec.events.length, 10);
      assert.ok(rec.events.every((e) => e.prevKv !== undefined));
    },
  },
  {
    name: 'compacting below the compact revision fails; compacting at it again is a no-op',
    async run(s) {
      for (let i = 0; i < 5; i++) await s.create(`/k${i}`, '1');
      await s.compact(3);
      await assert.rejects(s.compact(2), CompactedError);
      await s.compact(3);
      await assert.rejects(s.compact(0), CompactedError);
      assert.equal(await s.compactRevision(), 3);
    },
  },
  {
    name: 'a watch replaying more than one page delivers every matching change in order',
    async run(s) {
      for (let i = 0; i < 2600; i++) await s.create(i % 3 === 0 ? `/sparse/${i}` : `/dense/${i}`, String(i));
      const all = new Recorder();
      await s.watch('', 0, all.handlers);
      assert.equal(all.events.length, 2600);
      assert.ok(all.events.every((e, i) => e.kv.modRevision === i + 1));
      const sparse = new Recorder();
      await s.watch('/sparse/', 100, sparse.handlers);
      assert.equal(sparse.events.length, 833); // i = 102, 105, …, 2598
      assert.ok(sparse.events.every((e, i, a) => i === 0 || a[i - 1]!.kv.modRevision < e.kv.modRevision));
    },
  },
  {
    name: 'a handler that throws ends its own watch with error; the writer and other watchers go on',
    async run(s) {
      let errored: Error | undefined;
      let calls = 0;
      await s.watch('/', 0, {
        event() {
          calls++;
          throw new Error('consumer broke');
        },
        error(err) {
          errored = err;
        },
      });
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      await s.create('/a', '1');
      await s.create('/b', '1');
      assert.equal(calls, 1);
      assert.equal(errored?.message, 'consumer broke');
      assert.equal(rec.events.length, 2);
    },
  },
  {
    name: 'a write made inside a handler reaches every watcher after the current one, in revision order',
    async run(s, backend) {
      const first: number[] = [];
      const second: number[] = [];
      // In process the handler's write commits before the handler returns; on etcd it is a
      // request in flight, so the rule waits for it (a write resolves only once this process's
      // watchers have had it).
      const handlerWrites: Promise<unknown>[] = [];
      await s.watch('/', 0, {
        event(e) {
          first.push(e.kv.modRevision);
          if (e.kv.key === '/a') handlerWrites.push(s.create('/from-handler', '1'));
        },
      });
      await s.watch('/', 0, { event: (e) => second.push(e.kv.modRevision) });
      const r = await s.txn([], [{ op: 'put', key: '/a', value: '1' }, { op: 'put', key: '/b', value: '1' }]);
      assert.equal(r.revision, 1, "the txn reports its own revision, not the handler's write");
      if (!backend.synchronousHandlerWrites) await Promise.all(handlerWrites);
      assert.deepEqual(first, [1, 1, 2]);
      assert.deepEqual(second, [1, 1, 2]);
      // Same during a replay: the write waits until the replay is over.
      const replayed: number[] = [];
      await s.watch('/', 0, {
        event(e) {
          replayed.push(e.kv.modRevision);
          if (e.kv.key === '/b' && e.kv.modRevision === 1) handlerWrites.push(s.create('/during-replay', '1'));
        },
      });
      if (!backend.synchronousHandlerWrites) await Promise.all(handlerWrites);
      assert.deepEqual(replayed, [1, 1, 2, 3]);
      assert.deepEqual(second, [1, 1, 2, 3]);
    },
  },
  {
    name: 'a handler may cancel its watch or close the store in the middle of a replay',
    async run(s) {
      for (let i = 0; i < 1500; i++) await s.create(`/k/${i}`, String(i));
      let seen = 0;
      let closedWith: Error | undefined;
      const w = await s.watch('/k/', 0, {
        event() {
          if (++seen === 1200) void s.close();
        },
        error(err) {
          closedWith = err;
        },
      });
      assert.equal(seen, 1200);
      assert.match(closedWith?.message ?? '', /closed/);
      w.cancel();
    },
  },
  {
    name: 'close ends every watch with an error and refuses further calls',
    async run(s) {
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      await s.close();
      assert.match(rec.error?.message ?? '', /closed/);
      await assert.rejects(s.get('/a'), /closed/);
      await assert.rejects(s.create('/a', '1'), /closed/);
      await assert.rejects(s.watch('/', 0, rec.handlers), /closed/);
      await s.close();
    },
  },
  {
    name: 'arguments are checked: empty keys, negative or fractional revisions',
    async run(s) {
      await assert.rejects(s.create('', 'v'), TypeError);
      await assert.rejects(s.get('/a', -1), RangeError);
      await assert.rejects(s.list('/', { revision: 1.5 }), RangeError);
      await assert.rejects(s.list('/', { limit: -1 }), RangeError);
      await assert.rejects(s.watch('/', -1, { event() {} }), RangeError);
      await assert.rejects(s.txn([{ key: '/a', modRevision: -1 }], []), RangeError);
      assert.equal(await s.currentRevision(), 0);
    },
  },
  {
    name: 'concurrent compare-and-swap updates of one key: every success has its own revision and none is lost',
    async run(s) {
      await s.create('/counter', '0');
      let successes = 0;
      let conflicts = 0;
      const revisions: number[] = [];
      await Promise.all(
        Array.from({ length: 64 }, async (_, worker) => {
          for (let attempt = 0; attempt < 8; attempt++) {
            const cur = (await s.get('/counter'))!;
            if (worker % 2 === 1) await new Promise((r) => setImmediate(r));
            try {
              const kv = await s.update('/counter', String(Number(cur.value) + 1), cur.modRevision);
              successes++;
              revisions.push(kv.modRevision);
            } catch (err) {
              if (!(err instanceof RevisionConflictError)) throw err;
              conflicts++;
            }
          }
        }),
      );
      assert.ok(conflicts > 0, 'the workers really raced');
      assert.equal(successes + conflicts, 64 * 8);
      assert.equal(new Set(revisions).size, successes);
      const final = (await s.get('/counter'))!;
      assert.equal(Number(final.value), successes);
      assert.equal(final.version, successes + 1);
      assert.equal(final.modRevision, Math.max(...revisions));
    },
  },
];

for (const backend of allBackends) {
  describe(`storage contract: ${backend.name}`, () => {
    for (const rule of rules) {
      it(rule.name, { skip: backend.skip }, async () => {
        const store = await backend.open();
        try {
          await rule.run(store, backend);
        } finally {
          await backend.dispose(store);
        }
      });
    }
  });
}
