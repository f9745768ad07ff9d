// The node agent's Prometheus metrics: the OOM kill mode design's four, plus the group-kill
// emulation latency Bulkhead measures on cgroup v1. One registry per agent, so several agents
// in one process (tests) do not share counters.

import { Counter, Histogram, Registry } from 'prom-client';

export type OOMMode = 'Single' | 'Group';

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
    this.groupKill.observe(seconds);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
