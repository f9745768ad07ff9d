// The cgroup v2 CgroupManager (manager.ts) over one cgroup2 tree, for the cgroupfs driver: as
// the kubelet's pkg/kubelet/cm/cgroup_v2_manager_linux.go over libcontainer's fs2 (runc
// libcontainer/cgroups/fs2: CreateCgroupPath, the memory stats) and cAdvisor's v2 memory
// figures. Directories for the node, QoS tiers and pods are made and written exactly as the
// plan says (src/policy computes the values, named for v2: cpu.weight, cpu.max, memory.max,
// hugetlb.<size>.max); this file only puts them into the kernel.
//
// v2 differs from v1 in what a write needs: a cgroup's controller files exist only when its
// parent enables the controller in cgroup.subtree_control, and a parent can only enable what
// its own cgroup.controllers lists. So ensure() enables, in every ancestor from the tree root
// down to the path's parent, the controllers the files need (plus the ones the agent reads
// stats from), as fs2 does before it writes. The "no internal processes" rule makes that write
// EBUSY in a non-root cgroup holding processes; the agent's cgroups hold processes only in leaf
// container cgroups, so EBUSY means something else put a process there, and the error says so.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupFiles } from '../../policy/cgroupvalues.js';
import { parseMemoryStat, readCgroupFileSync, readMemcg } from '../eviction/memcg.js';
import type { CgroupCPU, CgroupManager, CgroupMemory, CgroupOOMCounters } from './manager.js';
import { parseCPUStatUsage, rootUsageFromMeminfo } from './cpu.js';
import { readMemcgOrThrow } from '../eviction/memcg.js';
import { controllerOf, removeCgroupDirTree } from './v1.js';

export const defaultV2Mount = '/sys/fs/cgroup';

/**
 * Controllers enabled down to every cgroup the agent makes even when no file there names them:
 * memory for memory.current/memory.stat/memory.events (eviction, OOM reports of BestEffort
 * pods), cpu and pids for the runtime's container cgroups below. Enabled only where available.
 */
export const baseV2Controllers = ['cpu', 'memory', 'pids'] as const;

/** Prefixes of files every cgroup2 directory has (the core interface), needing no controller. */
const coreFilePrefix = 'cgroup';

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** The controllers `files` need, in the order the files name them (cgroup.* files need none). */
export function controllersForFiles(files: CgroupFiles): string[] {
  const out: string[] = [];
  for (const f of Object.keys(files)) {
    const c = controllerOf(f);
    if (c !== coreFilePrefix && !out.includes(c)) out.push(c);
  }
  return out;
}

/** A space-separated controller list (cgroup.controllers, cgroup.subtree_control). */
export function parseControllerList(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * What one ancestor's cgroup.subtree_control must be given so its child gets the controllers
 * the files need and the base ones: the "+name" tokens of the controllers it does not enable
 * yet. A file whose controller the ancestor does not have (cgroup.controllers) is an error
 * naming the file and its value; a base controller that is missing is skipped.
 */
export function subtreeControlWrite(files: CgroupFiles, available: readonly string[], enabled: readonly string[], where: string): string[] {
  const have = new Set(available);
  for (const [file, value] of Object.entries(files)) {
    const c = controllerOf(file);
    if (c === coreFilePrefix || have.has(c)) continue;
    throw new Error(`cannot write ${file}=${JSON.stringify(value)}: the ${c} controller is not available in ${where}/cgroup.controllers (it lists: ${available.join(' ') || 'nothing'})`);
  }
  const wanted = [...baseV2Controllers.filter((c) => have.has(c)), ...controllersForFiles(files)];
  const on = new Set(enabled);
  const add: string[] = [];
  for (const c of wanted) if (!on.has(c) && !add.includes(c)) add.push(c);
  return add.map((c) => `+${c}`);
}

/** The cgroup path of a process on cgroup v2: the `0::<path>` line of /proc/<pid>/cgroup. */
export function v2PathOfProc(text: string): string | undefined {
  for (const line of text.split('\n')) if (line.startsWith('0::')) return line.slice(3).trim();
  return undefined;
}

/** The kernel's OOM counters from a memory.events(.local) text (flat keyed: `name value` lines). */
export function parseMemoryEvents(text: string): CgroupOOMCounters {
  const m = parseMemoryStat(text);
  return { oomKill: Number(m.get('oom_kill') ?? 0n), oomGroupKill: Number(m.get('oom_group_kill') ?? 0n) };
}

/** `/a/b/c` → ['', '/a', '/a/b'] : the ancestors of a cgroup path from the tree root, the path itself excluded. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(i === 0 ? '' : `/${parts.slice(0, i).join('/')}`);
  return out;
}

export interface CgroupV2Options {
  /** The cgroup2 mount point (the host probe's `unified`); default /sys/fs/cgroup. */
  mount?: string;
  /** This process's /proc/self/cgroup text (tests give their own). */
  selfCgroup?: () => string;
}

export class CgroupV2Manager implements CgroupManager {
  readonly version = 2 as const;
  readonly mount: string;

  private readonly selfCgroup: () => string;

