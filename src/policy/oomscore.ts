// Per-container oom_score_adj (pkg/kubelet/qos/policy.go, the version with pod-level
// resources and sidecars). Node-critical pods and Guaranteed pods get -997, BestEffort 1000,
// Burstable a value from the container's share of machine memory clamped to [3, 999].

import type { FeatureGates } from '../api/featuregates.js';
import { aggregateContainerRequests, isPodLevelRequestsSet } from '../api/podresources.js';
import { parseResourceList, resourceQuantity, ResourceMemory } from '../api/resourcelist.js';
import type { Container, Pod } from '../api/types.js';
import { isSidecar } from '../api/types.js';
import { getPodQOS } from './qos.js';

export const guaranteedOOMScoreAdj = -997;
export const besteffortOOMScoreAdj = 1000;
/** What containerd, CRI-O and cri-dockerd give the pod sandbox (pause) process. */
export const sandboxOOMScoreAdj = -998;
export const kubeletOOMScoreAdj = -999;

export const systemCriticalPriority = 2000000000;
export const systemNodeCritical = 'system-node-critical';
export const systemClusterCritical = 'system-cluster-critical';

const configSourceAnnotation = 'kubernetes.io/config.source';
const configMirrorAnnotation = 'kubernetes.io/config.mirror';

export function isStaticPod(pod: Pod): boolean {
  const src = pod.metadata.annotations?.[configSourceAnnotation];
  return src !== undefined && src !== 'api';
}

export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[configMirrorAnnotation] !== undefined;
}

/** Critical: static, mirror, or priority at or above system-cluster-critical's. */
export function isCriticalPod(pod: Pod): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true;
  return typeof pod.spec.priority === 'number' && pod.spec.priority >= systemCriticalPriority;
}

export function isNodeCriticalPod(pod: Pod): boolean {
  return isCriticalPod(pod) && pod.spec.priorityClassName === systemNodeCritical;
}

function memoryRequestBytes(c: Container): bigint {
  const q = resourceQuantity(c.resources?.requests, ResourceMemory);
  return q ? q.value() : 0n;
}

function burstableAdj(requestBytes: bigint, memoryCapacity: bigint): number {
  return Number(1000n - (1000n * requestBytes) / memoryCapacity);
}

/**
 * The even share of a pod-level memory request that the containers leave unallocated,
 * given to every app and init container alike.
 */
function podLevelExtra(pod: Pod): bigint {
  const podReq = parseResourceList(pod.spec.resources?.requests).get(ResourceMemory);
  if (!podReq || podReq.isZero()) return 0n;
  const aggregated = aggregateContainerRequests(pod).get(ResourceMemory);
  const remaining = podReq.value() - (aggregated ? aggregated.value() : 0n);
  const n = BigInt((pod.spec.containers?.length ?? 0) + (pod.spec.initContainers?.length ?? 0));
  return n === 0n ? 0n : remaining / n;
}

export function containerOOMScoreAdj(
  pod: Pod,
  container: Container,
  memoryCapacity: bigint,
  gates: Pick<FeatureGates, 'PodLevelResources'>,
): number {
  return containerOOMScoreAdjFor(podOOMScoreInput(pod, gates), pod, container, memoryCapacity);
}

/** What containerOOMScoreAdj reads of the pod rather than of the container: read once for all its containers. */
export interface PodOOMScoreInput {
  /** What every container gets: node-critical and Guaranteed pods -997, BestEffort 1000. */
  readonly fixed?: number;
  /** Burstable: each container's share of a pod-level memory request the containers leave unallocated. */
  readonly extra: bigint;
  /** Burstable with a sidecar and regular containers: the smallest regular container's memory request. */
  readonly minRegularRequest?: bigint;
}

const guaranteedInput: PodOOMScoreInput = Object.freeze({ fixed: guaranteedOOMScoreAdj, extra: 0n });
const besteffortInput: PodOOMScoreInput = Object.freeze({ fixed: besteffortOOMScoreAdj, extra: 0n });

export function podOOMScoreInput(pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): PodOOMScoreInput {
  if (isNodeCriticalPod(pod)) return guaranteedInput;
  const qos = getPodQOS(pod, gates);
  if (qos === 'Guaranteed') return guaranteedInput;
  if (qos === 'BestEffort') return besteffortInput;
  const extra = gates.PodLevelResources && isPodLevelRequestsSet(pod) ? podLevelExtra(pod) : 0n;
  if (!(pod.spec.initContainers ?? []).some(isSidecar) || (pod.spec.containers?.length ?? 0) === 0) return { extra };
  let minRegularRequest: bigint | undefined;
  for (const c of pod.spec.containers) {
    const r = memoryRequestBytes(c);
    if (minRegularRequest === undefined || r < minRegularRequest) minRegularRequest = r;
  }
  return { extra, minRegularRequest };
}

function isInitContainer(pod: Pod, container: Container): boolean {
  for (const c of pod.spec.initContainers ?? []) if (c.name === container.name) return true;
  return false;
}

/** containerOOMScoreAdj with the pod's part read already (podOOMScoreInput). */
export function containerOOMScoreAdjFor(input: PodOOMScoreInput, pod: Pod, container: Container, memoryCapacity: bigint): number {
  if (input.fixed !== undefined) return input.fixed;
  if (memoryCapacity <= 0n) throw new RangeError('memory capacity must be positive');
  let adj = burstableAdj(memoryRequestBytes(container) + input.extra, memoryCapacity);
  // A sidecar is never killed before the regular container it serves.
  if (input.minRegularRequest !== undefined && isSidecar(container) && isInitContainer(pod, container)) {
    adj = Math.min(adj, burstableAdj(input.minRegularRequest + input.extra, memoryCapacity));
  }
  if (adj < 1000 + guaranteedOOMScoreAdj) return 1000 + guaranteedOOMScoreAdj;
  if (adj === besteffortOOMScoreAdj) return adj - 1;
  return adj;
}
