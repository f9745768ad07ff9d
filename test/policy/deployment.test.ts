// The Deployment controller's pure rules (src/policy/deploymentutil.ts, deployment.ts), one row
// per rule of pkg/controller/deployment: maxSurge/maxUnavailable from int-or-percent, the new
// ReplicaSet's size, rolling scale-up and scale-down of old ReplicaSets, proportional scaling
// mid-rollout, revisions and revision-history, the replicas annotations, revisionHistoryLimit
// cleanup, Recreate's wait for old pods, status counts and the Available and Progressing
// conditions with upstream's reasons and messages, paused deployments.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Deployment, Pod, ReplicaSet } from '../../src/api/types.js';
import {
  calculateStatus,
  isScalingEvent,
  newReplicaSetFor,
  oldPodsRunning,
  pausedConditionStatus,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  replicaSetsToCleanUp,
  rolloutStatus,
  scaledMessage,
  scalePlan,
  selectsAll,
  syncedNewReplicaSet,
} from '../../src/policy/deployment.js';
import { equalIgnoreHash, findNewReplicaSet, maxRevision, maxSurge, maxUnavailable, newRSNewReplicas, resolveFenceposts, setNewReplicaSetAnnotations } from '../../src/policy/deploymentutil.js';

const now = new Date('2026-01-01T01:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const template = (image = 'busybox') => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });

function dep(spec: Partial<NonNullable<Deployment['spec']>> = {}, status: Deployment['status'] = {}, extra: Partial<Deployment['metadata']> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd-uid', generation: 1, ...extra },
    spec: { replicas: 10, selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } }, ...spec },
    status,
  };
}

