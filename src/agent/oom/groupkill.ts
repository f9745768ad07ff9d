// Group kill emulated on cgroup v1 (the OOM design's Group mode on a node without
// memory.oom.group, behind the agent's --oom-group-emulation): when the kernel kills one task
// of a container, SIGKILL every task left in the container's memory cgroup until it is empty.
// Only a cgroup the agent created for a container is ever passed here.
//
// Latency (target ≤ 15 ms from the kernel's kill to an empty cgroup, on a quiet machine): the kmsg
// watcher reads the kill ~1 ms after the kernel (kmsg.ts); the first round of SIGKILLs goes out
// synchronously in that same callback, before anything that waits (a `runc state` in front of
// it cost 4–28 ms here, more under load); the rest is the kernel tearing the tasks down
// (bench/groupkill.bench.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function pids(cgroupDir: string): number[] {
  return readFileSync(join(cgroupDir, 'cgroup.procs'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
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
  let rounds = 0;
  for (;;) {
    const left = pids(cgroupDir);
    if (left.length === 0) return { ms: performance.now() - start, killed: [...killed], rounds };
    if (performance.now() - start > timeoutMs) throw new Error(`tasks still in ${cgroupDir} after ${timeoutMs} ms: ${left.join(' ')}`);
    rounds++;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
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
