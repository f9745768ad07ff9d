// The builders the bootstrap policy is written with (pkg/apis/rbac/v1 helpers.go
// PolicyRuleBuilder, ClusterRoleBindingBuilder and RoleBindingBuilder, and bootstrappolicy's
// addDefaultMetadata): a rule's lists sorted as RuleOrDie sorts them, so that the objects come
// out as upstream's testdata/*.yaml writes them; every object labelled
// kubernetes.io/bootstrapping=rbac-defaults and annotated for reconciliation.

import { rbacGroup, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Role, type RoleBinding, type Subject } from '../api/rbactypes.js';

export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
export const bootstrappingLabel = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

/** bootstrappolicy's Read, ReadWrite, Write and ReadUpdate verb lists. */
export const read = ['get', 'list', 'watch'];
export const readWrite = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
export const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const readUpdate = ['get', 'list', 'watch', 'update', 'patch'];

const sorted = (v: readonly string[]) => [...v].sort();

/** NewRule(verbs...).Groups(groups...).Resources(resources...)[.Names(names...)].RuleOrDie(). */
export function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[], names?: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources), ...(names ? { resourceNames: sorted(names) } : {}) };
}

/** NewRule(verbs...).URLs(urls...).RuleOrDie(). */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** eventsRule(): create, update and patch of core and events.k8s.io events. */
export const eventsRule = (): PolicyRule => rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);

/** addDefaultMetadata; the labels in key order, as Go writes a map. */
const defaultMetadata = (name: string, labels?: Record<string, string>, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: Object.fromEntries(Object.entries({ ...labels, ...bootstrappingLabel }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  annotations: { [autoUpdateAnnotation]: 'true' },
});

/** A bootstrap ClusterRole; `aggregateFrom` the label whose roles it aggregates (rules null, as upstream's). */
export function clusterRole(name: string, rules: PolicyRule[] | null, extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: defaultMetadata(name, extra.labels),
    ...(extra.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } } : {}),
    rules: rules as PolicyRule[],
  };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: `${rbacGroup}/v1`, kind: 'Role', metadata: defaultMetadata(name, undefined, namespace), rules };
}

export const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', apiGroup: rbacGroup, name }));
export const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', apiGroup: rbacGroup, name }));
export const serviceAccounts = (namespace: string, ...names: string[]): Subject[] => names.map((name) => ({ kind: 'ServiceAccount', name, namespace }));

/** NewClusterBinding(role): named for its ClusterRole unless `name` says otherwise; no subjects leaves the list out. */
export function clusterRoleBinding(roleName: string, subjects: Subject[], name = roleName): ClusterRoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: defaultMetadata(name),
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: roleName },
    ...(subjects.length ? { subjects } : {}),
  };
}

/** NewRoleBinding(role, namespace): a binding of the namespace's Role of that name. */
export function roleBinding(namespace: string, roleName: string, subjects: Subject[], name = roleName): RoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'RoleBinding',
    metadata: defaultMetadata(name, undefined, namespace),
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: roleName },
    subjects,
  };
}
