// The StatefulSet controller's decisions (src/policy/statefulset.ts), one row per rule of
// pkg/controller/statefulset: stable names and ordinals.start, OrderedReady creation and scale
// down, Parallel, identity labels, hostname and subdomain, failed pods, RollingUpdate with a
// partition, OnDelete, status, revisions and their history, claims, and the event wording.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ControllerRevision, Pod, StatefulSet } from '../../src/api/types.js';
import {
  applyRevision, claimEvent, completeRollingUpdate, decideRevisions, newStatefulSetRevision, parentNameAndOrdinal, planStatefulSet, podEvent, podIndexLabel,
  statefulSetHistoryToPrune, statefulSetPodNameLabel, statefulSetRevisionLabel, statusChanged, type StatefulSetPlan,
} from '../../src/policy/statefulset.js';

const nowMs = Date.parse('2026-01-01T00:10:00Z');
const longAgo = '2026-01-01T00:00:00Z';

function sts(spec: Partial<NonNullable<StatefulSet['spec']>> = {}, extra: Partial<StatefulSet['metadata']> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'sts-uid', generation: 1, ...extra },
    spec: {
      replicas: 3, serviceName: 'nginx', selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, revisionHistoryLimit: 10,
      ...spec,
    },
  };
}

const rev1 = newStatefulSetRevision(sts(), 1, 0);
const rev2 = newStatefulSetRevision(sts({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } }), 2, 0);

type PodState = 'pending' | 'running' | 'ready' | 'failed' | 'terminating' | 'readyJustNow';
function pod(ordinal: number, state: PodState, revision = rev1.metadata.name!, name = `web-${ordinal}`): Pod {
  const ready = state === 'ready' || state === 'terminating' || state === 'readyJustNow';
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: longAgo,
      labels: { app: 'web', [statefulSetPodNameLabel]: name, [podIndexLabel]: String(ordinal), [statefulSetRevisionLabel]: revision },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'sts-uid', controller: true }],
      ...(state === 'terminating' ? { deletionTimestamp: longAgo } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }], hostname: name, subdomain: 'nginx' },
    status: {
      phase: state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: state === 'readyJustNow' ? '2026-01-01T00:09:59Z' : longAgo }],
    },
  };
}

const actions = (p: StatefulSetPlan) => p.actions.map((a) => `${a.type} ${a.pod.metadata.name}`);
const plan = (set: StatefulSet, pods: Pod[], current: ControllerRevision = rev1, update: ControllerRevision = rev1) => planStatefulSet(set, pods, current, update, 0, nowMs);

