// User impersonation (Impersonate-* headers), as kube-apiserver's WithImpersonation filter:
// who the request then is (SelfSubjectReview, SelfSubjectAccessReview, what is enforced and
// admitted), who may impersonate (403s with upstream's wording), the 400 for groups, extras or
// a uid without a user, and the real kubectl's --as / --as-group. The refusals for groups, uids
// and extras, which nobody but system:masters may impersonate here, are pinned on the pure
// function with an authorizer that allows only some of them.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { impersonate, impersonationRequests, type HeaderValues } from '../../src/apiserver/impersonation.js';
import { upstreamHeaders } from '../../src/apiserver/nodeproxy.js';
import type { AuthorizationAttributes } from '../../src/apiserver/authorizer.js';
import { StatusError } from '../../src/apiserver/status.js';
import { Client } from './client.js';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

const ssarPath = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const ssrPath = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const ssr = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
const ssar = (attrs: Record<string, string>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } });

type Who = 'admin' | 'n1' | 'jane' | 'anonymous' | 'badtoken';
type Headers = Record<string, string | string[]>;

describe('impersonation', () => {
  const t = useTestServer('bulkhead-impersonation-');
  const clients = new Map<Who, Client>();
  const client = (who: Who): Client => {
    let c = clients.get(who);
    if (!c) {
      const s = t.server();
      const token = { admin: s.adminToken, n1: s.nodeToken('n1'), jane: s.tokens.ensure('jane', []), anonymous: undefined, badtoken: 'not-a-token' }[who];
      c = new Client(s.url, s.caCert, token);
      clients.set(who, c);
    }
    return c;
  };
  after(() => clients.forEach((c) => c.close()));

  const whoami: { name: string; who: Who; headers: Headers; userInfo: Record<string, unknown> }[] = [
    { name: 'no headers: the caller itself', who: 'admin', headers: {}, userInfo: { username: 'bulkhead-admin', groups: ['system:masters', 'system:authenticated'] } },
    { name: 'an empty Impersonate-User asks for nothing', who: 'jane', headers: { 'Impersonate-User': '' }, userInfo: { username: 'jane', groups: ['system:authenticated'] } },
    { name: 'a user gets system:authenticated and nothing of the caller', who: 'admin', headers: { 'Impersonate-User': 'alice' }, userInfo: { username: 'alice', groups: ['system:authenticated'] } },
    { name: 'the groups asked for, in order, then system:authenticated', who: 'admin', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': ['g1', 'g2'] }, userInfo: { username: 'alice', groups: ['g1', 'g2', 'system:authenticated'] } },
    { name: 'system:authenticated asked for is not added again', who: 'admin', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': ['system:authenticated', 'g'] }, userInfo: { username: 'alice', groups: ['system:authenticated', 'g'] } },
    // system:masters added where the user could not otherwise ask who it is (system:basic-user is bound to system:authenticated only)
    { name: 'system:unauthenticated asked for keeps system:authenticated out', who: 'admin', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': ['system:masters', 'system:unauthenticated'] }, userInfo: { username: 'alice', groups: ['system:masters', 'system:unauthenticated'] } },
    { name: 'system:anonymous gets system:unauthenticated after the groups, not system:authenticated', who: 'admin', headers: { 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': 'system:masters' }, userInfo: { username: 'system:anonymous', groups: ['system:masters', 'system:unauthenticated'] } },
    { name: 'system:anonymous with system:unauthenticated asked for gets it once', who: 'admin', headers: { 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': ['system:unauthenticated', 'system:masters'] }, userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated', 'system:masters'] } },
    { name: 'a service account gets its groups', who: 'admin', headers: { 'Impersonate-User': 'system:serviceaccount:default:builder' }, userInfo: { username: 'system:serviceaccount:default:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] } },
    { name: 'a service account with groups asked for gets those instead', who: 'admin', headers: { 'Impersonate-User': 'system:serviceaccount:default:builder', 'Impersonate-Group': 'g' }, userInfo: { username: 'system:serviceaccount:default:builder', groups: ['g', 'system:authenticated'] } },
    { name: 'a malformed service account name is a plain user', who: 'admin', headers: { 'Impersonate-User': 'system:serviceaccount:a:b:c' }, userInfo: { username: 'system:serviceaccount:a:b:c', groups: ['system:authenticated'] } },
    // Node's client writes a header string as latin1 bytes: these are the UTF-8 bytes kubectl sends.
    { name: 'a user named in UTF-8 is that user (the bytes, as Go reads them)', who: 'admin', headers: { 'Impersonate-User': Buffer.from('José', 'utf8').toString('latin1'), 'Impersonate-Group': Buffer.from('équipe', 'utf8').toString('latin1') }, userInfo: { username: 'José', groups: ['équipe', 'system:authenticated'] } },
    { name: 'bytes that are not UTF-8 are U+FFFD', who: 'admin', headers: { 'Impersonate-User': 'a\xffb' }, userInfo: { username: 'a\ufffdb', groups: ['system:authenticated'] } },
    {
      name: 'the uid and the extras (keys lowercased, then percent-decoded; values repeated)',
      who: 'admin',
      headers: { 'Impersonate-User': 'alice', 'Impersonate-Uid': 'u-123', 'Impersonate-Extra-Scopes': ['view', 'edit'], 'Impersonate-Extra-Acme.com%2FProject': 'p1' },
      userInfo: { username: 'alice', uid: 'u-123', groups: ['system:authenticated'], extra: { scopes: ['view', 'edit'], 'acme.com/project': ['p1'] } },
    },
  ];
  for (const w of whoami) {
    it(`SelfSubjectReview: ${w.name}`, async () => {
      const r = await client(w.who).request('POST', ssrPath, ssr, w.headers);
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json().status.userInfo, w.userInfo);
    });
  }

  const reviews: { name: string; headers: Headers; attrs: Record<string, string>; allowed: boolean }[] = [
    { name: 'the admin itself may create pods', headers: {}, attrs: { verb: 'create', resource: 'pods', namespace: 'default' }, allowed: true },
    { name: 'the admin as alice may not', headers: { 'Impersonate-User': 'alice' }, attrs: { verb: 'create', resource: 'pods', namespace: 'default' }, allowed: false },
    { name: 'the admin as alice in system:masters may', headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' }, attrs: { verb: 'create', resource: 'pods', namespace: 'default' }, allowed: true },
    { name: 'the admin as node n1 (system:nodes) may get its own lease', headers: { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' }, attrs: { verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1' }, allowed: true },
  ];
  for (const v of reviews) {
    it(`SelfSubjectAccessReview: ${v.name}`, async () => {
      const r = await client('admin').request('POST', ssarPath, ssar(v.attrs), v.headers);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json().status.allowed, v.allowed, r.text);
    });
  }

  const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
  const refusals: { name: string; who: Who; method: string; path: string; body?: unknown; headers: Headers; code: number; reason: string; message: string; details?: unknown }[] = [
    {
      name: 'a node may not impersonate a user',
      who: 'n1', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-User': 'jane' }, code: 403, reason: 'Forbidden',
      message: 'users "jane" is forbidden: User "system:node:n1" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'jane', group: '', kind: 'users' },
    },
    {
      name: 'a plain user may not impersonate a service account (asked in its namespace)',
      who: 'jane', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-User': 'system:serviceaccount:default:builder' }, code: 403, reason: 'Forbidden',
      message: 'serviceaccounts "builder" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"',
    },
    {
      name: 'an anonymous caller asks as system:anonymous, even for /version',
      who: 'anonymous', method: 'GET', path: '/version', headers: { 'Impersonate-User': 'jane' }, code: 403, reason: 'Forbidden',
      message: 'users "jane" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope',
    },
    { name: 'a bad token is 401 before any impersonation', who: 'badtoken', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-User': 'jane' }, code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
    { name: 'groups without a user are 400', who: 'admin', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-Group': ['g1', 'g2'] }, code: 400, reason: 'BadRequest', message: 'requested [{Group  g1    } {Group  g2    }] without impersonating a user' },
    { name: 'a uid without a user is 400', who: 'admin', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-Uid': 'u-1' }, code: 400, reason: 'BadRequest', message: 'requested [{UID  u-1  authentication.k8s.io/v1  }] without impersonating a user' },
    { name: 'an extra without a user is 400', who: 'admin', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-Extra-Scopes': 'view' }, code: 400, reason: 'BadRequest', message: 'requested [{UserExtra  view  authentication.k8s.io/v1  scopes}] without impersonating a user' },
    { name: 'even a caller who may not impersonate gets the 400 first', who: 'jane', method: 'POST', path: ssrPath, body: ssr, headers: { 'Impersonate-Group': 'g' }, code: 400, reason: 'BadRequest', message: 'requested [{Group  g    }] without impersonating a user' },
    {
      name: 'system:anonymous is not in system:authenticated, so may not even ask (system:basic-user)',
      who: 'admin', method: 'POST', path: ssarPath, body: ssar({ verb: 'create', resource: 'pods' }), headers: { 'Impersonate-User': 'system:anonymous' }, code: 403, reason: 'Forbidden',
      message: 'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    },
    {
      name: 'the impersonated user is the one authorized',
      who: 'admin', method: 'GET', path: '/api/v1/namespaces/default/pods', headers: { 'Impersonate-User': 'alice' }, code: 403, reason: 'Forbidden',
      message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
    },
    {
      name: 'the impersonated user is the one admitted (NodeRestriction)',
      who: 'admin', method: 'POST', path: '/api/v1/nodes', body: node('n2'), headers: { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' }, code: 403, reason: 'Forbidden',
      message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    },
  ];
  for (const f of refusals) {
    it(`refused: ${f.name}`, async () => {
      const r = await client(f.who).request(f.method, f.path, f.body, f.headers);
      assert.equal(r.status, f.code, r.text);
      const st = r.json();
      assert.equal(st.reason, f.reason, r.text);
      assert.equal(st.message, f.message);
      if (f.details) assert.deepEqual(st.details, f.details);
    });
  }

  it('the impersonated node may create its own Node (the control for the NodeRestriction row)', async () => {
    const r = await client('admin').request('POST', '/api/v1/nodes', node('n1'), { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' });
    assert.equal(r.status, 201, r.text);
  });

  const cli: { name: string; args: string[]; code: number; stdout: RegExp[]; stderr?: RegExp }[] = [
    { name: 'kubectl auth can-i as the admin says yes', args: ['auth', 'can-i', 'create', 'pods'], code: 0, stdout: [/^yes$/m] },
    { name: 'kubectl auth can-i --as=someone says no', args: ['auth', 'can-i', 'create', 'pods', '--as=someone'], code: 1, stdout: [/^no$/m] },
    {
      name: 'kubectl auth can-i \'*\' \'*\' --as=system:anonymous is refused the question itself',
      args: ['auth', 'can-i', '*', '*', '--as=system:anonymous'], code: 1, stdout: [],
      stderr: /selfsubjectaccessreviews\.authorization\.k8s\.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews"/,
    },
    { name: 'kubectl auth whoami --as=x --as-group=g names x and g', args: ['auth', 'whoami', '--as=x', '--as-group=g'], code: 0, stdout: [/^Username\s+x$/m, /^Groups\s+\[g system:authenticated\]$/m] },
  ];
  for (const k of cli) {
    it(k.name, { skip: !kubectlFound && kubectlSkip }, async () => {
      const r = await t.kubectl(...k.args);
      assert.equal(r.code, k.code, r.stdout + r.stderr);
      for (const re of k.stdout) assert.match(r.stdout, re);
      if (k.stderr) assert.match(r.stderr, k.stderr);
    });
  }
});

describe('impersonation: the rules, pure', () => {
  const alice = { 'impersonate-user': ['alice'] };
  /** An authorizer that allows impersonating only what `allowed` names (resource or resource/subresource). */
  const only = (...allowed: string[]) => (a: AuthorizationAttributes) => ({ decision: allowed.includes(a.subresource ? `${a.resource}/${a.subresource}` : a.resource!) ? ('Allow' as const) : ('NoOpinion' as const), reason: '' });
  const refusals: { name: string; headers: HeaderValues; allowed: string[]; message: string; details: unknown }[] = [
    { name: 'a group', headers: { ...alice, 'impersonate-group': ['g'] }, allowed: ['users'], message: 'groups "g" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope', details: { name: 'g', group: '', kind: 'groups' } },
    { name: 'a uid (authentication.k8s.io)', headers: { ...alice, 'impersonate-uid': ['u-1'] }, allowed: ['users'], message: 'uids.authentication.k8s.io "u-1" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope', details: { name: 'u-1', group: 'authentication.k8s.io', kind: 'uids' } },
    {
      name: 'an extra (userextras/<key>)', headers: { ...alice, 'impersonate-extra-scopes': ['view'] }, allowed: ['users', 'userextras/other'],
      message: 'userextras.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope', details: { name: 'view', group: 'authentication.k8s.io', kind: 'userextras' },
    },
  ];
  for (const f of refusals) {
    it(`refused: ${f.name}`, () => {
      assert.throws(() => impersonate({ name: 'bob', groups: ['system:authenticated'] }, impersonationRequests(f.headers), only(...f.allowed)), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.status.code, 403);
        assert.equal(e.status.message, f.message);
        assert.deepEqual(e.status.details, f.details);
        return true;
      });
    });
  }

  it('the authorizer\'s reason follows the message', () => {
    assert.throws(() => impersonate({ name: 'bob', groups: [] }, impersonationRequests(alice), () => ({ decision: 'NoOpinion', reason: 'because' })), /cannot impersonate resource "users" in API group "" at the cluster scope: because$/);
  });

  const keys: [string, string, string][] = [
    ['a % not followed by two hex digits keeps the key as sent', 'a%zz', 'a%zz'],
    ['a trailing % keeps the key as sent', 'a%2', 'a%2'],
    ['the escapes are lowercased first, then decoded', 'acme.com%2fproject', 'acme.com/project'],
    ['escaped UTF-8 decodes to its character', 'caf%c3%a9', 'café'],
    ['escaped bytes that are not UTF-8 are U+FFFD', 'x%ff', 'x\ufffd'],
    ['a + stays a +', 'a+b', 'a+b'],
  ];
  for (const [name, header, key] of keys) {
    it(`extra keys: ${name}`, () => {
      const [r] = impersonationRequests({ ...alice, [`impersonate-extra-${header}`]: ['v'] }).slice(1);
      assert.equal(r?.fieldPath, key);
    });
  }

  it('nodes/proxy passes no Impersonate-* header to the agent', () => {
    assert.deepEqual(upstreamHeaders({ 'impersonate-user': 'x', 'impersonate-group': 'g', 'impersonate-uid': 'u', 'impersonate-extra-k': 'v', accept: 'text/plain' }), { accept: 'text/plain' });
  });
});
