// Memory figures of a memory cgroup, as cAdvisor derives them for the kubelet (cAdvisor
// container/libcontainer handler over runc's fs (v1) and fs2 (v2) memory stats):
//   v1: usage = memory.usage_in_bytes, working set = usage − total_inactive_file (memory.stat,
//       hierarchical, so a pod's containers count), limit = memory.limit_in_bytes (≤ 2^62);
//   v2: usage = memory.current, working set = usage − inactive_file (memory.stat, hierarchical
//       on v2 already), limit = memory.max ("max" = none);
// the working set floored at 0 in both. File reads go through a reader function so tests can
// feed text; the agent passes fs.readFileSync. The version is the caller's (the host's, chosen
// once at start); it defaults to 1, the files this module read before v2 existed here.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containerCgroupAttempt } from '../../policy/cgrouplayout.js';
import type { CgroupVersion } from '../../policy/cgroupvalues.js';

export type ReadCgroupFile = (path: string) => string;
/** The names of a cgroup directory's entries (files and child cgroups). */
export type ListCgroupDir = (dir: string) => string[];

export const readCgroupFileSync: ReadCgroupFile = (path) => readFileSync(path, 'utf8');
export const listCgroupDirSync: ListCgroupDir = (dir) => readdirSync(dir);

/** cAdvisor's isMemoryUnlimited: a v1 limit above 2^62 means "no limit". */
export const unlimitedAbove = 1n << 62n;

export interface MemcgMemory {
  usageBytes: bigint;
  workingSetBytes: bigint;
  /** total_inactive_file (v2: inactive_file); 0 when memory.stat does not list it. */
  inactiveFileBytes: bigint;
  /** memory.limit_in_bytes (v2: memory.max) when finite; undefined when unlimited or not read. */
  limitBytes?: bigint;
  /** cAdvisor's RSS: total_rss (v2: anon), when memory.stat lists it. */
  rssBytes?: bigint;
  /** total_pgfault / total_pgmajfault (v2: pgfault / pgmajfault), when memory.stat lists them. */
  pageFaults?: bigint;
  majorPageFaults?: bigint;
}

/** The memory.stat keys of cAdvisor's RSS and page fault counts: v1's hierarchical total_ ones, v2's own. */
export function memoryStatKeys(version: CgroupVersion): { rss: string; pgfault: string; pgmajfault: string } {
  return version === 1 ? { rss: 'total_rss', pgfault: 'total_pgfault', pgmajfault: 'total_pgmajfault' } : { rss: 'anon', pgfault: 'pgfault', pgmajfault: 'pgmajfault' };
}

/** `key value` lines of memory.stat. Lines that are not two fields with a decimal value are skipped. */
export function parseMemoryStat(text: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 2 || !/^\d+$/.test(f[1]!)) continue;
    out.set(f[0]!, BigInt(f[1]!));
  }
  return out;
}

/** The memory.stat key of the inactive file pages: v1's hierarchical total_, v2's own (already hierarchical). */
export function inactiveFileKey(version: CgroupVersion): string {
  return version === 1 ? 'total_inactive_file' : 'inactive_file';
}

/** cAdvisor's working set: usage − inactive file, floored at 0; usage when memory.stat does not list it. */
export function workingSet(usage: bigint, stat: ReadonlyMap<string, bigint>, version: CgroupVersion = 1): bigint {
  const inactive = stat.get(inactiveFileKey(version));
  if (inactive === undefined) return usage;
  return usage < inactive ? 0n : usage - inactive;
}

/** The file holding a memory cgroup's usage: v1 memory.usage_in_bytes, v2 memory.current. */
export function usageFile(version: CgroupVersion): string {
  return version === 1 ? 'memory.usage_in_bytes' : 'memory.current';
}

/**
 * A memory limit file's text as a finite limit, or undefined for none: v1 memory.limit_in_bytes
 * above 2^62 (cAdvisor's isMemoryUnlimited), v2 memory.max "max". Anything else is an error
 * naming the file.
 */
export function parseMemoryLimit(text: string, path: string, version: CgroupVersion = 1): bigint | undefined {
  if (version === 2 && text.trim() === 'max') return undefined;
  const limit = parseCount(text, path);
  return version === 1 && limit > unlimitedAbove ? undefined : limit;
}

function parseCount(text: string, path: string): bigint {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new Error(`${path}: not a byte count: ${JSON.stringify(t.slice(0, 40))}`);
  return BigInt(t);
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENODEV';
}

/** memory.usage_in_bytes (v2: memory.current) alone: the fast path's one read. */
export function readUsage(dir: string, read: ReadCgroupFile, version: CgroupVersion = 1): bigint {
  const p = join(dir, usageFile(version));
  return parseCount(read(p), p);
}

/**
 * Usage and working set of the memcg at `dir`; undefined when the cgroup does not exist (a pod
 * whose cgroup is gone has no stats). `withLimit` also reads memory.limit_in_bytes (v2: memory.max).
 */
export function readMemcg(dir: string, read: ReadCgroupFile, withLimit = false, version: CgroupVersion = 1): MemcgMemory | undefined {
  try {
    return readMemcgOrThrow(dir, read, withLimit, version);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

/** readMemcg that fails on a missing cgroup too (the error names the path and the errno). */
export function readMemcgOrThrow(dir: string, read: ReadCgroupFile, withLimit = false, version: CgroupVersion = 1, usage?: bigint): MemcgMemory {
  const usageBytes = usage ?? readUsage(dir, read, version);
  const stat = parseMemoryStat(read(join(dir, 'memory.stat')));
  const out: MemcgMemory = {
    usageBytes,
    workingSetBytes: workingSet(usageBytes, stat, version),
    inactiveFileBytes: stat.get(inactiveFileKey(version)) ?? 0n,
  };
  const keys = memoryStatKeys(version);
  const rss = stat.get(keys.rss);
  const pgfault = stat.get(keys.pgfault);
  const pgmajfault = stat.get(keys.pgmajfault);
  if (rss !== undefined) out.rssBytes = rss;
  if (pgfault !== undefined) out.pageFaults = pgfault;
  if (pgmajfault !== undefined) out.majorPageFaults = pgmajfault;
  if (withLimit) {
    const p = join(dir, version === 1 ? 'memory.limit_in_bytes' : 'memory.max');
    const limit = parseMemoryLimit(read(p), p, version);
    if (limit !== undefined) out.limitBytes = limit;
  }
  return out;
}

/**
 * The memcg of a container's newest attempt below its pod memcg (the pod worker's layout,
 * policy/cgrouplayout.ts containerCgroupLeaf); undefined when the container has none, i.e. it
 * is not running. Only an exited attempt the runtime has not yet removed can be older.
 */
export function containerMemcgDir(podDir: string, podUID: string, containerName: string, list: ListCgroupDir): string | undefined {
  let newest: { leaf: string; attempt: number } | undefined;
  for (const leaf of list(podDir)) {
    const attempt = containerCgroupAttempt(leaf, podUID, containerName);
    if (attempt !== undefined && (newest === undefined || attempt > newest.attempt)) newest = { leaf, attempt };
  }
  return newest ? join(podDir, newest.leaf) : undefined;
}
