// The taint eviction decision (src/scheduler/tainteviction.ts), rows after upstream's
// taint_eviction_test.go and getMinTolerationTime's cases (read, not copied). Times are ms on a
// fake clock.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evictionDecision, minTolerationMs, noExecuteTaints } from '../../src/scheduler/tainteviction.js';
import type { Taint, Toleration } from '../../src/api/types.js';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
const tol = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds === undefined ? {} : { tolerationSeconds: seconds }) });

describe('evictionDecision', () => {
  const rows: { name: string; taints: Taint[]; tolerations?: Toleration[]; scheduled?: { createdAt: number; fireAt: number }; want: unknown }[] = [
    { name: 'no taints: cancel', taints: [], tolerations: [], want: { action: 'cancel' } },
    { name: 'a taint not tolerated: evict now', taints: [unreachable], tolerations: [], want: { action: 'schedule', createdAt: 1000, fireAt: 1000 } },
    { name: 'one of two taints not tolerated: evict now', taints: [unreachable, notReady], tolerations: [tol(unreachable.key, 300)], want: { action: 'schedule', createdAt: 1000, fireAt: 1000 } },
    { name: 'tolerated for 300 s: evict then', taints: [unreachable], tolerations: [tol(unreachable.key, 300)], want: { action: 'schedule', createdAt: 1000, fireAt: 301_000 } },
    { name: 'tolerated forever: cancel', taints: [unreachable], tolerations: [tol(unreachable.key)], want: { action: 'cancel' } },
    { name: 'an empty-key Exists toleration tolerates every taint forever', taints: [unreachable, notReady], tolerations: [{ operator: 'Exists' }], want: { action: 'cancel' } },
    { name: 'the shortest toleration used wins', taints: [unreachable, notReady], tolerations: [tol(unreachable.key, 60), tol(notReady.key, 10)], want: { action: 'schedule', createdAt: 1000, fireAt: 11_000 } },
    { name: 'tolerationSeconds 0 or less: now', taints: [unreachable], tolerations: [tol(unreachable.key, -5)], want: { action: 'schedule', createdAt: 1000, fireAt: 1000 } },
    { name: 'an eviction already pending stands', taints: [unreachable], tolerations: [tol(unreachable.key, 300)], scheduled: { createdAt: 500, fireAt: 300_500 }, want: { action: 'keep' } },
    { name: 'a NoSchedule toleration does not tolerate NoExecute', taints: [unreachable], tolerations: [{ key: unreachable.key, operator: 'Exists', effect: 'NoSchedule' }], want: { action: 'schedule', createdAt: 1000, fireAt: 1000 } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(evictionDecision(r.taints, r.tolerations, 1000, r.scheduled), r.want));
});

describe('minTolerationMs and noExecuteTaints', () => {
  it('no tolerations used: 0; none bounded: -1; else the least, in ms', () => {
    assert.equal(minTolerationMs([]), 0);
    assert.equal(minTolerationMs([tol('a')]), -1);
    assert.equal(minTolerationMs([tol('a'), tol('b', 7), tol('c', 3)]), 3000);
  });
  it('only NoExecute taints count', () => {
    assert.deepEqual(noExecuteTaints([unreachable, { key: 'x', effect: 'NoSchedule' }, { key: 'y', effect: 'PreferNoSchedule' }]), [unreachable]);
  });
});
