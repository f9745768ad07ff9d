// OOM on the real kernel (cgroup v1 memory, a 64 MiB limit): the kernel kills only the
// largest task (Single, v1's native behaviour), the kmsg watcher reports it with the task's
// memcg, and the agent's Group emulation then empties the cgroup; its latency is printed, not judged.
// Plain processes placed in a cgroup this test creates (linux-host.md §3) stand in for a
// container; the agent applies the same watcher and kill to its containers' cgroups.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { emulateGroupKill, killCgroup } from '../../src/agent/oom/groupkill.js';
import { removeTestCgroups } from './cgrouptrees.js';
import { KmsgOOMWatcher, memcgOfPid, OOMKillDecoder, parseKilledProcess, parseKmsgRecord, parseOOMKill, type OOMKill } from '../../src/agent/oom/kmsg.js';

describe('kmsg OOM records', () => {
  const rows = [
    {
      name: 'a memcg OOM kill line gives both memcgs, the task and its pid',
      text: '3,1234,98765432,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/bulkhead/pod1,task_memcg=/bulkhead/pod1/c,task=tail,pid=15381,uid=0',
      want: { oomMemcg: '/bulkhead/pod1', taskMemcg: '/bulkhead/pod1/c', task: 'tail', pid: 15381, uid: 0, constraint: 'CONSTRAINT_MEMCG' },
    },
    { name: 'the "Killed process" line is not the structured record', text: '3,1235,98765433,-;Memory cgroup out of memory: Killed process 15381 (tail) total-vm:66744kB', want: undefined },
    { name: 'other kernel messages are ignored', text: '6,1236,98765434,-;eth0: link up', want: undefined },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const rec = parseKmsgRecord(r.text);
      assert.ok(rec);
      assert.deepEqual(parseOOMKill(rec.message), r.want);
    });
  }
  it('a record carries its sequence number and monotonic timestamp', () => {
    assert.deepEqual(parseKmsgRecord('6,42,1000,-;hello\n SUBSYSTEM=x'), { priority: 6, seq: 42, timestampUs: 1000n, message: 'hello' });
  });
});

const oomKillLine = 'oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/p,task_memcg=/p/c,task=tail,pid=7,uid=0';
const killedLine = (pid: number) => `Memory cgroup out of memory: Killed process ${pid} (tail) total-vm:66744kB, anon-rss:64640kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:172kB oom_score_adj:0`;

describe('OOM kills from kernel messages, one per kill, also past the kernel\'s report rate limit', () => {
  const rows: { name: string; messages: string[]; procs?: Record<number, string>; want: (string | undefined)[]; unattributed?: number }[] = [
    { name: 'an oom-kill record is the kill; its Killed process line is not a second one', messages: [oomKillLine, killedLine(7)], want: ['/p/c', undefined] },
    { name: 'a Killed process line without its oom-kill record (rate-limited) takes the memcg from /proc', messages: [killedLine(8)], procs: { 8: '/p/d' }, want: ['/p/d'] },
    { name: 'a rate-limited kill whose victim has left its cgroup is counted, not reported', messages: [killedLine(9)], want: [undefined], unattributed: 1 },
    {
      name: 'a cgroup v2 group sweep is the kernel\'s own group kill, not more OOM kills',
      messages: [oomKillLine, killedLine(7), 'Tasks in /p/c are going to be killed due to memory.oom.group set', killedLine(7), killedLine(10), 'eth0: link up', killedLine(11)],
      procs: { 10: '/p/c', 11: '/q' },
      want: ['/p/c', undefined, undefined, undefined, undefined, undefined, '/q'],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = new OOMKillDecoder((pid) => r.procs?.[pid]);
      assert.deepEqual(r.messages.map((m) => d.push(m)?.taskMemcg), r.want);
      assert.equal(d.unattributed, r.unattributed ?? 0);
    });
  }
  it('the Killed process line gives the pid, the command (spaces and parentheses too) and the uid', () => {
    assert.deepEqual(parseKilledProcess(killedLine(15381)), { pid: 15381, task: 'tail', uid: 0 });
    assert.deepEqual(parseKilledProcess('Out of memory: Killed process 42 (my (app) x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:4kB oom_score_adj:0'), { pid: 42, task: 'my (app) x', uid: 1000 });
    assert.equal(parseKilledProcess('oom_reaper: reaped process 42 (tail), now anon-rss:0kB'), undefined);
  });
});

