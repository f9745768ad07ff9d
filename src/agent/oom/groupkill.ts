// Group kill emulated on cgroup v1 (the OOM design's Group mode on a node without
// memory.oom.group, behind the agent's --oom-group-emulation): when the kernel kills one task
// of a container, SIGKILL every task left in the container's memory cgroup until it is empty.
// Only a cgroup the agent created for a container is ever passed here.
//
// Latency budget (the emulation's ≤ 15 ms from the kernel's kill to an empty cgroup): the kmsg
// watcher reads the kill ~1 ms after the kernel (kmsg.ts); the first round of SIGKILLs goes out
// synchronously in that same callback, before anything that waits (a `runc state` in front of
// it cost 10–100 ms); the rest is the kernel tearing the tasks down (bench/groupkill.bench.ts),
// for which the signalled tasks are given the CPU (refugeFor).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { probeCgroups } from '../runtime/hostprobe.js';

function pids(cgroupDir: string): number[] {
  return readFileSync(join(cgroupDir, 'cgroup.procs'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
}

const maxShares = 262144; // the kernel's MAX_SHARES
const refuges = new Map<string, string | undefined>();
let mounts: { memory?: string; cpu?: string } | undefined; // read once: mounts do not move

/**
 * Where the group kill moves the tasks it has signalled, in the cpu hierarchy only: a cgroup of
 * the highest weight and no quota, `<cpu>/<top>/oom-group-kill` beside the container's tree. A
 * SIGKILLed task still needs the CPU to exit; left in its container's cpu cgroup it waits behind
 * the weight the container was given (cpu.shares 102 for a 100m request), the lag of the hog
 * that spun until the OOM, or an exhausted quota (up to a 100 ms period): on a busy 2-core
 * machine killed tasks sat runnable for up to 90 ms. Memory accounting is untouched (the memory
 * cgroup is the one that empties). Undefined when the host has no v1 cpu hierarchy.
 */
export function refugeFor(cgroupDir: string): string | undefined {
  if (!mounts) {
    try {
      const v1 = probeCgroups().v1;
      mounts = { memory: v1.memory, cpu: v1.cpu };
    } catch {
      mounts = {};
    }
  }
  if (!mounts.memory || !mounts.cpu) return undefined;
  const top = relative(mounts.memory, cgroupDir).split(sep)[0];
  if (!top || top.startsWith('..')) return undefined;
  const dir = join(mounts.cpu, top, 'oom-group-kill');
  if (!refuges.has(dir)) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.shares'), String(maxShares));
      refuges.set(dir, dir);
    } catch {
      refuges.set(dir, undefined);
    }
  }
  return refuges.get(dir);
}

export interface GroupKillResult {
  /** Milliseconds from the call until cgroup.procs was empty. */
  ms: number;
  killed: number[];
  rounds: number;
}

/**
 * Kills every task in `cgroupDir` (a v1 memory cgroup), repeating until none is left or
 * `timeoutMs` passes. The first round (read cgroup.procs, SIGKILL each) runs synchronously,
 * before the returned promise is first awaited; later rounds catch tasks forked meanwhile.
 */
export async function killCgroup(cgroupDir: string, timeoutMs = 2000): Promise<GroupKillResult> {
  const start = performance.now();
  const killed = new Set<number>();
  let refuge: string | undefined;
  let rounds = 0;
  for (;;) {
    const left = pids(cgroupDir);
    if (left.length === 0) return { ms: performance.now() - start, killed: [...killed], rounds };
    if (performance.now() - start > timeoutMs) throw new Error(`tasks still in ${cgroupDir} after ${timeoutMs} ms: ${left.join(' ')}`);
    rounds++;
    const signalled: number[] = [];
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
        signalled.push(pid);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
      }
    }
    // Every signal first, then the CPU to act on it (see refugeFor).
    if (rounds === 1) refuge = refugeFor(cgroupDir);
    for (const pid of refuge ? signalled : []) {
      try {
        writeFileSync(join(refuge!, 'cgroup.procs'), String(pid));
      } catch (e) {
        // Already exiting (ESRCH): nothing to speed up. The refuge removed (ENOENT): made anew next time.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') refuges.delete(refuge!);
      }
    }
    // A killed task leaves cgroup.procs when the kernel has torn it down; poll briefly.
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Whom an OOM kill hit, as far as the emulation cares (the agent's MemcgOwner has these fields). */
export interface GroupKillTarget {
  oomKillMode: 'Single' | 'Group';
  /** Group on cgroup v1 with --oom-group-emulation: the agent, not the kernel, kills the rest. */
  emulated: boolean;
  cgroupDir: string;
}

/**
 * The agent's first step on an OOM kill: for an emulated Group container, SIGKILL everything
 * left in its cgroup now (synchronously, see killCgroup) and resolve once it is empty;
 * undefined for any other container. Call it before anything that awaits.
 */
export function emulateGroupKill(target: GroupKillTarget, timeoutMs?: number): Promise<GroupKillResult> | undefined {
  if (target.oomKillMode !== 'Group' || !target.emulated) return undefined;
  return killCgroup(target.cgroupDir, timeoutMs);
}
