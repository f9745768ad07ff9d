// What this host lets the agent enforce, read at startup: cgroup mode, the lowest
// oom_score_adj a child can get, the agent's own hard rlimits (its children cannot exceed them
// without CAP_SYS_RESOURCE), nr_open, CAP_SYS_RESOURCE itself and whether swap is accounted
// per cgroup (the cgroup layer's swapControllerAvailable).

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cgroupManagerFor } from '../cgroups/select.js';
import { hostNrOpen } from '../host.js';
import { allRlimitTypes, type AnyRlimitType } from './ocispec.js';
import { RLIM_INFINITY } from '../../policy/rlimits.js';

export type CgroupMode = 'v1' | 'hybrid' | 'v2';

export interface CgroupProbe {
  mode: CgroupMode;
  /** The cgroup version that enforces memory (what NodeConfig.cgroupVersion should say). */
  memoryVersion: 1 | 2;
  /** v1 controller (or name=…) -> mount point. Co-mounted controllers share a mount point. */
  v1: Record<string, string>;
  /** Where cgroup2 is mounted, if anywhere. */
  unified?: string;
  /** Controllers in the cgroup2 root's cgroup.controllers. */
  unifiedControllers: string[];
}

interface MountInfoEntry {
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Parse /proc/self/mountinfo text (pure). */
export function parseMountInfo(text: string): MountInfoEntry[] {
  const out: MountInfoEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const l = left.split(' ');
    const r = right.split(' ');
    out.push({ mountPoint: unescapeMount(l[4] ?? ''), fsType: r[0] ?? '', superOptions: (r[2] ?? '').split(',') });
  }
  return out;
}

const v1Options = new Set(['rw', 'ro', 'relatime', 'noatime', 'nosuid', 'nodev', 'noexec', 'clone_children', 'xattr', 'noprefix', 'cpuset_v2_mode', 'favordynmods']);

/** Classify cgroup mounts (pure): hybrid = v1 hierarchies plus a cgroup2 tree without memory. */
export function classifyCgroups(mounts: MountInfoEntry[], unifiedControllers: (mountPoint: string) => string[]): CgroupProbe {
  const v1: Record<string, string> = {};
  let unified: string | undefined;
  for (const m of mounts) {
    if (m.fsType === 'cgroup') {
      for (const o of m.superOptions) {
        if (v1Options.has(o) || o.startsWith('release_agent=')) continue;
        if (!(o in v1)) v1[o] = m.mountPoint;
      }
    } else if (m.fsType === 'cgroup2' && unified === undefined) {
      unified = m.mountPoint;
    }
  }
  const ctrls = unified !== undefined ? unifiedControllers(unified) : [];
  const hasV1 = Object.keys(v1).length > 0;
  let mode: CgroupMode;
  if (!hasV1 && unified !== undefined) mode = 'v2';
  // v1 hierarchies beside a cgroup2 tree: hybrid (typically /sys/fs/cgroup/unified holding no
  // memory controller, so memory is enforced by v1; memoryVersion says which one enforces it).
  else if (hasV1 && unified !== undefined) mode = 'hybrid';
  else mode = 'v1';
  const memoryVersion: 1 | 2 = 'memory' in v1 ? 1 : ctrls.includes('memory') ? 2 : 1;
  const probe: CgroupProbe = { mode, memoryVersion, v1, unifiedControllers: ctrls };
  if (unified !== undefined) probe.unified = unified;
  return probe;
}

