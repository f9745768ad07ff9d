// What the filters and the score read of a node and of a pod, computed once and kept current
// instead of recomputed per node per attempt (kube-scheduler's framework.NodeInfo and
// framework.PodInfo, pkg/scheduler/framework/types.go): a node's parsed allocatable, its
// effective taints, declared features and ulimit ceilings, and the sums of the requests of the
// active pods on it, updated by adding and removing one pod at a time (NodeInfo.AddPod /
// RemovePod). Amounts are integers as the scheduler's Resource holds them: millicores for cpu,
// units for everything else (amount.ts: numbers while they are safe integers).

import { podRequests } from '../api/podresources.js';
import { parseResourceList, ResourceCPU, ResourceMemory, type Resources } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import type { Node, Pod, Taint } from '../api/types.js';
import { decodeCapabilities, hardCeilingsAsBigInt } from '../policy/nodecapabilities.js';
import type { RlimitType } from '../policy/rlimits.js';
import { addAmount, amountOf, subAmount, type Amount } from './amount.js';

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
export function amounts(r: Resources): Map<string, Amount> {
  const out = new Map<string, Amount>();
  for (const [name, q] of r) out.set(name, amountOf(name === ResourceCPU ? q.milliValue() : q.value()));
  return out;
}

/** A pod's requests as the scheduler counts them. */
export interface PodInfo {
  pod: Pod;
  /** The fit filter's requests: the real ones (no non-zero defaults), overhead included. */
  fit: ReadonlyMap<string, Amount>;
  /** The score's cpu (millicores) and memory, with the non-zero defaults for containers that ask nothing. */
  nonZeroCPU: Amount;
  nonZeroMemory: Amount;
}

/** Informer objects are frozen and shared: the same object always counts the same. */
const memo = new WeakMap<Pod, { gates: InfoGates; info: PodInfo }>();

export function podInfo(pod: Pod, gates: InfoGates): PodInfo {
  const hit = memo.get(pod);
  if (hit?.gates === gates) return hit.info;
  const info = computePodInfo(pod, gates);
  if (Object.isFrozen(pod)) memo.set(pod, { gates, info });
  return info;
}

function computePodInfo(pod: Pod, gates: InfoGates): PodInfo {
  const nonZero = amounts(podRequests(pod, { podLevelResources: gates.PodLevelResources, nonMissingContainerRequests: nonZeroDefaults }));
  return {
    pod,
    fit: amounts(podRequests(pod, { podLevelResources: gates.PodLevelResources })),
    nonZeroCPU: nonZero.get(ResourceCPU) ?? 0,
    nonZeroMemory: nonZero.get(ResourceMemory) ?? 0,
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

/** One node as the filters read it, with the active pods counted on it (bound, and assumed by the scheduler). */
export class NodeInfo {
  /** Undefined while pods are still counted on a node that was deleted (upstream keeps such a NodeInfo too). */
  node: Node | undefined;
  allocatable: ReadonlyMap<string, Amount> = new Map();
  /** Allocatable pods, cpu and memory (the score's), read on every walk. */
  allowedPods: Amount = 0;
  allocatableCPU: Amount = 0;
  allocatableMemory: Amount = 0;
  /** The effective taints that keep pods off (NoSchedule, NoExecute). */
  hardTaints: readonly Taint[] = [];
  declaredFeatures: ReadonlySet<string> = new Set();
  /** The hard rlimit ceilings the node declares (Bulkhead's capabilities annotation), when it does. */
  ulimitCeilings: Partial<Record<RlimitType, bigint>> | undefined;
  readonly pods = new Map<string, PodInfo>();
  /** The sum of the fit requests of `pods`. */
  readonly requested = new Map<string, Amount>();
  /** allocatable − requested of every resource either names (what the fit filter compares against). */
  readonly free = new Map<string, Amount>();
  /** The sum of their non-zero cpu and memory (the score's). */
  nonZeroCPU: Amount = 0;
  nonZeroMemory: Amount = 0;
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
    this.allowedPods = allocatable.get('pods') ?? 0;
    this.allocatableCPU = allocatable.get(ResourceCPU) ?? 0;
    this.allocatableMemory = allocatable.get(ResourceMemory) ?? 0;
    this.free.clear();
    for (const k of new Set([...allocatable.keys(), ...this.requested.keys()])) this.updateFree(k);
    this.hardTaints = effectiveTaints(node).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
    this.declaredFeatures = new Set(node.status?.declaredFeatures ?? []);
    const caps = decodeCapabilities(node.metadata?.annotations);
    this.ulimitCeilings = caps ? hardCeilingsAsBigInt(caps) : undefined;
  }

  addPod(key: string, p: PodInfo): void {
    if (this.pods.has(key)) this.removePod(key);
    this.pods.set(key, p);
    this.addAmounts(p.fit, false);
    this.nonZeroCPU = addAmount(this.nonZeroCPU, p.nonZeroCPU);
    this.nonZeroMemory = addAmount(this.nonZeroMemory, p.nonZeroMemory);
    this.list = undefined;
  }

  removePod(key: string): PodInfo | undefined {
    const p = this.pods.get(key);
    if (!p) return undefined;
    this.pods.delete(key);
    this.addAmounts(p.fit, true);
    this.nonZeroCPU = subAmount(this.nonZeroCPU, p.nonZeroCPU);
    this.nonZeroMemory = subAmount(this.nonZeroMemory, p.nonZeroMemory);
    this.list = undefined;
    return p;
  }

  private addAmounts(from: ReadonlyMap<string, Amount>, remove: boolean): void {
    for (const [k, v] of from) {
      const cur = this.requested.get(k) ?? 0;
      const next = remove ? subAmount(cur, v) : addAmount(cur, v);
      if (next === 0) this.requested.delete(k);
      else this.requested.set(k, next);
      this.updateFree(k);
    }
  }

  private updateFree(k: string): void {
    this.free.set(k, subAmount(this.allocatable.get(k) ?? 0, this.requested.get(k) ?? 0));
  }

  /** The pods counted here, in the order they were added (what preemption reads). */
  podList(): readonly Pod[] {
    this.list ??= [...this.pods.values()].map((p) => p.pod);
    return this.list;
  }

  /** A copy with more pods counted (the pods nominated to the node, for one filter run). */
  withPods(pods: readonly Pod[], gates: InfoGates): NodeInfo {
    const copy = new NodeInfo(this.name);
    if (this.node) copy.setNode(this.node);
    for (const [k, p] of this.pods) copy.addPod(k, p);
    pods.forEach((p, i) => copy.addPod(`+nominated/${i}`, podInfo(p, gates)));
    return copy;
  }
}
