// PodDisruptionBudget arithmetic (src/policy/disruption.ts), one row per rule of
// pkg/controller/disruption (the status each case of disruption_test.go verifies: disruptions
// allowed, current and desired healthy, expected pods, disrupted pods), the DisruptionAllowed
// condition, the fail-safe, and the eviction subresource's decision (eviction.go).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OwnerReference, Pod, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../../src/api/types.js';
import {
  budgetSelects, budgetStatus, canIgnoreBudget, countHealthyPods, disruptedPodMap, evictionDecision, expectedPodCount, failSafeStatus, type ControllerScale, type ScaleFinder,
} from '../../src/policy/disruption.js';

const now = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

const rs: OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-uid', controller: true };
const sts: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-uid', controller: true };

function pod(name: string, o: { ready?: boolean; owner?: OwnerReference; deleting?: boolean; phase?: string; labels?: Record<string, string> } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', labels: o.labels ?? { app: 'web' }, ...(o.owner ? { ownerReferences: [o.owner] } : {}), ...(o.deleting ? { deletionTimestamp: ago(1) } : {}) },
    spec: { containers: [] },
    status: { phase: o.phase ?? 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  } as Pod;
}
const pods = (n: number, o: Parameters<typeof pod>[1] = {}) => Array.from({ length: n }, (_, i) => pod(`p${i}`, o));

function budget(spec: PodDisruptionBudgetSpec, status?: Partial<PodDisruptionBudgetStatus>, generation = 1): PodDisruptionBudget {
  return {
    metadata: { name: 'web', namespace: 'default', generation },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    ...(status ? { status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...status } } : {}),
  };
}

/** The finders over a fixed table of controllers: uid → scale. */
const scales = (table: Record<string, number>): ScaleFinder => (ref): ControllerScale | undefined => (ref.uid in table ? { uid: ref.uid, scale: table[ref.uid]! } : undefined);

/** trySync's arithmetic: expected count, disrupted map, healthy count, the status it writes. */
function sync(pdb: PodDisruptionBudget, ps: Pod[], find: ScaleFinder = scales({})) {
  const counts = expectedPodCount(pdb, ps, find);
  const d = disruptedPodMap(ps, pdb, now);
  const currentHealthy = countHealthyPods(ps, d.disruptedPods, now);
  return { status: budgetStatus(pdb, { currentHealthy, desiredHealthy: counts.desiredHealthy, expectedCount: counts.expectedCount, disruptedPods: d.disruptedPods }, now), counts, d };
}

type Counts = [allowed: number, current: number, desired: number, expected: number];

