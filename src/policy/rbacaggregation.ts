// ClusterRole aggregation (pkg/controller/clusterroleaggregation, v1.32): a cluster role with an
// aggregationRule holds the rules of every other cluster role its selectors match, visited
// selector by selector and by name, each rule once. What the controller writes is decided here.

import type { ClusterRole, PolicyRule } from '../api/rbactypes.js';
import { labelSelectorMatcher, labelSelectorRequirements } from '../api/selectors.js';

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A rule as Semantic.DeepEqual compares it: absent and empty lists alike. */
function normalRule(r: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: r.verbs ?? [] };
  for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) if (r[k]?.length) out[k] = r[k];
  return out;
}

/**
 * The rules an aggregated role should hold, or undefined when it has no aggregationRule or a
 * selector does not convert (the controller then leaves it as it is).
 */
export function aggregatedRules(role: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!role.aggregationRule) return undefined;
  const roles = [...all].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const sel of selectors ?? []) {
    try {
      labelSelectorRequirements(sel);
    } catch {
      return undefined;
    }
    const matches = labelSelectorMatcher(sel);
    for (const other of roles) {
      if (other.metadata?.name === role.metadata?.name || !matches(other.metadata?.labels ?? {})) continue;
      for (const r of other.rules ?? []) {
        const key = JSON.stringify(normalRule(r));
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(r);
      }
    }
  }
  return out;
}

/** Whether the role's rules differ from what aggregation gives (nil and empty alike). */
export function aggregationChanges(role: ClusterRole, rules: readonly PolicyRule[]): boolean {
  return !sameJSON((role.rules ?? []).map(normalRule), rules.map(normalRule));
}

/**
 * Every role aggregated until nothing changes, as the controller's repeated syncs settle (an
 * aggregated role may itself be aggregated: view into edit into admin).
 */
export function aggregateAll(roles: readonly ClusterRole[]): ClusterRole[] {
  let current = [...roles];
  for (let pass = 0; pass <= roles.length; pass++) {
    let changed = false;
    current = current.map((r) => {
      const rules = aggregatedRules(r, current);
      if (!rules || !aggregationChanges(r, rules)) return r;
      changed = true;
      return { ...r, rules };
    });
    if (!changed) break;
  }
  return current;
}
