// PodWorker on the real kernel: pods run as runc containers under conmon in a busybox sandbox,
// from the local image store (the host-busybox image), observed from the host side, stopped and
// removed. Needs root, runc, conmon, mount, /bin/busybox (scripts/install-host-deps.sh) and a
// cgroup v1 memory hierarchy; otherwise the tests skip and say why on stderr. Every cgroup lives
// below /<hierarchy>/bulkhead-test-<random>/ and is removed in `after`; images, bundles, runc
// state, logs and exit files live under one os.tmpdir() directory. The tests run concurrently,
// each with its own pod; the back-off is shortened to 200 ms doubling to 800 ms.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { probeCgroups, probeHost, type HostProbe } from '../../src/agent/runtime/hostprobe.js';
import { readLogs } from '../../src/agent/monitor/conmon.js';
import { mountPoints } from '../../src/agent/runtime/overlay.js';
import { CgroupV1Manager } from '../../src/agent/cgroups/v1.js';
import { cgroupManagerFor } from '../../src/agent/cgroups/select.js';
import { ImageStore } from '../../src/agent/images/store.js';
import { ensureBusyboxImage } from '../../src/agent/images/busybox.js';
import { PodWorker, type EventSink, type PodWorkerOptions } from '../../src/agent/podworker.js';
import type { NodeConfig } from '../../src/plan/node.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Container, Pod, PodSpec, PodStatus } from '../../src/api/types.js';
import { groupRequiresCgroupV2 } from '../../src/policy/oomkillmode.js';
import { hierarchyRoots, realKernelSkipReason } from './cgrouptrees.js';
import { cleanUpRealWorker } from './workercleanup.js';
import { bb, cs, podMaker } from './workerpods.js';

