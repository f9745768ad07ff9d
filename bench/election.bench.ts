// What leader election costs a lone server's start: startServer (memory store, every
// controller and the scheduler) timed to its return with --leader-elect (the default: two
// Leases read and written before the controllers start) and, as the same-run baseline, with
// leader election off; alternated, N starts each, and a restart on one SQLite data directory
// after a clean close (the Leases released, so the new identity leads at once).
//   npm run bench:election      (BENCH_STARTS=N)

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer, type ServerOptions } from '../src/server/start.js';

const starts = Number(process.env.BENCH_STARTS ?? 10);

async function timedStart(opts: ServerOptions): Promise<number> {
  const t = performance.now();
  const s = await startServer(opts);
  const ms = performance.now() - t;
  if (opts.leaderElection !== false && !s.leading().controllers) throw new Error('a lone server did not lead at once');
  await s.close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-election-'));
  try {
    const on: number[] = [];
    const off: number[] = [];
    const restart: number[] = [];
    for (let i = 0; i < starts; i++) {
      // Which goes first alternates: the first start of a round pays for a warmer runtime.
      const pair = [
        async () => off.push(await timedStart({ dataDir: join(dir, `off${i}`), store: 'memory:', port: 0, leaderElection: false })),
        async () => on.push(await timedStart({ dataDir: join(dir, `on${i}`), store: 'memory:', port: 0 })),
      ];
      if (i % 2) pair.reverse();
      for (const run of pair) await run();
      restart.push(await timedStart({ dataDir: join(dir, 'sqlite'), port: 0 }));
    }
    console.log(`\nstartServer to return, median of ${starts} (memory store unless said):`);
    console.log(`  leader election off (baseline)                 ${median(off).toFixed(0).padStart(6)} ms`);
    console.log(`  leader election on (first start)               ${median(on).toFixed(0).padStart(6)} ms`);
    console.log(`  leader election on, SQLite restart after close ${median(restart).toFixed(0).padStart(6)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
