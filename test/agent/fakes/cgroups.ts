// A CgroupManager (src/agent/cgroups/manager.ts) over a temporary directory, as the kubelet's
// pkg/kubelet/cm/container_manager_stub.go stands in for the real one: directories are made
// and removed for real (the pod worker's created-cgroups bookkeeping sees them), values, OOM
// counters and member pids are kept in memory and set by the test. Either version, so the
// worker's version-independence can be checked.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupCPU, CgroupManager, CgroupMemory, CgroupOOMCounters } from '../../../src/agent/cgroups/manager.js';
import { removeCgroupDirTree } from '../../../src/agent/cgroups/v1.js';
import type { CgroupFiles, CgroupVersion } from '../../../src/policy/cgroupvalues.js';

export class FakeCgroupManager implements CgroupManager {
  readonly values = new Map<string, CgroupFiles>();
  private readonly procs = new Map<string, Set<number>>();
  private readonly ooms = new Map<string, CgroupOOMCounters>();
  /** Readings the test sets (stats tests): memory and CPU by cgroup path. */
  readonly memories = new Map<string, CgroupMemory>();
  readonly cpus = new Map<string, CgroupCPU>();

  constructor(
    /** The one hierarchy's mount point (a temporary directory). */
    readonly root: string,
    readonly version: CgroupVersion = 1,
    /** What swapControllerAvailable answers. */
    readonly swapController = true,
  ) {}

  swapControllerAvailable(): boolean {
    return this.swapController;
  }

  hierarchies(): string[] {
    return [this.root];
  }

  ensure(path: string, files: CgroupFiles = {}): void {
    mkdirSync(join(this.root, path), { recursive: true });
    this.values.set(path, { ...(this.values.get(path) ?? {}), ...files });
  }

  exists(path: string): boolean {
    return existsSync(join(this.root, path));
  }

  read(path: string, file: string): string {
    const v = this.values.get(path)?.[file];
    if (v === undefined) throw new Error(`fake cgroups: no ${file} in ${path}`);
    return v;
  }

  fileDir(path: string): string {
    return join(this.root, path);
  }

  memoryDir(path: string): string {
    return join(this.root, path);
  }

  removeTree(path: string): void {
    removeCgroupDirTree(join(this.root, path));
    for (const k of [...this.values.keys()]) if (k === path || k.startsWith(`${path}/`)) this.values.delete(k);
  }

  pids(path: string): number[] {
    return [...(this.procs.get(path) ?? [])];
  }

  memory(path: string): CgroupMemory | undefined {
    return this.memories.get(path);
  }

  cpu(path: string): CgroupCPU | undefined {
    return this.cpus.get(path);
  }

  oomCounters(path: string): CgroupOOMCounters {
    return this.ooms.get(path) ?? { oomKill: 0, oomGroupKill: 0 };
  }

  oomEventsFile(): string | undefined {
    return undefined;
  }

  populatedEventsFile(): string | undefined {
    return undefined;
  }

  pidIn(pid: number, path: string): boolean {
    return this.procs.get(path)?.has(pid) === true;
  }

  // -------------------------------------------------------------------------------------------
  // What the kernel would do

  join(path: string, pid: number): void {
    this.procs.set(path, new Set([...(this.procs.get(path) ?? []), pid]));
  }

  leave(path: string, pid: number): void {
    this.procs.get(path)?.delete(pid);
  }

  /** The kernel's OOM counters of `path` from now on. */
  setOOM(path: string, counters: Partial<CgroupOOMCounters>): void {
    this.ooms.set(path, { oomKill: 0, oomGroupKill: 0, ...counters });
  }
}
