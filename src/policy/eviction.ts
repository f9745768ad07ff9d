// Kubelet node-pressure eviction (pkg/kubelet/eviction): threshold parsing with the kubelet's
// messages, threshold evaluation, node conditions with their transition period, the
// memory-pressure ranking, and the eviction and admission messages.

import type { FeatureGates } from '../api/featuregates.js';
import { isPodLevelResourcesSet, podRequests } from '../api/podresources.js';
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

/** defaults_linux.go DefaultEvictionHard; imagefs.inodesFree<5% joined the map with the split image filesystem (v1.29). */
export const defaultEvictionHard = 'memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5%';

function isSignal(s: string): s is EvictionSignal {
  return (evictionSignals as readonly string[]).includes(s);
}

/**
 * Go's strconv.ParseFloat(s, 32) as parsePercentage calls it: decimal or hex-float syntax,
 * Inf/Infinity/NaN in any case, no surrounding spaces; an exponent beyond float32 is out of range.
 */
function parseFloat32(s: string): number {
  const fail = (why: string) => new EvictionConfigError(`strconv.ParseFloat: parsing ${JSON.stringify(s)}: ${why}`);
  let v: number;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s);
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) v = s.startsWith('-') ? -Infinity : Infinity;
  else if (/^[+-]?nan$/i.test(s)) v = NaN;
  else if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) v = Number(s);
  else if (hex && (hex[2] !== '' || (hex[3] ?? '') !== '')) {
    const digits = hex[2]! + (hex[3] ?? '');
    v = (hex[1] === '-' ? -1 : 1) * Number.parseInt(digits, 16) * 2 ** (Number(hex[4]) - 4 * (hex[3] ?? '').length);
  } else throw fail('invalid syntax');
  const f = Math.fround(v);
  if (Number.isFinite(v) && !Number.isFinite(f)) throw fail('value out of range');
  return f;
}

