// rbac.authorization.k8s.io/v1 as Bulkhead reads and writes it (k8s.io/api/rbac/v1 types.go;
// split from types.ts, which re-exports it): Roles and ClusterRoles hold rules, RoleBindings and
// ClusterRoleBindings grant a role's rules to subjects.

import type { KubeObject, LabelSelector } from './types.js';

/** rbacv1.GroupName: what roleRef.apiGroup and User/Group subjects' apiGroup name. */
export const rbacGroup = 'rbac.authorization.k8s.io';

/** rbacv1.PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** rbacv1.Subject: kind User, Group or ServiceAccount. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** rbacv1.RoleRef: the role a binding grants; immutable. */
export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Role extends KubeObject {
  rules?: PolicyRule[];
}

export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;