describe('planStatefulSet', () => {
  const rows: { name: string; set: StatefulSet; pods: Pod[]; update?: ControllerRevision; want: string[]; check?: (p: StatefulSetPlan) => void }[] = [
    { name: 'OrderedReady: an empty set creates ordinal 0 only', set: sts(), pods: [], want: ['create web-0'] },
    { name: 'ordinals.start: the first pod is web-<start>', set: sts({ ordinals: { start: 3 } }), pods: [], want: ['create web-3'] },
    { name: 'OrderedReady waits on a Pending predecessor', set: sts(), pods: [pod(0, 'pending')], want: [], check: (p) => assert.equal(p.waitingOn, 'web-0') },
    { name: 'OrderedReady waits on a Running but not Ready predecessor', set: sts(), pods: [pod(0, 'running')], want: [] },
    { name: 'OrderedReady creates the next once the previous is Running and Ready', set: sts(), pods: [pod(0, 'ready')], want: ['create web-1'] },
    { name: 'minReadySeconds: a ready pod not yet available holds the next', set: sts({ minReadySeconds: 30 }), pods: [pod(0, 'readyJustNow')], want: [] },
    { name: 'a gap is filled at its ordinal: web-1 missing is created again (stable name)', set: sts(), pods: [pod(0, 'ready'), pod(2, 'ready')], want: ['create web-1'] },
    { name: 'Parallel creates every missing ordinal at once', set: sts({ podManagementPolicy: 'Parallel' }), pods: [], want: ['create web-0', 'create web-1', 'create web-2'] },
    { name: 'Parallel does not wait on an unready pod', set: sts({ podManagementPolicy: 'Parallel' }), pods: [pod(0, 'pending')], want: ['create web-1', 'create web-2'] },
    { name: 'scale down removes the highest ordinal first, one per sync', set: sts({ replicas: 1 }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready')], want: ['delete web-2'] },
    { name: 'scale down waits on an unhealthy condemned pod that is not the first unhealthy', set: sts({ replicas: 1 }), pods: [pod(0, 'ready'), pod(1, 'running'), pod(2, 'running')], want: [], check: (p) => assert.equal(p.waitingOn, 'web-1') },
    { name: 'scale down may remove the first unhealthy pod itself', set: sts({ replicas: 1 }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'running')], want: ['delete web-2'] },
    { name: 'scale down waits for a terminating pod to go', set: sts({ replicas: 1 }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'terminating')], want: [] },
    { name: 'Parallel scale down removes every condemned pod at once', set: sts({ replicas: 1, podManagementPolicy: 'Parallel' }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'running')], want: ['delete web-2', 'delete web-1'] },
    { name: 'a failed pod is deleted; its replacement waits for a later sync', set: sts(), pods: [pod(0, 'failed')], want: ['delete web-0'] },
    { name: 'a pod whose identity label is missing is updated in place', set: sts({ replicas: 1 }), pods: [{ ...pod(0, 'ready'), metadata: { ...pod(0, 'ready').metadata, labels: { app: 'web', [statefulSetRevisionLabel]: rev1.metadata.name! } } }], want: ['update web-0'], check: (p) => assert.equal(p.actions[0]!.pod.metadata.labels?.[statefulSetPodNameLabel], 'web-0') },
    { name: 'a pod whose name has no ordinal is ignored', set: sts({ replicas: 1 }), pods: [pod(0, 'ready'), pod(0, 'ready', rev1.metadata.name!, 'web-x')], want: [] },
    { name: 'RollingUpdate deletes the highest pod not at the update revision', set: sts(), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready')], update: rev2, want: ['delete web-2'], check: (p) => assert.equal(p.status.currentReplicas, 2) },
    { name: 'RollingUpdate moves down once the higher pod is updated and available', set: sts(), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready', rev2.metadata.name!)], update: rev2, want: ['delete web-1'] },
    { name: 'RollingUpdate waits for an updated pod that is not available', set: sts({ podManagementPolicy: 'Parallel' }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'running', rev2.metadata.name!)], update: rev2, want: [], check: (p) => assert.equal(p.waitingOn, 'web-2') },
    { name: 'partition: ordinals below it keep the current revision', set: sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready', rev2.metadata.name!)], update: rev2, want: [] },
    { name: 'OnDelete never deletes for an update', set: sts({ updateStrategy: { type: 'OnDelete' } }), pods: [pod(0, 'ready'), pod(1, 'ready'), pod(2, 'ready')], update: rev2, want: [] },
    { name: 'a set being deleted only reports status', set: sts({}, { deletionTimestamp: longAgo }), pods: [], want: [] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const p = plan(r.set, r.pods, rev1, r.update ?? rev1);
      assert.deepEqual(actions(p), r.want);
      r.check?.(p);
    });
  }

  test('a new pod carries the identity labels, hostname, subdomain and the controller reference', () => {
    const p = plan(sts({ ordinals: { start: 5 } }), []).actions[0]!.pod;
    assert.equal(p.metadata.name, 'web-5');
    assert.equal(p.metadata.generateName, 'web-');
    assert.deepEqual(p.metadata.labels, { app: 'web', [statefulSetPodNameLabel]: 'web-5', [podIndexLabel]: '5', [statefulSetRevisionLabel]: rev1.metadata.name });
    assert.equal(p.spec.hostname, 'web-5');
    assert.equal(p.spec.subdomain, 'nginx');
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'sts-uid', controller: true, blockOwnerDeletion: true }]);
  });

  test('a pod recreated below the partition is made from the current revision', () => {
    const set = sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
    const p = planStatefulSet(set, [], rev1, rev2, 0, nowMs).actions[0]!.pod;
    assert.equal(p.metadata.labels?.[statefulSetRevisionLabel], rev1.metadata.name);
    assert.equal(p.spec.containers[0]!.image, 'nginx:1');
  });

  test('a pod at or above the partition is made from the update revision', () => {
    const p = planStatefulSet(sts({ podManagementPolicy: 'Parallel' }), [pod(0, 'ready'), pod(1, 'ready')], rev1, rev2, 0, nowMs).actions[0]!.pod;
    assert.equal(p.metadata.name, 'web-2');
    assert.equal(p.spec.containers[0]!.image, 'nginx:2');
  });

  test('volumeClaimTemplates: each pod gets its claim volume <template>-<set>-<ordinal>', () => {
    const set = sts({ volumeClaimTemplates: [{ metadata: { name: 'data' } }] });
    const p = plan(set, []).actions[0]!.pod;
    assert.deepEqual(p.spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
  });

  test('status counts replicas, ready, available, current and updated pods', () => {
    const p = planStatefulSet(sts({ replicas: 3 }), [pod(0, 'ready'), pod(1, 'running'), pod(2, 'ready', rev2.metadata.name!)], rev1, rev2, 0, nowMs);
    assert.deepEqual(
      { replicas: p.status.replicas, ready: p.status.readyReplicas, available: p.status.availableReplicas, current: p.status.currentReplicas, updated: p.status.updatedReplicas, cur: p.status.currentRevision, upd: p.status.updateRevision, gen: p.status.observedGeneration },
      { replicas: 3, ready: 2, available: 2, current: 2, updated: 1, cur: rev1.metadata.name, upd: rev2.metadata.name, gen: 1 },
    );
  });
});

