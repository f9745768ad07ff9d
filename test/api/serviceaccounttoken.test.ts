// Service account token rules (src/api/serviceaccounttoken.ts), one row per rule of upstream's
// pkg/apis/authentication/validation (ValidateTokenRequest), the token REST's bound-object and
// expiration rules (pkg/registry/core/serviceaccount/storage/token.go), pkg/serviceaccount
// claims.go (Claims, Validate; claims_test.go's rows for the bound objects and times) and the
// user a token is (k8s.io/apiserver serviceaccount/util.go).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  boundObjectKind,
  claimsTimeError,
  defaultTokenRequestSpec,
  serviceAccountClaims,
  serviceAccountUser,
  tokenLifetime,
  validateServiceAccountClaims,
  validateTokenRequest,
  type ClaimedObjects,
  type ServiceAccountClaims,
} from '../../src/api/serviceaccounttoken.js';
import { errorString } from '../../src/api/fielderrors.js';
import type { KubeObject } from '../../src/api/types.js';

const now = new Date('2026-06-01T00:00:00Z');
const t = now.getTime() / 1000;
const obj = (name: string, uid: string, namespace?: string, deletionTimestamp?: string): KubeObject => ({ metadata: { name, uid, ...(namespace ? { namespace } : {}), ...(deletionTimestamp ? { deletionTimestamp } : {}) } });
const sa = obj('builder', 'sa-uid', 'ns');

describe('TokenRequest validation and defaults', () => {
  const rows: [string, number | undefined, string[]][] = [
    ['no expirationSeconds defaults to an hour, which is valid', undefined, []],
    ['ten minutes is the least', 600, []],
    ['under ten minutes is refused', 599, ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes']],
    ['2^32 seconds is the most', 2 ** 32, []],
    ['over 2^32 seconds is refused', 2 ** 32 + 1, ['spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds']],
  ];
  for (const [name, seconds, want] of rows) {
    it(name, () => {
      const spec = defaultTokenRequestSpec(seconds === undefined ? {} : { expirationSeconds: seconds });
      assert.equal(spec.expirationSeconds, seconds ?? 3600);
      assert.deepEqual(validateTokenRequest({ metadata: {}, spec }).map(errorString), want);
    });
  }
});

describe('what a token may be bound to', () => {
  const rows: [string, string, string, ReturnType<typeof boundObjectKind>][] = [
    ['a v1 Pod', 'v1', 'Pod', { kind: 'Pod' }],
    ['a v1 Secret', 'v1', 'Secret', { kind: 'Secret' }],
    ['a v1 Node', 'v1', 'Node', { kind: 'Node' }],
    ['any core version (upstream reads only the group)', 'v2', 'Pod', { kind: 'Pod' }],
    ['a ConfigMap is refused, named as gvk.String()', 'v1', 'ConfigMap', { badRequest: 'cannot bind token to object of type /v1, Kind=ConfigMap' }],
    ['a Pod of another group is refused', 'apps/v1', 'Pod', { badRequest: 'cannot bind token to object of type apps/v1, Kind=Pod' }],
    ['no kind at all is refused', '', '', { badRequest: 'cannot bind token to object of type /, Kind=' }],
  ];
  for (const [name, apiVersion, kind, want] of rows) it(name, () => assert.deepEqual(boundObjectKind({ apiVersion, kind, name: 'x' }), want));
});

describe('token lifetime', () => {
  const aud = ['https://kubernetes.default.svc.cluster.local'];
  const rows: [string, Parameters<typeof tokenLifetime>[0], ReturnType<typeof tokenLifetime>][] = [
    ['as requested', { requestedSeconds: 3600, maxSeconds: 0, extend: true, podBound: true, audiences: aud, apiAudiences: aud }, { expirationSeconds: 3600, tokenSeconds: 3600 }],
    [
      "the admission plugin's 3607 s for a pod, for the API server: a year, warned after 3607 s",
      { requestedSeconds: 3607, maxSeconds: 0, extend: true, podBound: true, audiences: aud, apiAudiences: aud },
      { expirationSeconds: 3607, tokenSeconds: 31536000, warnAfterSeconds: 3607 },
    ],
    ['3607 s not bound to a pod is not extended', { requestedSeconds: 3607, maxSeconds: 0, extend: true, podBound: false, audiences: aud, apiAudiences: aud }, { expirationSeconds: 3607, tokenSeconds: 3607 }],
    ['3607 s for another audience is not extended', { requestedSeconds: 3607, maxSeconds: 0, extend: true, podBound: true, audiences: ['vault'], apiAudiences: aud }, { expirationSeconds: 3607, tokenSeconds: 3607 }],
    ['3607 s with the extension switched off', { requestedSeconds: 3607, maxSeconds: 0, extend: false, podBound: true, audiences: aud, apiAudiences: aud }, { expirationSeconds: 3607, tokenSeconds: 3607 }],
    [
      'a maximum shortens a longer request, with a warning',
      { requestedSeconds: 7200, maxSeconds: 3600, extend: true, podBound: false, audiences: aud, apiAudiences: aud },
      { expirationSeconds: 3600, tokenSeconds: 3600, warning: 'requested expiration of 7200 seconds shortened to 3600 seconds' },
    ],
  ];
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(tokenLifetime(input), want));
});

