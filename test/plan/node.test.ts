// planPodOnNode's node-specific rules beyond the upstream tables: a CPU limit above the node's
// size is capped at the node cgroup's quota on cgroup v1 (the kernel refuses a child quota
// above its parent's), and left alone on v2. And the containers' swap files, with the pods of
// upstream's TestGenerateLinuxContainerResourcesWithSwap
// (pkg/kubelet/kuberuntime/kuberuntime_container_linux_test.go @ v1.32) for the swap behaviour
// Bulkhead has (NoSwap, the default), plus critical, pod-level and non-regular containers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planPodOnNode, type NodeConfig } from '../../src/plan/node.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod } from '../../src/api/types.js';

function pod(cpuLimit: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: '00000000-0000-4000-8000-000000000001' },
    spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '1Mi' }, limits: { cpu: cpuLimit } } }] },
  } as Pod;
}

const node = (cgroupVersion: 1 | 2, milliCPU: bigint): NodeConfig => ({ memoryBytes: 4n << 30n, milliCPU, cgroupVersion, cgroupDriver: 'cgroupfs' });

const rows: [string, NodeConfig, string, string, string][] = [
  ['v1: a limit within the node keeps its quota', node(1, 2000n), '1500m', '150000', '150000'],
  ['v1: a limit equal to the node keeps its quota', node(1, 2000n), '2', '200000', '200000'],
  ['v1: a limit above the node is capped at the node quota', node(1, 1000n), '4', '100000', '100000'],
];

describe('planPodOnNode CPU quota and the node cgroup', () => {
  for (const [name, n, limit, podQuota, containerQuota] of rows) {
    it(name, () => {
      const p = planPodOnNode(pod(limit), n, defaultFeatureGates);
      assert.equal(p.podCgroup.values['cpu.cfs_quota_us'], podQuota);
      assert.equal(p.containers[0]!.cgroup['cpu.cfs_quota_us'], containerQuota);
    });
  }
  it('v2: a limit above the node is written as asked (the parent limits it)', () => {
    const p = planPodOnNode(pod('4'), node(2, 1000n), defaultFeatureGates);
    assert.equal(p.podCgroup.values['cpu.max'], '400000 100000');
    assert.equal(p.containers[0]!.cgroup['cpu.max'], '400000 100000');
  });
});

describe('planPodOnNode on a host that cannot grant every value (plan --this-host)', () => {
  const host = { minOomScoreAdj: 0, hardRlimitCeilings: { RLIMIT_NOFILE: 20000n } };
  const guaranteed = { ...pod('1'), spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '1', memory: '64Mi' }, limits: { cpu: '1', memory: '64Mi' } } }] } } as Pod;
  const burstable = pod('1');
  const rows: [string, Pod, number, number, string[]][] = [
    ['Guaranteed -997 is applied as the host minimum 0, and says why', guaranteed, -997, 0, ['oom_score_adj -997 applied as 0: this host cannot set negative values (no CAP_SYS_RESOURCE)']],
    ['a Burstable value the host can set is applied as planned', burstable, 999, 999, []],
  ];
  for (const [name, p, planned, applied, messages] of rows) {
    it(name, () => {
      const plan = planPodOnNode(p, { ...node(1, 2000n), host }, defaultFeatureGates);
      assert.equal(plan.containers[0]!.oomScoreAdj, planned);
      assert.deepEqual(plan.containers[0]!.onHost, { oomScoreAdj: applied, adjustments: messages });
      assert.deepEqual(plan.sandbox, { oomScoreAdj: -998, onHost: { oomScoreAdj: 0 } });
    });
  }
  it('without host facts the plan says nothing about the host', () => {
    const plan = planPodOnNode(guaranteed, node(1, 2000n), defaultFeatureGates);
    assert.equal(plan.containers[0]!.onHost, undefined);
    assert.deepEqual(plan.sandbox, { oomScoreAdj: -998 });
  });
});

