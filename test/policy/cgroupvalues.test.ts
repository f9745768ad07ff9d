// cgroup values. Rows ported from upstream's tables (read, not copied):
//   kubernetes/kubernetes pkg/kubelet/cm/helpers_linux_test.go: TestMilliCPUToShares, TestMilliCPUToQuota,
//   TestResourceConfigForPod (v1.32 rows, CustomCPUCFSQuotaPeriod gate off; the 2026 DRA-free rows),
//   TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod (gate on), TestHugePageLimits,
//   TestCPUSharesEqualAfterV2RoundTrip (the forward half: milliCPU -> shares -> weight);
//   pkg/kubelet/cm/cgroup_manager_linux_test.go TestGetCpuWeight and TestCpuSharesToCPUWeight (linear map);
//   opencontainers/cgroups utils_test.go TestConvertCPUSharesToCgroupV2Value (v0.0.5 table, and the
//   older 0/2/262144 table);
//   pkg/kubelet/kuberuntime/kuberuntime_container_linux_test.go TestCalculateLinuxResources,
//   TestGenerateLinuxContainerConfigResources, TestGenerateLinuxContainerResources (resources and
//   oom_score_adj, with the swap controller absent as there; MemoryQoS is not modelled; swap:
//   test/policy/swap.test.ts), TestGetHugepageLimitsFromResources (page-size
//   names only, through the pod-level limits: Bulkhead writes no container-level hugetlb);
//   pkg/kubelet/cm/qos_container_manager_linux_test.go TestQOSCPUConfigUpdate (tier cpu shares).
// Plus reference/qos-oom-cgroup-quantity.md §3 rules and its worked examples.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MaxShares,
  MinShares,
  containerCgroupFiles,
  containerResourceConfig,
  milliCPUToQuota,
  milliCPUToShares,
  podCgroupFiles,
  podResourceConfig,
  qosTierConfigs,
  sharesToWeightLinear,
  sharesToWeightRuntime,
  type ContainerResourceConfig,
  type ResourceConfig,
} from '../../src/policy/cgroupvalues.js';
import { getPodQOS } from '../../src/policy/qos.js';
import { containerOOMScoreAdj } from '../../src/policy/oomscore.js';
import type { Container, Pod, ResourceList, ResourceRequirements } from '../../src/api/types.js';

const ON = { PodLevelResources: true } as const;
const OFF = { PodLevelResources: false } as const;
const Mi = 1n << 20n;

function rl(cpu: string, memory: string): ResourceList {
  const r: ResourceList = {};
  if (cpu !== '') r.cpu = cpu;
  if (memory !== '') r.memory = memory;
  return r;
}
function ctr(requests: ResourceList, limits: ResourceList, extra: Partial<Container> = {}): Container {
  return { name: extra.name ?? 'c', resources: { requests, limits }, ...extra };
}
function pod(containers: Container[], o: { init?: Container[]; resources?: ResourceRequirements; overhead?: ResourceList } = {}): Pod {
  const p: Pod = { metadata: { name: 'p', uid: 'u' }, spec: { containers } };
  if (o.init) p.spec.initContainers = o.init;
  if (o.resources) p.spec.resources = o.resources;
  if (o.overhead) p.spec.overhead = o.overhead;
  return p;
}

// ---------------------------------------------------------------------------------------------
// MilliCPUToShares / MilliCPUToQuota

describe('milliCPUToShares: upstream TestMilliCPUToShares rows', () => {
  const rows: [string, bigint, bigint][] = [
    ['zero milliCPU returns MinShares', 0n, 2n],
    ['1 milliCPU rounds down to MinShares', 1n, 2n],
    ['2 milliCPU computes to exactly MinShares (2*1024/1000=2)', 2n, 2n],
    ['3 milliCPU computes to 3 shares (3*1024/1000=3)', 3n, 3n],
    ['100 milliCPU maps to 102 shares', 100n, 102n],
    ['500 milliCPU maps to 512 shares', 500n, 512n],
    ['1000 milliCPU (1 CPU) maps to 1024 shares', 1000n, 1024n],
    ['255999 milliCPU just below MaxShares', 255999n, (255999n * 1024n) / 1000n],
    ['256000 milliCPU hits exactly MaxShares', 256000n, 262144n],
    ['256001 milliCPU clamped to MaxShares', 256001n, 262144n],
    ['1000000 milliCPU clamped to MaxShares', 1000000n, 262144n],
    ['negative milliCPU clamped to MinShares', -1n, 2n],
    ['large negative clamped to MinShares', -1000000n, 2n],
    ['"2000m (2 CPUs) returns 2048 shares"', 2000n, 2048n],
  ];
  for (const [name, input, want] of rows) it(`${name}: ${input} -> ${want}`, () => assert.equal(milliCPUToShares(input), want));
  it('MinShares is 2 and MaxShares is 262144', () => assert.deepEqual([MinShares, MaxShares], [2n, 262144n]));
});

describe('milliCPUToQuota: upstream TestMilliCPUToQuota rows and reference §3.2', () => {
  const rows: [string, bigint, bigint, bigint][] = [
    ['0 means no quota, whatever the period', 0n, 0n, 0n],
    ['5m is floor-clamped to 1000us', 5n, 100000n, 1000n],
    ['9m is floor-clamped to 1000us', 9n, 100000n, 1000n],
    ['10m is exactly 1000us (the effective minimum limit)', 10n, 100000n, 1000n],
    ['200m is 20000us', 200n, 100000n, 20000n],
    ['500m is 50000us', 500n, 100000n, 50000n],
    ['1 CPU is 100000us', 1000n, 100000n, 100000n],
    ['1500m is 150000us', 1500n, 100000n, 150000n],
    ['200m with a 5ms period is floor-clamped to 1000us', 200n, 5000n, 1000n],
    ['100m with a 5ms period (500us) is floor-clamped to 1000us', 100n, 5000n, 1000n],
    ['4 CPUs with a 5ms period is 20000us', 4000n, 5000n, 20000n],
  ];
  for (const [name, milli, period, want] of rows) it(`${name}`, () => assert.equal(milliCPUToQuota(milli, period), want));
  it('the default period is 100000us', () => assert.equal(milliCPUToQuota(200n), 20000n));
});

