// Which rules a user holds and what RBAC decides from them (pkg/registry/rbac/validation
// rule.go, plugin/pkg/auth/authorizer/rbac/rbac.go): appliesTo (rule_test.go TestAppliesTo's
// rows), the reason an allow names, the errors of roles that do not exist, the rules a review
// lists, ConfirmNoEscalation's message, the bootstrap reconciliation and aggregation.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../src/api/rbactypes.js';
import { aggregateAll, aggregatedRules, aggregationChanges } from '../../src/policy/rbacaggregation.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../../src/policy/rbacbootstrap.js';
import { reconcileClusterRole, reconcileClusterRoleBinding } from '../../src/policy/rbacreconcile.js';
import { appliesTo, authorizeRBAC, confirmNoEscalation, rulesFor, staticRBACObjects, type RBACUser } from '../../src/policy/rbacresolver.js';

const G = 'rbac.authorization.k8s.io';
const user = (name: string, groups: string[] = []): RBACUser => ({ name, groups });
const cr = (name: string, rules: PolicyRule[] | null, labels?: Record<string, string>, selectors?: Record<string, string>[]): ClusterRole => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  rules: rules as PolicyRule[],
  ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors.map((m) => ({ matchLabels: m })) } } : {}),
});
const crb = (name: string, role: string, subjects: Subject[]): ClusterRoleBinding => ({ metadata: { name }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: role }, subjects });
const rb = (ns: string, name: string, kind: string, role: string, subjects: Subject[]): RoleBinding => ({ metadata: { name, namespace: ns }, roleRef: { apiGroup: G, kind, name: role }, subjects });
const U = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });
const Gr = (name: string): Subject => ({ kind: 'Group', apiGroup: G, name });
const SA = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });

describe('appliesTo (TestAppliesTo)', () => {
  const rows: { name: string; subjects: Subject[]; user: RBACUser; namespace?: string; index: number }[] = [
    { name: 'single subject that matches username', subjects: [U('foobar')], user: user('foobar'), index: 0 },
    { name: 'multiple subjects, one that matches username', subjects: [U('barfoo'), U('foobar')], user: user('foobar'), index: 1 },
    { name: 'multiple subjects, none that match username', subjects: [U('barfoo'), U('foobar')], user: user('zimzam'), index: -1 },
    { name: 'multiple subjects, one that match group', subjects: [U('barfoo'), Gr('foobar')], user: user('zimzam', ['foobar']), index: 1 },
    { name: 'multiple subjects, one that match group, should ignore namespace', subjects: [U('barfoo'), Gr('foobar')], user: user('zimzam', ['foobar']), namespace: 'namespace1', index: 1 },
    { name: 'multiple subjects with a service account that matches', subjects: [U('barfoo'), Gr('foobar'), SA('default', 'kube-system')], user: user('system:serviceaccount:kube-system:default'), namespace: 'default', index: 2 },
    { name: '* user subject name doesn\'t match all users', subjects: [U('*')], user: user('foobar'), namespace: 'default', index: -1 },
    { name: 'binding to all authenticated and unauthenticated subjects matches authenticated user', subjects: [Gr('system:authenticated'), Gr('system:unauthenticated')], user: user('foobar', ['system:authenticated']), namespace: 'default', index: 0 },
    { name: 'binding to all authenticated and unauthenticated subjects matches anonymous user', subjects: [Gr('system:authenticated'), Gr('system:unauthenticated')], user: user('system:anonymous', ['system:unauthenticated']), namespace: 'default', index: 1 },
    { name: 'a service account without a namespace is the binding\'s namespace\'s', subjects: [SA('app')], user: user('system:serviceaccount:ns1:app'), namespace: 'ns1', index: 0 },
    { name: 'a service account without a namespace, outside a namespace, matches nobody', subjects: [SA('app')], user: user('system:serviceaccount:ns1:app'), namespace: '', index: -1 },
    { name: 'a service account of another namespace does not match', subjects: [SA('app', 'ns2')], user: user('system:serviceaccount:ns1:app'), namespace: 'ns1', index: -1 },
  ];
  for (const r of rows) test(r.name, () => assert.equal(appliesTo(r.user, r.subjects, r.namespace ?? ''), r.index));
});

