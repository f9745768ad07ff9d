// Container statuses from the runtime's instances (kubelet convertToAPIContainerStatuses and the
// prober's started/ready without probes), and the status manager's TerminatePod defaults.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initContainerStatuses, kubeTime, regularContainerStatuses, terminatedPodStatuses, type StartFailure } from '../../../src/agent/lifecycle/containerstatus.js';
import type { ContainerInstance, InstanceState, PodRuntime } from '../../../src/agent/lifecycle/runtime.js';
import type { Container, ContainerStatus, Pod } from '../../../src/api/types.js';

const c = (name: string, sidecar = false): Container => ({ name, image: 'busybox:1.36', ...(sidecar ? { restartPolicy: 'Always' } : {}) });
function pod(restartPolicy: string, containers: Container[], initContainers: Container[] = []): Pod {
  return { metadata: { name: 'p', namespace: 'd', uid: 'u' }, spec: { restartPolicy, containers, initContainers } } as Pod;
}
function inst(name: string, state: InstanceState, attempt = 0, o: Partial<ContainerInstance> = {}): ContainerInstance {
  return {
    name,
    attempt,
    id: `u-${name}-${attempt}`,
    state,
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:01.250Z',
    ...(state === 'exited' ? { exitCode: 1, reason: 'Error', finishedAt: '2026-01-01T00:00:02.999Z' } : {}),
    image: 'busybox:1.36',
    imageID: 'sha256:abc',
    inCurrentSandbox: true,
    ...o,
  };
}
function rt(...instances: ContainerInstance[]): PodRuntime {
  const r: PodRuntime = { sandbox: { ready: true, attempt: 0, id: 'u-POD-0' }, containers: {} };
  for (const i of instances) (r.containers[i.name] ??= []).push(i);
  for (const l of Object.values(r.containers)) l.sort((a, b) => b.attempt - a.attempt);
  return r;
}
const none = new Map<string, StartFailure>();
const crash = new Map<string, StartFailure>([['a', { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=a pod=p_d(u)' }]]);

const exited1 = { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:02Z', containerID: 'runc://u-a-1' } };

describe('regularContainerStatuses', () => {
  const rows: { name: string; pod: Pod; rt: PodRuntime; failures?: Map<string, StartFailure>; want: Partial<ContainerStatus> }[] = [
    { name: 'no instance yet: waiting ContainerCreating', pod: pod('Always', [c('a')]), rt: rt(), want: { state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, started: false, restartCount: 0, imageID: '' } },
    { name: 'no instance, the pod has init containers: waiting PodInitializing', pod: pod('Always', [c('a')], [c('i')]), rt: rt(), want: { state: { waiting: { reason: 'PodInitializing' } } } },
    {
      name: 'running: started and ready, restartCount = attempt, times in whole seconds',
      pod: pod('Always', [c('a')]),
      rt: rt(inst('a', 'running', 2)),
      want: { state: { running: { startedAt: '2026-01-01T00:00:01Z' } }, ready: true, started: true, restartCount: 2, containerID: 'runc://u-a-2', imageID: 'sha256:abc', image: 'busybox:1.36' },
    },
    { name: 'running with a terminated predecessor: lastState', pod: pod('Always', [c('a')]), rt: rt(inst('a', 'running', 2), inst('a', 'exited', 1)), want: { lastState: exited1, restartCount: 2 } },
    {
      name: 'exited and in back-off: waiting CrashLoopBackOff, the termination moves to lastState',
      pod: pod('Always', [c('a')]),
      rt: rt(inst('a', 'exited', 1)),
      failures: crash,
      want: { state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=a pod=p_d(u)' } }, lastState: exited1, restartCount: 1, ready: false },
    },
    { name: 'Never: an exited container will not restart, so a cached failure does not show', pod: pod('Never', [c('a')]), rt: rt(inst('a', 'exited', 1)), failures: crash, want: { state: exited1, lastState: {} } },
    {
      name: 'a start failure before any instance shows as waiting with its reason',
      pod: pod('Always', [c('a')]),
      rt: rt(),
      failures: new Map([['a', { reason: 'CreateContainerConfigError', message: 'oomKillMode=Group requires cgroup v2 support on the node' }]]),
      want: { state: { waiting: { reason: 'CreateContainerConfigError', message: 'oomKillMode=Group requires cgroup v2 support on the node' } } },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const [s] = regularContainerStatuses(r.pod, r.rt, r.failures ?? none);
      for (const [k, v] of Object.entries(r.want)) assert.deepEqual((s as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  it('regular containers are sorted by name, as the kubelet sorts them; init containers keep spec order', () => {
    const p = pod('Always', [c('zeta'), c('alpha'), c('mid')], [c('i2'), c('i1')]);
    assert.deepEqual(regularContainerStatuses(p, rt(), none).map((s) => s.name), ['alpha', 'mid', 'zeta']);
    assert.deepEqual(initContainerStatuses(p, rt(), none).map((s) => s.name), ['i2', 'i1']);
  });
});

describe('initContainerStatuses', () => {
  it('a regular init container that exited 0 is ready and keeps its terminated state even with a cached failure', () => {
    const [s] = initContainerStatuses(pod('Always', [c('a')], [c('i')]), rt(inst('i', 'exited', 0, { exitCode: 0, reason: 'Completed' })), new Map([['i', { reason: 'CrashLoopBackOff', message: 'm' }]]));
    assert.equal(s?.ready, true);
    assert.equal(s?.started, false);
    assert.equal(s?.state?.terminated?.reason, 'Completed');
  });
  it('a running sidecar is started and ready; a running regular init container is neither ready nor done', () => {
    const [side, init] = initContainerStatuses(pod('Always', [c('a')], [c('s', true), c('i')]), rt(inst('s', 'running'), inst('i', 'running')), none);
    assert.deepEqual([side?.started, side?.ready, init?.started, init?.ready], [true, true, true, false]);
  });
});

describe('terminatedPodStatuses (TerminatePod)', () => {
  const st = (name: string, state: ContainerStatus['state'], extra: Partial<ContainerStatus> = {}): ContainerStatus => ({ name, state, ready: false, restartCount: 0, image: '', imageID: '', ...extra });
  const unknown = { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' } };
  const waitingInit = { waiting: { reason: 'PodInitializing' } };
  it('regular containers without a termination get ContainerStatusUnknown 137; terminated ones stay', () => {
    const { regs } = terminatedPodStatuses(pod('Always', [c('a'), c('b'), c('c')]), [], [st('a', { running: {} }, { ready: true }), st('b', { terminated: { exitCode: 143 } }), st('c', { waiting: { reason: 'ContainerCreating' } })]);
    assert.deepEqual(regs.map((s) => s.state), [unknown, { terminated: { exitCode: 143 } }, unknown]);
    assert.equal(regs[0]?.ready, false);
  });
  it('a pod that never initialized keeps its regular containers waiting; of the init containers, the trailing ones that never tried stay too', () => {
    const p = pod('Always', [c('a')], [c('i1'), c('i2'), c('i3')]);
    const { inits, regs } = terminatedPodStatuses(p, [st('i1', { terminated: { exitCode: 0 } }), st('i2', { running: {} }), st('i3', waitingInit)], [st('a', waitingInit)]);
    assert.deepEqual(inits.map((s) => s.state), [{ terminated: { exitCode: 0 } }, unknown, waitingInit]);
    assert.deepEqual(regs.map((s) => s.state), [waitingInit]);
  });
  it('the first init container is always marked', () => {
    const p = pod('Always', [c('a')], [c('i1'), c('i2')]);
    const { inits } = terminatedPodStatuses(p, [st('i1', waitingInit), st('i2', waitingInit)], [st('a', waitingInit)]);
    assert.deepEqual(inits.map((s) => s.state), [unknown, waitingInit]);
  });
  it('a pod whose last init container completed counts as initialized', () => {
    const p = pod('Always', [c('a')], [c('i1')]);
    const { regs } = terminatedPodStatuses(p, [st('i1', { terminated: { exitCode: 0 } })], [st('a', waitingInit)]);
    assert.deepEqual(regs.map((s) => s.state), [unknown]);
  });
});

describe('kubeTime', () => {
  const rows: [string, string][] = [
    ['2026-01-01T00:00:01.999Z', '2026-01-01T00:00:01Z'],
    ['2026-01-01T00:00:01Z', '2026-01-01T00:00:01Z'],
    ['2026-11-22T05:40:26.395786010+00:00', '2026-11-22T05:40:26Z'],
  ];
  for (const [i, o] of rows) it(`${i} → ${o}`, () => assert.equal(kubeTime(i), o));
});
