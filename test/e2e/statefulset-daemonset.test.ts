// StatefulSet and DaemonSet with real containers: `bulkhead up`, the real kubectl, runc on this
// host. A StatefulSet of 2 runs web-0 and then web-1 (created only after web-0 was Ready, read
// from the timestamps the agent and the API wrote), a deleted member comes back under its name,
// and a DaemonSet runs exactly one pod on the single node, bound there by the scheduler.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/statefulset-daemonset.test: SKIPPING StatefulSet and DaemonSet end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const sleeper = `command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]`;

interface PodMeta {
  metadata: { name: string; uid: string; creationTimestamp: string; labels?: Record<string, string> };
  spec: { nodeName?: string };
  status: { phase?: string; conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

describe('StatefulSet and DaemonSet (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp();
  });
  after(async () => {
    await c?.kubectl(['delete', 'sts/web', 'ds/agent', '--wait=false']);
    await c?.stop();
  });

  const podJSON = async (name: string): Promise<PodMeta | undefined> => {
    const r = await c.kubectl(['get', 'pod', name, '-o', 'json']);
    return r.code === 0 ? (JSON.parse(r.stdout) as PodMeta) : undefined;
  };
  const readySince = (p: PodMeta | undefined) => (p?.status.phase === 'Running' ? p.status.conditions?.find((x) => x.type === 'Ready' && x.status === 'True')?.lastTransitionTime : undefined);

  it('a StatefulSet of 2 starts web-0, then web-1 once web-0 is Ready; a deleted member returns under its name', async () => {
    await c.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 2
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - name: c
        image: busybox
        ${sleeper}
`);
    const web1 = await c.until('web-1 Running and Ready', async () => (readySince(await podJSON('web-1')) ? podJSON('web-1') : undefined), 180_000);
    const web0 = (await podJSON('web-0'))!;
    // Ordered: web-1 was created no earlier than web-0 became Ready (both in whole seconds).
    assert.ok(web1!.metadata.creationTimestamp >= readySince(web0)!, `web-1 created ${web1!.metadata.creationTimestamp}, web-0 ready ${readySince(web0)}`);
    assert.equal(web0.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-0');
    const status = await c.until('status readyReplicas 2', async () => {
      const s = JSON.parse(await c.ok(['get', 'sts', 'web', '-o', 'json'])) as { status?: { readyReplicas?: number } };
      return s.status?.readyReplicas === 2 ? s.status : undefined;
    }, 60_000);
    assert.equal(status.readyReplicas, 2);
    const rollout = await c.kubectl(['rollout', 'status', 'sts/web', '--timeout=60s']);
    assert.equal(rollout.code, 0, rollout.stderr);

    await c.ok(['delete', 'pod', 'web-1']);
    const back = await c.until('web-1 back and Running', async () => {
      const p = await podJSON('web-1');
      return p && p.metadata.uid !== web1!.metadata.uid && readySince(p) ? p : undefined;
    }, 180_000);
    assert.equal(back.metadata.name, 'web-1');
  });

  it('a DaemonSet runs one pod on the single node', async () => {
    await c.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - name: c
        image: busybox
        ${sleeper}
`);
    const pods = await c.until('the daemon pod Running', async () => {
      const list = JSON.parse(await c.ok(['get', 'pods', '-l', 'app=agent', '-o', 'json'])).items as PodMeta[];
      return list.length === 1 && readySince(list[0]) ? list : undefined;
    }, 180_000);
    assert.equal(pods[0]!.spec.nodeName, c.nodeName);
    const ds = await c.until('numberReady 1', async () => {
      const d = JSON.parse(await c.ok(['get', 'ds', 'agent', '-o', 'json'])) as { status?: { desiredNumberScheduled?: number; numberReady?: number; numberAvailable?: number } };
      return d.status?.numberReady === 1 ? d.status : undefined;
    }, 60_000);
    assert.deepEqual([ds.desiredNumberScheduled, ds.numberAvailable], [1, 1]);
    const all = JSON.parse(await c.ok(['get', 'pods', '-l', 'app=agent', '-o', 'json'])).items as PodMeta[];
    assert.equal(all.length, 1, 'exactly one daemon pod');
  });
});
