// metrics-server's storage (pkg/storage: node.go, pod.go, types.go): the last two points of every
// node and container, and the NodeMetrics and PodMetrics computed from them. Usage is the CPU
// rate between the two points (Δ nanocore-seconds / Δ seconds, a nanocore quantity) and the last
// working set (a binary-SI byte quantity); window = the time between them; timestamp = the last
// one's (a pod's: its earliest container's). A node or pod with one point has no metrics yet; a
// container that just started (its start time within one resolution, at least 10 s before the
// point) gets a synthetic previous point at its start with zero CPU, as upstream. Pure.

import { Quantity } from '../api/quantity.js';
import type { MetricsBatch, MetricsPoint } from './resourcemetricsdecode.js';

/** freshContainerMinMetricsResolution. */
export const freshContainerMinMs = 10_000;

export interface Usage {
  cpu: string;
  memory: string;
}

export interface TimeInfo {
  timestamp: number;
  windowMs: number;
}

/** uint64Quantity(cpu, DecimalSI, -9) and uint64Quantity(memory, BinarySI, 0), as strings. */
export function usageQuantities(nanoCores: bigint, memoryBytes: bigint): Usage {
  return { cpu: Quantity.fromScaled(nanoCores, -9, 'DecimalSI').toString(), memory: Quantity.fromInt(memoryBytes, 'BinarySI').toString() };
}

/** resourceUsage: the usage between two points, or an error naming why there is none. */
export function resourceUsage(last: MetricsPoint, prev: MetricsPoint): { usage: Usage; time: TimeInfo } | { error: string } {
  if (last.startTime < prev.startTime) return { error: 'unexpected decrease in startTime of node/container' };
  if (last.cumulativeCPUUsed < prev.cumulativeCPUUsed) return { error: 'unexpected decrease in cumulative CPU usage value' };
  const windowMs = last.timestamp - prev.timestamp;
  // float64(Δ) / window.Seconds(), truncated to uint64.
  const rate = Number(last.cumulativeCPUUsed - prev.cumulativeCPUUsed) / (windowMs / 1000);
  const nanoCores = Number.isFinite(rate) && rate > 0 ? BigInt(Math.floor(rate)) : 0n;
  return { usage: usageQuantities(nanoCores, last.memoryUsage), time: { timestamp: last.timestamp, windowMs } };
}

export interface NodeMetricsValue {
  name: string;
  usage: Usage;
  time: TimeInfo;
}

export interface PodMetricsValue {
  namespace: string;
  name: string;
  containers: { name: string; usage: Usage }[];
  time: TimeInfo;
}

export class MetricsStorage {
  private lastNodes = new Map<string, MetricsPoint>();
  private prevNodes = new Map<string, MetricsPoint>();
  private lastPods = new Map<string, Map<string, MetricsPoint>>();
  private prevPods = new Map<string, Map<string, MetricsPoint>>();

  /** `resolutionMs`: the scrape period (--metric-resolution, 15 s by default). */
  constructor(private readonly resolutionMs: number) {}

  /** nodeStorage.Store and podStorage.Store of one scrape of every node. */
  store(batch: MetricsBatch): void {
    const lastNodes = new Map<string, MetricsPoint>();
    const prevNodes = new Map<string, MetricsPoint>();
    for (const [name, point] of batch.nodes) {
      lastNodes.set(name, point);
      const last = this.lastNodes.get(name);
      if (!last) continue;
      if (point.timestamp > last.timestamp) prevNodes.set(name, last);
      else {
        const prev = this.prevNodes.get(name);
        if (prev && prev.timestamp < point.timestamp) prevNodes.set(name, prev);
      }
    }
    this.lastNodes = lastNodes;
    this.prevNodes = prevNodes;

    const lastPods = new Map<string, Map<string, MetricsPoint>>();
    const prevPods = new Map<string, Map<string, MetricsPoint>>();
    for (const [key, containers] of batch.pods) {
      const newLast = new Map<string, MetricsPoint>();
      const newPrev = new Map<string, MetricsPoint>();
      for (const [name, point] of containers) {
        newLast.set(name, point);
        const age = point.timestamp - point.startTime;
        if (point.startTime < point.timestamp && age < this.resolutionMs && age >= freshContainerMinMs) {
          newPrev.set(name, { ...point, timestamp: point.startTime, cumulativeCPUUsed: 0n });
          continue;
        }
        const lastContainer = this.lastPods.get(key)?.get(name);
        // Not restarted since the stored point (its start is before that point's time).
        if (!lastContainer || !(point.startTime < lastContainer.timestamp)) continue;
        if (point.timestamp > lastContainer.timestamp) newPrev.set(name, lastContainer);
        else {
          const prevContainer = this.prevPods.get(key)?.get(name);
          if (prevContainer && prevContainer.timestamp < point.timestamp) newPrev.set(name, prevContainer);
        }
      }
      if (newPrev.size > 0) prevPods.set(key, newPrev);
      lastPods.set(key, newLast);
    }
    this.lastPods = lastPods;
    this.prevPods = prevPods;
  }

  /** nodeStorage.GetMetrics: the nodes (of those asked for) that have two points. */
  nodeMetrics(names: string[]): NodeMetricsValue[] {
    const out: NodeMetricsValue[] = [];
    for (const name of names) {
      const last = this.lastNodes.get(name);
      const prev = this.prevNodes.get(name);
      if (!last || !prev) continue;
      const r = resourceUsage(last, prev);
      if ('error' in r) continue;
      out.push({ name, usage: r.usage, time: r.time });
    }
    return out;
  }

  /** podStorage.GetMetrics: the pods (of those asked for) every container of which has two points. */
  podMetrics(pods: { namespace: string; name: string }[]): PodMetricsValue[] {
    const out: PodMetricsValue[] = [];
    for (const pod of pods) {
      const key = `${pod.namespace}/${pod.name}`;
      const last = this.lastPods.get(key);
      const prev = this.prevPods.get(key);
      if (!last || !prev) continue;
      const containers: { name: string; usage: Usage }[] = [];
      let earliest: TimeInfo | undefined;
      let allPresent = true;
      for (const [name, lastContainer] of last) {
        const prevContainer = prev.get(name);
        if (!prevContainer) {
          allPresent = false;
          break;
        }
        const r = resourceUsage(lastContainer, prevContainer);
        if ('error' in r) continue;
        containers.push({ name, usage: r.usage });
        if (!earliest || earliest.timestamp > r.time.timestamp) earliest = r.time;
      }
      if (allPresent) out.push({ namespace: pod.namespace, name: pod.name, containers, time: earliest ?? { timestamp: 0, windowMs: 0 } });
    }
    return out;
  }
}
