// cgroup v1 directories for the node, QoS tiers and pods, created and written exactly as the
// plan says (src/policy computes the values; this file only puts them into the kernel). Each
// file goes to the hierarchy its controller prefix names (memory.*, cpu.*, hugetlb.*, pids.*).
// Only directories this manager created are ever removed.

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupFiles } from '../../policy/cgroupvalues.js';

export const defaultV1Root = '/sys/fs/cgroup';

/** The hierarchies a pod cgroup is made in; cpuacct rides along for usage accounting. */
export const v1Controllers = ['memory', 'cpu', 'cpuacct', 'pids', 'hugetlb'] as const;

function controllerOf(file: string): string {
  const dot = file.indexOf('.');
  if (dot <= 0) throw new Error(`cgroup file ${JSON.stringify(file)} names no controller`);
  return file.slice(0, dot);
}

export class CgroupV1Manager {
  constructor(private readonly root = defaultV1Root, private readonly controllers: readonly string[] = v1Controllers) {}

  /** Hierarchies mounted on this host among the wanted ones. */
  available(): string[] {
    return this.controllers.filter((c) => existsSync(join(this.root, c)));
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
        throw new Error(`writing ${value} to ${join(this.dir(c, path), file)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    }
  }

  read(path: string, file: string): string {
    return readFileSync(join(this.dir(controllerOf(file), path), file), 'utf8').trim();
  }

  /** Reads back the given files, for comparison with what the plan asked for. */
  readBack(path: string, files: CgroupFiles): CgroupFiles {
    const out: CgroupFiles = {};
    for (const f of Object.keys(files)) out[f] = this.read(path, f);
    return out;
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
          if ((e as NodeJS.ErrnoException).code === 'EBUSY' || (e as NodeJS.ErrnoException).code === 'ENOTEMPTY') break;
          throw e;
        }
        p = p.slice(0, p.lastIndexOf('/'));
      }
    }
  }
}
