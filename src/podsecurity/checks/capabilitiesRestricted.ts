// Restricted `capabilities_restricted` (v1.22+, overrides `capabilities_baseline`): every
// container must drop `ALL` and may add only `NET_BIND_SERVICE`. From v1.25 Windows pods
// (`spec.os.name: windows`) pass. Upstream: policy/check_capabilities_restricted.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, isWindowsPod, items, rec, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';
import { CAPABILITIES_BASELINE_ID } from './capabilitiesBaseline.js';

export function capabilitiesRestricted_1_22(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];

  for (const c of containers(podSpec)) {
    const capsValue = get(c.securityContext, 'capabilities');
    if (!has(capsValue)) {
      missingDropAll.push(c.name);
      continue;
    }
    const caps = rec(capsValue);
    // The required item must be in a real list (see podfields.ts).
    const drop = get(caps, 'drop');
    if (!(Array.isArray(drop) && drop.includes('ALL'))) missingDropAll.push(c.name);

    let addedForbidden = false;
    for (const cap of items(get(caps, 'add'))) {
      if (cap !== 'NET_BIND_SERVICE') {
        addedForbidden = true;
        forbiddenCaps.push(text(cap));
      }
    }
    if (addedForbidden) addingForbidden.push(c.name);
  }

  const details: string[] = [];
  if (missingDropAll.length > 0) {
    details.push(`${containerPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  }
  if (addingForbidden.length > 0) {
    details.push(
      `${containerPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`,
    );
  }
  if (details.length === 0) return ALLOWED;
  return forbidden('unrestricted capabilities', details.join('; '));
}

export function capabilitiesRestricted_1_25(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (isWindowsPod(podSpec)) return ALLOWED;
  return capabilitiesRestricted_1_22(podMetadata, podSpec);
}

export const capabilitiesRestrictedCheck: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: v1(22), checkPod: capabilitiesRestricted_1_22, overrideCheckIDs: [CAPABILITIES_BASELINE_ID] },
    { minimumVersion: v1(25), checkPod: capabilitiesRestricted_1_25, overrideCheckIDs: [CAPABILITIES_BASELINE_ID] },
  ],
};
