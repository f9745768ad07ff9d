// Group-kill emulation latency on this cgroup v1 host (the agent's --oom-group-emulation): a
// test-owned v1 memory cgroup (64 MiB) holds a memory hog and 4 sleepers; the kernel OOM-kills
// the hog, and the agent's own path (the /dev/kmsg OOM watcher, then the group kill the agent
// runs for an emulated Group container) kills the sleepers. Timed from the kernel's kill (the
// `Killed process` record's timestamp) until the cgroup is empty, as an independent watcher
// sees it: inotify on the same processes' cgroup2 `cgroup.events` (`populated 0`), in a worker
// thread of its own so that the emulation's work cannot delay it.
// Baseline, in the same run on the same workload (the hog allocating, 4 sleepers): a bare
// SIGKILL of the hog, then a plain loop that kills the rest as soon as it runs — the cost of
// tearing those processes down with no detection at all. The runs alternate, so both see the
// same machine load. Target (set by the issue that asked for this benchmark; the OOM design
// names no figure): p50 ≤ 15 ms on a quiet machine.
//   npm run bench:groupkill      (BENCH_RUNS=N, default 20; BENCH_GAP_MS between runs, default 550;
//                                needs root, cgroup v1 memory, /dev/kmsg)

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { realKernelSkipReason, removeTestCgroups } from '../test/agent/cgrouptrees.js';
import { probeCgroups } from '../src/agent/runtime/hostprobe.js';
import { KmsgOOMWatcher, parseKmsgRecord, type OOMKill } from '../src/agent/oom/kmsg.js';
import { emulateGroupKill, type GroupKillResult } from '../src/agent/oom/groupkill.js';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const gapMs = Number(process.env.BENCH_GAP_MS ?? 550);
const sleepers = 4;
const limitBytes = 64 * 1024 * 1024;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6; // CLOCK_MONOTONIC, as libuv reads it

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const f = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The empty-cgroup watcher: inotify on cgroup.events, reported with CLOCK_MONOTONIC. */
const watcherSource = `
const { parentPort } = require('node:worker_threads');
const { watch, readFileSync } = require('node:fs');
let w;
parentPort.on('message', (file) => {
  w?.close();
  const check = () => {
    if (/^populated 0$/m.test(readFileSync(file, 'utf8'))) { w?.close(); w = undefined; parentPort.postMessage(Number(process.hrtime.bigint()) / 1e6); return true; }
    return false;
  };
  w = watch(file, () => { if (w) check(); });
  parentPort.postMessage('armed');
});`;

