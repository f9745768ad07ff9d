// The node-level cgroups: `<root>/kubepods`, which holds every pod and enforces the node's
// declared size (memory limit, cpu shares and quota: nodeCgroupConfig), and the Burstable and
// BestEffort QoS tiers below it, whose cpu shares follow the pods on the node (qosTierConfigs),
// as the kubelet's node-allocatable enforcement and QoS container manager do. Values come from
// src/policy; this file only writes them.

import type { FeatureGates } from '../api/featuregates.js';
import type { Pod } from '../api/types.js';
import { cgroupPath, qosTierCgroupName } from '../policy/cgrouplayout.js';
import { nodeCgroupConfig, podCgroupFiles, qosTierConfigs, type CgroupFiles } from '../policy/cgroupvalues.js';
import { getPodQOS } from '../policy/qos.js';
import { CgroupV1Manager } from './cgroups/v1.js';
import type { NodeConfig } from '../plan/node.js';

/** Why `root` cannot be a --cgroup-root, or undefined when it can. */
export function cgroupRootProblem(root: string): string | undefined {
  if (!/^\/[A-Za-z0-9._/-]*$/.test(root) || root.split('/').includes('..')) return 'an absolute cgroup path like /bulkhead';
  return undefined;
}

export class NodeCgroups {
  private readonly cgroups: CgroupV1Manager;
  private lastTiers = '';

  constructor(private readonly root: string, private readonly node: NodeConfig, private readonly gates: FeatureGates, mountRoot?: string) {
    if (node.cgroupVersion !== 1) throw new Error('node cgroups: only cgroup v1 is implemented (this host enforces memory through v1)');
    this.cgroups = new CgroupV1Manager(mountRoot);
  }

  /** `<root>/kubepods` as a path below each hierarchy's mount point. */
  get kubepods(): string {
    return `${this.root}/kubepods`;
  }

  /** The values written to the node cgroup. */
  nodeFiles(): CgroupFiles {
    return podCgroupFiles(nodeCgroupConfig(this.node), 1);
  }

  /** Creates the node cgroup and both QoS tiers; safe to call again. */
  ensure(): void {
    this.cgroups.ensure(this.kubepods, this.nodeFiles());
    this.lastTiers = '';
    this.updateTiers([]);
  }

  /** Rewrites the tiers' cpu shares for the pods now on the node, when they changed. */
  updateTiers(pods: readonly Pod[]): void {
    const tiers = qosTierConfigs(pods.map((pod) => ({ pod, qos: getPodQOS(pod, this.gates) })), { gates: this.gates });
    const key = `${tiers.burstable.cpuShares}/${tiers.besteffort.cpuShares}`;
    if (key === this.lastTiers) return;
    this.cgroups.ensure(this.tierPath('Burstable'), podCgroupFiles(tiers.burstable, 1));
    this.cgroups.ensure(this.tierPath('BestEffort'), podCgroupFiles(tiers.besteffort, 1));
    this.lastTiers = key;
  }

  tierPath(qos: 'Burstable' | 'BestEffort'): string {
    return this.root + cgroupPath(qosTierCgroupName(qos), 'cgroupfs');
  }

  /** The memory cgroup directory of the node cgroup (for the eviction manager). */
  memoryDir(): string {
    return this.cgroups.dir('memory', this.kubepods);
  }

  read(path: string, file: string): string {
    return this.cgroups.read(path, file);
  }
}
