// What the filters and the score read of a node and of a pod, computed once and kept current
// instead of recomputed per node per attempt (kube-scheduler's framework.NodeInfo and
// framework.PodInfo, pkg/scheduler/framework/types.go): a node's parsed allocatable, its
// effective taints, declared features and ulimit ceilings, and the sums of the requests of the
// active pods on it, updated by adding and removing one pod at a time (NodeInfo.AddPod /
// RemovePod). Amounts are integers as the scheduler's Resource holds them: millicores for cpu,
// units for everything else.

import { podRequests } from '../api/podresources.js';
import { parseResourceList, ResourceCPU, ResourceMemory, type Resources } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import type { Node, Pod, Taint } from '../api/types.js';
import { decodeCapabilities, hardCeilingsAsBigInt } from '../policy/nodecapabilities.js';
import type { RlimitType } from '../policy/rlimits.js';

/** The gates that change how requests are counted (and which filters run). */
export interface InfoGates {
  PodLevelResources: boolean;
}

/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what a container without requests counts as when scoring. */
export const nonZeroDefaults: Resources = new Map([
  [ResourceCPU, Quantity.fromMilli(100)],
  [ResourceMemory, Quantity.fromInt(200 * 1024 * 1024, 'BinarySI')],
]);

/** Integer amounts of a parsed list: millicores for cpu, units (rounded up) otherwise. */
export function amounts(r: Resources): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [name, q] of r) out.set(name, name === ResourceCPU ? q.milliValue() : q.value());
  return out;
}

/** A pod's requests as the scheduler counts them. */
export interface PodInfo {
  pod: Pod;
  /** The fit filter's requests: the real ones (no non-zero defaults), overhead included. */
  fit: ReadonlyMap<string, bigint>;
  /** The score's cpu (millicores) and memory, with the non-zero defaults for containers that ask nothing. */
  nonZeroCPU: bigint;
  nonZeroMemory: bigint;
}

export function podInfo(pod: Pod, gates: InfoGates): PodInfo {
  const nonZero = amounts(podRequests(pod, { podLevelResources: gates.PodLevelResources, nonMissingContainerRequests: nonZeroDefaults }));
  return {
    pod,
    fit: amounts(podRequests(pod, { podLevelResources: gates.PodLevelResources })),
    nonZeroCPU: nonZero.get(ResourceCPU) ?? 0n,
    nonZeroMemory: nonZero.get(ResourceMemory) ?? 0n,
  };
}

/** Pods that hold resources on a node: everything bound there that has not finished. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

function conditionStatus(node: Node, type: string): string | undefined {
  return node.status?.conditions?.find((c) => c.type === type)?.status;
}

export const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';
export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';
export const TaintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';
export const TaintNodeDiskPressure = 'node.kubernetes.io/disk-pressure';
export const TaintNodePIDPressure = 'node.kubernetes.io/pid-pressure';

/**
 * The node's taints as the node lifecycle controller would have set them: spec.taints plus the
 * condition taints (`TaintNodesByCondition`) that Bulkhead has no controller to write. A node
 * without a Ready condition yet counts as not ready, as upstream taints new nodes.
 */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const add = (key: string) => {
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  };
  const ready = conditionStatus(node, 'Ready');
  if (ready === 'Unknown') add(TaintNodeUnreachable);
  else if (ready !== 'True') add(TaintNodeNotReady);
  if (conditionStatus(node, 'MemoryPressure') === 'True') add(TaintNodeMemoryPressure);
  if (conditionStatus(node, 'DiskPressure') === 'True') add(TaintNodeDiskPressure);
  if (conditionStatus(node, 'PIDPressure') === 'True') add(TaintNodePIDPressure);
  if (node.spec?.unschedulable) add(TaintNodeUnschedulable);
  return taints;
}

