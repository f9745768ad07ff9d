// v1 ContainerStatuses from the runtime's instances: the kubelet's convertToAPIContainerStatuses
// (kubelet_pods.go) plus what its prober manager's UpdatePodStatus sets (lifecycle/probes.ts:
// started once running and any startup probe succeeded; ready once started and any readiness
// probe succeeded; a regular init container is ready when it exited 0).
//
// - state is the newest instance, lastState the one before it;
// - a container that will be started again and whose last start attempt failed shows
//   `waiting` with that failure (CrashLoopBackOff, ErrImagePull, CreateContainerConfigError…),
//   its newest termination moving to lastState;
// - a container with no instance waits as ContainerCreating (PodInitializing when the pod has
//   init containers);
// - init containers keep spec order; regular containers are sorted by name, as the kubelet does.

import type { Container, ContainerState, ContainerStatus, Pod } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';
import { shouldContainerBeRestarted } from './actions.js';
import { applyProbes, noProbes, type ProbeView } from './probes.js';
import type { ContainerInstance, PodRuntime } from './runtime.js';
import { reasons } from './wording.js';
import { metaTime } from '../../api/metatime.js';

/** Why the last attempt to start a container failed (the kubelet's reasonCache entry). */
export interface StartFailure {
  reason: string;
  message: string;
}

export function runtimeContainerID(id: string): string {
  return `runc://${id}`;
}

export function instanceState(i: ContainerInstance): ContainerState {
  switch (i.state) {
    case 'running':
      return { running: { ...(i.startedAt ? { startedAt: kubeTime(i.startedAt) } : {}) } };
    case 'exited':
      return {
        terminated: {
          exitCode: i.exitCode ?? 137,
          ...(i.reason ? { reason: i.reason } : {}),
          ...(i.message ? { message: i.message } : {}),
          ...(i.startedAt ? { startedAt: kubeTime(i.startedAt) } : {}),
          ...(i.finishedAt ? { finishedAt: kubeTime(i.finishedAt) } : {}),
          containerID: runtimeContainerID(i.id),
        },
      };
    default:
      return { waiting: {} };
  }
}

function statusOf(pod: Pod, c: Container, init: boolean, rt: PodRuntime, failures: ReadonlyMap<string, StartFailure>, defaultWaiting: string, probes: ProbeView): ContainerStatus {
  const [cur, prev] = rt.containers[c.name] ?? [];
  const s: ContainerStatus = {
    name: c.name,
    state: { waiting: { reason: defaultWaiting } },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: c.image ?? '',
    imageID: '',
    started: false,
  };
  if (cur) {
    s.state = instanceState(cur);
    s.restartCount = cur.attempt;
    s.imageID = cur.imageID;
    s.containerID = runtimeContainerID(cur.id);
  }
  if (prev) s.lastState = instanceState(prev);

  const doneInit = init && !isSidecar(c) && cur?.state === 'exited' && cur.exitCode === 0;
  const failure = failures.get(c.name);
  if (!doneInit && failure && shouldContainerBeRestarted(pod, c, init, cur)) {
    if (s.state?.terminated) s.lastState = s.state;
    s.state = { waiting: { reason: failure.reason, ...(failure.message ? { message: failure.message } : {}) } };
  }

  if (init && !isSidecar(c)) {
    s.started = s.state?.running !== undefined && applyProbes(s, probes).status.started === true;
    s.ready = s.state?.terminated?.exitCode === 0;
    return s;
  }
  return applyProbes(s, probes).status;
}

export function initContainerStatuses(pod: Pod, rt: PodRuntime, failures: ReadonlyMap<string, StartFailure>, probes: ProbeView = noProbes): ContainerStatus[] {
  const inits = pod.spec.initContainers ?? [];
  const dflt = inits.length ? reasons.podInitializing : reasons.containerCreating;
  return inits.map((c) => statusOf(pod, c, true, rt, failures, dflt, probes));
}

export function regularContainerStatuses(pod: Pod, rt: PodRuntime, failures: ReadonlyMap<string, StartFailure>, probes: ProbeView = noProbes): ContainerStatus[] {
  const dflt = (pod.spec.initContainers ?? []).length ? reasons.podInitializing : reasons.containerCreating;
  return pod.spec.containers
    .map((c) => statusOf(pod, c, false, rt, failures, dflt, probes))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Ephemeral containers, in spec order: the newest instance's state (never restarted, so a
 * failure to start shows only until an instance exists); never ready, and without `started`
 * (the prober manager sets it for regular and init containers only).
 */
export function ephemeralContainerStatuses(pod: Pod, rt: PodRuntime, failures: ReadonlyMap<string, StartFailure>): ContainerStatus[] {
  const dflt = (pod.spec.initContainers ?? []).length ? reasons.podInitializing : reasons.containerCreating;
  return (pod.spec.ephemeralContainers ?? []).map((c) => {
    const [cur, prev] = rt.containers[c.name] ?? [];
    const failure = failures.get(c.name);
    const s: ContainerStatus = {
      name: c.name,
      state: cur ? instanceState(cur) : { waiting: failure ? { reason: failure.reason, ...(failure.message ? { message: failure.message } : {}) } : { reason: dflt } },
      lastState: prev ? instanceState(prev) : {},
      ready: false,
      restartCount: cur?.attempt ?? 0,
      image: c.image ?? '',
      imageID: cur?.imageID ?? '',
    };
    if (cur) s.containerID = runtimeContainerID(cur.id);
    return s;
  });
}

const notLocated = 'The container could not be located when the pod was terminated';

/** status manager hasPodInitialized: evidence that a regular container ever started. */
function hasPodInitialized(pod: Pod, inits: readonly ContainerStatus[], regs: readonly ContainerStatus[]): boolean {
  const specInits = pod.spec.initContainers ?? [];
  if (specInits.length === 0) return true;
  if (regs.some((s) => s.lastState?.terminated !== undefined || s.state?.waiting === undefined)) return true;
  const last = inits[inits.length - 1];
  const c = specInits.find((x) => x.name === last?.name);
  if (!last || !c) return false;
  if (isSidecar(c)) return last.state?.running !== undefined && last.started === true;
  return last.lastState?.terminated?.exitCode === 0 || last.state?.terminated?.exitCode === 0;
}

/**
 * The status manager's TerminatePod: once a pod is stopped for good, a container without a
 * terminated state cannot be called a success: it gets ContainerStatusUnknown, 137. Regular
 * containers only when the pod ever initialized; init containers all but the trailing ones that
 * never tried to start (the first one always).
 */
export function terminatedPodStatuses(pod: Pod, inits: ContainerStatus[], regs: ContainerStatus[]): { inits: ContainerStatus[]; regs: ContainerStatus[] } {
  const unknown = (s: ContainerStatus): ContainerStatus => ({
    ...s,
    ready: false,
    started: false,
    state: { terminated: { exitCode: 137, reason: reasons.containerStatusUnknown, message: notLocated } },
  });
  const initialized = hasPodInitialized(pod, inits, regs);
  let attempted = inits.length ? 1 : 0;
  for (let i = inits.length - 1; i >= 0; i--) {
    if (inits[i]!.state?.waiting === undefined || inits[i]!.lastState?.terminated !== undefined) {
      attempted = i + 1;
      break;
    }
  }
  return {
    inits: inits.map((s, i) => (i >= attempted || s.state?.terminated ? s : unknown(s))),
    regs: regs.map((s) => (!initialized || s.state?.terminated ? s : unknown(s))),
  };
}

/** metav1.Time as the API writes it: RFC 3339, whole seconds, UTC. */
export function kubeTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : metaTime(ms);
}
