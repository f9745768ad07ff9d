// Raw store throughput and latency, with no API server in front: creates/s of ~1 KiB JSON values
// one per write and ten per txn, get and list latency, watch replay, for SQLite (synchronous
// NORMAL, the default, and FULL), the memory store and etcd (Debian's etcd-server, one member
// on loopback with its data dir on the same disk, started and killed here; skipped, saying so,
// when /usr/bin/etcd is missing), with the machine it ran on. The API server's benchmark prints
// measureRawStoreWrites as its baseline.
//   npx tsc -p . && node dist/bench/store.bench.js        (BENCH_STORE_N=N to change the key count)

import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Store } from '../src/storage/store.js';
import { MemoryStore } from '../src/storage/memory.js';
import { SqliteStore } from '../src/storage/sqlite.js';
import { EtcdStore } from '../src/storage/etcd.js';
import { etcdMissing, startEtcd } from '../test/storage/etcdserver.js';
import { benchValue, measureGetLatency, measureListLatency, measureRawStoreWrites, type LatencySummary } from '../src/storage/bench.js';

const n = Number(process.env.BENCH_STORE_N ?? 20000);

const filesystems: Record<number, string> = {
  0x01021994: 'tmpfs',
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x794c7630: 'overlayfs',
  0x6a656a63: 'fakeowner',
  0x2fc12fc1: 'zfs',
};

function machine(dir: string): string {
  const cpu = cpus();
  const fsType = statfsSync(dir).type;
  const fs = filesystems[fsType] ?? `0x${fsType.toString(16)}`;
  return [
    `cpu       ${cpu[0]?.model.trim() ?? 'unknown'} × ${cpu.length}`,
    `memory    ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `os        ${platform()} ${release()}`,
    `node      ${process.version}`,
    `database  ${dir} (${fs}${fs === 'tmpfs' ? ': fsync costs nothing here, so FULL looks as fast as NORMAL' : ''})`,
  ].join('\n');
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const us = (l: LatencySummary) => `p50 ${l.p50.toFixed(1)} µs  p99 ${l.p99.toFixed(1)} µs`;

async function writes(label: string, store: Store, keys: number): Promise<void> {
  const single = await measureRawStoreWrites(store, keys);
  const batched = await measureRawStoreWrites(store, keys * 2, { batch: 10 });
  console.log(
    `${label.padEnd(16)} create ×1: ${fmt(single.perSecond).padStart(8)} keys/s   txn ×10: ${fmt(batched.perSecond).padStart(8)} keys/s (${fmt(batched.requestsPerSecond)} txns/s)`,
  );
}

async function reads(label: string, store: Store, keys: number): Promise<void> {
  const prefix = '/bench/read/';
  await measureRawStoreWrites(store, keys, { batch: 100, prefix });
  const small = '/bench/small/';
  await measureRawStoreWrites(store, 1000, { batch: 100, prefix: small });
  const pastRevision = await store.currentRevision();
  // Rewrite the small set so that reading it at the past revision goes through history.
  for (let i = 0; i < 1000; i++) await store.update(`${small}${String(i).padStart(9, '0')}`, benchValue(i + 1));
  const get = await measureGetLatency(store, prefix, keys, 20000);
  const page = await measureListLatency(store, prefix, 200, { limit: 500 });
  const small1k = await measureListLatency(store, small, 100);
  const past1k = await measureListLatency(store, small, 100, { revision: pastRevision });
  const all = await measureListLatency(store, prefix, 10);
  const row = (first: boolean, what: string, figure: string) => console.log(`${(first ? label : '').padEnd(16)} ${what.padEnd(26)} ${figure}`);
  row(true, 'get', us(get));
  row(false, `list 500 of ${fmt(keys)}`, us(page));
  row(false, 'list 1,000 (current)', us(small1k));
  row(false, 'list 1,000 (past revision)', us(past1k));
  row(false, `list all ${fmt(all.items)}`, `p50 ${(all.p50 / 1000).toFixed(1)} ms`);
  let events = 0;
  const t = performance.now();
  const w = await store.watch('/bench/', 0, { event: () => void events++ });
  const seconds = (performance.now() - t) / 1000;
  w.cancel();
  row(false, 'watch replay from 0', `${fmt(events / seconds)} events/s (${fmt(events)} events)`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-store-bench-'));
  try {
    console.log(machine(dir));
    const probe = await SqliteStore.open(join(dir, 'probe.db'));
    const sqliteVersion = probe.settings().sqliteVersion;
    await probe.close();
    console.log(`sqlite    ${sqliteVersion}, WAL, ~1 KiB JSON values, each write awaited before the next\n`);

    const normal = await SqliteStore.open(join(dir, 'normal.db'));
    await writes('sqlite NORMAL', normal, n);
    await normal.close();
    const full = await SqliteStore.open(join(dir, 'full.db'), { synchronous: 'FULL' });
    await writes('sqlite FULL', full, Math.min(n, 5000));
    await full.close();
    const memory = new MemoryStore();
    await writes('memory', memory, n);
    await memory.close();
    // etcd fsyncs its WAL on every write, like SQLite FULL; fewer keys for the same reason.
    const etcd = etcdMissing() ? undefined : await startEtcd();
    if (etcd) {
      try {
        const store = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/bench-writes' });
        await writes('etcd', store, Math.min(n, 5000));
        await store.close();
      } catch (e) {
        await etcd.stop();
        throw e;
      }
    } else {
      console.log(`etcd             skipped: ${etcdMissing()}`);
    }
    console.log('');

    const readStore = await SqliteStore.open(join(dir, 'reads.db'));
    await reads('sqlite', readStore, n);
    await readStore.close();
    const readMemory = new MemoryStore();
    await reads('memory', readMemory, n);
    await readMemory.close();
    if (etcd) {
      try {
        const readEtcd = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/bench-reads' });
        await reads('etcd', readEtcd, Math.min(n, 5000));
        await readEtcd.close();
      } finally {
        await etcd.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
