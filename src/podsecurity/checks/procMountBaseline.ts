// Baseline `procMount`: containers' securityContext.procMount must be unset or `Default`
// (v1.0); from v1.35 any value is allowed when the pod sets `hostUsers: false`.
// Upstream: policy/check_procMount_baseline.go. Overridden at restricted from v1.35 by
// `procMount_restricted`, which keeps the strict v1.0 rule.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, joinQuote, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import { containers, get, has, inUserNamespace, text, type PodMetadataInput, type PodSpecInput } from '../podfields.js';

export const PROC_MOUNT_ID = 'procMount';

/** The strict rule: unset or `Default`, whatever hostUsers says. */
export function procMount_1_0(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badContainers: string[] = [];
  const badTypes: string[] = [];
  for (const c of containers(podSpec)) {
    const pm = get(c.securityContext, 'procMount');
    if (has(pm) && pm !== 'Default') {
      badContainers.push(c.name);
      badTypes.push(text(pm));
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  return forbidden(
    'procMount',
    `${containerPhrase(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(badTypes))}`,
  );
}

export function procMount_1_35_baseline(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return procMount_1_0(podMetadata, podSpec);
}

export const procMountBaselineCheck: Check = {
  id: PROC_MOUNT_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: v1(0), checkPod: procMount_1_0 },
    { minimumVersion: v1(35), checkPod: procMount_1_35_baseline },
  ],
};
