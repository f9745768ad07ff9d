// Group kill emulated on cgroup v1 (the OOM design's Group mode on a node without
// memory.oom.group, behind the agent's --oom-group-emulation): when the kernel kills one task
// of a container, SIGKILL every task left in the container's memory cgroup until it is empty.
// Only a cgroup the agent created for a container is ever passed here.

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

/** Kills every task in `cgroupDir` (a v1 memory cgroup), repeating until none is left or `timeoutMs` passes. */
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
