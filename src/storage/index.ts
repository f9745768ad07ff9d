// Opens a store from a `--store` spec:
//   sqlite:PATH                       the embedded SQLite store (the default; a bare PATH means the same)
//   memory:                           an in-process store that keeps nothing (tests, `plan`-like tools)
//   etcd://HOST:PORT[,HOST:PORT…]     an etcd v3 cluster (etcd.ts), with TLS and a key prefix from `opts`

import type { Store } from './store.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';
import type { EtcdTLSOptions } from './etcd.js';

export * from './store.js';
export { MemoryStore } from './memory.js';
export { SqliteStore, type SqliteStoreOptions, type SqliteSettings } from './sqlite.js';
export type { EtcdStoreOptions, EtcdTLSOptions } from './etcd.js';

export const supportedStoreSpecs = ['sqlite:PATH', 'memory:', 'etcd://HOST:PORT[,HOST:PORT…]'] as const;

const supported = `supported: ${supportedStoreSpecs.join(', ')} (a spec without an engine is a SQLite path)`;

export interface OpenStoreOptions {
  /** etcd only: the client's TLS material (kube-apiserver's --etcd-cafile/--etcd-certfile/--etcd-keyfile). */
  etcdTLS?: EtcdTLSOptions;
  /** etcd only: prepended to every key, so several clusters can share one etcd (--etcd-prefix). */
  etcdPrefix?: string;
}

/** The HOST:PORT list of an etcd spec; throws with the spec quoted when it is malformed. */
export function parseEtcdEndpoints(spec: string): string[] {
  const m = /^etcd:\/\/(.*)$/is.exec(spec);
  if (!m || m[1] === '') throw new Error(`store spec "${spec}" names no etcd member; use etcd://HOST:PORT[,HOST:PORT…]`);
  return m[1]!.split(',').map((e) => {
    const hp = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(e.trim());
    if (!hp || Number(hp[2]) < 1 || Number(hp[2]) > 65535) throw new Error(`store spec "${spec}": "${e}" is not HOST:PORT`);
    return `${hp[1]}:${hp[2]}`;
  });
}

export async function openStore(spec: string, opts: OpenStoreOptions = {}): Promise<Store> {
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
    case 'etcd': {
      const endpoints = parseEtcdEndpoints(spec);
      // Loaded only for etcd: the gRPC client would slow every SQLite server's start.
      const { EtcdStore } = await import('./etcd.js');
      return EtcdStore.open({ endpoints, tls: opts.etcdTLS, prefix: opts.etcdPrefix });
    }
    default:
      throw new Error(`storage engine "${engine}" is not available; ${supported}`);
  }
}