// ---------------------------------------------------------------------------------------------
// cpu.weight: the kubelet's linear map and the runtime's quadratic map

describe('sharesToWeightLinear: kubelet-managed cgroups (upstream TestGetCpuWeight, TestCPUSharesEqualAfterV2RoundTrip)', () => {
  const rows: [string, bigint, bigint][] = [
    ['MinShares 2 -> weight 1', 2n, 1n],
    ['MaxShares 262144 -> 10000', 262144n, 10000n],
    ['1000000000 shares -> 10000', 1000000000n, 10000n],
    ['1 CPU (1024 shares) -> 39 on kubepods/pod cgroups', 1024n, 39n],
    ['50m -> 51 shares -> weight 2 (lossy round trip reads back 28 shares)', milliCPUToShares(50n), 2n],
    ['100m -> 102 shares -> weight 4 (reads back 80 shares)', milliCPUToShares(100n), 4n],
    ['262143 shares -> 1 + (262141*9999) div 262142 = 9999', 262143n, 9999n],
    ['16 CPUs (16384 shares) -> 625', 16384n, 625n],
  ];
  for (const [name, shares, want] of rows) it(`${name}`, () => assert.equal(sharesToWeightLinear(shares), want));
});

describe('sharesToWeightLinear: upstream pkg/kubelet/cm cgroup manager TestCpuSharesToCPUWeight rows', () => {
  for (const [shares, want] of [[2n, 1n], [3n, 1n], [4n, 1n], [28n, 1n], [29n, 2n], [245n, 10n], [262144n, 10000n]] as const) it(`${shares} shares -> weight ${want}`, () => assert.equal(sharesToWeightLinear(shares), want));
});

describe('sharesToWeightRuntime: container cgroups (opencontainers/cgroups TestConvertCPUSharesToCgroupV2Value)', () => {
  const rows: [string, bigint, bigint][] = [
    ['unset (0) stays 0', 0n, 0n],
    ['below the minimum (1) -> weightMin 1', 1n, 1n],
    ['minimum shares 2 -> weight 1 (fixed point)', 2n, 1n],
    ['just above the minimum (3) -> 2', 3n, 2n],
    ['default 1024 -> 100 (fixed point)', 1024n, 100n],
    ['just below the maximum (262143) -> 10000', 262143n, 10000n],
    ['maximum 262144 -> 10000 (fixed point)', 262144n, 10000n],
    ['above the maximum (262145) -> 10000', 262145n, 10000n],
    ['reference example: 102 shares (100m) -> 17', 102n, 17n],
    ['reference example: 512 shares (500m) -> 59', 512n, 59n],
    ['reference example: 2048 shares (2 CPUs) -> 174', 2048n, 174n],
  ];
  for (const [name, shares, want] of rows) it(`${name}`, () => assert.equal(sharesToWeightRuntime(shares), want));
});

describe('sharesToWeightRuntime: exhaustive checks over 0..262150', () => {
  it('stays in [1, 10000] (0 only for unset), never decreases, and hits the three fixed points', () => {
    let prev = 0n;
    for (let s = 0; s <= 262150; s++) {
      const w = sharesToWeightRuntime(BigInt(s));
      if (s === 0) assert.equal(w, 0n);
      else {
        assert.ok(w >= 1n && w <= 10000n, `shares ${s} -> ${w} out of range`);
        assert.ok(w >= prev, `weight decreases at shares ${s}: ${prev} -> ${w}`);
      }
      prev = w;
    }
    assert.equal(sharesToWeightRuntime(2n), 1n);
    assert.equal(sharesToWeightRuntime(1024n), 100n);
    assert.equal(sharesToWeightRuntime(262144n), 10000n);
  });
  it('every value brackets 10^x of the quadratic with a margin: no result sits on a rounding knife-edge except the exact fixed point 1024', () => {
    // weight = ceil(10^((L^2 + 125 L)/612 - 7/34)), L = log2(shares). Recompute 10^x through a
    // different path (exp/ln) and require w-1 < v <= w whenever v is not within 1e-9 of an integer.
    const edges: number[] = [];
    for (let s = 3; s < 262144; s++) {
      const w = Number(sharesToWeightRuntime(BigInt(s)));
      const L = Math.log(s) / Math.LN2;
      const v = Math.exp(((L * L + 125 * L) / 612 - 7 / 34) * Math.LN10);
      const frac = v - Math.floor(v);
      if (frac < 1e-9 || frac > 1 - 1e-9) {
        edges.push(s);
        continue;
      }
      assert.ok(w - 1 < v && v <= w, `shares ${s}: weight ${w} does not bracket ${v}`);
    }
    assert.deepEqual(edges, [1024]);
  });
  it('the reference example: a 1-CPU Guaranteed pod has pod cgroup cpu.weight 39 but container cpu.weight 100', () => {
    const shares = milliCPUToShares(1000n);
    assert.equal(sharesToWeightLinear(shares), 39n);
    assert.equal(sharesToWeightRuntime(shares), 100n);
  });
});

// ---------------------------------------------------------------------------------------------
// ResourceConfigForPod

const defaultQuotaPeriod = 100000n;
const tunedQuotaPeriod = 5000n;
const burstableShares = 102n; // MilliCPUToShares(100)
const burstablePartialShares = 204n; // MilliCPUToShares(200)
const burstableQuota = 20000n; // MilliCPUToQuota(200, 100000)
const burstableMemory = 200n * Mi;
const guaranteedShares = 102n;
const guaranteedQuota = 10000n; // MilliCPUToQuota(100, 100000)
// With the CustomCPUCFSQuotaPeriod gate off (v1.32 default) every quota is computed over 100ms,
// whatever period is written; with it on, 100m and 200m over 5ms are both clamped to 1000us.
const guaranteedTunedQuotaGateOff = 10000n; // MilliCPUToQuota(100, 5000), gate off
const guaranteedTunedQuota = 1000n; // MilliCPUToQuota(100, 5000), gate on
const tunedQuota = 1000n; // 1ms: MilliCPUToQuota(200, 5000), gate on
const guaranteedMemory = 100n * Mi;

