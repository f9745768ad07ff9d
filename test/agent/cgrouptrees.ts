// Test cleanup shared by the real-kernel agent tests: every hierarchy's copy of a test's own
// top-level cgroup directory, removed deepest first (rmdir only, as cgroups require).

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
