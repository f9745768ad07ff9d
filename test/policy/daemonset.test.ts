// The DaemonSet controller's decisions (src/policy/daemonset.ts), one row per rule of
// pkg/controller/daemon: the pod template (default tolerations, labels, node-name affinity), one
// pod per eligible node, failed and excess pods, misscheduled pods, RollingUpdate with
// maxUnavailable and maxSurge, OnDelete, status, history, and the event wording.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DaemonSet, Pod } from '../../src/api/types.js';
import {
  daemonPodTemplate, daemonPodTolerations, daemonSetEvents, daemonSetHistoryToPrune, daemonSetRevisionLabel, daemonSetSnapshot, daemonSetStatus, manageDaemonSet, nodeNameAffinity,
  nodesToDaemonPods, planDaemonSetHistory, revisionMatches, rollingUpdateDaemonSet, targetNodeName, templateGenerationAnnotation, templateGenerationLabel, type NodeEligibility,
} from '../../src/policy/daemonset.js';

const nowMs = Date.parse('2026-01-01T00:10:00Z');
const t0 = '2026-01-01T00:00:00Z';
const H = 'newhash';

function ds(spec: Partial<NonNullable<DaemonSet['spec']>> = {}, annotations?: Record<string, string>): DaemonSet {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet',
    metadata: { name: 'x', namespace: 'default', uid: 'ds-uid', generation: 2, ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      ...spec,
    },
  };
}

const run = (name: string): NodeEligibility => ({ name, shouldRun: true, shouldContinueRunning: true });
const off = (name: string): NodeEligibility => ({ name, shouldRun: false, shouldContinueRunning: false });

let seq = 0;
function pod(node: string, opts: { hash?: string; phase?: string; ready?: boolean; bound?: boolean; deleting?: boolean; created?: string; name?: string } = {}): Pod {
  const name = opts.name ?? `x-${++seq}`;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', creationTimestamp: opts.created ?? t0, labels: { app: 'x', [daemonSetRevisionLabel]: opts.hash ?? H }, ...(opts.deleting ? { deletionTimestamp: t0 } : {}) },
    spec: { containers: [{ name: 'c', image: 'busybox' }], affinity: nodeNameAffinity(undefined, node), ...(opts.bound === false ? {} : { nodeName: node }) },
    status: { phase: opts.phase ?? 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: t0 }] },
  };
}

describe('the daemon pod', () => {
  test('default tolerations: not-ready and unreachable NoExecute, the pressure and unschedulable taints NoSchedule', () =>
    assert.deepEqual(daemonPodTolerations(false).map((t) => `${t.key}:${t.effect}`), [
      'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
    ]));
  test('hostNetwork adds network-unavailable NoSchedule', () => assert.equal(daemonPodTolerations(true).at(-1)!.key, 'node.kubernetes.io/network-unavailable'));
  test('a template toleration equal but for tolerationSeconds is replaced, not duplicated', () => {
    const t = daemonPodTemplate(ds({ template: { spec: { containers: [], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] } } }), H);
    const notReady = t.spec!.tolerations!.filter((x) => x.key === 'node.kubernetes.io/not-ready');
    assert.deepEqual(notReady, [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }]);
  });
  test('labels: the revision hash and the template generation from the API annotation', () => {
    const t = daemonPodTemplate(ds({}, { [templateGenerationAnnotation]: '3' }), H);
    assert.deepEqual(t.metadata!.labels, { app: 'x', [templateGenerationLabel]: '3', [daemonSetRevisionLabel]: H });
  });
  test('the node is named by a required node affinity on metadata.name, replacing other terms', () => {
    const a = nodeNameAffinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } }, 'n1');
    assert.deepEqual(a.nodeAffinity, { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } });
  });
  test('an unbound pod counts for the node its affinity names', () => assert.equal(targetNodeName(pod('n2', { bound: false })), 'n2'));
  test('terminal pods being deleted are left out of the per-node map', () => assert.equal(nodesToDaemonPods([pod('n1', { phase: 'Failed', deleting: true })]).size, 0));
});