describe('authorizeRBAC: decision and reason', () => {
  const objects = staticRBACObjects(
    [cr('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]), cr('urls', [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }])],
    [crb('readers', 'pod-reader', [U('alice'), Gr('ops')]), crb('gone', 'missing', [U('bob')]), crb('metrics', 'urls', [Gr('system:monitoring')])],
    [{ metadata: { name: 'cm', namespace: 'ns1' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] } as Role],
    [rb('ns1', 'cm-binding', 'Role', 'cm', [SA('app')]), rb('ns1', 'pods-here', 'ClusterRole', 'pod-reader', [SA('ci', 'ci')]), rb('ns1', 'no-role', 'Role', 'nothing', [U('bob')])],
  );
  const rows: { name: string; user: RBACUser; req: Parameters<typeof authorizeRBAC>[2]; allowed: boolean; reason: string }[] = [
    {
      name: 'a cluster role binding to the user: the binding, role and subject named',
      user: user('alice'),
      req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'x' },
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"',
    },
    {
      name: 'through a group',
      user: user('carol', ['ops']),
      req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods' },
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "ops"',
    },
    {
      name: 'a role binding names binding/namespace and the service account as name/namespace',
      user: user('system:serviceaccount:ns1:app', ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']),
      req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'configmaps', namespace: 'ns1' },
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "cm-binding/ns1" of Role "cm" to ServiceAccount "app/ns1"',
    },
    {
      name: 'a role binding of a cluster role grants its rules in the binding\'s namespace only',
      user: user('system:serviceaccount:ci:ci'),
      req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'ns1' },
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "pods-here/ns1" of ClusterRole "pod-reader" to ServiceAccount "ci/ci"',
    },
    { name: '… and not in another namespace', user: user('system:serviceaccount:ci:ci'), req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'ns2' }, allowed: false, reason: '' },
    {
      name: 'a binding to a missing role: no opinion, with the lister\'s not-found error',
      user: user('bob'),
      req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods' },
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
    },
    {
      name: 'several resolution errors are aggregated, cluster bindings first',
      user: user('bob'),
      req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'ns1' },
      allowed: false,
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, role.rbac.authorization.k8s.io "nothing" not found]',
    },
    {
      name: 'a non-resource URL',
      user: user('prom', ['system:monitoring']),
      req: { verb: 'get', resourceRequest: false, path: '/metrics' },
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "urls" to Group "system:monitoring"',
    },
    { name: 'nobody bound: no opinion, no reason', user: user('dave'), req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods' }, allowed: false, reason: '' },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(authorizeRBAC(objects, r.user, r.req), { allowed: r.allowed, reason: r.reason }));

  test('rulesFor: cluster-wide rules, then the namespace\'s, with resolution errors', () => {
    const got = rulesFor(objects, user('bob', ['ops']), 'ns1');
    assert.deepEqual(got.rules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);
    assert.deepEqual(got.errors, ['clusterrole.rbac.authorization.k8s.io "missing" not found', 'role.rbac.authorization.k8s.io "nothing" not found']);
  });
});

