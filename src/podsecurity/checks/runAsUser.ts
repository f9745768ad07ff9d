// Restricted `runAsUser` (v1.23+): pod and container securityContext.runAsUser must not be 0
// (unset is fine). From v1.35 pods with `spec.hostUsers: false` pass.
// Upstream: policy/check_runAsUser.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import {
  containers, get, has, inUserNamespace, podSecurityContext, type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

/** runAsUser is 0, or present but not a non-zero integer (a malformed value never passes). */
function setsRoot(v: unknown): boolean {
  return has(v) && !(typeof v === 'number' && Number.isInteger(v) && v !== 0);
}

export function runAsUser_1_23(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badSetters: string[] = [];
  if (setsRoot(get(podSecurityContext(podSpec), 'runAsUser'))) badSetters.push('pod');
  const bad = containers(podSpec).filter((c) => setsRoot(get(c.securityContext, 'runAsUser'))).map((c) => c.name);
  if (bad.length > 0) badSetters.push(containerPhrase(bad));
  if (badSetters.length === 0) return ALLOWED;
  return forbidden('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`);
}

export function runAsUser_1_35(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return runAsUser_1_23(podMetadata, podSpec);
}

export const runAsUserCheck: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [
    { minimumVersion: v1(23), checkPod: runAsUser_1_23 },
    { minimumVersion: v1(35), checkPod: runAsUser_1_35 },
  ],
};
