// The node agent's Prometheus metrics: the OOM kill mode design's four, plus the group-kill
// emulation latency Bulkhead measures on cgroup v1. One registry per agent, so several agents
// in one process (tests) do not share counters.
//
// Per container (read from the cgroups at scrape time, from the stats sampler's last pass and
// the kernel's counters): the memory working set, and the OOM kills the kernel counted by the
// container's OOM kill mode. What survives an agent restart:
//   - container_oom_kills_total and (v2) container_oom_group_kills_total: yes, for as long as
//     the container's cgroup exists; they are the kernel's own counts (v1 memory.oom_control
//     oom_kill, kernel ≥ 4.13; v2 memory.events.local oom_kill / oom_group_kill). A container
//     restarted in a new cgroup (a new attempt) starts again from 0, as cAdvisor's do.
//   - container_memory_working_set_bytes: a gauge, read afresh.
//   - container_oom_events_by_mode, container_oom_group_kills_emulated_total, kubelet_evictions
//     and the rest: no. They count what this agent process saw (emulated group kills and
//     evictions are the agent's own acts; the kernel keeps no record of them), and start from 0
//     when the agent restarts, as the kubelet's do.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type OOMMode = 'Single' | 'Group';

/** A container as the per-container series label it, with what the scrape reads of it. */
export interface ContainerSeries {
  namespace: string;
  pod: string;
  container: string;
  /** Working set from the last stats pass; undefined: not reported. */
  workingSetBytes?: number;
  /** The kernel's counts for the container's cgroup, with its effective mode; undefined: unknown owner. */
  oom?: { mode: OOMMode; emulated: boolean; oomKill: number; oomGroupKill: number; v2: boolean };
}

export class AgentMetrics {
  readonly registry = new Registry();
  private readonly modeTotal = new Counter({
    name: 'container_oom_kill_mode_total',
    help: 'Number of containers created, by effective OOM kill mode.',
    labelNames: ['mode'],
    registers: [this.registry],
  });
  private readonly eventsByMode = new Counter({
    name: 'container_oom_events_by_mode',
    help: 'OOM kill events in containers, by the effective OOM kill mode of the container.',
    labelNames: ['mode'],
    registers: [this.registry],
  });
  private readonly configErrors = new Counter({
    name: 'container_oom_config_errors_total',
    help: 'Containers whose creation was refused over their OOM kill mode (e.g. Group on a cgroup v1 node).',
    registers: [this.registry],
  });
  private readonly configDuration = new Histogram({
    name: 'container_oom_config_duration_seconds',
    help: 'Time from planning a container to its creation with the OOM kill mode applied.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly groupKill = new Histogram({
    name: 'bulkhead_oom_group_kill_emulation_seconds',
    help: 'cgroup v1 Group emulation: time from reading the kernel OOM kill to an empty container cgroup.',
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  private readonly groupKillsEmulated = new Counter({
    name: 'container_oom_group_kills_emulated_total',
    help: 'cgroup v1 Group emulation: containers whose remaining tasks the agent killed after a kernel OOM kill.',
    registers: [this.registry],
  });
  private readonly evictions = new Counter({
    name: 'kubelet_evictions',
    help: '[ALPHA] Cumulative number of pod evictions by eviction signal',
    labelNames: ['eviction_signal'],
    registers: [this.registry],
  });
  private containerSource: () => ContainerSeries[] = () => [];
  private readonly workingSet = new Gauge({
    name: 'container_memory_working_set_bytes',
    help: 'Current working set of the container in bytes (usage minus inactive file), from the last stats pass.',
    labelNames: ['container', 'pod', 'namespace'],
    registers: [this.registry],
    collect: () => {
      this.workingSet.reset();
      for (const c of this.containerSource()) {
        if (c.workingSetBytes !== undefined) this.workingSet.set({ container: c.container, pod: c.pod, namespace: c.namespace }, c.workingSetBytes);
      }
    },
  });
  private readonly kernelOOMKills = new Counter({
    name: 'container_oom_kills_total',
    help: "OOM kills the kernel counted in the container's cgroup (v1 memory.oom_control oom_kill, v2 memory.events.local oom_kill), by the container's effective OOM kill mode; kept across agent restarts while the cgroup exists.",
    labelNames: ['container', 'pod', 'namespace', 'mode', 'emulated'],
    registers: [this.registry],
    collect: () => {
      this.kernelOOMKills.reset();
      this.kernelGroupKills.reset();
      for (const c of this.containerSource()) {
        if (!c.oom) continue;
        const labels = { container: c.container, pod: c.pod, namespace: c.namespace, mode: c.oom.mode };
        this.kernelOOMKills.inc({ ...labels, emulated: String(c.oom.emulated) }, c.oom.oomKill);
        if (c.oom.v2) this.kernelGroupKills.inc(labels, c.oom.oomGroupKill);
      }
    },
  });
  private readonly kernelGroupKills = new Counter({
    name: 'container_oom_group_kills_total',
    help: "cgroup v2: whole-container kills under memory.oom.group the kernel counted in the container's cgroup (memory.events.local oom_group_kill).",
    labelNames: ['container', 'pod', 'namespace', 'mode'],
    registers: [this.registry],
  });

  /** Where the per-container series come from (the agent's stats); read at every scrape. */
  setContainerSource(source: () => ContainerSeries[]): void {
    this.containerSource = source;
  }

  /** The eviction manager evicted a pod for this signal. */
  evicted(signal: string): void {
    this.evictions.inc({ eviction_signal: signal });
  }

  /** The PodWorker's OOMConfigMetrics. */
  readonly oomConfig = {
    configured: (mode: OOMMode, seconds: number) => {
      this.modeTotal.inc({ mode });
      this.configDuration.observe(seconds);
    },
    configError: () => this.configErrors.inc(),
  };

  oomEvent(mode: OOMMode): void {
    this.eventsByMode.inc({ mode });
  }

  groupKillEmulated(seconds: number): void {
    this.groupKillsEmulated.inc();
    this.groupKill.observe(seconds);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
