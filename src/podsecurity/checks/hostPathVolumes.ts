// Baseline `hostPathVolumes` (v1.0+): no spec.volumes[*].hostPath. Upstream:
// policy/check_hostPathVolumes.go. Overridden at restricted (all versions) by `restrictedVolumes`.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { joinQuote, pluralize } from '../format.js';
import { v1 } from '../levels.js';
import { get, has, items, rec, specObj, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

export function hostPathVolumes_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const bad: string[] = [];
  for (const vol of items(get(specObj(podSpec), 'volumes'))) {
    const v = rec(vol);
    if (has(get(v, 'hostPath'))) bad.push(text(get(v, 'name')));
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`);
}

export const hostPathVolumesCheck: Check = {
  id: HOST_PATH_VOLUMES_ID,
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: hostPathVolumes_1_0 }],
};
