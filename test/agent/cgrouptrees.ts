// Test cleanup shared by the real-kernel agent tests: every hierarchy's copy of a test's own
// top-level cgroup directory, removed deepest first (rmdir only, as cgroups require).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';

export function removeCgroupTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) removeCgroupTree(p);
  }
  rmdirSync(dir);
}

/** The mount points of every v1 hierarchy and of the cgroup2 tree. */
export function hierarchyRoots(): string[] {
  const c = probeCgroups();
  return [...new Set([...Object.values(c.v1), ...(c.unified ? [c.unified] : [])])];
}

function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the real-kernel agent tests cannot run here, or undefined when they can: Linux, root,
 * /bin/busybox, the named tools, and a cgroup v1 memory hierarchy.
 */
export function realKernelSkipReason(tools: readonly string[]): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root (runc needs root to create cgroups and namespaces)';
  if (!existsSync('/bin/busybox')) return '/bin/busybox is missing (run scripts/install-host-deps.sh: busybox-static)';
  for (const t of tools) if (!onPath(t)) return `${t} is not installed (run scripts/install-host-deps.sh)`;
  try {
    if (!probeCgroups().v1.memory) return 'no cgroup v1 memory hierarchy';
  } catch (e) {
    return `cannot read cgroup mounts: ${(e as Error).message}`;
  }
  return undefined;
}

/** Removes a test's top-level cgroup directory in every hierarchy; returns what could not be removed. */
export function removeTestCgroups(top: string): string[] {
  const problems: string[] = [];
  for (const h of hierarchyRoots()) {
    try {
      removeCgroupTree(join(h, top));
    } catch (e) {
      problems.push(`rmdir ${join(h, top)}: ${(e as Error).message}`);
    }
  }
  return [...problems, ...hierarchyRoots().filter((h) => existsSync(join(h, top)))];
}
