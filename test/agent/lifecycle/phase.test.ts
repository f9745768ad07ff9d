// getPhase: the kubelet's pod phase from container statuses (kubelet_pods.go, 1.32, sidecars on).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getPhase, type PodPhase } from '../../../src/agent/lifecycle/phase.js';
import type { Container, ContainerState, ContainerStatus, PodSpec } from '../../../src/api/types.js';

const c = (name: string, sidecar = false): Container => ({ name, image: 'busybox', ...(sidecar ? { restartPolicy: 'Always' } : {}) });
const running: ContainerState = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const waiting = (reason = 'ContainerCreating'): ContainerState => ({ waiting: { reason } });
const term = (exitCode: number): ContainerState => ({ terminated: { exitCode } });

function st(name: string, state: ContainerState, extra: Partial<ContainerStatus> = {}): ContainerStatus {
  return { name, state, ready: false, restartCount: 0, image: 'busybox', imageID: '', started: state.running !== undefined, ...extra };
}

interface Row {
  name: string;
  spec: Partial<PodSpec>;
  statuses: ContainerStatus[];
  terminal?: boolean;
  want: PodPhase;
}

const rows: Row[] = [
  { name: 'no status yet: Pending', spec: { containers: [c('a')] }, statuses: [], want: 'Pending' },
  { name: 'a container waiting to be created: Pending', spec: { containers: [c('a')] }, statuses: [st('a', waiting())], want: 'Pending' },
  { name: 'all running: Running', spec: { containers: [c('a'), c('b')] }, statuses: [st('a', running), st('b', running)], want: 'Running' },
  { name: 'one running, one waiting: Pending', spec: { containers: [c('a'), c('b')] }, statuses: [st('a', running), st('b', waiting())], want: 'Pending' },
  { name: 'Always, exited 1: Running (it restarts)', spec: { restartPolicy: 'Always', containers: [c('a')] }, statuses: [st('a', term(1))], want: 'Running' },
  { name: 'Always, in CrashLoopBackOff: Running (waiting with a last termination counts as stopped)', spec: { restartPolicy: 'Always', containers: [c('a')] }, statuses: [st('a', waiting('CrashLoopBackOff'), { lastState: term(1) })], want: 'Running' },
  { name: 'OnFailure, exited 0: Succeeded', spec: { restartPolicy: 'OnFailure', containers: [c('a')] }, statuses: [st('a', term(0))], want: 'Succeeded' },
  { name: 'OnFailure, exited 1: Running (it restarts)', spec: { restartPolicy: 'OnFailure', containers: [c('a')] }, statuses: [st('a', term(1))], want: 'Running' },
  { name: 'Never, exited 0: Succeeded', spec: { restartPolicy: 'Never', containers: [c('a')] }, statuses: [st('a', term(0))], want: 'Succeeded' },
  { name: 'Never, one exited 1: Failed', spec: { restartPolicy: 'Never', containers: [c('a'), c('b')] }, statuses: [st('a', term(0)), st('b', term(1))], want: 'Failed' },
  { name: 'Never, one still running: Running', spec: { restartPolicy: 'Never', containers: [c('a'), c('b')] }, statuses: [st('a', running), st('b', term(1))], want: 'Running' },
  { name: 'an init container running: Pending', spec: { initContainers: [c('i')], containers: [c('a')] }, statuses: [st('i', running), st('a', waiting('PodInitializing'))], want: 'Pending' },
  { name: 'init done, main running: Running', spec: { initContainers: [c('i')], containers: [c('a')] }, statuses: [st('i', term(0)), st('a', running)], want: 'Running' },
  { name: 'Never, an init container failed: Failed', spec: { restartPolicy: 'Never', initContainers: [c('i')], containers: [c('a')] }, statuses: [st('i', term(137)), st('a', waiting('PodInitializing'))], want: 'Failed' },
  { name: 'Always, an init container in back-off: Pending', spec: { initContainers: [c('i')], containers: [c('a')] }, statuses: [st('i', waiting('CrashLoopBackOff'), { lastState: term(1) }), st('a', waiting('PodInitializing'))], want: 'Pending' },
  { name: 'a sidecar running but not started, nothing else started: Pending', spec: { initContainers: [c('s', true)], containers: [c('a')] }, statuses: [st('s', running, { started: false }), st('a', waiting('PodInitializing'))], want: 'Pending' },
  { name: 'a sidecar running beside the main container: Running', spec: { initContainers: [c('s', true)], containers: [c('a')] }, statuses: [st('s', running), st('a', running)], want: 'Running' },
  { name: 'a sidecar restarting after the main container started: still Running', spec: { initContainers: [c('s', true)], containers: [c('a')] }, statuses: [st('s', waiting('CrashLoopBackOff'), { lastState: term(1) }), st('a', running)], want: 'Running' },
  { name: 'Never, main done, sidecar still running: Running (until the sidecar is stopped)', spec: { restartPolicy: 'Never', initContainers: [c('s', true)], containers: [c('a')] }, statuses: [st('s', running), st('a', term(0))], want: 'Running' },
  { name: 'Never, main done, sidecar stopped with 143: Succeeded (terminated sidecars do not count)', spec: { restartPolicy: 'Never', initContainers: [c('s', true)], containers: [c('a')] }, statuses: [st('s', term(143)), st('a', term(0))], want: 'Succeeded' },
  { name: 'terminal pod, Always, killed with 143: Failed', spec: { restartPolicy: 'Always', containers: [c('a')] }, statuses: [st('a', term(143))], terminal: true, want: 'Failed' },
  { name: 'terminal pod, Always, all exited 0: Succeeded', spec: { restartPolicy: 'Always', containers: [c('a')] }, statuses: [st('a', term(0))], terminal: true, want: 'Succeeded' },
];

