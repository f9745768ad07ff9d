// A pod's phase from its container statuses: the kubelet's getPhase (kubelet_pods.go, 1.32,
// SidecarContainers on; static pods do not exist here).

import type { ContainerStatus, PodSpec } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

function find(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** kubecontainer.HasAnyRegularContainerStarted: a regular container is running or has terminated. */
export function hasAnyRegularContainerStarted(spec: PodSpec, statuses: readonly ContainerStatus[]): boolean {
  const names = new Set(spec.containers.map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}

/**
 * `statuses`: regular and init container statuses together. `podIsTerminal`: the pod is being
 * (or has been) stopped for good, so containers will not restart whatever the policy.
 */
export function getPhase(spec: PodSpec, statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase {
  const policy = spec.restartPolicy ?? 'Always';
  // Regular init containers yet to finish keep the pod Pending; sidecars yet to start only until a
  // regular container has run (upstream's pendingRegularInitContainers and
  // pendingRestartableInitContainers, counted apart).
  let pendingRegularInit = 0;
  let pendingRestartableInit = 0;
  let failedInitialization = 0;

  for (const c of spec.initContainers ?? []) {
    if (isSidecar(c)) continue;
    const s = find(statuses, c.name);
    if (!s) {
      pendingRegularInit++;
      continue;
    }
    if (s.state?.running) pendingRegularInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingRegularInit++;
    } else pendingRegularInit++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;

  for (const c of spec.initContainers ?? []) {
    if (!isSidecar(c)) continue;
    const s = find(statuses, c.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) {
      if (!s.started) pendingRestartableInit++;
      running++;
    } else if (s.state?.terminated) {
      // terminated sidecars do not count
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) {
        pendingRestartableInit++;
        waiting++;
      }
    } else {
      pendingRestartableInit++;
      unknown++;
    }
  }

  for (const c of spec.containers) {
    const s = find(statuses, c.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInitialization > 0 && policy === 'Never') return 'Failed';

  // Restarting sidecars must not put an initialized pod back to Pending.
  if (pendingRegularInit > 0 || (pendingRestartableInit > 0 && !hasAnyRegularContainerStarted(spec, statuses)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

export function isTerminalPhase(phase: string | undefined): phase is 'Succeeded' | 'Failed' {
  return phase === 'Succeeded' || phase === 'Failed';
}
