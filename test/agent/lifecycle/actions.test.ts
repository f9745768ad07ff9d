// computePodActions: what one sync does (kubelet computePodActions / computeInitContainerActions
// with sidecars, ShouldContainerBeRestarted).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computePodActions, shouldContainerBeRestarted, type PodActions } from '../../../src/agent/lifecycle/actions.js';
import type { ContainerInstance, InstanceState, PodRuntime } from '../../../src/agent/lifecycle/runtime.js';
import type { Container, Pod } from '../../../src/api/types.js';

const c = (name: string, sidecar = false): Container => ({ name, image: 'busybox', ...(sidecar ? { restartPolicy: 'Always' } : {}) });

function pod(restartPolicy: string, containers: Container[], initContainers: Container[] = [], extra: Partial<Pod['metadata']> = {}): Pod {
  return { metadata: { name: 'p', namespace: 'd', uid: 'u', ...extra }, spec: { restartPolicy, containers, initContainers } } as Pod;
}

/** The pod with ephemeral containers `names` added (as the ephemeralcontainers subresource adds them). */
function withEphemeral(p: Pod, ...names: string[]): Pod {
  return { ...p, spec: { ...p.spec, ephemeralContainers: names.map((n) => c(n)) } } as Pod;
}

function inst(name: string, state: InstanceState, o: Partial<ContainerInstance> = {}): ContainerInstance {
  return { name, attempt: 0, id: `u-${name}-${o.attempt ?? 0}`, state, createdAt: '2026-01-01T00:00:00Z', image: 'busybox', imageID: 'sha256:x', inCurrentSandbox: true, ...(state === 'exited' ? { exitCode: 0 } : {}), ...o };
}

function rt(sandbox: { ready: boolean; attempt: number } | undefined, ...instances: ContainerInstance[]): PodRuntime {
  const r: PodRuntime = { containers: {} };
  if (sandbox) r.sandbox = { ...sandbox, id: `u-POD-${sandbox.attempt}` };
  for (const i of instances) (r.containers[i.name] ??= []).push(i);
  return r;
}
const up = { ready: true, attempt: 0 };
const down = { ready: false, attempt: 0 };

function want(o: Partial<PodActions>): PodActions {
  return { killPod: false, createSandbox: false, sandboxAttempt: 1, initContainersToStart: [], containersToStart: [], ephemeralContainersToStart: [], containersToKill: [], ...o };
}

interface Row {
  name: string;
  pod: Pod;
  rt: PodRuntime;
  want: PodActions;
}