/** One `signal<value` statement; undefined for 0% and 100%, which mean "no threshold". */
export function parseThresholdStatement(signal: string, value: string): Threshold | undefined {
  if (!isSignal(signal)) throw new EvictionConfigError(`unsupported eviction signal ${signal}`);
  if (value.endsWith('%')) {
    if (value === '0%' || value === '100%') return undefined;
    // parsePercentage: strings.TrimRight(value, "%"), so "10%%" is 10%; float32 division.
    const percentage = Math.fround(parseFloat32(value.replace(/%+$/, '')) / 100);
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

/** kubetypes.NodeAllocatableEnforcementKey: the enforceNodeAllocatable entry for the pods cgroup. */
export const nodeAllocatableEnforcementKey = 'pods';

/**
 * addAllocatableThresholds: every hard memory.available threshold gets an
 * allocatableMemory.available copy, appended after the originals (every Bulkhead threshold is
 * hard: there are no soft thresholds to leave out).
 */
export function addAllocatableThresholds(thresholds: readonly Threshold[]): Threshold[] {
  const copies = thresholds.filter((t) => t.signal === 'memory.available').map((t): Threshold => ({ ...t, signal: 'allocatableMemory.available' }));
  return [...thresholds, ...copies];
}

/**
 * `--eviction-hard` syntax: comma-separated `signal<value`, later duplicates win. With `pods` in
 * `allocatableConfig` (kubelet enforceNodeAllocatable) the memory thresholds are also applied to
 * the pods' cgroup, as ParseThresholdConfig does.
 */
export function parseEvictionThresholds(spec: string, allocatableConfig: readonly string[] = []): Threshold[] {
  const bySignal = new Map<string, string>();
  for (const item of spec.split(',')) {
    // LangleSeparatedMapStringString skips only empty items: " " is a malformed pair.
    if (item === '') continue;
    const lt = item.indexOf('<');
    if (lt < 0) throw new EvictionConfigError('malformed pair, expect string<string');
    bySignal.set(item.slice(0, lt).trim(), item.slice(lt + 1).trim());
  }
  const out: Threshold[] = [];
  for (const [signal, value] of bySignal) {
    const t = parseThresholdStatement(signal, value);
    if (t) out.push(t);
  }
  return allocatableConfig.includes(nodeAllocatableEnforcementKey) ? addAllocatableThresholds(out) : out;
}

/** The threshold in absolute units for a signal whose capacity is known. */
export function thresholdQuantity(t: Threshold, capacity: bigint): bigint {
  if (t.quantity) return t.quantity.value();
  const x = Number(capacity) * (t.percentage ?? 0);
  // A "NaN%" threshold parses upstream; Go's int64(NaN) on amd64 is MinInt64, so it is never met.
  if (Number.isNaN(x)) return -(1n << 63n);
  return BigInt(Math.trunc(x));
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

/**
 * GetThresholdQuantity: a literal threshold is the configured Quantity itself (so a message
 * prints it as configured, e.g. `120M`), a percentage becomes BinarySI bytes of capacity.
 */
export function thresholdAsQuantity(t: Threshold, capacity: bigint): Quantity {
  return t.quantity ?? Quantity.fromInt(thresholdQuantity(t, capacity), 'BinarySI');
}

export interface EvictionMessageOptions {
  /** The pod's working set, for the pod-level sentence. A pod without stats gets no pod or container sentences: pass none. */
  podUsageBytes?: bigint;
  /** With PodLevelResources on and pod-level resources set, a `Pod … was using` sentence comes first. */
  gates?: Pick<FeatureGates, 'PodLevelResources'>;
}

/**
 * The pod status message of a node-pressure eviction (helpers.go evictionMessage). Container
 * sentences follow the order of `containerUsage` (upstream: the stats' order), for regular and
 * init containers whose usage is strictly above their own request (a missing request prints 0).
 * The pod sentence has no such comparison upstream: it is printed whenever the pod-level
 * request for the resource is set.
 */
export function evictionMessage(
  pod: Pod,
  resource: string,
  threshold: { quantity: Quantity; available: bigint } | undefined,
  containerUsage: readonly ContainerUsage[],
  opts: EvictionMessageOptions = {},
): string {
  let msg = `The node was low on resource: ${resource}. `;
  if (threshold) {
    msg += `Threshold quantity: ${threshold.quantity.toString()}, available: ${Quantity.fromInt(threshold.available, 'BinarySI').toString()}. `;
  }
  if (resource === ResourceMemory && opts.gates?.PodLevelResources && isPodLevelResourcesSet(pod) && opts.podUsageBytes !== undefined) {
    const podReq = parseResourceList(pod.spec.resources?.requests).get(resource);
    if (podReq) {
      msg += `Pod ${pod.metadata.name ?? ''} was using ${Quantity.fromInt(opts.podUsageBytes, 'BinarySI').toString()}, request is ${podReq.toString()}, has larger consumption of ${resource}. `;
    }
  }
  for (const c of offendingContainers(pod, resource, containerUsage)) {
    msg += `Container ${c.name} was using ${c.usage}, request is ${c.request}, has larger consumption of ${resource}. `;
  }
  return msg;
}

/** The containers using more of `resource` than they request, in `containerUsage` order, as evictionMessage names them. */
function offendingContainers(pod: Pod, resource: string, containerUsage: readonly ContainerUsage[]): { name: string; usage: string; request: string }[] {
  const containers = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])];
  const out: { name: string; usage: string; request: string }[] = [];
  for (const u of containerUsage) {
    const c = containers.find((x) => x.name === u.name);
    if (!c) continue;
    const req = parseResourceList(c.resources?.requests).get(resource);
    if (u.usageBytes > (req?.value() ?? 0n)) out.push({ name: u.name, usage: Quantity.fromInt(u.usageBytes, 'BinarySI').toString(), request: req ? req.toString() : '0' });
  }
  return out;
}

/** The eviction event's annotation keys (eviction/types.go). */
export const offendingContainersKey = 'offending_containers';
export const offendingContainersUsageKey = 'offending_containers_usage';
export const starvedResourceKey = 'starved_resource';

/**
 * The annotations of the Evicted event (the second result of helpers.go evictionMessage): the
 * offending containers and their usage, comma-separated in the message's order, and the starved
 * resource. `containerUsage` undefined (the pod has no stats) gives none at all, as upstream
 * returns before setting any.
 */
