// Service account tokens against a running server: POST serviceaccounts/NAME/token as
// pkg/registry/core/serviceaccount/storage/token.go answers it (defaults, validation, the bound
// object's checks and their status codes and wording), the token's JWT (ES256 with the key id,
// claims as claims.go writes them), the token authenticating as its account (SelfSubjectReview,
// TokenReview) until what it is bound to goes, a node's requests (node authorizer and
// NodeRestriction), and the real kubectl: `kubectl create token`, then `kubectl --token … auth whoami`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from './client.js';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

const issuer = 'https://kubernetes.default.svc.cluster.local';
const tokenPath = (ns: string, sa: string) => `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`;
const ssrPath = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const tr = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec });
const decode = (token: string) => {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString()), payload: JSON.parse(Buffer.from(p!, 'base64url').toString()) };
};

describe('service account tokens', () => {
  const t = useTestServer('bulkhead-satoken-');
  const ns = 'default';
  const uids: Record<string, string> = {};
  const clients: Client[] = [];
  const as = (token: string) => {
    const c = new Client(t.server().url, t.server().caCert, token);
    clients.push(c);
    return c;
  };
  const create = async (path: string, body: unknown) => {
    const r = await t.admin().request('POST', path, body);
    assert.equal(r.status, 201, r.text);
    return r.json();
  };
  const tokenFor = async (sa: string, spec: Record<string, unknown> = {}) => {
    const r = await t.admin().request('POST', tokenPath(ns, sa), tr(spec));
    assert.equal(r.status, 201, r.text);
    return r.json().status.token as string;
  };
  const whoami = async (token: string) => {
    const r = await as(token).request('POST', ssrPath, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    return { status: r.status, userInfo: r.status === 201 ? r.json().status.userInfo : undefined };
  };

  before(async () => {
    for (const sa of ['builder', 'other']) uids[sa] = (await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } })).metadata.uid;
    uids['n1'] = (await create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } })).metadata.uid;
    const pod = (name: string, sa: string, node: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { serviceAccountName: sa, nodeName: node, automountServiceAccountToken: false, containers: [{ name: 'c', image: 'busybox' }] },
    });
    uids['p1'] = (await create(`/api/v1/namespaces/${ns}/pods`, pod('p1', 'builder', 'n1'))).metadata.uid;
    uids['p2'] = (await create(`/api/v1/namespaces/${ns}/pods`, pod('p2', 'other', 'n2'))).metadata.uid;
    uids['s1'] = (await create(`/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } })).metadata.uid;
  });
  after(() => clients.forEach((c) => c.close()));

  it('an empty request: an hour, for the API server, as the account', async () => {
    const r = await t.admin().request('POST', tokenPath(ns, 'builder'), tr());
    assert.equal(r.status, 201, r.text);
    const body = r.json();
    assert.equal(body.kind, 'TokenRequest');
    assert.equal(body.metadata.name, 'builder');
    assert.equal(body.metadata.namespace, ns);
    assert.deepEqual(body.spec, { audiences: [issuer], expirationSeconds: 3600 });
    assert.equal(Date.parse(body.status.expirationTimestamp) - Date.parse(body.metadata.creationTimestamp), 3600_000);
    const { header, payload } = decode(body.status.token);
    assert.equal(header.alg, 'ES256');
    assert.match(header.kid, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(Object.keys(payload), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    assert.deepEqual(payload.aud, [issuer]);
    assert.equal(payload.iss, issuer);
    assert.equal(payload.sub, 'system:serviceaccount:default:builder');
    assert.equal(payload.exp - payload.iat, 3600);
    assert.equal(payload.nbf, payload.iat);
    assert.match(payload.jti, /^[0-9a-f-]{36}$/);
    assert.deepEqual(payload['kubernetes.io'], { namespace: ns, serviceaccount: { name: 'builder', uid: uids['builder'] } });
  });

  const refusals: { name: string; sa?: string; body: () => unknown; code: number; message: string }[] = [
    { name: 'under ten minutes', body: () => tr({ expirationSeconds: 599 }), code: 422, message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes' },
    { name: 'over 2^32 seconds', body: () => tr({ expirationSeconds: 2 ** 32 + 1 }), code: 422, message: 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds' },
    { name: 'an account that is not there', sa: 'nobody', body: () => tr(), code: 404, message: 'serviceaccounts "nobody" not found' },
    { name: 'a body naming another account', body: () => tr({}, { name: 'other' }), code: 422, message: 'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified' },
    { name: 'a body naming another namespace', body: () => tr({}, { namespace: 'kube-system' }), code: 422, message: 'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.namespace: Invalid value: "kube-system": must match the service account namespace if specified' },
    { name: 'bound to a ConfigMap', body: () => tr({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }), code: 400, message: 'cannot bind token to object of type /v1, Kind=ConfigMap' },
    { name: 'bound to a pod that is not there', body: () => tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' } }), code: 404, message: 'pods "ghost" not found' },
    { name: 'bound to a pod of another account', body: () => tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p2' } }), code: 400, message: 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.' },
    {
      name: 'bound to an earlier pod of that name',
      body: () => tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: 'stale' } }),
      code: 409,
      message: 'Operation cannot be fulfilled on Pod "p1": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
    },
    { name: 'bound to a pod without a name', body: () => tr({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1' } }), code: 400, message: 'Name parameter required.' },
    { name: 'bound to a secret that is not there', body: () => tr({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'ghost' } }), code: 404, message: 'secrets "ghost" not found' },
    { name: 'bound to a node that is not there', body: () => tr({ boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'ghost' } }), code: 404, message: 'nodes "ghost" not found' },
  ];
  for (const f of refusals) {
    it(`refused: ${f.name}`, async () => {
      const r = await t.admin().request('POST', tokenPath(ns, f.sa ?? 'builder'), f.body());
      assert.equal(r.status, f.code, r.text);
      assert.equal(r.json().message, f.message);
    });
  }

  it('bound to a pod: its name and uid and its node in the claims; the 3607 s of admission run a year, warned after 3607 s', async () => {
    const r = await t.admin().request('POST', tokenPath(ns, 'builder'), tr({ expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: uids['p1'] } }));
    assert.equal(r.status, 201, r.text);
    const body = r.json();
    assert.equal(body.spec.expirationSeconds, 3607);
    assert.equal(Date.parse(body.status.expirationTimestamp) - Date.parse(body.metadata.creationTimestamp), 3607_000);
    const { payload } = decode(body.status.token);
    assert.equal(payload.exp - payload.iat, 365 * 24 * 3600);
    assert.deepEqual(payload['kubernetes.io'], {
      namespace: ns,
      node: { name: 'n1', uid: uids['n1'] },
      pod: { name: 'p1', uid: uids['p1'] },
      serviceaccount: { name: 'builder', uid: uids['builder'] },
      warnafter: payload.iat + 3607,
    });
    const who = await whoami(body.status.token);
    assert.equal(who.status, 201);
    assert.deepEqual(who.userInfo, {
      username: 'system:serviceaccount:default:builder',
      uid: uids['builder'],
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['p1'],
        'authentication.kubernetes.io/pod-uid': [uids['p1']],
        'authentication.kubernetes.io/credential-id': [`JTI=${payload.jti}`],
        'authentication.kubernetes.io/node-name': ['n1'],
        'authentication.kubernetes.io/node-uid': [uids['n1']],
      },
    });
  });

  it('bound to a secret or a node: named in the claims', async () => {
    const bySecret = decode(await tokenFor('builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's1' } })).payload['kubernetes.io'];
    assert.deepEqual(bySecret.secret, { name: 's1', uid: uids['s1'] });
    const byNode = decode(await tokenFor('builder', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1' } })).payload['kubernetes.io'];
    assert.deepEqual(byNode.node, { name: 'n1', uid: uids['n1'] });
    assert.equal(byNode.pod, undefined);
  });

  it('a token for another audience does not reach the API server, but a TokenReview for that audience takes it', async () => {
    const token = await tokenFor('builder', { audiences: ['vault'] });
    assert.equal((await whoami(token)).status, 401);
    const review = (audiences?: string[]) => t.admin().request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });
    const good = (await review(['vault'])).json().status;
    assert.equal(good.authenticated, true);
    assert.equal(good.user.username, 'system:serviceaccount:default:builder');
    assert.deepEqual(good.audiences, ['vault']);
    const bad = (await review()).json().status;
    assert.equal(bad.authenticated, undefined);
    assert.equal(bad.error, `token audiences ["vault"] is invalid for the target audiences ["${issuer}"]`);
  });

  it('a forged or re-signed token is refused', async () => {
    const token = await tokenFor('builder');
    const [h, p, s] = token.split('.');
    const payload = { ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'system:serviceaccount:kube-system:admin' };
    assert.equal((await whoami(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`)).status, 401);
    const otherKid = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'x' })).toString('base64url');
    assert.equal((await whoami(`${otherKid}.${p}.${s}`)).status, 401);
    assert.equal((await whoami(token)).status, 201);
  });

  it('a token stops working when what it is bound to goes', async () => {
    await create(`/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' } });
    const bySecret = await tokenFor('builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's2' } });
    assert.equal((await whoami(bySecret)).status, 201);
    assert.equal((await t.admin().request('DELETE', `/api/v1/namespaces/${ns}/secrets/s2`)).status, 200);
    assert.equal((await whoami(bySecret)).status, 401);
  });

  it('a token stops working when its account is recreated', async () => {
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'shortlived' } });
    const token = await tokenFor('shortlived');
    assert.equal((await whoami(token)).status, 201);
    assert.equal((await t.admin().request('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/shortlived`)).status, 200);
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'shortlived' } });
    assert.equal((await whoami(token)).status, 401);
  });

  it('a service account may ask who it is and nothing more (the default bindings)', async () => {
    const c = as(await tokenFor('builder'));
    const r = await c.request('GET', `/api/v1/namespaces/${ns}/pods`);
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods is forbidden: User "system:serviceaccount:default:builder" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  describe("a node's requests", () => {
    const nodeClient = () => as(t.server().nodeToken('n1'));
    const rows: { name: string; sa: string; spec: () => Record<string, unknown>; code: number; message?: string }[] = [
      { name: 'bound to its own pod by uid', sa: 'builder', spec: () => ({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: uids['p1'] } }), code: 201 },
      { name: 'not bound', sa: 'builder', spec: () => ({}), code: 403, message: 'serviceaccounts "builder" is forbidden: node requested token not bound to a pod' },
      {
        name: 'bound without a uid',
        sa: 'builder',
        spec: () => ({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1' } }),
        code: 403,
        message: 'serviceaccounts "builder" is forbidden: node requested token with a pod binding without a uid',
      },
      {
        name: "an account only another node's pod runs as",
        sa: 'other',
        spec: () => ({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p2', uid: uids['p2'] } }),
        code: 403,
        message: `serviceaccounts "other" is forbidden: User "system:node:n1" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
      },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await nodeClient().request('POST', tokenPath(ns, row.sa), tr(row.spec()));
        assert.equal(r.status, row.code, r.text);
        if (row.message) assert.equal(r.json().message, row.message);
      });
    }
  });

  it('kubectl create token, then kubectl --token … auth whoami', { skip: kubectlFound ? false : kubectlSkip }, async () => {
    const created = await t.kubectl('create', 'token', 'builder', '--duration', '20m', '--audience', issuer);
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim();
    const { payload } = decode(token);
    assert.equal(payload.exp - payload.iat, 1200);
    const who = await t.kubectl('--token', token, 'auth', 'whoami', '-o', 'json');
    assert.equal(who.code, 0, who.stderr);
    const info = JSON.parse(who.stdout).status.userInfo;
    assert.equal(info.username, 'system:serviceaccount:default:builder');
    assert.deepEqual(info.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    const bound = await t.kubectl('create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'p1', '--bound-object-uid', uids['p1']!);
    assert.equal(bound.code, 0, bound.stderr);
    assert.deepEqual(decode(bound.stdout.trim()).payload['kubernetes.io'].pod, { name: 'p1', uid: uids['p1'] });
    const short = await t.kubectl('create', 'token', 'builder', '--duration', '5m');
    assert.notEqual(short.code, 0);
    assert.match(short.stderr, /may not specify a duration less than 10 minutes/);
  });
});
