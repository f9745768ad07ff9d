// Baseline `privileged` (v1.0+): containers' securityContext.privileged must be unset or false.
// Upstream: policy/check_privileged.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, setsTrue, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export function privileged_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const bad = containers(podSpec).filter((c) => setsTrue(get(c.securityContext, 'privileged'))).map((c) => c.name);
  if (bad.length === 0) return ALLOWED;
  return forbidden('privileged', `${containerPhrase(bad)} must not set securityContext.privileged=true`);
}

export const privilegedCheck: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: privileged_1_0 }],
};