describe('the claims of a token', () => {
  const issuer = 'https://kubernetes.default.svc.cluster.local';
  const base = { issuer, serviceAccount: sa, expirationSeconds: 3600, audiences: ['a', 'b'], now, jti: 'j-1' };
  const rows: [string, Parameters<typeof serviceAccountClaims>[0], ServiceAccountClaims['kubernetes.io']][] = [
    ['unbound: the namespace and the account', { ...base, bound: {} }, { namespace: 'ns', serviceaccount: { name: 'builder', uid: 'sa-uid' } }],
    [
      'pod-bound: the pod and the node it runs on',
      { ...base, bound: { pod: obj('p', 'pod-uid', 'ns'), node: obj('n1', 'node-uid') } },
      { namespace: 'ns', node: { name: 'n1', uid: 'node-uid' }, pod: { name: 'p', uid: 'pod-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } },
    ],
    [
      'pod-bound on a node that is gone: its name alone',
      { ...base, bound: { pod: obj('p', 'pod-uid', 'ns'), node: { metadata: { name: 'n1' } } } },
      { namespace: 'ns', node: { name: 'n1', uid: '' }, pod: { name: 'p', uid: 'pod-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } },
    ],
    ['secret-bound', { ...base, bound: { secret: obj('s', 'secret-uid', 'ns') } }, { namespace: 'ns', secret: { name: 's', uid: 'secret-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } }],
    ['node-bound', { ...base, bound: { node: obj('n1', 'node-uid') } }, { namespace: 'ns', node: { name: 'n1', uid: 'node-uid' }, serviceaccount: { name: 'builder', uid: 'sa-uid' } }],
    [
      'an extended token says when to warn',
      { ...base, bound: {}, expirationSeconds: 31536000, warnAfterSeconds: 3607 },
      { namespace: 'ns', serviceaccount: { name: 'builder', uid: 'sa-uid' }, warnafter: t + 3607 },
    ],
  ];
  for (const [name, input, want] of rows) {
    it(name, () => {
      const c = serviceAccountClaims(input);
      assert.deepEqual(c['kubernetes.io'], want);
      assert.deepEqual(c, { aud: ['a', 'b'], exp: t + input.expirationSeconds, iat: t, iss: issuer, jti: 'j-1', 'kubernetes.io': want, nbf: t, sub: 'system:serviceaccount:ns:builder' });
    });
  }
  it('the payload keys are in the order Go writes its claims map (sorted)', () => {
    const c = serviceAccountClaims({ ...base, bound: { pod: obj('p', 'pod-uid', 'ns'), node: obj('n1', 'node-uid') }, warnAfterSeconds: 3607 });
    const keys = Object.keys(c);
    assert.deepEqual(keys, [...keys].sort());
    const inner = Object.keys(c['kubernetes.io']);
    assert.deepEqual(inner, [...inner].sort());
  });
});

describe('token times (go-jose, one minute of leeway)', () => {
  const rows: [string, Partial<ServiceAccountClaims>, string | undefined][] = [
    ['within its lifetime', { nbf: t - 10, iat: t - 10, exp: t + 10 }, undefined],
    ['expired less than a minute ago still passes', { nbf: t - 100, iat: t - 100, exp: t - 59 }, undefined],
    ['expired over a minute ago', { nbf: t - 100, iat: t - 100, exp: t - 61 }, 'service account token has expired'],
    ['not valid for over a minute yet', { nbf: t + 61, iat: t, exp: t + 600 }, 'service account token is not valid yet'],
    ['issued over a minute in the future', { nbf: t, iat: t + 61, exp: t + 600 }, 'service account token is issued in the future'],
    ['not yet valid is checked before expired', { nbf: t + 120, iat: t, exp: t - 120 }, 'service account token is not valid yet'],
  ];
  for (const [name, c, want] of rows) it(name, () => assert.equal(claimsTimeError(c, now), want));
});

describe("a presented token's bound objects (claims.go Validate)", () => {
  const claims = (k: Partial<ServiceAccountClaims['kubernetes.io']>, jti?: string): ServiceAccountClaims => ({
    aud: ['x'],
    exp: t + 600,
    iat: t,
    iss: 'i',
    ...(jti ? { jti } : {}),
    'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'builder', uid: 'sa-uid' }, ...k },
    nbf: t,
    sub: 'system:serviceaccount:ns:builder',
  });
  const longAgo = '2026-05-31T23:58:00Z';
  const justNow = '2026-05-31T23:59:30Z';
  const pod = obj('p', 'pod-uid', 'ns');
  const rows: [string, ServiceAccountClaims, ClaimedObjects, ReturnType<typeof validateServiceAccountClaims>][] = [
    ['the account exists with its uid', claims({}), { serviceAccount: sa }, { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid' } }],
    ['the account is gone', claims({}), {}, { error: 'serviceaccounts "builder" not found' }],
    ['the account was recreated', claims({}), { serviceAccount: obj('builder', 'other', 'ns') }, { error: 'service account UID (other) does not match claim (sa-uid)' }],
    ['the account was deleted over a minute ago', claims({}), { serviceAccount: obj('builder', 'sa-uid', 'ns', longAgo) }, { error: 'service account ns/builder has been deleted' }],
    ['the account is being deleted within the leeway', claims({}), { serviceAccount: obj('builder', 'sa-uid', 'ns', justNow) }, { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid' } }],
    ['the bound secret is there', claims({ secret: { name: 's', uid: 'su' } }), { serviceAccount: sa, secret: obj('s', 'su', 'ns') }, { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid' } }],
    ['the bound secret is gone', claims({ secret: { name: 's', uid: 'su' } }), { serviceAccount: sa }, { error: 'service account token has been invalidated' }],
    ['the bound secret was recreated', claims({ secret: { name: 's', uid: 'su' } }), { serviceAccount: sa, secret: obj('s', 'new', 'ns') }, { error: 'secret UID (new) does not match service account secret ref claim (su)' }],
    ['the bound secret was deleted', claims({ secret: { name: 's', uid: 'su' } }), { serviceAccount: sa, secret: obj('s', 'su', 'ns', longAgo) }, { error: 'service account token has been invalidated' }],
    [
      'the bound pod is there: its name and uid, and the node it ran on',
      claims({ pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' } }),
      { serviceAccount: sa, pod },
      { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid', podName: 'p', podUID: 'pod-uid', nodeName: 'n1', nodeUID: 'node-uid' } },
    ],
    ['the bound pod is gone', claims({ pod: { name: 'p', uid: 'pod-uid' } }), { serviceAccount: sa }, { error: 'service account token has been invalidated' }],
    ['the bound pod was recreated', claims({ pod: { name: 'p', uid: 'pod-uid' } }), { serviceAccount: sa, pod: obj('p', 'new', 'ns') }, { error: 'pod UID (new) does not match service account pod ref claim (pod-uid)' }],
    ['the bound pod was deleted over a minute ago', claims({ pod: { name: 'p', uid: 'pod-uid' } }), { serviceAccount: sa, pod: obj('p', 'pod-uid', 'ns', longAgo) }, { error: 'service account token has been invalidated' }],
    [
      'the bound node is there',
      claims({ node: { name: 'n1', uid: 'node-uid' } }),
      { serviceAccount: sa, node: obj('n1', 'node-uid') },
      { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid', nodeName: 'n1', nodeUID: 'node-uid' } },
    ],
    ['the bound node is gone', claims({ node: { name: 'n1', uid: 'node-uid' } }), { serviceAccount: sa }, { error: 'service account token has been invalidated' }],
    ['the bound node was recreated', claims({ node: { name: 'n1', uid: 'node-uid' } }), { serviceAccount: sa, node: obj('n1', 'new') }, { error: 'node UID (new) does not match service account node ref claim (node-uid)' }],
    ['a jti is the credential id', claims({}, 'abc'), { serviceAccount: sa }, { info: { namespace: 'ns', name: 'builder', uid: 'sa-uid', credentialID: 'JTI=abc' } }],
    ['the times are checked first', { ...claims({}), exp: t - 3600 }, {}, { error: 'service account token has expired' }],
  ];
  for (const [name, c, objects, want] of rows) it(name, () => assert.deepEqual(validateServiceAccountClaims(c, now, objects), want));
});

describe('the user a token authenticates as', () => {
  const rows: [string, Parameters<typeof serviceAccountUser>[0], ReturnType<typeof serviceAccountUser>][] = [
    [
      'the account: its name, uid and groups',
      { namespace: 'ns', name: 'builder', uid: 'u' },
      { name: 'system:serviceaccount:ns:builder', uid: 'u', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'] },
    ],
    [
      'a pod-bound token adds the pod, the node and the credential id',
      { namespace: 'ns', name: 'builder', uid: 'u', podName: 'p', podUID: 'pu', nodeName: 'n1', nodeUID: 'nu', credentialID: 'JTI=j' },
      {
        name: 'system:serviceaccount:ns:builder',
        uid: 'u',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['p'],
          'authentication.kubernetes.io/pod-uid': ['pu'],
          'authentication.kubernetes.io/credential-id': ['JTI=j'],
          'authentication.kubernetes.io/node-name': ['n1'],
          'authentication.kubernetes.io/node-uid': ['nu'],
        },
      },
    ],
    [
      'a node without a uid gives its name alone',
      { namespace: 'ns', name: 'builder', uid: 'u', nodeName: 'n1' },
      { name: 'system:serviceaccount:ns:builder', uid: 'u', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'], extra: { 'authentication.kubernetes.io/node-name': ['n1'] } },
    ],
  ];
  for (const [name, info, want] of rows) it(name, () => assert.deepEqual(serviceAccountUser(info, 'system:authenticated'), want));
});
