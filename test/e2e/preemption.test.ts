// Preemption end to end (issue 11's "a high-priority pod preempts a low-priority one on a full
// node"): `bulkhead up` with a node declared small (--node-cpu/--node-memory), the real kubectl,
// runc on this host. A low-priority pod fills the node's CPU; a high-priority pod arrives; as
// kube-scheduler's DefaultPreemption does (src/scheduler/preemption.ts), the scheduler gives the
// victim DisruptionTarget/PreemptionByScheduler, deletes it gracefully and records `Preempted`,
// nominates the node to the preemptor, and binds it once the agent has stopped the victim's
// containers; the preemptor then runs.
// The priorities come from PriorityClasses through the Priority admission plugin.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/preemption.test: SKIPPING end-to-end preemption tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

interface PodFull {
  metadata: { name: string; uid: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  spec: { nodeName?: string; priority?: number };
  status: { phase?: string; nominatedNodeName?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[]; containerStatuses?: { containerID?: string; state: { running?: unknown } }[] };
}

describe('preemption on a full node (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp(['--node-cpu', '1', '--node-memory', '1Gi']);
    const classes = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: e2e-low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: e2e-high}
value: 1000
`;
    await c.ok(['apply', '-f', '-'], classes);
  });

  after(async () => {
    await c?.stop();
  });

  const get = async (name: string): Promise<PodFull | undefined> => {
    const r = await c.kubectl(['get', 'pod', name, '-o', 'json']);
    if (r.code !== 0) {
      if (/NotFound|not found/.test(r.stderr)) return undefined;
      throw new Error(`kubectl get pod ${name}: ${r.stderr}`);
    }
    return JSON.parse(r.stdout) as PodFull;
  };

  it('a high-priority pod preempts a low-priority one: DisruptionTarget, graceful delete, Preempted, nominatedNodeName, then it runs', async () => {
    const node = JSON.parse(await c.ok(['get', 'node', c.nodeName, '-o', 'json'])) as { status: { allocatable: { cpu: string } } };
    const cpu = node.status.allocatable.cpu;
    const milli = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
    // Each pod asks for 60% of the node's CPU: two never fit together.
    const request = `${Math.floor(milli * 0.6)}m`;
    const podYAML = (name: string, level: 'low' | 'high', grace: number) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: ${grace}
  priorityClassName: e2e-${level}
  containers:
  - name: main
    image: busybox
    command: ["sleep", "3600"]
    resources: {requests: {cpu: ${request}, memory: 16Mi}}
`;
    // The victim's sleep is PID 1 without a SIGTERM handler: it lasts its grace period, long
    // enough to be seen terminating.
    await c.ok(['apply', '-f', '-'], podYAML('victim', 'low', 8));
    const running = await c.until('victim running', async () => {
      const p = await get('victim');
      return p?.status.phase === 'Running' && p.status.containerStatuses?.[0]?.containerID ? p : undefined;
    }, 120_000);
    assert.equal(running.spec.priority, 10);
    const id = running.status.containerStatuses![0]!.containerID!.replace(/^[a-z]+:\/\//, '');
    const state = JSON.parse(execFileSync('runc', ['--root', join(c.dataDir, 'agent', 'state', 'runc'), 'state', id], { encoding: 'utf8' })) as { pid: number };

    await c.ok(['apply', '-f', '-'], podYAML('preemptor', 'high', 1));
    // The victim: marked for deletion with its own grace period, and the DisruptionTarget condition.
    const victim = await c.until('victim preempted', async () => {
      const p = await get('victim');
      return p?.metadata.deletionTimestamp && p.status.conditions?.some((x) => x.type === 'DisruptionTarget') ? p : undefined;
    }, 60_000);
    assert.equal(victim.metadata.deletionGracePeriodSeconds, 8);
    const cond = victim.status.conditions!.find((x) => x.type === 'DisruptionTarget')!;
    assert.deepEqual([cond.status, cond.reason, cond.message], ['True', 'PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']);

    // The preemptor: nominated to the node, not yet bound, and told why.
    const pre = await c.until('preemptor nominated', async () => {
      const p = await get('preemptor');
      return p?.status.nominatedNodeName ? p : undefined;
    }, 60_000);
    assert.equal(pre.status.nominatedNodeName, c.nodeName);
    assert.equal(pre.spec.priority, 1000);
    const sched = pre.status.conditions?.find((x) => x.type === 'PodScheduled');
    assert.deepEqual([sched?.status, sched?.reason, sched?.message], ['False', 'Unschedulable', '0/1 nodes are available: 1 Insufficient cpu.']);

    const preempted = await c.until('Preempted event', async () => {
      const list = JSON.parse(await c.ok(['get', 'events', '-o', 'json', '--field-selector', 'involvedObject.name=victim,reason=Preempted'])) as { items: { type: string; message: string; source?: { component?: string } }[] };
      return list.items.length ? list.items : undefined;
    });
    assert.deepEqual(
      preempted.map((e) => [e.type, e.message, e.source?.component]),
      [['Normal', `Preempted by pod ${pre.metadata.uid} on node ${c.nodeName}`, 'default-scheduler']],
    );

    // The agent stops the victim's containers and deletes it; the preemptor is bound and runs.
    await c.until('victim gone', async () => ((await get('victim')) === undefined ? true : undefined), 120_000);
    assert.equal(existsSync(`/proc/${state.pid}`), false, "the victim's container process is gone");
    const ran = await c.until('preemptor running', async () => {
      const p = await get('preemptor');
      return p?.status.phase === 'Running' ? p : undefined;
    }, 120_000);
    assert.equal(ran.spec.nodeName, c.nodeName);
    assert.equal(ran.status.nominatedNodeName, undefined, 'the binding cleared the nomination');
  });
});
