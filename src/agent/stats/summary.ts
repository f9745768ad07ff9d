// The kubelet's stats Summary (k8s.io/kubelet/pkg/apis/stats/v1alpha1, served at /stats/summary)
// built from cgroup readings, as pkg/kubelet/stats builds it from cAdvisor's: the node from the
// node's cgroup (sampler.ts says which), with the `pods` system container (kubepods), each pod from its pod
// cgroup, each container from its newest attempt's cgroup. CPU: usageCoreNanoSeconds is the
// cumulative counter, usageNanoCores the rate between the last two readings (cAdvisor's
// InstCpuStats; absent with one reading, or when the counter went backwards). Memory: usage,
// working set (usage − inactive file, memcg.ts), RSS, page faults, and availableBytes when there
// is a limit (limit − working set; the node's limit is its memory capacity). Pure: the readings
// come from sampler.ts. Times are kept in milliseconds; summaryJSON renders them as metav1.Time
// does (RFC 3339, seconds).

import type { CgroupMemory } from '../cgroups/manager.js';
import { metaTime } from '../../api/metatime.js';

/** One reading of one cgroup. */
export interface CgroupSample {
  /** When it was read (ms since the epoch). */
  time: number;
  /** Cumulative CPU time (ns); undefined when the cgroup has no CPU accounting here. */
  cpuNs?: bigint;
  memory?: CgroupMemory;
}

/** The last two readings of a cgroup (prev is older); prev is absent after the first. */
export interface CgroupReadings {
  last: CgroupSample;
  prev?: CgroupSample;
}

export interface CPUStats {
  time: number;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time: number;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface ContainerStats {
  name: string;
  startTime: number;
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface PodReference {
  name: string;
  namespace: string;
  uid: string;
}

export interface PodStats {
  podRef: PodReference;
  startTime: number;
  containers: ContainerStats[];
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface NodeStats {
  nodeName: string;
  systemContainers?: ContainerStats[];
  startTime: number;
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface Summary {
  node: NodeStats;
  pods: PodStats[];
}

/**
 * cAdvisor's rate of a cumulative CPU counter between two readings, in nanocores:
 * Δusage(ns) × 10⁹ / Δtime(ns). Undefined when the readings are not in time order or the
 * counter decreased (a new cgroup under the same name): cAdvisor reports no rate then.
 */
export function usageNanoCores(prev: CgroupSample | undefined, last: CgroupSample): number | undefined {
  if (!prev || prev.cpuNs === undefined || last.cpuNs === undefined) return undefined;
  if (last.time <= prev.time || last.cpuNs < prev.cpuNs) return undefined;
  const elapsedNs = BigInt(Math.round((last.time - prev.time) * 1e6));
  return Number(((last.cpuNs - prev.cpuNs) * 1_000_000_000n) / elapsedNs);
}

export function cpuStats(r: CgroupReadings): CPUStats | undefined {
  if (r.last.cpuNs === undefined) return undefined;
  const out: CPUStats = { time: r.last.time, usageCoreNanoSeconds: Number(r.last.cpuNs) };
  const rate = usageNanoCores(r.prev, r.last);
  if (rate !== undefined) out.usageNanoCores = rate;
  return out;
}

/** The kubelet's MemoryStats of a cgroup; `limit` overrides the cgroup's own (the node's capacity). */
export function memoryStats(r: CgroupReadings, limit?: bigint): MemoryStats | undefined {
  const m = r.last.memory;
  if (!m) return undefined;
  const out: MemoryStats = { time: r.last.time, usageBytes: Number(m.usageBytes), workingSetBytes: Number(m.workingSetBytes) };
  const lim = limit ?? m.limitBytes;
  if (lim !== undefined) out.availableBytes = Number(lim > m.workingSetBytes ? lim - m.workingSetBytes : 0n);
  if (m.rssBytes !== undefined) out.rssBytes = Number(m.rssBytes);
  if (m.pageFaults !== undefined) out.pageFaults = Number(m.pageFaults);
  if (m.majorPageFaults !== undefined) out.majorPageFaults = Number(m.majorPageFaults);
  return out;
}

export interface ContainerInput {
  name: string;
  startTime: number;
  readings?: CgroupReadings;
}

export interface PodInput {
  ref: PodReference;
  startTime: number;
  readings?: CgroupReadings;
  containers: ContainerInput[];
}

export interface SummaryInput {
  nodeName: string;
  nodeStartTime: number;
  /** The node's memory capacity: its availableBytes is capacity − working set. */
  nodeMemoryBytes?: bigint;
  node?: CgroupReadings;
  /** The kubepods cgroup, reported as the `pods` system container. */
  pods?: CgroupReadings;
  podInputs: PodInput[];
}

function containerStats(c: ContainerInput): ContainerStats {
  const out: ContainerStats = { name: c.name, startTime: c.startTime };
  if (c.readings) {
    const cpu = cpuStats(c.readings);
    const memory = memoryStats(c.readings);
    if (cpu) out.cpu = cpu;
    if (memory) out.memory = memory;
  }
  return out;
}

/** The Summary of the node and its pods; a container without a cgroup (not running) is left out, as cAdvisor has none. */
export function buildSummary(input: SummaryInput): Summary {
  const node: NodeStats = { nodeName: input.nodeName, startTime: input.nodeStartTime };
  if (input.pods) node.systemContainers = [containerStats({ name: 'pods', startTime: input.nodeStartTime, readings: input.pods })];
  if (input.node) {
    const cpu = cpuStats(input.node);
    const memory = memoryStats(input.node, input.nodeMemoryBytes);
    if (cpu) node.cpu = cpu;
    if (memory) node.memory = memory;
  }
  const pods: PodStats[] = input.podInputs.map((p) => {
    const out: PodStats = { podRef: p.ref, startTime: p.startTime, containers: p.containers.filter((c) => c.readings).map(containerStats) };
    if (p.readings) {
      const cpu = cpuStats(p.readings);
      const memory = memoryStats(p.readings);
      if (cpu) out.cpu = cpu;
      if (memory) out.memory = memory;
    }
    return out;
  });
  return { node, pods };
}

function withTime<T extends { time: number }>(s: T | undefined): (Omit<T, 'time'> & { time: string }) | undefined {
  return s ? { ...s, time: metaTime(s.time) } : undefined;
}

function containerJSON(c: ContainerStats): unknown {
  return { name: c.name, startTime: metaTime(c.startTime), cpu: withTime(c.cpu), memory: withTime(c.memory) };
}

/** The Summary as the kubelet's /stats/summary answers it (field order of the Go structs). */
export function summaryJSON(s: Summary): unknown {
  return {
    node: {
      nodeName: s.node.nodeName,
      systemContainers: s.node.systemContainers?.map(containerJSON),
      startTime: metaTime(s.node.startTime),
      cpu: withTime(s.node.cpu),
      memory: withTime(s.node.memory),
    },
    pods: s.pods.map((p) => ({
      podRef: p.podRef,
      startTime: metaTime(p.startTime),
      containers: p.containers.map(containerJSON),
      cpu: withTime(p.cpu),
      memory: withTime(p.memory),
    })),
  };
}
