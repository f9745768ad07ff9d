// The ReplicaSet controller's pure rules, one row per rule: which pods a controller owns, adopts
// and releases (controller_ref_manager.go ClaimObject), the deletion order on scale-down
// (ActivePodsWithRanks), readiness and availability, slow-start batches, the status with
// fullyLabeledReplicas, availableReplicas after minReadySeconds and ReplicaFailure. Every workload
// controller uses the claim and readiness rules; the pod from the template is podtemplate.test.ts,
// the pod-template-hash hash.test.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pod, ReplicaSet } from '../../src/api/types.js';
import { deleteBefore, isPodActive, isPodAvailable, isPodReady, podsToDelete } from '../../src/policy/activepods.js';
import { adoptPatch, claimAction, newControllerRef, releasePatch } from '../../src/policy/controllerref.js';
import { manageReplicas, minReadyRequeueSeconds, replicaSetStatus, replicaSetStatusUnchanged, slowStartBatches } from '../../src/policy/replicaset.js';

const now = new Date('2026-01-01T01:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface PodOpts {
  node?: string;
  phase?: string;
  ready?: number; // seconds ago it became ready
  restarts?: number;
  created?: number; // seconds ago
  cost?: string;
  uid?: string;
  labels?: Record<string, string>;
  owner?: string;
  deleting?: boolean;
}
function pod(name: string, o: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: o.uid ?? `uid-${name}`,
      labels: o.labels ?? { app: 'web' },
      ...(o.created !== undefined ? { creationTimestamp: ago(o.created) } : {}),
      ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': o.cost } } : {}),
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: o.owner, controller: true }] } : {}),
      ...(o.deleting ? { deletionTimestamp: ago(0) } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Running',
      conditions: o.ready !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: ago(o.ready) }] : [{ type: 'Ready', status: 'False' }],
      containerStatuses: [{ name: 'c', ready: o.ready !== undefined, restartCount: o.restarts ?? 0, image: 'busybox', imageID: '' }],
    },
  };
}

function rs(spec: Partial<NonNullable<ReplicaSet['spec']>> = {}, status: ReplicaSet['status'] = {}, generation = 1): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-abc', namespace: 'default', uid: 'rs-uid', generation },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
    status,
  };
}

describe('claiming pods (ControllerRefManager.ClaimObject)', () => {
  const owner = { uid: 'rs-uid', namespace: 'default' };
  const rows: { name: string; owner?: object; pod: Pod; matches: boolean; want: string }[] = [
    { name: 'controlled by us and matching: ours', pod: pod('a', { owner: 'rs-uid' }), matches: true, want: 'own' },
    { name: 'controlled by us, selector no longer matches: released', pod: pod('a', { owner: 'rs-uid' }), matches: false, want: 'release' },
    { name: 'controlled by us, not matching, while we are being deleted: kept as is', owner: { ...owner, deletionTimestamp: ago(1) }, pod: pod('a', { owner: 'rs-uid' }), matches: false, want: 'ignore' },
    { name: 'controlled by another owner: never touched', pod: pod('a', { owner: 'other' }), matches: true, want: 'ignore' },
    { name: 'orphan that matches: adopted', pod: pod('a'), matches: true, want: 'adopt' },
    { name: 'orphan that does not match: ignored', pod: pod('a'), matches: false, want: 'ignore' },
    { name: 'orphan being deleted: not adopted', pod: pod('a', { deleting: true }), matches: true, want: 'ignore' },
    { name: 'orphan while we are being deleted: not adopted', owner: { ...owner, deletionTimestamp: ago(1) }, pod: pod('a'), matches: true, want: 'ignore' },
    { name: 'orphan in another namespace: not adopted', owner: { uid: 'rs-uid', namespace: 'other' }, pod: pod('a'), matches: true, want: 'ignore' },
    { name: 'a cluster-scoped owner (no namespace) adopts in any namespace (only a namespaced owner checks)', owner: { uid: 'rs-uid' }, pod: pod('a'), matches: true, want: 'adopt' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(claimAction(r.owner ?? owner, r.pod, r.matches), r.want));

  test('adoption and release are strategic merge patches on ownerReferences with the uid as precondition', () => {
    const ref = newControllerRef(rs(), 'apps/v1', 'ReplicaSet');
    assert.deepEqual(ref, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-uid', controller: true, blockOwnerDeletion: true });
    assert.deepEqual(adoptPatch(ref, 'p1'), { metadata: { ownerReferences: [ref], uid: 'p1' } });
    assert.deepEqual(releasePatch('rs-uid', 'p1'), { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'rs-uid' }], uid: 'p1' } });
  });
});

