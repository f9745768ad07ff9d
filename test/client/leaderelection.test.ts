// Leader election's decision (src/client/leaderelection.ts observe and nextLeaseSpec) on a fake
// clock, rows after client-go's leaderelection_test.go TestTryAcquireOrRenew (read, not copied),
// plus Bulkhead's one deviation: a record first seen counts from its renewTime when earlier.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nextLeaseSpec, observe, type Observed } from '../../src/client/leaderelection.js';
import type { Lease } from '../../src/api/types.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const s = (n: number) => T0 + n * 1000;
const micro = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const D = 15_000;

function lease(holder: string | undefined, renew: number, transitions = 3, duration = 15): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'kube-controller-manager', namespace: 'kube-system' },
    spec: { ...(holder === undefined ? {} : { holderIdentity: holder }), leaseDurationSeconds: duration, acquireTime: micro(s(-100)), renewTime: micro(renew), leaseTransitions: transitions },
  };
}

describe('nextLeaseSpec after observe', () => {
  const rows: { name: string; prev?: (l: Lease) => Observed; lease: Lease; now: number; want: 'held' | { acquire: boolean; transitions: number } }[] = [
    { name: 'held by another, renewed 5 s ago, first seen: wait', lease: lease('b', s(-5)), now: s(0), want: 'held' },
    { name: 'held by another, first seen after it expired by its renewTime: take over (transitions + 1)', lease: lease('b', s(-16)), now: s(0), want: { acquire: true, transitions: 4 } },
    { name: 'held by another, seen unchanged for a full duration since first seen: take over', prev: (l) => observe(undefined, l, s(-20)), lease: lease('b', s(-20)), now: s(0), want: { acquire: true, transitions: 4 } },
    { name: 'held by another that renewed since we looked: counted from now, wait', prev: (l) => observe(undefined, { ...l, spec: { ...l.spec, renewTime: micro(s(-40)) } }, s(-30)), lease: lease('b', s(-20)), now: s(0), want: 'held' },
    { name: 'a renewTime in the future (clock skew) counts from now: wait', lease: lease('b', s(60)), now: s(0), want: 'held' },
    { name: 'released (no holder): take over at once', lease: lease(undefined, s(0), 3, 1), now: s(0), want: { acquire: true, transitions: 4 } },
    { name: 'held by me: renew, acquireTime and transitions kept', lease: lease('me', s(-2)), now: s(0), want: { acquire: false, transitions: 3 } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const o = observe(r.prev?.(r.lease), r.lease, r.now);
      const next = nextLeaseSpec(r.lease, o, 'me', r.now, D);
      if (r.want === 'held') return assert.deepEqual(next, { heldBy: 'b' });
      assert.ok('spec' in next);
      assert.equal(next.spec.holderIdentity, 'me');
      assert.equal(next.spec.leaseDurationSeconds, 15);
      assert.equal(next.spec.renewTime, micro(r.now));
      assert.equal(next.spec.leaseTransitions, r.want.transitions);
      assert.equal(next.spec.acquireTime, r.want.acquire ? micro(r.now) : micro(s(-100)));
    });
  }
  it('an unchanged record keeps its first observation time', () => {
    const l = lease('b', s(-5));
    const first = observe(undefined, l, s(0));
    assert.equal(observe(first, l, s(9)), first);
    assert.deepEqual(nextLeaseSpec(l, first, 'me', s(9), D), { heldBy: 'b' });
    assert.ok('spec' in nextLeaseSpec(l, first, 'me', s(11), D));
  });
});
