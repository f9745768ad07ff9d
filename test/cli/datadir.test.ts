// What the server does with the database it finds at start: a new data directory gets a new
// database; an existing cluster keeps its objects; a database that is missing or empty beside
// the cluster's certificates and tokens, or damaged, is refused in one line naming the file
// (by startServer, and by the real `bulkhead server` command, exit 1).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServer } from '../../src/server/start.js';
import { bulkhead } from './run.js';

const root = mkdtempSync(join(tmpdir(), 'bulkhead-datadir-'));

/** A data directory in which a server has run once and created namespace "kept". */
async function usedDataDir(name: string): Promise<string> {
  const dir = join(root, name);
  const s = await startServer({ dataDir: dir, port: 0, scheduler: false });
  await s.api.create(s.api.def('namespaces'), undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kept' } }, { user: { name: 'test', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] });
  await s.close();
  return dir;
}

const db = (dir: string) => join(dir, 'bulkhead.db');
const removeDB = (dir: string) => {
  for (const f of [db(dir), `${db(dir)}-wal`, `${db(dir)}-shm`]) rmSync(f, { force: true });
};

describe('the database at start', () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  const starts: { name: string; prepare: (name: string) => Promise<string>; kept: boolean }[] = [
    { name: 'a new data directory starts an empty cluster', prepare: async (name) => join(root, name), kept: false },
    {
      name: 'a 0-byte database in a directory with no certificates or tokens starts an empty cluster',
      prepare: async (name) => {
        const dir = join(root, name);
        mkdirSync(dir, { recursive: true });
        closeSync(openSync(db(dir), 'w'));
        return dir;
      },
      kept: false,
    },
    { name: 'a healthy database starts with its objects', prepare: usedDataDir, kept: true },
  ];
  starts.forEach((row, i) => {
    it(row.name, async () => {
      const dir = await row.prepare(`start-${i}`);
      const s = await startServer({ dataDir: dir, port: 0, scheduler: false });
      try {
        assert.equal((await s.api.tryGet(s.api.def('namespaces'), undefined, 'kept')) !== undefined, row.kept);
        assert.ok(existsSync(join(dir, 'pki', 'ca.crt')));
      } finally {
        await s.close();
      }
    });
  });

  const refused: { name: string; damage: (dir: string) => void; message: (dir: string) => string | RegExp }[] = [
    {
      name: 'a 0-byte database beside certificates and tokens is refused',
      damage: (dir) => {
        truncateSync(db(dir), 0);
        rmSync(`${db(dir)}-wal`, { force: true });
      },
      message: (dir) => `${db(dir)} is empty (0 bytes), but ${dir} already holds this cluster's certificates and tokens: refusing to start an empty cluster in its place (restore the database from a backup, or remove ${dir} to start a new cluster)`,
    },
    {
      name: 'a missing database beside certificates and tokens is refused',
      damage: removeDB,
      message: (dir) => `${db(dir)} is missing, but ${dir} already holds this cluster's certificates and tokens: refusing to start an empty cluster in its place (restore the database from a backup, or remove ${dir} to start a new cluster)`,
    },
    {
      name: 'a missing database beside the tokens alone is refused',
      damage: (dir) => {
        removeDB(dir);
        rmSync(join(dir, 'pki'), { recursive: true, force: true });
      },
      message: (dir) => `${db(dir)} is missing, but ${dir} already holds this cluster's certificates and tokens: refusing to start an empty cluster in its place (restore the database from a backup, or remove ${dir} to start a new cluster)`,
    },
    {
      name: 'a damaged database is refused with SQLite\'s answer',
      damage: (dir) => {
        const fd = openSync(db(dir), 'r+');
        writeSync(fd, Buffer.alloc(3 * 4096, 0xa5), 0, 3 * 4096, 4096);
        closeSync(fd);
      },
      message: (dir) => new RegExp(`^${db(dir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged: SQLite(?:'s quick_check)? says: [^\\n]+\\. Restore it from a backup, or move it away to start an empty cluster$`),
    },
  ];
  refused.forEach((row, i) => {
    it(row.name, async () => {
      const dir = await usedDataDir(`refused-${i}`);
      row.damage(dir);
      const expected = row.message(dir);
      const check = (text: string) => (typeof expected === 'string' ? assert.equal(text, expected) : assert.match(text, expected));
      await assert.rejects(startServer({ dataDir: dir, port: 0, scheduler: false }), (e: Error) => (check(e.message), true));
      // The command says it in one line and exits 1, having created no database.
      // Were it to start, it would serve until killed: the timeout only ends such a run.
      const r = bulkhead(['server', '--data-dir', dir, '--listen', '127.0.0.1:0'], undefined, 120_000);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 2, r.stderr);
      assert.match(lines[0]!, /^bulkhead: starting the API server/);
      check(lines[1]!.replace(/^error: /, ''));
      assert.ok(lines[1]!.startsWith('error: '), lines[1]);
      if (typeof expected === 'string' && expected.includes('is missing')) assert.equal(existsSync(db(dir)), false, 'the refusal created no database');
    });
  });
});
