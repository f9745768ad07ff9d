// Property: any sequence of creates, updates, deletes, transactions and compactions, applied to
// the memory and the SQLite store, gives identical answers (every result and error, get and
// list at every readable revision, watch histories live and replayed), and both agree with a
// plain model of the contract (a map per revision).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KeyValue, Operation, Store } from '../../src/storage/store.js';
import { memoryBackend, outcome, Recorder, sqliteBackend } from './backends.js';

const keys = ['/a', '/a/b', '/a/c', '/ab', '/a\u00e9', '/a\uffff', '/a\u{1F600}', '/b', '/b/\u{10FFFF}'];
const prefixes = ['', '/a', '/a/', '/b/', '/a\u{1F600}'];

type Expect = 'none' | 'current' | 'stale';
type CompareMode = 'current' | 'absent' | 'stale';

type Cmd =
  | { kind: 'create'; key: string; value: string }
  | { kind: 'update'; key: string; value: string; expect: Expect }
  | { kind: 'delete'; key: string; expect: Expect }
  | { kind: 'txn'; compares: { key: string; mode: CompareMode }[]; success: Operation[]; failure: Operation[] }
  | { kind: 'compact'; fraction: number };

const keyArb = fc.constantFrom(...keys);
const valueArb = fc.string({ unit: 'grapheme', maxLength: 4 });
const expectArb = fc.constantFrom<Expect>('none', 'current', 'current', 'stale');
const opArb: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), key: keyArb, value: valueArb }),
  fc.record({ op: fc.constant('delete' as const), key: keyArb }),
);
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), key: keyArb, value: valueArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), key: keyArb, value: valueArb, expect: expectArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: keyArb, expect: expectArb }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('txn' as const),
      compares: fc.array(fc.record({ key: keyArb, mode: fc.constantFrom<CompareMode>('current', 'absent', 'stale') }), { maxLength: 3 }),
      success: fc.array(opArb, { maxLength: 4 }),
      failure: fc.array(opArb, { maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
);

/** The contract as a map per revision: what both stores must be. */
class Model {
  revision = 0;
  compactRevision = 0;
  state = new Map<string, KeyValue>();
  snapshots = new Map<number, Map<string, KeyValue>>([[0, new Map()]]);

  private write(changes: [string, string | undefined][]): (KeyValue | undefined)[] {
    const rev = this.revision + 1;
    const results: (KeyValue | undefined)[] = [];
    let wrote = false;
    for (const [key, value] of changes) {
      const prev = this.state.get(key);
      if (value === undefined) {
        if (!prev) {
          results.push(undefined);
          continue;
        }
        this.state.delete(key);
        results.push({ ...prev, modRevision: rev });
      } else {
        const kv = { key, value, createRevision: prev ? prev.createRevision : rev, modRevision: rev, version: prev ? prev.version + 1 : 1 };
        this.state.set(key, kv);
        results.push(kv);
      }
      wrote = true;
    }
    if (wrote) {
      this.revision = rev;
      this.snapshots.set(rev, new Map(this.state));
    }
    return results;
  }

  /** The error class the store must throw, or the result it must return. */
  apply(cmd: Cmd, expected: number | undefined, compareRevisions: number[]): { error: string } | { ok: unknown } {
    const cur = 'key' in cmd ? this.state.get(cmd.key) : undefined;
    switch (cmd.kind) {
      case 'create':
        if (cur) return { error: 'KeyExistsError' };
        return { ok: this.write([[cmd.key, cmd.value]])[0] };
      case 'update':
      case 'delete':
        if (!cur) return { error: 'KeyNotFoundError' };
        if (expected !== undefined && expected !== cur.modRevision) return { error: 'RevisionConflictError' };
        return { ok: this.write([[cmd.key, cmd.kind === 'update' ? cmd.value : undefined]])[0] };
      case 'txn': {
        for (const ops of [cmd.success, cmd.failure]) {
          if (new Set(ops.map((o) => o.key)).size !== ops.length) return { error: 'TypeError' };
        }
        const succeeded = cmd.compares.every((c, i) => (this.state.get(c.key)?.modRevision ?? 0) === compareRevisions[i]);
        const ops = succeeded ? cmd.success : cmd.failure;
        const results = this.write(ops.map((o) => [o.key, o.op === 'put' ? o.value : undefined]));
        return { ok: { succeeded, revision: this.revision, results } };
      }
      case 'compact': {
        const target = Math.floor(cmd.fraction * this.revision);
        if (target < this.compactRevision) return { error: 'CompactedError' };
        this.compactRevision = target;
        return { ok: undefined };
      }
    }
  }
}

async function run(store: Store, cmd: Cmd, expected: number | undefined, compareRevisions: number[], revision: number) {
  switch (cmd.kind) {
    case 'create':
      return outcome(store.create(cmd.key, cmd.value));
    case 'update':
      return outcome(store.update(cmd.key, cmd.value, expected));
    case 'delete':
      return outcome(store.delete(cmd.key, expected));
    case 'txn':
      return outcome(
        store.txn(
          cmd.compares.map((c, i) => ({ key: c.key, modRevision: compareRevisions[i]! })),
          cmd.success,
          cmd.failure,
        ),
      );
    case 'compact':
      return outcome(store.compact(Math.floor(cmd.fraction * revision)));
  }
}

function modelList(snapshot: Map<string, KeyValue>, prefix: string, sorted: (a: string, b: string) => number): KeyValue[] {
  return [...snapshot.values()].filter((kv) => kv.key.startsWith(prefix)).sort((a, b) => sorted(a.key, b.key));
}

/** Code point order, computed independently of src/storage/keys.ts. */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('storage property: memory and sqlite agree with each other and with the model', () => {
  it('random command sequences give identical results, reads at every revision, and watch histories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { maxLength: 40 }), async (cmds) => {
        const mem = await memoryBackend.open();
        const sql = await sqliteBackend.open();
        try {
          const model = new Model();
          const live = { mem: new Recorder(), sql: new Recorder(), memA: new Recorder(), sqlA: new Recorder() };
          await mem.watch('', 0, live.mem.handlers);
          await sql.watch('', 0, live.sql.handlers);
          await mem.watch('/a/', 0, live.memA.handlers);
          await sql.watch('/a/', 0, live.sqlA.handlers);

          for (const cmd of cmds) {
            const cur = 'key' in cmd ? model.state.get(cmd.key) : undefined;
            let expected: number | undefined;
            if (cmd.kind === 'update' || cmd.kind === 'delete') {
              expected = cmd.expect === 'none' ? undefined : cmd.expect === 'current' ? (cur?.modRevision ?? 0) : (cur?.modRevision ?? 0) + 1;
            }
            const compareRevisions =
              cmd.kind === 'txn'
                ? cmd.compares.map((c) => {
                    const m = model.state.get(c.key)?.modRevision ?? 0;
                    return c.mode === 'current' ? m : c.mode === 'absent' ? 0 : m + 1;
                  })
                : [];
            const revision = model.revision;
            const want = model.apply(cmd, expected, compareRevisions);
            const a = await run(mem, cmd, expected, compareRevisions, revision);
            const b = await run(sql, cmd, expected, compareRevisions, revision);
            assert.deepEqual(b, a, `sqlite and memory differ on ${JSON.stringify(cmd)}`);
            if ('error' in want) assert.equal('error' in a ? a.error : 'ok', want.error, JSON.stringify(cmd));
            else assert.deepEqual(a, want, JSON.stringify(cmd));
            assert.equal(await mem.currentRevision(), model.revision);
            assert.equal(await sql.currentRevision(), model.revision);
            assert.equal(await sql.compactRevision(), model.compactRevision);
          }

          // Every readable revision, through both stores, equals the model's snapshot.
          const from = Math.max(1, model.compactRevision);
          for (let rev = from; rev <= model.revision; rev++) {
            const snapshot = model.snapshots.get(rev) ?? model.snapshots.get(Math.max(...[...model.snapshots.keys()].filter((r) => r <= rev)))!;
            for (const prefix of prefixes) {
              const want = modelList(snapshot, prefix, byCodePoint);
              const m = await mem.list(prefix, { revision: rev });
              const s = await sql.list(prefix, { revision: rev });
              assert.deepEqual(m, { items: want, revision: rev, more: false });
              assert.deepEqual(s, m);
              const page = await sql.list(prefix, { revision: rev, limit: 2, after: '/a' });
              assert.deepEqual(page, await mem.list(prefix, { revision: rev, limit: 2, after: '/a' }));
              assert.equal(await sql.count(prefix), await mem.count(prefix));
            }
            for (const key of keys) {
              assert.deepEqual(await sql.get(key, rev), snapshot.get(key));
              assert.deepEqual(await mem.get(key, rev), snapshot.get(key));
            }
          }
          if (model.compactRevision > 1) {
            const below = model.compactRevision - 1;
            assert.deepEqual(await outcome(sql.get('/a', below)), await outcome(mem.get('/a', below)));
            assert.equal((await outcome(sql.list('', { revision: below })) as { error: string }).error, 'CompactedError');
          }

          // Live watches saw the same events; replays from the compact revision match them.
          assert.deepEqual(live.sql.events, live.mem.events);
          assert.deepEqual(live.sqlA.events, live.memA.events);
          for (const prefix of prefixes) {
            const rm = new Recorder();
            const rs = new Recorder();
            await mem.watch(prefix, model.compactRevision, rm.handlers);
            await sql.watch(prefix, model.compactRevision, rs.handlers);
            assert.deepEqual(rs.events, rm.events);
            const liveAfter = live.mem.events.filter((e) => e.kv.modRevision > model.compactRevision && e.kv.key.startsWith(prefix));
            assert.deepEqual(rm.events, liveAfter);
          }
          // Each live event agrees with the model: the state after it, the state before it.
          for (const e of live.mem.events) {
            const after = model.snapshots.get(e.kv.modRevision)!;
            const before = model.snapshots.get(Math.max(...[...model.snapshots.keys()].filter((r) => r < e.kv.modRevision)))!;
            assert.deepEqual(e.prevKv, before.get(e.kv.key));
            assert.equal(e.created, e.type === 'PUT' && !before.has(e.kv.key));
            if (e.type === 'PUT') assert.deepEqual(e.kv, after.get(e.kv.key));
            else assert.equal(after.has(e.kv.key), false);
          }
        } finally {
          await memoryBackend.dispose(mem);
          await sqliteBackend.dispose(sql);
        }
      }),
      { numRuns: Number(process.env.STORAGE_PROPERTY_RUNS ?? 200) },
    );
  });
});
