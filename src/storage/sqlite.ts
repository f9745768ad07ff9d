// The embedded store: an MVCC log in SQLite (WAL), in the style of kine and etcd.
//
// Schema (user_version 1):
//
//   log      one row per change: id INTEGER PRIMARY KEY (log order), revision, key, value (NULL
//            for a deletion), create_revision, prev_revision (modRevision of the key's state
//            before this change; NULL when the key was absent), version, deleted.
//            A transaction writing n keys appends n rows with the same revision, in op order,
//            so the row id, not the revision, is the primary key (etcd's main/sub revision).
//            Indexes: (key, revision) UNIQUE for reads at a revision and compaction;
//            (revision) for the start of a watch replay and compaction slices.
//   current  key -> id of the key's latest row, for live keys only (WITHOUT ROWID), updated in
//            the same transaction as the log: get, list and count of the current state are
//            B-tree lookups and range scans, O(log n) plus the rows returned.
//   meta     name -> value; holds compact_revision.
//
// The current revision is the highest revision in the log: the newest row is never removed by
// compaction (it only removes rows below the compact revision, which is at most the current
// revision), so the counter survives restarts and compactions without a separate write.
//
// Writes are better-sqlite3 savepoints inside one transaction per event-loop turn (the engine's
// group commit: BEGIN IMMEDIATE at the turn's first write, COMMIT at its end): once a write
// method's promise resolves, the write is committed.
//
// Durability. In WAL mode every COMMIT appends the transaction's pages to the -wal file with
// write(2) before it returns. With synchronous=NORMAL (the default here) the WAL is fsync'ed only
// at checkpoints, so a committed transaction may still sit in the operating system's page cache;
// that cache belongs to the kernel, not to the process, so killing the process (kill -9, a crash,
// an OOM kill) loses nothing: the next open recovers the WAL. What NORMAL can lose is the last
// transactions before an operating-system crash or power cut (the database stays consistent; it
// rolls back to an earlier commit). synchronous=FULL also fsyncs the WAL on every commit, so an
// acknowledged write survives power loss too, at the price of one fsync per write.
//
// Space. Compaction deletes history rows, which only puts their pages on SQLite's free list: the
// file would never shrink. Databases are therefore created with auto_vacuum=INCREMENTAL (which
// can only be chosen before the first table exists; an older file is converted once, at open,
// with VACUUM), and after each compaction the free pages are given back, a slice at a time,
// with PRAGMA incremental_vacuum, then a checkpoint truncates the file.
//
// Integrity. Every open runs PRAGMA quick_check and refuses a damaged file, naming it and
// quoting SQLite, rather than serving whatever part of it still reads. The check reads every
// page, through a memory map of the file for its duration (mmap is off otherwise): on a 167 MB
// store 120 ms of CPU instead of 280 ms through read(2) and the 2 MB page cache.
//
// Checkpoints. SQLite's automatic checkpoint would run inside a COMMIT on the server's one
// thread; the connection turns it off (wal_autocheckpoint=0) and a worker thread with its own
// connection copies the WAL into the database (checkpointer.ts). That second connection is why
// the store's connection uses locking_mode=NORMAL.
//
// One process owns the database: watchers live in that process and see only its writes, so a
// second writer would silently break watches and the cached revision. With NORMAL locking the
// database file itself does not keep others out; a lock file beside it does (ownerlock.ts),
// taken before the database is opened: a second open of the same store (from any process) fails
// with "database is locked" after the busy timeout, and the kernel releases the lock when the
// owner dies, kill -9 included.

import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { KeyValue, WatchEvent } from './store.js';
import { LogStore, deleteEvent, putEvent, type HistoryPage, type LogBackend, type RangeQuery } from './engine.js';
import { prefixUpperBound } from './keys.js';
import { Checkpointer, type CheckpointStats } from './checkpointer.js';
import { takeOwnerLock, type OwnerLock } from './ownerlock.js';

export interface SqliteStoreOptions {
  /** NORMAL (default): durable against a killed process. FULL: also against power loss, one fsync per write. */
  synchronous?: 'NORMAL' | 'FULL';
  /** How long to wait for a lock held by another connection, in milliseconds (default 5000). */
  busyTimeoutMs?: number;
  /**
   * The checkpoint worker's thresholds (checkpointer.ts); tests make them small. `workerAddon`
   * replaces the SQLite addon the worker loads: tests break the worker with it to see the store
   * fall back to SQLite's own checkpoints.
   */
  checkpoint?: { rowsPerNudge?: number; boundFrames?: number; workerAddon?: string };
}

