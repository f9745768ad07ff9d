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
