// The node, QoS tier and pod cgroups on the real cgroup v1 hierarchies of this host, written
// from the plan and read back. Runs as root where a v1 memory hierarchy exists; says why
// otherwise.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { CgroupV1Manager } from '../../src/agent/cgroups/v1.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod } from '../../src/api/types.js';
import { defaultPod } from '../../src/api/defaults.js';
import { cgroupPath, podCgroupName, qosTierCgroupName } from '../../src/policy/cgrouplayout.js';
import { nodeCgroupConfig, podCgroupFiles, qosTierConfigs } from '../../src/policy/cgroupvalues.js';
import { computePodQOS } from '../../src/policy/qos.js';
import { planPodOnNode } from '../../src/plan/node.js';

function skipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: creating cgroups needs root';
  if (!existsSync('/sys/fs/cgroup/memory') || !existsSync('/sys/fs/cgroup/cpu')) return 'no cgroup v1 memory and cpu hierarchies on this host';
  return undefined;
}

const reason = skipReason();
if (reason) console.error(`\n*** SKIPPING cgroup v1 tests: ${reason} ***\n`);

describe('cgroup v1 node, tier and pod cgroups from the plan', { skip: reason }, () => {
  const m = new CgroupV1Manager();
  const top = `/bulkhead-test-${randomBytes(4).toString('hex')}`;
  after(() => {
    // Deepest first; every directory here was made by this test.
    for (const p of [`${top}/kubepods/burstable/podtest-uid`, `${top}/kubepods/burstable`, `${top}/kubepods/besteffort`, `${top}/kubepods`]) m.remove(p, top);
    m.remove(top);
    for (const c of m.available()) assert.equal(existsSync(m.dir(c, top)), false, `left ${m.dir(c, top)} behind`);
  });

  const pod = defaultPod(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'b', namespace: 'default', uid: 'test-uid' },
      spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } } }] },
    } as Pod,
    { gates: defaultFeatureGates },
  );
  const node = { memoryBytes: 2n << 30n, milliCPU: 1500n, cgroupVersion: 1 as const, cgroupDriver: 'cgroupfs' as const };

  it('the node cgroup enforces the declared node size', () => {
    const files = podCgroupFiles(nodeCgroupConfig(node), 1);
    m.ensure(`${top}/kubepods`, files);
    assert.deepEqual(m.readBack(`${top}/kubepods`, files), { 'cpu.shares': '1536', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '150000', 'memory.limit_in_bytes': String(2n << 30n) });
  });

  it('the QoS tiers get their shares', () => {
    const tiers = qosTierConfigs([{ pod, qos: computePodQOS(pod, defaultFeatureGates) }], { gates: defaultFeatureGates });
    const burstable = podCgroupFiles(tiers.burstable, 1);
    const besteffort = podCgroupFiles(tiers.besteffort, 1);
    m.ensure(top + cgroupPath(qosTierCgroupName('Burstable'), 'cgroupfs'), burstable);
    m.ensure(top + cgroupPath(qosTierCgroupName('BestEffort'), 'cgroupfs'), besteffort);
    assert.deepEqual(m.readBack(top + cgroupPath(qosTierCgroupName('Burstable'), 'cgroupfs'), burstable), { 'cpu.shares': '256' });
    assert.deepEqual(m.readBack(top + cgroupPath(qosTierCgroupName('BestEffort'), 'cgroupfs'), besteffort), { 'cpu.shares': '2' });
  });

  it('the pod cgroup sits where plan says and reads back the values plan printed', () => {
    const plan = planPodOnNode(pod, node, defaultFeatureGates);
    assert.equal(plan.podCgroup.path, cgroupPath(podCgroupName('Burstable', 'test-uid'), 'cgroupfs'));
    m.ensure(top + plan.podCgroup.path, plan.podCgroup.values);
    assert.deepEqual(m.readBack(top + plan.podCgroup.path, plan.podCgroup.values), plan.podCgroup.values);
    assert.deepEqual(plan.podCgroup.values, { 'cpu.shares': '256', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '50000', 'memory.limit_in_bytes': '134217728' });
  });
});