const schemaVersion = 1;

const schema = `
CREATE TABLE IF NOT EXISTS log (
  id              INTEGER PRIMARY KEY,
  revision        INTEGER NOT NULL,
  key             TEXT    NOT NULL,
  value           TEXT,
  create_revision INTEGER NOT NULL,
  prev_revision   INTEGER,
  version         INTEGER NOT NULL,
  deleted         INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS log_key_revision ON log (key, revision);
CREATE INDEX IF NOT EXISTS log_revision ON log (revision);
CREATE TABLE IF NOT EXISTS current (
  key TEXT    PRIMARY KEY,
  id  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Revisions per compaction slice; each slice is one short transaction. */
const compactSlice = 5000;

/** Free pages handed back to the file system per incremental_vacuum step (16 MiB of 4 KiB pages). */
const vacuumSlice = 4096;

/**
 * Rows committed per nudge of the checkpoint worker. bench:api's server writes ~4 WAL pages per
 * row (50 automatic checkpoints of 1,000 pages for 5,000 creates of ~2.6 rows each), so this is
 * about SQLite's own threshold of 1,000 pages.
 */
const rowsPerCheckpoint = 250;

/** WAL frames (4 KiB pages) past which the store finishes a checkpoint itself so the WAL restarts (checkpointer.ts). */
const walBoundFrames = 8192;

/** WAL frames few enough for the store to checkpoint on its own thread at the bound. */
const walTailFrames = 64;

/** PRAGMA auto_vacuum's numbering. */
const autoVacuumIncremental = 2;

interface KvRow {
  key: string;
  value: string;
  create_revision: number;
  revision: number;
  version: number;
}

interface AtRow extends Omit<KvRow, 'value'> {
  value: string | null;
  deleted: number;
}

interface HistoryRow {
  id: number;
  revision: number;
  key: string;
  value: string | null;
  create_revision: number;
  version: number;
  deleted: number;
  prev_revision: number | null;
  p_value: string | null;
  p_create_revision: number | null;
  p_version: number | null;
}

function toKeyValue(r: KvRow): KeyValue {
  return { key: r.key, value: r.value, createRevision: r.create_revision, modRevision: r.revision, version: r.version };
}

const kvColumns = 'l.key, l.value, l.create_revision, l.revision, l.version';

type Stmt = Database.Statement<unknown[], unknown>;

/** Checkpoints the store's connection made itself: see checkpointer.ts, "Bound". */
interface OwnCheckpoints {
  count: number;
  totalMs: number;
  maxMs: number;
}

class SqliteBackend implements LogBackend {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Stmt>();
  readonly #tx: Database.Transaction<(body: () => unknown) => unknown>;
  readonly #checkpointer: Checkpointer | undefined;
  /** Rows written by the open group. */
  #groupRows = 0;
  readonly ownCheckpoints: OwnCheckpoints = { count: 0, totalMs: 0, maxMs: 0 };

  constructor(db: Database.Database, checkpointer: Checkpointer | undefined) {
    this.#db = db;
    this.#tx = db.transaction((body: () => unknown) => body());
    this.#checkpointer = checkpointer;
  }

  /** After a commit of `rows` rows: nudges the checkpointer, and finishes a checkpoint when it asks. */
  #committed(rows: number): void {
    const c = this.#checkpointer;
    if (!c) return;
    c.committed(rows);
    if (!c.finishRequested()) return;
    const t0 = performance.now();
    // Busy (the worker is checkpointing) costs nothing: the request stays for the next commit.
    const r = this.#stmt('PRAGMA wal_checkpoint(PASSIVE)').get() as { busy: number; log: number; checkpointed: number };
    if (r.busy !== 0) return;
    if (r.checkpointed === r.log) c.finished();
    const ms = performance.now() - t0;
    const own = this.ownCheckpoints;
    own.count++;
    own.totalMs += ms;
    own.maxMs = Math.max(own.maxMs, ms);
  }

  /** A prepared statement, prepared once per connection. */
  #stmt(sql: string): Stmt {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  loadRevision(): number {
    const row = this.#stmt('SELECT max(revision) AS r FROM log').get() as { r: number | null };
    return row.r ?? 0;
  }

  loadCompactRevision(): number {
    const row = this.#stmt(`SELECT value FROM meta WHERE name = 'compact_revision'`).get() as { value: number } | undefined;
    return row?.value ?? 0;
  }

  current(key: string): KeyValue | undefined {
    const row = this.#stmt(`SELECT ${kvColumns} FROM current c JOIN log l ON l.id = c.id WHERE c.key = ?`).get(key) as KvRow | undefined;
    return row && toKeyValue(row);
  }

  at(key: string, revision: number): KeyValue | undefined {
    const row = this.#stmt(
      `SELECT ${kvColumns}, l.deleted FROM log l WHERE l.key = ? AND l.revision <= ? ORDER BY l.revision DESC LIMIT 1`,
    ).get(key, revision) as AtRow | undefined;
    return row && !row.deleted ? toKeyValue(row as KvRow) : undefined;
  }

  range(q: RangeQuery): KeyValue[] {
    const lower = q.fromInclusive ? '>=' : '>';
    let rows: KvRow[];
    if (q.revision === undefined) {
      const upper = q.to === undefined ? '' : 'AND c.key < @to';
      rows = this.#stmt(
        `SELECT ${kvColumns} FROM current c JOIN log l ON l.id = c.id
         WHERE c.key ${lower} @from ${upper} ORDER BY c.key LIMIT @limit`,
      ).all({ from: q.from, to: q.to, limit: q.limit }) as KvRow[];
    } else {
      // The latest row of each key at or below the revision, unless that row is a deletion.
      const upper = q.to === undefined ? '' : 'AND l.key < @to';
      rows = this.#stmt(
        `SELECT ${kvColumns} FROM log l
         WHERE l.key ${lower} @from ${upper} AND l.revision <= @rev AND l.deleted = 0
           AND NOT EXISTS (SELECT 1 FROM log n WHERE n.key = l.key AND n.revision > l.revision AND n.revision <= @rev)
         ORDER BY l.key LIMIT @limit`,
      ).all({ from: q.from, to: q.to, limit: q.limit, rev: q.revision }) as KvRow[];
    }
    return rows.map(toKeyValue);
  }

  count(from: string, to: string | undefined): number {
    const row = (to === undefined
      ? this.#stmt('SELECT count(*) AS n FROM current WHERE key >= ?').get(from)
      : this.#stmt('SELECT count(*) AS n FROM current WHERE key >= ? AND key < ?').get(from, to)) as { n: number };
    return row.n;
  }

  transaction<T>(body: () => T): T {
    // Inside a group, better-sqlite3 runs it as a savepoint of the group's transaction.
    return this.#tx.immediate(body) as T;
  }

  beginGroup(): void {
    this.#stmt('BEGIN IMMEDIATE').run();
  }

  commitGroup(): void {
    this.#stmt('COMMIT').run();
    const rows = this.#groupRows;
    this.#groupRows = 0;
    this.#committed(rows);
  }

  rollbackGroup(): void {
    this.#groupRows = 0;
    if (this.#db.inTransaction) this.#stmt('ROLLBACK').run();
  }

  append(events: readonly WatchEvent[]): void {
    const insert = this.#stmt(
      `INSERT INTO log (revision, key, value, create_revision, prev_revision, version, deleted) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const setCurrent = this.#stmt('INSERT INTO current (key, id) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET id = excluded.id');
    const dropCurrent = this.#stmt('DELETE FROM current WHERE key = ?');
    this.#groupRows += events.length;
    for (const e of events) {
      const { kv } = e;
      const prev = e.prevKv?.modRevision ?? null;
      if (e.type === 'PUT') {
        const { lastInsertRowid } = insert.run(kv.modRevision, kv.key, kv.value, kv.createRevision, prev, kv.version, 0);
        setCurrent.run(kv.key, lastInsertRowid);
      } else {
        insert.run(kv.modRevision, kv.key, null, kv.createRevision, prev, kv.version, 1);
        dropCurrent.run(kv.key);
      }
    }
  }

  historyStart(afterRevision: number): number {
    // Ids grow with revisions; min(id) would scan the table from the start instead of the index.
    const row = this.#stmt('SELECT id FROM log WHERE revision > ? ORDER BY revision, id LIMIT 1').get(afterRevision) as { id: number } | undefined;
    return row?.id ?? Number.MAX_SAFE_INTEGER;
  }

  history(prefix: string, cursor: number, throughRevision: number, limit: number): HistoryPage {
    const to = prefixUpperBound(prefix);
    const upper = to === undefined ? '' : 'AND +l.key < @to';
    // The log is read in id order from the cursor, filtering keys: linear in the log after the
    // watch's revision. (The unary + keeps the planner off the key index, which would sort the
    // prefix's whole history again for every page.) The previous state is joined from the log:
    // it is never compacted while a later row of the key is replayable (it is that key's state
    // as of the compact revision).
    const rows = this.#stmt(
      `SELECT l.id, l.revision, l.key, l.value, l.create_revision, l.version, l.deleted, l.prev_revision,
              p.value AS p_value, p.create_revision AS p_create_revision, p.version AS p_version
       FROM log l LEFT JOIN log p ON p.key = l.key AND p.revision = l.prev_revision
       WHERE l.id >= @cursor AND +l.revision <= @through AND +l.key >= @from ${upper}
       ORDER BY l.id LIMIT @limit`,
    ).all({ cursor, through: throughRevision, from: prefix, to, limit }) as HistoryRow[];
    const events = rows.map((r) => {
      let prev: KeyValue | undefined;
      if (r.prev_revision !== null) {
        if (r.p_value === null) throw new Error(`storage log is missing ${r.key}@${r.prev_revision}, the state before revision ${r.revision}`);
        prev = { key: r.key, value: r.p_value, createRevision: r.p_create_revision!, modRevision: r.prev_revision, version: r.p_version! };
      }
      if (!r.deleted) return putEvent(r.key, r.value!, r.revision, prev);
      if (!prev) throw new Error(`storage log has a deletion of ${r.key} at revision ${r.revision} without a previous state`);
      return deleteEvent(r.revision, prev);
    });
    const last = rows.at(-1);
    return { events, cursor: last ? last.id + 1 : cursor, done: rows.length < limit };
  }

  recordCompaction(revision: number): void {
    this.#stmt(
      `INSERT INTO meta (name, value) VALUES ('compact_revision', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    ).run(revision);
  }

  compactStart(): number {
    const row = this.#stmt('SELECT min(revision) AS r FROM log').get() as { r: number | null };
    return row.r ?? 0;
  }

  compactStep(revision: number, from: number): number | undefined {
    const to = Math.min(from + compactSlice, revision);
    // Below the compact revision a row is needed only as its key's state at that revision:
    // drop rows superseded by a later row at or below it, and every deletion.
    const { changes } = this.#tx.immediate(() =>
      this.#stmt(
        `DELETE FROM log WHERE revision >= @from AND revision < @to
           AND (deleted = 1 OR EXISTS (SELECT 1 FROM log n WHERE n.key = log.key AND n.revision > log.revision AND n.revision <= @rev))`,
      ).run({ from, to, rev: revision }),
    ) as Database.RunResult;
    this.#committed(changes);
    return to < revision ? to : undefined;
  }

  reclaimStep(): boolean {
    this.#db.pragma(`incremental_vacuum(${vacuumSlice})`);
    if ((this.#db.pragma('freelist_count', { simple: true }) as number) > 0) return true;
    // The vacuum shrank the database in the WAL; the checkpoint shrinks the file itself. SQLite
    // does not wait for another checkpointer: while the worker is copying, this answers busy
    // (at once) and is tried again on a later turn, after the worker's checkpoint ends.
    const [r] = this.#db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return r!.busy !== 0;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

/** The file is a damaged database, or no database: the message names it and quotes SQLite. */
export class CorruptDatabaseError extends Error {}

function checkIntegrity(db: Database.Database, path: string): void {
  // SQLite maps at most the file's size (and at most its compile-time limit, 2 GB).
  db.pragma(`mmap_size = ${statSync(path).size}`);
  let rows: { quick_check: string }[];
  try {
    rows = db.pragma('quick_check') as { quick_check: string }[];
  } finally {
    db.pragma('mmap_size = 0');
  }
  // One line: the first problems SQLite lists (its "*** in database main ***" heading dropped) and how many there are.
  const answer = rows.flatMap((r) => r.quick_check.split('\n')).filter((l) => l !== '' && !l.startsWith('*** in database'));
  if (answer.length === 1 && answer[0] === 'ok') return;
  const shown = answer.slice(0, 3).join('; ') + (answer.length > 3 ? `; and ${answer.length - 3} more` : '');
  throw new CorruptDatabaseError(`${path} is damaged: SQLite's quick_check says: ${shown}. Restore it from a backup, or move it away to start an empty cluster`);
}

