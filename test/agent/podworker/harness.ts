// The fake node the pod worker's sync rules run on (sync.test.ts): a PodWorker over
// FakeRuntime, FakeMounts and FakeCgroupManager (test/agent/fakes/) in a temporary directory,
// with a clock that moves only when a test moves it, and small pod builders.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFeatureGates } from '../../../src/api/featuregates.js';
import type { Container, ContainerStatus, Pod, PodSpec, PodStatus } from '../../../src/api/types.js';
import { formatReference, parseReference } from '../../../src/agent/images/reference.js';
import type { ImageRecord, ImageStore } from '../../../src/agent/images/store.js';
import type { BackoffConfig } from '../../../src/agent/lifecycle/backoff.js';
import { PodWorker, type PodWorkerOptions } from '../../../src/agent/podworker.js';
import type { HostProbe } from '../../../src/agent/runtime/hostprobe.js';
import type { CgroupVersion } from '../../../src/policy/cgroupvalues.js';
import { FakeCgroupManager } from '../fakes/cgroups.js';
import { FakeMounts, FakeRuntime } from '../fakes/runtime.js';

export const initialMs = 10_000;
export const start = Date.UTC(2026, 0, 1);

export interface Harness {
  worker: PodWorker;
  rt: FakeRuntime;
  cg: FakeCgroupManager;
  mounts: FakeMounts;
  opts: PodWorkerOptions;
  dir: string;
  events: string[];
  advance(ms: number): void;
  sync(pod: Pod): Promise<{ status: PodStatus; nextSyncMs?: number }>;
  /** Syncs until `until` holds (each sync is one step of the worker; no time passes). */
  syncUntil(pod: Pod, until: (s: PodStatus) => boolean, what: string): Promise<PodStatus>;
}

/** The harnesses' temporary directories, removed when the test file's process ends (each harness is used to the end of its test). */
const made: string[] = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

export function harness(o: { cgroupVersion?: CgroupVersion; backoff?: BackoffConfig; runtimeRequestTimeoutMs?: number; worker?: Partial<PodWorkerOptions> } = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-podworker-sync-'));
  made.push(dir);
  let t = start;
  const now = () => new Date(t);
  const cg = new FakeCgroupManager(join(dir, 'cgroup'), o.cgroupVersion ?? 1);
  mkdirSync(cg.root);
  const runDir = join(dir, 'run');
  const rt = new FakeRuntime(join(runDir, 'exits'), cg, now);
  const mounts = new FakeMounts();
  const image: ImageRecord = {
    id: `sha256:${'a'.repeat(64)}`,
    references: ['docker.io/library/busybox:latest'],
    repoDigests: [],
    config: { env: ['PATH=/bin'], entrypoint: null, cmd: ['sh'], workingDir: '', user: '', labels: {} },
    os: 'linux',
    architecture: 'amd64',
    diffIds: [],
    size: 0,
    rootfs: join(dir, 'image'),
    source: 'built',
    importedAt: new Date(start).toISOString(),
    skippedEntries: [],
  };
  // resolve() as the store's: a malformed reference throws InvalidReferenceError.
  const images = { resolve: async (ref: string) => (formatReference(parseReference(ref)) === image.references[0] ? image : undefined) } as unknown as ImageStore;
  const host: HostProbe = { cgroups: { mode: 'v1', memoryVersion: 1, v1: {}, unifiedControllers: [] }, minOomScoreAdj: -1000, capSysResource: true, limits: {} as HostProbe['limits'], hardRlimitCeilings: {}, swapControllerAvailable: true };
  const opts: PodWorkerOptions = {
    cgroupRoot: '/bulkhead-fake',
    stateDir: join(dir, 'state'),
    runDir,
    node: { memoryBytes: 8n << 30n, milliCPU: 4000n, cgroupVersion: o.cgroupVersion ?? 1, cgroupDriver: 'cgroupfs', hardRlimitCeilings: {} },
    host,
    gates: defaultFeatureGates,
    cgroups: cg,
    images,
    now,
    backoff: o.backoff ?? { initialMs, maxMs: 8 * initialMs },
    rootfs: join(dir, 'sandbox-rootfs'),
    containerRuntime: rt,
    mounts,
    ...(o.runtimeRequestTimeoutMs !== undefined ? { runtimeRequestTimeoutMs: o.runtimeRequestTimeoutMs } : {}),
    ...o.worker,
  };
  const events: string[] = [];
  const worker = new PodWorker(opts);
  const h: Harness = {
    worker,
    rt,
    cg,
    mounts,
    opts,
    dir,
    events,
    advance: (ms) => void (t += ms),
    sync: (pod) => h.worker.sync(pod, (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`)),
    async syncUntil(pod, until, what) {
      let last: PodStatus | undefined;
      for (let i = 0; i < 20; i++) {
        last = (await h.sync(pod)).status;
        if (until(last)) return last;
      }
      throw new Error(`${what}: not reached in 20 syncs; last status ${JSON.stringify(last, null, 1)}`);
    },
  };
  return h;
}

let seq = 0;
export function mkpod(spec: Partial<PodSpec>): Pod {
  const n = String(++seq).padStart(12, '0');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${seq}`, namespace: 'default', uid: `00000000-0000-4000-8000-${n}` },
    spec: { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, containers: [], ...spec },
  } as Pod;
}

export function ctr(name: string, extra: Partial<Container> = {}): Container {
  return { name, image: 'busybox', imagePullPolicy: 'IfNotPresent', command: ['sh'], resources: { requests: { cpu: '50m', memory: '16Mi' }, limits: { memory: '64Mi' } }, ...extra };
}

export function cs(status: PodStatus, name: string): ContainerStatus {
  const s = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])].find((c) => c.name === name);
  assert.ok(s, `no status for ${name}: ${JSON.stringify(status)}`);
  return s;
}

export const running = (...names: string[]) => (s: PodStatus) => names.every((n) => cs(s, n).state?.running !== undefined);
export const deleting = (pod: Pod) => void (pod.metadata.deletionTimestamp = new Date(start).toISOString());
export const starts = (h: Harness) => h.rt.calls.filter((c) => c.op === 'startMonitored').map((c) => c.name);