const rows: Row[] = [
  { name: 'a new pod: create the sandbox (attempt 0) and start every container', pod: pod('Always', [c('a'), c('b')]), rt: rt(undefined), want: want({ killPod: true, createSandbox: true, sandboxAttempt: 0, containersToStart: [0, 1] }) },
  { name: 'a new pod with init containers: the sandbox and the first init container only', pod: pod('Always', [c('a')], [c('i1'), c('i2')]), rt: rt(undefined), want: want({ killPod: true, createSandbox: true, sandboxAttempt: 0, initContainersToStart: [0] }) },
  { name: 'an init container running: wait for it', pod: pod('Always', [c('a')], [c('i1'), c('i2')]), rt: rt(up, inst('i1', 'running')), want: want({}) },
  { name: 'init container done: the next one', pod: pod('Always', [c('a')], [c('i1'), c('i2')]), rt: rt(up, inst('i1', 'exited')), want: want({ initContainersToStart: [1] }) },
  { name: 'the last init container done: the regular containers', pod: pod('Always', [c('a'), c('b')], [c('i1'), c('i2')]), rt: rt(up, inst('i1', 'exited'), inst('i2', 'exited')), want: want({ containersToStart: [0, 1] }) },
  { name: 'an init container failed, Always: run it again', pod: pod('Always', [c('a')], [c('i1')]), rt: rt(up, inst('i1', 'exited', { exitCode: 1 })), want: want({ initContainersToStart: [0] }) },
  { name: 'an init container failed, Never: the pod is done', pod: pod('Never', [c('a')], [c('i1')]), rt: rt(up, inst('i1', 'exited', { exitCode: 1 })), want: want({ killPod: true }) },
  { name: 'an init container OOMKilled counts as failed', pod: pod('Never', [c('a')], [c('i1')]), rt: rt(up, inst('i1', 'exited', { exitCode: 137, reason: 'OOMKilled' })), want: want({ killPod: true }) },
  { name: 'a sidecar running: the next init container starts without waiting for it', pod: pod('Always', [c('a')], [c('s', true), c('i')]), rt: rt(up, inst('s', 'running')), want: want({ initContainersToStart: [1] }) },
  { name: 'a sidecar as the last init container, running: the regular containers', pod: pod('Always', [c('a')], [c('i'), c('s', true)]), rt: rt(up, inst('i', 'exited'), inst('s', 'running')), want: want({ containersToStart: [0] }) },
  { name: 'a sidecar that exited after initialization: restarted beside the running main container', pod: pod('Never', [c('a')], [c('s', true)]), rt: rt(up, inst('s', 'exited', { exitCode: 1 }), inst('a', 'running')), want: want({ initContainersToStart: [0] }) },
  { name: 'regular init containers do not run again once the pod is initialized', pod: pod('Always', [c('a')], [c('i')]), rt: rt(up, inst('a', 'running')), want: want({}) },
  { name: 'Always: an exited container restarts', pod: pod('Always', [c('a'), c('b')]), rt: rt(up, inst('a', 'exited', { exitCode: 1 }), inst('b', 'running')), want: want({ containersToStart: [0] }) },
  { name: 'OnFailure: exit 0 stays; nothing left running: the pod is done', pod: pod('OnFailure', [c('a')]), rt: rt(up, inst('a', 'exited')), want: want({ killPod: true }) },
  { name: 'OnFailure: exit 1 restarts', pod: pod('OnFailure', [c('a')]), rt: rt(up, inst('a', 'exited', { exitCode: 1 })), want: want({ containersToStart: [0] }) },
  { name: 'Never: a finished container with a sidecar still running: the pod is done (sidecars do not keep it alive)', pod: pod('Never', [c('a')], [c('s', true)]), rt: rt(up, inst('s', 'running'), inst('a', 'exited')), want: want({ killPod: true }) },
  { name: 'all running: nothing to do', pod: pod('Always', [c('a')]), rt: rt(up, inst('a', 'running')), want: want({}) },
  { name: 'the sandbox died, Always: kill everything, new sandbox (attempt 1), start over', pod: pod('Always', [c('a')], [c('i')]), rt: rt(down, inst('i', 'exited'), inst('a', 'running')), want: want({ killPod: true, createSandbox: true, initContainersToStart: [0] }) },
  { name: 'the sandbox died, Never, containers already ran: no new sandbox', pod: pod('Never', [c('a')]), rt: rt(down, inst('a', 'running')), want: want({ killPod: true }) },
  { name: 'the sandbox died, OnFailure, everything succeeded: no new sandbox', pod: pod('OnFailure', [c('a')]), rt: rt(down, inst('a', 'exited')), want: want({ killPod: true }) },
  { name: 'the sandbox died, OnFailure: only the containers that did not succeed start again', pod: pod('OnFailure', [c('a'), c('b')]), rt: rt(down, inst('a', 'exited'), inst('b', 'exited', { exitCode: 2 })), want: want({ killPod: true, createSandbox: true, containersToStart: [1] }) },
  { name: 'in a new sandbox, init containers of the old one do not count: run them again', pod: pod('Always', [c('a')], [c('i')]), rt: rt({ ready: true, attempt: 1 }, inst('i', 'exited', { inCurrentSandbox: false }), inst('a', 'exited', { exitCode: 137, inCurrentSandbox: false })), want: want({ sandboxAttempt: 2, initContainersToStart: [0] }) },
  { name: 'a container created but never started: start it (again)', pod: pod('Always', [c('a')]), rt: rt(up, inst('a', 'created')), want: want({ containersToStart: [0] }) },
  // Ephemeral containers (kubectl debug).
  { name: 'an ephemeral container added to a running pod: start it', pod: withEphemeral(pod('Always', [c('a')]), 'debugger'), rt: rt(up, inst('a', 'running')), want: want({ ephemeralContainersToStart: [0] }) },
  { name: 'only ephemeral containers never started start', pod: withEphemeral(pod('Always', [c('a')]), 'd1', 'd2'), rt: rt(up, inst('a', 'running'), inst('d1', 'running')), want: want({ ephemeralContainersToStart: [1] }) },
  { name: 'an ephemeral container that exited is never restarted, whatever the restart policy', pod: withEphemeral(pod('Always', [c('a')]), 'debugger'), rt: rt(up, inst('a', 'running'), inst('debugger', 'exited', { exitCode: 1 })), want: want({}) },
  { name: 'an ephemeral container starts while init containers still run', pod: withEphemeral(pod('Always', [c('a')], [c('i')]), 'debugger'), rt: rt(up, inst('i', 'running')), want: want({ ephemeralContainersToStart: [0] }) },
  { name: 'an ephemeral container does not keep a finished pod alive', pod: withEphemeral(pod('Never', [c('a')]), 'debugger'), rt: rt(up, inst('a', 'exited'), inst('debugger', 'running')), want: want({ killPod: true }) },
  { name: 'an ephemeral container is not started in a new sandbox the same sync', pod: withEphemeral(pod('Always', [c('a')]), 'debugger'), rt: rt(undefined), want: want({ killPod: true, createSandbox: true, sandboxAttempt: 0, containersToStart: [0] }) },
];

