// updatePodCondition: upstream's UpdatePodCondition, shared by the binding and the scheduler.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { updatePodCondition, type ConditionUpdate } from '../../src/api/podconditions.js';
import type { PodCondition } from '../../src/api/types.js';

const then = '2026-01-01T00:00:00Z';
const now = '2026-11-22T10:00:00Z';
const ready: PodCondition = { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: then };
const unsched: PodCondition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: then, reason: 'Unschedulable', message: 'no' };

describe('updatePodCondition', () => {
  const rows: { name: string; before: PodCondition[]; cond: ConditionUpdate; want: PodCondition[]; changed: boolean }[] = [
    { name: 'a new type is appended with the transition time now', before: [ready], cond: { type: 'PodScheduled', status: 'True' }, want: [ready, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now }], changed: true },
    { name: 'a status change replaces the condition in place, reason and message dropped, transition now', before: [unsched, ready], cond: { type: 'PodScheduled', status: 'True' }, want: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now }, ready], changed: true },
    { name: 'the same status with another message keeps the transition time', before: [unsched], cond: { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'other' }, want: [{ ...unsched, message: 'other' }], changed: true },
    { name: 'nothing different: unchanged', before: [unsched], cond: { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'no' }, want: [unsched], changed: false },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = updatePodCondition(r.before, r.cond, now);
      assert.deepEqual(got, { conditions: r.want, changed: r.changed });
    });
  }
  it('does not modify its input', () => {
    const before = [unsched];
    updatePodCondition(before, { type: 'PodScheduled', status: 'True' }, now);
    assert.deepEqual(before, [unsched]);
  });
});