function addAmounts(into: Map<string, bigint>, from: ReadonlyMap<string, bigint>, sign: 1n | -1n): void {
  for (const [k, v] of from) {
    const next = (into.get(k) ?? 0n) + sign * v;
    if (next === 0n) into.delete(k);
    else into.set(k, next);
  }
}

/** One node as the filters read it, with the active pods counted on it (bound, and assumed by the scheduler). */
export class NodeInfo {
  /** Undefined while pods are still counted on a node that was deleted (upstream keeps such a NodeInfo too). */
  node: Node | undefined;
  allocatable: ReadonlyMap<string, bigint> = new Map();
  /** Allocatable pods. */
  allowedPods = 0n;
  /** The effective taints that keep pods off (NoSchedule, NoExecute). */
  hardTaints: readonly Taint[] = [];
  declaredFeatures: ReadonlySet<string> = new Set();
  /** The hard rlimit ceilings the node declares (Bulkhead's capabilities annotation), when it does. */
  ulimitCeilings: Partial<Record<RlimitType, bigint>> | undefined;
  readonly pods = new Map<string, PodInfo>();
  /** The sum of the fit requests of `pods`. */
  readonly requested = new Map<string, bigint>();
  /** The sum of their non-zero cpu and memory (the score's). */
  nonZeroCPU = 0n;
  nonZeroMemory = 0n;
  private list?: Pod[];

  constructor(readonly name: string, node?: Node) {
    if (node) this.setNode(node);
  }

  /** A node with these pods on it (the inactive ones are not counted): the pure rules' entry point. */
  static of(node: Node, pods: readonly Pod[], gates: InfoGates): NodeInfo {
    const info = new NodeInfo(node.metadata.name ?? '', node);
    pods.forEach((p, i) => {
      if (isActivePod(p)) info.addPod(String(i), podInfo(p, gates));
    });
    return info;
  }

  setNode(node: Node): void {
    this.node = node;
    const allocatable = amounts(parseResourceList(node.status?.allocatable));
    this.allocatable = allocatable;
    this.allowedPods = allocatable.get('pods') ?? 0n;
    this.hardTaints = effectiveTaints(node).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
    this.declaredFeatures = new Set(node.status?.declaredFeatures ?? []);
    const caps = decodeCapabilities(node.metadata?.annotations);
    this.ulimitCeilings = caps ? hardCeilingsAsBigInt(caps) : undefined;
  }

  addPod(key: string, p: PodInfo): void {
    if (this.pods.has(key)) this.removePod(key);
    this.pods.set(key, p);
    addAmounts(this.requested, p.fit, 1n);
    this.nonZeroCPU += p.nonZeroCPU;
    this.nonZeroMemory += p.nonZeroMemory;
    this.list = undefined;
  }

  removePod(key: string): PodInfo | undefined {
    const p = this.pods.get(key);
    if (!p) return undefined;
    this.pods.delete(key);
    addAmounts(this.requested, p.fit, -1n);
    this.nonZeroCPU -= p.nonZeroCPU;
    this.nonZeroMemory -= p.nonZeroMemory;
    this.list = undefined;
    return p;
  }

  /** The pods counted here, in the order they were added (what preemption reads). */
  podList(): readonly Pod[] {
    this.list ??= [...this.pods.values()].map((p) => p.pod);
    return this.list;
  }

  /** A copy with more pods counted (the pods nominated to the node, for one filter run). */
  withPods(pods: readonly Pod[], gates: InfoGates): NodeInfo {
    const copy = new NodeInfo(this.name);
    Object.assign(copy, { node: this.node, allocatable: this.allocatable, allowedPods: this.allowedPods, hardTaints: this.hardTaints, declaredFeatures: this.declaredFeatures, ulimitCeilings: this.ulimitCeilings });
    for (const [k, p] of this.pods) copy.addPod(k, p);
    pods.forEach((p, i) => copy.addPod(`+nominated/${i}`, podInfo(p, gates)));
    return copy;
  }
}
