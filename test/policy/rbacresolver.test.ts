// Which rules a user holds and what RBAC decides from them (pkg/registry/rbac/validation
// rule.go, plugin/pkg/auth/authorizer/rbac/rbac.go): appliesTo (rule_test.go TestAppliesTo's
// rows), the reason an allow names, the errors of roles that do not exist, the rules a review
// lists, ConfirmNoEscalation's message, the bootstrap policy (what its users, controllers' service
// accounts and kube-system/kube-public bindings may do), reconciliation and aggregation.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../src/api/rbactypes.js';
import { aggregateAll, aggregatedRules, aggregationChanges } from '../../src/policy/rbacaggregation.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles } from '../../src/policy/rbacbootstrap.js';
import { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from '../../src/api/validation/rbac.js';
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
  const bootstrap = staticRBACObjects(bootstrapClusterRoles(), bootstrapClusterRoleBindings(), bootstrapNamespaceRoles(), bootstrapNamespaceRoleBindings());
  const authenticated = user('someone', ['system:authenticated']);
  const rows: { name: string; user: RBACUser; req: Parameters<typeof authorizeRBAC>[2]; reason: string }[] = [
    { name: 'system:masters is cluster-admin', user: user('admin', ['system:masters']), req: { verb: 'delete', resourceRequest: true, apiGroup: 'apps', resource: 'deployments' }, reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"' },
    { name: 'every authenticated user may review itself', user: authenticated, req: { verb: 'create', resourceRequest: true, apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"' },
    { name: 'discovery, by name order first', user: authenticated, req: { verb: 'get', resourceRequest: false, path: '/version' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' },
    { name: 'the unauthenticated see the public info', user: user('system:anonymous', ['system:unauthenticated']), req: { verb: 'get', resourceRequest: false, path: '/readyz' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"' },
    { name: 'nothing else', user: authenticated, req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'default' }, reason: '' },
    // policy.go ClusterRoleBindings: the control plane components' users.
    { name: 'system:kube-scheduler binds pods (pods/binding)', user: user('system:kube-scheduler'), req: { verb: 'create', resourceRequest: true, apiGroup: '', resource: 'pods', subresource: 'binding', name: 'p', namespace: 'x' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"' },
    { name: 'system:kube-scheduler updates its own lease only (resourceNames)', user: user('system:kube-scheduler'), req: { verb: 'update', resourceRequest: true, apiGroup: 'coordination.k8s.io', resource: 'leases', name: 'kube-controller-manager', namespace: 'kube-system' }, reason: '' },
    { name: 'system:kube-scheduler patches PersistentVolumes (system:volume-scheduler)', user: user('system:kube-scheduler'), req: { verb: 'patch', resourceRequest: true, apiGroup: '', resource: 'persistentvolumes', name: 'pv' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:volume-scheduler" of ClusterRole "system:volume-scheduler" to User "system:kube-scheduler"' },
    { name: 'system:kube-controller-manager lists anything', user: user('system:kube-controller-manager'), req: { verb: 'list', resourceRequest: true, apiGroup: 'apps', resource: 'deployments' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-controller-manager" of ClusterRole "system:kube-controller-manager" to User "system:kube-controller-manager"' },
    { name: 'system:kube-proxy watches EndpointSlices (system:node-proxier)', user: user('system:kube-proxy'), req: { verb: 'watch', resourceRequest: true, apiGroup: 'discovery.k8s.io', resource: 'endpointslices' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:node-proxier" of ClusterRole "system:node-proxier" to User "system:kube-proxy"' },
    { name: 'kube-dns\'s service account lists services', user: user('system:serviceaccount:kube-system:kube-dns'), req: { verb: 'list', resourceRequest: true, apiGroup: '', resource: 'services' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-dns" of ClusterRole "system:kube-dns" to ServiceAccount "kube-dns/kube-system"' },
    { name: 'system:node\'s binding has no subjects: a node gets nothing from RBAC (the Node authorizer decides)', user: user('system:node:n1', ['system:nodes']), req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'services', namespace: 'x' }, reason: '' },
    { name: 'service accounts read OIDC discovery, the slash-ended URL too', user: user('system:serviceaccount:a:b', ['system:serviceaccounts']), req: { verb: 'get', resourceRequest: false, path: '/openid/v1/jwks/' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:service-account-issuer-discovery" of ClusterRole "system:service-account-issuer-discovery" to Group "system:serviceaccounts"' },
    // controller_policy.go: each controller's role bound to its kube-system service account.
    { name: 'the job controller\'s service account creates pods', user: user('system:serviceaccount:kube-system:job-controller'), req: { verb: 'create', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'x' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:controller:job-controller" of ClusterRole "system:controller:job-controller" to ServiceAccount "job-controller/kube-system"' },
    { name: 'and does not read secrets', user: user('system:serviceaccount:kube-system:job-controller'), req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'secrets', namespace: 'x' }, reason: '' },
    { name: 'the HPA controller scales anything (*/scale)', user: user('system:serviceaccount:kube-system:horizontal-pod-autoscaler'), req: { verb: 'update', resourceRequest: true, apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'd', namespace: 'x' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:controller:horizontal-pod-autoscaler" of ClusterRole "system:controller:horizontal-pod-autoscaler" to ServiceAccount "horizontal-pod-autoscaler/kube-system"' },
    { name: 'the aggregation controller may escalate cluster roles', user: user('system:serviceaccount:kube-system:clusterrole-aggregation-controller'), req: { verb: 'escalate', resourceRequest: true, apiGroup: G, resource: 'clusterroles', name: 'admin' }, reason: 'RBAC: allowed by ClusterRoleBinding "system:controller:clusterrole-aggregation-controller" of ClusterRole "system:controller:clusterrole-aggregation-controller" to ServiceAccount "clusterrole-aggregation-controller/kube-system"' },
    // namespace_policy.go: kube-system's and kube-public's roles and bindings.
    { name: 'the scheduler reads extension-apiserver-authentication in kube-system', user: user('system:kube-scheduler'), req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'configmaps', name: 'extension-apiserver-authentication', namespace: 'kube-system' }, reason: 'RBAC: allowed by RoleBinding "system::extension-apiserver-authentication-reader/kube-system" of Role "extension-apiserver-authentication-reader" to User "system:kube-scheduler"' },
    { name: 'and no other configmap there', user: user('system:kube-scheduler'), req: { verb: 'get', resourceRequest: true, apiGroup: '', resource: 'configmaps', name: 'other', namespace: 'kube-system' }, reason: '' },
    { name: 'the bootstrap signer updates kube-public\'s cluster-info', user: user('system:serviceaccount:kube-system:bootstrap-signer'), req: { verb: 'update', resourceRequest: true, apiGroup: '', resource: 'configmaps', name: 'cluster-info', namespace: 'kube-public' }, reason: 'RBAC: allowed by RoleBinding "system:controller:bootstrap-signer/kube-public" of Role "system:controller:bootstrap-signer" to ServiceAccount "bootstrap-signer/kube-system"' },
    { name: 'the leader-election controller takes kube-system leases', user: user('system:serviceaccount:kube-system:leader-election-controller'), req: { verb: 'create', resourceRequest: true, apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system' }, reason: 'RBAC: allowed by RoleBinding "system::leader-locking-kube-controller-manager/kube-system" of Role "system::leader-locking-kube-controller-manager" to ServiceAccount "leader-election-controller/kube-system"' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(authorizeRBAC(bootstrap, r.user, r.req).reason, r.reason));

  test('the policy\'s objects: upstream\'s names, each controller role bound to its kube-system service account', () => {
    const names = bootstrapClusterRoles().map((r) => r.metadata!.name!);
    for (const n of ['system:node', 'system:kube-scheduler', 'system:kube-controller-manager', 'system:node-proxier', 'system:kube-dns', 'system:volume-scheduler', 'system:persistent-volume-provisioner', 'system:heapster', 'system:kube-aggregator', 'system:node-problem-detector']) assert.ok(names.includes(n), n);
    assert.equal(new Set(names).size, names.length, 'names are unique');
    const controllers = names.filter((n) => n.startsWith('system:controller:'));
    assert.equal(controllers.length, 33);
    const bindings = new Map(bootstrapClusterRoleBindings().map((b) => [b.metadata!.name!, b]));
    for (const n of controllers) assert.deepEqual(bindings.get(n)?.subjects, [{ kind: 'ServiceAccount', name: n.slice('system:controller:'.length), namespace: 'kube-system' }], n);
    assert.equal(bindings.get('system:node')!.subjects, undefined);
    assert.deepEqual(bootstrapNamespaceRoles().map((r) => `${r.metadata!.namespace}/${r.metadata!.name}`).sort(), [
      'kube-public/system:controller:bootstrap-signer',
      'kube-system/extension-apiserver-authentication-reader',
      'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler',
      'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider',
      'kube-system/system:controller:token-cleaner',
    ]);
  });

  test('every object is valid, labelled and annotated as addDefaultMetadata does, its rules\' lists sorted as RuleOrDie sorts them', () => {
    const sorted = (v: string[] | undefined) => !v || v.every((x, i) => i === 0 || v[i - 1]! <= x);
    for (const r of bootstrapClusterRoles()) {
      assert.deepEqual(validateClusterRole(r), [], r.metadata!.name);
      for (const rule of r.rules ?? []) for (const k of ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) assert.ok(sorted(rule[k]), `${r.metadata!.name} ${k}`);
    }
    for (const r of bootstrapNamespaceRoles()) assert.deepEqual(validateRole(r), [], r.metadata!.name);
    for (const b of bootstrapClusterRoleBindings()) assert.deepEqual(validateClusterRoleBinding(b), [], b.metadata!.name);
    for (const b of bootstrapNamespaceRoleBindings()) assert.deepEqual(validateRoleBinding(b), [], b.metadata!.name);
    for (const o of [...bootstrapClusterRoles(), ...bootstrapClusterRoleBindings(), ...bootstrapNamespaceRoles(), ...bootstrapNamespaceRoleBindings()]) {
      assert.equal(o.metadata!.labels!['kubernetes.io/bootstrapping'], 'rbac-defaults');
      assert.deepEqual(o.metadata!.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    }
  });

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
  test('labels and annotations in another key order are no change (reflect.DeepEqual of maps)', () => {
    const edit = bootstrapClusterRoles().find((r) => r.metadata!.name === 'edit')!;
    const labels = Object.fromEntries(Object.entries(edit.metadata!.labels!).reverse());
    assert.notEqual(JSON.stringify(labels), JSON.stringify(edit.metadata!.labels));
    assert.deepEqual(reconcileClusterRole({ ...structuredClone(edit), metadata: { ...edit.metadata, labels } }, edit), { op: 'none' });
  });
  test('a namespace Role and RoleBinding reconcile as the cluster kinds do (RoleRuleOwner, RoleBindingAdapter)', () => {
    const role = bootstrapNamespaceRoles().find((r) => r.metadata!.name === 'system:controller:token-cleaner')!;
    const r = reconcileClusterRole({ ...structuredClone(role), rules: [role.rules![1]!] }, role);
    assert.equal(r.op, 'update');
    assert.equal((r as { obj: Role }).obj.metadata!.namespace, 'kube-system');
    assert.deepEqual((r as { obj: Role }).obj.rules!.slice(1).map((x) => x.verbs[0]), ['delete', 'get', 'list', 'watch']);
    const b = bootstrapNamespaceRoleBindings().find((x) => x.metadata!.name === 'system::leader-locking-kube-scheduler')!;
    assert.deepEqual(reconcileClusterRoleBinding(structuredClone(b), b), { op: 'none' });
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
