// The access-review APIs over HTTP: SelfSubjectAccessReview, SelfSubjectRulesReview,
// SelfSubjectReview, SubjectAccessReview, LocalSubjectAccessReview and TokenReview answers,
// validation, create-only and unstored, in discovery and OpenAPI.
// (That each answer agrees with what the server enforces is pinned in identity.test.ts.)

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const ssarPath = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const ssrrPath = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const ssrPath = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const ssar = (spec: unknown, metadata?: unknown) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', ...(metadata ? { metadata } : {}), spec });
const res = (attrs: Record<string, string>) => ssar({ resourceAttributes: attrs });

type Who = 'admin' | 'n1' | 'jane' | 'anonymous';

describe('access reviews', () => {
  let s: RunningServer;
  let dir: string;
  const c = {} as Record<Who, Client>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-reviews-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    c.admin = new Client(s.url, s.caCert, s.adminToken);
    c.n1 = new Client(s.url, s.caCert, s.nodeToken('n1'));
    c.jane = new Client(s.url, s.caCert, s.tokens.ensure('jane', []));
    c.anonymous = new Client(s.url, s.caCert);
    const pod = (name: string, nodeName: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } });
    for (const [name, node] of [['mine', 'n1'], ['theirs', 'n2']]) {
      const r = await c.admin.request('POST', '/api/v1/namespaces/default/pods', pod(name!, node!));
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    for (const x of Object.values(c)) x?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const answers: { name: string; who: Who; body: unknown; status: Record<string, unknown> }[] = [
    { name: 'system:masters may do anything (the privileged group gives no reason)', who: 'admin', body: res({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'x' }), status: { allowed: true } },
    { name: 'every authenticated user may ask (RBAC system:basic-user, with its reason)', who: 'jane', body: res({ verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }), status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"' } },
    { name: 'a plain user may not list pods (no reason)', who: 'jane', body: res({ verb: 'list', resource: 'pods', namespace: 'default' }), status: { allowed: false } },
    { name: 'a node may not list leases (the node authorizer\'s reason)', who: 'n1', body: res({ verb: 'list', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' }), status: { allowed: false, reason: 'can only get, create, update, patch, or delete a node lease' } },
    { name: 'a node may get its own lease', who: 'n1', body: res({ verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1' }), status: { allowed: true } },
    { name: 'a node may list the pods bound to it (field selector)', who: 'n1', body: res({ verb: 'list', resource: 'pods', fieldSelector: { rawSelector: 'spec.nodeName=n1' } } as never), status: { allowed: true } },
    { name: 'a node may get a pod bound to it', who: 'n1', body: res({ verb: 'get', resource: 'pods', namespace: 'default', name: 'mine' }), status: { allowed: true } },
    { name: 'a node may not get a pod bound elsewhere', who: 'n1', body: res({ verb: 'get', resource: 'pods', namespace: 'default', name: 'theirs' }), status: { allowed: false, reason: "no relationship found between node 'n1' and this object" } },
    { name: 'a node may not read /metrics', who: 'n1', body: ssar({ nonResourceAttributes: { path: '/metrics', verb: 'get' } }), status: { allowed: false } },
    { name: 'any authenticated user may read discovery', who: 'jane', body: ssar({ nonResourceAttributes: { path: '/apis/coordination.k8s.io', verb: 'get' } }), status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' } },
  ];
  for (const a of answers) {
    it(`SelfSubjectAccessReview: ${a.name}`, async () => {
      const r = await c[a.who].request('POST', ssarPath, a.body);
      assert.equal(r.status, 201, r.text);
      const out = r.json();
      assert.equal(out.kind, 'SelfSubjectAccessReview');
      assert.deepEqual(out.spec, (a.body as { spec: unknown }).spec);
      assert.deepEqual(out.status, a.status);
    });
  }

  const refusals: { name: string; who: Who; method: string; path: string; body?: unknown; code: number; reason: string; message?: string }[] = [
    { name: 'neither attribute set is 422', who: 'jane', method: 'POST', path: ssarPath, body: ssar({}), code: 422, reason: 'Invalid', message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' },
    { name: 'both attributes set is 422', who: 'jane', method: 'POST', path: ssarPath, body: ssar({ resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/x', verb: 'get' } }), code: 422, reason: 'Invalid', message: '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes' },
    { name: 'metadata must be empty', who: 'jane', method: 'POST', path: ssarPath, body: ssar({ resourceAttributes: { verb: 'get', resource: 'pods' } }, { name: 'x' }), code: 422, reason: 'Invalid' },
    { name: 'a wrongly typed spec is 400', who: 'jane', method: 'POST', path: ssarPath, body: ssar('x'), code: 400, reason: 'BadRequest' },
    { name: 'a rules review needs a namespace', who: 'jane', method: 'POST', path: ssrrPath, body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} }, code: 400, reason: 'BadRequest', message: 'no namespace on request' },
    { name: 'reviews are create-only: list is 405 for admin', who: 'admin', method: 'GET', path: ssarPath, code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' },
    { name: 'reviews are create-only: no path below the collection is routed, a get of a name is 404', who: 'admin', method: 'GET', path: `${ssrPath}/x`, code: 404, reason: 'NotFound' },
    { name: 'and a plain user may not list them', who: 'jane', method: 'GET', path: ssarPath, code: 403, reason: 'Forbidden' },
    { name: 'anonymous may not ask', who: 'anonymous', method: 'POST', path: ssarPath, body: res({ verb: 'get', resource: 'pods' }), code: 401, reason: 'Unauthorized' },
  ];
  for (const f of refusals) {
    it(`refused: ${f.name}`, async () => {
      const r = await c[f.who].request(f.method, f.path, f.body);
      assert.equal(r.status, f.code, r.text);
      assert.equal(r.json().reason, f.reason);
      if (f.message) assert.equal(r.json().message, f.message);
    });
  }

  it('reviews are not stored', async () => {
    await c.jane.request('POST', ssarPath, res({ verb: 'get', resource: 'pods' }));
    for (const prefix of ['/registry/authorization.k8s.io/', '/registry/authentication.k8s.io/']) {
      assert.equal((await s.store.list(prefix)).items.length, 0, prefix);
    }
  });

  it('SelfSubjectRulesReview: an admin gets cluster-admin\'s rules, complete', async () => {
    const r = await c.admin.request('POST', ssrrPath, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } });
    assert.equal(r.status, 201, r.text);
    const st = r.json().status;
    assert.deepEqual(st.resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    assert.deepEqual(st.nonResourceRules[0], { verbs: ['*'], nonResourceURLs: ['*'] });
    assert.equal(st.incomplete, false);
  });

  it('SelfSubjectRulesReview: a node\'s list is incomplete, as the node authorizer does not enumerate', async () => {
    const r = await c.n1.request('POST', ssrrPath, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } });
    const st = r.json().status;
    assert.equal(st.incomplete, true);
    assert.equal(st.evaluationError, 'node authorizer does not support user rule resolution');
    assert.ok(st.resourceRules.some((x: { resources: string[] }) => x.resources.includes('selfsubjectaccessreviews')));
  });

  const whoami: [Who, string, string[]][] = [
    ['admin', 'bulkhead-admin', ['system:masters', 'system:authenticated']],
    ['n1', 'system:node:n1', ['system:nodes', 'system:authenticated']],
    ['jane', 'jane', ['system:authenticated']],
  ];
  for (const [w, username, groups] of whoami) {
    it(`SelfSubjectReview names ${username}`, async () => {
      const r = await c[w].request('POST', ssrPath, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json().status.userInfo, { username, groups });
    });
  }

  it('discovery (legacy and aggregated) and OpenAPI v3 list the reviews as create-only', async () => {
    const legacy = (await c.jane.request('GET', '/apis/authorization.k8s.io/v1')).json();
    assert.deepEqual(legacy.resources.map((r: { name: string; namespaced: boolean; verbs: string[] }) => [r.name, r.namespaced, r.verbs]), [
      ['localsubjectaccessreviews', true, ['create']],
      ['selfsubjectaccessreviews', false, ['create']],
      ['selfsubjectrulesreviews', false, ['create']],
      ['subjectaccessreviews', false, ['create']],
    ]);
    const groups = (await c.jane.request('GET', '/apis')).json().groups.map((g: { name: string }) => g.name);
    assert.ok(groups.includes('authorization.k8s.io') && groups.includes('authentication.k8s.io'), groups.join());
    const agg = (await c.jane.request('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json();
    const authn = agg.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'authentication.k8s.io');
    assert.deepEqual(authn.versions[0].resources.map((r: { resource: string; verbs: string[] }) => [r.resource, r.verbs]), [['selfsubjectreviews', ['create']], ['tokenreviews', ['create']]]);
    const index = (await c.jane.request('GET', '/openapi/v3')).json();
    for (const gv of ['apis/authorization.k8s.io/v1', 'apis/authentication.k8s.io/v1']) {
      const url = index.paths[gv]?.serverRelativeURL;
      assert.ok(url, gv);
      const doc = (await c.jane.request('GET', url)).json();
      const paths = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([p]) => /selfsubject|localsubject/.test(p));
      assert.ok(paths.length > 0 && paths.every(([, ops]) => !ops.get && !ops.put && !ops.patch && !ops.delete && ops.post), JSON.stringify(paths.map(([p]) => p)));
    }
  });

  // What a delegating server (the agent's endpoint) asks: who a token is, and may a user do it.
  const sarPath = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
  const trPath = '/apis/authentication.k8s.io/v1/tokenreviews';
  const sar = (spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
  const nodeProxy = (verb = 'get', subresource = 'proxy') => ({ resourceAttributes: { verb, resource: 'nodes', subresource, name: 'n1', version: 'v1' } });
  const sarRows: { name: string; who: Who; spec: Record<string, unknown>; code: number; status?: Record<string, unknown>; message?: string }[] = [
    { name: 'the API server\'s kubelet client identity may use every part of the agent (system:kubelet-api-admin)', who: 'n1', spec: { user: 'kube-apiserver-kubelet-client', groups: ['system:authenticated'], ...nodeProxy('create') }, code: 201, status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-apiserver-kubelet-client" of ClusterRole "system:kubelet-api-admin" to User "kube-apiserver-kubelet-client"' } },
    { name: 'and nodes/metrics', who: 'n1', spec: { user: 'kube-apiserver-kubelet-client', groups: [], ...nodeProxy('get', 'metrics') }, code: 201, status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-apiserver-kubelet-client" of ClusterRole "system:kubelet-api-admin" to User "kube-apiserver-kubelet-client"' } },
    { name: 'the admin group may', who: 'n1', spec: { user: 'bulkhead-admin', groups: ['system:masters'], ...nodeProxy() }, code: 201, status: { allowed: true } },
    { name: 'a user without a binding may not', who: 'n1', spec: { user: 'jane', groups: ['system:authenticated'], ...nodeProxy() }, code: 201, status: { allowed: false } },
    { name: 'a pod\'s service account may not', who: 'n1', spec: { user: 'system:serviceaccount:default:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'], ...nodeProxy() }, code: 201, status: { allowed: false } },
    { name: 'a node may not proxy to itself', who: 'admin', spec: { user: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], ...nodeProxy() }, code: 201, status: { allowed: false } },
    { name: 'a review needs a user or a group', who: 'admin', spec: nodeProxy(), code: 422, message: '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified' },
    { name: 'the spec\'s errors come before the metadata\'s (ValidateSubjectAccessReview)', who: 'admin', spec: {}, code: 422, message: '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified, metadata: Invalid value: must be empty]' },
    { name: 'a node may ask (NodeRules)', who: 'n1', spec: { user: 'jane', ...nodeProxy() }, code: 201, status: { allowed: false } },
    { name: 'a user without the right may not ask', who: 'jane', spec: { user: 'jane', ...nodeProxy() }, code: 403, message: 'subjectaccessreviews.authorization.k8s.io is forbidden: User "jane" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope' },
  ];
  for (const r of sarRows) {
    it(`SubjectAccessReview: ${r.name}`, async () => {
      const got = await c[r.who].request('POST', sarPath, { ...sar(r.spec), ...(r.spec.user === undefined && !r.spec.resourceAttributes ? { metadata: { name: 'x' } } : {}) });
      assert.equal(got.status, r.code, got.text);
      const body = got.json();
      if (r.status) {
        assert.deepEqual(body.status, r.status);
        assert.deepEqual([body.kind, body.apiVersion], ['SubjectAccessReview', 'authorization.k8s.io/v1']);
      }
      if (r.message) assert.equal(body.message, r.message);
    });
  }

  // LocalSubjectAccessReview (localsubjectaccessreview/rest.go, ValidateLocalSubjectAccessReview):
  // a SubjectAccessReview in the path's namespace, which a namespace's admin may ask.
  const lsarPath = (ns: string) => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;
  const lsar = (spec: Record<string, unknown>, metadata?: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', ...(metadata ? { metadata } : {}), spec });
  const inNs = (namespace: string, verb = 'list') => ({ resourceAttributes: { namespace, verb, resource: 'pods' } });
  const lsarRows: { name: string; who: Who; ns: string; body: unknown; code: number; status?: Record<string, unknown>; message?: string }[] = [
    { name: 'system:masters may ask about anyone in a namespace', who: 'admin', ns: 'default', body: lsar({ user: 'bob', ...inNs('default') }), code: 201, status: { allowed: false } },
    { name: 'the answer reads the namespace\'s role bindings', who: 'admin', ns: 'default', body: lsar({ user: 'jane', ...inNs('default') }), code: 201, status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "jane-admin/default" of ClusterRole "admin" to User "jane"' } },
    { name: 'a namespace admin may ask there (system:aggregate-to-admin)', who: 'jane', ns: 'default', body: lsar({ user: 'bob', ...inNs('default', 'get') }), code: 201, status: { allowed: false } },
    { name: 'and not in another namespace', who: 'jane', ns: 'kube-system', body: lsar({ user: 'bob', ...inNs('kube-system') }), code: 403, message: 'localsubjectaccessreviews.authorization.k8s.io is forbidden: User "jane" cannot create resource "localsubjectaccessreviews" in API group "authorization.k8s.io" in the namespace "kube-system"' },
    { name: 'a namespace that does not exist is no error (NamespaceLifecycle lets access reviews through)', who: 'admin', ns: 'nowhere', body: lsar({ user: 'bob', ...inNs('nowhere') }), code: 201, status: { allowed: false } },
    { name: 'resourceAttributes.namespace must be the path\'s', who: 'admin', ns: 'default', body: lsar({ user: 'bob', ...inNs('other') }), code: 422, message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace' },
    { name: 'an empty resourceAttributes.namespace does not match either', who: 'admin', ns: 'default', body: lsar({ user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } }), code: 422, message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace' },
    { name: 'nonResourceAttributes are disallowed', who: 'admin', ns: 'default', body: lsar({ user: 'bob', nonResourceAttributes: { path: '/healthz', verb: 'get' } }), code: 422, message: '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: disallowed on this kind of request' },
    { name: 'a user or a group is needed, and metadata may hold only the namespace', who: 'admin', ns: 'default', body: lsar(inNs('default'), { name: 'x' }), code: 422, message: '.authorization.k8s.io "" is invalid: [spec.user: Invalid value: "": at least one of user or group must be specified, metadata: Invalid value: must be empty except for namespace]' },
    { name: 'metadata.namespace other than the path\'s is the create handler\'s 400', who: 'admin', ns: 'default', body: lsar({ user: 'bob', ...inNs('default') }, { namespace: 'other' }), code: 400, message: 'the namespace of the provided object does not match the namespace sent on the request' },
  ];
  for (const r of lsarRows) {
    it(`LocalSubjectAccessReview: ${r.name}`, async () => {
      if (!lsarBinding) {
        lsarBinding = true;
        const b = await c.admin.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'jane-admin' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', name: 'jane' }] });
        assert.equal(b.status, 201, b.text);
      }
      const got = await c[r.who].request('POST', lsarPath(r.ns), r.body);
      assert.equal(got.status, r.code, got.text);
      const body = got.json();
      if (r.status) {
        assert.deepEqual(body.status, r.status);
        assert.deepEqual([body.kind, body.apiVersion, body.metadata.namespace], ['LocalSubjectAccessReview', 'authorization.k8s.io/v1', r.ns]);
        assert.deepEqual(body.spec, (r.body as { spec: unknown }).spec);
      }
      if (r.message) assert.equal(body.message, r.message);
    });
  }
  let lsarBinding = false;

  const trRows: { name: string; who: Who; token: () => string; audiences?: string[]; code: number; status?: Record<string, unknown>; message?: string }[] = [
    { name: 'a known token is its user, with the API server\'s audiences', who: 'n1', token: () => s.tokens.ensure('jane', []), code: 201, status: { authenticated: true, user: { username: 'jane', groups: ['system:authenticated'] }, audiences: ['https://kubernetes.default.svc.cluster.local'] } },
    { name: 'the audiences asked for are the audiences answered (tokens are audience-agnostic)', who: 'n1', token: () => s.adminToken, audiences: ['a', 'b'], code: 201, status: { authenticated: true, user: { username: 'bulkhead-admin', groups: ['system:masters', 'system:authenticated'] }, audiences: ['a', 'b'] } },
    { name: 'an unknown token is not authenticated', who: 'n1', token: () => 'nope', code: 201, status: { user: {} } },
    { name: 'no token is a 400', who: 'n1', token: () => '', code: 400, message: 'token is required for TokenReview in authentication' },
    { name: 'a user without the right may not ask', who: 'jane', token: () => 'nope', code: 403, message: 'tokenreviews.authentication.k8s.io is forbidden: User "jane" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope' },
  ];
  for (const r of trRows) {
    it(`TokenReview: ${r.name}`, async () => {
      const got = await c[r.who].request('POST', trPath, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: r.token(), ...(r.audiences ? { audiences: r.audiences } : {}) } });
      assert.equal(got.status, r.code, got.text);
      const body = got.json();
      if (r.status) assert.deepEqual(body.status, r.status);
      if (r.message) assert.equal(body.message, r.message);
    });
  }
});