describe('deletion order on scale-down (ActivePodsWithRanks.Less)', () => {
  // Each row: `first` is deleted before `second`.
  const rows: { name: string; first: Pod; second: Pod; ranks?: [number, number] }[] = [
    { name: 'unassigned before assigned', first: pod('a'), second: pod('b', { node: 'n1' }) },
    { name: 'Pending before Unknown', first: pod('a', { node: 'n', phase: 'Pending' }), second: pod('b', { node: 'n', phase: 'Unknown' }) },
    { name: 'Unknown before Running', first: pod('a', { node: 'n', phase: 'Unknown' }), second: pod('b', { node: 'n', phase: 'Running' }) },
    { name: 'not ready before ready', first: pod('a', { node: 'n' }), second: pod('b', { node: 'n', ready: 100 }) },
    { name: 'lower pod-deletion-cost first', first: pod('a', { node: 'n', ready: 10, cost: '-5' }), second: pod('b', { node: 'n', ready: 10 }) },
    { name: 'more related pods on the same node first (doubled up)', first: pod('a', { node: 'n', ready: 10 }), second: pod('b', { node: 'm', ready: 10 }), ranks: [2, 1] },
    { name: 'ready for less time first (log2 buckets of age)', first: pod('a', { node: 'n', ready: 10 }), second: pod('b', { node: 'n', ready: 1000 }) },
    { name: 'more restarts first', first: pod('a', { node: 'n', restarts: 5, created: 10 }), second: pod('b', { node: 'n', restarts: 1, created: 10 }) },
    { name: 'newer creation first', first: pod('a', { node: 'n', created: 10 }), second: pod('b', { node: 'n', created: 1000 }) },
    { name: 'no creation time before any', first: pod('a', { node: 'n' }), second: pod('b', { node: 'n', created: 10 }) },
    { name: 'same age bucket: the smaller uid first', first: pod('a', { node: 'n', created: 100, uid: 'u-a' }), second: pod('b', { node: 'n', created: 101, uid: 'u-b' }) },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const [ra, rb] = r.ranks ?? [0, 0];
      assert.equal(deleteBefore(r.first, ra, r.second, rb, now), true);
      assert.equal(deleteBefore(r.second, rb, r.first, ra, now), false);
    });
  }

  test('podsToDelete takes the first diff in that order, ranking by active related pods per node', () => {
    const pods = [pod('running-ready', { node: 'n1', ready: 100 }), pod('pending', { node: 'n1', phase: 'Pending' }), pod('unassigned', { phase: 'Pending' }), pod('running', { node: 'n2' })];
    assert.deepEqual(podsToDelete(pods, pods, 2, now).map((p) => p.metadata.name), ['unassigned', 'pending']);
    assert.deepEqual(podsToDelete(pods, pods, 3, now).map((p) => p.metadata.name), ['unassigned', 'pending', 'running']);
    // Two ready pods alike but for their node: the one sharing n1 with two related pods goes first.
    const a = pod('alone', { node: 'n2', ready: 50, created: 60 });
    const b = pod('crowded', { node: 'n1', ready: 50, created: 60 });
    assert.deepEqual(podsToDelete([a, b], [a, b, pod('other', { node: 'n1' })], 1, now).map((p) => p.metadata.name), ['crowded']);
  });

  test('active means neither finished nor being deleted', () => {
    assert.equal(isPodActive(pod('a')), true);
    assert.equal(isPodActive(pod('a', { phase: 'Succeeded' })), false);
    assert.equal(isPodActive(pod('a', { phase: 'Failed' })), false);
    assert.equal(isPodActive(pod('a', { deleting: true })), false);
  });
});

describe('availability (IsPodAvailable)', () => {
  const rows: { name: string; pod: Pod; minReady: number; want: boolean }[] = [
    { name: 'not ready: never available', pod: pod('a'), minReady: 0, want: false },
    { name: 'ready, minReadySeconds 0: available at once', pod: pod('a', { ready: 0 }), minReady: 0, want: true },
    { name: 'ready for less than minReadySeconds: not yet', pod: pod('a', { ready: 5 }), minReady: 10, want: false },
    { name: 'ready exactly minReadySeconds: not yet (strictly before now)', pod: pod('a', { ready: 10 }), minReady: 10, want: false },
    { name: 'ready longer than minReadySeconds: available', pod: pod('a', { ready: 11 }), minReady: 10, want: true },
  ];
  for (const r of rows) test(r.name, () => assert.equal(isPodAvailable(r.pod, r.minReady, now), r.want));
});