describe('confirmNoEscalation', () => {
  const objects = staticRBACObjects(
    [cr('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }])],
    [crb('readers', 'pod-reader', [U('alice')]), crb('gone', 'missing', [U('bob')])],
  );
  test('rules the user holds may be granted', () => {
    assert.equal(confirmNoEscalation(objects, user('alice'), 'ns1', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), undefined);
  });
  test('the missing rules, compacted and sorted, in upstream\'s message', () => {
    const got = confirmNoEscalation(objects, user('alice', ['system:authenticated']), 'ns1', [{ verbs: ['get', 'delete', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] }]);
    assert.equal(
      got,
      'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "watch"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "watch"]}',
    );
  });
  test('resolution errors follow, as the registry\'s getters word them', () => {
    const got = confirmNoEscalation(objects, user('bob'), '', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    assert.equal(got, 'user "bob" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "missing" not found]');
  });
});

describe('bootstrap policy', () => {
  const bootstrap = staticRBACObjects(bootstrapClusterRoles(), bootstrapClusterRoleBindings());
  const authenticated = user('someone', ['system:authenticated']);
  const rows: { name: string; user: RBACUser; req: Parameters<typeof authorizeRBAC>[2]; reason: string }[] = [
    { name: 'system:masters is cluster-admin', user: user('admin', ['system:masters']), req: { verb: 'delete', resourceRequest: true, apiGroup: 'apps', resource: 'deployments' }, reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"' },
    { name: 'every authenticated user may review itself', user: authenticated, req: { verb: 'create', resourceRequest: true, apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"' },
    { name: 'discovery, by name order first', user: authenticated, req: { verb: 'get', resourceRequest: false, path: '/version' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' },
    { name: 'the unauthenticated see the public info', user: user('system:anonymous', ['system:unauthenticated']), req: { verb: 'get', resourceRequest: false, path: '/readyz' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"' },
    { name: 'nothing else', user: authenticated, req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'default' }, reason: '' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(authorizeRBAC(bootstrap, r.user, r.req).reason, r.reason));

  test('admin aggregates edit, which aggregates view: admin holds all three parts', () => {
    const admin = aggregateAll(bootstrapClusterRoles()).find((r) => r.metadata!.name === 'admin')!.rules!;
    const has = (verb: string, group: string, resource: string) => admin.some((rule) => rule.verbs.includes(verb) && rule.apiGroups?.includes(group) && rule.resources?.includes(resource));
    assert.ok(has('create', G, 'rolebindings'), 'aggregate-to-admin');
    assert.ok(has('create', 'apps', 'deployments'), 'aggregate-to-edit');
    assert.ok(has('list', 'batch', 'jobs'), 'aggregate-to-view');
  });
});

describe('aggregation (clusterroleaggregation)', () => {
  const a = cr('a', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { agg: 'x' });
  const b = cr('b', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }], { agg: 'x' });
  const c = cr('c', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], { other: 'y' });
  const rows: { name: string; role: ClusterRole; all: ClusterRole[]; want: PolicyRule[] | undefined }[] = [
    { name: 'no aggregationRule: nothing to write', role: cr('plain', []), all: [a, b], want: undefined },
    { name: 'the matching roles\' rules, by role name, each rule once', role: cr('agg', null, undefined, [{ agg: 'x' }]), all: [b, c, a], want: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }] },
    { name: 'selector by selector', role: cr('agg', null, undefined, [{ other: 'y' }, { agg: 'x' }]), all: [a, b, c], want: [...c.rules!, ...b.rules!] },
    { name: 'a role never aggregates itself', role: cr('a', [], { agg: 'x' }, [{ agg: 'x' }]), all: [a, b], want: b.rules },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(aggregatedRules(r.role, r.all), r.want));
  test('null and empty rules are alike: no write when nothing matches', () => {
    assert.equal(aggregationChanges(cr('agg', null, undefined, [{ none: 'z' }]), []), false);
    assert.equal(aggregationChanges(cr('agg', null, undefined, [{ agg: 'x' }]), a.rules!), true);
  });
});

describe('reconcile (EnsureRBACPolicy, union)', () => {
  const expected = bootstrapClusterRoles().find((r) => r.metadata!.name === 'system:basic-user')!;
  test('a current role: nothing to write', () => assert.deepEqual(reconcileClusterRole(structuredClone(expected), expected), { op: 'none' }));
  test('missing rules are added, broken down; extra rules and labels stay', () => {
    const existing: ClusterRole = { ...structuredClone(expected), metadata: { ...expected.metadata, labels: { mine: 'yes' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, expected.rules![1]!] };
    const r = reconcileClusterRole(existing, expected);
    assert.equal(r.op, 'update');
    const obj = (r as { obj: ClusterRole }).obj;
    assert.deepEqual(obj.metadata!.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults', mine: 'yes' });
    assert.deepEqual(obj.rules!.slice(0, 2), existing.rules);
    assert.deepEqual(obj.rules!.slice(2), [
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'], verbs: ['create'] },
    ]);
  });
  test('autoupdate=false protects a role', () => {
    const existing: ClusterRole = { ...expected, metadata: { ...expected.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] };
    assert.deepEqual(reconcileClusterRole(existing, expected), { op: 'none' });
  });
  const binding = bootstrapClusterRoleBindings().find((b) => b.metadata!.name === 'system:public-info-viewer')!;
  test('a binding missing a subject gets it appended; others kept', () => {
    const existing = { ...structuredClone(binding), subjects: [U('extra'), binding.subjects![1]!] };
    const r = reconcileClusterRoleBinding(existing, binding);
    assert.equal(r.op, 'update');
    assert.deepEqual((r as { obj: ClusterRoleBinding }).obj.subjects, [U('extra'), binding.subjects![1], binding.subjects![0]]);
  });
  test('a binding to another role is recreated', () => {
    const existing = { ...structuredClone(binding), roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'other' } };
    assert.deepEqual(reconcileClusterRoleBinding(existing, binding), { op: 'recreate', obj: binding });
  });
});
