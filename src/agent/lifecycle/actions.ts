// What one sync of a pod should do, given what the runtime holds: the kubelet's
// computePodActions / computeInitContainerActions (kuberuntime_manager.go, kuberuntime_container.go,
// SidecarContainers on) and ShouldContainerBeRestarted (container/helpers.go); ephemeral
// containers are started once, even before initialization completes, and never restarted. The probes' part
// reads the prober's results (lifecycle/probes.ts): a liveness or startup failure kills the
// container (restarted unless the pod's restartPolicy is Never), and a sidecar with a startup
// probe counts as initialized only once that probe has succeeded.
//
// One deliberate difference: when the sandbox was recreated, an init container's instance from
// the earlier sandbox does not count as "ran" (the kubelet cannot tell sandboxes apart there and
// says so in a comment; every instance here records its sandbox), so init containers run again
// in order in the new sandbox.

import type { Container, Pod } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';
import { noProbes, probeKillGrace, probeKillMessage, probeKillReason, type ProbeView } from './probes.js';
import { containerRestartPolicy, latestInstance, podRestartPolicy, type ContainerInstance, type PodRuntime } from './runtime.js';

export interface KillRequest {
  /** Instance id. */
  id: string;
  name: string;
  /** Killing event message (default: `Stopping container NAME`). */
  message?: string;
  /** The grace of this kill when it is not the pod's (a probe's terminationGracePeriodSeconds). */
  graceSeconds?: number;
}

export interface PodActions {
  /** Stop every container and the sandbox (before a new sandbox, or because the pod is done). */
  killPod: boolean;
  createSandbox: boolean;
  sandboxAttempt: number;
  /** Indexes into spec.initContainers, in spec order. */
  initContainersToStart: number[];
  /** Indexes into spec.containers. */
  containersToStart: number[];
  /** Indexes into spec.ephemeralContainers: those never started (an ephemeral container is never restarted). */
  ephemeralContainersToStart: number[];
  /** Instances to stop before they are started again (unknown state, changed spec). */
  containersToKill: KillRequest[];
}

/** kubelet ShouldContainerBeRestarted: a container with no instance, or one that ended and may restart. */
export function shouldContainerBeRestarted(pod: Pod, c: Container, init: boolean, latest: ContainerInstance | undefined): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  if (!latest) return true;
  if (latest.state === 'running') return false;
  if (latest.state === 'unknown' || latest.state === 'created') return true;
  const policy = containerRestartPolicy(pod, c, init);
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && latest.exitCode === 0) return false;
  return true;
}

/** kubelet isInitContainerFailed. */
export function isInitContainerFailed(i: ContainerInstance): boolean {
  return i.reason === 'OOMKilled' || (i.state === 'exited' && i.exitCode !== 0) || i.state === 'unknown';
}

function succeeded(i: ContainerInstance | undefined): boolean {
  return i !== undefined && i.state === 'exited' && i.exitCode === 0;
}

function hasAnyRegularContainerCreated(pod: Pod, rt: PodRuntime): boolean {
  return pod.spec.containers.some((c) => {
    const s = latestInstance(rt, c.name);
    return s !== undefined && (s.state === 'created' || s.state === 'running' || s.state === 'exited');
  });
}

function empty(attempt: number): PodActions {
  return { killPod: false, createSandbox: false, sandboxAttempt: attempt, initContainersToStart: [], containersToStart: [], ephemeralContainersToStart: [], containersToKill: [] };
}

/**
 * `specHash(c)` is the hash of the container as the pod spec has it now; a running instance
 * created from another hash is restarted (the kubelet's "definition changed").
 */
