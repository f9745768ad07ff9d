// The horizontal pod autoscaler's replica calculator for resource metrics
// (pkg/controller/podautoscaler/replica_calculator.go GetResourceReplicas, GetRawResourceReplicas,
// groupPods, calculatePodRequests; metrics/utilization.go; the resource metrics client's
// getPodMetrics and getContainerMetrics), as at 1.32. Pure: the pods, their metrics and the clock
// are given. Quantities are milli-units (millicores, milli-bytes), as upstream's MilliValue().
// Errors carry upstream's words; the controller wraps them as horizontal.go does.

import type { Pod } from '../api/types.js';
import { quantity } from '../api/resourcelist.js';

/** --horizontal-pod-autoscaler-tolerance. */
export const defaultTolerance = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period. */
export const defaultCPUInitializationPeriodMs = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay. */
export const defaultDelayOfInitialReadinessStatusMs = 30_000;

export interface CalculatorOptions {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  delayOfInitialReadinessStatusMs: number;
}

export const defaultCalculatorOptions: CalculatorOptions = {
  tolerance: defaultTolerance,
  cpuInitializationPeriodMs: defaultCPUInitializationPeriodMs,
  delayOfInitialReadinessStatusMs: defaultDelayOfInitialReadinessStatusMs,
};

/** One pod's reading as metrics.k8s.io serves it (the server's metrics storage's PodMetricsValue). */
export interface PodMetricsReading {
  namespace: string;
  name: string;
  containers: { name: string; usage: { cpu?: string; memory?: string } }[];
  time: { timestamp: number; windowMs: number };
}

/** metricsclient.PodMetric: one pod's value (milli-units) and when it was read. */
export interface PodMetric {
  timestampMs: number;
  windowMs: number;
  value: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export class CalculationError extends Error {}

const milli = (q: string | undefined): number | undefined => {
  if (q === undefined) return undefined;
  try {
    return quantity(q).milliValueNumber();
  } catch {
    return undefined;
  }
};

/**
 * GetResourceMetric: the pods' values of `resource` (a container's alone when `container` is
 * set). No reading at all is upstream's "no metrics returned from resource metrics API".
 */
export function resourceMetricsOf(readings: readonly PodMetricsReading[], resource: string, container = ''): { metrics: PodMetricsInfo; timestampMs: number } {
  if (readings.length === 0) throw new CalculationError('no metrics returned from resource metrics API');
  const metrics: PodMetricsInfo = new Map();
  for (const m of readings) {
    if (container !== '') {
      const c = m.containers.find((x) => x.name === container);
      if (!c) throw new CalculationError(`failed to get container metrics: container ${container} not present in metrics for pod ${m.namespace}/${m.name}`);
      const v = milli((c.usage as Record<string, string | undefined>)[resource]);
      if (v !== undefined) metrics.set(m.name, { timestampMs: m.time.timestamp, windowMs: m.time.windowMs, value: v });
      continue;
    }
    // getPodMetrics: a pod with a container missing the resource, or with no container, has no value.
    let sum = 0;
    let missing = m.containers.length === 0;
    for (const c of m.containers) {
      const v = milli((c.usage as Record<string, string | undefined>)[resource]);
      if (v === undefined) {
        missing = true;
        break;
      }
      sum += v;
    }
    if (!missing) metrics.set(m.name, { timestampMs: m.time.timestamp, windowMs: m.time.windowMs, value: sum });
  }
  return { metrics, timestampMs: readings[0]!.time.timestamp };
}

export interface PodGroups {
  readyPodCount: number;
  unreadyPods: Set<string>;
  missingPods: Set<string>;
  ignoredPods: Set<string>;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);

/**
 * groupPods: deleted and failed pods are ignored; pending ones are unready; a pod without a
 * reading is missing; for CPU, a pod is unready when it has no Ready condition or start time,
 * when within the CPU initialization period it is not Ready or its reading's window began
 * before its last readiness change, and after that period when it is not Ready and never was
 * (its readiness last changed within the initial readiness delay of its start).
 */
export function groupPods(pods: readonly Pod[], metrics: PodMetricsInfo, resource: string, nowMs: number, opts: CalculatorOptions = defaultCalculatorOptions): PodGroups {
  const g: PodGroups = { readyPodCount: 0, unreadyPods: new Set(), missingPods: new Set(), ignoredPods: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      g.ignoredPods.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      g.unreadyPods.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      g.missingPods.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const start = ms(pod.status?.startTime);
      let unready: boolean;
      if (!ready || Number.isNaN(start)) unready = true;
      else {
        const transition = ms(ready.lastTransitionTime);
        if (start + opts.cpuInitializationPeriodMs > nowMs) unready = ready.status === 'False' || metric.timestampMs < transition + metric.windowMs;
        else unready = ready.status === 'False' && start + opts.delayOfInitialReadinessStatusMs > transition;
      }
      if (unready) {
        g.unreadyPods.add(name);
        continue;
      }
    }
    g.readyPodCount++;
  }
  return g;
}

