// The SQLite store's file on disk: compaction gives the space of the history it removes back
// to the file system (auto_vacuum=INCREMENTAL, incremental_vacuum, a truncating checkpoint),
// a file made before that setting is converted at open, and a damaged file is refused with its
// name and SQLite's answer. Sizes are compared with each other, never with a clock.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { withDir } from './backends.js';


/** The database and its WAL: what the store occupies on disk. */
function onDisk(path: string): number {
  return statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
}

/** Rewrites a few keys many times: the history grows, the live state stays small. */
async function churn(s: SqliteStore, rounds: number): Promise<void> {
  const value = 'x'.repeat(2000);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < 10; k++) await s.txn([], [{ op: 'put', key: `/registry/pods/ns/p${k}`, value: `${r}:${value}` }]);
  }
}

describe('sqlite store: space on disk', () => {
  it('the file grows with history and shrinks again after compaction', () =>
    withDir('space', async (dir) => {
      const path = join(dir, 'store.db');
      const s = await SqliteStore.open(path);
      const empty = onDisk(path);
      await churn(s, 300);
      const grown = onDisk(path);
      assert.ok(grown > empty + 4 * 1024 * 1024, `3000 writes of 2 KB should grow the store by more than 4 MiB: ${empty} → ${grown}`);
      await s.compact(await s.currentRevision());
      const compacted = onDisk(path);
      assert.ok(compacted * 4 < grown, `compaction should give back most of the file: ${grown} → ${compacted}`);
      // Still the same data, and the same file keeps working.
      assert.equal((await s.get('/registry/pods/ns/p3'))?.value.startsWith('299:'), true);
      await churn(s, 5);
      await s.close();
      const reopened = await SqliteStore.open(path);
      assert.equal((await reopened.get('/registry/pods/ns/p3'))?.value.startsWith('4:'), true);
      await reopened.close();
    }));

  it('a file made without auto_vacuum is converted at open, and then shrinks after compaction', () =>
    withDir('convert', async (dir) => {
      const path = join(dir, 'store.db');
      // An old store: the schema made by a store, with auto_vacuum switched off by VACUUM.
      await (await SqliteStore.open(path)).close();
      const old = new Database(path);
      old.pragma('auto_vacuum = NONE');
      old.exec('VACUUM');
      assert.equal(old.pragma('auto_vacuum', { simple: true }), 0);
      old.close();

      const s = await SqliteStore.open(path);
      await churn(s, 300);
      const grown = onDisk(path);
      await s.compact(await s.currentRevision());
      assert.ok(onDisk(path) * 4 < grown, `${grown} → ${onDisk(path)}`);
      await s.close();
      const check = new Database(path, { readonly: true });
      assert.equal(check.pragma('auto_vacuum', { simple: true }), 2);
      check.close();
    }));

  const damaged: { name: string; damage: (path: string) => void; message: RegExp }[] = [
    {
      name: 'a file that is not a database',
      damage: (path) => writeFileSync(path, 'this is not an SQLite database, only some text that is long enough to look like a header\n'.repeat(100)),
      message: /^(.*)store\.db is damaged: SQLite says: file is not a database\. Restore it from a backup, or move it away to start an empty cluster$/,
    },
    {
      name: 'a database with an overwritten page',
      damage: (path) => {
        const fd = openSync(path, 'r+');
        // Pages 2 to 4 hold the log's tables and indexes: scribble over them, keep the header.
        writeSync(fd, Buffer.alloc(3 * 4096, 0xa5), 0, 3 * 4096, 4096);
        closeSync(fd);
      },
      message: /^(.*)store\.db is damaged: SQLite's quick_check says: .+\. Restore it from a backup, or move it away to start an empty cluster$/,
    },
  ];
  for (const d of damaged) {
    it(`${d.name} is refused with the file's name and SQLite's answer`, () =>
      withDir('damaged', async (dir) => {
        const path = join(dir, 'store.db');
        const s = await SqliteStore.open(path);
        await churn(s, 20);
        await s.close();
        d.damage(path);
        await assert.rejects(SqliteStore.open(path), (e: Error) => {
          assert.match(e.message, d.message);
          assert.ok(e.message.startsWith(path), e.message);
          return true;
        });
      }));
  }
});
