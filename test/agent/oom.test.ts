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
import { killCgroup } from '../../src/agent/oom/groupkill.js';
import { KmsgOOMWatcher, parseKmsgRecord, parseOOMKill, type OOMKill } from '../../src/agent/oom/kmsg.js';

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
    assert.equal(kill.oomMemcg, `${top}/single`);
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
    console.log(`group-kill emulation: cgroup empty ${result!.ms.toFixed(1)} ms after the kmsg record was read (${result!.rounds} rounds, ${result!.killed.length} tasks)`);
  });
});
