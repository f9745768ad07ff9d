// What the rbac/bootstrap-roles hook writes over a stored bootstrap object
// (pkg/registry/rbac/reconciliation reconcile_role.go computeReconciledRole and
// reconcile_rolebindings.go computeReconciledRoleBinding, as EnsureRBACPolicy calls them for the
// cluster roles and bindings and for kube-system's and kube-public's roles and bindings: union,
// never removing what an administrator added). Labels and annotations the expected object has are
// added (the stored values win; maps compared as reflect.DeepEqual compares them, in any key
// order); missing rules are added broken down; missing aggregation selectors and subjects
// appended. A binding whose roleRef differs is recreated. An object annotated
// rbac.authorization.kubernetes.io/autoupdate=false is left alone.

import type { ClusterRole, ClusterRoleBinding, LabelSelector, Role, RoleBinding, Subject } from '../api/types.js';
import { autoUpdateAnnotation } from './rbacpolicybuilders.js';
import { covers } from './rbacrules.js';

export type Reconciled<T> = { op: 'none' } | { op: 'update'; obj: T } | { op: 'recreate'; obj: T };

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const isProtected = (o: { metadata?: { annotations?: Record<string, string> } }) => o.metadata?.annotations?.[autoUpdateAnnotation] === 'false';

/** merge(expected, existing): every expected key, the existing value where both have one. */
function merge(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...expected, ...existing };
}

/** reflect.DeepEqual of two map[string]string: the same keys and values, nil apart from empty. */
function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (!a || !b) return !a === !b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function mergedMeta<T extends Role | RoleBinding>(existing: T, expected: T): { obj: T; changed: boolean } {
  const annotations = merge(expected.metadata?.annotations, existing.metadata?.annotations);
  const labels = merge(expected.metadata?.labels, existing.metadata?.labels);
  const changed = !sameMap(annotations, existing.metadata?.annotations) || !sameMap(labels, existing.metadata?.labels);
  return { obj: { ...existing, metadata: { ...existing.metadata, ...(annotations ? { annotations } : {}), ...(labels ? { labels } : {}) } }, changed };
}

/** aggregationRuleCovers: the expected selectors the existing rule lacks. */
function missingSelectors(existing: LabelSelector[] | undefined, expected: LabelSelector[] | undefined): LabelSelector[] {
  return (expected ?? []).filter((e) => !(existing ?? []).some((x) => sameJSON(x, e)));
}

/** computeReconciledRole for a ClusterRole or (without an aggregationRule) a Role. */
export function reconcileClusterRole<T extends ClusterRole>(existing: T, expected: T): Reconciled<T> {
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
    obj = rest as T;
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

/** computeReconciledRoleBinding for a ClusterRoleBinding or a RoleBinding. */
export function reconcileClusterRoleBinding<T extends ClusterRoleBinding>(existing: T, expected: T): Reconciled<T> {
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
