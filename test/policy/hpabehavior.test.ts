// How the horizontal pod autoscaler turns a proposal into the count it sets
// (src/policy/hpabehavior.ts), one row per rule of horizontal.go at 1.32: without a behavior the
// 300 s downscale stabilization and the 2×/4-pod scale-up limit, min and max; with one the
// stabilization windows, Pods and Percent policies over their periods, Max/Min/Disabled, and
// the scale events kept for them. A fake clock: every time is given.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HorizontalPodAutoscalerBehavior } from '../../src/api/types.js';
import { defaultScaleDownRules, defaultScaleUpRules } from '../../src/api/autoscalingdefaults.js';
import { emptyMemory, normalizeDesiredReplicas, normalizeWithBehaviors, storeScaleEvent, type AutoscalerMemory, type Recommendation, type ScaleEvent } from '../../src/policy/hpabehavior.js';

const now = 1_000_000_000;
const sAgo = (s: number) => now - s * 1000;
const recs = (...r: [replicas: number, secondsAgo: number][]): Recommendation[] => r.map(([replicas, s]) => ({ replicas, atMs: sAgo(s) }));
const events = (...e: [change: number, secondsAgo: number][]): ScaleEvent[] => e.map(([change, s]) => ({ change, atMs: sAgo(s), outdated: false }));
const memory = (m: Partial<AutoscalerMemory>): AutoscalerMemory => ({ ...emptyMemory(), ...m });

type Want = [replicas: number, ableToScale: string, scalingLimited: string, limitedStatus: string];

