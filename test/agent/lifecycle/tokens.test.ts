// The kubelet's service account token rules (src/agent/lifecycle/tokens.ts, after
// pkg/kubelet/token/token_manager.go and pkg/volume/projected) and the token manager over them
// (src/agent/tokenmanager.ts, token_manager_test.go's cases): the request a projection makes,
// when a cached token is fetched again, and what a failed refresh keeps.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenRequest } from '../../../src/api/serviceaccounttoken.js';
import type { Pod } from '../../../src/api/types.js';
import { podTokenProjections, projectedTokenRequest, projectionKey, tokenCacheKey, tokenExpired, tokenRequiresRefresh } from '../../../src/agent/lifecycle/tokens.js';
import { TokenManager } from '../../../src/agent/tokenmanager.js';

const pod = {
  metadata: { name: 'web', namespace: 'shop', uid: 'u-1' },
  spec: {
    serviceAccountName: 'builder',
    containers: [],
    volumes: [
      { name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt' } }] } },
      { name: 'vault', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'vault' } }] } },
      { name: 'cfg', configMap: { name: 'x' } },
    ],
  },
} as unknown as Pod;

const at = (iso: string) => new Date(iso);
/** A token issued at `issued` for `seconds`, as the server answers (expirationTimestamp = issued + seconds). */
const issued = (issuedAt: string, seconds: number): TokenRequest => ({
  metadata: {},
  spec: { expirationSeconds: seconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'u-1' } },
  status: { token: `t@${issuedAt}`, expirationTimestamp: new Date(Date.parse(issuedAt) + seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z') },
});

describe('the request of a projected token', () => {
  it('every serviceAccountToken source of the volumes', () => assert.deepEqual(podTokenProjections(pod).map(projectionKey), ['/3607', 'vault/3600']));
  it('bound to the pod by uid, for the projection\'s lifetime, no audience meaning the API server\'s', () =>
    assert.deepEqual(projectedTokenRequest(pod, { path: 'token', expirationSeconds: 3607 }), {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'u-1' } },
    }));
  it('an audience and the default hour', () => assert.deepEqual(projectedTokenRequest(pod, { path: 't', audience: 'vault' }).spec, { audiences: ['vault'], expirationSeconds: 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'u-1' } }));
  it('the cache key tells accounts, audiences, lifetimes and pods apart', () => {
    const a = projectedTokenRequest(pod, { path: 't' });
    const keys = new Set([
      tokenCacheKey('shop', 'builder', a),
      tokenCacheKey('shop', 'other', a),
      tokenCacheKey('elsewhere', 'builder', a),
      tokenCacheKey('shop', 'builder', projectedTokenRequest(pod, { path: 't', audience: 'vault' })),
      tokenCacheKey('shop', 'builder', projectedTokenRequest(pod, { path: 't', expirationSeconds: 7200 })),
      tokenCacheKey('shop', 'builder', projectedTokenRequest({ ...pod, metadata: { ...pod.metadata, uid: 'u-2' } }, { path: 't' })),
    ]);
    assert.equal(keys.size, 6);
    assert.equal(tokenCacheKey('shop', 'builder', projectedTokenRequest(pod, { path: 'other-path' })), tokenCacheKey('shop', 'builder', a));
  });
});

