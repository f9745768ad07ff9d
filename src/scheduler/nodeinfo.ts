// What the filters and the score read of a node and of a pod, computed once and kept current
// instead of recomputed per node per attempt (kube-scheduler's framework.NodeInfo and
// framework.PodInfo, pkg/scheduler/framework/types.go): a node's parsed allocatable, its
// effective taints, declared features and ulimit ceilings, and the sums of the requests and the
// host ports (UsedPorts) of the active pods on it, updated by adding and removing one pod at a
// time (NodeInfo.AddPod / RemovePod). The score plugins (score.ts) read the same sums: the real
// requests (`requested`, NodeResourcesBalancedAllocation's) and the non-zero ones (LeastAllocated's).
// Amounts are integers as the scheduler's Resource holds them: millicores for cpu, units for
// everything else (amount.ts: numbers while they are safe integers).

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

/** One host port a container asks for, as HostPortInfo keys it: hostIP (empty is 0.0.0.0), protocol (empty is TCP), port. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** framework.DefaultBindAllHostIP: the hostIP that binds every address. */
export const BindAllHostIP = '0.0.0.0';

/**
 * The host ports a pod holds on its node, as kube-scheduler v1.32 counts them (NodePorts'
 * getContainerPorts and NodeInfo.updateUsedPorts, both over spec.containers only): every port of
 * a regular container with a hostPort above 0. Init containers, restartable (sidecars) or not,
 * hold none in v1.32; upstream counts the restartable ones from v1.34 (kubernetes#132040,
 * cherry-picked to 1.33, not to 1.32).
 */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      const port = p.hostPort ?? 0;
      if (port > 0) out.push({ ip: p.hostIP || BindAllHostIP, protocol: p.protocol || 'TCP', port });
    }
  }
  return out;
}

/**
 * framework.HostPortInfo: the (hostIP, protocol, port) triples held on a node, by hostIP. Empty
 * hostIP and protocol read as 0.0.0.0 and TCP; a port of 0 or less is never held and never
 * conflicts. 0.0.0.0 conflicts with the same protocol and port on any IP, and any IP with it.
 *
 * Unlike upstream's set, each triple is counted, so that removing one of two pods holding the
 * same triple (two pods bound by nodeName bypass the filter) leaves it held: the incremental sums
 * then always equal a count from scratch, whatever the order of the pod events. Upstream's
 * Remove deletes the triple outright.
 */
export class HostPortInfo {
  /** hostIP → "protocol/port" → how many of the node's pods hold it. */
  private readonly byIP = new Map<string, Map<string, number>>();

  add(ip: string, protocol: string, port: number): void {
    if (port <= 0) return;
    const key = `${protocol || 'TCP'}/${port}`;
    ip ||= BindAllHostIP;
    let m = this.byIP.get(ip);
    if (!m) this.byIP.set(ip, (m = new Map()));
    m.set(key, (m.get(key) ?? 0) + 1);
  }

  remove(ip: string, protocol: string, port: number): void {
    if (port <= 0) return;
    const key = `${protocol || 'TCP'}/${port}`;
    ip ||= BindAllHostIP;
    const m = this.byIP.get(ip);
    const n = m?.get(key);
    if (!m || n === undefined) return;
    if (n > 1) m.set(key, n - 1);
    else {
      m.delete(key);
      if (m.size === 0) this.byIP.delete(ip);
    }
  }

  /** How many distinct triples are held (HostPortInfo.Len). */
  get size(): number {
    let n = 0;
    for (const m of this.byIP.values()) n += m.size;
    return n;
  }

  /** CheckConflict: whether asking for (ip, protocol, port) collides with a triple held here. */
  conflicts(ip: string, protocol: string, port: number): boolean {
    if (port <= 0) return false;
    const key = `${protocol || 'TCP'}/${port}`;
    ip ||= BindAllHostIP;
    if (ip === BindAllHostIP) {
      for (const m of this.byIP.values()) if (m.has(key)) return true;
      return false;
    }
    return (this.byIP.get(BindAllHostIP)?.has(key) ?? false) || (this.byIP.get(ip)?.has(key) ?? false);
  }
}

/** A pod's requests and host ports as the scheduler counts them. */
export interface PodInfo {
  pod: Pod;
  /** podHostPorts: the host ports it holds on its node, and asks for when scheduled. */
  hostPorts: readonly HostPort[];
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
    hostPorts: podHostPorts(pod),
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
  /** spec.taints with effect PreferNoSchedule (what TaintToleration's Score counts). */
  preferNoScheduleTaints: readonly Taint[] = [];
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
  /** The host ports of `pods` (upstream's NodeInfo.UsedPorts). */
  readonly usedPorts = new HostPortInfo();
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
    this.preferNoScheduleTaints = (node.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule');
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
    for (const hp of p.hostPorts) this.usedPorts.add(hp.ip, hp.protocol, hp.port);
    this.list = undefined;
  }

  removePod(key: string): PodInfo | undefined {
    const p = this.pods.get(key);
    if (!p) return undefined;
    this.pods.delete(key);
    this.addAmounts(p.fit, true);
    this.nonZeroCPU = subAmount(this.nonZeroCPU, p.nonZeroCPU);
    this.nonZeroMemory = subAmount(this.nonZeroMemory, p.nonZeroMemory);
    for (const hp of p.hostPorts) this.usedPorts.remove(hp.ip, hp.protocol, hp.port);
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
