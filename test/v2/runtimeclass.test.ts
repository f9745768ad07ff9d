// RuntimeClass handlers where both runtimes run: `bulkhead up` inside scripts/vm.sh's pure
// cgroup v2 guest, where crun is the default runtime and runc a handler too, so one agent runs
// pods under both (src/agent/runtime/handlers.ts). A pod whose class names `runc` and one whose
// class names `crun` run, each container in its own runtime's state directory and not in the
// other's; the Node lists both handlers; a handler no runtime serves fails the sandbox as on the
// host. Waits poll; their deadlines only bound a hang (TCG is slow).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlAvailable } from '../e2e/cluster.js';
import { startUp, type UpCluster } from '../e2e/upcluster.js';
import { skipUnlessV2 } from './guest.js';

const skip = skipUnlessV2('test/v2/runtimeclass.test');
if (!skip.skip) {
  const k = kubectlAvailable();
  if (k) Object.assign(skip, { skip: k });
}

const WAIT = 300_000;
const handlers = ['runc', 'crun', 'kata'];
const manifests = handlers
  .map(
    (h) => `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: ${h}}
handler: ${h}
---
apiVersion: v1
kind: Pod
metadata: {name: on-${h}}
spec:
  runtimeClassName: ${h}
  terminationGracePeriodSeconds: 1
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
    resources: {limits: {memory: 32Mi}}
`,
  )
  .join('---\n');

describe('RuntimeClass handlers runc and crun on cgroup v2', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp(['--node-memory', '2Gi', '--node-cpu', '2'], { startTimeoutMs: WAIT });
    await c.ok(['apply', '-f', c.file('runtimeclasses.yaml', manifests)]);
  });

  after(async () => {
    await c?.stop();
  });

  it('the Node lists both handlers and the default, which is crun here', async () => {
    const node = await c.until('the node reporting its runtime handlers', async () => {
      const n = JSON.parse(await c.ok(['get', 'node', c.nodeName, '-o', 'json'])) as { status: { runtimeHandlers?: { name: string }[]; nodeInfo: { containerRuntimeVersion: string } } };
      return n.status.runtimeHandlers ? n : undefined;
    }, WAIT);
    assert.deepEqual(node.status.runtimeHandlers!.map((h) => h.name), ['runc', 'crun', '']);
    assert.match(node.status.nodeInfo.containerRuntimeVersion, /^crun:\/\//);
  });

  for (const [handler, other] of [['runc', 'crun'], ['crun', 'runc']] as const) {
    it(`runtimeClassName ${handler}: Running, its container in ${handler}'s state directory only`, async () => {
      const id = await c.until(`on-${handler} running`, async () => {
        const p = await c.pod(`on-${handler}`);
        return p.status.phase === 'Running' ? p.status.containerStatuses?.[0]?.containerID?.replace(/^\w+:\/\//, '') : undefined;
      }, WAIT);
      const state = join(c.dataDir, 'agent', 'state');
      assert.ok(existsSync(join(state, handler, id)), `${handler} knows ${id}`);
      assert.ok(!existsSync(join(state, other, id)), `${other} does not know ${id}`);
      assert.ok((await c.ok(['exec', `on-${handler}`, '--', 'echo', 'inside'])).includes('inside'));
    });
  }

  it('a handler no runtime serves: FailedCreatePodSandBox', async () => {
    await c.until('on-kata\'s FailedCreatePodSandBox', async () => {
      const list = JSON.parse(await c.ok(['get', 'events', '-o', 'json', '--field-selector', 'involvedObject.name=on-kata'])) as { items: { reason: string; message: string }[] };
      return list.items.find((e) => e.reason === 'FailedCreatePodSandBox' && e.message.endsWith('failed to get sandbox runtime: no runtime for "kata" is configured'));
    }, WAIT);
  });
});
