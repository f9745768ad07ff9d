// The kubelet-owned pod conditions (status/generate.go, 1.32) and the status manager's
// lastTransitionTime rule.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { containersReadyCondition, podConditions, podInitializedCondition, podReadyCondition } from '../../../src/agent/lifecycle/conditions.js';
import type { PodPhase } from '../../../src/agent/lifecycle/phase.js';
import type { Container, ContainerState, ContainerStatus, PodCondition, PodSpec } from '../../../src/api/types.js';

const c = (name: string, sidecar = false): Container => ({ name, ...(sidecar ? { restartPolicy: 'Always' } : {}) });
const running: ContainerState = { running: {} };
const term = (exitCode: number): ContainerState => ({ terminated: { exitCode } });
function st(name: string, state: ContainerState, ready: boolean, started = state.running !== undefined): ContainerStatus {
  return { name, state, ready, started, restartCount: 0, image: '', imageID: '' };
}

describe('ContainersReady and Ready', () => {
  const spec = { containers: [c('a'), c('b')], initContainers: [c('s', true), c('i')] } as PodSpec;
  const rows: { name: string; statuses: ContainerStatus[] | undefined; phase: PodPhase; want: Omit<PodCondition, 'type'> }[] = [
    { name: 'no statuses at all: UnknownContainerStatuses', statuses: undefined, phase: 'Pending', want: { status: 'False', reason: 'UnknownContainerStatuses' } },
    { name: 'all ready (sidecar included): True', statuses: [st('s', running, true), st('a', running, true), st('b', running, true)], phase: 'Running', want: { status: 'True' } },
    { name: 'unready containers are listed Go-style, sidecars first', statuses: [st('s', running, false), st('a', running, true), st('b', term(1), false)], phase: 'Running', want: { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [s b]' } },
    { name: 'unknown and unready', statuses: [st('s', running, true), st('a', running, false)], phase: 'Pending', want: { status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [b], containers with unready status: [a]' } },
    { name: 'Succeeded: PodCompleted', statuses: [st('s', term(0), false), st('a', term(0), false), st('b', term(0), false)], phase: 'Succeeded', want: { status: 'False', reason: 'PodCompleted' } },
    { name: 'Failed: PodFailed, whatever the containers say', statuses: [st('s', running, true), st('a', running, true), st('b', running, true)], phase: 'Failed', want: { status: 'False', reason: 'PodFailed' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(containersReadyCondition(spec, r.statuses, r.phase), { type: 'ContainersReady', ...r.want });
      assert.deepEqual(podReadyCondition(spec, r.statuses, r.phase), { type: 'Ready', ...r.want });
    });
  }
});

describe('Initialized', () => {
  const spec = { containers: [c('a')], initContainers: [c('i1'), c('s', true), c('i2')] } as PodSpec;
  const rows: { name: string; statuses: ContainerStatus[] | undefined; phase: PodPhase; want: Omit<PodCondition, 'type'> }[] = [
    { name: 'no statuses with init containers: UnknownContainerStatuses', statuses: undefined, phase: 'Pending', want: { status: 'False', reason: 'UnknownContainerStatuses' } },
    {
      name: 'incomplete and unknown init containers are listed',
      statuses: [st('i1', running, false)],
      phase: 'Pending',
      want: { status: 'False', reason: 'ContainersNotInitialized', message: 'containers with unknown status: [s i2], containers with incomplete status: [i1]' },
    },
    { name: 'a regular init container is done when ready (exited 0); a sidecar when started', statuses: [st('i1', term(0), true), st('s', running, true), st('i2', term(0), true)], phase: 'Pending', want: { status: 'True' } },
    { name: 'a sidecar running but not started is incomplete', statuses: [st('i1', term(0), true), st('s', running, false, false), st('i2', { waiting: {} }, false)], phase: 'Pending', want: { status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [s i2]' } },
    { name: 'once a regular container started the pod counts as initialized (a sidecar restarting does not undo it)', statuses: [st('i1', term(0), true), st('s', { waiting: { reason: 'CrashLoopBackOff' } }, false), st('i2', term(0), true), st('a', running, true)], phase: 'Running', want: { status: 'True' } },
    { name: 'Succeeded: True, PodCompleted', statuses: [st('i1', term(0), true), st('s', term(0), false), st('i2', term(0), true)], phase: 'Succeeded', want: { status: 'True', reason: 'PodCompleted' } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(podInitializedCondition(spec, r.statuses, r.phase), { type: 'Initialized', ...r.want }));

  it('a pod without init containers is initialized', () => {
    assert.deepEqual(podInitializedCondition({ containers: [c('a')] } as PodSpec, [], 'Pending'), { type: 'Initialized', status: 'True' });
  });
});

describe('podConditions: order, lastTransitionTime, conditions the kubelet does not own', () => {
  const spec = { containers: [c('a')] } as PodSpec;
  const now = '2026-02-02T00:00:00Z';
  const before = '2026-01-01T00:00:00Z';
  const old: PodCondition[] = [
    { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: before },
    { type: 'Ready', status: 'False', lastTransitionTime: before },
    { type: 'Initialized', status: 'True', lastTransitionTime: before },
  ];
  const got = podConditions(spec, [st('a', running, true)], 'Running', true, old, now);

  it('foreign conditions first, then PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled as the scheduler left it', () => {
    assert.deepEqual(got.map((x) => x.type), ['DisruptionTarget', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    assert.deepEqual(got.at(-1), old[1]);
  });
  it('lastTransitionTime: kept while the status stays, now when it flips or is new', () => {
    const t = Object.fromEntries(got.map((x) => [x.type, x.lastTransitionTime]));
    assert.deepEqual(t, { DisruptionTarget: undefined, PodReadyToStartContainers: now, Initialized: before, Ready: now, ContainersReady: now, PodScheduled: before });
  });
  it('every generated condition has lastProbeTime null', () => {
    for (const x of got.slice(1, 5)) assert.equal(x.lastProbeTime, null);
  });
  it("the agent's own conditions come after ContainersReady, replace their old copy and keep its lastTransitionTime", () => {
    const own: PodCondition = { type: 'bulkhead.dev/OOMKillMode', status: 'True', message: 'a=Single (default)' };
    const withOld = [...old, { ...own, message: 'a=Single (node)', lastProbeTime: null, lastTransitionTime: before }];
    const got = podConditions(spec, [st('a', running, true)], 'Running', true, withOld, now, [own]);
    assert.deepEqual(got.map((x) => x.type), ['DisruptionTarget', 'PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'bulkhead.dev/OOMKillMode', 'PodScheduled']);
    assert.deepEqual(got[5], { ...own, lastProbeTime: null, lastTransitionTime: before });
  });
  it('PodReadyToStartContainers follows the sandbox', () => {
    assert.equal(podConditions(spec, [], 'Pending', false, undefined, now)[0]?.status, 'False');
  });
});