class EmptyWatcher {
  private readonly worker = new Worker(watcherSource, { eval: true });
  private pending?: (v: number | 'armed') => void;
  constructor() {
    this.worker.on('message', (m: number | 'armed') => this.pending?.(m));
  }
  private next(): Promise<number | 'armed'> {
    return new Promise((r) => (this.pending = r));
  }
  /** Arms the watcher on `eventsFile`; then `at` is the time it sees `populated 0`. */
  async arm(eventsFile: string): Promise<{ at: Promise<number> }> {
    const armed = this.next();
    this.worker.postMessage(eventsFile);
    await armed;
    return { at: this.next() as Promise<number> };
  }
  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Kernel timestamps (µs since boot) → CLOCK_MONOTONIC ms: write a record and read it back. */
function kmsgOffsetMs(): number {
  const fd = openSync('/dev/kmsg', constants.O_RDWR | constants.O_NONBLOCK);
  const buf = Buffer.alloc(8192);
  try {
    for (;;) {
      try {
        if (readSync(fd, buf, 0, buf.length, null) <= 0) break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') break;
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
      }
    }
    const tag = `bulkhead-bench clock ${randomBytes(4).toString('hex')}`;
    const t0 = nowMs();
    writeSync(fd, `<6>${tag}\n`);
    const t1 = nowMs();
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const r = parseKmsgRecord(buf.toString('utf8', 0, n));
      if (r?.message.includes(tag)) return Number(r.timestampUs) / 1000 - (t0 + t1) / 2;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads kmsg records (from an fd of its own) until `Killed process <pid>` appears. */
class KmsgTimes {
  private readonly fd = openSync('/dev/kmsg', constants.O_RDONLY | constants.O_NONBLOCK);
  private readonly buf = Buffer.alloc(8192);
  constructor() {
    this.records();
  }
  records(): { tsMs: number; message: string }[] {
    const out: { tsMs: number; message: string }[] = [];
    for (;;) {
      try {
        const n = readSync(this.fd, this.buf, 0, this.buf.length, null);
        if (n <= 0) return out;
        const r = parseKmsgRecord(this.buf.toString('utf8', 0, n));
        if (r) out.push({ tsMs: Number(r.timestampUs) / 1000, message: r.message });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') return out;
        if (code !== 'EPIPE') throw e;
      }
    }
  }
  close(): void {
    closeSync(this.fd);
  }
}

interface Dirs {
  memory: string;
  unified: string;
}

/**
 * sh joins both cgroups, starts the sleepers, then becomes the hog: `tail /dev/zero` grows until
 * the OOM kill; the baseline's `dd bs=60M` fills a 60 MiB buffer again and again, so it holds
 * about as much memory as the OOM victim did and keeps the CPU as busy.
 */
function workload(d: Dirs, hog: string): ChildProcess {
  const sl = Array.from({ length: sleepers }, () => 'sleep 1000 &').join(' ');
  return spawn('sh', ['-c', `echo $$ > ${d.memory}/cgroup.procs && echo $$ > ${d.unified}/cgroup.procs && { ${sl} exec ${hog}; }`], { stdio: 'ignore' });
}

function procs(dir: string): number[] {
  return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
}

function killAll(dir: string): void {
  for (const pid of procs(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
}

async function untilEmpty(dir: string): Promise<void> {
  for (let i = 0; i < 2000 && procs(dir).length; i++) {
    killAll(dir);
    await sleep(2);
  }
}

function makeDirs(top: string, name: string, limit: number, roots: Dirs): Dirs {
  const d = { memory: join(roots.memory, top, name), unified: join(roots.unified, top, name) };
  mkdirSync(d.memory, { recursive: true });
  mkdirSync(d.unified, { recursive: true });
  writeFileSync(join(d.memory, 'memory.limit_in_bytes'), String(limit));
  return d;
}

/** Waits until the hog and every sleeper are in the cgroup. */
async function populated(d: Dirs): Promise<void> {
  for (let i = 0; i < 5000; i++) {
    if (procs(d.memory).length >= sleepers + 1) return;
    await sleep(1);
  }
  throw new Error(`workload did not start in ${d.memory}`);
}

interface OOMRun {
  killToEmpty: number;
  killToSeen: number;
  seenToSignalled: number;
  signalledToEmpty: number;
  invokedToKill?: number;
  /** Past the kernel's OOM report rate limit: attributed from /proc/<pid>/cgroup. */
  fromProc: boolean;
}

async function oomRun(top: string, i: number, roots: Dirs, empty: EmptyWatcher, times: KmsgTimes): Promise<OOMRun | string> {
  const d = makeDirs(top, `oom-${i}`, limitBytes, roots);
  const memcg = `/${top}/oom-${i}`;
  const emptyAt = (await empty.arm(join(d.unified, 'cgroup.events'))).at;
  let seen: { at: number; kill: OOMKill; result?: Promise<GroupKillResult>; signalled?: number } | undefined;
  // The agent's path: the kmsg watcher's callback attributes the kill to a container's memcg
  // and, for an emulated Group container, starts the group kill before anything else.
  const watcher = new KmsgOOMWatcher((kill) => {
    if (kill.taskMemcg !== memcg || seen) return;
    seen = { at: nowMs(), kill };
    seen.result = emulateGroupKill({ oomKillMode: 'Group', emulated: true, cgroupDir: d.memory });
    seen.signalled = nowMs();
  });
  watcher.start();
  times.records();
  const offset = kmsgOffsetMs();
  const child = workload(d, 'tail /dev/zero');
  try {
    const done = await Promise.race([emptyAt, sleep(20_000).then(() => undefined)]);
    if (done === undefined || !seen) return `run ${i}: ${seen ? 'cgroup not empty' : 'no oom-kill record'} within 20 s`;
    await seen.result;
    const recs = times.records();
    const killed = recs.find((r) => r.message.includes(`Killed process ${seen!.kill.pid} `));
    const invoked = recs.find((r) => r.message.includes('invoked oom-killer'));
    if (!killed) return `run ${i}: no "Killed process ${seen.kill.pid}" record`;
    const killAt = killed.tsMs - offset;
    return {
      killToEmpty: done - killAt,
      killToSeen: seen.at - killAt,
      seenToSignalled: (seen.signalled ?? seen.at) - seen.at,
      signalledToEmpty: done - (seen.signalled ?? seen.at),
      invokedToKill: invoked ? killed.tsMs - invoked.tsMs : undefined,
      fromProc: seen.kill.oomMemcg === '',
    };
  } finally {
    watcher.stop();
    child.kill('SIGKILL');
    await untilEmpty(d.memory);
  }
}

async function baselineRun(top: string, i: number, roots: Dirs, empty: EmptyWatcher): Promise<number> {
  // The same sleepers and a hog holding about the OOM victim's memory (room to spare: no OOM).
  const d = makeDirs(top, `bare-${i}`, 4 * limitBytes, roots);
  const emptyAt = (await empty.arm(join(d.unified, 'cgroup.events'))).at;
  const child = workload(d, 'dd if=/dev/zero of=/dev/null bs=60M');
  try {
    await populated(d);
    const deadline = nowMs() + 20_000;
    while (Number(readFileSync(join(d.memory, 'memory.usage_in_bytes'), 'utf8')) < 60 << 20) {
      if (nowMs() > deadline) throw new Error(`the baseline hog in ${d.memory} did not reach 60 MiB`);
      await sleep(1);
    }
    const t0 = nowMs();
    process.kill(child.pid!, 'SIGKILL');
    killAll(d.memory);
    return (await emptyAt) - t0;
  } finally {
    child.kill('SIGKILL');
    await untilEmpty(d.memory);
  }
}

async function main(): Promise<void> {
  const skip = realKernelSkipReason([]) ?? (existsSync('/dev/kmsg') ? undefined : 'no /dev/kmsg');
  const c = probeCgroups();
  if (skip || !c.unified) {
    console.log(`groupkill bench skipped: ${skip ?? 'no cgroup2 tree (needed for the independent empty watcher)'}`);
    return;
  }
  const roots: Dirs = { memory: c.v1.memory!, unified: c.unified };
  const top = `bulkhead-bench-groupkill-${randomBytes(4).toString('hex')}`;
  const empty = new EmptyWatcher();
  const times = new KmsgTimes();
  const oom: OOMRun[] = [];
  const bare: number[] = [];
  const problems: string[] = [];
  const load0 = loadavg()[0]!;
  try {
    for (let i = 0; i < runs; i++) {
      bare.push(await baselineRun(top, i, roots, empty));
      const r = await oomRun(top, i, roots, empty, times);
      if (typeof r === 'string') problems.push(r);
      else oom.push(r);
      // The kernel prints an OOM's report (and the oom-kill record the agent reads) at most
      // 10 times in 5 s; stay under that so every run is measured.
      await sleep(gapMs);
    }
  } finally {
    times.close();
    await empty.stop();
    const left = removeTestCgroups(top);
    if (left.length) console.error(`cleanup: ${left.join('; ')}`);
  }
  const load1 = loadavg()[0]!;
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${f(percentile(s, 50))}   p99 ${f(percentile(s, 99))}   (min ${s[0]!.toFixed(1)}, max ${s[s.length - 1]!.toFixed(1)})`;
  };
  const col = (k: keyof OOMRun) => oom.map((r) => r[k]).filter((x): x is number => x !== undefined);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}; load average ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
  console.log(`workload: ${sleepers} sleepers + a tail /dev/zero hog in a ${limitBytes >> 20} MiB v1 memory cgroup, ${runs} runs of each, alternating`);
  console.log(`baseline   bare SIGKILL of the hog, the rest killed at once → empty   ${stats(bare)}`);
  if (oom.length) {
    console.log(`emulation  kernel OOM kill → empty (kmsg watcher + group kill)     ${stats(col('killToEmpty'))}`);
    console.log(`  kernel kill → record read by the watcher                          ${stats(col('killToSeen'))}`);
    console.log(`  record read → every task signalled                                ${stats(col('seenToSignalled'))}`);
    console.log(`  signalled → empty                                                 ${stats(col('signalledToEmpty'))}`);
    const fromProc = oom.filter((r) => r.fromProc).length;
    if (fromProc) console.log(`  ${fromProc} of ${oom.length} kills past the kernel's OOM report rate limit (no oom-kill record): memcg read from /proc`);
    if (col('invokedToKill').length) console.log(`  (kernel: invoked oom-killer → Killed process                      ${stats(col('invokedToKill'))})`);
    const p50 = percentile([...col('killToEmpty')].sort((a, b) => a - b), 50);
    console.log(`target     emulation p50 <= 15 ms: ${p50 <= 15 ? 'met' : 'NOT MET'} (${p50.toFixed(1)} ms; baseline p50 ${percentile([...bare].sort((a, b) => a - b), 50).toFixed(1)} ms)`);
  }
  for (const p of problems) console.log(`missed: ${p}`);
}

await main();