describe('computePodActions', () => {
  for (const r of rows) it(r.name, () => assert.deepEqual(computePodActions(r.pod, r.rt), r.want));

  it('a running container whose image changed is killed and started again, whatever the restart policy', () => {
    const p = pod('Never', [{ ...c('a'), image: 'busybox:new' }]);
    const hash = (x: Container) => x.image ?? '';
    assert.deepEqual(computePodActions(p, rt(up, inst('a', 'running', { specHash: 'busybox' })), hash), want({ containersToStart: [0], containersToKill: [{ id: 'u-a-0', name: 'a', message: 'Container a definition changed, will be restarted' }] }));
  });
});

describe('shouldContainerBeRestarted', () => {
  const rows: [string, string, ContainerInstance | undefined, boolean, boolean?][] = [
    ['never ran: start', 'Never', undefined, true],
    ['running: no', 'Always', inst('a', 'running'), false],
    ['created: yes', 'Never', inst('a', 'created'), true],
    ['Never, exited: no', 'Never', inst('a', 'exited', { exitCode: 1 }), false],
    ['OnFailure, exited 0: no', 'OnFailure', inst('a', 'exited'), false],
    ['OnFailure, exited 1: yes', 'OnFailure', inst('a', 'exited', { exitCode: 1 }), true],
    ['Always, exited 0: yes', 'Always', inst('a', 'exited'), true],
    ['a sidecar restarts whatever the pod policy', 'Never', inst('s', 'exited'), true, true],
  ];
  for (const [name, policy, latest, expected, sidecar] of rows) {
    it(name, () => {
      const ctr = c(latest?.name ?? 'a', sidecar);
      assert.equal(shouldContainerBeRestarted(pod(policy, [ctr]), ctr, sidecar === true, latest), expected);
    });
  }
  it('a pod being deleted restarts nothing', () => {
    assert.equal(shouldContainerBeRestarted(pod('Always', [c('a')], [], { deletionTimestamp: '2026-01-01T00:00:00Z' }), c('a'), false, undefined), false);
  });
});
