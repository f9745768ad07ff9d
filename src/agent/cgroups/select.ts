// The one place that asks "v1 or v2?": the CgroupManager for this host, chosen at start from
// the host probe, as the kubelet's NewCgroupManager does.

import type { CgroupProbe } from '../runtime/hostprobe.js';
import type { CgroupManager } from './manager.js';
import { CgroupV1Manager } from './v1.js';
import { CgroupV2Manager } from './v2.js';

/** Every mount point a runtime may make a container's cgroup in (the v1 ones and the cgroup2 tree). */
export function hierarchyMounts(cgroups: CgroupProbe): string[] {
  return [...new Set([...Object.values(cgroups.v1), ...(cgroups.unified ? [cgroups.unified] : [])])];
}

export function cgroupManagerFor(cgroups: CgroupProbe, opts: { v1Root?: string } = {}): CgroupManager {
  if (cgroups.memoryVersion === 1) {
    return new CgroupV1Manager({ ...(opts.v1Root ? { root: opts.v1Root } : {}), hierarchies: hierarchyMounts(cgroups), ...(cgroups.unified ? { unified: cgroups.unified } : {}) });
  }
  if (!cgroups.unified) throw new Error('the memory controller is on cgroup v2 but no cgroup2 mount was found');
  return new CgroupV2Manager({ mount: cgroups.unified });
}
