// The agent's own /metrics per container and per eviction: the working set from the stats pass,
// the kernel's OOM kill counts by the container's mode (read at each scrape, so they are what the
// kernel kept, across agent restarts), and the counters only the agent can keep.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentMetrics, type ContainerSeries } from '../../../src/agent/metrics.js';
import { StatsSampler } from '../../../src/agent/stats/sampler.js';
import { FakeCgroupManager } from '../fakes/cgroups.js';

describe('AgentMetrics: per-container series read at scrape time', () => {
  const rows: [string, ContainerSeries[], RegExp[], RegExp[]][] = [
    [
      'a Single container on v1: working set and oom_kill, no group kill series',
      [{ namespace: 'ns', pod: 'p', container: 'c', workingSetBytes: 1048576, oom: { mode: 'Single', emulated: false, oomKill: 2, oomGroupKill: 0, v2: false } }],
      [/^container_memory_working_set_bytes\{container="c",pod="p",namespace="ns"\} 1048576$/m, /^container_oom_kills_total\{container="c",pod="p",namespace="ns",mode="Single",emulated="false"\} 2$/m],
      [/^container_oom_group_kills_total\{/m],
    ],
    [
      'a Group container on v2: its group kills too',
      [{ namespace: 'ns', pod: 'p', container: 'g', oom: { mode: 'Group', emulated: false, oomKill: 3, oomGroupKill: 1, v2: true } }],
      [/^container_oom_kills_total\{container="g",pod="p",namespace="ns",mode="Group",emulated="false"\} 3$/m, /^container_oom_group_kills_total\{container="g",pod="p",namespace="ns",mode="Group"\} 1$/m],
      [/^container_memory_working_set_bytes\{container="g"/m],
    ],
    [
      'an emulated Group container on v1 is labelled so',
      [{ namespace: 'ns', pod: 'p', container: 'e', oom: { mode: 'Group', emulated: true, oomKill: 1, oomGroupKill: 0, v2: false } }],
      [/^container_oom_kills_total\{container="e",pod="p",namespace="ns",mode="Group",emulated="true"\} 1$/m],
      [],
    ],
    ['a container gone since the last scrape is no longer reported', [], [], [/^container_oom_kills_total\{/m, /^container_memory_working_set_bytes\{/m]],
  ];
  for (const [name, series, want, notWant] of rows) {
    it(name, async () => {
      const m = new AgentMetrics();
      m.setContainerSource(() => series);
      const text = await m.render();
      for (const re of want) assert.match(text, re);
      for (const re of notWant) assert.doesNotMatch(text, re);
    });
  }
  it('evictions by signal (the kubelet\'s kubelet_evictions) and emulated group kills are the agent\'s own counts', async () => {
    const m = new AgentMetrics();
    m.evicted('memory.available');
    m.evicted('memory.available');
    m.groupKillEmulated(0.01);
    const text = await m.render();
    assert.match(text, /^kubelet_evictions\{eviction_signal="memory.available"\} 2$/m);
    assert.match(text, /^container_oom_group_kills_emulated_total 1$/m);
  });
});

describe('StatsSampler: which cgroup is the node', () => {
  const rows: [string, string | undefined, string][] = [
    ['with a node cgroup: kubepods (what eviction compares with the node\'s memory)', '/kp', '/kp'],
    ['without one: the root cgroup, as the kubelet', undefined, '/'],
  ];
  for (const [name, kubepods, want] of rows) {
    it(name, () => {
      const cg = new FakeCgroupManager('/nonexistent', 1);
      cg.cpus.set(want, { usageNanoseconds: 5n });
      const s = new StatsSampler({ cgroups: cg, nodeName: 'n', nodeMemoryBytes: 1n, ...(kubepods ? { kubepods } : {}), pods: () => [], now: () => 1, bootTime: 0 });
      assert.equal(s.nodePath, want);
      assert.equal(s.summary().node.cpu?.usageCoreNanoSeconds, 5);
      assert.equal(s.summary().node.systemContainers?.[0]?.name, kubepods ? 'pods' : undefined);
    });
  }
});
