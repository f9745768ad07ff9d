// RBAC validation, one row per rule of pkg/apis/rbac/validation (ValidateRole, ValidateClusterRole,
// ValidateRoleBinding, ValidateClusterRoleBinding and their updates, v1.32), the cases of its
// validation_test.go among them, with Kubernetes' paths and wording. Objects are as the decoder
// leaves them after the v1 defaults (defaultBinding), which the binding rows apply.

import { describe, test } from 'node:test';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../../../src/api/types.js';
import { defaultBinding } from '../../../src/api/rbacdefaults.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateClusterRoleUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsSubdomainMsg, labelValueMsg } from './messages.js';

const group = 'rbac.authorization.k8s.io';
const role = (rules: PolicyRule[], meta: Role['metadata'] = { name: 'default', namespace: 'default' }): Role => ({ metadata: meta, rules });
const clusterRole = (rules: PolicyRule[], extra: Partial<ClusterRole> = {}, meta: ClusterRole['metadata'] = { name: 'default' }): ClusterRole => ({ metadata: meta, rules, ...extra });
const ref = (kind: string, name: string, apiGroup = group): RoleRef => ({ apiGroup, kind, name });
const binding = (roleRef: RoleRef, subjects: Subject[] = [], meta: RoleBinding['metadata'] = { name: 'master', namespace: 'default' }): RoleBinding =>
  defaultBinding({ metadata: meta, roleRef, subjects });

describe('validateRole / validateClusterRole', () => {
  const rows: { name: string; got: () => unknown; want: Want }[] = [
    { name: 'a role without rules is valid', got: () => validateRole(role([])), want: [] },
    { name: 'a cluster role without a namespace is valid', got: () => validateClusterRole(clusterRole([])), want: [] },
    { name: 'a role needs a namespace (zero-length namespace)', got: () => validateRole(role([], { name: 'default' })), want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
    { name: 'a role needs a name (zero-length name)', got: () => validateRole(role([], { namespace: 'default' })), want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
    { name: 'a cluster role may not have a namespace', got: () => validateClusterRole(clusterRole([], {}, { name: 'x', namespace: 'default' })), want: [['FieldValueForbidden', 'metadata.namespace: Forbidden: not allowed on this type']] },
    { name: 'names are path segments: "." is refused', got: () => validateRole(role([], { name: '.', namespace: 'default' })), want: [['FieldValueInvalid', `metadata.name: Invalid value: ".": may not be '.'`]] },
    { name: 'names are path segments: ".." is refused', got: () => validateClusterRole(clusterRole([], {}, { name: '..' })), want: [['FieldValueInvalid', `metadata.name: Invalid value: "..": may not be '..'`]] },
    {
      name: 'names are path segments: "/" and "%" are refused, each reported',
      got: () => validateClusterRole(clusterRole([], {}, { name: 'a/b%c' })),
      want: [['FieldValueInvalid', `metadata.name: Invalid value: "a/b%c": may not contain '/'`], ['FieldValueInvalid', `metadata.name: Invalid value: "a/b%c": may not contain '%'`]],
    },
    { name: 'names need not be DNS subdomains (system:basic-user)', got: () => validateClusterRole(clusterRole([], {}, { name: 'system:basic-user' })), want: [] },
    { name: 'a cluster role may hold non-resource URLs', got: () => validateClusterRole(clusterRole([{ verbs: ['get'], nonResourceURLs: ['/*'] }])), want: [] },
    {
      name: 'namespaced rules cannot apply to non-resource URLs',
      got: () => validateRole(role([{ verbs: ['get'], nonResourceURLs: ['/*'] }])),
      want: [['FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: namespaced rules cannot apply to non-resource URLs']],
    },
    { name: 'a non-resource rule needs verbs', got: () => validateClusterRole(clusterRole([{ verbs: [], nonResourceURLs: ['/*'] }])), want: [['FieldValueRequired', 'rules[0].verbs: Required value: verbs must contain at least one value']] },
    {
      name: 'a rule cannot mix resources and non-resource URLs (and in a role, URLs at all)',
      got: () => validateRole(role([{ verbs: ['get'], nonResourceURLs: ['/*'], apiGroups: ['v1'], resources: ['pods'] }])),
      want: [
        ['FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: namespaced rules cannot apply to non-resource URLs'],
        ['FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: rules cannot apply to both regular resources and non-resource URLs'],
      ],
    },
    {
      name: 'resourceNames with URLs is mixing too',
      got: () => validateClusterRole(clusterRole([{ verbs: ['get'], nonResourceURLs: ['/x'], resourceNames: ['a'] }])),
      want: [['FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs']],
    },
    { name: 'a resource rule is valid with verbs, groups and resources', got: () => validateRole(role([{ verbs: ['get'], apiGroups: ['v1'], resources: ['pods'] }])), want: [] },
    { name: 'a resource rule needs an API group', got: () => validateRole(role([{ verbs: ['get'], resources: ['pods'] }])), want: [['FieldValueRequired', 'rules[0].apiGroups: Required value: resource rules must supply at least one api group']] },
    { name: 'a resource rule needs a resource', got: () => validateRole(role([{ verbs: ['get'], apiGroups: ['v1'] }])), want: [['FieldValueRequired', 'rules[0].resources: Required value: resource rules must supply at least one resource']] },
    { name: 'resource names with several resources are allowed (no longer refused)', got: () => validateRole(role([{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }])), want: [] },
    {
      name: 'an empty rule: verbs, groups and resources all required, in that order',
      got: () => validateRole(role([{} as PolicyRule])),
      want: [
        ['FieldValueRequired', 'rules[0].verbs: Required value: verbs must contain at least one value'],
        ['FieldValueRequired', 'rules[0].apiGroups: Required value: resource rules must supply at least one api group'],
        ['FieldValueRequired', 'rules[0].resources: Required value: resource rules must supply at least one resource'],
      ],
    },
    { name: 'the rule index is in the path', got: () => validateRole(role([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: [], apiGroups: [''], resources: ['pods'] }])), want: [['FieldValueRequired', 'rules[1].verbs: Required value: verbs must contain at least one value']] },
    { name: 'an aggregation rule with a selector is valid', got: () => validateClusterRole(clusterRole([], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } })), want: [] },
    {
      name: 'an aggregation rule needs a selector',
      got: () => validateClusterRole(clusterRole([], { aggregationRule: { clusterRoleSelectors: [] } })),
      want: [['FieldValueRequired', 'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']],
    },
    {
      name: 'an aggregation selector is a label selector (bad label value, and it does not convert)',
      got: () => validateClusterRole(clusterRole([], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b c' } }] } })),
      want: [
        ['FieldValueInvalid', `aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value: "b c": ${labelValueMsg}`],
        ['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.'],
      ],
    },
    {
      name: 'an update keeps a selector value the old object already had invalid',
      got: () => {
        const old = clusterRole([], { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['b c'] }] }] } }, { name: 'x', resourceVersion: '1' });
        return validateClusterRoleUpdate({ ...old, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, old, { allowInvalidLabelValueInSelector: true });
      },
      want: [['FieldValueInvalid', 'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.']],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(r.got() as never, r.want));
});