describe('normalizeDesiredReplicas (no behavior)', () => {
  const rows: { name: string; mem: AutoscalerMemory; current: number; desired: number; min?: number; max?: number; want: Want }[] = [
    { name: 'a proposal within the bounds is taken', mem: memory({}), current: 3, desired: 5, want: [5, 'ReadyForNewScale', 'DesiredWithinRange', 'False'] },
    { name: 'a higher recommendation within the 300 s window holds a scale-down', mem: memory({ recommendations: recs([5, 200]) }), current: 5, desired: 2, want: [5, 'ScaleDownStabilized', 'DesiredWithinRange', 'False'] },
    { name: 'a recommendation older than the window no longer holds it', mem: memory({ recommendations: recs([5, 301]) }), current: 5, desired: 2, want: [2, 'ReadyForNewScale', 'DesiredWithinRange', 'False'] },
    { name: 'scale-up is limited to twice the current count', mem: memory({}), current: 3, desired: 9, max: 20, want: [6, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'scale-up from a small count is allowed up to 4', mem: memory({}), current: 1, desired: 9, max: 20, want: [4, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'maxReplicas, when below the scale-up limit', mem: memory({}), current: 3, desired: 9, max: 5, want: [5, 'ReadyForNewScale', 'TooManyReplicas', 'True'] },
    { name: 'minReplicas', mem: memory({}), current: 3, desired: 1, min: 2, want: [2, 'ReadyForNewScale', 'TooFewReplicas', 'True'] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const n = normalizeDesiredReplicas(r.mem, r.current, r.desired, r.min ?? 1, r.max ?? 10, now);
      const able = n.conditions.find((c) => c.type === 'AbleToScale')!;
      const limited = n.conditions.find((c) => c.type === 'ScalingLimited')!;
      assert.deepEqual([n.replicas, able.reason, limited.reason, limited.status], r.want);
    });
  }
  test('the proposal is remembered, replacing one older than the window', () => {
    const mem = memory({ recommendations: recs([7, 400], [5, 10]) });
    normalizeDesiredReplicas(mem, 5, 3, 1, 10, now);
    assert.deepEqual(mem.recommendations, [{ replicas: 3, atMs: now }, { replicas: 5, atMs: sAgo(10) }]);
  });
});

const defaults: HorizontalPodAutoscalerBehavior = { scaleUp: defaultScaleUpRules(), scaleDown: defaultScaleDownRules() };

describe('normalizeWithBehaviors', () => {
  const rows: { name: string; behavior: HorizontalPodAutoscalerBehavior; mem?: AutoscalerMemory; current: number; desired: number; min?: number; max?: number; want: Want }[] = [
    { name: 'defaults: scale-up by the larger of 4 pods and 100% per 15 s', behavior: defaults, current: 3, desired: 20, max: 50, want: [7, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'defaults: 100% per 15 s wins from 10 pods', behavior: defaults, current: 10, desired: 40, max: 50, want: [20, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'defaults: the scale-down window (unset) is the controller\'s 300 s', behavior: defaults, mem: memory({ recommendations: recs([8, 299]) }), current: 8, desired: 2, want: [8, 'ScaleDownStabilized', 'DesiredWithinRange', 'False'] },
    { name: 'a scale-down window of 60 s lets an older recommendation go', behavior: { ...defaults, scaleDown: { ...defaultScaleDownRules(), stabilizationWindowSeconds: 60 } }, mem: memory({ recommendations: recs([8, 61]) }), current: 8, desired: 2, want: [2, 'ReadyForNewScale', 'DesiredWithinRange', 'False'] },
    { name: 'a scale-up window holds the lowest recent recommendation', behavior: { ...defaults, scaleUp: { ...defaultScaleUpRules(), stabilizationWindowSeconds: 120 } }, mem: memory({ recommendations: recs([4, 60]) }), current: 3, desired: 6, want: [4, 'ScaleUpStabilized', 'DesiredWithinRange', 'False'] },
    { name: 'a Pods policy counts the pods added within its period', behavior: { ...defaults, scaleUp: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } }, mem: memory({ scaleUpEvents: events([2, 30]) }), current: 5, desired: 9, want: [5, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'an event older than the period no longer counts', behavior: { ...defaults, scaleUp: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } }, mem: memory({ scaleUpEvents: events([2, 61]) }), current: 5, desired: 9, want: [7, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'Min selects the policy allowing the smaller change', behavior: { ...defaults, scaleUp: { selectPolicy: 'Min', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 50, periodSeconds: 15 }] } }, current: 4, desired: 20, max: 50, want: [6, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'Disabled: no scale-up at all', behavior: { ...defaults, scaleUp: { selectPolicy: 'Disabled', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] } }, current: 4, desired: 8, want: [4, 'ReadyForNewScale', 'ScaleUpLimit', 'True'] },
    { name: 'a Percent scale-down policy rounds the count down', behavior: { ...defaults, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] } }, current: 5, desired: 1, want: [2, 'ReadyForNewScale', 'ScaleDownLimit', 'True'] },
    { name: 'a scale-down policy counts the pods removed within its period', behavior: { ...defaults, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } }, mem: memory({ scaleDownEvents: events([1, 10]) }), current: 5, desired: 1, want: [5, 'ReadyForNewScale', 'ScaleDownLimit', 'True'] },
    { name: 'minReplicas above the scale-down limit', behavior: { ...defaults, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } }, current: 5, desired: 1, min: 3, want: [3, 'ReadyForNewScale', 'TooFewReplicas', 'True'] },
    { name: 'maxReplicas below the scale-up limit', behavior: defaults, current: 3, desired: 20, max: 5, want: [5, 'ReadyForNewScale', 'TooManyReplicas', 'True'] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const n = normalizeWithBehaviors(r.mem ?? memory({}), r.behavior, r.current, r.desired, r.min ?? 1, r.max ?? 10, now);
      const able = n.conditions.find((c) => c.type === 'AbleToScale')!;
      const limited = n.conditions.find((c) => c.type === 'ScalingLimited')!;
      assert.deepEqual([n.replicas, able.reason, limited.reason, limited.status], r.want);
    });
  }
});

describe('storeScaleEvent', () => {
  test('without a behavior nothing is kept', () => {
    const mem = memory({});
    storeScaleEvent(mem, undefined, 2, 4, now);
    assert.deepEqual(mem, emptyMemory());
  });
  test('a scale-up is kept as the pods added; an event older than the longest period gives its slot', () => {
    const mem = memory({ scaleUpEvents: events([3, 20], [1, 5]) });
    storeScaleEvent(mem, defaults, 4, 6, now);
    assert.deepEqual(mem.scaleUpEvents, [{ change: 2, atMs: now, outdated: false }, { change: 1, atMs: sAgo(5), outdated: false }]);
  });
  test('a scale-down is kept as the pods removed', () => {
    const mem = memory({});
    storeScaleEvent(mem, defaults, 6, 2, now);
    assert.deepEqual(mem.scaleDownEvents, [{ change: 4, atMs: now, outdated: false }]);
  });
});