describe('when a cached token is fetched again (requiresRefresh)', () => {
  // token_manager_test.go TestTokenCachingAndExpiration's cases, and the 24 h bound.
  const rows: [string, TokenRequest, string, number, boolean][] = [
    ['fresh: not refreshed', issued('2026-06-01T00:00:00Z', 3600), '2026-06-01T00:10:00Z', 0, false],
    ['at 79% of its lifetime: not yet', issued('2026-06-01T00:00:00Z', 3600), '2026-06-01T00:47:24Z', 0, false],
    ['past 80% of its lifetime: refreshed', issued('2026-06-01T00:00:00Z', 3600), '2026-06-01T00:48:01Z', 0, true],
    ['the jitter brings the refresh forward', issued('2026-06-01T00:00:00Z', 3600), '2026-06-01T00:47:55Z', 10, true],
    ['expired: refreshed', issued('2026-06-01T00:00:00Z', 3600), '2026-06-01T02:00:00Z', 0, true],
    ['a two-day token is refreshed once a day old, long before 80%', issued('2026-06-01T00:00:00Z', 172800), '2026-06-02T00:00:01Z', 0, true],
    ['a two-day token half a day old is kept', issued('2026-06-01T00:00:00Z', 172800), '2026-06-01T12:00:00Z', 0, false],
  ];
  for (const [name, tr, now, jitter, want] of rows) it(name, () => assert.equal(tokenRequiresRefresh(tr, at(now), jitter), want));
  it('a token without a lifetime is never refreshed', () => assert.equal(tokenRequiresRefresh({ metadata: {}, spec: {}, status: { token: 't', expirationTimestamp: '2026-01-01T00:00:00Z' } }, at('2027-01-01T00:00:00Z'), 0), false));
  it('expired only past its expirationTimestamp', () => {
    assert.equal(tokenExpired(issued('2026-06-01T00:00:00Z', 600), at('2026-06-01T00:10:00Z')), false);
    assert.equal(tokenExpired(issued('2026-06-01T00:00:00Z', 600), at('2026-06-01T00:10:01Z')), true);
  });
});

describe('the token manager', () => {
  const setup = (fail: () => string | undefined) => {
    let now = at('2026-06-01T00:00:00Z');
    const asked: string[] = [];
    const m = new TokenManager(
      async (ns, name, tr) => {
        asked.push(`${ns}/${name}`);
        const why = fail();
        if (why) throw new Error(why);
        return { ...issued(now.toISOString(), tr.spec.expirationSeconds!), spec: tr.spec };
      },
      () => now,
      () => 0,
    );
    return { m, asked, set: (iso: string) => (now = at(iso)) };
  };
  const request = projectedTokenRequest(pod, { path: 'token', expirationSeconds: 3600 });

  it('a cached token is handed out until it needs a refresh, then a new one is asked for', async () => {
    const { m, asked, set } = setup(() => undefined);
    const first = await m.serviceAccountToken('shop', 'builder', request);
    set('2026-06-01T00:30:00Z');
    assert.equal((await m.serviceAccountToken('shop', 'builder', request)).status?.token, first.status?.token);
    set('2026-06-01T00:50:00Z');
    assert.notEqual((await m.serviceAccountToken('shop', 'builder', request)).status?.token, first.status?.token);
    assert.deepEqual(asked, ['shop/builder', 'shop/builder']);
    m.stop();
  });
  it('a first request that fails says so', async () => {
    const { m } = setup(() => 'serviceaccounts "builder" not found');
    await assert.rejects(m.serviceAccountToken('shop', 'builder', request), { message: 'failed to fetch token: serviceaccounts "builder" not found' });
  });
  it('a failed refresh keeps the token while it is valid, and fails once it expired', async () => {
    let failing = false;
    const { m, set } = setup(() => (failing ? 'connection refused' : undefined));
    const first = await m.serviceAccountToken('shop', 'builder', request);
    failing = true;
    set('2026-06-01T00:50:00Z');
    assert.equal((await m.serviceAccountToken('shop', 'builder', request)).status?.token, first.status?.token);
    set('2026-06-01T01:00:01Z');
    await assert.rejects(m.serviceAccountToken('shop', 'builder', request), /expired and refresh failed: connection refused$/);
    m.stop();
  });
  it('a pod\'s tokens go with it, and expired tokens are swept', async () => {
    const { m, set } = setup(() => undefined);
    await m.serviceAccountToken('shop', 'builder', request);
    await m.serviceAccountToken('shop', 'builder', projectedTokenRequest({ ...pod, metadata: { ...pod.metadata, uid: 'u-2' } }, { path: 't', expirationSeconds: 600 }));
    assert.equal(m.size, 2);
    m.deletePodTokens('u-1');
    assert.equal(m.size, 1);
    set('2026-06-01T00:10:01Z');
    m.sweep();
    assert.equal(m.size, 0);
    m.stop();
  });
});