describe('Group emulation: who is group-killed', () => {
  const rows = [
    { name: 'Single: the kernel\'s one kill is all', target: { oomKillMode: 'Single' as const, emulated: false }, kills: false },
    { name: 'Group without emulation (cgroup v2): the kernel kills the group itself', target: { oomKillMode: 'Group' as const, emulated: false }, kills: false },
    { name: 'Group emulated on cgroup v1: the agent kills the rest', target: { oomKillMode: 'Group' as const, emulated: true }, kills: true },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      // A cgroup directory that does not exist: only the emulated row may touch it (and fails).
      const p = emulateGroupKill({ ...r.target, cgroupDir: `/nonexistent-${randomBytes(4).toString('hex')}` });
      assert.equal(p !== undefined, r.kills);
      if (p) await assert.rejects(p, /ENOENT/);
    });
  }
});

function skipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: needs a memory cgroup and /dev/kmsg';
  if (!existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') && !existsSync('/sys/fs/cgroup/memory/cgroup.procs')) return 'no cgroup v1 memory hierarchy';
  if (!existsSync('/dev/kmsg')) return 'no /dev/kmsg';
  return undefined;
}
const reason = skipReason();
if (reason) console.error(`\n*** SKIPPING real-kernel OOM tests: ${reason} ***\n`);

