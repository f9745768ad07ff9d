// Where the kubelet puts pod cgroups (cgroupsPerQOS, cgroupRoot "/"): Guaranteed pods directly
// under kubepods, the other classes under a tier of their own; names spelled for the driver.

import type { QOSClass } from '../api/types.js';

export type CgroupDriver = 'cgroupfs' | 'systemd';

export const kubepodsName = 'kubepods';

/** The tier cgroups' names: the class in lower case. */
const tierNames: Partial<Record<QOSClass, string>> = { Burstable: 'burstable', BestEffort: 'besteffort' };

/** The abstract cgroup name as a list of components, e.g. ["kubepods", "burstable", "pod<uid>"]. */
export function podCgroupName(qos: QOSClass, uid: string): string[] {
  const pod = `pod${uid}`;
  if (qos === 'Guaranteed') return [kubepodsName, pod];
  return [kubepodsName, tierNames[qos] ?? qos.toLowerCase(), pod];
}

export function qosTierCgroupName(qos: Exclude<QOSClass, 'Guaranteed'>): string[] {
  return [kubepodsName, tierNames[qos] ?? qos.toLowerCase()];
}

/** CgroupName.ToCgroupfs / ToSystemd: the path below the cgroup mount. */
export function cgroupPath(name: string[], driver: CgroupDriver): string {
  if (driver === 'cgroupfs') {
    // '/' + name.join('/'), without the join (a plan builds one per pod).
    if (name.length === 0) return '/';
    let path = '';
    for (const part of name) path += `/${part}`;
    return path;
  }
  const slices: string[] = [];
  let prefix = '';
  for (const part of name) {
    const escaped = part.replace(/-/g, '_');
    prefix = prefix === '' ? escaped : `${prefix}-${escaped}`;
    slices.push(`${prefix}.slice`);
  }
  return '/' + slices.join('/');
}

export function podCgroupPath(qos: QOSClass, uid: string, driver: CgroupDriver): string {
  return cgroupPath(podCgroupName(qos, uid), driver);
}

/**
 * The leaf a container's cgroup gets below its pod cgroup: the runtime's container id
 * `<pod uid>-<container name>-<attempt>` (the sandbox is the container named POD), so that
 * restarts of one container never share a cgroup.
 */
export function containerCgroupLeaf(podUID: string, containerName: string, attempt: number): string {
  return `${podUID}-${containerName}-${attempt}`;
}

/** The attempt whose leaf this is for that pod and container, or undefined for any other leaf. */
export function containerCgroupAttempt(leaf: string, podUID: string, containerName: string): number | undefined {
  const prefix = `${podUID}-${containerName}-`;
  if (!leaf.startsWith(prefix)) return undefined;
  const rest = leaf.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}
