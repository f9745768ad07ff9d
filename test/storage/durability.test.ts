// DESIGN.md "Storage": a store must not lose an acknowledged write when the process is killed.
// A child process (writer-child.ts) writes as fast as it can and prints each write after it
// resolved; after a few hundred acknowledgements the child gets SIGKILL, mid-write with high
// probability. The store must then open cleanly, hold every acknowledged write at its revision,
// have no gap and no partial transaction, and continue the revision counter. Several rounds run
// on the same data (so recovery is followed by more writes and another kill): SQLite with the
// default synchronous=NORMAL and with FULL, and etcd (the killed process is the client; etcd
// keeps running, as it does when an API server dies).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { EtcdStore } from '../../src/storage/etcd.js';
import type { Store } from '../../src/storage/store.js';
import { etcdTestPrefix, tempDir } from './backends.js';
import { etcdMissing, sharedEtcd } from './etcdserver.js';

const child = fileURLToPath(new URL('./writer-child.js', import.meta.url));

interface Ack {
  revision: number;
  keys: string[];
}

/** One store under test: where its data lives, how the writer child and this process open it. */
interface Subject {
  name: string;
  skip?: string;
  setUp(): Promise<{ args: string[]; open(): Promise<Store>; cleanUp(): void; path?: string }>;
}

const subjects: Subject[] = [
  ...(['NORMAL', 'FULL'] as const).map((synchronous): Subject => ({
    name: `SQLite, synchronous=${synchronous}`,
    async setUp() {
      const dir = tempDir(`kill-${synchronous}`);
      const path = join(dir, 'store.db');
      return { path, args: ['sqlite', path, synchronous], open: () => SqliteStore.open(path), cleanUp: () => rmSync(dir, { recursive: true, force: true }) };
    },
  })),
  {
    name: 'etcd',
    skip: etcdMissing(),
    async setUp() {
      const etcd = await sharedEtcd();
      const prefix = etcdTestPrefix('kill');
      return { args: ['etcd', etcd.endpoint, prefix], open: () => EtcdStore.open({ endpoints: [etcd.endpoint], prefix }), cleanUp: () => {} };
    },
  },
];

/** Runs one writer until at least `acks` writes were acknowledged, kills it with SIGKILL, returns what it acknowledged. */
async function writeAndKill(args: string[], path: string | undefined, round: string, acks: number): Promise<{ acked: Ack[]; openedAt: number; signal: string | null; lockRefused: boolean }> {
  const proc = spawn(process.execPath, [child, ...args, round], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked: Ack[] = [];
  let openedAt = -1;
  let stderr = '';
  let buffered = '';
  let killed = false;
  let lockRefused = false;
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<string | null>((resolve) => proc.on('close', (_code, signal) => resolve(signal)));
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const [first, ...rest] = line.split(' ');
      if (first === 'open') {
        openedAt = Number(rest[0]);
        continue;
      }
      acked.push({ revision: Number(first), keys: rest });
    }
    if (!killed && acked.length >= acks) {
      killed = true;
      if (path === undefined) {
        proc.kill('SIGKILL');
        return;
      }
      // While the writer lives, nobody else may open its SQLite file.
      SqliteStore.open(path, { busyTimeoutMs: 20 }).then(
        (s) => s.close(),
        (err: Error) => {
          lockRefused = /in use/.test(err.message);
        },
      ).finally(() => proc.kill('SIGKILL'));
    }
  });
  const signal = await exited;
  assert.equal(killed, true, `the writer died before it was killed: ${stderr}`);
  // A partial last line is a write whose acknowledgement was cut off: not acknowledged.
  return { acked, openedAt, signal, lockRefused };
}

for (const subject of subjects) {
  describe(`kill -9 durability (${subject.name})`, () => {
    it('every acknowledged write survives SIGKILL, with no gap, no partial txn, and a continuing counter', { skip: subject.skip }, async (t) => {
      const { args, path, open, cleanUp } = await subject.setUp();
      try {
        const allAcked: Ack[] = [];
        let unacknowledged = 0;
        // The revision before the first round: 0 for a new SQLite file; etcd's counter is the etcd's.
        const first = await open();
        const startRevision = await first.currentRevision();
        await first.close();
        let lastRevision = startRevision;
        /** Revisions of the parent's own writes between rounds (outside /durability/). */
        const parentRevisions = new Set<number>();
        for (let round = 0; round < 3; round++) {
          const target = 300 + Math.floor(Math.random() * 200);
          const { acked, openedAt, signal, lockRefused } = await writeAndKill(args, path, `r${round}`, target);
          assert.equal(signal, 'SIGKILL');
          if (path !== undefined) assert.ok(lockRefused, 'a second open was refused while the writer ran');
          assert.equal(openedAt, lastRevision, 'the writer found the counter where the last round left it');
          assert.ok(acked.length >= target);
          allAcked.push(...acked);

          const store = await open();
          const current = await store.currentRevision();
          const maxAcked = acked.at(-1)!.revision;
          unacknowledged += current - maxAcked;
          // Writes committed after the last acknowledgement the parent read are allowed (the
          // child's stdout is asynchronous: acknowledgements still queued in it die with it).
          assert.ok(current >= maxAcked, `current ${current}, last acknowledged ${maxAcked}`);
          for (const ack of allAcked) {
            for (const key of ack.keys) {
              const kv = await store.get(key);
              assert.ok(kv, `acknowledged key ${key} (revision ${ack.revision}) is missing`);
              assert.equal(kv.modRevision, ack.revision);
            }
          }
          // Every revision is there exactly once and every txn is whole.
          const all = (await store.list('/durability/')).items;
          const byRevision = new Map<number, string[]>();
          for (const kv of all) byRevision.set(kv.modRevision, [...(byRevision.get(kv.modRevision) ?? []), kv.key]);
          assert.equal(byRevision.size, current - startRevision - parentRevisions.size);
          for (let r = startRevision + 1; r <= current; r++) {
            if (parentRevisions.has(r)) continue;
            const keys = byRevision.get(r);
            assert.ok(keys, `revision ${r} is missing`);
            assert.ok(keys.length === 1 || (keys.length === 3 && keys.every((k) => /\/[abc]$/.test(k))), `revision ${r} holds ${keys.join(', ')}`);
          }
          const next = await store.create(`/after/${round}`, 'x');
          assert.equal(next.modRevision, current + 1);
          const gone = await store.delete(`/after/${round}`);
          parentRevisions.add(next.modRevision).add(gone.modRevision);
          lastRevision = current + 2;
          await store.close();

          if (path !== undefined) {
            const db = new Database(path, { readonly: true });
            assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
            db.close();
          }
        }
        const keys = allAcked.reduce((n, a) => n + a.keys.length, 0);
        t.diagnostic(`kill -9 (${subject.name}): ${allAcked.length} acknowledged writes (${keys} keys) over 3 kills, all present; ${unacknowledged} more were committed whose acknowledgement died with the child`);
      } finally {
        cleanUp();
      }
    });
  });
}
