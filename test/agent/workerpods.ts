// The pods and containers the kernel tests run on a real PodWorker (podworker, hooks, probes):
// pods with a fresh uid and a one-second grace, recorded for the clean-up (workercleanup.ts),
// busybox containers running a script under sh, and the sync loop that waits for a state.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { cgroupManagerFor } from '../../src/agent/cgroups/select.js';
import { ensureBusyboxImage } from '../../src/agent/images/busybox.js';
import { ImageStore } from '../../src/agent/images/store.js';
import type { EventSink, PodWorker } from '../../src/agent/podworker.js';
import type { PodWorkerOptions } from '../../src/agent/podworker/context.js';
import { probeHost } from '../../src/agent/runtime/hostprobe.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Container, ContainerStatus, Pod, PodSpec, PodStatus } from '../../src/api/types.js';

/**
 * A real PodWorker's options on this host: its directories in `base`, its pods' cgroups under
 * `/<top>` (the test's own), the busybox image, back-off shortened to 200–800 ms.
 */
export async function realWorkerOptions(base: string, top: string): Promise<PodWorkerOptions> {
  const images = new ImageStore(join(base, 'images'));
  await ensureBusyboxImage(images);
  const host = await probeHost();
  return {
    cgroupRoot: `/${top}`,
    stateDir: join(base, 'state'),
    runDir: join(base, 'run'),
    node: { memoryBytes: BigInt(totalmem()), milliCPU: BigInt(availableParallelism()) * 1000n, cgroupVersion: 1, cgroupDriver: 'cgroupfs', hardRlimitCeilings: host.hardRlimitCeilings, swapControllerAvailable: host.swapControllerAvailable, ...(host.nrOpen !== undefined ? { nrOpen: host.nrOpen } : {}) },
    host,
    gates: defaultFeatureGates,
    cgroups: cgroupManagerFor(host.cgroups),
    images,
    backoff: { initialMs: 200, maxMs: 800 },
  };
}

/** A pod factory and every pod it made, for the file's clean-up. */
export function podMaker(): { pods: Pod[]; mkpod: (name: string, spec: Partial<PodSpec>) => Pod } {
  const pods: Pod[] = [];
  const mkpod = (name: string, spec: Partial<PodSpec>): Pod => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', uid: `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}` },
      spec: { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [], ...spec },
    } as Pod;
    pods.push(pod);
    return pod;
  };
  return { pods, mkpod };
}

/** A busybox container running `script` under sh; it exits 0 on SIGTERM unless the script traps otherwise. */
export function bb(name: string, script: string, extra: Partial<Container> = {}): Container {
  return { name, image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', script], resources: { requests: { cpu: '50m', memory: '16Mi' }, limits: { memory: '64Mi' } }, ...extra };
}

/** The status of container `name` (init or regular); fails the test when there is none. */
export function cs(status: PodStatus, name: string): ContainerStatus {
  const s = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])].find((c) => c.name === name);
  assert.ok(s, `no status for ${name}: ${JSON.stringify(status)}`);
  return s;
}

/** Every event a worker recorded (its syncs' and its probes'), by pod name, and the sink that records them. */
export function eventLog(): { sink: EventSink; evs: (pod: Pod) => string[] } {
  const events = new Map<string, string[]>();
  const sink: EventSink = (pod, type, reason, message) => {
    const k = pod.metadata.name ?? '';
    events.set(k, [...(events.get(k) ?? []), `${type} ${reason} ${message}`]);
  };
  return { sink, evs: (pod) => events.get(pod.metadata.name ?? '') ?? [] };
}

/** Syncs `pod` (as the agent does on exits, timers and probe results) until `until` holds; fails after `timeoutMs`. */
export async function converge(worker: PodWorker, log: ReturnType<typeof eventLog>, pod: Pod, until: (s: PodStatus) => boolean, what: string, timeoutMs = 90_000): Promise<PodStatus> {
  const deadline = Date.now() + timeoutMs;
  let last: PodStatus | undefined;
  for (;;) {
    const r = await worker.sync(pod, log.sink);
    last = r.status;
    if (until(r.status)) return r.status;
    if (Date.now() > deadline) throw new Error(`pod ${pod.metadata.name}: ${what} did not happen in ${timeoutMs} ms; events ${JSON.stringify(log.evs(pod))}; last status ${JSON.stringify(last, null, 1)}`);
    await new Promise<void>((r) => setTimeout(r, 50));
  }
}