describe('disruption controller status', () => {
  const rows: { name: string; pdb: PodDisruptionBudget; pods: Pod[]; find?: ScaleFinder; want: Counts; disrupted?: Record<string, string> }[] = [
    { name: 'an integer minAvailable with no pods: nothing expected, nothing allowed', pdb: budget({ minAvailable: 3 }), pods: [], want: [0, 0, 3, 0] },
    { name: 'an integer minAvailable counts the selected pods, managed or not', pdb: budget({ minAvailable: 3 }), pods: pods(4), want: [1, 4, 3, 4] },
    { name: 'an unready pod is not healthy', pdb: budget({ minAvailable: 3 }), pods: [...pods(3), pod('p9', { ready: false })], want: [0, 3, 3, 4] },
    { name: 'a pod being deleted is not healthy', pdb: budget({ minAvailable: 1 }), pods: [...pods(1), pod('p9', { deleting: true })], want: [0, 1, 1, 2] },
    { name: 'a percent minAvailable is resolved against the ReplicaSet scale, rounding up', pdb: budget({ minAvailable: '28%' }), pods: pods(7, { owner: rs }), find: scales({ 'rs-uid': 7 }), want: [5, 7, 2, 7] },
    { name: 'the scale, not the pod count, is the denominator', pdb: budget({ minAvailable: '50%' }), pods: pods(2, { owner: rs }), find: scales({ 'rs-uid': 4 }), want: [0, 2, 2, 4] },
    { name: 'an integer maxUnavailable is resolved against the scale', pdb: budget({ maxUnavailable: 1 }), pods: pods(5, { owner: rs }), find: scales({ 'rs-uid': 5 }), want: [1, 5, 4, 5] },
    { name: 'a percent maxUnavailable rounds up against a StatefulSet scale', pdb: budget({ maxUnavailable: '50%' }), pods: pods(3, { owner: sts }), find: scales({ 'sts-uid': 3 }), want: [2, 3, 1, 3] },
    { name: 'controllers of several pods are each counted once', pdb: budget({ maxUnavailable: 0 }), pods: [...pods(2, { owner: rs }), pod('s0', { owner: sts })], find: scales({ 'rs-uid': 2, 'sts-uid': 1 }), want: [0, 3, 3, 3] },
    { name: 'maxUnavailable over unmanaged pods only: no scale, so no disruption', pdb: budget({ maxUnavailable: 1 }), pods: pods(3), want: [0, 3, 0, 0] },
    { name: 'desiredHealthy is never negative', pdb: budget({ maxUnavailable: '100%' }), pods: pods(2, { owner: rs }), find: scales({ 'rs-uid': 2 }), want: [2, 2, 0, 2] },
    { name: 'no bound: nothing desired, nothing expected, nothing allowed', pdb: budget({}), pods: pods(2), want: [0, 2, 0, 0] },
    {
      name: 'a pod evicted less than two minutes ago is not healthy, and stays in disruptedPods',
      pdb: budget({ minAvailable: 1 }, { disruptedPods: { p0: ago(30) } }),
      pods: pods(3),
      want: [1, 2, 1, 3],
      disrupted: { p0: ago(30) },
    },
    { name: 'an eviction entry older than two minutes is dropped and the pod counts again', pdb: budget({ minAvailable: 1 }, { disruptedPods: { p0: ago(121) } }), pods: pods(3), want: [2, 3, 1, 3], disrupted: {} },
    { name: 'an eviction entry of a pod already being deleted is dropped', pdb: budget({ minAvailable: 1 }, { disruptedPods: { p9: ago(10) } }), pods: [...pods(2), pod('p9', { deleting: true })], want: [1, 2, 1, 3], disrupted: {} },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const { status } = sync(r.pdb, r.pods, r.find);
      assert.ok(status);
      assert.deepEqual([status.disruptionsAllowed, status.currentHealthy, status.desiredHealthy, status.expectedPods], r.want);
      assert.equal(status.observedGeneration, r.pdb.metadata?.generation);
      if (r.disrupted) assert.deepEqual(status.disruptedPods ?? {}, r.disrupted);
    });
  }

  test('a pod whose controller is not found fails the sync with upstream\'s message', () => {
    assert.throws(() => expectedPodCount(budget({ minAvailable: '50%' }), [pod('p0', { owner: rs })], scales({})), { message: 'found no controllers for pod "p0"' });
  });
  test('the unmanaged pods are named (for the UnmanagedPods event)', () => {
    assert.deepEqual(expectedPodCount(budget({ maxUnavailable: 1 }), [pod('a'), pod('b', { owner: rs })], scales({ 'rs-uid': 1 })).unmanagedPods, ['a']);
  });
  test('the earliest running-out eviction entry is when to sync again', () => {
    const { d } = sync(budget({ minAvailable: 1 }, { disruptedPods: { p0: ago(30), p1: ago(90) } }), pods(3));
    assert.equal(d.recheckAtMs, Date.parse(ago(90)) + 120_000);
  });
});

describe('DisruptionAllowed condition', () => {
  test('allowed: True / SufficientPods, with the observed generation', () => {
    const { status } = sync(budget({ minAvailable: 1 }, undefined, 3), pods(2));
    assert.deepEqual(status?.conditions, [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 3, lastTransitionTime: ago(0), reason: 'SufficientPods', message: '' }]);
  });
  test('not allowed: False / InsufficientPods', () => {
    const { status } = sync(budget({ minAvailable: 2 }), pods(2));
    assert.equal(status?.conditions?.[0]?.status, 'False');
    assert.equal(status?.conditions?.[0]?.reason, 'InsufficientPods');
  });
  test('a status that already says it all is not written again', () => {
    const first = sync(budget({ minAvailable: 1 }), pods(2)).status!;
    assert.equal(sync({ ...budget({ minAvailable: 1 }), status: first }, pods(2)).status, undefined);
  });
  test('a new generation is observed even when the counts stay', () => {
    const first = sync(budget({ minAvailable: 1 }), pods(2)).status!;
    assert.equal(sync({ ...budget({ minAvailable: 1 }, undefined, 2), status: first }, pods(2)).status?.observedGeneration, 2);
  });
  test('the transition time moves only when the condition status changes', () => {
    const old = { ...budget({ minAvailable: 1 }), status: { ...sync(budget({ minAvailable: 1 }), pods(2)).status!, conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: ago(600), reason: 'SufficientPods', message: '' }] } };
    assert.equal(sync(old, pods(3)).status?.conditions?.[0]?.lastTransitionTime, ago(600));
    assert.equal(sync(old, pods(1)).status?.conditions?.[0]?.lastTransitionTime, ago(0));
  });
  test('fail-safe: no disruption, False / SyncFailed with the error, generation not observed', () => {
    const s = failSafeStatus(budget({ minAvailable: '50%' }, { disruptionsAllowed: 2, observedGeneration: 1 }, 2), 'found no controllers for pod "p0"', now);
    assert.equal(s.disruptionsAllowed, 0);
    assert.equal(s.observedGeneration, 1);
    assert.deepEqual(s.conditions, [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: ago(0), reason: 'SyncFailed', message: 'found no controllers for pod "p0"' }]);
  });
});

