// Resource names as quota sees them (quota/v1/evaluator); which names are native or extended is
// src/api/extendedresources.ts, shared with validation.

import { isExtendedResourceName } from '../api/extendedresources.js';

export const requestsPrefix = 'requests.';
export const limitsPrefix = 'limits.';
export const podObjectCountName = 'count/pods';

/** Exact names the pod evaluator tracks. */
export const podEvaluatorResources = new Set([
  podObjectCountName,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);

export const podEvaluatorPrefixes = ['hugepages-', 'requests.hugepages-'];

/** The names that make a quota demand an explicit request or limit from every container. */
export const quotaValidationSet = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** DRA implicit extended resources: `deviceclass.resource.kubernetes.io/<device class>`. */
const deviceClassResourcePrefix = 'deviceclass.resource.kubernetes.io/';

/** IsDRAExtendedResourceName: an extended resource, or a DRA implicit one (native namespace). */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(deviceClassResourcePrefix);
}

/**
 * `requests.<extended>`: the only way quota tracks an extended resource; this includes the DRA
 * implicit `requests.deviceclass.resource.kubernetes.io/<class>`.
 */
export function isExtendedResourceNameForQuota(name: string): boolean {
  if (name.startsWith(requestsPrefix + deviceClassResourcePrefix)) return true;
  return name.startsWith(requestsPrefix) && isExtendedResourceName(name.slice(requestsPrefix.length));
}

/** The hard keys of a quota that the pod evaluator tracks (MatchingResources). */
export function podMatchingResources(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (podEvaluatorResources.has(n) || podEvaluatorPrefixes.some((p) => n.startsWith(p)) || isExtendedResourceNameForQuota(n)) {
      out.push(n);
    }
  }
  return out;
}