describe('validateRoleBinding / validateClusterRoleBinding', () => {
  const subjects: Subject[] = [
    { name: 'validsaname', kind: 'ServiceAccount' },
    { name: 'valid@username', kind: 'User' },
    { name: 'valid@groupname', kind: 'Group' },
  ];
  const cluster = (roleRef: RoleRef, s: Subject[] = []): ClusterRoleBinding => binding(roleRef, s, { name: 'master' });
  const rows: { name: string; got: () => unknown; want: Want }[] = [
    { name: 'a role binding to a Role, with each kind of subject, is valid', got: () => validateRoleBinding(binding(ref('Role', 'valid'), subjects)), want: [] },
    {
      name: 'a cluster role binding needs each service account\'s namespace',
      got: () => validateClusterRoleBinding(cluster(ref('ClusterRole', 'valid'), [{ name: 'validsaname', namespace: 'foo', kind: 'ServiceAccount' }, ...subjects.slice(1)])),
      want: [],
    },
    { name: 'roleRef.apiGroup must be the RBAC group (bad group)', got: () => validateRoleBinding(binding(ref('ClusterRole', 'valid', 'rbac.GroupName'))), want: [['FieldValueNotSupported', 'roleRef.apiGroup: Unsupported value: "rbac.GroupName": supported values: "rbac.authorization.k8s.io"']] },
    { name: 'an empty roleRef.apiGroup is defaulted to the RBAC group', got: () => validateRoleBinding(binding(ref('Role', 'valid', ''))), want: [] },
    { name: 'roleRef.kind is Role or ClusterRole (bad kind)', got: () => validateRoleBinding(binding(ref('Type', 'valid'))), want: [['FieldValueNotSupported', 'roleRef.kind: Unsupported value: "Type": supported values: "Role", "ClusterRole"']] },
    { name: 'a cluster role binding cannot reference a Role', got: () => validateClusterRoleBinding(cluster(ref('Role', 'valid'))), want: [['FieldValueNotSupported', 'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']] },
    { name: 'roleRef.name is required (bad role)', got: () => validateRoleBinding(binding(ref('Role', ''))), want: [['FieldValueRequired', 'roleRef.name: Required value']] },
    { name: 'roleRef.name is a path segment', got: () => validateClusterRoleBinding(cluster(ref('ClusterRole', 'a/b'))), want: [['FieldValueInvalid', `roleRef.name: Invalid value: "a/b": may not contain '/'`]] },
    {
      name: 'a missing roleRef is the zero RoleRef, defaulted',
      got: () => validateRoleBinding(defaultBinding({ metadata: { name: 'x', namespace: 'default' } } as RoleBinding)),
      want: [['FieldValueNotSupported', 'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"'], ['FieldValueRequired', 'roleRef.name: Required value']],
    },
    { name: 'a role binding needs a namespace (zero-length namespace)', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [], { name: 'default' })), want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
    { name: 'a binding needs a name (zero-length name)', got: () => validateClusterRoleBinding(binding(ref('ClusterRole', 'valid'), [], {})), want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
    { name: 'a subject needs a kind (bad subject kind)', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [{ name: 'subject' } as Subject])), want: [['FieldValueNotSupported', 'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"']] },
    { name: 'a service account\'s name is a DNS subdomain (bad subject name)', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [{ name: 'subject:bad', kind: 'ServiceAccount' }])), want: [['FieldValueInvalid', `subjects[0].name: Invalid value: "subject:bad": ${dnsSubdomainMsg}`]] },
    { name: 'a cluster binding\'s service account needs a namespace (missing SA namespace)', got: () => validateClusterRoleBinding(cluster(ref('ClusterRole', 'valid'), [{ name: 'good', kind: 'ServiceAccount' }])), want: [['FieldValueRequired', 'subjects[0].namespace: Required value']] },
    { name: 'a subject needs a name (missing subject name)', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [{ kind: 'ServiceAccount' } as Subject])), want: [['FieldValueRequired', 'subjects[0].name: Required value']] },
    { name: 'a service account subject has the core group', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [{ kind: 'ServiceAccount', name: 'sa', apiGroup: group }])), want: [['FieldValueNotSupported', 'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""']] },
    { name: 'a User subject has the RBAC group', got: () => validateRoleBinding(binding(ref('Role', 'valid'), [{ kind: 'User', name: 'u', apiGroup: 'wrong' }])), want: [['FieldValueNotSupported', 'subjects[0].apiGroup: Unsupported value: "wrong": supported values: "rbac.authorization.k8s.io"']] },
    { name: 'a User or Group subject\'s empty apiGroup is defaulted', got: () => validateClusterRoleBinding(cluster(ref('ClusterRole', 'valid'), [{ kind: 'User', name: 'u', apiGroup: '' }, { kind: 'Group', name: 'g' }])), want: [] },
    { name: 'user and group names are not checked beyond being there', got: () => validateClusterRoleBinding(cluster(ref('ClusterRole', 'valid'), [{ kind: 'User', name: '*' }, { kind: 'Group', name: 'a b/c' }])), want: [] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(r.got() as never, r.want));
});