describe('getPhase', () => {
  for (const r of rows) {
    it(r.name, () => {
      const spec = { restartPolicy: 'Always', ...r.spec } as PodSpec;
      assert.equal(getPhase(spec, r.statuses, r.terminal ?? false), r.want);
    });
  }
});

// Upstream's phase tables (kubernetes/kubernetes pkg/kubelet/kubelet_pods_test.go, index file
// 8817320), read, not copied: the pod of each table (containerX an init container, a sidecar where
// the table says restartable; containerA and B regular), the statuses by upstream's helpers, the
// phase getPhase must give. `started` is set only by startedState, as upstream's helpers do.
type Helper = 'waiting' | 'waitingLastZero' | 'waitingLastNonZero' | 'running' | 'started' | 'stopped' | 'succeeded' | 'failed';
function upstreamState(name: string, h: Helper): ContainerStatus {
  const base = { name, ready: false, restartCount: 0, image: '', imageID: '' } as ContainerStatus;
  switch (h) {
    case 'waiting': return { ...base, state: { waiting: {} } };
    case 'waitingLastZero': return { ...base, state: { waiting: {} }, lastState: { terminated: { exitCode: 0 } } };
    case 'waitingLastNonZero': return { ...base, state: { waiting: {} }, lastState: { terminated: { exitCode: -1 } } };
    case 'running': return { ...base, state: { running: {} } };
    case 'started': return { ...base, state: { running: {} }, started: true };
    case 'stopped': case 'succeeded': return { ...base, state: { terminated: { exitCode: 0 } } };
    case 'failed': return { ...base, state: { terminated: { exitCode: -1 } } };
  }
}
/** [name, init statuses (containerX[, containerY]), regular statuses (containerA[, B]), pod terminal, phase]. */
type UpstreamRow = [string, Helper[], Helper[], boolean, PodPhase];
const tables: { fn: string; restartPolicy: string; init: Container[]; containers: Container[]; rows: UpstreamRow[] }[] = [
  {
    fn: 'TestPodPhaseWithRestartAlways', restartPolicy: 'Always', init: [], containers: [c('containerA'), c('containerB')],
    rows: [
      ['waiting', [], [], false, 'Pending'],
      ['all running', [], ['running', 'running'], false, 'Running'],
      ['all stopped with restart always', [], ['stopped', 'stopped'], false, 'Running'],
      ['all succeeded with restart always, but the pod is terminal', [], ['succeeded', 'succeeded'], true, 'Succeeded'],
      ['all stopped with restart always, but the pod is terminal', [], ['succeeded', 'failed'], true, 'Failed'],
      ['mixed state #1 with restart always', [], ['running', 'stopped'], false, 'Running'],
      ['mixed state #2 with restart always', [], ['running'], false, 'Pending'],
      ['mixed state #3 with restart always', [], ['running', 'waiting'], false, 'Pending'],
      ['backoff crashloop container with restart always', [], ['running', 'waitingLastZero'], false, 'Running'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartAlwaysInitContainers', restartPolicy: 'Always', init: [c('containerX')], containers: [c('containerA'), c('containerB')],
    rows: [
      ['empty, waiting', [], [], false, 'Pending'],
      ['init container running', ['running'], [], false, 'Pending'],
      ['init container terminated non-zero', ['failed'], [], false, 'Pending'],
      ['init container waiting, terminated zero', ['waitingLastZero'], [], false, 'Pending'],
      ['init container waiting, terminated non-zero', ['waitingLastNonZero'], [], false, 'Pending'],
      ['init container waiting, not terminated', ['waiting'], [], false, 'Pending'],
      ['init container succeeded', ['succeeded'], ['running', 'running'], false, 'Running'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartAlwaysRestartableInitContainers', restartPolicy: 'Always', init: [c('containerX', true)], containers: [c('containerA'), c('containerB')],
    rows: [
      ['empty, waiting', [], [], false, 'Pending'],
      ['restartable init container running', ['running'], [], false, 'Pending'],
      ['restartable init container stopped', ['stopped'], [], false, 'Pending'],
      ['restartable init container waiting, terminated zero', ['waitingLastZero'], [], false, 'Pending'],
      ['restartable init container waiting, terminated non-zero', ['waitingLastNonZero'], [], false, 'Pending'],
      ['restartable init container waiting, not terminated', ['waiting'], [], false, 'Pending'],
      ['restartable init container started, 1/2 regular container running', ['started'], ['running'], false, 'Pending'],
      ['restartable init container started, all regular containers running', ['started'], ['running', 'running'], false, 'Running'],
      ['restartable init container running, all regular containers running', ['running'], ['running', 'running'], false, 'Running'],
      ['restartable init container stopped, all regular containers running', ['stopped'], ['running', 'running'], false, 'Running'],
      ['backoff crashloop restartable init container, all regular containers running', ['waitingLastZero'], ['running', 'running'], false, 'Running'],
      ['all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal', ['failed'], ['succeeded', 'succeeded'], true, 'Succeeded'],
      ['all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal', ['succeeded'], ['succeeded', 'succeeded'], true, 'Succeeded'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartAlwaysAndPodHasRun', restartPolicy: 'Always', init: [c('containerX'), c('containerY', true)], containers: [c('containerA')],
    rows: [
      ['regular init containers, restartable init container and regular container are all running', ['running', 'running'], ['running'], false, 'Pending'],
      ['regular containers is stopped, restartable init container and regular int container are both running', ['running', 'running'], ['stopped'], false, 'Pending'],
      ['regular init container is succeeded, restartable init container is running, regular containers is stopped', ['succeeded', 'running'], ['stopped'], false, 'Running'],
      ['regular init container is succeeded, restartable init container and regular containers are both running', ['succeeded', 'running'], ['running'], false, 'Running'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartNever', restartPolicy: 'Never', init: [], containers: [c('containerA'), c('containerB')],
    rows: [
      ['waiting', [], [], false, 'Pending'],
      ['all running with restart never', [], ['running', 'running'], false, 'Running'],
      ['all succeeded with restart never', [], ['succeeded', 'succeeded'], false, 'Succeeded'],
      ['all failed with restart never', [], ['failed', 'failed'], false, 'Failed'],
      ['mixed state #1 with restart never', [], ['running', 'succeeded'], false, 'Running'],
      ['mixed state #2 with restart never', [], ['running'], false, 'Pending'],
      ['mixed state #3 with restart never', [], ['running', 'waiting'], false, 'Pending'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartNeverInitContainers', restartPolicy: 'Never', init: [c('containerX')], containers: [c('containerA'), c('containerB')],
    rows: [
      ['empty, waiting', [], [], false, 'Pending'],
      ['init container running', ['running'], [], false, 'Pending'],
      ['init container terminated non-zero', ['failed'], [], false, 'Failed'],
      ['init container waiting, terminated zero', ['waitingLastZero'], [], false, 'Pending'],
      ['init container waiting, terminated non-zero', ['waitingLastNonZero'], [], false, 'Failed'],
      ['init container waiting, not terminated', ['waiting'], [], false, 'Pending'],
      ['init container succeeded', ['succeeded'], ['running', 'running'], false, 'Running'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartNeverRestartableInitContainers', restartPolicy: 'Never', init: [c('containerX', true)], containers: [c('containerA'), c('containerB')],
    rows: [
      ['empty, waiting', [], [], false, 'Pending'],
      ['restartable init container running', ['running'], [], false, 'Pending'],
      ['restartable init container stopped', ['stopped'], [], false, 'Pending'],
      ['restartable init container waiting, terminated zero', ['waitingLastZero'], [], false, 'Pending'],
      ['restartable init container waiting, terminated non-zero', ['waitingLastNonZero'], [], false, 'Pending'],
      ['restartable init container waiting, not terminated', ['waiting'], [], false, 'Pending'],
      ['restartable init container started, one main container running', ['started'], ['running'], false, 'Pending'],
      ['restartable init container started, main containers succeeded', ['started'], ['succeeded', 'succeeded'], false, 'Running'],
      ['restartable init container running, main containers succeeded', ['running'], ['succeeded', 'succeeded'], false, 'Running'],
      ['all containers succeeded', ['succeeded'], ['succeeded', 'succeeded'], false, 'Succeeded'],
      ['restartable init container terminated non-zero, main containers succeeded', ['failed'], ['succeeded', 'succeeded'], false, 'Succeeded'],
      ['backoff crashloop restartable init container, main containers succeeded', ['waitingLastZero'], ['succeeded', 'succeeded'], false, 'Succeeded'],
      ['backoff crashloop with non-zero restartable init container, main containers succeeded', ['waitingLastNonZero'], ['succeeded', 'succeeded'], false, 'Succeeded'],
    ],
  },
  {
    fn: 'TestPodPhaseWithRestartOnFailure', restartPolicy: 'OnFailure', init: [], containers: [c('containerA'), c('containerB')],
    rows: [
      ['waiting', [], [], false, 'Pending'],
      ['all running with restart onfailure', [], ['running', 'running'], false, 'Running'],
      ['all succeeded with restart onfailure', [], ['succeeded', 'succeeded'], false, 'Succeeded'],
      ['all failed with restart never', [], ['failed', 'failed'], false, 'Running'],
      ['mixed state #1 with restart onfailure', [], ['running', 'succeeded'], false, 'Running'],
      ['mixed state #2 with restart onfailure', [], ['running'], false, 'Pending'],
      ['mixed state #3 with restart onfailure', [], ['running', 'waiting'], false, 'Pending'],
      ['backoff crashloop container with restart onfailure', [], ['running', 'waitingLastZero'], false, 'Running'],
    ],
  },
];
for (const t of tables) {
  describe(`upstream ${t.fn}`, () => {
    for (const [name, init, regular, terminal, want] of t.rows) {
      it(name, () => {
        const spec = { restartPolicy: t.restartPolicy, nodeName: 'machine', initContainers: t.init, containers: t.containers } as PodSpec;
        const statuses = [...init.map((h, i) => upstreamState(t.init[i]!.name, h)), ...regular.map((h, i) => upstreamState(t.containers[i]!.name, h))];
        assert.equal(getPhase(spec, statuses, terminal), want);
      });
    }
  });
}
