// The Summary and /metrics/resource computations against fake cgroup readings: the CPU rate
// from two readings as cAdvisor derives it, working set = usage − inactive file on v1 and v2
// (memcg.ts, the reader the eviction manager uses too), availableBytes, the kubelet's text.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMemcg, type ReadCgroupFile } from '../../../src/agent/eviction/memcg.js';
import { parseCpuacctUsage, parseCPUStatUsage, rootUsageFromMeminfo } from '../../../src/agent/cgroups/cpu.js';
import { buildSummary, cpuStats, memoryStats, summaryJSON, usageNanoCores, type CgroupReadings, type CgroupSample } from '../../../src/agent/stats/summary.js';
import { metaTime } from '../../../src/api/metatime.js';
import { goFloat, renderResourceMetrics } from '../../../src/agent/stats/resourcemetrics.js';
import { newestContainerLeaf, StatsSampler } from '../../../src/agent/stats/sampler.js';
import { FakeCgroupManager } from '../fakes/cgroups.js';
import type { Pod } from '../../../src/api/types.js';

const Mi = 1n << 20n;
const s = (time: number, cpuNs?: bigint): CgroupSample => ({ time, ...(cpuNs !== undefined ? { cpuNs } : {}) });

describe('usageNanoCores: the rate of the cumulative CPU counter between two readings (cAdvisor InstCpuStats)', () => {
  const rows: [string, CgroupSample | undefined, CgroupSample, number | undefined][] = [
    ['half a core over 10 s', s(0, 1_000_000_000n), s(10_000, 6_000_000_000n), 500_000_000],
    ['two cores over 1 s', s(5_000, 0n), s(6_000, 2_000_000_000n), 2_000_000_000],
    ['idle: 0', s(0, 7n), s(1_000, 7n), 0],
    ['one reading: no rate', undefined, s(1_000, 7n), undefined],
    ['the counter went backwards (a new cgroup): no rate', s(0, 9_000n), s(1_000, 10n), undefined],
    ['no time between the readings: no rate', s(1_000, 0n), s(1_000, 10n), undefined],
    ['no CPU accounting: no rate', s(0), s(1_000), undefined],
  ];
  for (const [name, prev, last, want] of rows) it(name, () => assert.equal(usageNanoCores(prev, last), want));
});

describe('cgroup CPU and root memory files', () => {
  it('v1 cpuacct.usage is nanoseconds', () => assert.equal(parseCpuacctUsage('23978096956891\n', '/x'), 23978096956891n));
  it('v1 cpuacct.usage that is not a count is an error naming the file', () => assert.throws(() => parseCpuacctUsage('max', '/x/cpuacct.usage'), /\/x\/cpuacct.usage: not a nanosecond count/));
  it('v2 cpu.stat usage_usec × 1000', () => assert.equal(parseCPUStatUsage('usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n', '/x'), 1_500_000n));
  it('v2 cpu.stat without usage_usec is an error', () => assert.throws(() => parseCPUStatUsage('nr_periods 0\n', '/x/cpu.stat'), /no usage_usec/));
  it('v2 root usage: MemTotal − MemFree of /proc/meminfo (runc rootStatsFromMeminfo)', () => assert.equal(rootUsageFromMeminfo('MemTotal:        4000 kB\nMemFree:         1000 kB\nMemAvailable:    2000 kB\n'), 3000n * 1024n));
});

describe('memory stats from memory.stat on v1 and v2: working set = usage − inactive file', () => {
  const files = new Map<string, string>([
    ['/v1/memory.usage_in_bytes', `${300n * Mi}\n`],
    ['/v1/memory.stat', `rss 1\ninactive_file 999999999\ntotal_rss ${120n * Mi}\ntotal_inactive_file ${100n * Mi}\ntotal_pgfault 50\ntotal_pgmajfault 2\n`],
    ['/v1/memory.limit_in_bytes', `${512n * Mi}\n`],
    ['/v2/memory.current', `${300n * Mi}\n`],
    ['/v2/memory.stat', `anon ${120n * Mi}\nfile ${150n * Mi}\ninactive_file ${100n * Mi}\npgfault 50\npgmajfault 2\n`],
    ['/v2/memory.max', 'max\n'],
  ]);
  const read: ReadCgroupFile = (p) => {
    const t = files.get(p);
    if (t === undefined) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
    return t;
  };
  const rows: [string, string, 1 | 2, Record<string, number>][] = [
    ['v1: total_ keys (hierarchical), the limit gives availableBytes', '/v1', 1, { usageBytes: 300 * 2 ** 20, workingSetBytes: 200 * 2 ** 20, rssBytes: 120 * 2 ** 20, pageFaults: 50, majorPageFaults: 2, availableBytes: 312 * 2 ** 20 }],
    ['v2: own keys (already hierarchical), memory.max "max": no availableBytes', '/v2', 2, { usageBytes: 300 * 2 ** 20, workingSetBytes: 200 * 2 ** 20, rssBytes: 120 * 2 ** 20, pageFaults: 50, majorPageFaults: 2 }],
  ];
  for (const [name, dir, version, want] of rows) {
    it(name, () => {
      const memory = readMemcg(dir, read, true, version)!;
      const { time, ...rest } = memoryStats({ last: { time: 7, memory } })!;
      assert.equal(time, 7);
      assert.deepEqual(rest, want);
    });
  }
  it('the node: availableBytes is capacity − working set', () => {
    const memory = readMemcg('/v2', read, false, 2)!;
    assert.equal(memoryStats({ last: { time: 0, memory } }, 1024n * Mi)!.availableBytes, 824 * 2 ** 20);
  });
});

