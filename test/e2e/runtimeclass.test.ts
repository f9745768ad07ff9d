// RuntimeClass end to end: `bulkhead up` driven by the real kubectl. Classes naming the handlers
// runc and crun and one naming a handler no runtime serves; a pod of each. The runc pod runs under
// runc (its container in runc's state directory), with the class's overhead in its spec and in
// its pod cgroup's memory limit; the crun pod runs under crun where crun runs on this host (this
// CI host is cgroup-hybrid, where crun refuses, so there its sandbox fails as below and the test
// says why); the third stays Pending with the kubelet's FailedCreatePodSandBox event. The Node
// lists its runtime handlers in status.runtimeHandlers. Needs root, runc, conmon, busybox-static,
// kubectl and a cgroup v1 memory hierarchy; anywhere else the suite skips and prints why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type UpCluster } from './upcluster.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/runtimeclass.test: SKIPPING RuntimeClass end-to-end tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const manifests = `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: runc}
handler: runc
overhead:
  podFixed: {memory: 16Mi}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: crun}
handler: crun
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
${['runc', 'crun', 'kata']
  .map(
    (c) => `---
apiVersion: v1
kind: Pod
metadata: {name: on-${c}}
spec:
  runtimeClassName: ${c}
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
    resources: {limits: {memory: 32Mi}}
`,
  )
  .join('')}`;

interface EventJSON {
  reason: string;
  message: string;
  type: string;
  source?: { component?: string };
}

describe('RuntimeClass against bulkhead up', skip, () => {
  let c: UpCluster;
  let handlers: string[] = [];

  const events = async (pod: string): Promise<EventJSON[]> =>
    (JSON.parse(await c.ok(['get', 'events', '-o', 'json', '--field-selector', `involvedObject.name=${pod}`])) as { items: EventJSON[] }).items;
  const containerID = async (pod: string) =>
    c.until(`${pod} running`, async () => {
      const p = await c.pod(pod);
      return p.status.phase === 'Running' ? p.status.containerStatuses?.[0]?.containerID?.replace(/^\w+:\/\//, '') : undefined;
    }, 90_000);
  const sandboxRefused = (pod: string, handler: string) =>
    c.until(`${pod}'s FailedCreatePodSandBox`, async () =>
      (await events(pod)).find((e) => e.reason === 'FailedCreatePodSandBox' && e.message === `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "${handler}" is configured`), 90_000);

  before(async () => {
    c = await startUp(['--node-memory', '4Gi', '--node-cpu', '2']);
    await c.ok(['apply', '-f', c.file('runtimeclasses.yaml', manifests)]);
    handlers = await c.until('the node reporting its runtime handlers', async () => {
      const node = JSON.parse(await c.ok(['get', 'node', c.nodeName, '-o', 'json'])) as { status: { runtimeHandlers?: { name: string }[] } };
      return node.status.runtimeHandlers?.map((h) => h.name);
    }, 60_000);
  });

  after(async () => {
    await c?.stop();
  });

  it('kubectl get runtimeclass prints NAME HANDLER AGE', async () => {
    const lines = (await c.ok(['get', 'runtimeclass'])).trim().split('\n').map((l) => l.trim().split(/\s+/).slice(0, 2));
    assert.deepEqual(lines, [['NAME', 'HANDLER'], ['crun', 'crun'], ['kata', 'kata'], ['runc', 'runc']]);
  });

  it('the Node lists runc (and crun where it runs) and the default under the empty name', () => {
    assert.ok(handlers.includes('runc') && handlers.includes(''), JSON.stringify(handlers));
  });

  it('runtimeClassName runc: Running under runc, with the class overhead in its spec and pod cgroup', async () => {
    const id = await containerID('on-runc');
    assert.ok(existsSync(join(c.dataDir, 'agent', 'state', 'runc', id)), `runc's state directory holds ${id}`);
    const p = await c.pod('on-runc');
    assert.deepEqual((p.spec as { overhead?: unknown }).overhead, { memory: '16Mi' });
    const memory = probeCgroups().v1.memory!;
    const podCgroup = join(memory, c.cgroupRoot, 'kubepods', 'burstable', `pod${p.metadata.uid}`);
    assert.equal(readFileSync(join(podCgroup, 'memory.limit_in_bytes'), 'utf8').trim(), String(48 * 1024 * 1024));
  });

  it('runtimeClassName crun: Running under crun where crun runs here, else its sandbox fails (this hybrid host)', async () => {
    if (handlers.includes('crun')) {
      const id = await containerID('on-crun');
      assert.ok(existsSync(join(c.dataDir, 'agent', 'state', 'crun', id)), `crun's state directory holds ${id}`);
      return;
    }
    console.error('test/e2e/runtimeclass.test: crun is no runtime handler on this host (crun refuses its cgroups; the agent says why at start): the crun pod must fail its sandbox');
    const e = await sandboxRefused('on-crun', 'crun');
    assert.equal(e.type, 'Warning');
  });

  it('a handler no runtime serves: Pending, ContainerCreating, FailedCreatePodSandBox from the kubelet', async () => {
    const e = await sandboxRefused('on-kata', 'kata');
    assert.equal(e.type, 'Warning');
    assert.equal(e.source?.component, 'kubelet');
    const p = await c.pod('on-kata');
    assert.equal(p.status.phase, 'Pending');
    assert.equal(p.status.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
  });
});
