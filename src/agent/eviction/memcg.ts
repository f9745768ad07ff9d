// Memory figures of a cgroup v1 memory cgroup, as cAdvisor derives them for the kubelet:
// usage = memory.usage_in_bytes, working set = usage − total_inactive_file (memory.stat,
// hierarchical, so a pod's containers count) floored at 0. File reads go through a reader
// function so tests can feed text; the agent passes fs.readFileSync.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containerCgroupAttempt } from '../../policy/cgrouplayout.js';

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
  /** total_inactive_file; 0 when memory.stat does not list it. */
  inactiveFileBytes: bigint;
  /** memory.limit_in_bytes when finite; undefined when unlimited or not read. */
  limitBytes?: bigint;
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

/** cAdvisor's working set on cgroup v1. */
export function workingSet(usage: bigint, stat: ReadonlyMap<string, bigint>): bigint {
  const inactive = stat.get('total_inactive_file');
  if (inactive === undefined) return usage;
  return usage < inactive ? 0n : usage - inactive;
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

/** memory.usage_in_bytes alone: the fast path's one read. */
export function readUsage(dir: string, read: ReadCgroupFile): bigint {
  const p = join(dir, 'memory.usage_in_bytes');
  return parseCount(read(p), p);
}

/**
 * Usage and working set of the memcg at `dir`; undefined when the cgroup does not exist (a pod
 * whose cgroup is gone has no stats). `withLimit` also reads memory.limit_in_bytes.
 */
export function readMemcg(dir: string, read: ReadCgroupFile, withLimit = false): MemcgMemory | undefined {
  try {
    return readMemcgOrThrow(dir, read, withLimit);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

/** readMemcg that fails on a missing cgroup too (the error names the path and the errno). */
export function readMemcgOrThrow(dir: string, read: ReadCgroupFile, withLimit = false): MemcgMemory {
  const usageBytes = readUsage(dir, read);
  const stat = parseMemoryStat(read(join(dir, 'memory.stat')));
  const out: MemcgMemory = {
    usageBytes,
    workingSetBytes: workingSet(usageBytes, stat),
    inactiveFileBytes: stat.get('total_inactive_file') ?? 0n,
  };
  if (withLimit) {
    const p = join(dir, 'memory.limit_in_bytes');
    const limit = parseCount(read(p), p);
    if (limit <= unlimitedAbove) out.limitBytes = limit;
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