describe('planPodOnNode swap files (NoSwap): every container, whatever its QoS class or priority', () => {
  type R = { requests?: Record<string, string>; limits?: Record<string, string> };
  const swapPod = (c1: R, c2: R, extra: Partial<Pod['spec']> = {}): Pod =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', namespace: 'bar', uid: '12345678' },
      spec: { containers: [{ name: 'c1', image: 'busybox', resources: c1 }, { name: 'c2', image: 'busybox', resources: c2 }], ...extra },
    }) as Pod;
  // Upstream's pods: Burstable with memory requests only, Guaranteed with 1Gi/2Gi, BestEffort.
  const burstable = swapPod({ requests: { memory: '1Gi' } }, { requests: { memory: '2Gi' } });
  const guaranteed = swapPod({ requests: { memory: '1Gi', cpu: '1' }, limits: { memory: '1Gi', cpu: '1' } }, { requests: { memory: '2Gi', cpu: '1' }, limits: { memory: '2Gi', cpu: '1' } });
  const besteffort = swapPod({}, {});
  const critical = swapPod({ requests: { memory: '1Gi' }, limits: { memory: '1Gi' } }, { requests: { memory: '1Gi' } }, { priority: 2000000000, priorityClassName: 'system-cluster-critical' });
  const podLevel = swapPod({ requests: { memory: '256Mi' } }, { requests: { memory: '256Mi' }, limits: { memory: '512Mi' } }, { resources: { limits: { memory: '1Gi' } } });
  const initAndEphemeral = swapPod({ limits: { memory: '1Gi' } }, {}, {
    initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { memory: '128Mi' } } }],
    ephemeralContainers: [{ name: 'debug', image: 'busybox' }],
  } as Partial<Pod['spec']>);
  const memsw = (v: string) => ({ 'memory.memsw.limit_in_bytes': v });
  const noSwapV2 = { 'memory.swap.max': '0' };
  const Gi = (n: number) => String(BigInt(n) << 30n);
  const swapNode = (cgroupVersion: 1 | 2, swapControllerAvailable?: boolean): NodeConfig => ({
    memoryBytes: 40n << 30n,
    milliCPU: 8000n,
    cgroupVersion,
    cgroupDriver: 'cgroupfs',
    ...(swapControllerAvailable !== undefined ? { swapControllerAvailable } : {}),
  });
  // [name, pod, node, each container's swap files in plan order]
  const rows: [string, Pod, NodeConfig, Record<string, string>[]][] = [
    ['"With no swapBehavior - NoSwap should be the default" (v2, BestEffort)', besteffort, swapNode(2, true), [noSwapV2, noSwapV2]],
    ['"Swap disabled on node, With no swapBehavior - NoSwap should be the default" (v2, BestEffort): nothing set', besteffort, swapNode(2, false), [{}, {}]],
    ['v2 Burstable: memory.swap.max 0 (NoSwap does not look at the QoS class)', burstable, swapNode(2, true), [noSwapV2, noSwapV2]],
    ['v2 Guaranteed: memory.swap.max 0', guaranteed, swapNode(2, true), [noSwapV2, noSwapV2]],
    ['v1 Guaranteed: memsw = each container\'s memory limit', guaranteed, swapNode(1, true), [memsw(Gi(1)), memsw(Gi(2))]],
    ['v1 Burstable with requests only: no memory limit, so no memsw limit (expectNoSwap: 0 = 0)', burstable, swapNode(1, true), [{}, {}]],
    ['v1 BestEffort: no memsw limit', besteffort, swapNode(1, true), [{}, {}]],
    ['"Swap disabled on node" on v1: nothing set, limits or not', guaranteed, swapNode(1, false), [{}, {}]],
    ['a critical pod gets NoSwap like any other (v1)', critical, swapNode(1, true), [memsw(Gi(1)), {}]],
    ['a critical pod gets NoSwap like any other (v2)', critical, swapNode(2, true), [noSwapV2, noSwapV2]],
    ['v1 pod-level limit: a container without its own limit gets the pod\'s as memory and memsw limit', podLevel, swapNode(1, true), [memsw(Gi(1)), memsw(String(512n << 20n))]],
    ['v1 init and ephemeral containers too, by their own limits', initAndEphemeral, swapNode(1, true), [memsw(String(128n << 20n)), memsw(Gi(1)), {}, {}]],
    ['v2 init and ephemeral containers too', initAndEphemeral, swapNode(2, true), [noSwapV2, noSwapV2, noSwapV2, noSwapV2]],
    ['a node that does not say (an offline plan) has the swap controller', guaranteed, swapNode(2), [noSwapV2, noSwapV2]],
  ];
  const swapOf = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([k]) => k === 'memory.memsw.limit_in_bytes' || k === 'memory.swap.max'));
  for (const [name, p, n, want] of rows) {
    it(name, () => {
      const plan = planPodOnNode(p, n, defaultFeatureGates);
      assert.deepEqual(plan.containers.map((c) => swapOf(c.cgroup)), want);
      if (n.cgroupVersion === 1) for (const c of plan.containers) if (c.cgroup['memory.memsw.limit_in_bytes'] !== undefined) assert.equal(c.cgroup['memory.memsw.limit_in_bytes'], c.cgroup['memory.limit_in_bytes']);
      assert.deepEqual(swapOf(plan.podCgroup.values), {}, 'the pod cgroup gets no swap setting');
    });
  }
});
