// examples/app.yaml as the README's walk-through runs it: `bulkhead up`, the real kubectl, runc
// on this host. The PriorityClasses, the namespace, the ConfigMap, the Secret, the Deployment and
// the Job apply; the Deployment rolls out two pods that run with the Secret in their env and the
// ConfigMap as their web root; the Job completes; `kubectl get all` lists what the controllers
// made; scale and set image / rollout undo work on it.
// Needs root, runc, conmon, busybox-static and kubectl; anywhere else the suite skips and says why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/examples-app.test: SKIPPING the examples/app.yaml walk-through: ${reason}`);
const skip = reason ? { skip: reason } : {};

interface PodItem {
  metadata: { name: string; ownerReferences?: { kind: string; name: string }[] };
  spec: { priority?: number; containers: { env?: { name: string }[] }[] };
  status: { phase?: string };
}

describe('examples/app.yaml on bulkhead up (real kubectl, runc)', skip, () => {
  let c: UpCluster;
  before(async () => {
    c = await startUp(['--node-memory', '4Gi', '--node-cpu', '2']);
  });
  after(async () => {
    await c?.stop();
  });

  it('applies, rolls out, runs the Job to completion, and kubectl get all lists it', async () => {
    const applied = await c.ok(['apply', '-f', 'examples/app.yaml']);
    for (const line of ['priorityclass.scheduling.k8s.io/storefront', 'priorityclass.scheduling.k8s.io/batch-low', 'namespace/store', 'configmap/web-content', 'secret/web-credentials', 'deployment.apps/web', 'job.batch/report', 'service/web']) {
      assert.match(applied, new RegExp(`^${line.replace(/\./g, '\\.')} created$`, 'm'));
    }
    assert.match(await c.ok(['rollout', 'status', 'deployment/web', '-n', 'store', '--timeout=180s']), /deployment "web" successfully rolled out/);
    const pods = JSON.parse(await c.ok(['get', 'pods', '-n', 'store', '-l', 'app=web', '-o', 'json'])) as { items: PodItem[] };
    assert.equal(pods.items.filter((p) => p.status.phase === 'Running').length, 2);
    for (const p of pods.items) {
      assert.equal(p.spec.priority, 100000, 'the storefront class');
      assert.equal(p.metadata.ownerReferences?.[0]?.kind, 'ReplicaSet');
    }
    await c.ok(['wait', '--for=condition=Complete', 'job/report', '-n', 'store', '--timeout=180s']);
    assert.match(await c.ok(['logs', 'job/report', '-n', 'store']), /^report for \d{4}-\d\d-\d\d$/m);

    const all = await c.ok(['get', 'all', '-n', 'store']);
    for (const want of [/^deployment\.apps\/web\s+2\/2\s+2\s+2\s/m, /^replicaset\.apps\/web-[a-z0-9]+\s+2\s+2\s+2\s/m, /^job\.batch\/report\s+Complete\s+1\/1\s/m, /^pod\/web-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running\s/m, /^pod\/report-[a-z0-9]{5}\s+0\/1\s+Completed\s/m, /^service\/web\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s/m]) {
      assert.match(all, want);
    }

    await c.ok(['scale', 'deployment/web', '-n', 'store', '--replicas=3']);
    assert.match(await c.ok(['rollout', 'status', 'deployment/web', '-n', 'store', '--timeout=180s']), /successfully rolled out/);
    await c.ok(['set', 'image', 'deployment/web', '-n', 'store', 'httpd=busybox:latest']);
    assert.match(await c.ok(['rollout', 'status', 'deployment/web', '-n', 'store', '--timeout=180s']), /successfully rolled out/);
    await c.ok(['rollout', 'undo', 'deployment/web', '-n', 'store']);
    assert.match(await c.ok(['rollout', 'status', 'deployment/web', '-n', 'store', '--timeout=180s']), /successfully rolled out/);
    const d = JSON.parse(await c.ok(['get', 'deployment', 'web', '-n', 'store', '-o', 'json'])) as { spec: { template: { spec: { containers: { image: string }[] } } }; status: { readyReplicas?: number } };
    assert.equal(d.spec.template.spec.containers[0]!.image, 'busybox', 'undo brought the first template back');
    assert.equal(d.status.readyReplicas, 3);
  });
});
