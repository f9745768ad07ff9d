// The kubelet-owned pod conditions (status/generate.go, 1.32, SidecarContainers and
// PodReadyToStartContainersCondition on; no readiness gates or probes here) and the status
// manager's lastTransitionTime rule: kept while a condition's status stays, `now` when it flips.

import type { Container, ContainerStatus, PodCondition, PodSpec } from '../../api/types.js';
import { isSidecar } from '../../api/types.js';
import { hasAnyRegularContainerStarted, type PodPhase } from './phase.js';

export const conditionReasons = {
  unknownContainerStatuses: 'UnknownContainerStatuses',
  podCompleted: 'PodCompleted',
  podFailed: 'PodFailed',
  containersNotReady: 'ContainersNotReady',
  containersNotInitialized: 'ContainersNotInitialized',
} as const;

/** The condition types the kubelet owns (it drops what the pod had for these and regenerates them). */
export const kubeletConditionTypes = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/** Go's %s of a []string: [a b]. */
function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function find(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

export function containersReadyCondition(spec: PodSpec, statuses: readonly ContainerStatus[] | undefined, phase: PodPhase): PodCondition {
  if (!statuses) return { type: 'ContainersReady', status: 'False', reason: conditionReasons.unknownContainerStatuses };
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (c: Container) => {
    const s = find(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  };
  for (const c of spec.initContainers ?? []) if (isSidecar(c)) check(c);
  for (const c of spec.containers) check(c);
  if ((phase === 'Succeeded' && unknown.length === 0) || phase === 'Failed') {
    return { type: 'ContainersReady', status: 'False', reason: phase === 'Failed' ? conditionReasons.podFailed : conditionReasons.podCompleted };
  }
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length) msgs.push(`containers with unready status: ${goList(unready)}`);
  if (msgs.length) return { type: 'ContainersReady', status: 'False', reason: conditionReasons.containersNotReady, message: msgs.join(', ') };
  return { type: 'ContainersReady', status: 'True' };
}

export function podReadyCondition(spec: PodSpec, statuses: readonly ContainerStatus[] | undefined, phase: PodPhase): PodCondition {
  const cr = containersReadyCondition(spec, statuses, phase);
  if (cr.status !== 'True') return { type: 'Ready', status: cr.status, ...(cr.reason ? { reason: cr.reason } : {}), ...(cr.message ? { message: cr.message } : {}) };
  return { type: 'Ready', status: 'True' };
}

function initContainerInitialized(c: Container, s: ContainerStatus): boolean {
  return isSidecar(c) ? s.started === true : s.ready;
}

export function podInitializedCondition(spec: PodSpec, statuses: readonly ContainerStatus[] | undefined, phase: PodPhase): PodCondition {
  const inits = spec.initContainers ?? [];
  if (!statuses && inits.length > 0) return { type: 'Initialized', status: 'False', reason: conditionReasons.unknownContainerStatuses };
  const all = statuses ?? [];
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = find(all, c.name);
    if (!s) unknown.push(c.name);
    else if (!initContainerInitialized(c, s)) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: conditionReasons.podCompleted };
  if (hasAnyRegularContainerStarted(spec, all)) return { type: 'Initialized', status: 'True' };
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length) msgs.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (msgs.length) return { type: 'Initialized', status: 'False', reason: conditionReasons.containersNotInitialized, message: msgs.join(', ') };
  return { type: 'Initialized', status: 'True' };
}

/** True while the pod's sandbox is up (no new sandbox needed). */
export function podReadyToStartContainersCondition(sandboxReady: boolean): PodCondition {
  return { type: 'PodReadyToStartContainers', status: sandboxReady ? 'True' : 'False' };
}

/**
 * The pod's conditions in the kubelet's order: conditions it does not own (kept from `old`),
 * PodReadyToStartContainers, Initialized, Ready, ContainersReady, the agent's own conditions
 * (`own`, e.g. the OOM kill mode it applies), then PodScheduled as `old` has it (the
 * scheduler's). Each gets lastProbeTime null and a lastTransitionTime.
 */
export function podConditions(
  spec: PodSpec,
  statuses: readonly ContainerStatus[],
  phase: PodPhase,
  sandboxReady: boolean,
  old: readonly PodCondition[] | undefined,
  now: string,
  own: readonly PodCondition[] = [],
): PodCondition[] {
  const prev = old ?? [];
  const generated = [
    podReadyToStartContainersCondition(sandboxReady),
    podInitializedCondition(spec, statuses, phase),
    podReadyCondition(spec, statuses, phase),
    containersReadyCondition(spec, statuses, phase),
    ...own,
  ].map((c) => {
    const before = prev.find((o) => o.type === c.type);
    const lastTransitionTime = before && before.status === c.status && before.lastTransitionTime ? before.lastTransitionTime : now;
    return { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
  });
  const foreign = prev.filter((c) => !kubeletConditionTypes.includes(c.type) && !own.some((o) => o.type === c.type));
  const scheduled = prev.filter((c) => c.type === 'PodScheduled');
  return [...foreign, ...generated, ...scheduled];
}