const readings = (t0: number, t1: number, cpu0: bigint, cpu1: bigint, ws: bigint): CgroupReadings => ({
  prev: { time: t0, cpuNs: cpu0, memory: { usageBytes: ws, workingSetBytes: ws, inactiveFileBytes: 0n } },
  last: { time: t1, cpuNs: cpu1, memory: { usageBytes: ws + 10n, workingSetBytes: ws, inactiveFileBytes: 10n } },
});

describe('buildSummary and /metrics/resource: the kubelet\'s Summary and its collector', () => {
  const t0 = Date.UTC(2026, 0, 2, 3, 4, 5, 0);
  const t1 = t0 + 10_000;
  const summary = buildSummary({
    nodeName: 'n1',
    nodeStartTime: t0 - 3_600_000,
    nodeMemoryBytes: 1024n * Mi,
    node: readings(t0, t1, 1_000_000_000n, 11_000_000_000n, 500n * Mi),
    pods: readings(t0, t1, 0n, 2_000_000_000n, 100n * Mi),
    podInputs: [
      {
        ref: { name: 'p', namespace: 'ns', uid: 'u1' },
        startTime: t0 - 60_000,
        readings: readings(t0, t1, 0n, 1_000_000_000n, 70n * Mi),
        containers: [
          { name: 'c', startTime: t0 - 50_000, readings: readings(t0, t1, 0n, 500_000_000n, 64n * Mi) },
          { name: 'waiting', startTime: 0 },
        ],
      },
    ],
  });

  it('the node: rate and counter from the root cgroup, the pods system container, availableBytes from capacity', () => {
    assert.deepEqual(summary.node.cpu, { time: t1, usageCoreNanoSeconds: 11_000_000_000, usageNanoCores: 1_000_000_000 });
    assert.equal(summary.node.memory!.availableBytes, 524 * 2 ** 20);
    assert.equal(summary.node.systemContainers![0]!.name, 'pods');
    assert.equal(summary.node.systemContainers![0]!.cpu!.usageNanoCores, 200_000_000);
  });
  it('a container without a cgroup (not running) is left out, as cAdvisor has none', () => assert.deepEqual(summary.pods[0]!.containers.map((c) => c.name), ['c']));
  it('a container: 50m over the window, its working set', () => {
    const c = summary.pods[0]!.containers[0]!;
    assert.equal(c.cpu!.usageNanoCores, 50_000_000);
    assert.equal(c.memory!.workingSetBytes, 64 * 2 ** 20);
  });
  it('JSON: metav1.Time in whole seconds, the Go structs\' field names', () => {
    const j = summaryJSON(summary) as { node: { startTime: string; cpu: { time: string } }; pods: { podRef: unknown; containers: { name: string; memory: { time: string } }[] }[] };
    assert.equal(j.node.cpu.time, '2026-01-02T03:04:15Z');
    assert.deepEqual(j.pods[0]!.podRef, { name: 'p', namespace: 'ns', uid: 'u1' });
    assert.equal(metaTime(t0 + 999), '2026-01-02T03:04:05Z');
  });
  it('/metrics/resource: the kubelet\'s families, help texts, sorted labels and millisecond timestamps', () => {
    assert.equal(
      renderResourceMetrics(summary),
      [
        '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
        '# TYPE container_cpu_usage_seconds_total counter',
        `container_cpu_usage_seconds_total{container="c",namespace="ns",pod="p"} 0.5 ${t1}`,
        '# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes',
        '# TYPE container_memory_working_set_bytes gauge',
        `container_memory_working_set_bytes{container="c",namespace="ns",pod="p"} 6.7108864e+07 ${t1}`,
        '# HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds',
        '# TYPE container_start_time_seconds gauge',
        `container_start_time_seconds{container="c",namespace="ns",pod="p"} 1.767322995e+09`,
        '# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds',
        '# TYPE node_cpu_usage_seconds_total counter',
        `node_cpu_usage_seconds_total 11 ${t1}`,
        '# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes',
        '# TYPE node_memory_working_set_bytes gauge',
        `node_memory_working_set_bytes 5.24288e+08 ${t1}`,
        '# HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds',
        '# TYPE pod_cpu_usage_seconds_total counter',
        `pod_cpu_usage_seconds_total{namespace="ns",pod="p"} 1 ${t1}`,
        '# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes',
        '# TYPE pod_memory_working_set_bytes gauge',
        `pod_memory_working_set_bytes{namespace="ns",pod="p"} 7.340032e+07 ${t1}`,
        '# HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise',
        '# TYPE resource_scrape_error gauge',
        'resource_scrape_error 0',
        '',
      ].join('\n'),
    );
  });
  it('/metrics/resource without a Summary: only resource_scrape_error 1', () => assert.match(renderResourceMetrics(undefined), /^# HELP resource_scrape_error .*\n# TYPE resource_scrape_error gauge\nresource_scrape_error 1\n$/));
});

describe('goFloat: Go\'s strconv.FormatFloat(v, \'g\', -1, 64), as client_golang writes values', () => {
  const rows: [number, string][] = [
    [0, '0'], [1, '1'], [0.5, '0.5'], [123456, '123456'], [1e6, '1e+06'], [67108864, '6.7108864e+07'], [0.0001, '0.0001'], [0.00001, '1e-05'], [1.5e21, '1.5e+21'], [-2, '-2'],
  ];
  for (const [v, want] of rows) it(`${v} → ${want}`, () => assert.equal(goFloat(v), want));
});

describe('cpuStats: the counter always, the rate when there are two readings', () => {
  it('one reading', () => assert.deepEqual(cpuStats({ last: s(5, 10n) }), { time: 5, usageCoreNanoSeconds: 10 }));
  it('no CPU accounting: none', () => assert.equal(cpuStats({ last: s(5) }), undefined));
});

describe('StatsSampler over a CgroupManager: two passes give the rate; the newest attempt is the container', () => {
  it('newestContainerLeaf: the highest attempt of that container, no other container\'s', () => {
    assert.equal(newestContainerLeaf(['u-c-0', 'u-c-2', 'u-c-x-5', 'u-c-1', 'u-cc-9'], 'u', 'c'), 'u-c-2');
    assert.equal(newestContainerLeaf(['u-d-0'], 'u', 'c'), undefined);
  });
  it('a pod with a running container: Summary with rates after the second pass', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-stats-'));
    try {
      const cg = new FakeCgroupManager(dir, 2);
      const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
      cg.ensure('/kp/podu/u-c-0');
      cg.ensure('/kp/podu/u-c-1');
      const mem = (ws: bigint) => ({ usageBytes: ws, workingSetBytes: ws, inactiveFileBytes: 0n });
      let now = 1_000_000;
      const set = (cpu: bigint) => {
        for (const p of ['/', '/kp', '/kp/podu', '/kp/podu/u-c-1']) {
          cg.cpus.set(p, { usageNanoseconds: cpu });
          cg.memories.set(p, mem(8n * Mi));
        }
      };
      const sampler = new StatsSampler({ cgroups: cg, nodeName: 'n', nodeMemoryBytes: 64n * Mi, kubepods: '/kp', pods: () => [{ pod, cgroupPath: '/kp/podu' }], now: () => now, bootTime: 0 });
      set(1_000_000_000n);
      sampler.sample();
      assert.equal(sampler.summary().pods[0]!.containers[0]!.cpu!.usageNanoCores, undefined, 'one reading: no rate yet');
      now += 2_000;
      set(2_000_000_000n);
      sampler.sample();
      const sum = sampler.summary();
      assert.deepEqual(sum.pods[0]!.containers.map((c) => [c.name, c.cpu!.usageNanoCores, c.memory!.workingSetBytes]), [['c', 500_000_000, 8 * 2 ** 20]]);
      assert.equal(sum.node.cpu!.usageNanoCores, 500_000_000);
      assert.deepEqual(sampler.containerPaths(), [{ namespace: 'ns', pod: 'p', container: 'c', path: '/kp/podu/u-c-1' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
