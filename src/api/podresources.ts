// A pod's effective requests and limits, as component-helpers/resource computes them for the
// scheduler, quota, eviction and pod cgroups: regular containers summed; init containers
// walked in order with a running total of the sidecars started so far; pod-level resources
// replacing the aggregate for the resources they support; overhead on top.

import type { Container, Pod } from './types.js';
import {
  addInto,
  HugePagesPrefix,
  maxInto,
  parseResourceList,
  ResourceCPU,
  ResourceMemory,
  type Resources,
} from './resourcelist.js';
import { isSidecar } from './types.js';

export interface PodResourcesOptions {
  /** Gate PodLevelResources: when false, `spec.resources` is ignored. */
  podLevelResources: boolean;
  /** Leave `spec.overhead` out (the scheduler's "non-overhead" view). */
  excludeOverhead?: boolean;
  /** Defaults for resources a container leaves unset (the scheduler's non-zero requests). */
  nonMissingContainerRequests?: Resources;
}

export function isSupportedPodLevelResource(name: string): boolean {
  return name === ResourceCPU || name === ResourceMemory || name.startsWith(HugePagesPrefix);
}

function hasSupportedKey(rl: Record<string, string> | undefined): boolean {
  if (!rl) return false;
  for (const k of Object.keys(rl)) if (isSupportedPodLevelResource(k)) return true;
  return false;
}

/** Pod-level resources count as set when a request or limit names cpu, memory or hugepages. */
export function isPodLevelResourcesSet(pod: Pod): boolean {
  const r = pod.spec.resources;
  return !!r && (hasSupportedKey(r.requests) || hasSupportedKey(r.limits));
}

export function isPodLevelRequestsSet(pod: Pod): boolean {
  return hasSupportedKey(pod.spec.resources?.requests);
}

export function isPodLevelLimitsSet(pod: Pod): boolean {
  return hasSupportedKey(pod.spec.resources?.limits);
}

type Selector = (c: Container) => Resources;

const pickRequests: Selector = (c) => parseResourceList(c.resources?.requests);
const pickLimits: Selector = (c) => parseResourceList(c.resources?.limits);

function addAll(acc: Resources, r: Resources): void {
  for (const [k, q] of r) addInto(acc, k, q);
}

function maxAll(acc: Resources, r: Resources): void {
  for (const [k, q] of r) maxInto(acc, k, q);
}

/** A copy of a list; `new Map(map)` takes V8's slow iterable path. */
function copyOf(r: Resources): Resources {
  const out: Resources = new Map();
  for (const [k, q] of r) out.set(k, q);
  return out;
}

function withDefaults(r: Resources, defaults: Resources | undefined): Resources {
  if (!defaults) return r;
  const out = copyOf(r);
  for (const [k, q] of defaults) if (!out.has(k)) out.set(k, q);
  return out;
}

function aggregate(pod: Pod, pick: Selector, defaults?: Resources): Resources {
  let total: Resources | undefined;
  // The first container's list is a fresh map (pick parses anew): it starts the total.
  for (const c of pod.spec.containers ?? []) {
    const own = withDefaults(pick(c), defaults);
    if (total) addAll(total, own);
    else total = own;
  }
  total ??= new Map();
  if (!pod.spec.initContainers?.length) return total;
  const sidecarsSoFar: Resources = new Map();
  const initPeak: Resources = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const own = withDefaults(pick(c), defaults);
    let inUse: Resources;
    if (isSidecar(c)) {
      addAll(total, own);
      addAll(sidecarsSoFar, own);
      inUse = copyOf(sidecarsSoFar);
    } else {
      inUse = copyOf(own);
      addAll(inUse, sidecarsSoFar);
    }
    maxAll(initPeak, inUse);
  }
  maxAll(total, initPeak);
  return total;
}

/** AggregateContainerRequests: containers and init containers only, no pod-level, no overhead. */
export function aggregateContainerRequests(pod: Pod, opts?: Pick<PodResourcesOptions, 'nonMissingContainerRequests'>): Resources {
  return aggregate(pod, pickRequests, opts?.nonMissingContainerRequests);
}

export function aggregateContainerLimits(pod: Pod): Resources {
  return aggregate(pod, pickLimits);
}

export function podRequests(pod: Pod, opts: PodResourcesOptions): Resources {
  const reqs = aggregateContainerRequests(pod, opts);
  if (opts.podLevelResources && isPodLevelRequestsSet(pod)) {
    for (const [k, q] of parseResourceList(pod.spec.resources?.requests)) {
      if (isSupportedPodLevelResource(k)) reqs.set(k, q);
    }
  }
  if (!opts.excludeOverhead && pod.spec.overhead) {
    for (const [k, q] of parseResourceList(pod.spec.overhead)) addInto(reqs, k, q);
  }
  return reqs;
}

export function podLimits(pod: Pod, opts: PodResourcesOptions): Resources {
  const limits = aggregateContainerLimits(pod);
  if (opts.podLevelResources && isPodLevelLimitsSet(pod)) {
    for (const [k, q] of parseResourceList(pod.spec.resources?.limits)) {
      if (isSupportedPodLevelResource(k)) limits.set(k, q);
    }
  }
  if (!opts.excludeOverhead && pod.spec.overhead) {
    for (const [k, q] of parseResourceList(pod.spec.overhead)) {
      const cur = limits.get(k);
      if (cur && !cur.isZero()) limits.set(k, cur.add(q));
    }
  }
  return limits;
}