/** Switches a file made before auto_vacuum was set to INCREMENTAL; VACUUM rewrites it once. */
function ensureIncrementalVacuum(db: Database.Database): void {
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === autoVacuumIncremental) return;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
}

/**
 * better-sqlite3's addon, for its `nativeBinding` option: where the package's own build puts it,
 * else wherever the `bindings` package finds it from the package's directory (its search, which
 * better-sqlite3 makes itself without the option, probes a dozen paths: 3-4 ms of CPU of every
 * server start here). Either way found from the package's directory, not from the caller's file:
 * scripts/bundle.mjs links better-sqlite3's JavaScript into dist/bin, where `bindings` looking
 * upward from the caller would not find it.
 */
let addon: string | undefined;
function sqliteAddon(): string {
  if (addon === undefined) {
    const root = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '..');
    const built = join(root, 'build', 'Release', 'better_sqlite3.node');
    addon = existsSync(built) ? built : (createRequire(join(root, 'package.json'))('bindings') as (o: object) => string)({ bindings: 'better_sqlite3.node', module_root: root, path: true });
  }
  return addon;
}

/**
 * Takes the owner lock of `path` (the file `<path>-lock`) without waiting: a store's, as a server
 * opening it would, for a command that must not run beside that server (`bulkhead down`), or a
 * node agent's state directory's, which one agent holds while it runs. Throws an error with
 * `code` SQLITE_BUSY while another process holds it; the kernel drops it when its holder dies.
 */
