// What a node can enforce, as its agent declares it on the Node object, so that the scheduler
// keeps pods off nodes that cannot honour them and `plan` can explain a node's limits (the
// designs' "nodes declare whether they can enforce ulimits"; DESIGN "Hosts that cannot grant
// a value").

import type { CgroupVersion } from './cgroupvalues.js';
import type { RlimitType } from './rlimits.js';

export const capabilitiesAnnotation = 'bulkhead.dev/node-capabilities';
/** The node declared feature (status.declaredFeatures) for per-container ulimits. */
export const ulimitsFeature = 'ContainerUlimits';

export interface NodeCapabilities {
  cgroupVersion: CgroupVersion;
  /** How `oomKillMode: Group` is enforced: memory.oom.group, the agent's emulation, or not at all. */
  oomGroup: 'native' | 'emulated' | 'unsupported';
  /** The lowest oom_score_adj the agent can give a container (0 without CAP_SYS_RESOURCE). */
  minOOMScoreAdj: number;
  /** Hard rlimits above which the agent cannot raise a container's (decimal strings; absent: no ceiling). */
  hardRlimitCeilings: Partial<Record<RlimitType, string>>;
}

export function encodeCapabilities(c: NodeCapabilities): string {
  return JSON.stringify(c);
}

/** The capabilities a Node declares, or undefined when it declares none or they do not parse. */
export function decodeCapabilities(annotations: Record<string, string> | undefined): NodeCapabilities | undefined {
  const raw = annotations?.[capabilitiesAnnotation];
  if (!raw) return undefined;
  try {
    const c = JSON.parse(raw) as NodeCapabilities;
    if ((c.cgroupVersion !== 1 && c.cgroupVersion !== 2) || typeof c.minOOMScoreAdj !== 'number') return undefined;
    return { ...c, hardRlimitCeilings: c.hardRlimitCeilings ?? {} };
  } catch {
    return undefined;
  }
}

export function hardCeilingsAsBigInt(c: NodeCapabilities): Partial<Record<RlimitType, bigint>> {
  const out: Partial<Record<RlimitType, bigint>> = {};
  for (const [k, v] of Object.entries(c.hardRlimitCeilings)) if (v !== undefined && /^\d+$/.test(v)) out[k as RlimitType] = BigInt(v);
  return out;
}
