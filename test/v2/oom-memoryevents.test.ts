// cgroup v2 OOM detection against the real kernel (pure cgroup v2 guest: scripts/vm.sh): a
// cgroup of the test's own with a small memory.max, a few busybox processes and one that grows
// without bound (`tail /dev/zero` buffers a line that never ends). With memory.oom.group=1 the
// MemoryEventsWatcher (src/agent/oom/memoryevents.ts) must report oom_group_kill and every
// process must be gone; with 0, one kill of the grower and the rest still running. kmsg's
// record names the victim through the OOMKillCorrelator. On any other host the tests skip,
// saying why. Run: npx --no-install tsc -p . && scripts/vm.sh -- node --test dist/test/v2/oom-memoryevents.test.js

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';
import { KmsgOOMWatcher } from '../../src/agent/oom/kmsg.js';
import { MemoryEventsWatcher, OOMKillCorrelator, type OOMCounts, type OOMReport } from '../../src/agent/oom/memoryevents.js';

const busybox = '/bin/busybox';

function whyNot(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (run it in the cgroup v2 guest: scripts/vm.sh -- node --test dist/test/v2/oom-memoryevents.test.js)';
  const cg = probeCgroups();
  if (cg.mode !== 'v2' || cg.memoryVersion !== 2 || !cg.unified) return `this host is not pure cgroup v2 (mode ${cg.mode}, memory on v${cg.memoryVersion}): run it in the guest, scripts/vm.sh -- node --test dist/test/v2/oom-memoryevents.test.js`;
  if (!readFileSync(join(cg.unified, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('memory')) return `the memory controller is not enabled in ${cg.unified}/cgroup.subtree_control`;
  if (!existsSync(busybox)) return `${busybox} is missing (apt-get install busybox-static)`;
  return undefined;
}

const skip = whyNot();
if (skip) process.stderr.write(`\n*** SKIPPED test/v2/oom-memoryevents: ${skip} ***\n\n`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A busybox shell that moves itself into `dir` and then execs `cmd` (so its pid stays the one in cgroup.procs). */
function startIn(dir: string, cmd: string): Proc {
  const child = spawn(busybox, ['sh', '-c', `echo $$ > ${dir}/cgroup.procs && exec ${cmd}`], { stdio: 'ignore' });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

function procsOf(dir: string): number[] {
  return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
}

async function until(what: () => boolean): Promise<void> {
  while (!what()) await sleep(5);
}

interface Seen {
  delta: OOMCounts;
  report: OOMReport;
}

/** One scenario: returns what the watcher reported first, and the processes. */
async function oomIn(oomGroup: 0 | 1): Promise<{ seen: Seen; sleepers: Proc[]; grower: Proc; dir: string; cgroupPath: string; cleanup: () => Promise<void> }> {
  const root = probeCgroups().unified!;
  const cgroupPath = `/bulkhead-test-oom-${process.pid}-g${oomGroup}`;
  const dir = join(root, cgroupPath);
  mkdirSync(dir);
  const procs: Proc[] = [];
  const watcher = new MemoryEventsWatcher();
  const correlator = new OOMKillCorrelator();
  let kmsg: KmsgOOMWatcher | undefined = new KmsgOOMWatcher((k) => correlator.kmsg(k));
  try {
    kmsg.start();
  } catch {
    kmsg = undefined;
  }
  const cleanup = async () => {
    watcher.stop();
    kmsg?.stop();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    for (let i = 0; existsSync(dir); i++) {
      try {
        rmdirSync(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EBUSY' || i > 200) throw e;
        await sleep(10);
      }
    }
  };
  try {
    writeFileSync(join(dir, 'memory.max'), String(32 << 20));
    if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
    writeFileSync(join(dir, 'memory.oom.group'), String(oomGroup));
    const seen = new Promise<Seen>((resolve) =>
      watcher.add('test', join(dir, 'memory.events'), (delta) => {
        kmsg?.drain();
        resolve({ delta, report: correlator.take(cgroupPath, delta) });
      }, 'current'),
    );
    const sleepers = [1, 2, 3].map(() => startIn(dir, `${busybox} sleep 1000`));
    procs.push(...sleepers);
    await until(() => procsOf(dir).length === 3);
    const grower = startIn(dir, `${busybox} tail /dev/zero`);
    procs.push(grower);
    return { seen: await seen, sleepers, grower, dir, cgroupPath, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

describe('cgroup v2 memory.events OOM detection (real kernel)', { skip }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanups) await c();
  });

  it('memory.oom.group=1: the watcher reports a group kill and every process is killed', async () => {
    const r = await oomIn(1);
    cleanups.push(r.cleanup);
    assert.equal(r.seen.delta.oomGroupKill, 1, `memory.events delta ${JSON.stringify(r.seen.delta)}`);
    // How many kills the kernel counts in a group sweep depends on timing (a task already exiting is
    // not counted again); that every process died of SIGKILL is asserted below.
    assert.ok(r.seen.delta.oomKill >= 1, `oom_kill rose by ${r.seen.delta.oomKill}`);
    const exits = await Promise.all([...r.sleepers, r.grower].map((p) => p.exited));
    assert.deepEqual(exits.map((e) => e.signal), ['SIGKILL', 'SIGKILL', 'SIGKILL', 'SIGKILL']);
    await until(() => procsOf(r.dir).length === 0);
    assert.equal(r.seen.report.groupKills, 1);
    assert.equal(r.seen.report.events, 1);
    // The grower is the victim (the largest task); its comm is busybox's.
    if (r.seen.report.named.length) assert.deepEqual(r.seen.report.named.map((k) => [k.pid, k.task]), [[r.grower.child.pid, 'busybox']], 'kmsg names the victim');
    else process.stderr.write('note: /dev/kmsg did not name the victim (unreadable or rate-limited)\n');
  });

  it('memory.oom.group=0: the watcher reports one kill, of the grower, and the rest keep running', async () => {
    const r = await oomIn(0);
    cleanups.push(r.cleanup);
    assert.deepEqual(r.seen.delta, { oomKill: 1, oomGroupKill: 0 });
    assert.equal((await r.grower.exited).signal, 'SIGKILL');
    for (const s of r.sleepers) assert.equal(s.child.exitCode === null && s.child.signalCode === null, true, 'a sleeper was killed');
    assert.deepEqual(procsOf(r.dir).sort(), r.sleepers.map((s) => s.child.pid!).sort());
    if (r.seen.report.named.length) assert.deepEqual(r.seen.report.named.map((k) => [k.pid, k.task]), [[r.grower.child.pid, 'busybox']]);
    else process.stderr.write('note: /dev/kmsg did not name the victim (unreadable or rate-limited)\n');
  });
});
