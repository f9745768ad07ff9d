// planPodOnNode's node-specific rules beyond the upstream tables: a CPU limit above the node's
// size is capped at the node cgroup's quota on cgroup v1 (the kernel refuses a child quota
// above its parent's), and left alone on v2.

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
