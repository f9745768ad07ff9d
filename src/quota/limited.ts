// What the ResourceQuota configuration's limitedResources mean at admission (k8s.io/apiserver
// pkg/admission/plugin/resourcequota/controller.go v1.32: filterLimitedResourcesByGroupResource,
// limitedByDefault, getMatchedLimitedScopes, CheckRequest's two refusals, and the pod
// evaluator's UncoveredQuotaScopes). A limited resource is consumed only under a quota that limits
// it: a create (or an update that adds to usage) whose usage names one that no quota matching the
// object limits is refused, and so is a pod matching a limited scope that no quota in the
// namespace has a selector of (by scope name) that the pod matches. Pure.

import type { ScopedResourceSelectorRequirement } from '../api/types.js';
import type { LimitedResource } from './config.js';
import { formatScopeSelectors, scopeSelectorError } from './scopes.js';

/** filterLimitedResourcesByGroupResource: the entries for this group and resource. */
export function limitedResourcesFor(limited: readonly LimitedResource[], group: string, resource: string): LimitedResource[] {
  return limited.filter((l) => l.apiGroup === group && l.resource === resource);
}

/**
 * limitedByDefault: of the usage names whose value is positive (`consumed`), those containing
 * any matchContains substring of these entries: the names some quota matching the object must
 * limit. A name may come out more than once (several entries); the refusal lists it once.
 */
export function limitedByDefault(consumed: Iterable<string>, entries: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  const names = [...consumed];
  for (const entry of entries) {
    for (const name of names) if (entry.matchContains.some((m) => name.includes(m))) out.push(name);
  }
  return out;
}

/**
 * The refusal for limited names none of the quotas matching the object limits (`covered`: the
 * hard names of those quotas that the evaluator tracks): Forbidden, names sorted and once each.
 */
export function uncoveredConsumption(limitedNames: readonly string[], covered: ReadonlySet<string>): string | undefined {
  const uncovered = [...new Set(limitedNames)].filter((n) => !covered.has(n)).sort();
  return uncovered.length === 0 ? undefined : `insufficient quota to consume: ${uncovered.join(',')}`;
}

/**
 * UncoveredQuotaScopes (pods): the limited scopes the pod matches (`limitedScopes`, in the
 * configuration's order, repeats kept) that no selector of any quota in the namespace the pod
 * matches (`matchedQuotaScopes`) shares a scope name with. Operators and values are not
 * compared: a quota selecting `PriorityClass Exists` covers a limited `PriorityClass In [a]`.
 */
export function uncoveredQuotaScopes(
  limitedScopes: readonly ScopedResourceSelectorRequirement[],
  matchedQuotaScopes: readonly ScopedResourceSelectorRequirement[],
): ScopedResourceSelectorRequirement[] {
  const covered = new Set(matchedQuotaScopes.map((s) => s.scopeName));
  return limitedScopes.filter((s) => !covered.has(s.scopeName));
}

/**
 * The refusal for uncovered scopes, Go's %v of the list. Upstream returns it as a plain error,
 * not admission.NewForbidden: the API answers 500 with no reason and this message alone.
 */
export function uncoveredScopesMessage(uncovered: readonly ScopedResourceSelectorRequirement[]): string {
  return `insufficient quota to match these scopes: ${formatScopeSelectors(uncovered)}`;
}

/**
 * The matchScopes entries upstream cannot match (scopeSelectorError), by path
 * (`limitedResources[0].matchScopes[1]: error on matching scope …`). Upstream's validation lets
 * them through; at admission each makes the plugin let every pod through unchecked. Worth a
 * warning when the configuration is read.
 */
export function unmatchableLimitedScopes(limited: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  limited.forEach((l, i) => l.matchScopes.forEach((sel, j) => {
    const error = scopeSelectorError(sel);
    if (error !== undefined) out.push(`limitedResources[${i}].matchScopes[${j}]: ${error}`);
  }));
  return out;
}
