// The agent's cAdvisor: reads, every housekeeping interval (the kubelet's --housekeeping-interval,
// 10 s), the CPU and memory of the node's cgroup, every pod cgroup
// and every running container's cgroup through the CgroupManager (v1 or v2, it does not ask
// which), and keeps the last two readings of each, from which summary.ts derives the CPU rate as
// cAdvisor does. A cgroup not seen in a pass is forgotten (a new cgroup under the same path
// starts its rate afresh). Readings are taken in one pass so the Summary is consistent.
//
// Which cgroup is the node: the kubelet reads the root cgroup, the whole machine. A Bulkhead node
// is its node cgroup (kubepods), which holds every pod and enforces the declared --node-memory
// and --node-cpu, and whose working set the eviction manager already compares with the node's
// memory (memory.available): the Summary's node is that cgroup too, so `kubectl top node` and
// eviction see one figure, and several agents on one host (tests) do not report each other's
// load. Without a node cgroup (kubepods undefined) the root cgroup is the node, as upstream.

import { readdirSync, readFileSync } from 'node:fs';
import type { Pod } from '../../api/types.js';
import { containerCgroupAttempt } from '../../policy/cgrouplayout.js';
import type { CgroupManager } from '../cgroups/manager.js';
import { buildSummary, type CgroupReadings, type CgroupSample, type ContainerInput, type PodInput, type Summary } from './summary.js';

export const defaultHousekeepingMs = 10_000;

export interface StatsSamplerOptions {
  cgroups: CgroupManager;
  nodeName: string;
  nodeMemoryBytes: bigint;
  /** The kubepods cgroup path (the `pods` system container); undefined: not reported. */
  kubepods?: string;
  /** The pods to report, with their pod cgroup paths. */
  pods(): { pod: Pod; cgroupPath: string }[];
  intervalMs?: number;
  now?: () => number;
  /** Lists a cgroup directory (tests); default fs.readdirSync. */
  list?: (dir: string) => string[];
  /** The host's boot time (ms), the node's and the root cgroup's start. Default: /proc/stat btime. */
  bootTime?: number;
  log?: (msg: string) => void;
}

function hostBootTime(): number {
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (m) return Number(m[1]) * 1000;
  } catch {
    // not Linux: fall through
  }
  return Date.now() - process.uptime() * 1000;
}

/** The newest attempt's cgroup leaf of `container` among a pod cgroup's children. */
export function newestContainerLeaf(children: string[], podUID: string, container: string): string | undefined {
  let best: { leaf: string; attempt: number } | undefined;
  for (const leaf of children) {
    const a = containerCgroupAttempt(leaf, podUID, container);
    if (a !== undefined && (!best || a > best.attempt)) best = { leaf, attempt: a };
  }
  return best?.leaf;
}

export class StatsSampler {
  private readings = new Map<string, CgroupReadings>();
  private timer?: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly list: (dir: string) => string[];
  private readonly bootTime: number;
  /** The containers of each pod found by the last pass: name, cgroup path. */
  private containers = new Map<string, { name: string; path: string }[]>();
  private sampled = false;

  constructor(private readonly o: StatsSamplerOptions) {
    this.now = o.now ?? Date.now;
    this.list = o.list ?? ((d) => readdirSync(d));
    this.bootTime = o.bootTime ?? hostBootTime();
  }

  start(): void {
    this.sampleSafely();
    this.timer = setInterval(() => this.sampleSafely(), this.o.intervalMs ?? defaultHousekeepingMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private sampleSafely(): void {
    try {
      this.sample();
    } catch (e) {
      this.o.log?.(`stats: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private read(path: string, time: number, next: Map<string, CgroupReadings>, withLimit: boolean): void {
    const cg = this.o.cgroups;
    const memory = cg.memory(path, withLimit);
    const cpu = cg.cpu(path);
    if (!memory && !cpu) return;
    const sample: CgroupSample = { time };
    if (memory) sample.memory = memory;
    if (cpu) sample.cpuNs = cpu.usageNanoseconds;
    const before = this.readings.get(path);
    next.set(path, before && before.last.time < time ? { last: sample, prev: before.last } : { last: sample });
  }

  /** One housekeeping pass: every cgroup read once, at one time. */
  sample(): void {
    const time = this.now();
    const next = new Map<string, CgroupReadings>();
    const containers = new Map<string, { name: string; path: string }[]>();
    this.read(this.nodePath, time, next, false);
    for (const { pod, cgroupPath } of this.o.pods()) {
      const uid = pod.metadata.uid ?? '';
      this.read(cgroupPath, time, next, true);
      let children: string[];
      try {
        children = this.list(this.o.cgroups.memoryDir(cgroupPath));
      } catch {
        continue;
      }
      const found: { name: string; path: string }[] = [];
      for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
        const leaf = newestContainerLeaf(children, uid, c.name);
        if (!leaf) continue;
        const path = `${cgroupPath}/${leaf}`;
        this.read(path, time, next, true);
        if (next.has(path)) found.push({ name: c.name, path });
      }
      containers.set(uid, found);
    }
    this.readings = next;
    this.containers = containers;
    this.sampled = true;
  }

  /** The node's cgroup: kubepods, or the root without one. */
  get nodePath(): string {
    return this.o.kubepods ?? '/';
  }

  /** The containers the last pass found, with their cgroup paths. */
  containerPaths(): { namespace: string; pod: string; container: string; path: string }[] {
    const out: { namespace: string; pod: string; container: string; path: string }[] = [];
    for (const { pod } of this.o.pods()) {
      for (const c of this.containers.get(pod.metadata.uid ?? '') ?? []) out.push({ namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name ?? '', container: c.name, path: c.path });
    }
    return out;
  }

  /** The readings of a cgroup path from the last pass (tests, the agent's own metrics). */
  readingsOf(path: string): CgroupReadings | undefined {
    return this.readings.get(path);
  }

  /** The Summary of the last pass (a pass is made first if none has been). */
  summary(): Summary {
    if (!this.sampled) this.sample();
    const podInputs: PodInput[] = [];
    for (const { pod, cgroupPath } of this.o.pods()) {
      const uid = pod.metadata.uid ?? '';
      const found = this.containers.get(uid);
      const readings = this.readings.get(cgroupPath);
      if (!found && !readings) continue;
      const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
      const podStart = pod.status?.startTime ? Date.parse(pod.status.startTime) : (pod.metadata.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : 0);
      const containers: ContainerInput[] = (found ?? []).map(({ name, path }) => {
        const started = statuses.find((s) => s.name === name)?.state?.running?.startedAt;
        const r = this.readings.get(path);
        return { name, startTime: started ? Date.parse(started) : podStart, ...(r ? { readings: r } : {}) };
      });
      podInputs.push({ ref: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid }, startTime: podStart, containers, ...(readings ? { readings } : {}) });
    }
    const node = this.readings.get(this.nodePath);
    const kubepods = this.o.kubepods !== undefined ? node : undefined;
    return buildSummary({
      nodeName: this.o.nodeName,
      nodeStartTime: this.bootTime,
      nodeMemoryBytes: this.o.nodeMemoryBytes,
      ...(node ? { node } : {}),
      ...(kubepods ? { pods: kubepods } : {}),
      podInputs,
    });
  }
}
