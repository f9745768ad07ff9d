// The SQLite store's WAL checkpoints run on a worker thread (src/storage/checkpointer.ts), and
// its one-owner guard is a lock file the kernel releases when the owner dies
// (src/storage/ownerlock.ts). Nothing here waits for a duration: the tests wait for conditions
// (the worker has answered every nudge, a child printed a line or exited).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { withDir } from './backends.js';

const holder = fileURLToPath(new URL('./holder-child.js', import.meta.url));

/**
 * Resolves once the condition holds, checking it every few milliseconds; a worker that never
 * catches up fails the test after a bound far above any machine's load, instead of hanging it.
 */
async function until(condition: () => boolean, boundMs = 120_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${boundMs / 1000} s: ${condition.toString()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('sqlite store: checkpoints on the worker thread', () => {
  it('the worker copies the WAL into the database, and the WAL starts over at its bound', () =>
    withDir('ckpt', async (dir) => {
      const path = join(dir, 'store.db');
      const bound = 64;
      const s = await SqliteStore.open(path, { checkpoint: { rowsPerNudge: 10, boundFrames: bound } });
      const value = 'v'.repeat(3000);
      const rounds = 40;
      const perRound = 10;
      const initialDb = statSync(path).size;
      let largestWal = 0;
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < perRound; i++) await s.create(`/k/${round}/${i}`, value);
        await until(() => s.checkpointStats()!.caughtUp);
        largestWal = Math.max(largestWal, statSync(`${path}-wal`).size);
      }
      const written = rounds * perRound * value.length;
      const stats = s.checkpointStats()!;
      // The store's connection never checkpoints on its own commits (wal_autocheckpoint=0): the
      // database file grows only through the worker's checkpoints and the store's short ones.
      assert.ok(stats.worker.count >= rounds, `the worker checkpointed once per nudge at least: ${JSON.stringify(stats)}`);
      assert.ok(statSync(path).size - initialDb >= written, `the database file holds what was written: ${statSync(path).size} bytes`);
      // Past the bound the store copies the last frames itself and the next write restarts the WAL.
      assert.ok(stats.own.count >= 1, `the store finished a checkpoint at the bound: ${JSON.stringify(stats)}`);
      assert.ok(largestWal < written / 2, `the WAL stayed short (${largestWal} bytes for ${written} written)`);
      await s.close();
      const again = await SqliteStore.open(path);
      assert.equal(await again.count('/k/'), rounds * perRound);
      await again.close();
    }));

  it('a store that never reaches the nudge threshold starts no worker and still closes cleanly', () =>
    withDir('ckpt-none', async (dir) => {
      const path = join(dir, 'store.db');
      const s = await SqliteStore.open(path, { checkpoint: { rowsPerNudge: 1000 } });
      await s.create('/a', '1');
      assert.equal(s.checkpointStats()!.worker.count, 0);
      await s.close();
      const again = await SqliteStore.open(path);
      assert.equal((await again.get('/a'))?.value, '1');
      await again.close();
    }));

  it('a worker that fails hands the checkpoints back to SQLite on the store connection, and writes go on', () =>
    withDir('ckpt-fail', async (dir) => {
      const path = join(dir, 'store.db');
      // An addon the worker cannot load: its connection never opens.
      const s = await SqliteStore.open(path, { checkpoint: { rowsPerNudge: 5, workerAddon: join(dir, 'missing.node') } });
      assert.equal(s.settings().walAutocheckpoint, 0);
      for (let i = 0; i < 5; i++) await s.create(`/a/${i}`, String(i));
      // The worker's 'error' (which hands the checkpoints back) comes before its 'exit'.
      await s.checkpointWorkerExited();
      assert.equal(s.settings().walAutocheckpoint, 1000, "SQLite's default threshold, as before the worker");
      for (let i = 5; i < 10; i++) await s.create(`/a/${i}`, String(i));
      assert.equal(s.checkpointStats()!.worker.count, 0);
      await s.close();
      const again = await SqliteStore.open(path);
      assert.deepEqual((await again.list('/a/')).items.map((kv) => kv.value), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
      await again.close();
    }));
});

describe('sqlite store: one owner, guarded by a lock the kernel releases', () => {
  it('another process holding the store is refused a second open; after it is killed with SIGKILL the store opens with its data', () =>
    withDir('owner', async (dir) => {
      const path = join(dir, 'store.db');
      const child = spawn(process.execPath, [holder, path], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<string | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
      try {
        await new Promise<void>((resolve, reject) => {
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (d: string) => {
            out += d;
            if (out.includes('open\n')) resolve();
          });
          child.on('close', () => reject(new Error(`the holder exited before it opened the store: ${stderr}`)));
        });
        await assert.rejects(SqliteStore.open(path, { busyTimeoutMs: 50 }), /: the store is in use by another process or connection \(database is locked\)$/);
      } finally {
        child.kill('SIGKILL');
      }
      assert.equal(await exited, 'SIGKILL');
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('store.db-lock')), ['store.db-lock'], 'the killed owner left only the lock file, no journal of it');
      const s = await SqliteStore.open(path, { busyTimeoutMs: 50 });
      assert.equal((await s.get('/held'))?.value, 'by the child');
      await s.close();
    }));
});
