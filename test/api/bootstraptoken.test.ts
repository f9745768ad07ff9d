// Bootstrap tokens (src/api/bootstraptoken.ts): the Secret kubeadm writes for a token, read
// back, and the bootstrap token authenticator's decision, one row per rule of upstream's
// plugin/pkg/auth/authenticator/token/bootstrap.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticateBootstrapToken, bootstrapTokenSecret, parseToken, tokenFromSecret, type BootstrapTokenSpec } from '../../src/api/bootstraptoken.js';
import type { Secret } from '../../src/api/types.js';

const now = new Date('2026-06-01T00:00:00Z');
const token = 'abcdef.0123456789abcdef';
const spec: BootstrapTokenSpec = { id: 'abcdef', secret: '0123456789abcdef', expiration: '2026-06-02T00:00:00Z', usages: ['authentication', 'signing'], extraGroups: ['system:bootstrappers:kubeadm:default-node-token'] };
const secret = (over: Partial<BootstrapTokenSpec> = {}, edit: (s: Secret) => void = () => undefined): Secret => {
  const s = bootstrapTokenSecret({ ...spec, ...over });
  edit(s);
  return s;
};

describe('bootstrap token format', () => {
  const rows: [string, string, boolean][] = [
    ['six and sixteen lowercase alphanumerics', token, true],
    ['uppercase is not a token', 'ABCDEF.0123456789abcdef', false],
    ['a short secret is not a token', 'abcdef.0123', false],
    ['no dot is not a token', 'abcdef0123456789abcdef', false],
  ];
  for (const [name, t, ok] of rows) it(name, () => assert.equal(!!parseToken(t), ok));
});

describe('the token Secret', () => {
  it('has upstream\'s name, namespace, type and keys', () => {
    const s = secret();
    assert.equal(s.metadata.name, 'bootstrap-token-abcdef');
    assert.equal(s.metadata.namespace, 'kube-system');
    assert.equal(s.type, 'bootstrap.kubernetes.io/token');
    assert.deepEqual(Object.keys(s.data!).sort(), ['auth-extra-groups', 'expiration', 'token-id', 'token-secret', 'usage-bootstrap-authentication', 'usage-bootstrap-signing']);
  });
  it('reads back as the token it holds', () => assert.deepEqual(tokenFromSecret(secret()), spec));
});

describe('bootstrap token authenticator', () => {
  const user = { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] };
  const rows: [string, string, Secret | undefined, RegExp | typeof user][] = [
    ['a valid token is system:bootstrap:<id> in system:bootstrappers and its extra groups', token, secret(), user],
    ['a token without extra groups is in system:bootstrappers only', token, secret({ extraGroups: [] }), { name: user.name, groups: ['system:bootstrappers'] }],
    ['a token without expiration does not expire', token, secret({ expiration: undefined }), user],
    ['no Secret: rejected', token, undefined, /no secret kube-system\/bootstrap-token-abcdef/],
    ['a wrong secret: rejected', 'abcdef.fedcba9876543210', secret(), /does not match/],
    ['an expired token: rejected', token, secret({ expiration: '2026-05-31T00:00:00Z' }), /has expired/],
    ['an unparsable expiration counts as expired', token, secret({ expiration: 'tomorrow' }), /has expired/],
    ['a token not marked for authentication: rejected', token, secret({ usages: ['signing'] }), /not marked for authentication/],
    ['a Secret of another type: rejected', token, secret({}, (s) => (s.type = 'Opaque')), /has type "Opaque"/],
    ['a Secret being deleted: rejected', token, secret({}, (s) => (s.metadata.deletionTimestamp = '2026-05-31T00:00:00Z')), /being deleted/],
    ['an extra group outside system:bootstrappers: rejected', token, secret({ extraGroups: ['system:masters'] }), /bootstrap group "system:masters" is invalid/],
  ];
  for (const [name, t, s, want] of rows) {
    it(name, () => {
      const r = authenticateBootstrapToken(t, s, now);
      if (want instanceof RegExp) assert.match('rejected' in r ? r.rejected : 'accepted', want);
      else assert.deepEqual(r, { user: want });
    });
  }
});
