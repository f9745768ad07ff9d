// What a host without CAP_SYS_RESOURCE makes of a container's planned values: oom_score_adj
// clamped at the lowest value the agent can set, hard rlimits lowered to the agent's own, and
// the complete rlimit set a runtime must be given (an omitted rlimit is inherited from the
// runtime process). Pure, so `bulkhead plan --this-host` and the agent apply the same rule
// (DESIGN.md, "Hosts that cannot grant a value").

import { formatRlimitValue, RLIM_INFINITY, ulimitRlimitTypes, type RlimitType } from './rlimits.js';

/** A plan's JSON rlimit value: "unlimited", a number, or a decimal string past 2^53. */
export type RlimitValue = number | string;

/** The six rlimits of the ulimits design (pod-settable). */
export const designRlimitTypes: readonly RlimitType[] = Object.values(ulimitRlimitTypes);

/** Every Linux rlimit, in kernel number order (RLIMIT_CPU = 0 … RLIMIT_RTTIME = 15). */
export const allRlimitTypes = [
  'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_DATA', 'RLIMIT_STACK', 'RLIMIT_CORE', 'RLIMIT_RSS',
  'RLIMIT_NPROC', 'RLIMIT_NOFILE', 'RLIMIT_MEMLOCK', 'RLIMIT_AS', 'RLIMIT_LOCKS',
  'RLIMIT_SIGPENDING', 'RLIMIT_MSGQUEUE', 'RLIMIT_NICE', 'RLIMIT_RTPRIO', 'RLIMIT_RTTIME',
] as const;
export type AnyRlimitType = (typeof allRlimitTypes)[number];

export function isAnyRlimitType(s: string): s is AnyRlimitType {
  return (allRlimitTypes as readonly string[]).includes(s);
}

export interface OciRlimit {
  type: AnyRlimitType;
  hard: bigint;
  soft: bigint;
}

const MiB8 = 8n * 1024n * 1024n;
const inf = RLIM_INFINITY;

/**
 * What a container gets for an rlimit its pod does not set. The values are Linux's own boot
 * defaults (what init starts with), except NOFILE, which is the 1024/1024 that `runc spec`
 * and containerd's default spec use:
 *   STACK 8 MiB/unlimited, CORE 0/unlimited, MEMLOCK 8 MiB/8 MiB, MSGQUEUE 819200/819200,
 *   NICE 0/0, RTPRIO 0/0, NOFILE 1024/1024, everything else unlimited/unlimited.
 * NPROC and SIGPENDING boot defaults depend on RAM; they are "unlimited" here and so end up at
 * the host ceiling (the agent's own hard limit) on a host without CAP_SYS_RESOURCE.
 * adaptToHost lowers any default whose hard value is above the host's ceiling.
 */
export const defaultRlimits: Readonly<Record<AnyRlimitType, { soft: bigint; hard: bigint }>> = {
  RLIMIT_CPU: { soft: inf, hard: inf },
  RLIMIT_FSIZE: { soft: inf, hard: inf },
  RLIMIT_DATA: { soft: inf, hard: inf },
  RLIMIT_STACK: { soft: MiB8, hard: inf },
  RLIMIT_CORE: { soft: 0n, hard: inf },
  RLIMIT_RSS: { soft: inf, hard: inf },
  RLIMIT_NPROC: { soft: inf, hard: inf },
  RLIMIT_NOFILE: { soft: 1024n, hard: 1024n },
  RLIMIT_MEMLOCK: { soft: MiB8, hard: MiB8 },
  RLIMIT_AS: { soft: inf, hard: inf },
  RLIMIT_LOCKS: { soft: inf, hard: inf },
  RLIMIT_SIGPENDING: { soft: inf, hard: inf },
  RLIMIT_MSGQUEUE: { soft: 819200n, hard: 819200n },
  RLIMIT_NICE: { soft: 0n, hard: 0n },
  RLIMIT_RTPRIO: { soft: 0n, hard: 0n },
  RLIMIT_RTTIME: { soft: inf, hard: inf },
};

/** A plan's JSON rlimit value ("unlimited", a number, or a decimal string) back to the kernel value. */
export function parseRlimitValue(v: RlimitValue): bigint {
  if (v === 'unlimited') return RLIM_INFINITY;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`rlimit value ${v} is not a non-negative safe integer`);
    return BigInt(v);
  }
  if (!/^[0-9]+$/.test(v)) throw new RangeError(`rlimit value ${JSON.stringify(v)} is not a decimal integer`);
  const b = BigInt(v);
  if (b > RLIM_INFINITY) throw new RangeError(`rlimit value ${v} does not fit in uint64`);
  return b;
}

// ---------------------------------------------------------------------------------------------
// Host adaptation

export interface HostCapabilities {
  /** Lowest oom_score_adj a child of the agent can be given: -1000 with CAP_SYS_RESOURCE, else 0 (usually). */
  minOomScoreAdj: number;
  /** Highest hard value per rlimit the runtime can set (the agent's own hard limits when it lacks CAP_SYS_RESOURCE). Absent type: no ceiling. */
  hardRlimitCeilings: Partial<Record<AnyRlimitType, bigint>>;
}

