// The SchedulingGates PreEnqueue rule (src/scheduler/schedulinggates.ts) and the condition the
// API server gives a gated pod on create (src/api/schedulinggated.ts).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pod, PodCondition } from '../../src/api/types.js';
import { applySchedulingGatedCondition } from '../../src/api/schedulinggated.js';
import { schedulingGatesPreEnqueue } from '../../src/scheduler/schedulinggates.js';
import { pod } from './helpers.js';

const gated = (...names: string[]): Pod => pod('p', undefined, { schedulingGates: names.map((name) => ({ name })) });

describe('schedulingGatesPreEnqueue (the SchedulingGates plugin)', () => {
  const rows: { name: string; pod: Pod; want: string | undefined }[] = [
    { name: 'no gates: the pod is queued', pod: pod('p'), want: undefined },
    { name: 'an empty gate list: the pod is queued', pod: gated(), want: undefined },
    { name: 'one gate: the pod waits', pod: gated('example.com/a'), want: 'waiting for scheduling gates: [example.com/a]' },
    { name: 'two gates: both named, in order', pod: gated('example.com/a', 'b'), want: 'waiting for scheduling gates: [example.com/a b]' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(schedulingGatesPreEnqueue(r.pod), r.want));
});

describe('applySchedulingGatedCondition (the pod strategy on create; lastTransitionTime the create\'s time, as v1.32\'s UpdatePodCondition stamps it)', () => {
  const gatedCond = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' };
  const ready = { type: 'Ready', status: 'False' } as PodCondition;
  const scheduled = { type: 'PodScheduled', status: 'True' } as PodCondition;
  const withConditions = (p: Pod, conditions: PodCondition[]): Pod => ({ ...p, status: { phase: 'Pending', conditions } });
  const rows: { name: string; pod: Pod; want: unknown[] | undefined }[] = [
    { name: 'an ungated pod gets no condition', pod: pod('p'), want: undefined },
    { name: 'a gated pod gets PodScheduled=False/SchedulingGated', pod: gated('a'), want: [gatedCond] },
    { name: 'added after the conditions it has', pod: withConditions(gated('a'), [ready]), want: [ready, gatedCond] },
    { name: 'a PodScheduled condition already there is kept', pod: withConditions(gated('a'), [scheduled]), want: [scheduled] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const p = structuredClone(r.pod);
      applySchedulingGatedCondition(p, new Date('2026-01-02T03:04:05.678Z'));
      assert.deepEqual(p.status?.conditions, r.want);
    });
  }
});
