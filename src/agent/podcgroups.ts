// Pod cgroups on the CgroupManager (cgroups/manager.ts), with the bookkeeping that makes their
// removal safe, as the kubelet's pod_container_manager_linux.go keeps pod cgroups apart from the
// rest of the host: the parents below the agent's cgroup root that the worker itself made are
// noted in <stateDir>/created-cgroups.json, and only those (once empty) and the pod cgroups are
// ever removed. The file is shared by every worker over the same state directory (an agent
// that restarts), so each write merges with what it holds.

import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CgroupFiles } from '../policy/cgroupvalues.js';
import type { CgroupManager } from './cgroups/manager.js';

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** "/a/b/c" → ["/a", "/a/b", "/a/b/c"]. */
function prefixes(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => '/' + parts.slice(0, i + 1).join('/'));
}

export class PodCgroups {
  private readonly createdFile: string;
  /** Absolute directories (a hierarchy's mount point joined with a cgroup path). */
  private readonly created: Set<string>;

  /** `root`: the agent's cgroup root without a trailing '/' ('' for '/'); nothing at or above it is made or removed. */
  constructor(
    readonly manager: CgroupManager,
    private readonly root: string,
    stateDir: string,
  ) {
    this.createdFile = join(stateDir, 'created-cgroups.json');
    this.created = new Set(this.readCreated());
  }

  private readCreated(): string[] {
    try {
      const v = JSON.parse(readFileSync(this.createdFile, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Persists the set, merged with what the file holds (another worker over the same state may have added entries). */
  private writeCreated(removed: readonly string[] = []): void {
    for (const d of this.readCreated()) if (!removed.includes(d)) this.created.add(d);
    mkdirSync(dirname(this.createdFile), { recursive: true });
    const tmp = `${this.createdFile}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify([...this.created].sort(), null, 2) + '\n');
    renameSync(tmp, this.createdFile);
  }

  exists(podPath: string): boolean {
    return this.manager.exists(podPath);
  }

  /**
   * Makes the pod cgroup with the plan's values. Synchronous on purpose: no other pod's removal
   * can interleave between noting which parents are new and creating them.
   */
  ensure(podPath: string, values: CgroupFiles): void {
    // Parents below the root that do not exist yet, in every hierarchy (the runtime makes the
    // pod's directory in hierarchies the manager does not handle, e.g. cpuset, devices, freezer).
    const parents = prefixes(podPath).filter((p) => p.length > this.root.length && p !== podPath);
    let changed = false;
    for (const m of this.manager.hierarchies()) {
      for (const p of parents) {
        const d = join(m, p);
        if (!existsSync(d) && !this.created.has(d)) {
          this.created.add(d);
          changed = true;
        }
      }
    }
    if (changed) this.writeCreated();
    this.manager.ensure(podPath, values);
  }

  /** The pod cgroup (always ours) in every hierarchy, then the parents this worker created, when empty. */
  remove(podPath: string): void {
    const removed: string[] = [];
    for (const d of this.readCreated()) this.created.add(d);
    this.manager.removeTree(podPath);
    for (const m of this.manager.hierarchies()) {
      for (let d = dirname(join(m, podPath)); this.created.has(d); d = dirname(d)) {
        try {
          rmdirSync(d);
        } catch (e) {
          if (errno(e) === 'EBUSY' || errno(e) === 'ENOTEMPTY') break;
          if (errno(e) !== 'ENOENT') throw e;
        }
        this.created.delete(d);
        removed.push(d);
      }
    }
    this.writeCreated(removed);
  }

  /**
   * Whether the kernel OOM-killed in the container's own cgroup; on v2 a kill of the whole group
   * (memory.oom.group) counts too, as the task that ended it may have been another's.
   */
  oomKilled(containerPath: string): boolean {
    const c = this.manager.oomCounters(containerPath);
    return c.oomKill > 0 || c.oomGroupKill > 0;
  }
}
