// Container probes on `bulkhead up` as the real kubectl shows them: a readiness probe keeps a
// running pod at READY 0/1 until it succeeds (then 1/1, and `kubectl wait --for=condition=Ready`
// returns), and a failing liveness probe restarts the container (RESTARTS 1) with the kubelet's
// Unhealthy and Killing events. Needs root, runc, conmon and kubectl; otherwise it skips, saying
// why. Nothing is timed: each step waits for what kubectl shows, within a generous bound.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon', 'nsenter']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/probes.test: SKIPPING probes on bulkhead up: ${reason}`);
const skip = reason ? { skip: reason } : {};

const pods = `apiVersion: v1
kind: Pod
metadata: {name: slow-ready}
spec:
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'sleep 8; touch /tmp/ready; exec sleep 3600']
    readinessProbe: {exec: {command: [cat, /tmp/ready]}, periodSeconds: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: unhealthy}
spec:
  terminationGracePeriodSeconds: 600
  containers:
  - name: app
    image: busybox
    command: [sh, -c, 'trap "" TERM; while true; do sleep 1; done']
    livenessProbe: {exec: {command: [sh, -c, 'echo not well; exit 1']}, periodSeconds: 1, failureThreshold: 2, terminationGracePeriodSeconds: 1}
`;

describe('probes on bulkhead up, through kubectl', skip, () => {
  let c: UpCluster;
  before(async () => {
    c = await startUp();
    await c.ok(['apply', '-f', c.file('probes.yaml', pods)]);
  });
  after(async () => {
    await c?.stop();
  });

  /** kubectl get pod NAME's columns: READY, STATUS, RESTARTS. */
  async function row(name: string): Promise<{ ready: string; status: string; restarts: string }> {
    const [, ready = '', status = '', restarts = ''] = (await c.ok(['get', 'pod', name, '--no-headers'])).trim().split(/\s+/);
    return { ready, status, restarts };
  }

  it('a readiness probe: READY 0/1 while Running until it succeeds, then 1/1 and the Ready condition', async () => {
    await c.until('slow-ready Running at 0/1', async () => {
      const r = await row('slow-ready');
      return r.status === 'Running' && r.ready === '0/1' ? true : undefined;
    }, 120_000);
    const p = await c.pod('slow-ready');
    assert.equal(p.status.conditions?.find((x) => x.type === 'ContainersReady')?.status, 'False');
    assert.equal(p.status.conditions?.find((x) => x.type === 'Ready')?.message, 'containers with unready status: [app]');
    await c.ok(['wait', '--for=condition=Ready', 'pod/slow-ready', '--timeout=120s']);
    assert.equal((await row('slow-ready')).ready, '1/1');
    const events = await c.ok(['get', 'events', '--field-selector', 'involvedObject.name=slow-ready', '-o', 'jsonpath={range .items[*]}{.type} {.reason} {.message}{"\\n"}{end}']);
    assert.match(events, /^Warning Unhealthy Readiness probe failed: cat: can't open '\/tmp\/ready': No such file or directory$/m);
  });

  it('a failing liveness probe restarts the container: RESTARTS 1, Unhealthy and Killing events in the kubelet\'s words', async () => {
    await c.until('unhealthy restarted', async () => {
      const r = await row('unhealthy');
      return Number(r.restarts) >= 1 ? true : undefined;
    }, 120_000);
    const p = await c.pod('unhealthy');
    const st = p.status.containerStatuses?.find((x) => x.name === 'app');
    assert.ok(st && st.restartCount >= 1, JSON.stringify(p.status));
    // It ignores SIGTERM: the SIGKILL came after the probe's 1 s grace, not the pod's 600 s.
    assert.equal(st.lastState?.terminated?.exitCode, 137);
    const events = await c.until('the liveness events', async () => {
      const e = await c.ok(['get', 'events', '--field-selector', 'involvedObject.name=unhealthy', '-o', 'jsonpath={range .items[*]}{.type} {.reason} {.message}{"\\n"}{end}']);
      return /Killing/.test(e) ? e : undefined;
    }, 60_000);
    assert.match(events, /^Warning Unhealthy Liveness probe failed: not well$/m);
    assert.match(events, /^Normal Killing Container app failed liveness probe, will be restarted$/m);
  });
});
