// Baseline `capabilities_baseline` (v1.0+): capabilities.add may only hold the default set.
// Upstream: policy/check_capabilities_baseline.go. Overridden at restricted from v1.22 by
// `capabilities_restricted`.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, items, rec, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

const allowed_1_0 = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

export function capabilitiesBaseline_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  for (const c of containers(podSpec)) {
    const caps = get(c.securityContext, 'capabilities');
    if (!has(caps)) continue;
    let valid = true;
    for (const cap of items(get(rec(caps), 'add'))) {
      if (typeof cap !== 'string' || !allowed_1_0.has(cap)) {
        valid = false;
        nonDefault.push(text(cap));
      }
    }
    if (!valid) badContainers.push(c.name);
  }
  if (badContainers.length === 0) return ALLOWED;
  return forbidden(
    'non-default capabilities',
    `${containerPhrase(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`,
  );
}

export const capabilitiesBaselineCheck: Check = {
  id: CAPABILITIES_BASELINE_ID,
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: capabilitiesBaseline_1_0 }],
};