describe('validateRoleBindingUpdate / validateClusterRoleBindingUpdate', () => {
  const old = binding(ref('Role', 'valid'), [], { name: 'master', namespace: 'default', resourceVersion: '1' });
  const oldCluster = binding(ref('ClusterRole', 'valid'), [], { name: 'master', resourceVersion: '1' });
  const rows: { name: string; got: () => unknown; want: Want }[] = [
    { name: 'the same roleRef is valid', got: () => validateRoleBindingUpdate(binding(ref('Role', 'valid'), [{ kind: 'User', name: 'new' }], { name: 'master', namespace: 'default', resourceVersion: '1' }), old), want: [] },
    {
      name: 'roleRef is immutable (changedRef): the new roleRef printed as Go prints the struct',
      got: () => validateRoleBindingUpdate(binding(ref('Role', 'changed'), [], { name: 'master', namespace: 'default', resourceVersion: '1' }), old),
      want: [['FieldValueInvalid', 'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"changed"}: cannot change roleRef']],
    },
    {
      name: 'a cluster binding\'s roleRef is immutable too',
      got: () => validateClusterRoleBindingUpdate(binding(ref('ClusterRole', 'other'), [], { name: 'master', resourceVersion: '1' }), oldCluster),
      want: [['FieldValueInvalid', 'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"other"}: cannot change roleRef']],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(r.got() as never, r.want));
});
