// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding
// (k8s.io/api/rbac/v1 types.go: list types and atomic structs as upstream marks them; the
// descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const kindOf = (kind: string) => ({ gvk: [gvk('rbac.authorization.k8s.io', 'v1', kind)] });

const list = (kind: string, what: string): SchemaDef =>
  struct(PKG.rbac, `${kind}List`, `A list of ${what}.`, { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: `[]${kind}! | The ${what}.` }, kindOf(`${kind}List`));

export const rbacSchemas: readonly SchemaDef[] = [
  struct(PKG.rbac, 'PolicyRule', 'One permission: verbs on resources of API groups (optionally only the named objects), or verbs on non-resource URLs.', {
    verbs: '[]s! lt=atomic | The verbs allowed (get, list, create, …); "*" is every verb.',
    apiGroups: '[]s lt=atomic | The API groups of the resources; "" is the core group, "*" every group.',
    resources: '[]s lt=atomic | The resources (and "resource/subresource"); "*" is every resource, "*/sub" a subresource of any.',
    resourceNames: '[]s lt=atomic | Only the objects of these names; empty: every object.',
    nonResourceURLs: '[]s lt=atomic | URL paths that are not resources (/healthz, /api/*); only in cluster roles, never with resources.',
  }),
  struct(PKG.rbac, 'AggregationRule', 'How a cluster role\'s rules are gathered from other cluster roles.', {
    clusterRoleSelectors: '[]LabelSelector lt=atomic | Cluster roles matching any of these selectors lend their rules; the controller overwrites the role\'s rules with them.',
  }),
  struct(PKG.rbac, 'Subject', 'Who a binding grants its role to: a user, a group or a service account.', {
    kind: 's! | User, Group or ServiceAccount.',
    apiGroup: 's | rbac.authorization.k8s.io for User and Group (the default), "" for ServiceAccount.',
    name: 's! | The user, group or service account name.',
    namespace: 's | The service account\'s namespace; in a RoleBinding it defaults to the binding\'s.',
  }, { mapType: 'atomic' }),
  struct(PKG.rbac, 'RoleRef', 'The role a binding grants. It cannot change once the binding exists.', {
    apiGroup: 's! | rbac.authorization.k8s.io.',
    kind: 's! | Role or ClusterRole (a ClusterRoleBinding takes ClusterRole only).',
    name: 's! | The role\'s name.',
  }, { mapType: 'atomic' }),
  struct(PKG.rbac, 'Role', 'Rules within one namespace, granted to subjects by RoleBindings of that namespace.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    rules: '[]PolicyRule lt=atomic | The permissions the role holds.',
  }, kindOf('Role')),
  list('Role', 'roles'),
  struct(PKG.rbac, 'ClusterRole', 'Rules across the cluster (non-resource URLs too), granted by ClusterRoleBindings everywhere or by RoleBindings in one namespace.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    rules: '[]PolicyRule lt=atomic | The permissions the role holds.',
    aggregationRule: 'AggregationRule | When set, the rules are gathered from the cluster roles its selectors match (and are the controller\'s to write).',
  }, kindOf('ClusterRole')),
  list('ClusterRole', 'cluster roles'),
  struct(PKG.rbac, 'RoleBinding', 'Grants a Role of its namespace, or a ClusterRole\'s rules within its namespace, to subjects.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    subjects: '[]Subject lt=atomic | Who the role is granted to.',
    roleRef: 'RoleRef! | The Role or ClusterRole granted; immutable.',
  }, kindOf('RoleBinding')),
  list('RoleBinding', 'role bindings'),
  struct(PKG.rbac, 'ClusterRoleBinding', 'Grants a ClusterRole\'s rules to subjects in every namespace.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    subjects: '[]Subject lt=atomic | Who the role is granted to.',
    roleRef: 'RoleRef! | The ClusterRole granted; immutable.',
  }, kindOf('ClusterRoleBinding')),
  list('ClusterRoleBinding', 'cluster role bindings'),
];
