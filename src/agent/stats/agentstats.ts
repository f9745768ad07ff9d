// The agent's stats, composed: the sampler over the host's CgroupManager and the pods the agent
// runs, what the endpoint serves from it (/stats/summary, /metrics/resource), and the
// per-container series of the agent's own /metrics. Started by the agent when it has a
// CgroupManager and a runtime that names pod cgroups (the pod worker); otherwise no stats.

import type { Pod } from '../../api/types.js';
import type { CgroupManager } from '../cgroups/manager.js';
import type { AgentMetrics, ContainerSeries } from '../metrics.js';
import type { MemcgContainer } from '../podworker/context.js';
import { renderResourceMetrics, resourceMetricsContentType } from './resourcemetrics.js';
import { StatsSampler } from './sampler.js';
import { summaryJSON } from './summary.js';

export interface AgentStatsOptions {
  cgroups?: CgroupManager;
  runtime: { podCgroupPath?(pod: Pod): string; containerByMemcg(memcgPath: string): MemcgContainer | undefined };
  nodeName: string;
  nodeMemoryBytes: bigint;
  kubepods?: string;
  pods(): Pod[];
  metrics: AgentMetrics;
  intervalMs?: number;
  log(msg: string): void;
}

export interface AgentStats {
  sampler: StatsSampler;
  endpoint: { summary(): unknown; resourceMetrics(): string; resourceMetricsContentType: string };
  stop(): void;
}

export function startStats(o: AgentStatsOptions): AgentStats | undefined {
  const cgroups = o.cgroups;
  const podCgroupPath = o.runtime.podCgroupPath?.bind(o.runtime);
  if (!cgroups || !podCgroupPath) return undefined;
  const sampler = new StatsSampler({
    cgroups,
    nodeName: o.nodeName,
    nodeMemoryBytes: o.nodeMemoryBytes,
    ...(o.kubepods !== undefined ? { kubepods: o.kubepods } : {}),
    pods: () => o.pods().map((pod) => ({ pod, cgroupPath: podCgroupPath(pod) })),
    ...(o.intervalMs !== undefined ? { intervalMs: o.intervalMs } : {}),
    log: o.log,
  });
  sampler.start();
  o.metrics.setContainerSource(() => {
    const out: ContainerSeries[] = [];
    for (const c of sampler.containerPaths()) {
      const ws = sampler.readingsOf(c.path)?.last.memory?.workingSetBytes;
      const owner = o.runtime.containerByMemcg(c.path);
      const series: ContainerSeries = { namespace: c.namespace, pod: c.pod, container: c.container };
      if (ws !== undefined) series.workingSetBytes = Number(ws);
      if (owner) {
        const k = cgroups.oomCounters(c.path);
        series.oom = { mode: owner.oomKillMode, emulated: owner.emulated, oomKill: k.oomKill, oomGroupKill: k.oomGroupKill, v2: cgroups.version === 2 };
      }
      out.push(series);
    }
    return out;
  });
  return {
    sampler,
    endpoint: {
      summary: () => summaryJSON(sampler.summary()),
      resourceMetrics: () => {
        try {
          return renderResourceMetrics(sampler.summary());
        } catch (e) {
          o.log(`stats: /metrics/resource: ${e instanceof Error ? e.message : String(e)}`);
          return renderResourceMetrics(undefined);
        }
      },
      resourceMetricsContentType,
    },
    stop: () => sampler.stop(),
  };
}