describe('revisions', () => {
  test('names: `<set>-<hash>` with the hash label, the template labels and the set annotations', () => {
    const r = newStatefulSetRevision(sts({}, { annotations: { 'kubernetes.io/change-cause': 'first' } }), 1, 0);
    assert.match(r.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(r.metadata.labels?.['controller.kubernetes.io/hash'], r.metadata.name!.slice(4));
    assert.equal(r.metadata.labels?.app, 'web');
    assert.equal(r.metadata.annotations?.['kubernetes.io/change-cause'], 'first');
    assert.deepEqual((r.data as { spec: { template: { $patch: string } } }).spec.template.$patch, 'replace');
  });
  test('a collision count changes the name', () => assert.notEqual(newStatefulSetRevision(sts(), 1, 1).metadata.name, rev1.metadata.name));
  test('applyRevision puts the revision template back', () => assert.equal(applyRevision(sts(), rev2).spec!.template!.spec!.containers[0]!.image, 'nginx:2'));
  test('no revisions: a new one numbered 1', () => {
    const d = decideRevisions(sts(), []);
    assert.equal(d.update.kind, 'create');
    assert.equal(d.update.revision.revision, 1);
    assert.equal(d.currentName, undefined);
  });
  test('the same template: the newest revision is kept', () => assert.equal(decideRevisions(sts(), [rev1]).update.kind, 'unchanged'));
  test('a changed template: a new revision numbered one higher', () => {
    const d = decideRevisions(sts({ template: rev2.data ? applyRevision(sts(), rev2).spec!.template : undefined }), [rev1]);
    assert.equal(d.update.kind, 'create');
    assert.equal(d.update.revision.revision, 2);
  });
  test('back to an older template (rollback): that revision is renumbered, nothing created', () => {
    const d = decideRevisions(sts({}, {}), [rev1, rev2]);
    assert.deepEqual({ kind: d.update.kind, name: d.update.revision.metadata.name, to: d.update.kind === 'rollback' ? d.update.to : 0 }, { kind: 'rollback', name: rev1.metadata.name, to: 3 });
  });
  test('the current revision is status.currentRevision while it exists', () => assert.equal(decideRevisions({ ...sts(), status: { currentRevision: rev1.metadata.name } }, [rev1, rev2]).currentName, rev1.metadata.name));
  test('history: non-live revisions beyond revisionHistoryLimit go, oldest first', () => {
    const revs = [1, 2, 3, 4].map((n) => ({ ...rev1, metadata: { ...rev1.metadata, name: `web-r${n}` }, revision: n }));
    const pruned = statefulSetHistoryToPrune(sts({ revisionHistoryLimit: 1 }), [pod(0, 'ready', 'web-r2')], revs, 'web-r4', 'web-r4');
    assert.deepEqual(pruned.map((r) => r.metadata.name), ['web-r1']);
  });
});

describe('status helpers and wording', () => {
  test('completeRollingUpdate: all updated and ready makes the update revision current', () => {
    const s = completeRollingUpdate(sts(), { replicas: 3, readyReplicas: 3, updatedReplicas: 3, currentReplicas: 0, currentRevision: 'a', updateRevision: 'b' });
    assert.deepEqual([s.currentRevision, s.currentReplicas], ['b', 3]);
  });
  test('completeRollingUpdate waits while a pod is not ready', () => assert.equal(completeRollingUpdate(sts(), { replicas: 3, readyReplicas: 2, updatedReplicas: 3, currentRevision: 'a', updateRevision: 'b' }).currentRevision, 'a'));
  test('statusChanged: a new observedGeneration must be written', () => assert.equal(statusChanged({ ...sts(), status: { observedGeneration: 0 } }, { observedGeneration: 1 }), true));
  test('statusChanged: the same numbers are not written again', () => assert.equal(statusChanged({ ...sts(), status: { observedGeneration: 1, replicas: 1 } }, { observedGeneration: 1, replicas: 1 }), false));
  test('parentNameAndOrdinal splits at the last dash', () => assert.deepEqual(parentNameAndOrdinal('my-web-12'), { parent: 'my-web', ordinal: 12 }));
  test('SuccessfulCreate wording', () => assert.deepEqual(podEvent('create', sts(), 'web-0'), { type: 'Normal', reason: 'SuccessfulCreate', message: 'create Pod web-0 in StatefulSet web successful' }));
  test('FailedDelete wording', () => assert.deepEqual(podEvent('delete', sts(), 'web-0', 'boom'), { type: 'Warning', reason: 'FailedDelete', message: 'delete Pod web-0 in StatefulSet web failed error: boom' }));
  test('claim failure wording', () => assert.equal(claimEvent(sts(), 'web-0', 'data-web-0', 'nope').message, 'create Claim data-web-0 for Pod web-0 in StatefulSet web failed error: nope'));
});
