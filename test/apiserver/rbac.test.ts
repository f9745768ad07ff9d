// rbac.authorization.k8s.io/v1 served and enforced, through HTTP and the real kubectl: the four
// kinds created by kubectl's generators (protobuf bodies) and by apply, their tables, upstream's
// validation answers, the authorizer reading the stored bindings (kubectl auth can-i for a service
// account before and after a binding, --list), the escalation check with its message and the
// escalate and bind verbs, the aggregationRule's cluster-admin check, PUT creating a missing
// object, the bootstrap policy and aggregation (admin holds edit's and view's rules).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from './childserver.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer } from './kubectlserver.js';

const G = 'rbac.authorization.k8s.io';
const sa = (ns: string, name: string) => ({ 'Impersonate-User': `system:serviceaccount:${ns}:${name}`, 'Impersonate-Group': ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });

const manifest = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: team}
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: team}
subjects:
- kind: ServiceAccount
  name: app
roleRef: {kind: Role, name: reader, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: node-reader}
rules:
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: node-reader}
subjects:
- kind: User
  name: alice
- kind: Group
  name: ops
roleRef: {kind: ClusterRole, name: node-reader, apiGroup: rbac.authorization.k8s.io}
`;

describe('RBAC with kubectl', { skip: kubectlFound ? false : kubectlSkip }, () => {
  const t = useTestServer('bulkhead-rbac-');
  const kubectl = (...args: string[]) => t.kubectl(...args);
  const apply = async (yaml: string) => {
    const { writeFileSync } = await import('node:fs');
    const file = `${t.dir()}/rbac-${Math.random().toString(36).slice(2)}.yaml`;
    writeFileSync(file, yaml);
    return kubectl('apply', '-f', file);
  };

  it('discovery lists the four resources, none with a short name', async () => {
    const r = await kubectl('api-resources', `--api-group=${G}`, '--no-headers');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(tableRows(r.stdout), [
      ['clusterrolebindings', `${G}/v1`, 'false', 'ClusterRoleBinding'],
      ['clusterroles', `${G}/v1`, 'false', 'ClusterRole'],
      ['rolebindings', `${G}/v1`, 'true', 'RoleBinding'],
      ['roles', `${G}/v1`, 'true', 'Role'],
    ]);
  });

  it('kubectl create role, rolebinding, clusterrole and clusterrolebinding', async () => {
    assert.equal((await kubectl('create', 'namespace', 'gen')).code, 0);
    for (const args of [
      ['create', 'role', 'pod-reader', '-n', 'gen', '--verb=get,list', '--resource=pods'],
      ['create', 'rolebinding', 'pod-reader', '-n', 'gen', '--role=pod-reader', '--serviceaccount=gen:app', '--user=bob'],
      ['create', 'clusterrole', 'secret-reader', '--verb=get', '--resource=secrets', '--resource-name=s1'],
      ['create', 'clusterrolebinding', 'secret-reader', '--clusterrole=secret-reader', '--group=readers'],
    ]) {
      const r = await kubectl(...args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const role = JSON.parse((await kubectl('get', 'role', 'pod-reader', '-n', 'gen', '-o', 'json')).stdout);
    assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    const rb = JSON.parse((await kubectl('get', 'rolebinding', 'pod-reader', '-n', 'gen', '-o', 'json')).stdout);
    assert.deepEqual(rb.roleRef, { apiGroup: G, kind: 'Role', name: 'pod-reader' });
    assert.deepEqual(rb.subjects, [{ apiGroup: G, kind: 'User', name: 'bob' }, { kind: 'ServiceAccount', name: 'app', namespace: 'gen' }]);
    const cr = JSON.parse((await kubectl('get', 'clusterrole', 'secret-reader', '-o', 'json')).stdout);
    assert.deepEqual(cr.rules, [{ apiGroups: [''], resourceNames: ['s1'], resources: ['secrets'], verbs: ['get'] }]);
  });

  it('tables: NAME CREATED AT for roles; NAME ROLE AGE and, wide, USERS GROUPS SERVICEACCOUNTS for bindings', async () => {
    const roles = tableRows((await kubectl('get', 'roles', '-n', 'gen')).stdout);
    assert.deepEqual(roles[0], ['NAME', 'CREATED AT']);
    assert.equal(roles[1]![0], 'pod-reader');
    assert.match(roles[1]![1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const rbs = tableRows((await kubectl('get', 'rolebindings', '-n', 'gen', '-o', 'wide')).stdout);
    assert.deepEqual(rbs[0], ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    assert.deepEqual([rbs[1]![0], rbs[1]![1], rbs[1]![3], rbs[1]![4]], ['pod-reader', 'Role/pod-reader', 'bob', 'gen/app']);
    const crbs = (await kubectl('get', 'clusterrolebinding', 'secret-reader', 'cluster-admin', '-o', 'wide')).stdout.split('\n');
    assert.match(crbs[0]!, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/);
    assert.match(crbs[1]!, /^secret-reader\s+ClusterRole\/secret-reader\s+\S+\s+readers\s*$/);
    assert.match(crbs[2]!, /^cluster-admin\s+ClusterRole\/cluster-admin\s+\S+\s+system:masters\s*$/);
    const crs = tableRows((await kubectl('get', 'clusterroles', 'view')).stdout);
    assert.deepEqual(crs[0], ['NAME', 'CREATED AT']);
  });

  it('kubectl apply -f of a manifest with all four kinds', async () => {
    assert.equal((await kubectl('create', 'namespace', 'team')).code, 0);
    const r = await apply(manifest);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      `role.${G}/reader created`,
      `rolebinding.${G}/reader created`,
      `clusterrole.${G}/node-reader created`,
      `clusterrolebinding.${G}/node-reader created`,
    ]);
    const again = await apply(manifest);
    assert.equal(again.code, 0, again.stderr);
    // The binding's User and Group subjects leave apiGroup to the server's default, so kubectl's
    // three-way patch of that atomic list is not empty; the others are unchanged.
    assert.deepEqual(again.stdout.trim().split('\n').slice(0, 3), [`role.${G}/reader unchanged`, `rolebinding.${G}/reader unchanged`, `clusterrole.${G}/node-reader unchanged`]);
    const crb = JSON.parse((await kubectl('get', 'clusterrolebinding', 'node-reader', '-o', 'json')).stdout);
    assert.deepEqual(crb.subjects, [{ apiGroup: G, kind: 'User', name: 'alice' }, { apiGroup: G, kind: 'Group', name: 'ops' }]);
  });

  it('kubectl auth can-i for a service account: no before its binding, yes after, only in the binding\'s namespace', async () => {
    const canI = (...args: string[]) => kubectl('auth', 'can-i', ...args, '--as=system:serviceaccount:gen:deployer');
    assert.equal((await canI('list', 'secrets', '-n', 'gen')).stdout.trim(), 'no');
    assert.equal((await kubectl('create', 'role', 'secrets', '-n', 'gen', '--verb=list', '--resource=secrets')).code, 0);
    assert.equal((await kubectl('create', 'rolebinding', 'deployer-secrets', '-n', 'gen', '--role=secrets', '--serviceaccount=gen:deployer')).code, 0);
    const yes = await canI('list', 'secrets', '-n', 'gen');
    assert.equal(yes.stdout.trim(), 'yes', yes.stderr);
    assert.equal((await canI('list', 'secrets', '-n', 'team')).stdout.trim(), 'no');
    // Group bindings reach the service account through system:serviceaccounts:<ns>.
    assert.equal((await kubectl('create', 'clusterrolebinding', 'gen-sas-nodes', '--clusterrole=node-reader', '--group=system:serviceaccounts:gen')).code, 0);
    assert.equal((await canI('list', 'nodes')).stdout.trim(), 'yes');
    // Deleting the binding takes the right away.
    assert.equal((await kubectl('delete', 'rolebinding', 'deployer-secrets', '-n', 'gen')).code, 0);
    assert.equal((await canI('list', 'secrets', '-n', 'gen')).stdout.trim(), 'no');
  });

  it('kubectl auth can-i --list reads the role bindings of the namespace asked about', async () => {
    const r = await kubectl('auth', 'can-i', '--list', '-n', 'team', '--as=system:serviceaccount:team:app');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    const elsewhere = await kubectl('auth', 'can-i', '--list', '-n', 'gen', '--as=system:serviceaccount:team:app');
    assert.doesNotMatch(elsewhere.stdout, /^configmaps/m);
  });

  it('the allowed reason names the binding (SubjectAccessReview)', async () => {
    const r = await t.admin().request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'system:serviceaccount:team:app', groups: ['system:serviceaccounts'], resourceAttributes: { namespace: 'team', verb: 'get', resource: 'configmaps' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "reader/team" of Role "reader" to ServiceAccount "app/team"' });
  });

  it('aggregation: admin holds aggregate-to-admin, edit and view rules; a new aggregate-to-view role joins them', async () => {
    const rules = async (name: string) => JSON.parse((await kubectl('get', 'clusterrole', name, '-o', 'json')).stdout).rules ?? [];
    await waitFor('admin aggregated', async () => (await rules('admin')).some((r: { resources?: string[] }) => r.resources?.includes('jobs')));
    const r = await apply(`apiVersion: ${G}/v1\nkind: ClusterRole\nmetadata:\n  name: widgets-view\n  labels: {${G}/aggregate-to-view: "true"}\nrules:\n- apiGroups: [example.com]\n  resources: [widgets]\n  verbs: [get]\n`);
    assert.equal(r.code, 0, r.stderr);
    for (const role of ['view', 'edit', 'admin']) {
      await waitFor(`${role} holds widgets`, async () => (await rules(role)).some((x: { resources?: string[] }) => x.resources?.includes('widgets')));
    }
  });

  it('escalation: a namespace admin may grant what it holds, not more, with upstream\'s message', async () => {
    assert.equal((await kubectl('create', 'rolebinding', 'boss', '-n', 'gen', '--clusterrole=admin', '--serviceaccount=gen:boss')).code, 0);
    const as = '--as=system:serviceaccount:gen:boss';
    const ok = await kubectl('create', 'role', 'small', '-n', 'gen', '--verb=get', '--resource=pods', as);
    assert.equal(ok.code, 0, ok.stderr);
    const big = await kubectl('create', 'role', 'big', '-n', 'gen', '--verb=*', '--resource=nodes', as);
    assert.notEqual(big.code, 0);
    assert.equal(
      big.stderr.trim(),
      `Error from server (Forbidden): roles.${G} "big" is forbidden: user "system:serviceaccount:gen:boss" (groups=["system:serviceaccounts" "system:serviceaccounts:gen" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["*"]}`,
    );
    const bind = await kubectl('create', 'rolebinding', 'sneaky', '-n', 'gen', '--clusterrole=cluster-admin', '--user=mallory', as);
    assert.notEqual(bind.code, 0);
    assert.match(bind.stderr, /rolebindings\.rbac\.authorization\.k8s\.io "sneaky" is forbidden: user "system:serviceaccount:gen:boss" \(groups=\[.*\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}\n\{NonResourceURLs:\["\*"\], Verbs:\["\*"\]\}/);
    // Binding view (which admin holds) is fine.
    assert.equal((await kubectl('create', 'rolebinding', 'viewer', '-n', 'gen', '--clusterrole=view', '--user=mallory', as)).code, 0);
  });

  it('escalate and bind: the verbs that let a writer past the check', async () => {
    const admin = t.admin();
    const headers = sa('gen', 'delegate');
    const role = { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'all-nodes', namespace: 'gen' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['*'] }] };
    assert.equal((await kubectl('create', 'role', 'role-writer', '-n', 'gen', '--verb=create,update', `--resource=roles.${G},rolebindings.${G}`)).code, 0);
    assert.equal((await kubectl('create', 'rolebinding', 'delegate', '-n', 'gen', '--role=role-writer', '--serviceaccount=gen:delegate')).code, 0);
    let r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/roles`, role, headers);
    assert.equal(r.status, 403, r.text);
    assert.match(r.json().message, /is attempting to grant RBAC permissions not currently held/);
    assert.equal((await kubectl('create', 'role', 'escalator', '-n', 'gen', '--verb=escalate', `--resource=roles.${G}`)).code, 0);
    assert.equal((await kubectl('create', 'rolebinding', 'delegate-escalate', '-n', 'gen', '--role=escalator', '--serviceaccount=gen:delegate')).code, 0);
    r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/roles`, role, headers);
    assert.equal(r.status, 201, r.text);
    const binding = { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'nodes-to-x', namespace: 'gen' }, roleRef: { apiGroup: G, kind: 'Role', name: 'all-nodes' }, subjects: [{ kind: 'User', name: 'x' }] };
    r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/rolebindings`, binding, headers);
    assert.equal(r.status, 403, r.text);
    assert.equal((await kubectl('create', 'role', 'binder', '-n', 'gen', '--verb=bind', `--resource=roles.${G}`, '--resource-name=all-nodes')).code, 0);
    assert.equal((await kubectl('create', 'rolebinding', 'delegate-bind', '-n', 'gen', '--role=binder', '--serviceaccount=gen:delegate')).code, 0);
    r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/rolebindings`, binding, headers);
    assert.equal(r.status, 201, r.text);
    // A binding to a role that does not exist: the registry's NotFound as GetRoleReferenceRules
    // returns it (rolebinding/policybased/storage.go passes the error through).
    r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/rolebindings`, { ...binding, metadata: { name: 'to-nothing', namespace: 'gen' }, roleRef: { apiGroup: G, kind: 'Role', name: 'nothing' } }, headers);
    assert.equal(r.status, 404, r.text);
    assert.deepEqual([r.json().reason, r.json().message, r.json().details], ['NotFound', `roles.${G} "nothing" not found`, { name: 'nothing', group: G, kind: 'roles' }]);
    // An unsupported roleRef kind: validation's 422 (upstream's resolver fails with a 500 there).
    r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/rolebindings`, { ...binding, metadata: { name: 'odd', namespace: 'gen' }, roleRef: { apiGroup: G, kind: 'Widget', name: 'w' } }, headers);
    assert.equal(r.status, 422, r.text);
  });

  it('aggregationRule: setting one, or changing an aggregated role, takes cluster-admin\'s rights (clusterrole/policybased/storage.go)', async () => {
    const admin = t.admin();
    const headers = sa('gen', 'role-admin');
    assert.equal((await kubectl('create', 'clusterrole', 'clusterrole-writer', '--verb=create,update,get', `--resource=clusterroles.${G},pods`)).code, 0);
    assert.equal((await kubectl('create', 'clusterrolebinding', 'role-admin', '--clusterrole=clusterrole-writer', '--serviceaccount=gen:role-admin')).code, 0);
    const role = (name: string, extra: Record<string, unknown>) => ({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name }, ...extra });
    let r = await admin.request('POST', `/apis/${G}/v1/clusterroles`, role('pods-get', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }), headers);
    assert.equal(r.status, 201, r.text);
    const aggregating = role('gather', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { gather: 'true' } }] } });
    r = await admin.request('POST', `/apis/${G}/v1/clusterroles`, aggregating, headers);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json().message, `clusterroles.${G} "gather" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
    // The old object's aggregationRule counts on an update too: edit's cannot be dropped.
    const edit = (await admin.request('GET', `/apis/${G}/v1/clusterroles/edit`)).json();
    r = await admin.request('PUT', `/apis/${G}/v1/clusterroles/edit`, { ...edit, aggregationRule: null, rules: [] }, headers);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json().message, `clusterroles.${G} "edit" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
    // The escalate verb lets the writer past both checks.
    assert.equal((await kubectl('create', 'clusterrole', 'clusterrole-escalator', '--verb=escalate', `--resource=clusterroles.${G}`)).code, 0);
    assert.equal((await kubectl('create', 'clusterrolebinding', 'role-admin-escalate', '--clusterrole=clusterrole-escalator', '--serviceaccount=gen:role-admin')).code, 0);
    r = await admin.request('POST', `/apis/${G}/v1/clusterroles`, aggregating, headers);
    assert.equal(r.status, 201, r.text);
  });

  it('a binding\'s role looked up where the registry cannot (GetRoleReferenceRules through its key functions): 400', async () => {
    const admin = t.admin();
    const headers = sa('gen', 'binder-everywhere');
    assert.equal((await kubectl('create', 'clusterrole', 'crb-writer', '--verb=create', `--resource=clusterrolebindings.${G}`)).code, 0);
    assert.equal((await kubectl('create', 'clusterrolebinding', 'binder-everywhere', '--clusterrole=crb-writer', '--serviceaccount=gen:binder-everywhere')).code, 0);
    const rows: [Record<string, string>, string][] = [
      [{ apiGroup: G, kind: 'Role', name: 'x' }, 'Namespace parameter required.'],
      [{ apiGroup: G, kind: 'ClusterRole', name: '' }, 'Name parameter required.'],
      [{ apiGroup: G, kind: 'ClusterRole', name: 'a/b' }, 'Name parameter invalid: "a/b": may not contain \'/\''],
    ];
    for (const [roleRef, message] of rows) {
      const r = await admin.request('POST', `/apis/${G}/v1/clusterrolebindings`, { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'odd' }, roleRef, subjects: [{ kind: 'User', apiGroup: G, name: 'x' }] }, headers);
      assert.deepEqual([r.status, r.json().message], [400, message], r.text);
    }
  });

  it('PUT of a missing RBAC object creates it (the strategies\' AllowCreateOnUpdate), with the create\'s checks; other kinds still 404', async () => {
    const admin = t.admin();
    const { writeFileSync } = await import('node:fs');
    const file = `${t.dir()}/replace-role.yaml`;
    writeFileSync(file, `apiVersion: ${G}/v1\nkind: Role\nmetadata: {name: replaced, namespace: gen}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [list]\n`);
    const replaced = await kubectl('replace', '-f', file);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(replaced.stdout.trim(), `role.${G}/replaced replaced`);
    const got = JSON.parse((await kubectl('get', 'role', 'replaced', '-n', 'gen', '-o', 'json')).stdout);
    assert.deepEqual(got.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]);
    const binding = { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'put-created' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: G, name: 'pat' }] };
    let r = await admin.request('PUT', `/apis/${G}/v1/clusterrolebindings/put-created`, binding);
    assert.equal(r.status, 201, r.text);
    r = await admin.request('PUT', `/apis/${G}/v1/clusterrolebindings/put-created`, { ...(r.json() as object), subjects: [...binding.subjects, { kind: 'User', apiGroup: G, name: 'sam' }] });
    assert.equal(r.status, 200, r.text);
    // The create's validation and escalation check apply.
    r = await admin.request('PUT', `/apis/${G}/v1/namespaces/gen/roles/bad-put`, { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'bad-put' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] });
    assert.equal(r.status, 422, r.text);
    r = await admin.request('PUT', `/apis/${G}/v1/namespaces/gen/roles/too-much`, { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'too-much' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['*'] }] }, sa('gen', 'boss'));
    assert.equal(r.status, 403, r.text);
    assert.match(r.json().message, /is attempting to grant RBAC permissions not currently held/);
    r = await admin.request('PUT', '/api/v1/namespaces/gen/configmaps/missing', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing' } });
    assert.equal(r.status, 404, r.text);
  });

  it('validation answers 422 with upstream\'s paths and wording; roleRef cannot change', async () => {
    const admin = t.admin();
    let r = await admin.request('POST', `/apis/${G}/v1/namespaces/gen/roles`, { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'bad' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().message, `Role.${G} "bad" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs`);
    r = await admin.request('POST', `/apis/${G}/v1/clusterrolebindings`, { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'bad' }, roleRef: { apiGroup: G, kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().message, `ClusterRoleBinding.${G} "bad" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]`);
    const patch = await kubectl('patch', 'rolebinding', 'reader', '-n', 'team', '--type=merge', '-p', '{"roleRef":{"name":"other"}}');
    assert.notEqual(patch.code, 0);
    assert.equal(patch.stderr.trim(), `The RoleBinding "reader" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"Role", Name:"other"}: cannot change roleRef`);
  });
});