interface PodConfigRow {
  name: string;
  pod: Pod;
  enforceCPULimits: boolean;
  period: bigint;
  podLevelResources?: boolean;
  expected: ResourceConfig;
}

const podConfigRows: PodConfigRow[] = [
  { name: '"besteffort": shares 2 and nothing else', pod: pod([ctr(rl('', ''), rl('', ''))]), enforceCPULimits: true, period: defaultQuotaPeriod, expected: { cpuShares: 2n } },
  { name: '"burstable-no-limits": shares only', pod: pod([ctr(rl('100m', '100Mi'), rl('', ''))]), enforceCPULimits: true, period: defaultQuotaPeriod, expected: { cpuShares: burstableShares } },
  {
    name: '"burstable-with-limits": every container limits cpu and memory',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'))]),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: burstableShares, cpuQuota: burstableQuota, cpuPeriod: defaultQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-with-limits-no-cpu-enforcement": quota -1',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'))]),
    enforceCPULimits: false,
    period: defaultQuotaPeriod,
    expected: { cpuShares: burstableShares, cpuQuota: -1n, cpuPeriod: defaultQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-partial-limits": one unlimited container drops quota and memory',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi')), ctr(rl('100m', '100Mi'), rl('', ''))]),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: burstablePartialShares },
  },
  {
    name: '"burstable-with-limits-with-tuned-quota": gate off, the 5ms period is written but the quota is over 100ms',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'))]),
    enforceCPULimits: true,
    period: tunedQuotaPeriod,
    expected: { cpuShares: burstableShares, cpuQuota: burstableQuota, cpuPeriod: tunedQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-with-limits-no-cpu-enforcement-with-tuned-quota"',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'))]),
    enforceCPULimits: false,
    period: tunedQuotaPeriod,
    expected: { cpuShares: burstableShares, cpuQuota: -1n, cpuPeriod: tunedQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-partial-limits-with-tuned-quota"',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi')), ctr(rl('100m', '100Mi'), rl('', ''))]),
    enforceCPULimits: true,
    period: tunedQuotaPeriod,
    expected: { cpuShares: burstablePartialShares },
  },
  {
    name: '"guaranteed": shares, quota, period and memory',
    pod: pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: guaranteedShares, cpuQuota: guaranteedQuota, cpuPeriod: defaultQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"guaranteed-no-cpu-enforcement"',
    pod: pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    enforceCPULimits: false,
    period: defaultQuotaPeriod,
    expected: { cpuShares: guaranteedShares, cpuQuota: -1n, cpuPeriod: defaultQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"guaranteed-with-tuned-quota": gate off, quota over 100ms',
    pod: pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    enforceCPULimits: true,
    period: tunedQuotaPeriod,
    expected: { cpuShares: guaranteedShares, cpuQuota: guaranteedTunedQuotaGateOff, cpuPeriod: tunedQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"guaranteed-no-cpu-enforcement-with-tuned-quota"',
    pod: pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    enforceCPULimits: false,
    period: tunedQuotaPeriod,
    expected: { cpuShares: guaranteedShares, cpuQuota: -1n, cpuPeriod: tunedQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"burstable-partial-limits-with-init-containers": an unlimited init container also drops quota and memory',
    pod: pod([ctr(rl('100m', '100m'), rl('100m', '100Mi')), ctr(rl('100m', '100m'), rl('', ''))], { init: [ctr(rl('100m', '100m'), rl('100m', '100Mi')), ctr(rl('100m', '100m'), rl('', ''))] }),
    enforceCPULimits: true,
    period: tunedQuotaPeriod,
    expected: { cpuShares: burstablePartialShares },
  },
  {
    name: '"besteffort-with-pod-level-resources-enabled": empty pod-level maps',
    pod: pod([ctr(rl('', ''), rl('', ''))], { resources: { requests: {}, limits: {} } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: 2n },
  },
  {
    name: '"burstable-with-pod-level-requests": pod-level requests replace the (absent) container requests',
    pod: pod([{ name: 'Container with no resources' }], { resources: { requests: rl('100m', '100Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: burstableShares },
  },
  {
    name: '"burstable-with-pod-and-container-level-requests": pod-level requests win over container requests',
    pod: pod([ctr(rl('10m', '50Mi'), rl('', ''))], { resources: { requests: rl('100m', '100Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: burstableShares },
  },
  {
    name: '"burstable-with-pod-level-resources": non-zero pod-level limits declare cpu and memory',
    pod: pod([{ name: 'Container with no resources' }], { resources: { requests: rl('100m', '100Mi'), limits: rl('200m', '200Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: burstableShares, cpuQuota: burstableQuota, cpuPeriod: defaultQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-with-pod-and-container-level-resources": pod-level values replace the container aggregate',
    pod: pod([ctr(rl('10m', '50Mi'), rl('50m', '100Mi'))], { resources: { requests: rl('100m', '100Mi'), limits: rl('200m', '200Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: burstableShares, cpuQuota: burstableQuota, cpuPeriod: defaultQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"burstable-with-partial-pod-level-resources-limits": pod-level requests only, limits from the containers',
    pod: pod([ctr(rl('200m', '200Mi'), rl('200m', '200Mi'))], { resources: { requests: rl('200m', '300Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: burstablePartialShares, cpuQuota: burstableQuota, cpuPeriod: defaultQuotaPeriod, memory: burstableMemory },
  },
  {
    name: '"guaranteed-with-pod-level-resources"',
    pod: pod([{ name: 'Container with no resources' }], { resources: { requests: rl('100m', '100Mi'), limits: rl('100m', '100Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: guaranteedShares, cpuQuota: guaranteedQuota, cpuPeriod: defaultQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"guaranteed-with-pod-and-container-level-resources"',
    pod: pod([ctr(rl('10m', '50Mi'), rl('50m', '100Mi'))], { resources: { requests: rl('100m', '100Mi'), limits: rl('100m', '100Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: guaranteedShares, cpuQuota: guaranteedQuota, cpuPeriod: defaultQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"guaranteed-pod-level-resources-with-init-containers"',
    pod: pod([ctr(rl('10m', '50Mi'), rl('50m', '50Mi'))], { init: [ctr(rl('10m', '50Mi'), rl('50m', '50Mi'))], resources: { requests: rl('100m', '100Mi'), limits: rl('100m', '100Mi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: guaranteedShares, cpuQuota: guaranteedQuota, cpuPeriod: defaultQuotaPeriod, memory: guaranteedMemory },
  },
  {
    name: '"burstable-with-dra-feature-gate-disabled": 1 CPU / 200Mi requests, 3 CPUs / 500Mi limits',
    pod: pod([ctr(rl('1', '200Mi'), rl('3', '500Mi'))]),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: 1024n, cpuQuota: 300000n, cpuPeriod: defaultQuotaPeriod, memory: 500n * Mi },
  },
];

// reference §3.5-§3.6 rules beyond the upstream table
const referencePodConfigRows: PodConfigRow[] = [
  {
    name: 'a regular init container after a limited sidecar is "declared" through its init-phase (cumulative) limits',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'), { name: 'app' })], {
      init: [ctr(rl('100m', '50Mi'), rl('100m', '50Mi'), { name: 'side', restartPolicy: 'Always' }), { name: 'late-init' }],
    }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    // limits: app 200m + sidecar 100m; requests: app 100m + sidecar 100m
    expected: { cpuShares: 204n, cpuQuota: 30000n, cpuPeriod: defaultQuotaPeriod, memory: 250n * Mi },
  },
  {
    name: 'an unlimited regular init container before the sidecar has init-phase limit 0: nothing declared',
    pod: pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'), { name: 'app' })], {
      init: [{ name: 'early-init' }, ctr(rl('100m', '50Mi'), rl('100m', '50Mi'), { name: 'side', restartPolicy: 'Always' })],
    }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: 204n },
  },
  {
    name: 'overhead is added to requests and to the non-zero limits',
    pod: pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))], { overhead: rl('100m', '10Mi') }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: 204n, cpuQuota: 20000n, cpuPeriod: defaultQuotaPeriod, memory: 110n * Mi },
  },
  {
    name: 'a non-zero pod-level cpu limit declares cpu even when containers have none; memory stays undeclared',
    pod: pod([ctr(rl('100m', ''), rl('', ''))], { resources: { requests: rl('500m', ''), limits: rl('1', '') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: true,
    expected: { cpuShares: 512n, cpuQuota: 100000n, cpuPeriod: defaultQuotaPeriod },
  },
  {
    name: 'pod-level resources are ignored with PodLevelResources off',
    pod: pod([ctr(rl('100m', '100Mi'), rl('', ''))], { resources: { requests: rl('1', '1Gi'), limits: rl('1', '1Gi') } }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    podLevelResources: false,
    expected: { cpuShares: burstableShares },
  },
  {
    name: 'hugepage limits (from requests) are attached in the Guaranteed class too',
    pod: pod([{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' }, limits: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '4Mi' } } }]),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: 1024n, cpuQuota: 100000n, cpuPeriod: defaultQuotaPeriod, memory: 1n << 30n, hugePageLimits: new Map([[2n * Mi, 4n * Mi]]) },
  },
  {
    name: 'BestEffort gets shares 2 even with overhead',
    pod: pod([ctr(rl('', ''), rl('', ''))], { overhead: rl('250m', '64Mi') }),
    enforceCPULimits: true,
    period: defaultQuotaPeriod,
    expected: { cpuShares: 2n },
  },
];

// helpers_linux_test.go TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod: the same pods with
// the CustomCPUCFSQuotaPeriod gate on, where a tuned period also tunes the quota.
const burstableLimited = () => pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi'))]);
const burstablePartial = () => pod([ctr(rl('100m', '100Mi'), rl('200m', '200Mi')), ctr(rl('100m', '100Mi'), rl('', ''))]);
const guaranteedPod = () => pod([ctr(rl('100m', '100Mi'), rl('100m', '100Mi'))]);
const burstableFull = (cpuQuota: bigint, cpuPeriod: bigint): ResourceConfig => ({ cpuShares: burstableShares, cpuQuota, cpuPeriod, memory: burstableMemory });
const guaranteedFull = (cpuQuota: bigint, cpuPeriod: bigint): ResourceConfig => ({ cpuShares: guaranteedShares, cpuQuota, cpuPeriod, memory: guaranteedMemory });
const customPeriodRows: PodConfigRow[] = [
  { name: '"besteffort"', pod: pod([ctr(rl('', ''), rl('', ''))]), enforceCPULimits: true, period: defaultQuotaPeriod, expected: { cpuShares: 2n } },
  { name: '"burstable-no-limits"', pod: pod([ctr(rl('100m', '100Mi'), rl('', ''))]), enforceCPULimits: true, period: defaultQuotaPeriod, expected: { cpuShares: burstableShares } },
  { name: '"burstable-with-limits"', pod: burstableLimited(), enforceCPULimits: true, period: defaultQuotaPeriod, expected: burstableFull(burstableQuota, defaultQuotaPeriod) },
  { name: '"burstable-with-limits-no-cpu-enforcement"', pod: burstableLimited(), enforceCPULimits: false, period: defaultQuotaPeriod, expected: burstableFull(-1n, defaultQuotaPeriod) },
  { name: '"burstable-partial-limits"', pod: burstablePartial(), enforceCPULimits: true, period: defaultQuotaPeriod, expected: { cpuShares: burstablePartialShares } },
  { name: '"burstable-with-limits-with-tuned-quota": 200m over 5ms is clamped to 1ms', pod: burstableLimited(), enforceCPULimits: true, period: tunedQuotaPeriod, expected: burstableFull(tunedQuota, tunedQuotaPeriod) },
  { name: '"burstable-with-limits-no-cpu-enforcement-with-tuned-quota"', pod: burstableLimited(), enforceCPULimits: false, period: tunedQuotaPeriod, expected: burstableFull(-1n, tunedQuotaPeriod) },
  { name: '"burstable-partial-limits-with-tuned-quota"', pod: burstablePartial(), enforceCPULimits: true, period: tunedQuotaPeriod, expected: { cpuShares: burstablePartialShares } },
  { name: '"guaranteed"', pod: guaranteedPod(), enforceCPULimits: true, period: defaultQuotaPeriod, expected: guaranteedFull(guaranteedQuota, defaultQuotaPeriod) },
  { name: '"guaranteed-no-cpu-enforcement"', pod: guaranteedPod(), enforceCPULimits: false, period: defaultQuotaPeriod, expected: guaranteedFull(-1n, defaultQuotaPeriod) },
  { name: '"guaranteed-with-tuned-quota": 100m over 5ms is clamped to 1ms', pod: guaranteedPod(), enforceCPULimits: true, period: tunedQuotaPeriod, expected: guaranteedFull(guaranteedTunedQuota, tunedQuotaPeriod) },
  { name: '"guaranteed-no-cpu-enforcement-with-tuned-quota"', pod: guaranteedPod(), enforceCPULimits: false, period: tunedQuotaPeriod, expected: guaranteedFull(-1n, tunedQuotaPeriod) },
];

function checkPodConfig(row: PodConfigRow, customCPUCFSQuotaPeriod?: boolean): void {
  const gates = row.podLevelResources ? ON : OFF;
  const qos = getPodQOS(row.pod, gates);
  const got = podResourceConfig(row.pod, qos, { gates, enforceCPULimits: row.enforceCPULimits, cpuPeriod: row.period, customCPUCFSQuotaPeriod });
  assert.deepEqual(got, row.expected);
}

describe('podResourceConfig: upstream TestResourceConfigForPod rows', () => {
  for (const row of podConfigRows) it(row.name, () => checkPodConfig(row));
});
describe('podResourceConfig: upstream TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod rows (gate on)', () => {
  for (const row of customPeriodRows) it(row.name, () => checkPodConfig(row, true));
});
describe('podResourceConfig: reference §3.5-§3.6 rules', () => {
  for (const row of referencePodConfigRows) it(row.name, () => checkPodConfig(row));
});

describe('podResourceConfig hugepages: upstream TestHugePageLimits rows (through ResourceConfigForPod)', () => {
  const rows: [string, ResourceList, Map<bigint, bigint> | undefined][] = [
    ['"no valid hugepages": a bare "2Mi" key is not a hugepage resource', { '2Mi': '128' }, undefined],
    ['"2Mi only"', { 'hugepages-2Mi': '128' }, new Map([[2n * Mi, 128n]])],
    [
      '"2Mi and 4Mi": sizes spelled differently (2Mi, 2097152) add up under one page size',
      { 'hugepages-2Mi': '128', [`hugepages-${2n * Mi}`]: '256', 'hugepages-4Mi': '512', '4Mi': '1024' },
      new Map([[2n * Mi, 384n], [4n * Mi, 512n]]),
    ],
  ];
  for (const [name, requests, want] of rows) {
    it(name, () => {
      const p = pod([{ name: 'c', resources: { requests } }]);
      const got = podResourceConfig(p, getPodQOS(p, OFF), { gates: OFF, enforceCPULimits: false, cpuPeriod: 0n });
      assert.deepEqual(got.hugePageLimits, want);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Container-level CRI resources (reference §3.8)

describe('containerResourceConfig: reference §3.8 (calculateLinuxResources)', () => {
  const rows: { name: string; pod: Pod; cpuCFSQuota?: boolean; period?: bigint; customPeriod?: boolean; gates?: typeof ON | typeof OFF; expected: ContainerResourceConfig }[] = [
    {
      name: 'no cpu request key: shares come from the cpu limit',
      pod: pod([ctr({}, rl('500m', ''))]),
      expected: { cpuShares: 512n, cpuQuota: 50000n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: 'cpu request "0" with a limit: shares 2, not the limit',
      pod: pod([ctr(rl('0', ''), rl('500m', ''))]),
      expected: { cpuShares: 2n, cpuQuota: 50000n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: 'request and limit: shares from the request, quota from the limit',
      pod: pod([ctr(rl('250m', '64Mi'), rl('500m', '128Mi'))]),
      expected: { cpuShares: 256n, cpuQuota: 50000n, cpuPeriod: 100000n, memoryLimit: 128n * Mi },
    },
    {
      name: 'no limits: quota 0 (unset) but the period is still set; memory 0 (unset)',
      pod: pod([ctr(rl('100m', '64Mi'), {})]),
      expected: { cpuShares: 102n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: 'cpuCFSQuota false: quota and period stay 0',
      pod: pod([ctr(rl('100m', ''), rl('1', ''))]),
      cpuCFSQuota: false,
      expected: { cpuShares: 102n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 0n },
    },
    {
      name: 'custom period 5ms with CustomCPUCFSQuotaPeriod: 200m limit is floor-clamped to 1000us',
      pod: pod([ctr(rl('100m', ''), rl('200m', ''))]),
      period: 5000n,
      customPeriod: true,
      expected: { cpuShares: 102n, cpuQuota: 1000n, cpuPeriod: 5000n, memoryLimit: 0n },
    },
    {
      name: 'custom period 5ms without CustomCPUCFSQuotaPeriod (v1.32 default): period and quota over 100ms',
      pod: pod([ctr(rl('100m', ''), rl('200m', ''))]),
      period: 5000n,
      expected: { cpuShares: 102n, cpuQuota: 20000n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: 'a 5m limit becomes the 1000us minimum quota',
      pod: pod([ctr(rl('5m', ''), rl('5m', ''))]),
      expected: { cpuShares: 5n, cpuQuota: 1000n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: 'pod-level limits fill in for a container without limits (gate on)',
      pod: pod([ctr({}, {})], { resources: { requests: rl('1', '512Mi'), limits: rl('2', '1Gi') } }),
      gates: ON,
      expected: { cpuShares: 2048n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 1n << 30n },
    },
    {
      name: 'container limits win over pod-level limits',
      pod: pod([ctr(rl('100m', ''), rl('500m', '256Mi'))], { resources: { requests: rl('1', '512Mi'), limits: rl('2', '1Gi') } }),
      gates: ON,
      expected: { cpuShares: 102n, cpuQuota: 50000n, cpuPeriod: 100000n, memoryLimit: 256n * Mi },
    },
    {
      name: 'pod-level limits are ignored with PodLevelResources off',
      pod: pod([ctr(rl('100m', ''), {})], { resources: { requests: rl('1', '512Mi'), limits: rl('2', '1Gi') } }),
      gates: OFF,
      expected: { cpuShares: 102n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const opts: { gates: typeof ON | typeof OFF; cpuCFSQuota?: boolean; cpuPeriod?: bigint; customCPUCFSQuotaPeriod?: boolean } = { gates: r.gates ?? ON };
      if (r.cpuCFSQuota !== undefined) opts.cpuCFSQuota = r.cpuCFSQuota;
      if (r.period !== undefined) opts.cpuPeriod = r.period;
      if (r.customPeriod !== undefined) opts.customCPUCFSQuotaPeriod = r.customPeriod;
      assert.deepEqual(containerResourceConfig(r.pod, r.pod.spec.containers[0]!, opts), r.expected);
    });
  }
});

// Upstream kuberuntime_container_linux_test.go TestCalculateLinuxResources: a cpu request, a cpu
// limit and a memory limit (each possibly absent) with cpuCFSQuota on, on cgroup v1 and v2. Upstream
// puts unified["memory.oom.group"]="1" on v2 unless singleProcessOOMKill; Bulkhead's container files
// carry the same value, and write "0" for a single-process kill where upstream leaves the key out
// (the kernel default is 0, so the cgroup ends up the same).
describe('containerResourceConfig: upstream TestCalculateLinuxResources rows', () => {
  const rows: { name: string; cpuReq?: string; cpuLim?: string; memLim?: string; version: 1 | 2; singleProcess?: boolean; expected: ContainerResourceConfig; oomGroup?: string }[] = [
    { name: '"Request128MBLimit256MB" (v1)', cpuReq: '1', cpuLim: '2', memLim: '128Mi', version: 1, expected: { cpuShares: 1024n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 134217728n } },
    { name: '"RequestNoMemory" (v1): a memory limit of "0" is no limit', cpuReq: '2', cpuLim: '8', memLim: '0', version: 1, expected: { cpuShares: 2048n, cpuQuota: 800000n, cpuPeriod: 100000n, memoryLimit: 0n } },
    { name: '"RequestNilCPU" (v1): no cpu request key, shares from the limit', cpuLim: '2', memLim: '0', version: 1, expected: { cpuShares: 2048n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 0n } },
    { name: '"RequestZeroCPU" (v1): cpu request "0" gives MinShares, not the limit', cpuReq: '0', cpuLim: '2', memLim: '0', version: 1, expected: { cpuShares: 2n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 0n } },
    { name: '"Request128MBLimit256MB" (v2): memory.oom.group 1', cpuReq: '1', cpuLim: '2', memLim: '128Mi', version: 2, expected: { cpuShares: 1024n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 134217728n }, oomGroup: '1' },
    {
      name: '"Request128MBLimit256MBSingleProcess" (v2): no group kill (upstream omits the key, Bulkhead writes 0)',
      cpuReq: '1',
      cpuLim: '2',
      memLim: '128Mi',
      version: 2,
      singleProcess: true,
      expected: { cpuShares: 1024n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 134217728n },
      oomGroup: '0',
    },
    { name: '"RequestNoMemory" (v2)', cpuReq: '2', cpuLim: '8', memLim: '0', version: 2, expected: { cpuShares: 2048n, cpuQuota: 800000n, cpuPeriod: 100000n, memoryLimit: 0n }, oomGroup: '1' },
    { name: '"RequestNilCPU" (v2)', cpuLim: '2', memLim: '0', version: 2, expected: { cpuShares: 2048n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 0n }, oomGroup: '1' },
    { name: '"RequestZeroCPU" (v2)', cpuReq: '0', cpuLim: '2', memLim: '0', version: 2, expected: { cpuShares: 2n, cpuQuota: 200000n, cpuPeriod: 100000n, memoryLimit: 0n }, oomGroup: '1' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const requests: ResourceList = {};
      if (r.cpuReq !== undefined) requests.cpu = r.cpuReq;
      const limits: ResourceList = {};
      if (r.cpuLim !== undefined) limits.cpu = r.cpuLim;
      if (r.memLim !== undefined) limits.memory = r.memLim;
      const p = pod([ctr(requests, limits)]);
      const cfg = containerResourceConfig(p, p.spec.containers[0]!, { gates: ON, cpuCFSQuota: true });
      assert.deepEqual(cfg, r.expected);
      assert.equal(containerCgroupFiles(cfg, r.version, !r.singleProcess, false)['memory.oom.group'], r.oomGroup);
    });
  }
});

describe('containerResourceConfig: upstream TestGenerateLinuxContainerConfigResources rows (cpuCFSQuota on)', () => {
  const rows: { name: string; container: ResourceRequirements; podResources?: ResourceRequirements; expected: ContainerResourceConfig }[] = [
    {
      name: '"Request 128M/1C, Limit 256M/3C"',
      container: { requests: rl('1', '128Mi'), limits: rl('3', '256Mi') },
      expected: { cpuShares: 1024n, cpuQuota: 300000n, cpuPeriod: 100000n, memoryLimit: 256n * Mi },
    },
    {
      name: '"Request 128M/2C, No Limit": quota 0, memory 0',
      container: { requests: rl('2', '128Mi') },
      expected: { cpuShares: 2048n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n },
    },
    {
      name: '"Container Level Request 128M/1C, Pod Level Limit 256M/3C": the pod-level limits fill in',
      container: { requests: rl('1', '128Mi') },
      podResources: { limits: rl('3', '256Mi') },
      expected: { cpuShares: 1024n, cpuQuota: 300000n, cpuPeriod: 100000n, memoryLimit: 256n * Mi },
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const p = pod([{ name: 'foo', resources: r.container }], r.podResources ? { resources: r.podResources } : {});
      assert.deepEqual(containerResourceConfig(p, p.spec.containers[0]!, { gates: ON, cpuCFSQuota: true }), r.expected);
    });
  }
});

// Upstream's test runtime manager has cpuCFSQuota off here, so no quota or period; machine memory
// capacity 17179860387 bytes for oom_score_adj.
describe('containerResourceConfig + containerOOMScoreAdj: upstream TestGenerateLinuxContainerResources rows', () => {
  const capacity = 17179860387n;
  const rows: { name: string; limits?: ResourceList; requests?: ResourceList; version: 1 | 2; singleProcess: boolean; expected: ContainerResourceConfig; oomScoreAdj: number; oomGroup?: string }[] = [
    {
      name: 'cgroupv1: "requests & limits, cpu & memory, guaranteed qos"',
      limits: rl('250m', '500Mi'),
      requests: rl('250m', '500Mi'),
      version: 1,
      singleProcess: true,
      expected: { cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 524288000n },
      oomScoreAdj: -997,
    },
    {
      name: 'cgroupv1: "requests & limits, cpu & memory, burstable qos": 500Mi of 16GB -> 970',
      limits: rl('500m', '750Mi'),
      requests: rl('250m', '500Mi'),
      version: 1,
      singleProcess: true,
      expected: { cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 786432000n },
      oomScoreAdj: 970,
    },
    { name: 'cgroupv1: "best-effort qos"', version: 1, singleProcess: true, expected: { cpuShares: 2n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 0n }, oomScoreAdj: 1000 },
    {
      name: 'cgroupv2: "requests & limits, cpu & memory, guaranteed qos": memory.oom.group 1',
      limits: rl('250m', '500Mi'),
      requests: rl('250m', '500Mi'),
      version: 2,
      singleProcess: false,
      expected: { cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 524288000n },
      oomScoreAdj: -997,
      oomGroup: '1',
    },
    {
      name: 'cgroupv2: "requests & limits, cpu & memory, burstable qos": memory.oom.group 1',
      limits: rl('500m', '750Mi'),
      requests: rl('250m', '500Mi'),
      version: 2,
      singleProcess: false,
      expected: { cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 786432000n },
      oomScoreAdj: 970,
      oomGroup: '1',
    },
    { name: 'cgroupv2: "best-effort qos": memory.oom.group 1', version: 2, singleProcess: false, expected: { cpuShares: 2n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 0n }, oomScoreAdj: 1000, oomGroup: '1' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const resources: ResourceRequirements = {};
      if (r.limits) resources.limits = r.limits;
      if (r.requests) resources.requests = r.requests;
      const p = pod([{ name: 'c1', resources }]);
      const c = p.spec.containers[0]!;
      const cfg = containerResourceConfig(p, c, { gates: ON, cpuCFSQuota: false });
      assert.deepEqual(cfg, r.expected);
      assert.equal(containerOOMScoreAdj(p, c, capacity, ON), r.oomScoreAdj);
      assert.equal(containerCgroupFiles(cfg, r.version, !r.singleProcess, false)['memory.oom.group'], r.oomGroup);
    });
  }
});

// Upstream GetHugepageLimitsFromResources reads a container's hugepages-<size> limits; Bulkhead
// writes hugetlb limits on the pod cgroup only (from the requests, as ResourceConfigForPod does), so
// these rows check the same page-size keys there: a size that is not a Quantity ("2MB", "1GB") is
// skipped, and the files are named 2MB / 1GB as runc's HugePageSizes names them.
describe('podResourceConfig hugepages: page-size keys of upstream TestGetHugepageLimitsFromResources', () => {
  const Gi = 1n << 30n;
  const rows: [string, ResourceList, Map<bigint, bigint> | undefined, Record<string, string>][] = [
    ['"Success2MB"', { 'hugepages-2Mi': '2Mi' }, new Map([[2n * Mi, 2097152n]]), { 'hugetlb.2MB.max': '2097152' }],
    ['"Success1GB"', { 'hugepages-1Gi': '2Gi' }, new Map([[Gi, 2147483648n]]), { 'hugetlb.1GB.max': '2147483648' }],
    ['"Skip2MB": "hugepages-2MB" names no page size', { 'hugepages-2MB': '2Mi' }, undefined, {}],
    ['"Skip1GB": "hugepages-1GB" names no page size', { 'hugepages-1GB': '2Gi' }, undefined, {}],
    [
      '"Success2MBand1GB" (with cpu "0")',
      { cpu: '0', 'hugepages-2Mi': '2Mi', 'hugepages-1Gi': '2Gi' },
      new Map([
        [2n * Mi, 2097152n],
        [Gi, 2147483648n],
      ]),
      { 'hugetlb.2MB.max': '2097152', 'hugetlb.1GB.max': '2147483648' },
    ],
    ['"Skip2MBand1GB" (with cpu "0")', { cpu: '0', 'hugepages-2MB': '2Mi', 'hugepages-1GB': '2Gi' }, undefined, {}],
  ];
  for (const [name, requests, want, files] of rows) {
    it(name, () => {
      const p = pod([{ name: 'c', resources: { requests } }]);
      const got = podResourceConfig(p, getPodQOS(p, OFF), { gates: OFF });
      assert.deepEqual(got.hugePageLimits, want);
      const hugetlb = Object.fromEntries(Object.entries(podCgroupFiles(got, 2)).filter(([k]) => k.startsWith('hugetlb.')));
      assert.deepEqual(hugetlb, files);
    });
  }
});

// Upstream qos_container_manager_linux_test.go TestQOSCPUConfigUpdate: the burstable tier's shares
// follow the Burstable pods' cpu requests (MinShares with none); besteffort is always MinShares.
describe('qosTierConfigs: upstream TestQOSCPUConfigUpdate rows', () => {
  const guaranteed = () => pod([ctr(rl('1', '128Mi'), rl('1', '128Mi'))]);
  const burstable = () => pod([ctr(rl('1', '128Mi'), rl('2', '256Mi'))]);
  const besteffort = () => pod([{ name: 'foo' }]);
  const rows: [string, Pod[], bigint][] = [
    ['"guaranteed-pods-only": the burstable tier still exists, with MinShares', [guaranteed()], 2n],
    ['"burstable-pods-only": 1 CPU requested -> 1024', [burstable()], 1024n],
    ['"besteffort-pods-only"', [besteffort()], 2n],
    ['"guaranteed-and-burstable-pods": only the Burstable pod counts', [guaranteed(), burstable()], 1024n],
    ['"besteffort-and-burstable-pods"', [besteffort(), burstable()], 1024n],
  ];
  for (const [name, pods, want] of rows) {
    it(name, () => {
      const tiers = qosTierConfigs(
        pods.map((p) => ({ pod: p, qos: getPodQOS(p, ON) })),
        { gates: ON },
      );
      assert.deepEqual(tiers, { burstable: { cpuShares: want }, besteffort: { cpuShares: MinShares } });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Files written (reference §3.4)

describe('podCgroupFiles: kubelet-managed cgroups, v1 and v2', () => {
  const guaranteed1CPU: ResourceConfig = { cpuShares: 1024n, cpuQuota: 100000n, cpuPeriod: 100000n, memory: 1n << 30n };
  const rows: [string, ResourceConfig, 1 | 2, Record<string, string>][] = [
    ['v1 Guaranteed 1 CPU / 1Gi', guaranteed1CPU, 1, { 'cpu.shares': '1024', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '100000', 'memory.limit_in_bytes': '1073741824' }],
    ['v2 Guaranteed 1 CPU / 1Gi: linear cpu.weight 39', guaranteed1CPU, 2, { 'cpu.weight': '39', 'cpu.max': '100000 100000', 'memory.max': '1073741824' }],
    ['v1 BestEffort: cpu.shares 2 only', { cpuShares: 2n }, 1, { 'cpu.shares': '2' }],
    ['v2 BestEffort: cpu.weight 1 only', { cpuShares: 2n }, 2, { 'cpu.weight': '1' }],
    ['TestGetCpuWeight getCPUWeight(nil) = 0: no shares, no cpu.weight written (an empty config writes nothing)', {}, 2, {}],
    ['v2 Burstable without limits: cpu.weight only, nothing unset is written', { cpuShares: 102n }, 2, { 'cpu.weight': '4' }],
    ['v2 quota -1 (cpuCFSQuota off) is written as "max <period>"', { cpuShares: 1024n, cpuQuota: -1n, cpuPeriod: 100000n, memory: 1n << 30n }, 2, { 'cpu.weight': '39', 'cpu.max': 'max 100000', 'memory.max': '1073741824' }],
    ['v1 quota -1 is written as -1', { cpuShares: 1024n, cpuQuota: -1n, cpuPeriod: 100000n }, 1, { 'cpu.shares': '1024', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '-1' }],
    [
      'v1 hugetlb files are named by page size (2MB, 1GB)',
      { cpuShares: 2n, hugePageLimits: new Map([[2n * Mi, 4n * Mi], [1n << 30n, 1n << 30n]]) },
      1,
      { 'cpu.shares': '2', 'hugetlb.2MB.limit_in_bytes': '4194304', 'hugetlb.1GB.limit_in_bytes': '1073741824' },
    ],
    ['v2 hugetlb files are hugetlb.<size>.max (64KB page)', { cpuShares: 2n, hugePageLimits: new Map([[64n * 1024n, 128n * 1024n]]) }, 2, { 'cpu.weight': '1', 'hugetlb.64KB.max': '131072' }],
  ];
  for (const [name, cfg, v, want] of rows) it(name, () => assert.deepEqual(podCgroupFiles(cfg, v), want));
});

describe('containerCgroupFiles: runtime-written container cgroups, v1 and v2', () => {
  const cfg: ContainerResourceConfig = { cpuShares: 1024n, cpuQuota: 100000n, cpuPeriod: 100000n, memoryLimit: 1n << 30n };
  // [name, config, version, memory.oom.group, swap controller, files in write order]
  const rows: [string, ContainerResourceConfig, 1 | 2, boolean, boolean, Record<string, string>][] = [
    ['v2 1 CPU: quadratic cpu.weight 100 and memory.oom.group 1 (Group)', cfg, 2, true, false, { 'cpu.weight': '100', 'cpu.max': '100000 100000', 'memory.max': '1073741824', 'memory.oom.group': '1' }],
    ['v2 Single kill mode writes memory.oom.group 0', cfg, 2, false, false, { 'cpu.weight': '100', 'cpu.max': '100000 100000', 'memory.max': '1073741824', 'memory.oom.group': '0' }],
    ['v1 has no memory.oom.group', cfg, 1, true, false, { 'cpu.shares': '1024', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '100000', 'memory.limit_in_bytes': '1073741824' }],
    ['v2 without cpu limit: cpu.max "max <period>", no memory.max', { cpuShares: 102n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n }, 2, true, false, { 'cpu.weight': '17', 'cpu.max': 'max 100000', 'memory.oom.group': '1' }],
    ['v2 with cpuCFSQuota off (quota and period 0): no cpu.max', { cpuShares: 512n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 0n }, 2, true, false, { 'cpu.weight': '59', 'memory.oom.group': '1' }],
    ['v1 without limits: cpu.shares and the period only', { cpuShares: 2n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n }, 1, false, false, { 'cpu.shares': '2', 'cpu.cfs_period_us': '100000' }],
    ['v1 with the swap controller: memsw after the memory limit it equals', cfg, 1, false, true, { 'cpu.shares': '1024', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '100000', 'memory.limit_in_bytes': '1073741824', 'memory.memsw.limit_in_bytes': '1073741824' }],
    ['v1 with the swap controller but no memory limit: no memsw either', { cpuShares: 2n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n }, 1, false, true, { 'cpu.shares': '2', 'cpu.cfs_period_us': '100000' }],
    ['v2 with the swap controller: memory.swap.max 0 after memory.max, before memory.oom.group', cfg, 2, true, true, { 'cpu.weight': '100', 'cpu.max': '100000 100000', 'memory.max': '1073741824', 'memory.swap.max': '0', 'memory.oom.group': '1' }],
    ['v2 with the swap controller and no memory limit: memory.swap.max 0 all the same', { cpuShares: 2n, cpuQuota: 0n, cpuPeriod: 0n, memoryLimit: 0n }, 2, false, true, { 'cpu.weight': '1', 'memory.swap.max': '0', 'memory.oom.group': '0' }],
  ];
  for (const [name, c, v, group, swap, want] of rows) {
    it(name, () => {
      const got = containerCgroupFiles(c, v, group, swap);
      assert.deepEqual(got, want);
      assert.deepEqual(Object.keys(got), Object.keys(want), 'written in this order');
    });
  }
});
