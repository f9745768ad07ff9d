// The horizontal pod autoscaler end to end: `bulkhead up` (API server with metrics.k8s.io, the
// controller, the node agent running the pods with runc) and the real kubectl. A Deployment
// whose busybox container spins, capped at 150m of CPU by its limit with 100m requested, is
// `kubectl autoscale`d at 50%: its pods' measured usage (the agent's cgroups, scraped into the
// server's metrics storage, read by the controller without HTTP) is about 150% of the request,
// so the autoscaler scales it to --max=3, with SuccessfulRescale and `kubectl get hpa` showing a
// measured percentage. Short --metric-resolution and sync period so scrapes and syncs come
// soon; the test polls for outcomes with generous bounds and never asserts on time. The spinning
// pods are deleted at the end. Needs root, runc, conmon and kubectl; anywhere else it skips.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/hpa.test: SKIPPING horizontal pod autoscaler end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const spinner = `apiVersion: apps/v1
kind: Deployment
metadata: {name: spin}
spec:
  replicas: 1
  selector: {matchLabels: {app: spin}}
  template:
    metadata: {labels: {app: spin}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: spin
        image: busybox
        command: ["sh", "-c", "while :; do :; done"]
        resources: {requests: {cpu: 100m}, limits: {cpu: 150m}}
`;

describe('kubectl autoscale against bulkhead up', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp(['--node-memory', '4Gi', '--node-cpu', '2', '--metric-resolution', '2s', '--housekeeping-interval', '1s', '--horizontal-pod-autoscaler-sync-period', '2s']);
  });
  after(async () => {
    await c?.kubectl(['delete', 'deployment', 'spin', '--wait=false']);
    await c?.stop();
  });

  it('a Deployment above its CPU target is scaled to --max; get hpa shows the measured utilization', async () => {
    await c.ok(['apply', '-f', '-'], spinner);
    assert.equal((await c.ok(['autoscale', 'deploy', 'spin', '--max=3', '--cpu-percent=50'])).trim(), 'horizontalpodautoscaler.autoscaling/spin autoscaled');
    await c.until('the scale-up to 3', async () => {
      const replicas = Number(await c.ok(['get', 'deployment', 'spin', '-o', 'jsonpath={.spec.replicas}']));
      return replicas === 3 ? replicas : undefined;
    }, 240_000);
    const events = await c.ok(['get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler,reason=SuccessfulRescale', '-o', 'jsonpath={.items[*].message}']);
    assert.match(events, /New size: \d; reason: cpu resource utilization \(percentage of request\) above target/);
    const row = await c.ok(['get', 'hpa', 'spin', '--no-headers']);
    assert.match(row, /^spin\s+Deployment\/spin\s+cpu: \d+%\/50%\s+1\s+3\s+\d\s+/);
  });
});
