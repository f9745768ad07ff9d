// Restricted `seccompProfile_restricted` (v1.19+, overrides `seccompProfile_baseline`): explicit
// types must be RuntimeDefault or Localhost, and every container must end up with one, either
// itself or through a valid pod-level profile. From v1.25 Windows pods (`spec.os.name: windows`)
// pass. Annotations are not consulted. Upstream: policy/check_seccompProfile_restricted.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import {
  containers, get, has, isWindowsPod, podSecurityContext, type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';
import { badSeccompType, SECCOMP_BASELINE_ID } from './seccompProfileBaseline.js';

export function seccompProfileRestricted_1_19(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podSeccompSet = false;

  const podProfile = get(podSecurityContext(podSpec), 'seccompProfile');
  if (has(podProfile)) {
    const bad = badSeccompType(podProfile);
    if (bad !== undefined) {
      badSetters.push('pod');
      badValues.push(bad);
    } else {
      podSeccompSet = true;
    }
  }

  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const c of containers(podSpec)) {
    const profile = get(c.securityContext, 'seccompProfile');
    if (has(profile)) {
      const bad = badSeccompType(profile);
      if (bad !== undefined) {
        explicitlyBad.push(c.name);
        badValues.push(bad);
      }
    } else if (!podSeccompSet) {
      implicitlyBad.push(c.name);
    }
  }
  if (explicitlyBad.length > 0) badSetters.push(containerPhrase(explicitlyBad));

  if (badSetters.length > 0) {
    return forbidden(
      'seccompProfile',
      `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    );
  }
  if (implicitlyBad.length > 0) {
    return forbidden(
      'seccompProfile',
      `pod or ${containerPhrase(implicitlyBad)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    );
  }
  return ALLOWED;
}

export function seccompProfileRestricted_1_25(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (isWindowsPod(podSpec)) return ALLOWED;
  return seccompProfileRestricted_1_19(podMetadata, podSpec);
}

export const seccompProfileRestrictedCheck: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: v1(19), checkPod: seccompProfileRestricted_1_19, overrideCheckIDs: [SECCOMP_BASELINE_ID] },
    { minimumVersion: v1(25), checkPod: seccompProfileRestricted_1_25, overrideCheckIDs: [SECCOMP_BASELINE_ID] },
  ],
};
