// Restricted `runAsNonRoot`: nobody may set runAsNonRoot=false, and every container must end up
// true, itself or through the pod. From v1.35 pods with `spec.hostUsers: false` pass.
// runAsUser values are not considered. Upstream: policy/check_runAsNonRoot.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import {
  containers, get, has, inUserNamespace, podSecurityContext, type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

export function runAsNonRoot_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badSetters: string[] = [];
  let podRunAsNonRoot = false;

  // A present value other than `true` (false, or a malformed one) is an explicit bad setting.
  const podValue = get(podSecurityContext(podSpec), 'runAsNonRoot');
  if (has(podValue)) {
    if (podValue === true) podRunAsNonRoot = true;
    else badSetters.push('pod');
  }

  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const c of containers(podSpec)) {
    const value = get(c.securityContext, 'runAsNonRoot');
    if (has(value)) {
      if (value !== true) explicitlyBad.push(c.name);
    } else if (!podRunAsNonRoot) {
      implicitlyBad.push(c.name);
    }
  }
  if (explicitlyBad.length > 0) badSetters.push(containerPhrase(explicitlyBad));

  if (badSetters.length > 0) {
    return forbidden('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  }
  if (implicitlyBad.length > 0) {
    return forbidden(
      'runAsNonRoot != true',
      `pod or ${containerPhrase(implicitlyBad)} must set securityContext.runAsNonRoot=true`,
    );
  }
  return ALLOWED;
}

export function runAsNonRoot_1_35(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return runAsNonRoot_1_0(podMetadata, podSpec);
}

export const runAsNonRootCheck: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [
    { minimumVersion: v1(0), checkPod: runAsNonRoot_1_0 },
    { minimumVersion: v1(35), checkPod: runAsNonRoot_1_35 },
  ],
};