export function takeOwnerLockNow(path: string): OwnerLock {
  return takeOwnerLock(path, 0, sqliteAddon());
}

export interface SqliteSettings {
  path: string;
  sqliteVersion: string;
  journalMode: string;
  synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';
  lockingMode: string;
  busyTimeoutMs: number;
  schemaVersion: number;
  /** Bytes of the file read through a memory map: 0 (only the integrity check at open maps it). */
  mmapSize: number;
  /** WAL pages after which a COMMIT checkpoints on the store's connection: 0 while the worker does it (checkpointer.ts). */
  walAutocheckpoint: number;
}

export class SqliteStore extends LogStore {
  /** The file the store lives in. */
  readonly path: string;
  readonly #db: Database.Database;
  readonly #backend: SqliteBackend;
  readonly #checkpointer: Checkpointer | undefined;
  readonly #lock: OwnerLock | undefined;

  private constructor(db: Database.Database, path: string, checkpointer: Checkpointer | undefined, lock: OwnerLock | undefined) {
    const backend = new SqliteBackend(db, checkpointer);
    super(backend);
    this.#backend = backend;
    this.#db = db;
    this.path = path;
    this.#checkpointer = checkpointer;
    this.#lock = lock;
  }

  /**
   * WAL checkpoints so far: the worker's, those the store's connection finished itself, and
   * whether the worker has done all it was asked (undefined for an in-memory store).
   */
  checkpointStats(): { worker: CheckpointStats; own: OwnCheckpoints; caughtUp: boolean } | undefined {
    const c = this.#checkpointer;
    return c && { worker: c.stats(), own: { ...this.#backend.ownCheckpoints }, caughtUp: c.caughtUp() };
  }

  /** Resolves once the checkpoint worker has exited (at once if none was started): for tests. */
  checkpointWorkerExited(): Promise<void> {
    return this.#checkpointer?.exited() ?? Promise.resolve();
  }

  /**
   * Closes the store (at once, as LogStore does: watches end before this returns its promise),
   * then lets the checkpoint worker finish, then releases the owner lock.
   */
  override async close(): Promise<void> {
    await super.close();
    await this.#checkpointer?.stop();
    this.#lock?.release();
  }

  /** The connection's settings as SQLite reports them (for diagnostics and tests). */
  settings(): SqliteSettings {
    const pragma = (name: string) => this.#db.pragma(name, { simple: true });
    const synchronous = (['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const)[pragma('synchronous') as number]!;
    return {
      path: this.path,
      sqliteVersion: (this.#db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v,
      journalMode: String(pragma('journal_mode')),
      synchronous,
      lockingMode: String(pragma('locking_mode')),
      busyTimeoutMs: pragma('busy_timeout') as number,
      schemaVersion: pragma('user_version') as number,
      mmapSize: pragma('mmap_size') as number,
      walAutocheckpoint: pragma('wal_autocheckpoint') as number,
    };
  }

  /**
   * Opens (creating when needed) the store at `path`. The file is created readable by its owner
   * only (the WAL and shared-memory files inherit its mode), since it holds every API object.
   */
  static async open(path: string, opts: SqliteStoreOptions = {}): Promise<SqliteStore> {
    const synchronous = opts.synchronous ?? 'NORMAL';
    if (synchronous !== 'NORMAL' && synchronous !== 'FULL') throw new TypeError(`synchronous must be NORMAL or FULL, got ${String(synchronous)}`);
    const busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
    const inMemory = path === ':memory:';
    if (!inMemory) {
      if (path === '') throw new TypeError('sqlite store path is empty');
      mkdirSync(dirname(path), { recursive: true });
      // Only when absent: closing any descriptor of a file drops every POSIX lock this process
      // holds on it, including the lock of a connection already open on that file.
      try {
        closeSync(openSync(path, 'wx', 0o600));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    let lock: OwnerLock | undefined;
    let db: Database.Database | undefined;
    try {
      if (!inMemory) lock = takeOwnerLock(path, busyTimeoutMs, sqliteAddon());
      const conn = new Database(path, { timeout: busyTimeoutMs, nativeBinding: sqliteAddon() });
      db = conn;
      conn.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
      // Takes effect only while the file has no tables (a new store); older files are converted below.
      conn.pragma('auto_vacuum = INCREMENTAL');
      const mode = conn.pragma('journal_mode = WAL', { simple: true });
      if (!inMemory && mode !== 'wal') throw new Error(`${path}: SQLite refused WAL mode (journal_mode is ${String(mode)})`);
      conn.pragma(`synchronous = ${synchronous}`);
      conn.pragma('foreign_keys = OFF');
      conn.pragma('journal_size_limit = 67108864');
      // The checkpoint worker's job (checkpointer.ts); an in-memory database has no WAL.
      if (!inMemory) conn.pragma('wal_autocheckpoint = 0');
      // Each write is a savepoint inside the turn's transaction (the engine's group commit), and
      // the first change to a page inside a savepoint copies the page into the statement journal.
      // That journal spills to a file in /var/tmp past 64 KiB unless temp storage is memory:
      // bench:api's 3,000 creates made 13,206 page writes to it beside 10,276 to the WAL and the
      // database. It lives only until the turn's COMMIT, so what it holds is that turn's pages.
      conn.pragma('temp_store = MEMORY');
      // SQLite's own default page cache (2 MB), not the 16 MB better-sqlite3 builds in: the API
      // server reads from its caches, and a page missed here is a read from the OS's page
      // cache. (An in-memory database lives in its page cache: no limit there.)
      if (!inMemory) conn.pragma('cache_size = -2000');
      // Creating (or checking) the schema in a write transaction: a file an older bulkhead holds
      // (it kept the write lock, without the lock file) is refused here, with the same message.
      conn.transaction(() => {
        const version = conn.pragma('user_version', { simple: true }) as number;
        if (version > schemaVersion) throw new Error(`${path}: store schema version ${version} is newer than this program's (${schemaVersion})`);
        conn.exec(schema);
        if (version < schemaVersion) conn.pragma(`user_version = ${schemaVersion}`);
      }).immediate();
      if (!inMemory) {
        checkIntegrity(conn, path);
        ensureIncrementalVacuum(conn);
      }
    } catch (err) {
      db?.close();
      lock?.release();
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_BUSY') {
        throw new Error(`${path}: the store is in use by another process or connection (database is locked)`, { cause: err });
      }
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
        throw new CorruptDatabaseError(`${path} is damaged: SQLite says: ${(err as Error).message}. Restore it from a backup, or move it away to start an empty cluster`, { cause: err });
      }
      throw err;
    }
    if (inMemory) return new SqliteStore(db, path, undefined, undefined);
    const conn = db;
    const checkpointer = new Checkpointer({
      path,
      synchronous,
      busyTimeoutMs,
      addon: opts.checkpoint?.workerAddon ?? sqliteAddon(),
      rowsPerNudge: opts.checkpoint?.rowsPerNudge ?? rowsPerCheckpoint,
      boundFrames: opts.checkpoint?.boundFrames ?? walBoundFrames,
      tailFrames: walTailFrames,
      // SQLite's own automatic checkpoint, on the store's connection, as before the worker.
      onFailure: () => {
        if (conn.open) conn.pragma('wal_autocheckpoint = 1000');
      },
    });
    return new SqliteStore(db, path, checkpointer, lock);
  }
}
