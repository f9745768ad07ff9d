// Ulimits design: how a runtime turns `securityContext.ulimits` into process rlimits.
// -1 becomes RLIM_INFINITY, other negatives 0, and nofile is clamped to the kernel's nr_open
// because setrlimit refuses anything above it. A host without CAP_SYS_RESOURCE cannot raise a
// hard limit above its own; the agent then applies the nearest value and reports it.

import type { Ulimit } from '../api/types.js';

export const RLIM_INFINITY = (1n << 64n) - 1n;
/** Linux default for /proc/sys/fs/nr_open. */
export const defaultNrOpen = 1048576n;

export const ulimitRlimitTypes = {
  core: 'RLIMIT_CORE',
  memlock: 'RLIMIT_MEMLOCK',
  nice: 'RLIMIT_NICE',
  nofile: 'RLIMIT_NOFILE',
  rtprio: 'RLIMIT_RTPRIO',
  stack: 'RLIMIT_STACK',
} as const;

export type UlimitName = keyof typeof ulimitRlimitTypes;
export type RlimitType = (typeof ulimitRlimitTypes)[UlimitName];

export function isUlimitName(name: string): name is UlimitName {
  return Object.prototype.hasOwnProperty.call(ulimitRlimitTypes, name);
}

/** The divisor a POSIX shell's `ulimit -a` applies when it displays the value. */
export const shellDisplayDivisor: Record<UlimitName, bigint> = {
  core: 1024n,
  memlock: 1024n,
  nice: 1n,
  nofile: 1n,
  rtprio: 1n,
  stack: 1024n,
};

export interface Rlimit {
  type: RlimitType;
  soft: bigint;
  hard: bigint;
}

export interface RlimitHost {
  /** /proc/sys/fs/nr_open */
  nrOpen?: bigint;
  /**
   * The hard limits the agent itself runs with, for hosts where it lacks CAP_SYS_RESOURCE and
   * so cannot raise a hard limit beyond them. Absent: no ceiling.
   */
  hardCeilings?: Partial<Record<RlimitType, bigint>>;
}

export interface RlimitAdjustment {
  type: RlimitType;
  requested: { soft: bigint; hard: bigint };
  applied: { soft: bigint; hard: bigint };
  reason: string;
}

function toKernel(v: number): bigint {
  if (v === -1) return RLIM_INFINITY;
  if (v < 0) return 0n;
  return BigInt(Math.trunc(v));
}

/** What the runtime passes to setrlimit, plus any adjustment the host forced. */
export function ulimitsToRlimits(ulimits: readonly Ulimit[] | undefined, host: RlimitHost = {}): { rlimits: Rlimit[]; adjustments: RlimitAdjustment[] } {
  const rlimits: Rlimit[] = [];
  const adjustments: RlimitAdjustment[] = [];
  const nrOpen = host.nrOpen ?? defaultNrOpen;
  for (const u of ulimits ?? []) {
    if (!isUlimitName(u.name)) continue;
    const type = ulimitRlimitTypes[u.name];
    let soft = toKernel(u.soft);
    let hard = toKernel(u.hard);
    if (u.name === 'nofile') {
      if (soft > nrOpen) soft = nrOpen;
      if (hard > nrOpen) hard = nrOpen;
    }
    const ceiling = host.hardCeilings?.[type];
    if (ceiling !== undefined && hard > ceiling) {
      const requested = { soft, hard };
      hard = ceiling;
      if (soft > hard) soft = hard;
      adjustments.push({
        type,
        requested,
        applied: { soft, hard },
        reason: `hard limit ${formatRlimitValue(requested.hard)} is above the node's ceiling ${formatRlimitValue(ceiling)} (no CAP_SYS_RESOURCE)`,
      });
    }
    rlimits.push({ type, soft, hard });
  }
  return { rlimits, adjustments };
}

export function formatRlimitValue(v: bigint): string {
  return v === RLIM_INFINITY ? 'unlimited' : String(v);
}

/** What `ulimit -a` in the container prints for this value. */
export function shellDisplay(name: UlimitName, v: bigint): string {
  return v === RLIM_INFINITY ? 'unlimited' : String(v / shellDisplayDivisor[name]);
}
