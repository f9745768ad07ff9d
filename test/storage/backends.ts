// The backends every storage rule runs against, with temporary databases under os.tmpdir()
// that are removed when the store is disposed. No side effects on import (the test runner may
// load this file as a test).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, WatchEvent } from '../../src/storage/store.js';
import { MemoryStore } from '../../src/storage/memory.js';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { EtcdStore } from '../../src/storage/etcd.js';
import { etcdMissing, sharedEtcd } from './etcdserver.js';
import { RebasedStore } from './rebased.js';

export interface Backend {
  name: string;
  /** Why this backend cannot run here (the tests skip, saying so). */
  skip?: string;
  /**
   * True when the store's watchers live in the writer's process and a write made by a watch
   * handler commits before the handler returns (the embedded engine); false for etcd, where it
   * is a request like any other and arrives through etcd's watch.
   */
  synchronousHandlerWrites: boolean;
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** Closes `store` and opens the same data again; undefined when nothing persists. */
  reopen?(store: Store): Promise<Store>;
  /** Closes the store and removes its files. */
  dispose(store: Store): Promise<void>;
}

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `bulkhead-storage-${tag}-`));
}

/** Runs `body` in a fresh temporary directory and removes it afterwards. */
export async function withDir(tag: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir(tag);
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dirs = new WeakMap<Store, string>();

export const memoryBackend: Backend = {
  name: 'memory',
  synchronousHandlerWrites: true,
  async open() {
    return new MemoryStore();
  },
  async dispose(store) {
    await store.close();
  },
};

export const sqliteBackend: Backend = {
  name: 'sqlite',
  synchronousHandlerWrites: true,
  async open() {
    const dir = tempDir('sqlite');
    const store = await SqliteStore.open(join(dir, 'store.db'));
    dirs.set(store, dir);
    return store;
  },
  async reopen(store) {
    const dir = dirs.get(store)!;
    await store.close();
    const again = await SqliteStore.open(join(dir, 'store.db'));
    dirs.set(again, dir);
    return again;
  },
  async dispose(store) {
    await store.close();
    const dir = dirs.get(store);
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
};

let etcdPrefixes = 0;

/** A unique key prefix in the test file's etcd, so that stores (and rules) never see each other's keys. */
export function etcdTestPrefix(tag = 'store'): string {
  return `/test-${process.pid}-${tag}-${++etcdPrefixes}`;
}

const etcdStores = new WeakMap<Store, { inner: EtcdStore; prefix: string }>();

/**
 * etcd (one per test file, started on first use): each store gets a fresh key prefix, seen
 * through RebasedStore so that its first write has revision 1 as the rules expect.
 */
export const etcdBackend: Backend = {
  name: 'etcd',
  skip: etcdMissing(),
  synchronousHandlerWrites: false,
  async open() {
    const etcd = await sharedEtcd();
    const prefix = etcdTestPrefix();
    const inner = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix });
    const store = await RebasedStore.over(inner);
    etcdStores.set(store, { inner, prefix });
    return store;
  },
  async reopen(store) {
    const { prefix } = etcdStores.get(store)!;
    const base = (store as RebasedStore).base;
    await store.close();
    const etcd = await sharedEtcd();
    const inner = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix });
    const again = new RebasedStore(inner, base);
    etcdStores.set(again, { inner, prefix });
    return again;
  },
  async dispose(store) {
    await store.close();
  },
};

export const allBackends: readonly Backend[] = [memoryBackend, sqliteBackend, etcdBackend];

/** Collects the events (and error) of a watch. */
export class Recorder {
  readonly events: WatchEvent[] = [];
  error: Error | undefined;
  readonly handlers = {
    event: (e: WatchEvent) => {
      this.events.push(e);
    },
    error: (err: Error) => {
      this.error = err;
    },
  };
  /** [type, key, modRevision] of each event, for compact assertions. */
  get summary(): [string, string, number][] {
    return this.events.map((e) => [e.type, e.kv.key, e.kv.modRevision]);
  }
}

/** The class name and message of a rejection, or 'ok' with the value: comparable across backends. */
export async function outcome<T>(p: Promise<T>): Promise<{ ok: T } | { error: string; message: string }> {
  try {
    return { ok: await p };
  } catch (err) {
    const e = err as Error;
    return { error: e.constructor.name, message: e.message };
  }
}