describe('readiness (IsPodReady)', () => {
  const withConditions = (conditions: { type: string; status: string }[]): Pod => ({ ...pod('a'), status: { phase: 'Running', conditions } });
  const rows: { name: string; pod: Pod; want: boolean }[] = [
    { name: 'Ready True: ready', pod: withConditions([{ type: 'Ready', status: 'True' }]), want: true },
    { name: 'Ready False: not ready', pod: withConditions([{ type: 'Ready', status: 'False' }]), want: false },
    { name: 'no Ready condition: not ready', pod: withConditions([{ type: 'PodScheduled', status: 'True' }]), want: false },
    { name: 'two Ready conditions: the first decides (GetPodReadyCondition)', pod: withConditions([{ type: 'Ready', status: 'False' }, { type: 'Ready', status: 'True' }]), want: false },
  ];
  for (const r of rows) test(r.name, () => assert.equal(isPodReady(r.pod), r.want));
});

describe('manageReplicas and slowStartBatch', () => {
  const rows: { name: string; count: number; want: number[] }[] = [
    { name: 'nothing to do: no batch', count: 0, want: [] },
    { name: 'one pod: one batch of 1', count: 1, want: [1] },
    { name: 'batches double: 1, 2, 4, then what is left', count: 10, want: [1, 2, 4, 3] },
    { name: 'exact powers: 1, 2, 4, 8', count: 15, want: [1, 2, 4, 8] },
  ];
  for (const r of rows) test(`slow start: ${r.name}`, () => assert.deepEqual(slowStartBatches(r.count), r.want));

  test('fewer active pods than replicas: create the difference', () => assert.deepEqual(manageReplicas(rs(), [pod('a')], [], now), { action: 'create', count: 2 }));
  test('as many as replicas: nothing', () => assert.deepEqual(manageReplicas(rs({ replicas: 1 }), [pod('a')], [], now), { action: 'none' }));
  test('more: delete the surplus, most deletable first', () => {
    const d = manageReplicas(rs({ replicas: 1 }), [pod('ready', { node: 'n', ready: 100 }), pod('notready', { node: 'n' })], [], now);
    assert.equal(d.action, 'delete');
    assert.deepEqual(d.action === 'delete' && d.pods.map((p) => p.metadata.name), ['notready']);
  });
  test('burst: at most 500 creates per sync', () => assert.deepEqual(manageReplicas(rs({ replicas: 800 }), [], [], now), { action: 'create', count: 500 }));
});

describe('ReplicaSet status (calculateStatus)', () => {
  test('replicas counts active owned pods; fullyLabeled those with every template label', () => {
    const s = replicaSetStatus(rs(), [pod('a', { labels: { app: 'web', tier: 'fe' } }), pod('b')], undefined, now);
    assert.equal(s.replicas, 2);
    assert.equal(s.fullyLabeledReplicas, 1);
    assert.equal(s.readyReplicas, undefined);
  });
  test('ready vs available with minReadySeconds', () => {
    const s = replicaSetStatus(rs({ minReadySeconds: 30 }), [pod('a', { ready: 60 }), pod('b', { ready: 5 })], undefined, now);
    assert.equal(s.readyReplicas, 2);
    assert.equal(s.availableReplicas, 1);
  });
  test('a failed create sets ReplicaFailure FailedCreate with the error text', () => {
    const s = replicaSetStatus(rs(), [], 'pods "web-abc-x" is forbidden: exceeded quota', now);
    assert.deepEqual(s.conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T01:00:00Z', reason: 'FailedCreate', message: 'pods "web-abc-x" is forbidden: exceeded quota' }]);
  });
  test('a failed delete sets FailedDelete', () => {
    const s = replicaSetStatus(rs({ replicas: 0 }), [pod('a')], 'boom', now);
    assert.equal(s.conditions?.[0]?.reason, 'FailedDelete');
  });
  test('the next successful sync removes ReplicaFailure', () => {
    const s = replicaSetStatus(rs({}, { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }] }), [], undefined, now);
    assert.equal(s.conditions, undefined);
  });
  test('an existing ReplicaFailure is left as it is while failures go on', () => {
    const c = { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'first', lastTransitionTime: ago(100) };
    assert.deepEqual(replicaSetStatus(rs({}, { conditions: [c] }), [], 'second', now).conditions, [c]);
  });
  test('nothing to write when counts and observedGeneration agree', () => {
    const r = rs({}, { replicas: 2, observedGeneration: 1 }, 1);
    assert.equal(replicaSetStatusUnchanged(r, { replicas: 2 }), true);
    assert.equal(replicaSetStatusUnchanged({ ...r, metadata: { ...r.metadata, generation: 2 } }, { replicas: 2 }), false);
  });
  test('requeue after minReadySeconds when every pod is ready but not all available', () => {
    assert.equal(minReadyRequeueSeconds(rs({ minReadySeconds: 10 }, { readyReplicas: 3, availableReplicas: 1 })), 10);
    assert.equal(minReadyRequeueSeconds(rs({ minReadySeconds: 10 }, { readyReplicas: 3, availableReplicas: 3 })), undefined);
    assert.equal(minReadyRequeueSeconds(rs({}, { readyReplicas: 3, availableReplicas: 1 })), undefined);
  });
});
