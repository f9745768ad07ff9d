// The clean-up of a kernel-tier file that runs pods on a real PodWorker: each pod stopped and
// removed, then what was left behind reported (containers, overlay mounts below the file's
// scratch dir, with `cgroupsBelowTop` pod cgroups under its cgroup root) and removed.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PodWorker } from '../../src/agent/podworker.js';
import { mountPoints } from '../../src/agent/runtime/overlay.js';
import type { Pod } from '../../src/api/types.js';
import { hierarchyRoots, removeTestCgroups } from './cgrouptrees.js';

/** Stops and removes `pods`, removes `base` and the cgroup root `top`; throws naming whatever was left. */
export async function cleanUpRealWorker(worker: PodWorker, pods: readonly Pod[], base: string, top: string, opts: { cgroupsBelowTop?: boolean } = {}): Promise<void> {
  const problems: string[] = [];
  for (const pod of pods) {
    try {
      await worker.terminate(pod, 0, () => undefined);
      await worker.remove(pod.metadata.uid!);
    } catch (e) {
      problems.push(`cleanup of ${pod.metadata.name}: ${(e as Error).message}`);
    }
  }
  const left = await worker.runtime.list();
  if (left.length) problems.push(`runtime containers left: ${left.map((s) => s.id).join(' ')}`);
  for (const m of mountPoints()) {
    if (!base || !m.startsWith(base)) continue;
    problems.push(`mount left: ${m}`);
    try {
      execFileSync('umount', [m]);
    } catch {
      // reported above
    }
  }
  // Only the cgroup root itself may be left: pod cgroups and the parents the worker made are gone.
  if (opts.cgroupsBelowTop) {
    for (const h of hierarchyRoots()) {
      const d = join(h, top);
      if (!existsSync(d)) continue;
      const below = readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      if (below.length) problems.push(`cgroup dirs left under ${d}: ${below.join(' ')}`);
    }
  }
  problems.push(...removeTestCgroups(top));
  if (base) rmSync(base, { recursive: true, force: true });
  if (problems.length) throw new Error(`cleanup incomplete: ${problems.join('; ')}`);
}
