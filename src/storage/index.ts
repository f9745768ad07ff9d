// Opens a store from a `--store` spec:
//   sqlite:PATH   the embedded SQLite store (the default; a bare PATH means the same)
//   memory:       an in-process store that keeps nothing (tests, `plan`-like tools)
// Engines that are planned but not built yet (etcd:URL,…) are refused with a message naming
// the ones that are.

import type { Store } from './store.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';

export * from './store.js';
export { MemoryStore } from './memory.js';
export { SqliteStore, type SqliteStoreOptions, type SqliteSettings } from './sqlite.js';

export const supportedStoreSpecs = ['sqlite:PATH', 'memory:'] as const;

const supported = `supported: ${supportedStoreSpecs.join(', ')} (a spec without an engine is a SQLite path)`;

export async function openStore(spec: string): Promise<Store> {
  if (typeof spec !== 'string' || spec.trim() === '') throw new Error(`empty store spec; ${supported}`);
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(spec);
  // One-letter "engines" are Windows drive letters (C:\data\bulkhead.db): paths.
  if (!m || m[1]!.length === 1) return SqliteStore.open(spec);
  const engine = m[1]!.toLowerCase();
  const rest = m[2]!;
  switch (engine) {
    case 'sqlite':
      if (rest === '') throw new Error(`store spec "${spec}" names no file; use sqlite:PATH`);
      return SqliteStore.open(rest);
    case 'memory':
      if (rest !== '') throw new Error(`store spec "${spec}": memory: takes no argument`);
      return new MemoryStore();
    default:
      throw new Error(`storage engine "${engine}" is not available yet; ${supported}`);
  }
}
