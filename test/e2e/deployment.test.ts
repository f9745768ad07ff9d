// Deployments with real containers, end to end: `bulkhead up` (API server, controllers,
// scheduler, node agent with runc on this host) and the real kubectl. `kubectl create
// deployment` with two replicas of the busybox image the other e2e tests use, `kubectl rollout
// status`; `kubectl set image` and `kubectl rollout restart` roll to new pods that really run
// (their containers Running, the old pods gone); `kubectl rollout undo`; `kubectl scale` to 3
// and to 1; a deleted pod comes back; and pods evicted through the Eviction API by `kubectl
// drain` come back once the node is uncordoned.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type PodJSON, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/deployment.test: SKIPPING Deployment end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

interface RSJSON {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
}

describe('Deployments with real containers (bulkhead up, real kubectl, runc)', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp();
  });
  after(async () => {
    await c?.stop();
  });

  const pods = async () => (JSON.parse(await c.ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as { items: (PodJSON & { metadata: { labels?: Record<string, string>; deletionTimestamp?: string } })[] }).items;
  const replicaSets = async () =>
    (JSON.parse(await c.ok(['get', 'replicasets', '-o', 'json'])) as { items: RSJSON[] }).items.sort((a, b) => Number(a.metadata.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations?.['deployment.kubernetes.io/revision']));
  const rolledOut = async () => assert.match(await c.ok(['rollout', 'status', 'deployment/web', '--timeout=180s']), /deployment "web" successfully rolled out\n$/);
  /** Every pod of the Deployment is of `rs`, its container running, and there are `n` of them. */
  const runningOf = (rs: RSJSON, n: number) =>
    c.until(`${n} running pods of ${rs.metadata.name}`, async () => {
      const ps = (await pods()).filter((p) => !p.metadata.deletionTimestamp);
      const ok = ps.length === n && ps.every((p) => p.metadata.labels?.['pod-template-hash'] === rs.metadata.labels?.['pod-template-hash'] && p.status.phase === 'Running' && p.status.containerStatuses?.[0]?.state.running);
      return ok ? ps : undefined;
    }, 120_000);
  const newest = async () => {
    const all = await replicaSets();
    return all[all.length - 1]!;
  };

  it('kubectl create deployment: two running pods, rollout status succeeds', async () => {
    assert.equal((await c.ok(['create', 'deployment', 'web', '--image=busybox', '--replicas=2', '--', 'sleep', '3600'])).trim(), 'deployment.apps/web created');
    await rolledOut();
    await runningOf(await newest(), 2);
  });

  it('kubectl set image rolls to new pods that run; rollout undo rolls back', async () => {
    const first = await newest();
    await c.ok(['set', 'image', 'deployment/web', 'busybox=busybox:latest']);
    await rolledOut();
    const second = await newest();
    assert.notEqual(second.metadata.uid, first.metadata.uid);
    assert.equal(second.spec.template.spec.containers[0]!.image, 'busybox:latest');
    await runningOf(second, 2);
    assert.match(await c.ok(['rollout', 'undo', 'deployment/web']), /deployment\.apps\/web rolled back/);
    await rolledOut();
    const back = await newest();
    assert.equal(back.metadata.uid, first.metadata.uid, 'the first ReplicaSet is reused');
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    await runningOf(back, 2);
  });

  it('kubectl rollout restart replaces every pod with a running new one', async () => {
    const before = (await pods()).map((p) => p.metadata.uid);
    await c.ok(['rollout', 'restart', 'deployment/web']);
    await rolledOut();
    const ps = await runningOf(await newest(), 2);
    assert.ok(ps.every((p) => !before.includes(p.metadata.uid)));
  });

  it('kubectl scale to 3 and to 1', async () => {
    assert.equal((await c.ok(['scale', 'deployment/web', '--replicas=3'])).trim(), 'deployment.apps/web scaled');
    await rolledOut();
    await runningOf(await newest(), 3);
    await c.ok(['scale', 'deployment/web', '--replicas=1']);
    await rolledOut();
    await runningOf(await newest(), 1);
    await c.ok(['scale', 'deployment/web', '--replicas=2']);
    await rolledOut();
  });

  it('a deleted pod comes back', async () => {
    const [victim] = await pods();
    await c.ok(['delete', 'pod', victim!.metadata.name, '--wait=false']);
    const ps = await runningOf(await newest(), 2);
    assert.ok(!ps.some((p) => p.metadata.uid === victim!.metadata.uid));
  });

  it('pods evicted by kubectl drain (the Eviction API) come back after uncordon', async () => {
    const before = (await pods()).map((p) => p.metadata.uid);
    const drain = await c.kubectl(['drain', c.nodeName, '--pod-selector=app=web', '--ignore-daemonsets', '--timeout=120s']);
    assert.equal(drain.code, 0, drain.stderr);
    assert.match(drain.stdout + drain.stderr, /pod\/web-\S+ evicted/);
    // The replacements wait for a schedulable node.
    await c.until('replacements pending', async () => ((await pods()).filter((p) => !p.metadata.deletionTimestamp && !before.includes(p.metadata.uid)).length === 2 ? true : undefined), 60_000);
    await c.ok(['uncordon', c.nodeName]);
    const ps = await runningOf(await newest(), 2);
    assert.ok(ps.every((p) => !before.includes(p.metadata.uid)));
    await rolledOut();
  });
});