describe('budget selection', () => {
  const rows: { name: string; selector: PodDisruptionBudgetSpec['selector'] | null; labels: Record<string, string>; want: boolean }[] = [
    { name: 'a null selector selects nothing', selector: null, labels: { app: 'web' }, want: false },
    { name: 'an empty selector selects every pod (policy/v1)', selector: {}, labels: { app: 'x' }, want: true },
    { name: 'matchLabels select by label', selector: { matchLabels: { app: 'web' } }, labels: { app: 'web' }, want: true },
    { name: 'a pod without the label is not selected', selector: { matchLabels: { app: 'web' } }, labels: { app: 'db' }, want: false },
    { name: 'an unparsable selector selects nothing', selector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['x'] }] }, labels: { app: 'x' }, want: false },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const b = budget({});
      if (r.selector === null) delete b.spec!.selector;
      else b.spec!.selector = r.selector;
      assert.equal(budgetSelects(b, pod('p', { labels: r.labels })), r.want);
    });
  }
});

describe('eviction decision', () => {
  test('canIgnorePDB: Pending, Succeeded, Failed and deleting pods skip the budget; Running ones do not', () => {
    assert.deepEqual(['Pending', 'Succeeded', 'Failed', 'Running'].map((phase) => canIgnoreBudget(pod('p', { phase }))), [true, true, true, false]);
    assert.equal(canIgnoreBudget(pod('p', { deleting: true })), true);
  });
  const allowed = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 };
  const rows: { name: string; pdb: PodDisruptionBudget; pod: Pod; dryRun?: boolean; want: string; cause?: string }[] = [
    { name: 'a budget with a disruption to spare: decrement', pdb: budget({ minAvailable: 2 }, allowed), pod: pod('p0'), want: 'decrement' },
    { name: 'no disruption allowed: 429 with the healthy counts', pdb: budget({ minAvailable: 3 }, { ...allowed, disruptionsAllowed: 0, desiredHealthy: 3 }), pod: pod('p0'), want: 'tooManyRequests', cause: 'The disruption budget web needs 3 healthy pods and has 3 currently' },
    { name: 'a budget not yet observed: 429, still being processed', pdb: budget({ minAvailable: 2 }, { ...allowed, observedGeneration: 1 }, 2), pod: pod('p0'), want: 'tooManyRequests', cause: 'The disruption budget web is still being processed by the server.' },
    { name: 'negative disruptions allowed: forbidden', pdb: budget({ minAvailable: 2 }, { ...allowed, disruptionsAllowed: -1 }), pod: pod('p0'), want: 'forbidden' },
    { name: 'an unready pod while the budget is met goes without using it (IfHealthyBudget default)', pdb: budget({ minAvailable: 2 }, { ...allowed, disruptionsAllowed: 0, currentHealthy: 2 }), pod: pod('p0', { ready: false }), want: 'skip' },
    { name: 'an unready pod while the budget is not met: the budget decides', pdb: budget({ minAvailable: 3 }, { ...allowed, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3 }), pod: pod('p0', { ready: false }), want: 'tooManyRequests' },
    { name: 'an unready pod under AlwaysAllow goes regardless', pdb: budget({ minAvailable: 3, unhealthyPodEvictionPolicy: 'AlwaysAllow' }, { ...allowed, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3 }), pod: pod('p0', { ready: false }), want: 'skip' },
    { name: 'a ready pod under AlwaysAllow still needs the budget', pdb: budget({ minAvailable: 3, unhealthyPodEvictionPolicy: 'AlwaysAllow' }, { ...allowed, disruptionsAllowed: 0, desiredHealthy: 3 }), pod: pod('p0'), want: 'tooManyRequests' },
    { name: 'an unready pod with nothing desired: the budget decides', pdb: budget({ minAvailable: 0 }, { ...allowed, disruptionsAllowed: 0, desiredHealthy: 0 }), pod: pod('p0', { ready: false }), want: 'tooManyRequests' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const d = evictionDecision(r.pdb, r.pod, now, r.dryRun ?? false);
      assert.equal(d.kind, r.want);
      if (r.cause) assert.equal(d.kind === 'tooManyRequests' && d.cause, r.cause);
    });
  }
  test('the decrement records the pod and, at zero, flips the condition', () => {
    const d = evictionDecision(budget({ minAvailable: 2 }, { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 }), pod('p0'), now, false);
    assert.ok(d.kind === 'decrement');
    assert.equal(d.status.disruptionsAllowed, 0);
    assert.deepEqual(d.status.disruptedPods, { p0: ago(0) });
    assert.equal(d.status.conditions?.[0]?.reason, 'InsufficientPods');
  });
  test('a dry run decrements but records no pod', () => {
    const d = evictionDecision(budget({ minAvailable: 1 }, { disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3, observedGeneration: 1 }), pod('p0'), now, true);
    assert.ok(d.kind === 'decrement');
    assert.equal(d.status.disruptedPods, undefined);
  });
});
