// Facts about this machine that serve as defaults when a plan names no node.

import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import type { CgroupVersion } from '../policy/cgroupvalues.js';

export function hostMemoryBytes(): bigint {
  return BigInt(totalmem());
}

export function hostMilliCPU(): bigint {
  return BigInt(availableParallelism()) * 1000n;
}

/**
 * v2 only when the unified hierarchy is mounted at /sys/fs/cgroup and has the memory
 * controller; a hybrid host (cgroup2 tree without memory) enforces memory through v1.
 */
export function hostCgroupVersion(): CgroupVersion {
  const controllers = '/sys/fs/cgroup/cgroup.controllers';
  if (!existsSync(controllers)) return 1;
  try {
    return readFileSync(controllers, 'utf8').split(/\s+/).includes('memory') ? 2 : 1;
  } catch {
    return 1;
  }
}

export function hostNrOpen(): bigint | undefined {
  try {
    return BigInt(readFileSync('/proc/sys/fs/nr_open', 'utf8').trim());
  } catch {
    return undefined;
  }
}
