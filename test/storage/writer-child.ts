// The process the kill -9 durability test kills: opens a store and writes as fast as it can,
// printing each write only after its promise resolved (that is, after the commit):
//   <revision> <key> [<key> …]
// Every fourth write is a txn that creates three keys at one revision.
//   node writer-child.js sqlite <db path> <NORMAL|FULL> <round>
//   node writer-child.js etcd <host:port> <key prefix> <round>
// Without arguments it does nothing, so a test runner that loads every file is not disturbed.

import type { Store } from '../../src/storage/store.js';
import { SqliteStore } from '../../src/storage/sqlite.js';
import { EtcdStore } from '../../src/storage/etcd.js';

async function main(store: Store, round: string): Promise<void> {
  process.stdout.write(`open ${await store.currentRevision()}\n`);
  const value = JSON.stringify({ round, padding: 'x'.repeat(600) });
  for (let i = 0; ; i++) {
    const key = `/durability/${round}/${String(i).padStart(7, '0')}`;
    if (i % 4 === 3) {
      const keys = [`${key}/a`, `${key}/b`, `${key}/c`];
      const r = await store.txn(
        keys.map((k) => ({ key: k, modRevision: 0 })),
        keys.map((k) => ({ op: 'put' as const, key: k, value })),
      );
      if (!r.succeeded) throw new Error(`keys of ${key} exist`);
      process.stdout.write(`${r.revision} ${keys.join(' ')}\n`);
    } else {
      const kv = await store.create(key, value);
      process.stdout.write(`${kv.modRevision} ${key}\n`);
    }
  }
}

async function open(kind: string, target: string, option: string): Promise<Store | undefined> {
  if (kind === 'sqlite' && (option === 'NORMAL' || option === 'FULL')) return SqliteStore.open(target, { synchronous: option });
  if (kind === 'etcd') return EtcdStore.open({ endpoints: [target], prefix: option });
  return undefined;
}

const [kind, target, option, round] = process.argv.slice(2);
if (kind !== undefined && target !== undefined && option !== undefined && round !== undefined) {
  open(kind, target, option)
    .then((store) => {
      if (!store) throw new Error(`unknown store ${kind} ${option}`);
      return main(store, round);
    })
    .catch((err: unknown) => {
      process.stderr.write(`writer-child: ${String((err as Error)?.stack ?? err)}\n`);
      process.exit(1);
    });
}