/** calculatePodRequests: the sum of each pod's containers' (and sidecars') requests, milli-units. */
export function podRequests(pods: readonly Pod[], resource: string, container = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let sum = 0;
    for (const c of containers) {
      if (container !== '' && container !== c.name) continue;
      const v = milli(c.resources?.requests?.[resource]);
      if (v === undefined) throw new CalculationError(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name ?? ''}`);
      sum += v;
    }
    out.set(pod.metadata.name ?? '', sum);
  }
  return out;
}

/** GetResourceUtilizationRatio: usage over requests of the pods that have both, in whole percent. */
export function resourceUtilizationRatio(metrics: PodMetricsInfo, requests: Map<string, number>, targetUtilization: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [pod, m] of metrics) {
    const r = requests.get(pod);
    if (r === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += r;
    entries++;
  }
  if (requestsTotal === 0) throw new CalculationError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** GetMetricUsageRatio: the average over the pods against the target average. */
export function metricUsageRatio(metrics: PodMetricsInfo, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

export interface ResourceReplicas {
  replicas: number;
  /** Percent of the request (Utilization targets only). */
  utilization?: number;
  /** The average value, milli-units. */
  rawAverage: number;
  timestampMs: number;
}

function selectedPods(pods: readonly Pod[]): readonly Pod[] {
  if (pods.length === 0) throw new CalculationError('no pods returned by selector while calculating replica count');
  return pods;
}

/** The shared end of both calculations: missing and unready pods counted against the direction, then the tolerance. */
function withMissingAndUnready(
  current: number,
  g: PodGroups,
  metrics: PodMetricsInfo,
  ratio: number,
  tolerance: number,
  missingValue: (pod: string) => number,
  recompute: () => number,
): number {
  const scaleUpWithUnready = g.unreadyPods.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && g.missingPods.size === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) return current;
    return Math.ceil(ratio * g.readyPodCount);
  }
  if (g.missingPods.size > 0) {
    // On a scale-down missing pods count as using their share; on a scale-up as using nothing.
    if (ratio < 1.0) for (const p of g.missingPods) metrics.set(p, { timestampMs: 0, windowMs: 0, value: missingValue(p) });
    else if (ratio > 1.0) for (const p of g.missingPods) metrics.set(p, { timestampMs: 0, windowMs: 0, value: 0 });
  }
  // On a scale-up, unready pods count as using nothing.
  if (scaleUpWithUnready) for (const p of g.unreadyPods) metrics.set(p, { timestampMs: 0, windowMs: 0, value: 0 });
  const newRatio = recompute();
  // The change is too small, or the assumptions turned the direction round.
  if (Math.abs(1.0 - newRatio) <= tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0)) return current;
  const replicas = Math.ceil(newRatio * metrics.size);
  // The pods now counted would turn the direction round.
  if ((newRatio < 1.0 && replicas > current) || (newRatio > 1.0 && replicas < current)) return current;
  return replicas;
}

/**
 * The start both resource calculations share: the pods' readings of `resource`, the pods they
 * select grouped, and the readings of ignored and unready pods dropped; none left is an error.
 */
function readyPodMetrics(readings: readonly PodMetricsReading[], resource: string, container: string, pods: readonly Pod[], nowMs: number, opts: CalculatorOptions): { metrics: PodMetricsInfo; timestampMs: number; list: readonly Pod[]; g: PodGroups } {
  let fetched;
  try {
    fetched = resourceMetricsOf(readings, resource, container);
  } catch (e) {
    throw new CalculationError(`unable to get metrics for resource ${resource}: ${(e as Error).message}`);
  }
  const { metrics, timestampMs } = fetched;
  const list = selectedPods(pods);
  const g = groupPods(list, metrics, resource, nowMs, opts);
  for (const p of [...g.ignoredPods, ...g.unreadyPods]) metrics.delete(p);
  if (metrics.size === 0) throw new CalculationError('did not receive metrics for targeted pods (pods might be unready)');
  return { metrics, timestampMs, list, g };
}

/** GetResourceReplicas: a Utilization target (percent of request). */
export function resourceReplicas(
  current: number,
  targetUtilization: number,
  resource: string,
  pods: readonly Pod[],
  readings: readonly PodMetricsReading[],
  nowMs: number,
  opts: CalculatorOptions = defaultCalculatorOptions,
  container = '',
): ResourceReplicas {
  const { metrics, timestampMs, list, g } = readyPodMetrics(readings, resource, container, pods, nowMs, opts);
  const requests = podRequests(list, resource, container);
  const first = resourceUtilizationRatio(metrics, requests, targetUtilization);
  // On a scale-down a missing pod uses all its request (or the target, when above 100%).
  const fallback = Math.max(100, targetUtilization);
  const replicas = withMissingAndUnready(current, g, metrics, first.ratio, opts.tolerance, (p) => Math.trunc(((requests.get(p) ?? 0) * fallback) / 100), () => resourceUtilizationRatio(metrics, requests, targetUtilization).ratio);
  return { replicas, utilization: first.utilization, rawAverage: first.rawAverage, timestampMs };
}

/** GetRawResourceReplicas (calcPlainMetricReplicas): an AverageValue target, milli-units. */
export function rawResourceReplicas(
  current: number,
  targetAverage: number,
  resource: string,
  pods: readonly Pod[],
  readings: readonly PodMetricsReading[],
  nowMs: number,
  opts: CalculatorOptions = defaultCalculatorOptions,
  container = '',
): ResourceReplicas {
  const { metrics, timestampMs, g } = readyPodMetrics(readings, resource, container, pods, nowMs, opts);
  const first = metricUsageRatio(metrics, targetAverage);
  // On a scale-down a missing pod uses exactly the target.
  const replicas = withMissingAndUnready(current, g, metrics, first.ratio, opts.tolerance, () => targetAverage, () => metricUsageRatio(metrics, targetAverage).ratio);
  return { replicas, rawAverage: first.usage, timestampMs };
}
