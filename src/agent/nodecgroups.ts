// The node-level cgroups: `<root>/kubepods`, which holds every pod and enforces the node's
// declared size (memory limit, cpu shares and quota: nodeCgroupConfig), and the Burstable and
// BestEffort QoS tiers below it, whose cpu shares follow the pods on the node (qosTierConfigs),
// as the kubelet's node-allocatable enforcement and QoS container manager do. Values come from
// src/policy (for the host's cgroup version: cpu.shares and memory.limit_in_bytes on v1,
// cpu.weight, cpu.max and memory.max on v2); this file only writes them, through the host's
// CgroupManager (cgroups/manager.ts), never asking which version it is. On a clean shutdown with no pods left they are removed
// again (rmdir only, so a cgroup that still holds anything stays), with the root when the agent
// made it; with pods left they stay, for the next run to adopt the pods into.

import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FeatureGates } from '../api/featuregates.js';
import type { Pod } from '../api/types.js';
import { cgroupPath, qosTierCgroupName } from '../policy/cgrouplayout.js';
import { nodeCgroupConfig, podCgroupFiles, qosTierConfigs, type CgroupFiles } from '../policy/cgroupvalues.js';
import { getPodQOS } from '../policy/qos.js';
import type { CgroupManager } from './cgroups/manager.js';
import { CgroupV1Manager } from './cgroups/v1.js';
import { CgroupV2Manager } from './cgroups/v2.js';
import type { NodeConfig } from '../plan/node.js';

/** Why `root` cannot be a --cgroup-root, or undefined when it can. */
export function cgroupRootProblem(root: string): string | undefined {
  if (!/^\/[A-Za-z0-9._/-]*$/.test(root) || root.split('/').includes('..')) return 'an absolute cgroup path like /bulkhead';
  return undefined;
}

export interface NodeCgroupsOptions {
  /** The host's CgroupManager (cgroups/select.ts cgroupManagerFor); its version must be the node's. */
  cgroups?: CgroupManager;
  /** Without `cgroups`: the root of the v1 hierarchies, or the cgroup2 mount; default /sys/fs/cgroup. */
  mountRoot?: string;
  /**
   * Every hierarchy's mount point (the v1 ones and the cgroup2 tree): runc makes the pods' parents
   * in all of them, so that is where removeUnused() looks. Default: none (nothing is removed).
   */
  hierarchies?: readonly string[];
  /** Where the root directories the agent made are remembered across restarts. */
  createdFile?: string;
}

export class NodeCgroups {
  readonly cgroups: CgroupManager;
  private lastTiers = '';

  constructor(private readonly root: string, private readonly node: NodeConfig, private readonly gates: FeatureGates, private readonly opts: NodeCgroupsOptions = {}) {
    if (opts.cgroups) {
      if (opts.cgroups.version !== node.cgroupVersion) throw new Error(`node cgroups: the node is planned for cgroup v${node.cgroupVersion} but the cgroup manager is v${opts.cgroups.version}`);
      this.cgroups = opts.cgroups;
    } else if (node.cgroupVersion === 1) {
      this.cgroups = new CgroupV1Manager(opts.mountRoot ? { root: opts.mountRoot } : {});
    } else {
      this.cgroups = new CgroupV2Manager(opts.mountRoot ? { mount: opts.mountRoot } : {});
    }
  }

  /** `<root>/kubepods` as a path below each hierarchy's mount point. */
  get kubepods(): string {
    return `${this.root}/kubepods`;
  }

  /** The values written to the node cgroup. */
  nodeFiles(): CgroupFiles {
    return podCgroupFiles(nodeCgroupConfig(this.node), this.node.cgroupVersion);
  }

  /** Creates the node cgroup and both QoS tiers; safe to call again. */
  ensure(): void {
    // The root (e.g. /bulkhead) is ours to remove later only where it did not exist before.
    if (this.root !== '' && this.opts.createdFile) {
      const made = (this.opts.hierarchies ?? []).map((h) => join(h, this.root)).filter((d) => !existsSync(d));
      if (made.length) this.writeCreated([...new Set([...this.readCreated(), ...made])]);
    }
    this.cgroups.ensure(this.kubepods, this.nodeFiles());
    this.lastTiers = '';
    this.updateTiers([]);
  }

  /** Rewrites the tiers' cpu shares for the pods now on the node, when they changed. */
  updateTiers(pods: readonly Pod[]): void {
    const tiers = qosTierConfigs(pods.map((pod) => ({ pod, qos: getPodQOS(pod, this.gates) })), { gates: this.gates });
    const key = `${tiers.burstable.cpuShares}/${tiers.besteffort.cpuShares}`;
    if (key === this.lastTiers) return;
    this.cgroups.ensure(this.tierPath('Burstable'), podCgroupFiles(tiers.burstable, this.node.cgroupVersion));
    this.cgroups.ensure(this.tierPath('BestEffort'), podCgroupFiles(tiers.besteffort, this.node.cgroupVersion));
    this.lastTiers = key;
  }

  /**
   * rmdir of the QoS tiers, kubepods and the root the agent made, deepest first, in every
   * hierarchy. Never kills or empties anything: what still holds a cgroup or a process stays
   * (EBUSY, ENOTEMPTY) and is returned.
   */
  removeUnused(): string[] {
    const stayed: string[] = [];
    const created = new Set(this.readCreated());
    const removedRoots: string[] = [];
    for (const h of this.opts.hierarchies ?? []) {
      const dirs = [this.tierPath('Burstable'), this.tierPath('BestEffort'), this.kubepods].map((p) => join(h, p));
      const rootDir = join(h, this.root);
      if (this.root !== '' && created.has(rootDir)) dirs.push(rootDir);
      for (const d of dirs) {
        try {
          rmdirSync(d);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') {
            // Gone already (or never made in this hierarchy).
          } else if (code === 'EBUSY' || code === 'ENOTEMPTY') {
            stayed.push(d);
            continue;
          } else {
            throw e;
          }
        }
        if (d === rootDir) removedRoots.push(d);
      }
    }
    if (removedRoots.length) this.writeCreated([...created].filter((d) => !removedRoots.includes(d)));
    return stayed;
  }

  private readCreated(): string[] {
    if (!this.opts.createdFile) return [];
    try {
      const v = JSON.parse(readFileSync(this.opts.createdFile, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  private writeCreated(dirs: string[]): void {
    const file = this.opts.createdFile!;
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(dirs.sort(), null, 2) + '\n');
    renameSync(tmp, file);
  }

  tierPath(qos: 'Burstable' | 'BestEffort'): string {
    return this.root + cgroupPath(qosTierCgroupName(qos), 'cgroupfs');
  }

  /** The memory cgroup directory of the node cgroup (for the eviction manager). */
  memoryDir(): string {
    return this.cgroups.memoryDir(this.kubepods);
  }

  read(path: string, file: string): string {
    return this.cgroups.read(path, file);
  }
}
