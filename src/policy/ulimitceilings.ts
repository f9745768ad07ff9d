// Which of a pod's hard ulimits a node cannot grant, and the words for it. A node without
// CAP_SYS_RESOURCE cannot raise a hard rlimit above its own (DESIGN "Hosts that cannot grant a
// value"), declares those ceilings, and the scheduler keeps such pods off it. The scheduler's
// FailedScheduling reason and `bulkhead plan --this-host` both word it here, so that a user
// reads the same limit and ceiling in either place.

import type { Container, Pod } from '../api/types.js';
import { formatRlimitValue, ulimitRlimitTypes, ulimitsToRlimits, type RlimitType, type UlimitName } from './rlimits.js';

/** The reason kube-scheduler-style messages count per node; the details follow in parentheses. */
export const ReasonUlimitCeilings = "node(s) cannot grant the Pod's hard ulimits";

export interface UlimitAboveCeiling {
  name: UlimitName;
  /** The hard value the kernel would be asked for (-1 is RLIM_INFINITY; nofile clamped to nr_open). */
  hard: bigint;
  ceiling: bigint;
}

function podContainers(pod: Pod): Container[] {
  return [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? []), ...(pod.spec.ephemeralContainers ?? [])];
}

/**
 * Each ulimit whose hard value is above the node's ceiling, once per name with the largest
 * value any container asks, in the order the pod first names them.
 */
export function ulimitsAboveCeilings(pod: Pod, ceilings: Partial<Record<RlimitType, bigint>>, nrOpen?: bigint): UlimitAboveCeiling[] {
  const out: UlimitAboveCeiling[] = [];
  for (const c of podContainers(pod)) {
    for (const u of c.securityContext?.ulimits ?? []) {
      if (!Object.prototype.hasOwnProperty.call(ulimitRlimitTypes, u.name)) continue;
      const name = u.name as UlimitName;
      const ceiling = ceilings[ulimitRlimitTypes[name]];
      if (ceiling === undefined) continue;
      // No ceilings passed: this is the value the container needs the node to grant.
      const hard = ulimitsToRlimits([u], nrOpen !== undefined ? { nrOpen } : {}).rlimits[0]?.hard;
      if (hard === undefined || hard <= ceiling) continue;
      const seen = out.find((x) => x.name === name);
      if (!seen) out.push({ name, hard, ceiling });
      else if (hard > seen.hard) seen.hard = hard;
    }
  }
  return out;
}

/** `nofile hard 1048576 > node ceiling 20000, memlock hard unlimited > node ceiling 8388608`. */
export function describeUlimitsAboveCeilings(above: readonly UlimitAboveCeiling[]): string {
  return above.map((a) => `${a.name} hard ${formatRlimitValue(a.hard)} > node ceiling ${formatRlimitValue(a.ceiling)}`).join(', ');
}

/** The scheduler's per-node reason: `node(s) cannot grant the Pod's hard ulimits (nofile hard … > node ceiling …)`. */
export function ulimitCeilingsReason(above: readonly UlimitAboveCeiling[]): string {
  return `${ReasonUlimitCeilings} (${describeUlimitsAboveCeilings(above)})`;
}
