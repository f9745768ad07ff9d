// Ephemeral containers on the pod worker (fake runtime, cgroups and clock; harness.ts): added to a
// running pod they start once in its sandbox, in their target's PID namespace when they name one,
// are reported in ephemeralContainerStatuses and are never restarted; a target that is not
// running refuses the start as the kubelet's getTargetID does.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerStatus, EphemeralContainer, Pod, PodStatus } from '../../../src/api/types.js';
import { ctr, harness, mkpod, running, starts, type Harness } from './harness.js';

function ecs(status: PodStatus, name: string): ContainerStatus {
  const s = (status.ephemeralContainerStatuses ?? []).find((c) => c.name === name);
  assert.ok(s, `no ephemeral status for ${name}: ${JSON.stringify(status)}`);
  return s;
}

function debuggerOf(target?: string): EphemeralContainer {
  return { name: 'debugger', image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sh'], terminationMessagePolicy: 'File', ...(target ? { targetContainerName: target } : {}) };
}

/** The pod with the ephemeral container added, as the ephemeralcontainers subresource adds it. */
function withDebugger(pod: Pod, target?: string): Pod {
  return { ...pod, spec: { ...pod.spec, ephemeralContainers: [debuggerOf(target)] } };
}

function pidNamespace(h: Harness, id: string): { type: string; path?: string } | undefined {
  const spec = JSON.parse(readFileSync(join(h.opts.runDir, 'bundles', id, 'config.json'), 'utf8')) as { linux: { namespaces: { type: string; path?: string }[] } };
  return spec.linux.namespaces.find((n) => n.type === 'pid');
}

interface Row {
  rule: string;
  run(h: Harness): Promise<void>;
}

const rows: Row[] = [
  {
    rule: 'an ephemeral container with a target starts in the running pod, in the target container\'s PID namespace, and is reported running',
    async run(h) {
      let pod = mkpod({ containers: [ctr('app')] });
      await h.syncUntil(pod, running('app'), 'app running');
      const app = h.worker.records.readInstance(h.rt.running('app'))!;
      pod = withDebugger(pod, 'app');
      const st = (await h.sync(pod)).status;
      assert.ok(ecs(st, 'debugger').state?.running, JSON.stringify(st.ephemeralContainerStatuses));
      assert.equal(ecs(st, 'debugger').ready, false);
      assert.equal(ecs(st, 'debugger').started, undefined);
      assert.deepEqual(pidNamespace(h, h.rt.running('debugger')), { type: 'pid', path: `/proc/${app.pid}/ns/pid` });
      assert.ok(h.events.includes('Normal Started Started container debugger'), h.events.join('\n'));
      // Not among the regular containers' statuses, and the pod stays Running.
      assert.deepEqual(st.containerStatuses?.map((c) => c.name), ['app']);
      assert.equal(st.phase, 'Running');
    },
  },
  {
    rule: 'without a target an ephemeral container gets a PID namespace of its own',
    async run(h) {
      let pod = mkpod({ containers: [ctr('app')] });
      await h.syncUntil(pod, running('app'), 'app running');
      pod = withDebugger(pod);
      await h.sync(pod);
      assert.deepEqual(pidNamespace(h, h.rt.running('debugger')), { type: 'pid' });
    },
  },
  {
    rule: 'an ephemeral container that exited is never restarted, even under restartPolicy Always',
    async run(h) {
      let pod = mkpod({ restartPolicy: 'Always', containers: [ctr('app')] });
      await h.syncUntil(pod, running('app'), 'app running');
      pod = withDebugger(pod, 'app');
      await h.sync(pod);
      h.rt.exit(h.rt.running('debugger'), 3);
      let st = (await h.sync(pod)).status;
      for (let i = 0; i < 3; i++) st = (await h.sync(pod)).status;
      assert.equal(ecs(st, 'debugger').state?.terminated?.exitCode, 3);
      assert.equal(ecs(st, 'debugger').restartCount, 0);
      assert.deepEqual(starts(h).filter((n) => n === 'debugger'), ['debugger']);
    },
  },
  {
    rule: 'a target that is not running refuses the start: CreateContainerConfigError "unable to find target container"',
    async run(h) {
      let pod = mkpod({ restartPolicy: 'Never', containers: [ctr('app'), ctr('other')] });
      await h.syncUntil(pod, running('app', 'other'), 'app running');
      h.rt.exit(h.rt.running('app'), 0);
      await h.sync(pod);
      pod = withDebugger(pod, 'app');
      const st = (await h.sync(pod)).status;
      assert.deepEqual(ecs(st, 'debugger').state, { waiting: { reason: 'CreateContainerConfigError', message: 'unable to find target container app' } });
      assert.ok(h.events.includes('Warning Failed Error: unable to find target container app'), h.events.join('\n'));
      assert.ok(!starts(h).includes('debugger'));
    },
  },
  {
    rule: 'a pod stopped for good stops its running ephemeral container too',
    async run(h) {
      let pod = mkpod({ restartPolicy: 'Never', containers: [ctr('app')] });
      await h.syncUntil(pod, running('app'), 'app running');
      pod = withDebugger(pod, 'app');
      await h.sync(pod);
      h.rt.exit(h.rt.running('app'), 0);
      const out = await h.worker.terminate(pod, 0, () => undefined);
      assert.equal(out.done, true);
      assert.ok(ecs(out.status, 'debugger').state?.terminated, JSON.stringify(out.status.ephemeralContainerStatuses));
    },
  },
];

describe('PodWorker ephemeral containers (fake runtime and cgroups)', () => {
  for (const row of rows) {
    it(row.rule, { timeout: 120_000 }, async () => {
      const h = harness();
      try {
        await row.run(h);
      } finally {
        rmSync(h.dir, { recursive: true, force: true });
      }
    });
  }
});