let seq = 0;
function rs(name: string, replicas: number, o: { available?: number; ready?: number; actual?: number; created?: number; revision?: string; image?: string; annotations?: Record<string, string>; generation?: number; observed?: number } = {}): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}-${++seq}`,
      creationTimestamp: ago(o.created ?? 100),
      generation: o.generation ?? 1,
      annotations: { ...(o.revision ? { 'deployment.kubernetes.io/revision': o.revision } : {}), ...(o.annotations ?? {}) },
    },
    spec: { replicas, selector: { matchLabels: { app: 'web', 'pod-template-hash': name } }, template: { metadata: { labels: { app: 'web', 'pod-template-hash': name } }, spec: { containers: [{ name: 'c', image: o.image ?? name }] } } },
    status: { replicas: o.actual ?? replicas, readyReplicas: o.ready ?? o.available ?? replicas, availableReplicas: o.available ?? replicas, observedGeneration: o.observed ?? 1 },
  };
}

describe('maxSurge and maxUnavailable (ResolveFenceposts)', () => {
  const rows: { name: string; surge: number | string; unavailable: number | string; desired: number; want: { surge: number; unavailable: number } }[] = [
    { name: 'the defaults 25%/25% of 10: surge rounds up to 3, unavailable down to 2', surge: '25%', unavailable: '25%', desired: 10, want: { surge: 3, unavailable: 2 } },
    { name: '25%/25% of 1: surge 1, unavailable 0', surge: '25%', unavailable: '25%', desired: 1, want: { surge: 1, unavailable: 0 } },
    { name: 'integers as they are', surge: 2, unavailable: 1, desired: 10, want: { surge: 2, unavailable: 1 } },
    { name: 'both resolve to zero: unavailable 1', surge: '0%', unavailable: '1%', desired: 2, want: { surge: 0, unavailable: 1 } },
    { name: 'explicit zeros: unavailable 1', surge: 0, unavailable: 0, desired: 5, want: { surge: 0, unavailable: 1 } },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(resolveFenceposts(r.surge, r.unavailable, r.desired), r.want));

  test('maxUnavailable never exceeds replicas', () => assert.equal(maxUnavailable(dep({ replicas: 2, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 5 } } })), 2));
  test('Recreate: no surge, no unavailable budget', () => {
    const d = dep({ strategy: { type: 'Recreate' } });
    assert.equal(maxSurge(d), 0);
    assert.equal(maxUnavailable(d), 0);
  });
  test('replicas 0: maxUnavailable 0', () => assert.equal(maxUnavailable(dep({ replicas: 0 })), 0));
});

describe('the new ReplicaSet', () => {
  test('named <deployment>-<hash>, hash in labels, selector and template, owned by the Deployment, sized by the surge', () => {
    const old = rs('old', 10, { revision: '1' });
    const n = newReplicaSetFor(dep({}, {}, { annotations: { 'kubernetes.io/change-cause': 'v2', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }), [old], 2);
    const hash = n.metadata.labels!['pod-template-hash']!;
    assert.equal(n.metadata.name, `web-${hash}`);
    assert.deepEqual(n.spec!.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.deepEqual(n.spec!.template!.metadata!.labels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(n.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true, blockOwnerDeletion: true }]);
    assert.equal(n.spec!.replicas, 3, 'old 10 + new may not pass 10 + maxSurge 3');
    assert.deepEqual(n.metadata.annotations, {
      'kubernetes.io/change-cause': 'v2',
      'deployment.kubernetes.io/revision': '2',
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    });
  });
  test('the first ReplicaSet takes every replica at once', () => assert.equal(newReplicaSetFor(dep(), [], 1).spec!.replicas, 10));
  test('collisionCount changes the name', () => assert.notEqual(newReplicaSetFor(dep(), [], 1).metadata.name, newReplicaSetFor(dep({}, { collisionCount: 1 }), [], 1).metadata.name));
  test('Recreate: NewRSNewReplicas is all replicas', () => assert.equal(newRSNewReplicas(dep({ strategy: { type: 'Recreate' } }), [rs('old', 10)], rs('new', 0)), 10));

  test('FindNewReplicaSet: equal template ignoring the hash label; the oldest of several', () => {
    const a = rs('a', 1, { image: 'busybox', created: 50 });
    const b = rs('b', 1, { image: 'busybox', created: 200 });
    assert.equal(findNewReplicaSet(dep(), [a, b, rs('c', 1)]), b);
    assert.equal(equalIgnoreHash(a.spec!.template, template()), true);
    assert.equal(equalIgnoreHash(rs('d', 1, { image: 'nginx' }).spec!.template, template()), false);
  });
});

describe('revisions (SetNewReplicaSetAnnotations, MaxRevision)', () => {
  test('a new ReplicaSet gets max old revision + 1', () => assert.equal(maxRevision([rs('a', 0, { revision: '3' }), rs('b', 0, { revision: '7' }), rs('c', 0, { revision: 'x' })]), 7));
  test('a template that comes back: revision bumped, the old one kept in revision-history', () => {
    const a: Record<string, string> = { 'deployment.kubernetes.io/revision': '1' };
    assert.equal(setNewReplicaSetAnnotations(dep(), a, 3, true), true);
    assert.equal(a['deployment.kubernetes.io/revision'], '3');
    assert.equal(a['deployment.kubernetes.io/revision-history'], '1');
    setNewReplicaSetAnnotations(dep(), a, 5, true);
    assert.equal(a['deployment.kubernetes.io/revision-history'], '1,3');
  });
  test('a higher revision is never lowered', () => {
    const a: Record<string, string> = { 'deployment.kubernetes.io/revision': '9' };
    assert.equal(setNewReplicaSetAnnotations(dep(), a, 3, true), false);
    assert.equal(a['deployment.kubernetes.io/revision'], '9');
  });
  test('revision-history is trimmed from the front to 2000 characters', () => {
    const a: Record<string, string> = { 'deployment.kubernetes.io/revision': '9', 'deployment.kubernetes.io/revision-history': '1,2,3,4' };
    // '1,2,3,4' + ',9' is 9 characters: the oldest entry goes.
    setNewReplicaSetAnnotations(dep(), a, 10, true, 8);
    assert.equal(a['deployment.kubernetes.io/revision-history'], '2,3,4,9');
  });
  test('an existing new ReplicaSet: synced when annotations or minReadySeconds differ, else left alone', () => {
    const cur = rs('cur', 10, { revision: '2', image: 'busybox' });
    assert.equal(syncedNewReplicaSet(dep(), cur, 2), undefined);
    assert.equal(syncedNewReplicaSet(dep({ minReadySeconds: 5 }), cur, 2)?.spec?.minReadySeconds, 5);
    assert.equal(syncedNewReplicaSet(dep(), cur, 4)?.metadata.annotations?.['deployment.kubernetes.io/revision'], '4');
  });
});

describe('RollingUpdate', () => {
  test('reconcileNewReplicaSet: at the desired size, nothing', () => assert.equal(reconcileNewReplicaSet(dep(), [rs('n', 10)], rs('n', 10)), undefined));
  test('reconcileNewReplicaSet: above it, down to it', () => assert.equal(reconcileNewReplicaSet(dep(), [rs('n', 12)], rs('n', 12)), 10));
  test('reconcileNewReplicaSet: below, up to replicas + maxSurge in total', () => {
    const n = rs('n', 3, { available: 0 });
    assert.equal(reconcileNewReplicaSet(dep(), [rs('o', 8), n], n), 5);
  });

  const rows: { name: string; old: ReplicaSet[]; newRS: ReplicaSet; want: [string, number][]; scaled: number }[] = [
    { name: 'new pods not available yet: the budget (13 - 8 - 3) = 2 goes to the healthy old set', old: [rs('o', 10)], newRS: rs('n', 3, { available: 0 }), want: [['o', 8]], scaled: 2 },
    { name: 'unhealthy old replicas go first (cleanupUnhealthyReplicas), then nothing while available <= minAvailable', old: [rs('o', 10, { available: 7 })], newRS: rs('n', 3, { available: 0 }), want: [['o', 8]], scaled: 2 },
    { name: 'budget exhausted (all - minAvailable - new unavailable <= 0): nothing', old: [rs('o', 8)], newRS: rs('n', 5, { available: 0 }), want: [], scaled: 0 },
    { name: 'new pods available: scale old down by available - minAvailable', old: [rs('o', 8)], newRS: rs('n', 5, { available: 5 }), want: [['o', 3]], scaled: 5 },
    { name: 'oldest old ReplicaSet first', old: [rs('young', 3, { created: 10 }), rs('old', 3, { created: 500 })], newRS: rs('n', 7, { available: 7 }), want: [['old', 0], ['young', 1]], scaled: 5 },
    { name: 'no old replicas: nothing', old: [rs('o', 0)], newRS: rs('n', 10), want: [], scaled: 0 },
  ];
  for (const r of rows) {
    test(`reconcileOldReplicaSets: ${r.name}`, () => {
      const res = reconcileOldReplicaSets(dep(), [...r.old, r.newRS], r.old, r.newRS);
      assert.deepEqual(res.ops.map((o) => [o.rs.metadata.name, o.to]), r.want);
      assert.equal(res.scaledDown, r.scaled);
    });
  }
});

describe('proportional scaling (scale) and scaling events', () => {
  test('one active ReplicaSet takes the new count', () => {
    const only = rs('n', 10);
    assert.deepEqual(scalePlan(dep({ replicas: 15 }), only, [rs('o', 0)]).map((o) => [o.rs.metadata.name, o.to]), [['n', 15]]);
  });
  test('a saturated new ReplicaSet: every old one to 0', () => {
    const n = rs('n', 10, { annotations: { 'deployment.kubernetes.io/desired-replicas': '10' } });
    assert.deepEqual(scalePlan(dep(), n, [rs('o', 2)]).map((o) => [o.rs.metadata.name, o.to]), [['o', 0]]);
  });
  test('mid-rollout 10 → 15: +5 shared by the max-replicas proportion, larger first', () => {
    const ann = { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '13' };
    const old = rs('o', 8, { annotations: ann, created: 200 });
    const n = rs('n', 5, { annotations: ann, created: 10 });
    assert.deepEqual(scalePlan(dep({ replicas: 15 }), n, [old]).map((o) => [o.rs.metadata.name, o.to]), [['o', 11], ['n', 7]]);
  });
  test('mid-rollout 10 → 5: shrink proportionally, older first among equals', () => {
    const ann = { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '13' };
    const old = rs('o', 8, { annotations: ann, created: 200 });
    const n = rs('n', 5, { annotations: ann, created: 10 });
    // allowed 5 + surge 3 = 8; toAdd -5: old round(8*8/13)=5 → -3, new round(5*8/13)=3 → -2.
    assert.deepEqual(scalePlan(dep({ replicas: 5 }), n, [old]).map((o) => [o.rs.metadata.name, o.to]), [['o', 5], ['n', 3]]);
  });
  test('scaling to 0 empties every active ReplicaSet', () => {
    const ann = { 'deployment.kubernetes.io/max-replicas': '13' };
    assert.deepEqual(scalePlan(dep({ replicas: 0 }), rs('n', 5, { annotations: ann }), [rs('o', 8, { annotations: ann })]).map((o) => o.to), [0, 0]);
  });
  test('isScalingEvent: an active ReplicaSet whose desired-replicas differs', () => {
    assert.equal(isScalingEvent(dep({ replicas: 3 }), [rs('n', 10, { annotations: { 'deployment.kubernetes.io/desired-replicas': '10' } })]), true);
    assert.equal(isScalingEvent(dep(), [rs('n', 10, { annotations: { 'deployment.kubernetes.io/desired-replicas': '10' } })]), false);
    assert.equal(isScalingEvent(dep({ replicas: 3 }), [rs('n', 0, { annotations: { 'deployment.kubernetes.io/desired-replicas': '10' } })]), false);
  });
  test('the ScalingReplicaSet message', () => {
    assert.equal(scaledMessage('web-6d4cf56db6', 0, 3), 'Scaled up replica set web-6d4cf56db6 from 0 to 3');
    assert.equal(scaledMessage('web-6d4cf56db6', 3, 1), 'Scaled down replica set web-6d4cf56db6 from 3 to 1');
  });
  test('an empty selector selects all pods and is refused', () => {
    assert.equal(selectsAll(dep({ selector: {} })), true);
    assert.equal(selectsAll(dep()), false);
  });
});

describe('Recreate: old pods must be gone first (oldPodsRunning)', () => {
  const p = (phase: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: phase }, spec: { containers: [] }, status: { phase } });
  const rows: { name: string; old: ReplicaSet[]; pods: [string, Pod[]][]; want: boolean }[] = [
    { name: 'an old ReplicaSet still reports replicas', old: [rs('o', 0, { actual: 1 })], pods: [], want: true },
    { name: 'a pod of an old ReplicaSet is still Running', old: [rs('o', 0, { actual: 0 })], pods: [['old-uid', [p('Running')]]], want: true },
    { name: 'an Unknown pod counts as running', old: [rs('o', 0, { actual: 0 })], pods: [['old-uid', [p('Unknown')]]], want: true },
    { name: 'only finished pods left', old: [rs('o', 0, { actual: 0 })], pods: [['old-uid', [p('Succeeded'), p('Failed')]]], want: false },
    { name: 'pods of the new ReplicaSet do not count', old: [rs('o', 0, { actual: 0 })], pods: [['new-uid', [p('Running')]]], want: false },
  ];
  const newRS = { ...rs('n', 0), metadata: { ...rs('n', 0).metadata, uid: 'new-uid' } };
  for (const r of rows) test(r.name, () => assert.equal(oldPodsRunning(newRS, r.old, new Map(r.pods)), r.want));
});

describe('revisionHistoryLimit (cleanupDeployment)', () => {
  test('beyond the limit, the lowest revisions with 0 replicas and an observed generation go', () => {
    const olds = [rs('r3', 0, { revision: '3' }), rs('r1', 0, { revision: '1' }), rs('r2', 0, { revision: '2' }), rs('r4', 0, { revision: '4' })];
    assert.deepEqual(replicaSetsToCleanUp(dep({ revisionHistoryLimit: 2 }), olds).map((r) => r.metadata.name), ['r1', 'r2']);
  });
  test('one still scaled, or not yet observed, is kept', () => {
    const olds = [rs('r1', 1, { revision: '1' }), rs('r2', 0, { revision: '2', generation: 2, observed: 1 }), rs('r3', 0, { revision: '3' })];
    assert.deepEqual(replicaSetsToCleanUp(dep({ revisionHistoryLimit: 0 }), olds).map((r) => r.metadata.name), ['r3']);
  });
  test('no limit: keep everything', () => assert.deepEqual(replicaSetsToCleanUp(dep(), [rs('r1', 0, { revision: '1' })]), []));
});

describe('status and conditions', () => {
  test('counts: replicas and ready/available summed, updated from the new ReplicaSet, unavailable from spec', () => {
    const n = rs('n', 5, { available: 2, ready: 3 });
    const s = calculateStatus([rs('o', 8, { available: 8 }), n], n, dep({}, {}, { generation: 4 }), now);
    assert.equal(s.replicas, 13);
    assert.equal(s.updatedReplicas, 5);
    assert.equal(s.readyReplicas, 11);
    assert.equal(s.availableReplicas, 10);
    assert.equal(s.unavailableReplicas, 3);
    assert.equal(s.observedGeneration, 4);
    assert.deepEqual(s.conditions, [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: '2026-01-01T01:00:00Z', lastTransitionTime: '2026-01-01T01:00:00Z' }]);
  });
  test('Available False below replicas - maxUnavailable', () => {
    const n = rs('n', 10, { available: 7 });
    const c = calculateStatus([n], n, dep(), now).conditions!.find((x) => x.type === 'Available')!;
    assert.deepEqual([c.status, c.reason, c.message], ['False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']);
  });

  const progressing = (d: Deployment, all: ReplicaSet[], n: ReplicaSet | undefined) => rolloutStatus(d, all, n, now).status.conditions?.find((c) => c.type === 'Progressing');
  test('complete: Progressing True NewReplicaSetAvailable "ReplicaSet NAME has successfully progressed."', () => {
    const n = rs('web-1', 10);
    const c = progressing(dep({ progressDeadlineSeconds: 600 }, { conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: ago(5), lastTransitionTime: ago(50) }] }), [n], n)!;
    assert.deepEqual([c.status, c.reason, c.message, c.lastTransitionTime], ['True', 'NewReplicaSetAvailable', 'ReplicaSet "web-1" has successfully progressed.', ago(50)]);
  });
  test('progress: ReplicaSetUpdated with lastUpdateTime moved, lastTransitionTime kept', () => {
    const n = rs('web-1', 5, { available: 3 });
    const d = dep({ progressDeadlineSeconds: 600 }, { availableReplicas: 1, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "web-1" is progressing.', lastUpdateTime: ago(5), lastTransitionTime: ago(50) }] });
    const c = progressing(d, [rs('o', 8), n], n)!;
    assert.deepEqual([c.reason, c.message, c.lastUpdateTime, c.lastTransitionTime], ['ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing.', '2026-01-01T01:00:00Z', ago(50)]);
  });
  test('no progress past the deadline: Progressing False ProgressDeadlineExceeded', () => {
    const n = rs('web-1', 5, { available: 0 });
    const d = dep({ progressDeadlineSeconds: 60 }, { replicas: 13, updatedReplicas: 5, availableReplicas: 8, readyReplicas: 8, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: ago(61), lastTransitionTime: ago(61) }] });
    const c = progressing(d, [rs('o', 8), n], n)!;
    assert.deepEqual([c.status, c.reason, c.message], ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-1" has timed out progressing.']);
  });
  test('no progress before the deadline: unchanged, come back one second after it falls', () => {
    const n = rs('web-1', 5, { available: 0, ready: 0 });
    const o = rs('o', 8);
    const d = dep({ progressDeadlineSeconds: 60 }, { observedGeneration: 1, replicas: 13, updatedReplicas: 5, availableReplicas: 8, readyReplicas: 8, unavailableReplicas: 5, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastUpdateTime: ago(100), lastTransitionTime: ago(100) }, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: ago(20), lastTransitionTime: ago(20) }] });
    const r = rolloutStatus(d, [o, n], n, now);
    assert.equal(r.unchanged, true);
    assert.equal(r.requeueAfterMs, 41_000);
  });
  test('no deadline: no Progressing condition', () => {
    const n = rs('web-1', 10);
    assert.equal(progressing(dep({}, { conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }] }), [n], n), undefined);
  });
  test('a ReplicaSet ReplicaFailure is carried to the Deployment; gone when the ReplicaSet clears it', () => {
    const n = rs('web-1', 10, { available: 0 });
    n.status!.conditions = [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: ago(3) }];
    const c = rolloutStatus(dep(), [n], n, now).status.conditions!.find((x) => x.type === 'ReplicaFailure')!;
    assert.deepEqual([c.reason, c.message, c.lastUpdateTime], ['FailedCreate', 'quota', ago(3)]);
    const cleared = rolloutStatus(dep({}, { conditions: [c] }), [rs('web-1', 10)], undefined, now).status.conditions!;
    assert.equal(cleared.some((x) => x.type === 'ReplicaFailure'), false);
  });
  test('paused: Progressing Unknown DeploymentPaused; resumed: DeploymentResumed', () => {
    const p = pausedConditionStatus(dep({ paused: true, progressDeadlineSeconds: 600 }), now)!.conditions![0]!;
    assert.deepEqual([p.status, p.reason, p.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
    const r = pausedConditionStatus(dep({ progressDeadlineSeconds: 600 }, { conditions: [p] }), now)!.conditions![0]!;
    assert.deepEqual([r.status, r.reason, r.message], ['Unknown', 'DeploymentResumed', 'Deployment is resumed']);
    assert.equal(pausedConditionStatus(dep({ paused: true, progressDeadlineSeconds: 600 }, { conditions: [p] }), now), undefined);
  });
  test('paused after timing out: the timeout stays', () => {
    assert.equal(pausedConditionStatus(dep({ paused: true, progressDeadlineSeconds: 600 }, { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }), now), undefined);
  });
});
