// The pod worker and RuntimeClass handlers, on the fake runtime (harness.ts): a pod's
// runtimeClassName is looked up as the kubelet's createPodSandbox asks its RuntimeClass manager,
// a handler this node has a runtime for is written into every bundle of the pod (the annotation
// runtime/handlers.ts dispatches on), and one it has none for fails the sandbox with the
// kubelet's FailedCreatePodSandBox and containerd's error, nothing created, retried on the back-off.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeClass } from '../../../src/api/types.js';
import { runtimeHandlerAnnotation } from '../../../src/agent/runtime/handlers.js';
import { ctr, harness, initialMs, mkpod, running, type Harness } from './harness.js';

const classes: Record<string, RuntimeClass> = {
  crun: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'crun' }, handler: 'crun' },
  kata: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' },
};
const objects = {
  configMap: async () => null,
  secret: async () => null,
  runtimeClass: async (name: string) => classes[name] ?? null,
};

function bundleAnnotations(h: Harness, id: string): Record<string, string> {
  return (JSON.parse(readFileSync(join(h.worker.records.bundleDir(id), 'config.json'), 'utf8')) as { annotations: Record<string, string> }).annotations;
}

interface Row {
  rule: string;
  run(h: Harness): Promise<void>;
}

const rows: Row[] = [
  {
    rule: 'a handler the node has: sandbox and containers carry it, and the pod record keeps it for restarts',
    async run(h) {
      const pod = mkpod({ runtimeClassName: 'crun', containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      const uid = pod.metadata.uid!;
      assert.equal(bundleAnnotations(h, h.worker.sandboxID(uid, 0))[runtimeHandlerAnnotation], 'crun');
      assert.equal(bundleAnnotations(h, h.rt.running('c'))[runtimeHandlerAnnotation], 'crun');
      assert.equal(h.worker.records.readPod(uid)?.runtimeHandler, 'crun');
    },
  },
  {
    rule: 'no runtimeClassName: the default runtime, no handler annotation',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      assert.equal(bundleAnnotations(h, h.rt.running('c'))[runtimeHandlerAnnotation], undefined);
    },
  },
  {
    rule: 'a handler the node has no runtime for: FailedCreatePodSandBox with containerd\'s error, nothing created, retried on the back-off',
    async run(h) {
      const pod = mkpod({ runtimeClassName: 'kata', containers: [ctr('c')] });
      const r = await h.sync(pod);
      assert.ok(h.events.includes('Warning FailedCreatePodSandBox Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "kata" is configured'), h.events.join('\n'));
      assert.equal(r.nextSyncMs, initialMs);
      assert.equal(r.status.phase, 'Pending');
      assert.equal(r.status.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
      assert.deepEqual(h.rt.calls.filter((c) => c.op === 'runDetached' || c.op === 'startMonitored'), []);
      assert.deepEqual(h.worker.records.listInstances(pod.metadata.uid!), []);
      assert.deepEqual([...h.mounts.mounted], [], 'no container root was prepared');
      h.advance(initialMs);
      await h.sync(pod);
      assert.deepEqual(h.rt.calls.filter((c) => c.op === 'runDetached'), [], 'still no runtime on the retry');
    },
  },
  {
    rule: 'a RuntimeClass deleted since admission: the lister\'s NotFound fails the sandbox',
    async run(h) {
      const pod = mkpod({ runtimeClassName: 'gone', containers: [ctr('c')] });
      await h.sync(pod);
      assert.ok(h.events.includes('Warning FailedCreatePodSandBox Failed to create pod sandbox: runtimeclasses.node.k8s.io "gone" not found'), h.events.join('\n'));
    },
  },
];

describe('PodWorker: RuntimeClass handlers (fake runtime)', () => {
  for (const row of rows) {
    it(row.rule, { timeout: 120_000 }, async () => {
      const h = harness({ worker: { handlers: { runc: 'runc', crun: 'crun' }, objects } });
      try {
        await row.run(h);
      } finally {
        rmSync(h.dir, { recursive: true, force: true });
      }
    });
  }
});
