// Facts about this machine that serve as defaults when a plan names no node.

import { existsSync, readdirSync, readFileSync, statfsSync } from 'node:fs';
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

export function hostOSImage(): string {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    return m ? m[1]! : 'Linux';
  } catch {
    return 'Linux';
  }
}

/** Go's GOARCH spelling of this machine's architecture. */
export function hostArch(): string {
  const map: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x' };
  return map[process.arch] ?? process.arch;
}

export function hostMachineID(): string {
  try {
    return readFileSync('/etc/machine-id', 'utf8').trim();
  } catch {
    return '';
  }
}

export function hostBootID(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * The huge page sizes the kernel offers and the bytes reserved in each (cadvisor's
 * GetHugePagesInfo: /sys/kernel/mm/hugepages/hugepages-<kB>kB/nr_hugepages); none when the
 * directory is missing (a kernel without huge pages).
 */
export function hostHugePages(dir = '/sys/kernel/mm/hugepages'): { pageSizeBytes: bigint; totalBytes: bigint }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { pageSizeBytes: bigint; totalBytes: bigint }[] = [];
  for (const name of names) {
    const m = /^hugepages-(\d+)kB$/.exec(name);
    if (!m) continue;
    try {
      const pageSizeBytes = BigInt(m[1]!) * 1024n;
      out.push({ pageSizeBytes, totalBytes: pageSizeBytes * BigInt(readFileSync(`${dir}/${name}/nr_hugepages`, 'utf8').trim()) });
    } catch {
      // A size whose count cannot be read is left out, as cadvisor skips it.
    }
  }
  return out;
}

/**
 * The size in bytes of the filesystem holding `dir` (cadvisor's RootFsInfo capacity: blocks ×
 * block size), or 0 when it cannot be read, as the kubelet reports then.
 */
export function filesystemCapacityBytes(dir: string): bigint {
  try {
    const fs = statfsSync(dir, { bigint: true });
    return fs.blocks * fs.bsize;
  } catch {
    return 0n;
  }
}