  constructor(opts: CgroupV2Options = {}) {
    this.mount = opts.mount ?? defaultV2Mount;
    this.selfCgroup = opts.selfCgroup ?? (() => readFileSync('/proc/self/cgroup', 'utf8'));
  }

  hierarchies(): string[] {
    return [this.mount];
  }

  dir(path: string): string {
    return join(this.mount, path);
  }

  /**
   * Makes `path` (and missing parents), enables the controllers its files need in every
   * ancestor's cgroup.subtree_control (the tree root's included), then writes the files in
   * order. An ancestor's write is only made when something is missing from it.
   */
  ensure(path: string, files: CgroupFiles = {}): void {
    for (const a of ancestorsOf(path)) {
      const dir = this.dir(a);
      mkdirSync(dir, { recursive: true });
      const available = parseControllerList(readFileSync(join(dir, 'cgroup.controllers'), 'utf8'));
      const enabled = parseControllerList(readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8'));
      const add = subtreeControlWrite(files, available, enabled, dir);
      if (add.length === 0) continue;
      try {
        writeFileSync(join(dir, 'cgroup.subtree_control'), add.join(' '));
      } catch (e) {
        const code = errno(e);
        if (code === 'EBUSY') {
          throw new Error(
            `enabling ${add.join(' ')} in ${dir}/cgroup.subtree_control: EBUSY: that cgroup holds processes (cgroup v2's "no internal processes" rule); ` +
              `the agent's cgroups hold processes only in container cgroups, so move what is in ${dir}/cgroup.procs elsewhere`,
          );
        }
        throw new Error(`enabling ${add.join(' ')} in ${dir}/cgroup.subtree_control: ${code ?? (e as Error).message}`);
      }
    }
    const dir = this.dir(path);
    mkdirSync(dir, { recursive: true });
    for (const [file, value] of Object.entries(files)) {
      try {
        writeFileSync(join(dir, file), value);
      } catch (e) {
        throw new Error(`writing ${value} to ${join(dir, file)}: ${errno(e) ?? (e as Error).message}`);
      }
    }
  }

  exists(path: string): boolean {
    return existsSync(this.dir(path));
  }

  read(path: string, file: string): string {
    return readFileSync(join(this.dir(path), file), 'utf8').trim();
  }

  fileDir(path: string): string {
    return this.dir(path);
  }

  memoryDir(path: string): string {
    return this.dir(path);
  }

  /** Reads back the given files, for comparison with what the plan asked for. */
  readBack(path: string, files: CgroupFiles): CgroupFiles {
    const out: CgroupFiles = {};
    for (const f of Object.keys(files)) out[f] = this.read(path, f);
    return out;
  }

  removeTree(path: string): void {
    removeCgroupDirTree(this.dir(path));
  }

  pids(path: string): number[] {
    return readFileSync(join(this.dir(path), 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(Number);
  }

  memory(path: string, withLimit = false): CgroupMemory | undefined {
    // The root has memory.stat but no memory.current (nor memory.max): usage from /proc/meminfo.
    if (path === '' || path === '/') return readMemcgOrThrow(this.mount, readCgroupFileSync, false, 2, rootUsageFromMeminfo(readFileSync('/proc/meminfo', 'utf8')));
    return readMemcg(this.dir(path), readCgroupFileSync, withLimit, 2);
  }

  /** cpu.stat's usage_usec (a core file: every cgroup has it, the root too). */
  cpu(path: string): CgroupCPU | undefined {
    const p = join(this.dir(path), 'cpu.stat');
    let text: string;
    try {
      text = readFileSync(p, 'utf8');
    } catch (e) {
      if (errno(e) === 'ENOENT' || errno(e) === 'ENODEV') return undefined;
      throw e;
    }
    return { usageNanoseconds: parseCPUStatUsage(text, p) };
  }

  /** memory.events.local (the cgroup's own kills, kernel ≥ 5.2), else memory.events (hierarchical). */
  oomCounters(path: string): CgroupOOMCounters {
    for (const f of ['memory.events.local', 'memory.events']) {
      try {
        return parseMemoryEvents(readFileSync(join(this.dir(path), f), 'utf8'));
      } catch (e) {
        if (errno(e) !== 'ENOENT') break;
      }
    }
    return { oomKill: 0, oomGroupKill: 0 };
  }

  oomEventsFile(path: string): string | undefined {
    return join(this.dir(path), 'memory.events');
  }

  populatedEventsFile(path: string): string | undefined {
    return join(this.dir(path), 'cgroup.events');
  }

  pidIn(pid: number, path: string): boolean {
    try {
      return v2PathOfProc(readFileSync(`/proc/${pid}/cgroup`, 'utf8')) === path;
    } catch {
      return false;
    }
  }

  /**
   * memory.swap.max in this process's own cgroup, as the kubelet looks: the tree root never has
   * one, so a process in the root cgroup finds no swap controller (as a kubelet there would).
   */
  swapControllerAvailable(): boolean {
    let self: string | undefined;
    try {
      self = v2PathOfProc(this.selfCgroup());
    } catch {
      return false;
    }
    return self !== undefined && existsSync(join(this.dir(self), 'memory.swap.max'));
  }
}