export function evictionAnnotations(pod: Pod, resource: string, containerUsage: readonly ContainerUsage[] | undefined): Record<string, string> {
  if (containerUsage === undefined) return {};
  const offending = offendingContainers(pod, resource, containerUsage);
  return {
    [offendingContainersKey]: offending.map((c) => c.name).join(','),
    [offendingContainersUsageKey]: offending.map((c) => c.usage).join(','),
    [starvedResourceKey]: resource,
  };
}

// ---------------------------------------------------------------------------------------------
// One housekeeping pass (eviction_manager.go synchronize): which thresholds are met, which node
// conditions that gives, and how long a condition is still reported after its threshold cleared.

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

export const signalNodeCondition: Readonly<Record<EvictionSignal, PressureCondition>> = {
  'memory.available': 'MemoryPressure',
  'allocatableMemory.available': 'MemoryPressure',
  'nodefs.available': 'DiskPressure',
  'nodefs.inodesFree': 'DiskPressure',
  'imagefs.available': 'DiskPressure',
  'imagefs.inodesFree': 'DiskPressure',
  'containerfs.available': 'DiskPressure',
  'containerfs.inodesFree': 'DiskPressure',
  'pid.available': 'PIDPressure',
};

/** The resource a signal reclaims; `inodes` and `pids` are the kubelet's internal names. */
export const signalResource: Readonly<Record<EvictionSignal, string>> = {
  'memory.available': 'memory',
  'allocatableMemory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'containerfs.available': 'ephemeral-storage',
  'containerfs.inodesFree': 'inodes',
  'pid.available': 'pids',
};

export interface SignalObservation {
  /** Signed: a working set above capacity gives a negative value, as the kubelet's int64 does. */
  available: bigint;
  capacity: bigint;
}
export type SignalObservations = ReadonlyMap<EvictionSignal, SignalObservation>;

/** A memory signal from a memcg: available = capacity − working set, capacity as given. */
export function memoryObservation(capacity: bigint, workingSet: bigint): SignalObservation {
  return { available: capacity - workingSet, capacity };
}

/** The thresholds met by the observations; a threshold without an observation is skipped. */
export function thresholdsMet(thresholds: readonly Threshold[], observations: SignalObservations): Threshold[] {
  return thresholds.filter((t) => {
    const o = observations.get(t.signal);
    return o !== undefined && thresholdMet(t, o.available, o.capacity);
  });
}

/** The conditions the thresholds raise, each once, in threshold order. */
export function nodeConditionsOf(thresholds: readonly Threshold[]): PressureCondition[] {
  const out: PressureCondition[] = [];
  for (const t of thresholds) {
    const c = signalNodeCondition[t.signal];
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/**
 * The transition period: conditions seen now are stamped `now`, others keep their last time,
 * and a condition is reported while `now − lastSeen < periodMs`.
 */
export function conditionsWithinTransition(
  observedNow: readonly PressureCondition[],
  lastObservedAt: ReadonlyMap<PressureCondition, number>,
  now: number,
  periodMs: number,
): { lastObservedAt: Map<PressureCondition, number>; conditions: PressureCondition[] } {
  const next = new Map(lastObservedAt);
  for (const c of observedNow) next.set(c, now);
  const conditions = [...next].filter(([, at]) => now - at < periodMs).map(([c]) => c);
  return { lastObservedAt: next, conditions };
}

/** The threshold acted on: memory signals first (byEvictionPriority), otherwise the first met. */
export function thresholdToReclaim(met: readonly Threshold[]): { threshold: Threshold; resource: string } | undefined {
  const t = met.find((x) => x.signal === 'memory.available' || x.signal === 'allocatableMemory.available') ?? met[0];
  return t ? { threshold: t, resource: signalResource[t.signal] } : undefined;
}

/** Reason of an eviction and of a pod refused under node pressure. */
export const evictedReason = 'Evicted';

/** The admission refusal message; Go prints the condition slice as `[A B]`. */
export function nodeConditionMessage(conditions: readonly string[]): string {
  return `The node had condition: [${conditions.join(' ')}]. `;
}
