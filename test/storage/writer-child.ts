// The process the kill -9 durability test kills: opens a SQLite store and writes as fast as it
// can, printing each write only after its promise resolved (that is, after the commit):
//   <revision> <key> [<key> …]
// Every fourth write is a txn that creates three keys at one revision.
//   node writer-child.js <db path> <NORMAL|FULL> <round>
// Without arguments it does nothing, so a test runner that loads every file is not disturbed.

import { SqliteStore } from '../../src/storage/sqlite.js';

async function main(path: string, synchronous: 'NORMAL' | 'FULL', round: string): Promise<void> {
  const store = await SqliteStore.open(path, { synchronous });
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

const [path, synchronous, round] = process.argv.slice(2);
if (path !== undefined && (synchronous === 'NORMAL' || synchronous === 'FULL') && round !== undefined) {
  main(path, synchronous, round).catch((err: unknown) => {
    process.stderr.write(`writer-child: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
