// Restricted `allowPrivilegeEscalation` (v1.8+): every container must set
// securityContext.allowPrivilegeEscalation=false explicitly. From v1.25 Windows pods
// (`spec.os.name: windows`) pass. Upstream: policy/check_allowPrivilegeEscalation.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, isWindowsPod, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export function allowPrivilegeEscalation_1_8(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const bad = containers(podSpec)
    .filter((c) => get(c.securityContext, 'allowPrivilegeEscalation') !== false)
    .map((c) => c.name);
  if (bad.length === 0) return ALLOWED;
  return forbidden(
    'allowPrivilegeEscalation != false',
    `${containerPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
}

export function allowPrivilegeEscalation_1_25(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (isWindowsPod(podSpec)) return ALLOWED;
  return allowPrivilegeEscalation_1_8(podMetadata, podSpec);
}

export const allowPrivilegeEscalationCheck: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: v1(8), checkPod: allowPrivilegeEscalation_1_8 },
    { minimumVersion: v1(25), checkPod: allowPrivilegeEscalation_1_25 },
  ],
};