describe('manageDaemonSet', () => {
  const rows: { name: string; d?: DaemonSet; nodes: NodeEligibility[]; pods: Pod[]; create?: string[]; del?: string[]; failed?: number }[] = [
    { name: 'one pod per eligible node', nodes: [run('n1'), run('n2'), off('n3')], pods: [], create: ['n1', 'n2'] },
    { name: 'a node that has its pod gets none', nodes: [run('n1')], pods: [pod('n1')], create: [] },
    { name: 'an unbound pod still counts for its node', nodes: [run('n1')], pods: [pod('n1', { bound: false })], create: [] },
    { name: 'a pod on a node that should not run it is deleted', nodes: [off('n1')], pods: [pod('n1', { name: 'gone' })], del: ['gone'] },
    { name: 'a pod on a node whose NoExecute taint it tolerates stays', nodes: [{ name: 'n1', shouldRun: false, shouldContinueRunning: true }], pods: [pod('n1')], create: [], del: [] },
    { name: 'excess pods on a node: all but the oldest go', nodes: [run('n1')], pods: [pod('n1', { name: 'old', created: t0 }), pod('n1', { name: 'young', created: '2026-01-01T00:05:00Z' })], del: ['young'] },
    { name: 'a failed pod is reported for deletion (FailedDaemonPod)', nodes: [run('n1')], pods: [pod('n1', { phase: 'Failed' })], create: [], failed: 1 },
    { name: 'a succeeded pod is deleted', nodes: [run('n1')], pods: [pod('n1', { phase: 'Succeeded', name: 'done' })], del: ['done'] },
    { name: 'an unbound pod for a node that no longer exists is deleted', nodes: [run('n1')], pods: [pod('n1'), pod('gone-node', { bound: false, name: 'orphan' })], del: ['orphan'] },
    { name: 'surge: an old ready pod and an available new one: the old one goes', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }), nodes: [run('n1')], pods: [pod('n1', { hash: 'old', name: 'o' }), pod('n1', { name: 'n', created: '2026-01-01T00:01:00Z' })], del: ['o'] },
    { name: 'surge: no pod left but a terminating one: a new one is created', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }), nodes: [run('n1')], pods: [pod('n1', { deleting: true })], create: ['n1'] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const p = manageDaemonSet(r.d ?? ds(), r.nodes, nodesToDaemonPods(r.pods), H, nowMs);
      if (r.create) assert.deepEqual(p.createOn, r.create);
      if (r.del) assert.deepEqual(p.delete, r.del);
      if (r.failed !== undefined) assert.equal(p.failed.length, r.failed);
    });
  }
});

describe('rollingUpdateDaemonSet', () => {
  const nodes = [run('n1'), run('n2'), run('n3')];
  const old = (n: string, o: Parameters<typeof pod>[1] = {}) => pod(n, { hash: 'old', name: `old-${n}`, ...o });
  const rows: { name: string; d: DaemonSet; pods: Pod[]; del: string[]; create?: string[] }[] = [
    { name: 'maxUnavailable 1: one old pod is deleted at a time', d: ds(), pods: [old('n1'), old('n2'), old('n3')], del: ['old-n1'] },
    { name: 'maxUnavailable 2: two at a time', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } }), pods: [old('n1'), old('n2'), old('n3')], del: ['old-n1', 'old-n2'] },
    { name: 'maxUnavailable as a percentage rounds up (34% of 3 → 2)', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '34%' } } }), pods: [old('n1'), old('n2'), old('n3')], del: ['old-n1', 'old-n2'] },
    { name: 'a new pod not yet available uses up maxUnavailable', d: ds(), pods: [pod('n1', { ready: false }), old('n2'), old('n3')], del: [] },
    { name: 'a node with no pod counts as unavailable', d: ds(), pods: [old('n2'), old('n3')], del: [] },
    { name: 'an old pod that is not available is replaced regardless', d: ds(), pods: [pod('n1', { ready: false }), old('n2', { ready: false }), old('n3')], del: ['old-n2'] },
    { name: 'surge: new pods are created beside old ones, up to maxSurge', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }), pods: [old('n1'), old('n2'), old('n3')], del: [], create: ['n1'] },
    { name: 'surge: the old pod goes once the new one beside it is available', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }), pods: [old('n1'), pod('n1'), old('n2'), old('n3')], del: ['old-n1'], create: ['n2'] },
    { name: 'surge: an unavailable new pod holds the surge budget', d: ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }), pods: [old('n1'), pod('n1', { ready: false }), old('n2'), old('n3')], del: [], create: [] },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const p = rollingUpdateDaemonSet(r.d, nodes, r.pods, H, nowMs);
      assert.deepEqual(p.delete, r.del);
      if (r.create) assert.deepEqual(p.createOn, r.create);
    });
  }
});

