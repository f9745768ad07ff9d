// The one-process-per-store guard. Watchers live in the process that owns the store and see only
// its writes, so a second server on the same file would silently break watches and the cached
// revision: it must be refused.
//
// The store's own connection cannot be the guard: a checkpointer connection beside it (see
// checkpointer.ts) needs locking_mode=NORMAL, and a NORMAL connection lets others in. The guard is
// a second, empty SQLite file beside the store, `<store>-lock`, opened with locking_mode=EXCLUSIVE
// inside a BEGIN EXCLUSIVE that is never committed: SQLite holds POSIX (fcntl) write locks on it
// for as long as the process keeps it open, and every other connection to it, from any process,
// gets SQLITE_BUSY. The kernel drops those locks when the process dies, kill -9 included, so a
// crashed server never leaves a stale lock behind (a PID file would). SQLite is used only for
// its fcntl locking, which Node does not offer; nothing is ever written to the file.

import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';

export interface OwnerLock {
  release(): void;
}

/** The guard's file for the store at `path`. */
export function ownerLockPath(path: string): string {
  return `${path}-lock`;
}

/**
 * Takes the store's owner lock, waiting up to `busyTimeoutMs` for another holder to go away.
 * Throws an error with `code` SQLITE_BUSY when it stays taken.
 */
export function takeOwnerLock(path: string, busyTimeoutMs: number, nativeBinding: string): OwnerLock {
  const lockPath = ownerLockPath(path);
  // Created (readable by its owner only) when absent, never opened and closed otherwise: closing
  // any descriptor of a file drops every POSIX lock this process holds on it.
  try {
    closeSync(openSync(lockPath, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const db = new Database(lockPath, { timeout: busyTimeoutMs, nativeBinding });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // Nothing is written, but the transaction would still open a rollback journal file, which a
    // killed owner leaves behind: the journal is kept in memory instead.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    throw err;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Closing rolls the empty transaction back and drops the locks.
      db.close();
    },
  };
}