const reason = realKernelSkipReason(['runc', 'conmon', 'mount', 'umount']);
if (reason) console.error(`test/agent/podworker.test: SKIPPING real-kernel PodWorker tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const gates = defaultFeatureGates;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Ev {
  at: number;
  type: string;
  reason: string;
  message: string;
}

function recorder(): { sink: EventSink; events: Ev[]; reasons: () => string[] } {
  const events: Ev[] = [];
  return {
    events,
    sink: (_pod, type, reason, message) => events.push({ at: Date.now(), type, reason, message }),
    reasons: () => events.map((e) => `${e.reason} ${e.message}`),
  };
}

const { pods, mkpod } = podMaker();

const forever = 'trap "exit 0" TERM; sleep 1000 & wait';

function cond(status: PodStatus, type: string) {
  return status.conditions?.find((c) => c.type === type);
}

describe('PodWorker on this host (real kernel)', { ...opts, concurrency: true }, () => {
  let base = '';
  let host: HostProbe;
  let node: NodeConfig;
  let images: ImageStore;
  let worker: PodWorker;
  /**
   * Same directories, a 1 s back-off and a clock that moves only when the test moves it: for
   * assertions about what happens within a back-off, however long a busy machine takes per sync.
   */
  let slow: PodWorker;
  let slowClock = 0;
  let wopts: PodWorkerOptions;
  const configErrors = { n: 0 };
  const configured: { mode: string; seconds: number }[] = [];

  /** Syncs (as the agent does on exits and timers) until `until` holds. */
  async function converge(w: PodWorker, pod: Pod, sink: EventSink, until: (s: PodStatus) => boolean, timeoutMs = 60_000): Promise<PodStatus> {
    const deadline = Date.now() + timeoutMs;
    let last: PodStatus | undefined;
    for (;;) {
      const r = await w.sync(pod, sink);
      last = r.status;
      if (until(r.status)) return r.status;
      if (Date.now() > deadline) throw new Error(`pod ${pod.metadata.name} did not converge in ${timeoutMs} ms; last status ${JSON.stringify(last, null, 1)}`);
      await sleep(Math.min(r.nextSyncMs ?? 20, 20));
    }
  }

  function instances(uid: string) {
    return worker.records.listInstances(uid);
  }

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-podworker-test-'));
    images = new ImageStore(join(base, 'images'));
    const t0 = Date.now();
    await ensureBusyboxImage(images);
    host = await probeHost();
    console.error(`podworker test: busybox image + host probe in ${Date.now() - t0} ms; top ${top}, min oom_score_adj ${host.minOomScoreAdj}`);
    node = {
      memoryBytes: BigInt(totalmem()),
      milliCPU: BigInt(availableParallelism()) * 1000n,
      cgroupVersion: 1,
      cgroupDriver: 'cgroupfs',
      hardRlimitCeilings: host.hardRlimitCeilings,
      swapControllerAvailable: host.swapControllerAvailable,
      ...(host.nrOpen !== undefined ? { nrOpen: host.nrOpen } : {}),
    };
    wopts = {
      cgroupRoot: `/${top}`,
      stateDir: join(base, 'state'),
      runDir: join(base, 'run'),
      node,
      host,
      gates,
      cgroups: cgroupManagerFor(host.cgroups),
      images,
      backoff: { initialMs: 200, maxMs: 800 },
      metrics: { configured: (mode, seconds) => configured.push({ mode, seconds }), configError: () => configErrors.n++ },
    };
    worker = new PodWorker(wopts);
    slowClock = Date.now();
    slow = new PodWorker({ ...wopts, backoff: { initialMs: 1000, maxMs: 4000 }, now: () => new Date(slowClock) });
  });

  after(async () => {
    if (reason) return;
    await cleanUpRealWorker(worker, pods, base, top, { cgroupsBelowTop: true });
  });

  it('init containers run one at a time in order, then the regular container, in the sandbox\'s network/IPC/UTS namespaces with loopback up', async () => {
    const rec = recorder();
    const work = [{ name: 'work', mountPath: '/work' }];
    const pod = mkpod('inits', {
      volumes: [{ name: 'work', emptyDir: {} }],
      // i1 waits for the test's go-ahead, not for a time: a first sync slowed by a busy machine
      // must still find it running.
      initContainers: [bb('i1', 'until [ -e /work/go ]; do sleep 0.05; done; echo one >> /work/order', { volumeMounts: work }), bb('i2', 'echo two >> /work/order', { volumeMounts: work })],
      containers: [
        bb('main', `ip link show lo; echo written > /hello; cat /hello; cat /work/order; echo $GREETING; ${forever}`, {
          volumeMounts: work,
          env: [{ name: 'GREETING', value: 'hello from $(POD)' }],
          securityContext: { ulimits: [{ name: 'nofile', soft: 2048, hard: 4096 }] },
        }),
      ],
    });
    pod.spec.containers[0]!.env!.unshift({ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    const uid = pod.metadata.uid!;
    const t0 = Date.now();
    const first = (await worker.sync(pod, rec.sink)).status;
    console.error(`podworker test: first sync (sandbox + first init container) in ${Date.now() - t0} ms`);
    assert.equal(first.phase, 'Pending');
    assert.ok(cs(first, 'i1').state?.running, JSON.stringify(cs(first, 'i1')));
    assert.deepEqual(cs(first, 'i2').state, { waiting: { reason: 'PodInitializing' } });
    assert.deepEqual(cs(first, 'main').state, { waiting: { reason: 'PodInitializing' } });
    assert.equal(cond(first, 'PodReadyToStartContainers')?.status, 'True');
    assert.deepEqual(
      { ...cond(first, 'Initialized'), lastTransitionTime: undefined },
      { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [i1 i2]', lastProbeTime: null, lastTransitionTime: undefined },
    );
    assert.equal(first.qosClass, 'Burstable');

    writeFileSync(join(base, 'run', 'pods', uid, 'volumes', 'work', 'go'), '');
    const st = await converge(worker, pod, rec.sink, (s) => cs(s, 'main').state?.running !== undefined);
    assert.equal(st.phase, 'Running');
    for (const n of ['i1', 'i2']) {
      assert.equal(cs(st, n).state?.terminated?.exitCode, 0);
      assert.equal(cs(st, n).state?.terminated?.reason, 'Completed');
      assert.equal(cs(st, n).ready, true);
    }
    assert.deepEqual(st.conditions?.map((c) => `${c.type}=${c.status}`), ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'bulkhead.dev/OOMKillMode=True']);
    const started = rec.events.filter((e) => e.reason === 'Started').map((e) => e.message);
    assert.deepEqual(started, ['Started container i1', 'Started container i2', 'Started container main']);
    const i1Done = Date.parse(cs(st, 'i1').state!.terminated!.finishedAt!);
    assert.ok(Date.parse(cs(st, 'i2').state!.terminated!.startedAt!) >= i1Done, 'i2 started after i1 finished');
    assert.ok(rec.reasons().includes('Pulled Container image "busybox" already present on machine'), rec.reasons().join('\n'));
    assert.ok(rec.reasons().includes('Created Created container: main'));
    assert.equal(cs(st, 'main').image, 'busybox');
    assert.match(cs(st, 'main').imageID, /^sha256:[0-9a-f]{64}$/);
    assert.equal(cs(st, 'main').containerID, `runc://${uid}-main-0`);

    // Namespaces: main joined the sandbox's net/ipc/uts, has its own pid and mount namespaces.
    const recs = instances(uid);
    const sb = recs.find((r) => r.kind === 'sandbox')!;
    const main = recs.find((r) => r.container === 'main')!;
    for (const ns of ['net', 'ipc', 'uts']) assert.equal(readlinkSync(`/proc/${main.pid}/ns/${ns}`), readlinkSync(`/proc/${sb.pid}/ns/${ns}`), ns);
    for (const ns of ['pid', 'mnt']) assert.notEqual(readlinkSync(`/proc/${main.pid}/ns/${ns}`), readlinkSync(`/proc/${sb.pid}/ns/${ns}`), ns);
    assert.equal(readFileSync(`/proc/${sb.pid}/oom_score_adj`, 'utf8').trim(), String(Math.max(-998, host.minOomScoreAdj)));
    const podPath = worker.podCgroupPath(pod);
    assert.match(readFileSync(`/proc/${main.pid}/cgroup`, 'utf8'), new RegExp(`^\\d+:memory:${podPath}/${uid}-main-0$`, 'm'));
    // The plan's values: pod cgroup, container limit, oom_score_adj, rlimits.
    const plan = worker.plan(pod);
    assert.equal(podPath, `/${top}${plan.podCgroup.path}`);
    assert.deepEqual(new CgroupV1Manager().readBack(podPath, plan.podCgroup.values), plan.podCgroup.values);
    assert.equal(readFileSync(join(host.cgroups.v1.memory!, podPath, `${uid}-main-0`, 'memory.limit_in_bytes'), 'utf8').trim(), String(64 * 1024 * 1024));
    // The kubelet's NoSwap: memory+swap capped at the memory limit where the kernel accounts swap.
    if (host.swapControllerAvailable) assert.equal(readFileSync(join(host.cgroups.v1.memory!, podPath, `${uid}-main-0`, 'memory.memsw.limit_in_bytes'), 'utf8').trim(), String(64 * 1024 * 1024));
    const mainPlan = plan.containers.find((p) => p.name === 'main')!;
    assert.ok(mainPlan.oomScoreAdj >= 3 && mainPlan.oomScoreAdj <= 999);
    assert.equal(readFileSync(`/proc/${main.pid}/oom_score_adj`, 'utf8').trim(), String(mainPlan.oomScoreAdj));
    assert.match(readFileSync(`/proc/${main.pid}/limits`, 'utf8'), /^Max open files\s+2048\s+4096\s+files\s*$/m);
    assert.match(readFileSync(`/proc/${sb.pid}/cgroup`, 'utf8'), new RegExp(`^\\d+:memory:${podPath}/${uid}-POD-0$`, 'm'));

    // Loopback is up; the root is writable and writes land in the overlay's upper layer only.
    let logs = '';
    for (let i = 0; i < 1500 && !(logs = readLogs(worker.logPath('default', 'inits', 'main', false) ?? '/nonexistent')).includes('hello from'); i++) await sleep(20);
    assert.match(logs, /^1: lo: <LOOPBACK,UP,LOWER_UP>/m);
    assert.match(logs, /^written\none\ntwo\nhello from inits\n/m, 'emptyDir shared in order; env expanded');
    assert.equal(readFileSync(join(worker.records.bundleDir(main.id), 'overlay', 'upper', 'hello'), 'utf8'), 'written\n');
    assert.equal(existsSync(join((await images.resolve('busybox'))!.rootfs, 'hello')), false);
    assert.ok(worker.logPath('default', 'inits', 'main', false)!.endsWith(`/logs/default_inits_${uid}/main/0.log`));
    assert.equal(worker.logPath('default', 'inits', 'main', true), undefined);

    // containerByMemcg, as the OOM watcher will ask.
    const owner = worker.containerByMemcg(`${podPath}/${uid}-main-0`);
    assert.deepEqual(owner, {
      podUID: uid,
      namespace: 'default',
      pod: 'inits',
      container: 'main',
      containerID: `runc://${uid}-main-0`,
      oomKillMode: 'Single',
      emulated: false,
      cgroupDir: join(host.cgroups.v1.memory!, podPath, `${uid}-main-0`),
    });
    assert.ok(existsSync(owner.cgroupDir));
    assert.equal(worker.containerByMemcg(`${podPath}/${uid}-POD-0`), undefined);
    assert.ok(configured.some((c) => c.mode === 'Single' && c.seconds > 0));

    // A sync with nothing to do starts nothing and emits nothing.
    const before = rec.events.length;
    const again = (await worker.sync(pod, rec.sink)).status;
    assert.equal(rec.events.length, before);
    assert.equal(cs(again, 'main').containerID, `runc://${uid}-main-0`);
  });

  it('a sidecar starts first and keeps running beside the main container; when a Never pod\'s main container exits the sidecar is stopped and the pod Succeeds', async () => {
    const rec = recorder();
    // main exits when the test says so, not after a time a slow sync could miss it running in.
    const pod = mkpod('sidecar', {
      restartPolicy: 'Never',
      volumes: [{ name: 'work', emptyDir: {} }],
      initContainers: [bb('side', forever, { restartPolicy: 'Always' })],
      containers: [bb('main', 'until [ -e /work/go ]; do sleep 0.05; done; exit 0', { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
    });
    const running = await converge(worker, pod, rec.sink, (s) => cs(s, 'main').state?.running !== undefined);
    const side = cs(running, 'side');
    assert.ok(side.state?.running, JSON.stringify(side));
    assert.equal(side.started, true);
    assert.equal(side.ready, true);
    assert.equal(running.initContainerStatuses?.length, 1);
    assert.equal(running.phase, 'Running');
    assert.equal(cond(running, 'Initialized')?.status, 'True');

    // Succeeded is reported as soon as main has exited; the sidecar and the sandbox stop after
    // it, within one sync or over several on a busy machine: wait for the sandbox to be down.
    writeFileSync(join(base, 'run', 'pods', pod.metadata.uid!, 'volumes', 'work', 'go'), '');
    const done = await converge(worker, pod, rec.sink, (s) => s.phase === 'Succeeded' && cond(s, 'PodReadyToStartContainers')?.status === 'False');
    assert.equal(cs(done, 'main').state?.terminated?.reason, 'Completed');
    assert.equal(cs(done, 'side').state?.terminated?.exitCode, 0);
    assert.ok(rec.reasons().includes('Killing Stopping container side'), rec.reasons().join('\n'));
    assert.deepEqual({ ...cond(done, 'Ready'), lastTransitionTime: undefined }, { type: 'Ready', status: 'False', reason: 'PodCompleted', lastProbeTime: null, lastTransitionTime: undefined });
    assert.equal(cond(done, 'PodReadyToStartContainers')?.status, 'False');
    assert.ok(instances(pod.metadata.uid!).every((r) => r.state === 'exited'));
    // Terminal: later syncs start nothing.
    await sleep(50);
    const later = (await worker.sync(pod, rec.sink)).status;
    assert.equal(later.phase, 'Succeeded');
    assert.equal(cs(later, 'main').restartCount, 0);
    assert.ok(instances(pod.metadata.uid!).every((r) => r.state === 'exited'));
  });

  it('restartPolicy Always: an exiting container restarts with a growing back-off, CrashLoopBackOff in the kubelet\'s words; logs of the current and previous instance', async () => {
    const rec = recorder();
    const pod = mkpod('crash', { containers: [bb('c', 'echo attempt; exit 1')] });
    const uid = pod.metadata.uid!;
    const st = await converge(worker, pod, rec.sink, (s) => cs(s, 'c').state?.waiting?.reason === 'CrashLoopBackOff' && cs(s, 'c').restartCount >= 2);
    const c = cs(st, 'c');
    // Which doubling of 200 ms is seen first depends on how fast the syncs come; the wording does not.
    assert.match(c.state!.waiting!.message!, new RegExp(`^back-off (\\d+ms|[\\d.]+s|\\d+m[\\d.]+s) restarting failed container=c pod=crash_default\\(${uid}\\)$`));
    assert.equal(c.lastState?.terminated?.exitCode, 1);
    assert.equal(c.lastState?.terminated?.reason, 'Error');
    assert.equal(c.lastState?.terminated?.containerID, `runc://${uid}-c-${c.restartCount}`);
    assert.equal(c.ready, false);
    assert.equal(st.phase, 'Running');
    assert.deepEqual({ ...cond(st, 'ContainersReady'), lastTransitionTime: undefined }, { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [c]', lastProbeTime: null, lastTransitionTime: undefined });

    const more = await converge(worker, pod, rec.sink, (s) => cs(s, 'c').restartCount >= 4);
    const starts = rec.events.filter((e) => e.reason === 'Started').map((e) => e.at);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    console.error(`podworker test: restart gaps ${gaps.join(' ')} ms`);
    assert.ok(gaps[2]! >= 200 && gaps[3]! >= 400, `back-off grows: ${gaps.join(' ')}`);
    const backoffs = rec.events.filter((e) => e.reason === 'BackOff');
    // One per sync that found the container backing off: at least the CrashLoopBackOff seen above;
    // how many more depends on how often a busy machine syncs within a back-off.
    assert.ok(backoffs.length >= 1 && backoffs.length <= cs(more, 'c').restartCount, `${backoffs.length} BackOff events`);
    assert.ok(backoffs.every((e) => e.type === 'Warning' && e.message === `Back-off restarting failed container c in pod crash_default(${uid})`));
    // At most the current and the last terminated instance are kept.
    assert.ok(instances(uid).filter((r) => r.kind !== 'sandbox').length <= 2);
    const prev = worker.logPath('default', 'crash', 'c', true);
    assert.ok(prev, 'previous log');
    assert.equal(readLogs(prev), 'attempt\n');
  });

  it('OnFailure: a container that exits 0 makes the pod Succeeded; Never: one that exits 2 makes it Failed', async () => {
    const recA = recorder();
    const ok = mkpod('onfailure', { restartPolicy: 'OnFailure', containers: [bb('c', 'exit 0')] });
    const recB = recorder();
    const bad = mkpod('never', { restartPolicy: 'Never', containers: [bb('c', 'exit 2')] });
    // The phase is reported before the sandbox is down: wait for both.
    const sandboxDown = (s: PodStatus) => cond(s, 'PodReadyToStartContainers')?.status === 'False';
    const [a, b] = await Promise.all([
      converge(worker, ok, recA.sink, (s) => s.phase === 'Succeeded' && sandboxDown(s)),
      converge(worker, bad, recB.sink, (s) => s.phase === 'Failed' && sandboxDown(s)),
    ]);
    assert.deepEqual(cs(a, 'c').state?.terminated && { code: cs(a, 'c').state!.terminated!.exitCode, reason: cs(a, 'c').state!.terminated!.reason }, { code: 0, reason: 'Completed' });
    assert.equal(cond(a, 'ContainersReady')?.reason, 'PodCompleted');
    assert.deepEqual({ code: cs(b, 'c').state?.terminated?.exitCode, reason: cs(b, 'c').state?.terminated?.reason }, { code: 2, reason: 'Error' });
    assert.equal(cond(b, 'Ready')?.reason, 'PodFailed');
    for (const p of [ok, bad]) assert.ok(instances(p.metadata.uid!).every((r) => r.state === 'exited'), 'sandbox stopped too');
  });

  it('an init container killed by its 32Mi memory limit is OOMKilled with 137; with restartPolicy Never the pod fails', async () => {
    const rec = recorder();
    const pod = mkpod('oom', {
      restartPolicy: 'Never',
      initContainers: [bb('hog', 'exec tail /dev/zero', { resources: { limits: { memory: '32Mi' } } })],
      containers: [bb('main', 'true')],
    });
    const st = await converge(worker, pod, rec.sink, (s) => s.phase === 'Failed');
    const hog = cs(st, 'hog');
    assert.equal(hog.state?.terminated?.exitCode, 137);
    assert.equal(hog.state?.terminated?.reason, 'OOMKilled');
    assert.equal(hog.ready, false);
    assert.deepEqual(cs(st, 'main').state, { waiting: { reason: 'PodInitializing' } });
    assert.equal(cond(st, 'Initialized')?.message, 'containers with incomplete status: [hog]');
    assert.ok(!rec.reasons().some((r) => r.includes('container main')), 'main never started');
  });

  it('oomKillMode Group on cgroup v1 without emulation: no container, CreateContainerConfigError with the design\'s message, a Failed event, configError(); retried on the back-off', async () => {
    const rec = recorder();
    const pod = mkpod('group', { containers: [bb('c', forever, { oomKillMode: 'Group' })] });
    const errorsBefore = configErrors.n;
    const r1 = await slow.sync(pod, rec.sink);
    const c = cs(r1.status, 'c');
    assert.deepEqual(c.state, { waiting: { reason: 'CreateContainerConfigError', message: groupRequiresCgroupV2 } });
    assert.equal(groupRequiresCgroupV2, 'oomKillMode=Group requires cgroup v2 support on the node (run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node)');
    assert.equal(r1.status.phase, 'Pending');
    assert.ok(rec.reasons().includes(`Failed Error: ${groupRequiresCgroupV2}`), rec.reasons().join('\n'));
    assert.equal(rec.events.find((e) => e.reason === 'Failed')?.type, 'Warning');
    assert.equal(configErrors.n - errorsBefore, 1);
    assert.ok(r1.nextSyncMs !== undefined && r1.nextSyncMs > 0 && r1.nextSyncMs <= 1000, String(r1.nextSyncMs));
    assert.ok(instances(pod.metadata.uid!).every((r) => r.kind === 'sandbox'), 'no container was created');
    // Within the back-off: no retry; after it: retried, still refused, no repeated event.
    await slow.sync(pod, rec.sink);
    assert.equal(configErrors.n - errorsBefore, 1);
    slowClock += 1050;
    const r3 = await slow.sync(pod, rec.sink);
    assert.equal(configErrors.n - errorsBefore, 2);
    assert.equal(r3.nextSyncMs, 2000);
    assert.equal(rec.events.filter((e) => e.reason === 'Failed').length, 1);
  });

  it('a missing image: ErrImageNeverPull with pull policy Never; ErrImagePull then ImagePullBackOff otherwise, pointing at `bulkhead image import`', async () => {
    const recN = recorder();
    const never = mkpod('neverpull', { containers: [bb('c', 'true', { image: 'nope:1.0', imagePullPolicy: 'Never' })] });
    const n = (await slow.sync(never, recN.sink)).status;
    assert.deepEqual(cs(n, 'c').state, { waiting: { reason: 'ErrImageNeverPull', message: 'Container image "nope:1.0" is not present with pull policy of Never' } });
    // The sandbox's own HostAdjusted (pinned by the adoption test) may come in between.
    assert.deepEqual(recN.events.filter((e) => !e.message.includes('pod sandbox')).map((e) => [e.type, e.reason, e.message]), [
      ['Warning', 'ErrImageNeverPull', 'Container image "nope:1.0" is not present with pull policy of Never'],
      ['Warning', 'Failed', 'Error: ErrImageNeverPull'],
    ]);
    assert.equal(n.phase, 'Pending');

    const recP = recorder();
    const pull = mkpod('pull', { containers: [bb('c', 'true', { image: 'nope:1.0' })] });
    const p1 = (await slow.sync(pull, recP.sink)).status;
    assert.equal(cs(p1, 'c').state?.waiting?.reason, 'ErrImagePull');
    assert.match(cs(p1, 'c').state!.waiting!.message!, /bulkhead image import/);
    assert.ok(recP.events.some((e) => e.reason === 'Failed' && e.message.startsWith('Failed to pull image "nope:1.0": ')));
    // The first sync may return while the sandbox still starts; until it runs, a sync reports the
    // remembered ErrImagePull. The next one that reaches the image is in the pull's back-off (the
    // worker's clock does not move).
    const p2 = await converge(slow, pull, recP.sink, (s) => cs(s, 'c').state?.waiting?.reason !== 'ErrImagePull');
    assert.equal(cs(p2, 'c').state?.waiting?.reason, 'ImagePullBackOff');
    assert.match(cs(p2, 'c').state!.waiting!.message!, /^Back-off pulling image "nope:1\.0": ErrImagePull: image "nope:1\.0" is not in this node's image store/);
    assert.ok(recP.reasons().includes('BackOff Back-off pulling image "nope:1.0"'));
    assert.ok(recP.reasons().includes('Failed Error: ImagePullBackOff'));
  });

  it('terminate: SIGTERM first (143), SIGKILL after the grace (137), the sandbox last; remove leaves no cgroup, bundle, mount or log directory behind', async () => {
    const rec = recorder();
    const pod = mkpod('term', {
      containers: [
        bb('polite', 'trap "kill \\$!; wait \\$!; exit \\$?" TERM; sleep 1000 & wait'),
        bb('stubborn', 'trap "" TERM; while true; do sleep 1; done'),
      ],
    });
    const uid = pod.metadata.uid!;
    await converge(worker, pod, rec.sink, (s) => (s.containerStatuses ?? []).every((c) => c.state?.running));
    const podDirs = hierarchyRoots().map((h) => join(h, worker.podCgroupPath(pod)));
    assert.ok(podDirs.filter((d) => existsSync(d)).length >= 5, 'pod cgroup in the v1 hierarchies and the cgroup2 tree');
    const t0 = Date.now();
    const out = await worker.terminate(pod, 1, rec.sink);
    const ms = Date.now() - t0;
    assert.ok(out.done);
    const st = out.status;
    console.error(`podworker test: terminate (grace 1 s, kubelet minimum 2 s) in ${ms} ms`);
    assert.equal(cs(st, 'polite').state?.terminated?.exitCode, 143);
    assert.equal(cs(st, 'stubborn').state?.terminated?.exitCode, 137);
    assert.ok(ms >= 1900, `${ms} ms: stopped before the kubelet's 2 s minimum grace`);
    assert.equal(st.phase, 'Failed');
    assert.ok(rec.reasons().includes('Killing Stopping container polite') && rec.reasons().includes('Killing Stopping container stubborn'));
    assert.ok(instances(uid).every((r) => r.state === 'exited'));

    const logs = worker.logPath('default', 'term', 'polite', false)!;
    assert.ok(logs && existsSync(logs));
    await worker.remove(uid);
    for (const d of podDirs) assert.equal(existsSync(d), false, `${d} left`);
    assert.deepEqual(readdirSync(join(base, 'run', 'bundles')).filter((b) => b.startsWith(uid)), []);
    assert.deepEqual([...mountPoints()].filter((m) => m.includes(uid)), []);
    assert.deepEqual((await worker.runtime.list()).filter((s) => s.id.startsWith(uid)), []);
    // Removed once the pod is gone from the API, as the kubelet's container GC removes its log dir.
    const logDir = join(base, 'run', 'logs', `default_term_${uid}`);
    assert.ok(logs.startsWith(logDir + '/'), logs);
    assert.equal(existsSync(logDir), false, `${logDir} left`);
    assert.ok(!(await worker.knownPods()).some((p) => p.uid === uid));
  });

  it('terminate of a container whose SIGKILL cannot take effect (its process in a frozen cgroup v1 freezer): FailedKillPod and a non-terminal status after the bound, the pod free for a sync; thawed, the retry ends it', async (t) => {
    const freezerRoot = probeCgroups().v1.freezer;
    if (!freezerRoot) return t.skip('no cgroup v1 freezer hierarchy');
    const rec = recorder();
    // The same directories, and a 1 s bound after SIGKILL instead of the kubelet's 2 min.
    const bounded = new PodWorker({ ...wopts, runtimeRequestTimeoutMs: 1000 });
    // SIGTERM ignored (inherited across exec), one process: only SIGKILL could end it.
    const pod = mkpod('frozen', { containers: [bb('stuck', 'trap "" TERM; exec sleep 100000')] });
    const uid = pod.metadata.uid!;
    await converge(bounded, pod, rec.sink, (s) => cs(s, 'stuck').state?.running !== undefined);
    const id = bounded.runningInstance('default', 'frozen', 'stuck')!.id;
    // The test's own freezer cgroup, not the container's: runc kill thaws a container whose own
    // cgroup it finds frozen (runc PR 3217), so the process is moved out of it before freezing.
    const own = join(freezerRoot, top, `freeze-${randomBytes(4).toString('hex')}`);
    mkdirSync(own, { recursive: true });
    const pids = readFileSync(join(freezerRoot, bounded.podCgroupPath(pod), id, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    try {
      assert.equal(pids.length, 1, `one process in ${id}: ${pids.join(' ')}`);
      writeFileSync(join(own, 'cgroup.procs'), pids[0]!);
      writeFileSync(join(own, 'freezer.state'), 'FROZEN');
      for (let i = 0; i < 500 && readFileSync(join(own, 'freezer.state'), 'utf8').trim() !== 'FROZEN'; i++) await sleep(10);
      assert.equal(readFileSync(join(own, 'freezer.state'), 'utf8').trim(), 'FROZEN');

      const out = await bounded.terminate(pod, 0, rec.sink);
      assert.equal(out.done, false);
      assert.equal(out.status.phase, 'Running');
      assert.ok(cs(out.status, 'stuck').state?.running, JSON.stringify(cs(out.status, 'stuck')));
      assert.ok(rec.reasons().includes('FailedKillPod error killing pod: failed to "KillContainer" for "stuck" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"'), rec.reasons().join('\n'));
      assert.ok(existsSync(`/proc/${pids[0]}`), 'the SIGKILLed process is still there, frozen');
      // The pod's lock is free: a sync of it proceeds.
      assert.ok(cs((await bounded.sync(pod, rec.sink)).status, 'stuck').state?.running);

      writeFileSync(join(own, 'freezer.state'), 'THAWED');
      let done = await bounded.terminate(pod, 0, rec.sink);
      // The thawed process dies of its pending SIGKILL; a retry that finds it on its way out waits again.
      for (let i = 0; i < 20 && !done.done; i++) done = await bounded.terminate(pod, 0, rec.sink);
      assert.equal(done.done, true);
      assert.equal(done.status.phase, 'Failed');
      assert.equal(cs(done.status, 'stuck').state?.terminated?.exitCode, 137);
    } finally {
      if (existsSync(own)) {
        writeFileSync(join(own, 'freezer.state'), 'THAWED');
        // Whatever is still in it (a failed row) goes back to the hierarchy's root before the rmdir.
        for (const p of readFileSync(join(own, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) writeFileSync(join(freezerRoot, 'cgroup.procs'), p);
        for (let i = 0; ; i++) {
          try {
            rmdirSync(own);
            break;
          } catch (e) {
            if (i >= 100) throw e;
            await sleep(20);
          }
        }
      }
    }
    await bounded.remove(uid);
  });

  it('a new PodWorker over the same directories (agent restart) adopts the pod: knownPods lists it, sync starts nothing twice; HostAdjusted was emitted once', async () => {
    const rec = recorder();
    const res = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '100m', memory: '32Mi' } };
    const pod = mkpod('adopt', { containers: [bb('c', `echo hi; ${forever}`, { resources: res })] });
    const uid = pod.metadata.uid!;
    const st = await converge(worker, pod, rec.sink, (s) => cs(s, 'c').state?.running !== undefined);
    assert.equal(st.qosClass, 'Guaranteed');
    const adjusted = rec.events.filter((e) => e.reason === 'HostAdjusted');
    if (host.minOomScoreAdj > -997) {
      // The sandbox's -998 is reported as the container's -997 is, each once.
      assert.deepEqual(adjusted.map((e) => [e.type, e.message]), [
        ['Warning', `the host could not apply the planned values to the pod sandbox: oom_score_adj -998 applied as ${host.minOomScoreAdj}: this host cannot set negative values (no CAP_SYS_RESOURCE)`],
        ['Warning', `the host could not apply the planned values: oom_score_adj -997 applied as ${host.minOomScoreAdj}: this host cannot set negative values (no CAP_SYS_RESOURCE)`],
      ]);
      const sb = instances(uid).find((r) => r.kind === 'sandbox')!;
      assert.equal(readFileSync(`/proc/${sb.pid}/oom_score_adj`, 'utf8').trim(), String(host.minOomScoreAdj), 'the value the event names is the one applied');
    }
    const pid = instances(uid).find((r) => r.container === 'c')!.pid;
    const startedAt = cs(st, 'c').state!.running!.startedAt;

    const rec2 = recorder();
    const worker2 = new PodWorker(wopts);
    assert.ok((await worker2.knownPods()).some((p) => p.uid === uid && p.namespace === 'default' && p.name === 'adopt'));
    const st2 = (await worker2.sync(pod, rec2.sink)).status;
    assert.deepEqual(rec2.events, [], 'nothing started, nothing re-announced');
    assert.equal(cs(st2, 'c').containerID, `runc://${uid}-c-0`);
    assert.equal(cs(st2, 'c').restartCount, 0);
    assert.equal(cs(st2, 'c').state?.running?.startedAt, startedAt);
    assert.equal(cond(st2, 'PodReadyToStartContainers')?.status, 'True');
    assert.equal(instances(uid).find((r) => r.container === 'c')!.pid, pid);
    assert.equal((await worker2.runtime.list()).filter((s) => s.id.startsWith(uid)).length, 2, 'sandbox and c, as before');
    assert.equal(worker2.containerByMemcg(`${worker2.podCgroupPath(pod)}/${uid}-c-0`)?.container, 'c');
    assert.equal(await worker2.containerPid(`runc://${uid}-c-0`), pid);
    assert.equal(worker2.podUIDOfContainer(`${uid}-c-0`), uid);
    assert.equal(worker2.containerRunning('default', 'adopt', 'c'), true);
    assert.equal(readLogs(worker2.logPath('default', 'adopt', 'c', false)!), 'hi\n');
    // The adopted container's exit is seen by the new worker.
    await worker2.runtime.kill(`${uid}-c-0`, 'TERM');
    const st3 = await converge(worker2, pod, rec2.sink, (s) => cs(s, 'c').restartCount === 1 && cs(s, 'c').state?.running !== undefined);
    assert.equal(cs(st3, 'c').lastState?.terminated?.exitCode, 0);
    await worker2.terminate(pod, 0, rec2.sink);
    await worker2.remove(uid);
  });

  it('when the sandbox dies, the pod\'s containers are stopped and started again in a new sandbox', async () => {
    const rec = recorder();
    const pod = mkpod('sandbox', { containers: [bb('c', forever)] });
    const uid = pod.metadata.uid!;
    await converge(worker, pod, rec.sink, (s) => cs(s, 'c').state?.running !== undefined);
    await worker.runtime.kill(worker.sandboxID(uid, 0), 'KILL');
    const st = await converge(worker, pod, rec.sink, (s) => cs(s, 'c').restartCount === 1 && cs(s, 'c').state?.running !== undefined);
    assert.equal(cs(st, 'c').lastState?.terminated?.exitCode, 0);
    assert.ok(rec.reasons().includes('Killing Stopping container c'));
    const recs = instances(uid);
    const sb = recs.find((r) => r.kind === 'sandbox')!;
    assert.equal(sb.id, worker.sandboxID(uid, 1));
    const c = recs.find((r) => r.container === 'c' && r.state === 'running')!;
    assert.equal(c.sandboxID, sb.id);
    assert.equal(readlinkSync(`/proc/${c.pid}/ns/net`), readlinkSync(`/proc/${sb.pid}/ns/net`));
    assert.equal(cond(st, 'PodReadyToStartContainers')?.status, 'True');
    if (host.minOomScoreAdj > -998) assert.equal(rec.events.filter((e) => e.reason === 'HostAdjusted' && e.message.includes('pod sandbox')).length, 1, 'the sandbox clamp is reported once per pod, not per sandbox');
  });

  it('the sandbox is bare runc, no conmon; killed, it is announced by an empty file in exitDir before any sync', async () => {
    const rec = recorder();
    const pod = mkpod('bare-sandbox', { containers: [bb('c', forever)] });
    const uid = pod.metadata.uid!;
    await converge(worker, pod, rec.sink, (s) => cs(s, 'c').state?.running !== undefined);
    const sbID = worker.sandboxID(uid, 0);
    const sb = instances(uid).find((r) => r.id === sbID)!;
    assert.equal((await worker.runtime.state(sbID))?.pid, sb.pid);
    assert.equal(existsSync(join(base, 'run', 'bundles', sbID, 'conmon')), false, 'no conmon files in the sandbox bundle');
    const ppid = Number(readFileSync(`/proc/${sb.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    assert.notEqual(readFileSync(`/proc/${ppid}/comm`, 'utf8').trim(), 'conmon');

    const marker = join(worker.exitDir, sbID);
    const t0 = Date.now();
    await worker.runtime.kill(sbID, 'KILL');
    while (!existsSync(marker)) {
      assert.ok(Date.now() - t0 < 30_000, 'no exit file for the sandbox within 30 s');
      await sleep(2);
    }
    const ms = Date.now() - t0;
    console.error(`podworker test: a killed sandbox announced in exitDir after ${ms} ms (${host.cgroups.unified ? 'cgroup.events' : '1 s poll'})`);
    assert.equal(readFileSync(marker, 'utf8'), '', 'no exit code: nobody knows it');
    const st = await converge(worker, pod, rec.sink, (s) => cs(s, 'c').restartCount === 1 && cs(s, 'c').state?.running !== undefined);
    assert.equal(cond(st, 'PodReadyToStartContainers')?.status, 'True');
    assert.equal(existsSync(marker), false, 'removed with the sandbox');
  });

  it('the container\'s record and overlay root are made while the sandbox starts (a runtime wrapper holding the sandbox\'s `runc run` sees them)', async () => {
    const rec = recorder();
    const pod = mkpod('prepared', { containers: [bb('c', forever)] });
    const uid = pod.metadata.uid!;
    const root = join(base, 'run', 'bundles', `${uid}-c-0`, 'rootfs');
    const seen = join(base, `seen-${uid}`);
    const wrapper = join(base, `runtime-${uid}`);
    // Only the sandbox is started with `run`; conmon's call is `create`.
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'case " $* " in *" run "*)',
        `  for i in $(seq 1 500); do if grep -qF " ${root} " /proc/self/mountinfo && [ -e "${join(base, 'run', 'bundles', `${uid}-c-0`, 'instance.json')}" ]; then echo mounted > "${seen}"; break; fi; sleep 0.01; done;;`,
        'esac',
        `exec ${execFileSync('sh', ['-c', 'command -v runc'], { encoding: 'utf8' }).trim()} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const held = new PodWorker({ ...wopts, runtime: wrapper });
    const st = await converge(held, pod, rec.sink, (x) => cs(x, 'c').state?.running !== undefined);
    assert.equal(existsSync(seen) && readFileSync(seen, 'utf8').trim(), 'mounted', 'the root was not mounted while the sandbox started');
    assert.equal(cs(st, 'c').containerID, `runc://${uid}-c-0`, 'the prepared instance is the one that runs');
    assert.ok(mountPoints().has(root));
  });

  it('the first container is created while the sandbox\'s runc still runs, in the pinned namespaces, and started only once the sandbox runs', async () => {
    const rec = recorder();
    const pod = mkpod('parallel', { containers: [bb('c', forever)] });
    const uid = pod.metadata.uid!;
    const marks = join(base, `marks-${uid}`);
    const wrapper = join(base, `runtime-par-${uid}`);
    const runc = execFileSync('sh', ['-c', 'command -v runc'], { encoding: 'utf8' }).trim();
    // The sandbox's `run` is held for 400 ms; conmon's `create` and the end of `run` leave a mark.
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'case " $* " in',
        `  *" run "*) sleep 0.4; ${runc} "$@"; rc=$?; echo "run-done $(date +%s%N)" >> "${marks}"; exit $rc;;`,
        `  *" create "*) echo "create $(date +%s%N)" >> "${marks}";;`,
        'esac',
        `exec ${runc} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const held = new PodWorker({ ...wopts, runtime: wrapper });
    const st = await converge(held, pod, rec.sink, (x) => cs(x, 'c').state?.running !== undefined);
    const at = Object.fromEntries(readFileSync(marks, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string]));
    assert.ok(BigInt(at.create!) < BigInt(at['run-done']!), `the container's create (${at.create}) began before the sandbox's run ended (${at['run-done']})`);
    const recs = instances(uid);
    const sb = recs.find((r) => r.kind === 'sandbox')!;
    const c = recs.find((r) => r.container === 'c')!;
    assert.ok(Date.parse(c.startedAt!) >= Date.parse(sb.startedAt!), `container started ${c.startedAt}, sandbox ${sb.startedAt}`);
    assert.equal(cs(st, 'c').containerID, `runc://${uid}-c-0`);
    assert.equal(readlinkSync(`/proc/${c.pid}/ns/net`), readlinkSync(`/proc/${sb.pid}/ns/net`));
    assert.equal(`net:[${statSync(sb.namespaces!.network!).ino}]`, readlinkSync(`/proc/${sb.pid}/ns/net`), 'the pin is the sandbox\'s namespace');
    await held.terminate(pod, 0, rec.sink);
    await held.remove(uid);
    assert.deepEqual([...mountPoints()].filter((m) => m.includes(uid)), []);
  });

  it('hostNetwork: the host\'s network and UTS namespaces, only IPC pinned and shared with the sandbox; with hostIPC too nothing is pinned', async () => {
    const rec = recorder();
    const hostNs = (ns: string) => readlinkSync(`/proc/self/ns/${ns}`);
    const cases: { name: string; spec: Partial<PodSpec>; pinned: string[]; host: string[] }[] = [
      { name: 'host-net', spec: { hostNetwork: true }, pinned: ['ipc'], host: ['net', 'uts'] },
      { name: 'host-net-ipc', spec: { hostNetwork: true, hostIPC: true }, pinned: [], host: ['net', 'uts', 'ipc'] },
    ];
    for (const c of cases) {
      const pod = mkpod(c.name, { ...c.spec, containers: [bb('c', forever)] });
      const uid = pod.metadata.uid!;
      await converge(worker, pod, rec.sink, (s) => cs(s, 'c').state?.running !== undefined);
      const recs = instances(uid);
      const sb = recs.find((r) => r.kind === 'sandbox')!;
      const main = recs.find((r) => r.container === 'c')!;
      assert.deepEqual(Object.keys(sb.namespaces ?? {}), c.pinned.map((k) => (k === 'net' ? 'network' : k)), c.name);
      for (const ns of c.host) assert.equal(readlinkSync(`/proc/${main.pid}/ns/${ns}`), hostNs(ns), `${c.name}: ${ns} is the host's`);
      for (const ns of c.pinned) {
        assert.notEqual(readlinkSync(`/proc/${main.pid}/ns/${ns}`), hostNs(ns), `${c.name}: ${ns} is the pod's own`);
        assert.equal(readlinkSync(`/proc/${main.pid}/ns/${ns}`), readlinkSync(`/proc/${sb.pid}/ns/${ns}`), `${c.name}: ${ns} shared with the sandbox`);
      }
      await worker.terminate(pod, 0, rec.sink);
      await worker.remove(uid);
      assert.deepEqual([...mountPoints()].filter((m) => m.includes(uid)), [], c.name);
    }
  });

  it('a sandbox that fails leaves nothing of the container prepared meanwhile: no record, bundle or mount; FailedCreatePodSandBox', async () => {
    const rec = recorder();
    const empty = join(base, 'empty-rootfs');
    mkdirSync(empty, { recursive: true });
    const failing = new PodWorker({ ...wopts, rootfs: empty });
    const pod = mkpod('no-sandbox', { containers: [bb('c', forever)] });
    const uid = pod.metadata.uid!;
    const r = await failing.sync(pod, rec.sink);
    assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'ContainerCreating');
    assert.ok(r.nextSyncMs !== undefined && r.nextSyncMs > 0, 'retried on the back-off');
    assert.ok(rec.reasons().some((x) => x.startsWith('FailedCreatePodSandBox Failed to create pod sandbox: ')), rec.reasons().join('\n'));
    assert.deepEqual(instances(uid), []);
    assert.deepEqual(readdirSync(join(base, 'run', 'bundles')).filter((b) => b.startsWith(uid)), []);
    assert.deepEqual([...mountPoints()].filter((m) => m.includes(uid)), []);
    assert.deepEqual((await worker.runtime.list()).filter((st) => st.id.startsWith(uid)), []);
  });
});