describe('daemonSetStatus', () => {
  test('desired, current, misscheduled, ready, updated, available, unavailable', () => {
    const s = daemonSetStatus(ds(), [run('n1'), run('n2'), run('n3'), off('n4')], [pod('n1'), pod('n2', { hash: 'old' }), pod('n4'), pod('n3', { ready: false })], H, nowMs);
    assert.deepEqual(s, { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberMisscheduled: 1, numberReady: 2, updatedNumberScheduled: 2, numberAvailable: 2, numberUnavailable: 1 });
  });
  test('minReadySeconds: a pod ready for less is ready but not available', () => {
    const p = pod('n1');
    p.status!.conditions![0]!.lastTransitionTime = '2026-01-01T00:09:50Z';
    const s = daemonSetStatus(ds({ minReadySeconds: 60 }), [run('n1')], [p], H, nowMs);
    assert.deepEqual([s.numberReady, s.numberAvailable, s.numberUnavailable], [1, 0, 1]);
  });
  test('the template generation label counts as updated for old pods', () => {
    const p = pod('n1', { hash: 'other' });
    p.metadata.labels![templateGenerationLabel] = '4';
    assert.equal(daemonSetStatus(ds({}, { [templateGenerationAnnotation]: '4' }), [run('n1')], [p], H, nowMs).updatedNumberScheduled, 1);
  });
});

describe('history', () => {
  test('snapshot: `<ds>-<hash>`, the hash as controller-revision-hash, the template labels and annotations', () => {
    const r = daemonSetSnapshot(ds({}, { 'kubernetes.io/change-cause': 'v1' }), 1);
    const hash = r.metadata.labels![daemonSetRevisionLabel]!;
    assert.equal(r.metadata.name, `x-${hash}`);
    assert.equal(r.metadata.labels!.app, 'x');
    assert.equal(r.metadata.annotations!['kubernetes.io/change-cause'], 'v1');
    assert.equal(revisionMatches(ds(), r), true);
  });
  test('a collision count gives another hash', () => assert.notEqual(daemonSetSnapshot({ ...ds(), status: { collisionCount: 1 } }, 1).metadata.name, daemonSetSnapshot(ds(), 1).metadata.name));
  test('no revision matches: the current one is created one above the old ones', () => {
    const other = daemonSetSnapshot(ds({ template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } }), 4);
    const h = planDaemonSetHistory(ds(), [other]);
    assert.deepEqual([h.current, h.revision, h.old.length], [undefined, 5, 1]);
  });
  test('duplicates of the current revision: the highest is kept, the others deleted', () => {
    const a = { ...daemonSetSnapshot(ds(), 1), metadata: { ...daemonSetSnapshot(ds(), 1).metadata, name: 'x-a' } };
    const b = { ...daemonSetSnapshot(ds(), 2), metadata: { ...daemonSetSnapshot(ds(), 2).metadata, name: 'x-b' } };
    const h = planDaemonSetHistory(ds(), [a, b]);
    assert.deepEqual([h.current?.metadata.name, h.duplicates.map((d) => d.metadata.name)], ['x-b', ['x-a']]);
  });
  test('a revision without the hash label is relabelled', () => {
    const r = daemonSetSnapshot(ds(), 1);
    delete r.metadata.labels![daemonSetRevisionLabel];
    assert.equal(planDaemonSetHistory(ds(), [r]).relabel.length, 1);
  });
  test('cleanup: as many old revisions as exceed the limit go, oldest first, skipping those a pod still carries', () => {
    const old = [1, 2, 3].map((n) => ({ ...daemonSetSnapshot(ds(), n), metadata: { name: `x-h${n}`, labels: { [daemonSetRevisionLabel]: `h${n}` } } }));
    const gone = daemonSetHistoryToPrune(ds({ revisionHistoryLimit: 1 }), old, [pod('n1', { hash: 'h1' })]);
    assert.deepEqual(gone.map((r) => r.metadata.name), ['x-h2', 'x-h3']);
  });
});

describe('event wording', () => {
  test('SuccessfulCreate', () => assert.deepEqual(daemonSetEvents.created('x-abcde'), { type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: x-abcde' }));
  test('SuccessfulDelete', () => assert.equal(daemonSetEvents.deleted('x-abcde').message, 'Deleted pod: x-abcde'));
  test('FailedDaemonPod', () => assert.equal(daemonSetEvents.failedDaemonPod(pod('n1', { name: 'p' }), 'n1').message, 'Found failed daemon pod default/p on node n1, will try to kill it'));
  test('SelectingAll', () => assert.equal(daemonSetEvents.selectingAll.message, 'This daemon set is selecting all pods. A non-empty selector is required.'));
});
