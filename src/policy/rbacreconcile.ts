// What the rbac/bootstrap-roles hook writes over a stored bootstrap object
// (pkg/registry/rbac/reconciliation reconcile_role.go computeReconciledRole and
// reconcile_rolebindings.go computeReconciledRoleBinding, as EnsureRBACPolicy calls them: union,
// never removing what an administrator added). Labels and annotations the expected object has are
// added (the stored values win); missing rules are added broken down; missing aggregation
// selectors and subjects appended. A binding whose roleRef differs is recreated. An object
// annotated rbac.authorization.kubernetes.io/autoupdate=false is left alone.

import type { ClusterRole, ClusterRoleBinding, LabelSelector, Subject } from '../api/types.js';
import { autoUpdateAnnotation } from './rbacbootstrap.js';
import { covers } from './rbacrules.js';

export type Reconciled<T> = { op: 'none' } | { op: 'update'; obj: T } | { op: 'recreate'; obj: T };

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const isProtected = (o: { metadata?: { annotations?: Record<string, string> } }) => o.metadata?.annotations?.[autoUpdateAnnotation] === 'false';

/** merge(expected, existing): every expected key, the existing value where both have one. */
function merge(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...expected, ...existing };
}

function mergedMeta<T extends ClusterRole | ClusterRoleBinding>(existing: T, expected: T): { obj: T; changed: boolean } {
  const annotations = merge(expected.metadata?.annotations, existing.metadata?.annotations);
  const labels = merge(expected.metadata?.labels, existing.metadata?.labels);
  const changed = !sameJSON(annotations, existing.metadata?.annotations) || !sameJSON(labels, existing.metadata?.labels);
  return { obj: { ...existing, metadata: { ...existing.metadata, ...(annotations ? { annotations } : {}), ...(labels ? { labels } : {}) } }, changed };
}

/** aggregationRuleCovers: the expected selectors the existing rule lacks. */
function missingSelectors(existing: LabelSelector[] | undefined, expected: LabelSelector[] | undefined): LabelSelector[] {
  return (expected ?? []).filter((e) => !(existing ?? []).some((x) => sameJSON(x, e)));
}

export function reconcileClusterRole(existing: ClusterRole, expected: ClusterRole): Reconciled<ClusterRole> {
  if (isProtected(existing)) return { op: 'none' };
  let { obj, changed } = mergedMeta(existing, expected);
  // Rules as the policy wrote them are covered: the breakdown is for rules someone changed.
  const { missing } = sameJSON(existing.rules, expected.rules) ? { missing: [] } : covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length > 0) {
    obj = { ...obj, rules: [...(obj.rules ?? []), ...missing] };
    changed = true;
  }
  if (!expected.aggregationRule && existing.aggregationRule) {
    const { aggregationRule: _dropped, ...rest } = obj;
    obj = rest as ClusterRole;
    changed = true;
  } else {
    const add = missingSelectors(existing.aggregationRule?.clusterRoleSelectors, expected.aggregationRule?.clusterRoleSelectors);
    if (add.length > 0) {
      obj = { ...obj, aggregationRule: { ...obj.aggregationRule, clusterRoleSelectors: [...(obj.aggregationRule?.clusterRoleSelectors ?? []), ...add] } };
      changed = true;
    }
  }
  return changed ? { op: 'update', obj } : { op: 'none' };
}

const sameSubject = (a: Subject, b: Subject) => a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

export function reconcileClusterRoleBinding(existing: ClusterRoleBinding, expected: ClusterRoleBinding): Reconciled<ClusterRoleBinding> {
  if (isProtected(existing)) return { op: 'none' };
  const a = existing.roleRef;
  const b = expected.roleRef;
  if (a?.apiGroup !== b.apiGroup || a?.kind !== b.kind || a?.name !== b.name) return { op: 'recreate', obj: expected };
  let { obj, changed } = mergedMeta(existing, expected);
  const missing = (expected.subjects ?? []).filter((s) => !(existing.subjects ?? []).some((x) => sameSubject(x, s)));
  if (missing.length > 0) {
    obj = { ...obj, subjects: [...(obj.subjects ?? []), ...missing] };
    changed = true;
  }
  return changed ? { op: 'update', obj } : { op: 'none' };
}
