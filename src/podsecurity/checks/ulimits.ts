// Baseline `ulimits` (v1.0+): a Bulkhead check with no upstream counterpart.
//
// Source: the Bulkhead ulimits design (/work/shared/designs/004_e1541c61a2fb52e5.txt, section
// "Pod Security Admission Integration"): only the Privileged level may set `ulimits`; Baseline and
// Restricted pods that set it are rejected. Upstream PSA (master, 2026-07-01) has no such check;
// the open upstream proposal would start it at a later policy version, but Bulkhead's design
// forbids it at every non-privileged level for every policy version, hence v1.0.
//
// Fires when any container (init, regular, ephemeral, in that order) has a present, non-empty
// securityContext.ulimits; an empty list is allowed. Being a baseline check, it also applies at
// restricted (no restricted check overrides it).

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export const ULIMITS_ID = 'ulimits';

/** A present ulimits value that is not an empty list (a malformed non-list value counts as set). */
function setsUlimits(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return has(v);
}

export function ulimits_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const bad = containers(podSpec).filter((c) => setsUlimits(get(c.securityContext, 'ulimits'))).map((c) => c.name);
  if (bad.length === 0) return ALLOWED;
  return forbidden('ulimits', `${containerPhrase(bad)} must not set securityContext.ulimits`);
}

export const ulimitsCheck: Check = {
  id: ULIMITS_ID,
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: ulimits_1_0 }],
};