export function probeCgroups(): CgroupProbe {
  const mounts = parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8'));
  return classifyCgroups(mounts, (mp) => {
    try {
      return readFileSync(`${mp}/cgroup.controllers`, 'utf8').split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  });
}

// ---------------------------------------------------------------------------------------------

const limitNames: Record<string, AnyRlimitType> = {
  'Max cpu time': 'RLIMIT_CPU',
  'Max file size': 'RLIMIT_FSIZE',
  'Max data size': 'RLIMIT_DATA',
  'Max stack size': 'RLIMIT_STACK',
  'Max core file size': 'RLIMIT_CORE',
  'Max resident set': 'RLIMIT_RSS',
  'Max processes': 'RLIMIT_NPROC',
  'Max open files': 'RLIMIT_NOFILE',
  'Max locked memory': 'RLIMIT_MEMLOCK',
  'Max address space': 'RLIMIT_AS',
  'Max file locks': 'RLIMIT_LOCKS',
  'Max pending signals': 'RLIMIT_SIGPENDING',
  'Max msgqueue size': 'RLIMIT_MSGQUEUE',
  'Max nice priority': 'RLIMIT_NICE',
  'Max realtime priority': 'RLIMIT_RTPRIO',
  'Max realtime timeout': 'RLIMIT_RTTIME',
};

export type LimitsTable = Record<AnyRlimitType, { soft: bigint; hard: bigint }>;

function limitValue(s: string): bigint {
  return s === 'unlimited' ? RLIM_INFINITY : BigInt(s);
}

/** Parse the text of /proc/<pid>/limits (pure). Throws if a type is missing. */
export function parseProcLimits(text: string): LimitsTable {
  const out: Partial<LimitsTable> = {};
  for (const line of text.split('\n')) {
    const m = /^(Max [a-z ]+?)\s{2,}(\S+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const type = limitNames[m[1]!];
    if (type) out[type] = { soft: limitValue(m[2]!), hard: limitValue(m[3]!) };
  }
  const missing = allRlimitTypes.filter((t) => !out[t]);
  if (missing.length) throw new Error(`/proc limits: missing ${missing.join(', ')}`);
  return out as LimitsTable;
}

export function readProcLimits(pid: number | 'self' = 'self'): LimitsTable {
  return parseProcLimits(readFileSync(`/proc/${pid}/limits`, 'utf8'));
}

/** Whether this process has CAP_SYS_RESOURCE (bit 24 of CapEff). */
export function hasCapSysResource(statusText: string = readFileSync('/proc/self/status', 'utf8')): boolean {
  const m = /^CapEff:\s*([0-9a-f]+)$/m.exec(statusText);
  if (!m) return false;
  return ((BigInt(`0x${m[1]}`) >> 24n) & 1n) === 1n;
}

/**
 * The lowest oom_score_adj a child of this process can be given: spawn a `sleep`, write -1000 to
 * its /proc/<pid>/oom_score_adj, and if the kernel refuses (EACCES without CAP_SYS_RESOURCE),
 * bisect up to the child's current value. Only the spawned child is touched; it is killed by pid.
 */
export async function probeMinOomScoreAdj(): Promise<number> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) {
    await new Promise<void>((resolve) => child.once('error', () => resolve()));
    throw new Error('probeMinOomScoreAdj: could not spawn sleep');
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const file = `/proc/${pid}/oom_score_adj`;
  const tryWrite = (v: number): boolean => {
    try {
      writeFileSync(file, String(v));
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') return false;
      throw e;
    }
  };
  try {
    const current = Number(readFileSync(file, 'utf8').trim());
    if (tryWrite(-1000)) return -1000;
    let lo = -1000; // refused
    let hi = current; // allowed (a process may always keep its own value)
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (tryWrite(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

export interface HostProbe {
  cgroups: CgroupProbe;
  minOomScoreAdj: number;
  capSysResource: boolean;
  /** The agent's own limits. */
  limits: LimitsTable;
  /** Hard ceilings for children: the agent's hard limits without CAP_SYS_RESOURCE; none with it. */
  hardRlimitCeilings: Partial<Record<AnyRlimitType, bigint>>;
  nrOpen?: bigint;
  /** The kernel accounts swap per cgroup (v1 memory.memsw.*, v2 memory.swap.max): containers are kept from swapping. */
  swapControllerAvailable: boolean;
}

export async function probeHost(): Promise<HostProbe> {
  const capSysResource = hasCapSysResource();
  const limits = readProcLimits();
  const hardRlimitCeilings: Partial<Record<AnyRlimitType, bigint>> = {};
  if (!capSysResource) for (const t of allRlimitTypes) hardRlimitCeilings[t] = limits[t].hard;
  const cgroups = probeCgroups();
  const probe: HostProbe = {
    cgroups,
    minOomScoreAdj: await probeMinOomScoreAdj(),
    capSysResource,
    limits,
    hardRlimitCeilings,
    swapControllerAvailable: cgroupManagerFor(cgroups).swapControllerAvailable(),
  };
  const nrOpen = hostNrOpen();
  if (nrOpen !== undefined) probe.nrOpen = nrOpen;
  return probe;
}
