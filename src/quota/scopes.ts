// Which pods a quota's scopes and scope selector match (pods.go podMatchesScopeFunc).

import type { FeatureGates } from '../api/featuregates.js';
import type { Pod, PodAffinityLike, ResourceQuota, ScopedResourceSelectorRequirement } from '../api/types.js';
import { getPodQOS } from '../policy/qos.js';

export const quotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'] as const;

/** spec.scopes as Exists selectors, then spec.scopeSelector.matchExpressions. */
export function quotaSelectors(q: ResourceQuota): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = (q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' }));
  out.push(...(q.spec?.scopeSelector?.matchExpressions ?? []));
  return out;
}

export function isTerminating(pod: Pod): boolean {
  return typeof pod.spec.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;
}

function hasCrossNamespaceTerm(a: PodAffinityLike | undefined): boolean {
  if (!a) return false;
  const terms = [
    ...(a.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(a.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
  ];
  return terms.some((t) => !!t && ((t.namespaces?.length ?? 0) > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null)));
}

export function usesCrossNamespacePodAffinity(pod: Pod): boolean {
  return hasCrossNamespaceTerm(pod.spec.affinity?.podAffinity) || hasCrossNamespaceTerm(pod.spec.affinity?.podAntiAffinity);
}

/** Label-selector semantics over the one-key set {PriorityClass: <class>} (empty without a class). */
function priorityClassMatches(pod: Pod, sel: ScopedResourceSelectorRequirement): boolean {
  const cls = pod.spec.priorityClassName ?? '';
  const present = cls !== '';
  const values = sel.values ?? [];
  switch (sel.operator) {
    case 'In':
      return present && values.includes(cls);
    case 'NotIn':
      return !present || !values.includes(cls);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      return false;
  }
}

export function podMatchesScope(pod: Pod, sel: ScopedResourceSelectorRequirement, gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  switch (sel.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return getPodQOS(pod, gates) === 'BestEffort';
    case 'NotBestEffort':
      return getPodQOS(pod, gates) !== 'BestEffort';
    case 'PriorityClass':
      return sel.operator === 'Exists' ? (pod.spec.priorityClassName ?? '') !== '' : priorityClassMatches(pod, sel);
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

export function podMatchesAllScopes(pod: Pod, selectors: readonly ScopedResourceSelectorRequirement[], gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  return selectors.every((s) => podMatchesScope(pod, s, gates));
}

/** spec.scopes entries as the Exists selectors quotaSelectors makes of them, made once. */
const existsSelectors = new Map<string, ScopedResourceSelectorRequirement>(quotaScopes.map((s) => [s, Object.freeze({ scopeName: s, operator: 'Exists' })]));

/**
 * podMatchesAllScopes(pod, quotaSelectors(q), gates) in the same order, without building the
 * selector list: admission asks it of every quota for every pod.
 */
export function podMatchesQuotaScopes(pod: Pod, q: ResourceQuota, gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  for (const s of q.spec?.scopes ?? []) {
    if (!podMatchesScope(pod, existsSelectors.get(s) ?? { scopeName: s, operator: 'Exists' }, gates)) return false;
  }
  for (const sel of q.spec?.scopeSelector?.matchExpressions ?? []) if (!podMatchesScope(pod, sel, gates)) return false;
  return true;
}
