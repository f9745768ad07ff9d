// RuntimeClass handlers on the real kernel: a PodWorker whose handlers are what this host's
// runtimes allow (runtimeHandlers: runc, and crun where it runs; crun refuses this CI host's
// hybrid cgroups) runs a pod whose RuntimeClass names `runc` under runc, one naming `crun`
// under crun where crun is usable (else its sandbox fails as for any handler without a runtime,
// and the test says why), and fails the sandbox of a pod whose class names a handler no runtime
// serves, with the kubelet's event and containerd's error, leaving nothing behind. Which runtime
// ran a container is read from the runtimes' own state directories. Needs root, runc, conmon,
// mount and a cgroup v1 memory hierarchy, as test/agent/podworker.test.ts; cgroups live below
// /<hierarchy>/bulkhead-test-<random>/ and are removed in `after`.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { probeHost } from '../../src/agent/runtime/hostprobe.js';
import { cgroupManagerFor } from '../../src/agent/cgroups/select.js';
import { ImageStore } from '../../src/agent/images/store.js';
import { ensureBusyboxImage } from '../../src/agent/images/busybox.js';
import { PodWorker, type EventSink } from '../../src/agent/podworker.js';
import { chooseOCIRuntime, probeRuntimeCandidate, runtimeHandlers } from '../../src/agent/runtime/runtimechoice.js';
import { which } from '../../src/agent/monitor/conmon.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod, PodStatus, RuntimeClass } from '../../src/api/types.js';
import { realKernelSkipReason } from './cgrouptrees.js';
import { cleanUpRealWorker } from './workercleanup.js';

const reason = realKernelSkipReason(['runc', 'conmon', 'mount', 'umount']);
if (reason) console.error(`test/agent/runtimeclass.test: SKIPPING real-kernel RuntimeClass tests: ${reason}`);
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const classes: Record<string, RuntimeClass> = Object.fromEntries(
  ['runc', 'crun', 'kata'].map((h) => [`${h}-class`, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: `${h}-class` }, handler: h }]),
);

const pods: Pod[] = [];
function mkpod(name: string, runtimeClassName: string): Pod {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}` },
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 1,
      runtimeClassName,
      containers: [{ name: 'c', image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; sleep 1000 & wait'], resources: { limits: { memory: '32Mi' } } }],
    },
  } as Pod;
  pods.push(pod);
  return pod;
}

describe('RuntimeClass handlers on this host (real kernel)', reason ? { skip: reason } : {}, () => {
  let base = '';
  let worker: PodWorker;
  let stateDir = '';
  let usable: string[] = [];
  let crunRefused = '';
  const events: string[] = [];
  const sink: EventSink = (_pod, type, r, message) => void events.push(`${type} ${r} ${message}`);

  async function converge(pod: Pod, until: (s: PodStatus) => boolean, what: string): Promise<PodStatus> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await worker.sync(pod, sink);
      if (until(r.status)) return r.status;
      if (Date.now() > deadline) throw new Error(`${pod.metadata.name}: ${what} not reached in 60 s; last status ${JSON.stringify(r.status)}`);
      await sleep(Math.min(r.nextSyncMs ?? 20, 20));
    }
  }
  const running = (s: PodStatus) => s.containerStatuses?.[0]?.state?.running !== undefined;
  const containerID = (pod: Pod) => worker.records.listInstances(pod.metadata.uid!).find((r) => r.kind === 'container' && r.state === 'running')!.id;

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-runtimeclass-test-'));
    stateDir = join(base, 'state');
    const images = new ImageStore(join(base, 'images'));
    await ensureBusyboxImage(images);
    const host = await probeHost();
    const candidates = { runc: probeRuntimeCandidate('runc', which), crun: probeRuntimeCandidate('crun', which) };
    const def = chooseOCIRuntime('auto', host.cgroups, candidates);
    if (def instanceof Error) throw def;
    const handlers = runtimeHandlers(host.cgroups, candidates);
    usable = handlers.usable.map((r) => r.name);
    crunRefused = handlers.refused.find((r) => r.name === 'crun')?.reason ?? '';
    console.error(`runtimeclass test: default runtime ${def.name}; handlers ${usable.join(', ')}${crunRefused ? `; crun: ${crunRefused}` : ''}`);
    worker = new PodWorker({
      cgroupRoot: `/${top}`,
      stateDir,
      runDir: join(base, 'run'),
      node: { memoryBytes: BigInt(totalmem()), milliCPU: BigInt(availableParallelism()) * 1000n, cgroupVersion: host.cgroups.memoryVersion, cgroupDriver: 'cgroupfs', hardRlimitCeilings: host.hardRlimitCeilings, swapControllerAvailable: host.swapControllerAvailable },
      host,
      gates: defaultFeatureGates,
      cgroups: cgroupManagerFor(host.cgroups),
      images,
      backoff: { initialMs: 200, maxMs: 800 },
      runtime: def.binary,
      handlers: Object.fromEntries(handlers.usable.map((r) => [r.name, r.binary])),
      objects: { configMap: async () => null, secret: async () => null, runtimeClass: async (name) => classes[name] ?? null },
    });
  });

  after(async () => {
    if (reason) return;
    await cleanUpRealWorker(worker, pods, base, top);
  });

  it('runtimeClassName naming handler runc: the pod runs, its container in runc\'s state directory', async () => {
    assert.ok(usable.includes('runc'), 'runc is a handler wherever the agent runs');
    const pod = mkpod('with-runc', 'runc-class');
    await converge(pod, running, 'c running');
    const id = containerID(pod);
    assert.ok(existsSync(join(stateDir, 'runc', id)), `runc knows ${id}`);
    assert.ok(!existsSync(join(stateDir, 'crun', id)), 'crun does not');
    assert.equal(worker.records.readPod(pod.metadata.uid!)?.runtimeHandler, 'runc');
  });

  it('runtimeClassName naming handler crun: under crun where crun runs here, else no runtime for "crun"', async () => {
    const pod = mkpod('with-crun', 'crun-class');
    if (usable.includes('crun')) {
      await converge(pod, running, 'c running');
      const id = containerID(pod);
      assert.ok(existsSync(join(stateDir, 'crun', id)), `crun knows ${id}`);
      assert.ok(!existsSync(join(stateDir, 'runc', id)), 'runc does not');
      return;
    }
    console.error(`runtimeclass test: crun is no handler on this host (${crunRefused}); its pod's sandbox must fail`);
    await worker.sync(pod, sink);
    assert.ok(events.includes('Warning FailedCreatePodSandBox Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "crun" is configured'), events.join('\n'));
  });

  it('a handler no runtime serves: FailedCreatePodSandBox, the pod Pending in ContainerCreating, nothing created', async () => {
    const pod = mkpod('with-kata', 'kata-class');
    const r = await worker.sync(pod, sink);
    assert.ok(events.includes('Warning FailedCreatePodSandBox Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "kata" is configured'), events.join('\n'));
    assert.equal(r.status.phase, 'Pending');
    assert.equal(r.status.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
    assert.deepEqual(worker.records.listInstances(pod.metadata.uid!), []);
    const uidPrefix = pod.metadata.uid!;
    assert.deepEqual((await worker.runtime.list()).filter((c) => c.id.startsWith(uidPrefix)), []);
  });
});
