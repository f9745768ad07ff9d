// Pod QoS class (pkg/apis/core/v1/helper/qos). Only cpu and memory count; a zero quantity is
// the same as an absent one; ephemeral containers are never considered; with pod-level
// resources set (and the gate on) the pod-level stanza is the only input.

import type { FeatureGates } from '../api/featuregates.js';
import { isPodLevelResourcesSet } from '../api/podresources.js';
import type { Quantity } from '../api/quantity.js';
import { parseResourceList, resourceQuantity, ResourceCPU, ResourceMemory } from '../api/resourcelist.js';
import type { Container, Pod, QOSClass, ResourceRequirements } from '../api/types.js';

type Shape = 'BestEffort' | 'Guaranteed';

function positiveOrZero(q: Quantity | undefined): bigint {
  return q && q.sign() > 0 ? q.nanos() : 0n;
}

const qosResources = [ResourceCPU, ResourceMemory];

/** The class of one requirements block: a container's, or the pod-level stanza. */
export function blockQOS(rr: ResourceRequirements | undefined): QOSClass {
  let shape: Shape | undefined;
  for (const name of qosResources) {
    const req = positiveOrZero(resourceQuantity(rr?.requests, name));
    const lim = positiveOrZero(resourceQuantity(rr?.limits, name));
    if (req !== lim) return 'Burstable';
    const s: Shape = req === 0n ? 'BestEffort' : 'Guaranteed';
    if (shape !== undefined && shape !== s) return 'Burstable';
    shape = s;
  }
  return shape!;
}

/** ComputePodQOS: a pure function of the spec. */
export function computePodQOS(pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): QOSClass {
  if (gates.PodLevelResources && isPodLevelResourcesSet(pod)) return blockQOS(pod.spec.resources);
  const seen = containersQOS(pod.spec.containers, containersQOS(pod.spec.initContainers, undefined));
  return seen ?? 'BestEffort';
}

/** The class of a list of containers together with what the ones before were (`seen`). */
function containersQOS(list: readonly Container[] | undefined, seen: QOSClass | undefined): QOSClass | undefined {
  for (const c of list ?? []) {
    if (seen === 'Burstable') return seen;
    const cls = blockQOS(c.resources);
    seen = seen !== undefined && seen !== cls ? 'Burstable' : cls;
  }
  return seen;
}

/** GetPodQOS: a persisted status.qosClass wins over the spec. */
export function getPodQOS(pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): QOSClass {
  const persisted = pod.status?.qosClass;
  if (persisted) return persisted;
  return computePodQOS(pod, gates);
}

/**
 * The older sum-based formulation. It agrees with computePodQOS on every pod that passes
 * validation; tests assert that, as a self-check of both.
 */
export function computePodQOSBySums(pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): QOSClass {
  const blocks: (ResourceRequirements | undefined)[] =
    gates.PodLevelResources && isPodLevelResourcesSet(pod)
      ? [pod.spec.resources]
      : [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])].map((c) => c.resources);
  const reqSum = new Map<string, bigint>();
  const limSum = new Map<string, bigint>();
  let isGuaranteed = true;
  for (const rr of blocks) {
    const requests = parseResourceList(rr?.requests);
    const limits = parseResourceList(rr?.limits);
    for (const name of [ResourceCPU, ResourceMemory]) {
      const r = positiveOrZero(requests.get(name));
      if (r > 0n) reqSum.set(name, (reqSum.get(name) ?? 0n) + r);
      const l = positiveOrZero(limits.get(name));
      if (l > 0n) limSum.set(name, (limSum.get(name) ?? 0n) + l);
    }
    if (positiveOrZero(limits.get(ResourceCPU)) === 0n || positiveOrZero(limits.get(ResourceMemory)) === 0n) isGuaranteed = false;
  }
  if (reqSum.size === 0 && limSum.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const name of [ResourceCPU, ResourceMemory]) {
      if (reqSum.get(name) !== limSum.get(name)) isGuaranteed = false;
    }
  }
  return isGuaranteed && limSum.size === 2 ? 'Guaranteed' : 'Burstable';
}
