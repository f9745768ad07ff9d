// The pod delete rules of BeforeDelete and CheckGracefulDelete, one row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podDeleteDecision, podGracePeriod } from '../../src/api/poddeletion.js';
import type { Pod } from '../../src/api/types.js';

const now = new Date('2026-01-01T00:00:00Z');

function pod(o: { node?: string; phase?: string; tgps?: number; marked?: string; grace?: number } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', ...(o.marked ? { deletionTimestamp: o.marked } : {}), ...(o.grace !== undefined ? { deletionGracePeriodSeconds: o.grace } : {}) },
    spec: { containers: [{ name: 'c', image: 'x' }], ...(o.node ? { nodeName: o.node } : {}), ...(o.tgps !== undefined ? { terminationGracePeriodSeconds: o.tgps } : {}) },
    ...(o.phase ? { status: { phase: o.phase } } : {}),
  };
}

describe('podGracePeriod (CheckGracefulDelete)', () => {
  const rows: { name: string; pod: Pod; requested?: number; want: number }[] = [
    { name: 'the requested grace wins', pod: pod({ node: 'n', tgps: 30 }), requested: 7, want: 7 },
    { name: 'else the pod spec', pod: pod({ node: 'n', tgps: 12 }), want: 12 },
    { name: 'no grace in the request nor in the spec: 0, as upstream (a stored pod always has the defaulted 30)', pod: pod({ node: 'n' }), want: 0 },
    { name: 'an unscheduled pod goes at once', pod: pod({ tgps: 30 }), requested: 60, want: 0 },
    { name: 'a Succeeded pod goes at once', pod: pod({ node: 'n', phase: 'Succeeded' }), requested: 60, want: 0 },
    { name: 'a Failed pod goes at once', pod: pod({ node: 'n', phase: 'Failed' }), want: 0 },
    { name: 'a Running pod waits', pod: pod({ node: 'n', phase: 'Running', tgps: 30 }), want: 30 },
    { name: 'a negative grace becomes 1', pod: pod({ node: 'n', tgps: -5 }), want: 1 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(podGracePeriod(r.pod, r.requested), r.want));
});

// Upstream strategy_test.go TestCheckGracefulDelete (kubernetes/kubernetes pkg/registry/core/pod/
// strategy_test.go, index file 148060311), the delete asking for the default grace of 30 where the
// row gives one.
describe('upstream TestCheckGracefulDelete', () => {
  const rows: { name: string; pod: Pod; requested?: number; want: number }[] = [
    { name: 'in pending phase with has node name', pod: pod({ node: 'something', phase: 'Pending' }), requested: 30, want: 30 },
    { name: 'in failed phase with has node name', pod: pod({ node: 'something', phase: 'Failed' }), requested: 30, want: 0 },
    { name: 'in failed phase', pod: pod({ phase: 'Pending' }), requested: 30, want: 0 },
    { name: 'in succeeded phase', pod: pod({ phase: 'Succeeded' }), requested: 30, want: 0 },
    { name: 'no phase', pod: pod(), requested: 30, want: 0 },
    { name: 'has negative grace period', pod: pod({ node: 'something', tgps: -1 }), want: 1 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(podGracePeriod(r.pod, r.requested), r.want));
});

describe('podDeleteDecision (BeforeDelete)', () => {
  const marked = '2026-01-01T00:00:30Z';
  const rows: { name: string; pod: Pod; requested?: number; want: ReturnType<typeof podDeleteDecision> }[] = [
    { name: 'unscheduled: deleted now', pod: pod(), want: { action: 'delete' } },
    { name: 'finished: deleted now', pod: pod({ node: 'n', phase: 'Succeeded' }), want: { action: 'delete' } },
    { name: 'grace 0 on a running pod: deleted now', pod: pod({ node: 'n' }), requested: 0, want: { action: 'delete' } },
    { name: 'a running pod is marked with now + grace and its generation bumped', pod: pod({ node: 'n', tgps: 30 }), want: { action: 'mark', deletionTimestamp: new Date('2026-01-01T00:00:30Z'), deletionGracePeriodSeconds: 30, bumpGeneration: true } },
    { name: 'a negative request counts as 1 second', pod: pod({ node: 'n' }), requested: -3, want: { action: 'mark', deletionTimestamp: new Date('2026-01-01T00:00:01Z'), deletionGracePeriodSeconds: 1, bumpGeneration: true } },
    { name: 'already marked, no grace asked: pending', pod: pod({ node: 'n', marked, grace: 30 }), want: { action: 'pending' } },
    { name: 'already marked, a longer grace: pending', pod: pod({ node: 'n', marked, grace: 30 }), requested: 60, want: { action: 'pending' } },
    { name: 'already marked, the same grace: pending', pod: pod({ node: 'n', marked, grace: 30 }), requested: 30, want: { action: 'pending' } },
    { name: 'already marked, a shorter grace moves the deadline from the original start', pod: pod({ node: 'n', marked, grace: 30 }), requested: 5, want: { action: 'mark', deletionTimestamp: new Date('2026-01-01T00:00:05Z'), deletionGracePeriodSeconds: 5, bumpGeneration: false } },
    { name: 'already marked, grace 0 (the node, after its containers stopped): deleted now', pod: pod({ node: 'n', marked, grace: 30 }), requested: 0, want: { action: 'delete' } },
    { name: 'already marked with grace 0: deleted now', pod: pod({ node: 'n', marked, grace: 0 }), want: { action: 'delete' } },
    { name: 'marked without a grace period: deleted now', pod: pod({ node: 'n', marked }), want: { action: 'delete' } },
    { name: 'a finished pod already marked keeps its mark (CheckGracefulDelete is not asked again)', pod: pod({ node: 'n', phase: 'Succeeded', marked, grace: 30 }), want: { action: 'pending' } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(podDeleteDecision(r.pod, r.requested, now), r.want));
});
