// The cgroup v1 CgroupManager (manager.ts): directories for the node, QoS tiers and pods,
// created and written exactly as the plan says (src/policy computes the values; this file only
// puts them into the kernel). Each file goes to the hierarchy its controller prefix names
// (memory.*, cpu.*, hugetlb.*, pids.*). Only directories the agent created are ever removed.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupFiles } from '../../policy/cgroupvalues.js';
import { readMemcg, readCgroupFileSync } from '../eviction/memcg.js';
import type { CgroupCPU, CgroupManager, CgroupMemory, CgroupOOMCounters } from './manager.js';
import { parseCpuacctUsage } from './cpu.js';

export const defaultV1Root = '/sys/fs/cgroup';

/** The hierarchies a pod cgroup is made in; cpuacct rides along for usage accounting. */
export const v1Controllers = ['memory', 'cpu', 'cpuacct', 'pids', 'hugetlb'] as const;

export function controllerOf(file: string): string {
  const dot = file.indexOf('.');
  if (dot <= 0) throw new Error(`cgroup file ${JSON.stringify(file)} names no controller`);
  return file.slice(0, dot);
}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** rmdir `dir` and every directory below it, deepest first (a cgroup tree holds directories only). */
export function removeCgroupDirTree(dir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  for (const e of entries) {
    const p = join(dir, e);
    try {
      if (statSync(p).isDirectory()) removeCgroupDirTree(p);
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
    }
  }
  try {
    rmdirSync(dir);
  } catch (e) {
    if (errno(e) !== 'ENOENT') throw new Error(`removing cgroup ${dir}: ${errno(e) ?? (e as Error).message}`);
  }
}

export interface CgroupV1Options {
  /** Root of the v1 hierarchies; default /sys/fs/cgroup. */
  root?: string;
  controllers?: readonly string[];
  /**
   * Every hierarchy's mount point (the v1 ones and, on a hybrid host, the cgroup2 tree): runc
   * makes a container's cgroup in all of them. Default: the wanted controllers' directories.
   */
  hierarchies?: readonly string[];
  /** The cgroup2 tree of a hybrid host (its cgroup.events tell when a cgroup empties). */
  unified?: string;
}

export class CgroupV1Manager implements CgroupManager {
  readonly version = 1 as const;
  private readonly root: string;
  private readonly controllers: readonly string[];

  constructor(private readonly opts: CgroupV1Options = {}) {
    this.root = opts.root ?? defaultV1Root;
    this.controllers = opts.controllers ?? v1Controllers;
  }

  /** Hierarchies mounted on this host among the wanted ones. */
  available(): string[] {
    return this.controllers.filter((c) => existsSync(join(this.root, c)));
  }

  hierarchies(): string[] {
    return [...(this.opts.hierarchies ?? this.available().map((c) => join(this.root, c)))];
  }

  dir(controller: string, path: string): string {
    return join(this.root, controller, path);
  }

  /**
   * Makes `path` (e.g. /bulkhead/kubepods/burstable/pod<uid>) in every available hierarchy and
   * writes `files`. Memory limits are written after cpu so a failure names the value that the
   * kernel refused; a file for a controller that is not mounted is an error.
   */
  ensure(path: string, files: CgroupFiles = {}): void {
    const have = new Set(this.available());
    for (const c of have) mkdirSync(this.dir(c, path), { recursive: true });
    for (const [file, value] of Object.entries(files)) {
      const c = controllerOf(file);
      if (!have.has(c)) throw new Error(`cannot write ${file}: the ${c} cgroup v1 hierarchy is not mounted`);
      try {
        writeFileSync(join(this.dir(c, path), file), value);
      } catch (e) {
        throw new Error(`writing ${value} to ${join(this.dir(c, path), file)}: ${errno(e) ?? (e as Error).message}`);
      }
    }
  }

  exists(path: string): boolean {
    return existsSync(this.dir('memory', path));
  }

  read(path: string, file: string): string {
    return readFileSync(join(this.fileDir(path, file), file), 'utf8').trim();
  }

  fileDir(path: string, file: string): string {
    return this.dir(controllerOf(file), path);
  }

  memoryDir(path: string): string {
    return this.dir('memory', path);
  }

  /** Reads back the given files, for comparison with what the plan asked for. */
  readBack(path: string, files: CgroupFiles): CgroupFiles {
    const out: CgroupFiles = {};
    for (const f of Object.keys(files)) out[f] = this.read(path, f);
    return out;
  }

  removeTree(path: string): void {
    for (const h of this.hierarchies()) removeCgroupDirTree(join(h, path));
  }

  /** Removes `path` and its parents up to (not including) `stopAt`, in every hierarchy, where empty. */
  remove(path: string, stopAt = '/'): void {
    for (const c of this.available()) {
      let p = path;
      while (p !== stopAt && p !== '/' && p !== '') {
        const d = this.dir(c, p);
        if (!existsSync(d)) {
          p = p.slice(0, p.lastIndexOf('/'));
          continue;
        }
        try {
          rmdirSync(d);
        } catch (e) {
          if (errno(e) === 'EBUSY' || errno(e) === 'ENOTEMPTY') break;
          throw e;
        }
        p = p.slice(0, p.lastIndexOf('/'));
      }
    }
  }

  pids(path: string): number[] {
    return readFileSync(join(this.memoryDir(path), 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number);
  }

  memory(path: string, withLimit = false): CgroupMemory | undefined {
    return readMemcg(this.memoryDir(path), readCgroupFileSync, withLimit);
  }

  /** cpuacct.usage of the cpuacct hierarchy (the root cgroup's is the whole host's). */
  cpu(path: string): CgroupCPU | undefined {
    const p = join(this.dir('cpuacct', path), 'cpuacct.usage');
    let text: string;
    try {
      text = readFileSync(p, 'utf8');
    } catch (e) {
      if (errno(e) === 'ENOENT' || errno(e) === 'ENODEV') return undefined;
      throw e;
    }
    return { usageNanoseconds: parseCpuacctUsage(text, p) };
  }

  /** memory.oom_control's oom_kill: v1 counts the cgroup's own kills (not propagated to parents). */
  oomCounters(path: string): CgroupOOMCounters {
    try {
      const m = /^oom_kill (\d+)$/m.exec(readFileSync(join(this.memoryDir(path), 'memory.oom_control'), 'utf8'));
      return { oomKill: m ? Number(m[1]) : 0, oomGroupKill: 0 };
    } catch {
      return { oomKill: 0, oomGroupKill: 0 };
    }
  }

  oomEventsFile(): string | undefined {
    return undefined;
  }

  populatedEventsFile(path: string): string | undefined {
    return this.opts.unified ? join(this.opts.unified, path, 'cgroup.events') : undefined;
  }

  pidIn(pid: number, path: string): boolean {
    try {
      return readFileSync(`/proc/${pid}/cgroup`, 'utf8')
        .split('\n')
        .some((l) => {
          const [, ctrls, p] = l.split(':');
          return p === path && (ctrls ?? '').split(',').includes('memory');
        });
    } catch {
      return false;
    }
  }

  /**
   * The memory hierarchy's root has memory.memsw.limit_in_bytes only when swap is accounted
   * (CONFIG_MEMCG_SWAP, and not swapaccount=0), as the kubelet reads it.
   */
  swapControllerAvailable(): boolean {
    return existsSync(join(this.dir('memory', '/'), 'memory.memsw.limit_in_bytes'));
  }
}