export interface HostAdjustment {
  field: 'oomScoreAdj' | 'rlimit';
  /** The rlimit type, for field 'rlimit'. */
  type?: AnyRlimitType;
  /** 'plan': a value the pod asked for; 'default': one of defaultRlimits. */
  source: 'plan' | 'default';
  message: string;
}

export interface AdaptedContainer {
  oomScoreAdj: number;
  /** Complete: one entry per allRlimitTypes, in that order. */
  rlimits: OciRlimit[];
  adjustments: HostAdjustment[];
}

function pair(soft: bigint, hard: bigint): string {
  return `${formatRlimitValue(soft)}/${formatRlimitValue(hard)}`;
}

/**
 * The values to apply on this host for one planned container, plus what had to change.
 *
 * oom_score_adj: clamped at `minOomScoreAdj` (values above 1000 are a plan bug and throw).
 * The mapping is monotonic, so QoS order is kept: with the host minimum 0, Guaranteed (-997)
 * and node-critical pods become 0, Burstable stays in [3, 999] (policy/oomscore.ts clamps it
 * there) and BestEffort stays 1000, so Guaranteed < Burstable < BestEffort still holds strictly
 * as long as the host minimum is below 3. A host minimum of 3 or more would make Guaranteed and
 * the most protected Burstable containers equal; the adjustment text says so.
 *
 * rlimits: the plan's rlimits (already clamped to the node's ceilings when the plan was made
 * with them; those adjustments are carried over as text), completed with defaultRlimits, and
 * any hard value still above the host's ceiling lowered to it (soft follows when above hard).
 */
/** The parts of a container plan (src/plan/node.ts ContainerPlan) that the host may change. */
export interface PlannedLimits {
  oomScoreAdj: number;
  rlimits: readonly { type: string; soft: RlimitValue; hard: RlimitValue }[];
  rlimitAdjustments?: readonly { type: string; requested: { soft: RlimitValue; hard: RlimitValue }; applied: { soft: RlimitValue; hard: RlimitValue }; reason: string }[];
}

export function adaptToHost(
  plan: PlannedLimits,
  host: HostCapabilities,
): AdaptedContainer {
  const adjustments: HostAdjustment[] = [];
  if (!Number.isInteger(plan.oomScoreAdj) || plan.oomScoreAdj < -1000 || plan.oomScoreAdj > 1000) {
    throw new RangeError(`oom_score_adj ${plan.oomScoreAdj} is outside [-1000, 1000]`);
  }
  let oomScoreAdj = plan.oomScoreAdj;
  if (oomScoreAdj < host.minOomScoreAdj) {
    const why = host.minOomScoreAdj === 0 ? 'this host cannot set negative values (no CAP_SYS_RESOURCE)' : `this host cannot set values below ${host.minOomScoreAdj} (no CAP_SYS_RESOURCE)`;
    const order = host.minOomScoreAdj >= 3 ? '; it now ties with the most protected Burstable containers' : '';
    adjustments.push({ field: 'oomScoreAdj', source: 'plan', message: `oom_score_adj ${oomScoreAdj} applied as ${host.minOomScoreAdj}: ${why}${order}` });
    oomScoreAdj = host.minOomScoreAdj;
  }

  const fromPlan = new Map<AnyRlimitType, { soft: bigint; hard: bigint }>();
  for (const r of plan.rlimits) {
    if (!isAnyRlimitType(r.type)) throw new RangeError(`unknown rlimit type ${r.type}`);
    fromPlan.set(r.type, { soft: parseRlimitValue(r.soft), hard: parseRlimitValue(r.hard) });
  }
  for (const a of plan.rlimitAdjustments ?? []) {
    adjustments.push({
      field: 'rlimit',
      type: isAnyRlimitType(a.type) ? a.type : undefined,
      source: 'plan',
      message: `${a.type} ${pair(parseRlimitValue(a.requested.soft), parseRlimitValue(a.requested.hard))} applied as ${pair(parseRlimitValue(a.applied.soft), parseRlimitValue(a.applied.hard))}: ${a.reason}`,
    });
  }

  const rlimits: OciRlimit[] = allRlimitTypes.map((type) => {
    const planned = fromPlan.get(type);
    const source = planned ? 'plan' : 'default';
    let { soft, hard } = planned ?? defaultRlimits[type];
    const ceiling = host.hardRlimitCeilings[type];
    if (ceiling !== undefined && hard > ceiling) {
      const before = pair(soft, hard);
      hard = ceiling;
      if (soft > hard) soft = hard;
      adjustments.push({
        field: 'rlimit',
        type,
        source,
        message: `${type} ${source === 'default' ? 'default ' : ''}${before} applied as ${pair(soft, hard)}: hard limit is above this host's ceiling ${formatRlimitValue(ceiling)} (no CAP_SYS_RESOURCE)`,
      });
    }
    return { type, soft, hard };
  });
  return { oomScoreAdj, rlimits, adjustments };
}