export function computePodActions(pod: Pod, rt: PodRuntime, specHash: (c: Container) => string = () => '', probes: Pick<ProbeView, 'result'> = noProbes): PodActions {
  const policy = podRestartPolicy(pod);
  const sandboxChanged = !rt.sandbox || !rt.sandbox.ready;
  const attempt = rt.sandbox ? rt.sandbox.attempt + 1 : 0;
  const inits = pod.spec.initContainers ?? [];

  if (sandboxChanged) {
    const a = empty(attempt);
    a.killPod = true;
    a.createSandbox = true;
    const anyStatus = Object.values(rt.containers).some((l) => l.length > 0);
    // A Never pod whose containers already ran gets no new sandbox: it is done.
    if (policy === 'Never' && attempt !== 0 && anyStatus) {
      a.createSandbox = false;
      return a;
    }
    const toStart = pod.spec.containers.flatMap((c, i) => (policy === 'OnFailure' && succeeded(latestInstance(rt, c.name)) ? [] : [i]));
    if (toStart.length === 0 && hasAnyRegularContainerCreated(pod, rt)) {
      a.createSandbox = false;
      return a;
    }
    if (inits.length) a.initContainersToStart = [0];
    else a.containersToStart = toStart;
    return a;
  }

  const a = empty(attempt);
  // Ephemeral containers may start before initialization completes; one that has any instance
  // (running, exited, or failed to start) is never started again.
  (pod.spec.ephemeralContainers ?? []).forEach((c, idx) => {
    if (!latestInstance(rt, c.name)) a.ephemeralContainersToStart.push(idx);
  });
  const initialized = computeInitContainerActions(pod, rt, a, specHash, probes);
  if (a.killPod || !initialized) return a;

  let keep = 0;
  pod.spec.containers.forEach((c, idx) => {
    const s = latestInstance(rt, c.name);
    if (!s || s.state !== 'running') {
      if (shouldContainerBeRestarted(pod, c, false, s)) {
        a.containersToStart.push(idx);
        if (s?.state === 'unknown') a.containersToKill.push({ id: s.id, name: c.name });
      }
      return;
    }
    if (s.specHash !== undefined && s.specHash !== specHash(c)) {
      // Restarted whatever the restart policy: the spec changed.
      a.containersToKill.push({ id: s.id, name: c.name, message: `Container ${c.name} definition changed, will be restarted` });
      a.containersToStart.push(idx);
      return;
    }
    const why = probeKillReason(s.id, probes);
    if (why) {
      const restart = policy !== 'Never';
      a.containersToKill.push(probeKill(pod, c, s.id, why, false, restart));
      if (restart) a.containersToStart.push(idx);
      return;
    }
    keep++;
  });
  if (keep === 0 && a.containersToStart.length === 0) {
    a.killPod = true;
    // Sidecars (and ephemeral containers) must not keep a finished pod alive.
    a.initContainersToStart = [];
    a.ephemeralContainersToStart = [];
  }
  return a;
}

function probeKill(pod: Pod, c: Container, id: string, why: 'liveness' | 'startup', init: boolean, restart: boolean): KillRequest {
  const grace = probeKillGrace(pod, why === 'liveness' ? c.livenessProbe : c.startupProbe);
  return { id, name: c.name, message: probeKillMessage(c.name, why, init, restart), ...(grace !== undefined ? { graceSeconds: grace } : {}) };
}

/** Returns whether the pod is initialized; fills the init container part of `a`. */
function computeInitContainerActions(pod: Pod, rt: PodRuntime, a: PodActions, specHash: (c: Container) => string, probes: Pick<ProbeView, 'result'>): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;
  let podHasInitialized = pod.spec.containers.some((c) => {
    const s = latestInstance(rt, c.name);
    return s !== undefined && (s.state === 'created' || s.state === 'running');
  });
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = podRestartPolicy(pod) !== 'Never';
  const toStart: number[] = [];

  // Backwards: the last init container with a status is how far initialization got.
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    const latest = latestInstance(rt, c.name);
    const s = latest?.inCurrentSandbox ? latest : undefined;
    const sidecar = isSidecar(c);
    if (!s) {
      if (previouslyInitialized && sidecar) toStart.push(i);
      continue;
    }
    if (previouslyInitialized && !sidecar) continue;
    switch (s.state) {
      case 'created':
        toStart.push(i);
        break;
      case 'running': {
        if (!sidecar) break;
        if (c.startupProbe) {
          // Not initialized until its startup probe succeeds; a startup failure restarts it.
          const startup = probes.result('startup', s.id);
          if (startup === undefined) break;
          if (startup !== 'Success') {
            if (startup === 'Failure') {
              a.containersToKill.push(probeKill(pod, c, s.id, 'startup', true, false));
              toStart.push(i);
            }
            break;
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!previouslyInitialized) toStart.push(i + 1);
        if (s.specHash !== undefined && s.specHash !== specHash(c)) {
          a.containersToKill.push({ id: s.id, name: c.name, message: `Init container ${c.name} definition changed, will be restarted` });
          toStart.push(i);
          break;
        }
        if (c.livenessProbe && probes.result('liveness', s.id) === 'Failure') {
          a.containersToKill.push(probeKill(pod, c, s.id, 'liveness', true, false));
          toStart.push(i);
        }
        break;
      }
      case 'exited':
        if (sidecar) toStart.push(i);
        else if (isInitContainerFailed(s)) {
          if (!restartOnFailure) {
            a.killPod = true;
            a.initContainersToStart = [];
            a.ephemeralContainersToStart = [];
            return false;
          }
          toStart.push(i);
        } else if (i === inits.length - 1) podHasInitialized = true;
        else toStart.push(i + 1);
        break;
      default: // unknown
        if (!sidecar && !restartOnFailure) {
          a.killPod = true;
          a.initContainersToStart = [];
          a.ephemeralContainersToStart = [];
          return false;
        }
        a.containersToKill.push({ id: s.id, name: c.name });
        toStart.push(i);
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) toStart.push(0);
  a.initContainersToStart = [...new Set(toStart)].sort((x, y) => x - y);
  return podHasInitialized;
}