describe('OOM kills on cgroup v1 (real kernel)', { skip: reason }, () => {
  const top = `/bulkhead-test-${randomBytes(4).toString('hex')}`;
  const root = '/sys/fs/cgroup/memory';
  const made: string[] = [];
  const children: ChildProcess[] = [];

  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const dir of made.reverse()) {
      if (!existsSync(dir)) continue;
      // Only our own processes can be in our cgroups.
      await killCgroup(dir).catch(() => undefined);
      rmdirSync(dir);
    }
    if (existsSync(join(root, top))) rmdirSync(join(root, top));
    // Every hierarchy, in case a test's tasks left a copy of the top anywhere.
    const left = removeTestCgroups(top.slice(1));
    assert.deepEqual(left, [], 'every test cgroup removed');
  });

  function cgroup(name: string): string {
    const dir = join(root, top, name);
    mkdirSync(dir, { recursive: true });
    if (!made.includes(join(root, top))) made.unshift(join(root, top));
    made.push(dir);
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(64 * 1024 * 1024));
    return dir;
  }

  /** sh joins the cgroup, starts two sleepers, then a memory hog; the hog is the largest task. */
  function workload(dir: string): ChildProcess {
    const sh = spawn('sh', ['-c', `echo $$ > ${dir}/cgroup.procs; sleep 100 & sleep 100 & tail /dev/zero; wait`], { stdio: 'ignore' });
    children.push(sh);
    return sh;
  }

  function waitForKill(taskMemcg: string, onKill?: (k: OOMKill) => void): Promise<{ kill: OOMKill; seenAt: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        w.stop();
        reject(new Error(`no OOM kill in ${taskMemcg} within 20 s`));
      }, 20_000);
      const w = new KmsgOOMWatcher((k) => {
        if (k.taskMemcg !== taskMemcg) return;
        const seenAt = performance.now();
        clearTimeout(timer);
        w.stop();
        onKill?.(k);
        resolve({ kill: k, seenAt });
      });
      w.start();
    });
  }

  const procs = (dir: string) => readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);

  it('Single (v1 native): only the hog dies, the rest keeps running', async () => {
    const dir = cgroup('single');
    const seen = waitForKill(`${top}/single`);
    const sh = workload(dir);
    const { kill } = await seen;
    assert.equal(kill.task, 'tail');
    // '' when the kernel's OOM report was rate-limited host-wide (kmsg.ts): then only the task's memcg is known.
    assert.ok([`${top}/single`, ''].includes(kill.oomMemcg), kill.oomMemcg);
    await new Promise((r) => setTimeout(r, 100));
    const left = procs(dir);
    assert.ok(left.includes(sh.pid!), 'the shell survives');
    assert.equal(left.length, 3, `sh and two sleeps survive, found ${left.join(' ')}`);
  });

  it('Group emulation: the first OOM kill empties the whole cgroup', async () => {
    const dir = cgroup('group');
    let result: Awaited<ReturnType<typeof killCgroup>> | undefined;
    let done: Promise<void> = Promise.resolve();
    const seen = waitForKill(`${top}/group`, () => {
      done = killCgroup(dir).then((r) => {
        result = r;
      });
    });
    workload(dir);
    const { kill } = await seen;
    await done;
    assert.equal(kill.task, 'tail');
    assert.deepEqual(procs(dir), []);
    assert.ok(result && result.killed.length >= 3, `killed ${result?.killed.join(' ')}`);
    // Speed is bench/groupkill.bench.ts's business (with a same-run baseline), not this test's.
    console.log(`group-kill emulation: cgroup empty ${result!.ms.toFixed(1)} ms after the kmsg record was read (${result!.rounds} rounds, ${result!.killed.length} tasks)`);
  });

  it('Group emulation: the first round of SIGKILLs is sent before the kill is awaited', async () => {
    const dir = cgroup('sync');
    const sh = spawn('sh', ['-c', `echo $$ > ${dir}/cgroup.procs; sleep 100 & sleep 100 & exec sleep 100`], { stdio: 'ignore' });
    children.push(sh);
    while (procs(dir).length < 3) await new Promise((r) => setTimeout(r, 5));
    const before = procs(dir);
    const p = emulateGroupKill({ oomKillMode: 'Group', emulated: true, cgroupDir: dir })!;
    // Nothing awaited yet: each task is gone, exiting, or has SIGKILL (bit 9) pending.
    for (const pid of before) {
      let status: string;
      try {
        status = readFileSync(`/proc/${pid}/status`, 'utf8');
      } catch {
        continue;
      }
      const pending = BigInt('0x' + (/^ShdPnd:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0')) | BigInt('0x' + (/^SigPnd:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'));
      const state = /^State:\s*(\S)/m.exec(status)?.[1];
      assert.ok(state === 'Z' || state === 'X' || (pending & (1n << 8n)) !== 0n || !procs(dir).includes(pid), `pid ${pid}: state ${state}, pending ${pending.toString(16)}`);
    }
    const r = await p;
    assert.deepEqual(procs(dir), []);
    assert.deepEqual([...r.killed].sort(), [...before].sort());
  });

  it('a kill past the kernel\'s report rate limit is attributed from /proc, or counted when the victim has already left', async () => {
    // As if the oom-kill record had been rate-limited: this decoder never sees it, only the
    // Killed process line (a real OOM; the rate limit itself is not exhausted, since that
    // would hide other tests' OOM reports on this host for 5 s). The /proc read races with
    // the victim's exit (kmsg.ts): a lost race must be counted, never misattributed.
    const dir = cgroup('ratelimited');
    const sh = spawn('sh', ['-c', `echo $$ > ${dir}/cgroup.procs; exec tail /dev/zero`], { stdio: 'ignore' });
    children.push(sh);
    const outcome = new Promise<{ kill?: OOMKill; unattributed: boolean }>((resolve, reject) => {
      class WithoutReports extends OOMKillDecoder {
        override push(message: string): OOMKill | undefined {
          if (message.startsWith('oom-kill:')) return undefined;
          const before = this.unattributed;
          const kill = super.push(message);
          if (parseKilledProcess(message)?.pid === sh.pid) done({ kill, unattributed: this.unattributed > before });
          return kill;
        }
      }
      const timer = setTimeout(() => done(undefined), 20_000);
      const w = new KmsgOOMWatcher(() => undefined, 1, '/dev/kmsg', new WithoutReports());
      const done = (r: { kill?: OOMKill; unattributed: boolean } | undefined) => {
        clearTimeout(timer);
        w.stop();
        if (r) resolve(r);
        else reject(new Error(`no Killed process ${sh.pid} line within 20 s`));
      };
      w.start();
    });
    const r = await outcome;
    if (r.kill) {
      assert.equal(r.kill.taskMemcg, `${top}/ratelimited`);
      assert.equal(r.kill.task, 'tail');
      assert.equal(r.kill.oomMemcg, '', 'the oom memcg is only in the rate-limited record');
    } else {
      assert.ok(r.unattributed, 'a Killed process line that could not be attributed is counted');
      console.log('rate-limited OOM kill: the victim had left its cgroup before /proc was read (counted as unattributed)');
    }
  });

  it('a process\'s memcg comes from its /proc cgroup file, and a process that has exited has none', async () => {
    const dir = cgroup('proc');
    const sh = spawn('sh', ['-c', `echo $$ > ${dir}/cgroup.procs; sleep 0.05 & exec sleep 100`], { stdio: 'ignore' });
    children.push(sh);
    while (procs(dir).length < 2) await new Promise((r) => setTimeout(r, 5));
    assert.equal(memcgOfPid(sh.pid!), `${top}/proc`);
    const child = procs(dir).find((p) => p !== sh.pid)!;
    // The short sleep exits and stays a zombie (its parent, the long sleep, never waits).
    while (procs(dir).includes(child)) await new Promise((r) => setTimeout(r, 5));
    assert.equal(memcgOfPid(child), undefined);
  });
});
