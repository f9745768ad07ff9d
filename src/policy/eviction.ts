// Kubelet node-pressure eviction (pkg/kubelet/eviction): threshold parsing with the kubelet's
// messages, threshold evaluation, the memory-pressure ranking and the eviction message.

import type { FeatureGates } from '../api/featuregates.js';
import { podRequests } from '../api/podresources.js';
import { parseResourceList, ResourceMemory } from '../api/resourcelist.js';
import { Quantity, QuantityError } from '../api/quantity.js';
import type { Pod } from '../api/types.js';
import { isCriticalPod } from './oomscore.js';

export const evictionSignals = [
  'memory.available',
  'allocatableMemory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
] as const;
export type EvictionSignal = (typeof evictionSignals)[number];

export interface Threshold {
  signal: EvictionSignal;
  operator: 'LessThan';
  /** Either a quantity or a fraction of capacity (float32, as the kubelet keeps it). */
  quantity?: Quantity;
  percentage?: number;
}

export class EvictionConfigError extends Error {}

export const defaultEvictionHard = 'memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%';

function isSignal(s: string): s is EvictionSignal {
  return (evictionSignals as readonly string[]).includes(s);
}

/** One `signal<value` statement; undefined for 0% and 100%, which mean "no threshold". */
export function parseThresholdStatement(signal: string, value: string): Threshold | undefined {
  if (!isSignal(signal)) throw new EvictionConfigError(`unsupported eviction signal ${signal}`);
  if (value.endsWith('%')) {
    if (value === '0%' || value === '100%') return undefined;
    const raw = Number(value.slice(0, -1));
    if (value.slice(0, -1).trim() === '' || Number.isNaN(raw)) {
      throw new EvictionConfigError(`strconv.ParseFloat: parsing ${JSON.stringify(value.slice(0, -1))}: invalid syntax`);
    }
    const percentage = Math.fround(Math.fround(raw) / 100);
    if (percentage < 0) throw new EvictionConfigError(`eviction percentage threshold ${signal} must be >= 0%: ${value}`);
    if (percentage > 1) throw new EvictionConfigError(`eviction percentage threshold ${signal} must be <= 100%: ${value}`);
    return { signal, operator: 'LessThan', percentage };
  }
  let q: Quantity;
  try {
    q = Quantity.parse(value);
  } catch (e) {
    throw new EvictionConfigError(e instanceof QuantityError ? e.message : String(e));
  }
  if (q.sign() <= 0) throw new EvictionConfigError(`eviction threshold ${signal} must be positive: ${q.toString()}`);
  return { signal, operator: 'LessThan', quantity: q };
}

/** `--eviction-hard` syntax: comma-separated `signal<value`, later duplicates win. */
export function parseEvictionThresholds(spec: string): Threshold[] {
  const bySignal = new Map<string, string>();
  for (const item of spec.split(',')) {
    if (item.trim() === '') continue;
    const lt = item.indexOf('<');
    if (lt < 0) throw new EvictionConfigError('malformed pair, expect string<string');
    bySignal.set(item.slice(0, lt).trim(), item.slice(lt + 1).trim());
  }
  const out: Threshold[] = [];
  for (const [signal, value] of bySignal) {
    const t = parseThresholdStatement(signal, value);
    if (t) out.push(t);
  }
  return out;
}

/** The threshold in absolute units for a signal whose capacity is known. */
export function thresholdQuantity(t: Threshold, capacity: bigint): bigint {
  if (t.quantity) return t.quantity.value();
  return BigInt(Math.trunc(Number(capacity) * (t.percentage ?? 0)));
}

/** Met iff the threshold is strictly above what is available. */
export function thresholdMet(t: Threshold, available: bigint, capacity: bigint, minReclaim = 0n): boolean {
  return thresholdQuantity(t, capacity) + minReclaim > available;
}

export interface PodUsage {
  /** Working set in bytes; undefined when no stats were found. */
  workingSetBytes?: bigint;
}

/** The memory request eviction compares usage with: overhead counts only on top of a non-zero request. */
export function memoryRequestForEviction(pod: Pod, gates: Pick<FeatureGates, 'PodLevelResources'>): bigint {
  const reqs = podRequests(pod, { podLevelResources: gates.PodLevelResources, excludeOverhead: true });
  let mem = reqs.get(ResourceMemory)?.value() ?? 0n;
  if (mem !== 0n) mem += parseResourceList(pod.spec.overhead).get(ResourceMemory)?.value() ?? 0n;
  return mem;
}

function cmpBool(a: boolean, b: boolean): number {
  if (a === b) return 0;
  return a ? -1 : 1;
}

interface Ranked {
  pod: Pod;
  usage: bigint | undefined;
  request: bigint;
  priority: number;
}

/**
 * rankMemoryPressure: pods without stats first, then pods using more than their request,
 * then lower priority, then larger usage above request. Upstream's sort is not stable;
 * this one keeps input order for full ties so a plan is reproducible.
 */
export function rankForMemoryPressure(
  pods: readonly Pod[],
  usage: (pod: Pod) => bigint | undefined,
  gates: Pick<FeatureGates, 'PodLevelResources'>,
): Pod[] {
  const ranked: Ranked[] = pods.map((pod) => ({
    pod,
    usage: usage(pod),
    request: memoryRequestForEviction(pod, gates),
    priority: typeof pod.spec.priority === 'number' ? pod.spec.priority : 0,
  }));
  const order = (a: Ranked, b: Ranked): number => {
    if (a.usage === undefined || b.usage === undefined) {
      const c = cmpBool(a.usage === undefined, b.usage === undefined);
      if (c !== 0) return c;
    } else {
      const c = cmpBool(a.usage > a.request, b.usage > b.request);
      if (c !== 0) return c;
    }
    if (a.priority !== b.priority) return a.priority - b.priority;
    if (a.usage !== undefined && b.usage !== undefined) {
      const da = a.usage - a.request;
      const db = b.usage - b.request;
      if (da !== db) return da > db ? -1 : 1;
    }
    return 0;
  };
  return ranked
    .map((r, i) => ({ r, i }))
    .sort((x, y) => order(x.r, y.r) || x.i - y.i)
    .map((x) => x.r.pod);
}

/** The pods the eviction manager may actually evict, in order: critical pods are never evicted. */
export function evictionCandidates(ranked: readonly Pod[]): Pod[] {
  return ranked.filter((p) => !isCriticalPod(p));
}

export interface ContainerUsage {
  name: string;
  usageBytes: bigint;
}

/** The pod status message of a memory eviction. */
export function evictionMessage(
  pod: Pod,
  resource: string,
  threshold: { quantity: bigint; available: bigint } | undefined,
  containerUsage: readonly ContainerUsage[],
): string {
  let msg = `The node was low on resource: ${resource}. `;
  if (threshold) {
    msg += `Threshold quantity: ${Quantity.fromInt(threshold.quantity, 'BinarySI').toString()}, available: ${Quantity.fromInt(threshold.available, 'BinarySI').toString()}. `;
  }
  const containers = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])];
  for (const u of containerUsage) {
    const c = containers.find((x) => x.name === u.name);
    if (!c) continue;
    const req = parseResourceList(c.resources?.requests).get(resource);
    const reqBytes = req?.value() ?? 0n;
    if (u.usageBytes > reqBytes) {
      msg += `Container ${u.name} was using ${Quantity.fromInt(u.usageBytes, 'BinarySI').toString()}, request is ${req ? req.toString() : '0'}, has larger consumption of ${resource}. `;
    }
  }
  return msg;
}
