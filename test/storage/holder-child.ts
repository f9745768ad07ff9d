// The process the owner-lock test kills: opens a SQLite store with its checkpoint worker running,
// writes one key, prints "open" once the worker has checkpointed it, and waits to be killed.
//   node holder-child.js <db path>
// Without arguments it does nothing, so a test runner that loads every file is not disturbed.

import { SqliteStore } from '../../src/storage/sqlite.js';

async function main(path: string): Promise<void> {
  const store = await SqliteStore.open(path, { checkpoint: { rowsPerNudge: 1 } });
  await store.create('/held', 'by the child');
  while (!store.checkpointStats()!.caughtUp) await new Promise((r) => setTimeout(r, 5));
  process.stdout.write('open\n');
  setInterval(() => {}, 1 << 30);
}

const [path] = process.argv.slice(2);
if (path !== undefined) {
  main(path).catch((err: unknown) => {
    process.stderr.write(`holder-child: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  });
}
