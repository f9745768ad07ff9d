// What only the SQLite store has: a file that outlives the process, its settings, its schema,
// one owner at a time, and compaction that really frees the log.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { Recorder, tempDir, withDir } from './backends.js';


describe('sqlite store', () => {
  it('revision counter, data and compact revision survive a reopen', () =>
    withDir('reopen', async (dir) => {
      const path = join(dir, 'store.db');
      let s = await SqliteStore.open(path);
      await s.create('/a', '1');
      await s.create('/b', '1');
      await s.update('/a', '2');
      await s.delete('/b');
      await s.compact(3);
      await s.close();

      s = await SqliteStore.open(path);
      assert.equal(await s.currentRevision(), 4);
      assert.equal(await s.compactRevision(), 3);
      assert.deepEqual(await s.get('/a'), { key: '/a', value: '2', createRevision: 1, modRevision: 3, version: 2 });
      assert.equal(await s.get('/b'), undefined);
      await assert.rejects(s.get('/a', 2), /compacted/);
      const rec = new Recorder();
      await s.watch('/', 3, rec.handlers);
      assert.deepEqual(rec.summary, [['DELETE', '/b', 4]]);
      assert.equal((await s.create('/c', '1')).modRevision, 5);
      assert.deepEqual(rec.summary.at(-1), ['PUT', '/c', 5]);
      await s.close();
    }));

  it('writes made in one event-loop turn commit together: each is acknowledged, and watched, only after that commit', () =>
    withDir('group', async (dir) => {
      const path = join(dir, 'store.db');
      const s = await SqliteStore.open(path);
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      const writes = Array.from({ length: 16 }, (_, i) => s.create(`/k/${i}`, String(i)));
      // A write that fails inside the group is undone alone; the others still commit.
      const duplicate = assert.rejects(s.create('/k/3', 'again'), /key exists/);
      assert.deepEqual(rec.summary, [], 'nothing is delivered before the commit');
      const kvs = await Promise.all(writes);
      await duplicate;
      assert.deepEqual(kvs.map((kv) => kv.modRevision), Array.from({ length: 16 }, (_, i) => i + 1));
      assert.deepEqual(rec.summary, kvs.map((kv) => ['PUT', kv.key, kv.modRevision]));
      await s.close();
      const reopened = await SqliteStore.open(path);
      assert.equal(await reopened.currentRevision(), 16);
      assert.equal((await reopened.get('/k/3'))?.value, '3');
      await reopened.close();
    }));

  it('a revision the store reports is committed and delivered: asking for it commits the open group', () =>
    withDir('group-revision', async (dir) => {
      const s = await SqliteStore.open(join(dir, 'store.db'));
      const rec = new Recorder();
      await s.watch('/', 0, rec.handlers);
      const writes = [s.create('/a', '1'), s.create('/b', '1')];
      assert.equal(await s.currentRevision(), 2);
      assert.deepEqual(rec.summary, [['PUT', '/a', 1], ['PUT', '/b', 2]]);
      const later = s.create('/c', '1');
      const listed = await s.list('/');
      assert.equal(listed.revision, 3);
      assert.deepEqual(rec.summary.at(-1), ['PUT', '/c', 3]);
      await Promise.all([...writes, later]);
      await s.close();
    }));

  it('the revision counter survives a compaction that removed every row below it', () =>
    withDir('counter', async (dir) => {
      const path = join(dir, 'store.db');
      let s = await SqliteStore.open(path);
      await s.create('/a', '1');
      await s.delete('/a');
      await s.compact(2);
      await s.close();
      s = await SqliteStore.open(path);
      assert.equal(await s.currentRevision(), 2);
      assert.equal((await s.create('/a', '1')).modRevision, 3);
      await s.close();
    }));

  it('opens in WAL mode with synchronous NORMAL by default, FULL on request, normal locking (the checkpoint worker has a connection too)', () =>
    withDir('settings', async (dir) => {
      const s = await SqliteStore.open(join(dir, 'normal.db'));
      const settings = s.settings();
      assert.equal(settings.journalMode, 'wal');
      assert.equal(settings.synchronous, 'NORMAL');
      assert.equal(settings.lockingMode, 'normal');
      assert.equal(settings.schemaVersion, 1);
      assert.ok(settings.busyTimeoutMs > 0);
      assert.equal(settings.mmapSize, 0);
      await s.close();
      const full = await SqliteStore.open(join(dir, 'full.db'), { synchronous: 'FULL' });
      assert.equal(full.settings().synchronous, 'FULL');
      await full.close();
      await assert.rejects(SqliteStore.open(join(dir, 'x.db'), { synchronous: 'OFF' as 'FULL' }), TypeError);
    }));

  it('creates the database (and its WAL, shared-memory and lock files) readable by its owner only, and its directory when missing', () =>
    withDir('mode', async (dir) => {
      const path = join(dir, 'nested', 'deeper', 'store.db');
      const s = await SqliteStore.open(path);
      await s.create('/secret', 's');
      assert.equal(statSync(path).mode & 0o777, 0o600);
      for (const file of [`${path}-wal`, `${path}-shm`, `${path}-lock`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
      await s.close();
    }));

  it('one owner at a time: a second open of an open store is refused, and works after close', () =>
    withDir('lock', async (dir) => {
      const path = join(dir, 'store.db');
      const s = await SqliteStore.open(path);
      await s.create('/a', '1');
      await assert.rejects(SqliteStore.open(path, { busyTimeoutMs: 50 }), /in use by another process/);
      assert.equal((await s.create('/b', '1')).modRevision, 2, 'the owner is unaffected');
      await s.close();
      const again = await SqliteStore.open(path);
      assert.equal(await again.currentRevision(), 2);
      await again.close();
    }));

  it('refuses a database written by a newer schema version', () =>
    withDir('schema', async (dir) => {
      const path = join(dir, 'store.db');
      const db = new Database(path);
      db.pragma('user_version = 99');
      db.close();
      await assert.rejects(SqliteStore.open(path), /schema version 99 is newer/);
    }));

  it('compaction removes superseded rows and deletions from the log, and nothing else', () =>
    withDir('compact', async (dir) => {
      const path = join(dir, 'store.db');
      const s = await SqliteStore.open(path);
      for (let i = 0; i < 10; i++) await s.create(`/k/${i}`, '0'); // 1..10
      for (let round = 1; round <= 3; round++) for (let i = 0; i < 10; i++) await s.update(`/k/${i}`, String(round)); // 11..40
      for (let i = 0; i < 5; i++) await s.delete(`/k/${i}`); // 41..45
      await s.create('/k/new', 'n'); // 46
      await s.compact(43);
      const live = await s.list('');
      await s.close();
      const db = new Database(path, { readonly: true });
      const rows = db.prepare('SELECT revision, key, deleted FROM log ORDER BY id').all() as { revision: number; key: string; deleted: number }[];
      // Below 43: each key's state as of 43 unless deleted: /k/3 .. /k/9 from the third round (34..40).
      // From 43 on: every row (43, 44, 45 deletions and 46).
      assert.deepEqual(rows.map((r) => r.revision), [34, 35, 36, 37, 38, 39, 40, 43, 44, 45, 46]);
      const compact = db.prepare(`SELECT value FROM meta WHERE name = 'compact_revision'`).get() as { value: number };
      assert.equal(compact.value, 43);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
      const again = await SqliteStore.open(path);
      assert.deepEqual(await again.list(''), live);
      await again.close();
    }));
});
