// The pod worker's sync rules, one row per rule, on a fake runtime, fake mounts and a fake
// cgroup manager (test/agent/fakes/, assembled in harness.ts): no root, no runc, no kernel, any
// machine. Time is an injected clock that moves only when a row moves it, so back-off and grace
// are exact; the real runtime's behaviour is tested in test/agent/podworker.test.ts (kernel
// tier). As the kubelet tests SyncPod against pkg/kubelet/container/testing/fake_runtime.go.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigMap, Container, Pod, PodStatus, Secret } from '../../../src/api/types.js';
import { isTerminalPhase } from '../../../src/agent/lifecycle/phase.js';
import { PodWorker, type EventSink } from '../../../src/agent/podworker.js';
import type { CgroupVersion } from '../../../src/policy/cgroupvalues.js';
import { cs, ctr, deleting, harness, initialMs, mkpod, running, starts, type Harness } from './harness.js';

interface Row {
  rule: string;
  setup?: { cgroupVersion?: CgroupVersion; runtimeRequestTimeoutMs?: number };
  run(h: Harness): Promise<void>;
}

/** A container `c` of `pod` ran and exited with `code` (OOM counters set first when given). */
async function exitOnce(h: Harness, pod: Pod, code: number, oom?: { oomKill?: number; oomGroupKill?: number }): Promise<PodStatus> {
  await h.syncUntil(pod, running('c'), 'c running');
  const id = h.rt.running('c');
  if (oom) h.cg.setOOM(`${h.worker.podCgroupPath(pod)}/${id}`, oom);
  h.rt.exit(id, code);
  return (await h.sync(pod)).status;
}

const rows: Row[] = [
  {
    rule: 'CrashLoopBackOff: a first exit restarts at once, the next waits out the back-off on the clock, and the back-off doubles',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await exitOnce(h, pod, 1);
      let st = await h.syncUntil(pod, running('c'), 'first restart');
      assert.equal(cs(st, 'c').restartCount, 1);
      h.rt.exit(h.rt.running('c'), 1);
      let r = await h.sync(pod);
      assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'CrashLoopBackOff');
      assert.equal(r.nextSyncMs, initialMs);
      assert.ok(h.events.includes(`Warning BackOff Back-off restarting failed container c in pod ${pod.metadata.name}_default(${pod.metadata.uid})`), h.events.join('\n'));
      h.advance(initialMs - 1);
      r = await h.sync(pod);
      assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'CrashLoopBackOff');
      assert.equal(r.nextSyncMs, 1);
      h.advance(1);
      st = (await h.sync(pod)).status;
      assert.equal(cs(st, 'c').restartCount, 2);
      assert.ok(cs(st, 'c').state?.running);
      h.rt.exit(h.rt.running('c'), 1);
      r = await h.sync(pod);
      assert.equal(r.nextSyncMs, 2 * initialMs);
    },
  },
  {
    rule: 'ErrImageNeverPull: a missing image with pull policy Never is refused before any container exists and retried on the back-off',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { image: 'missing:1', imagePullPolicy: 'Never' })] });
      const r = await h.sync(pod);
      assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'ErrImageNeverPull');
      assert.equal(r.nextSyncMs, initialMs);
      assert.deepEqual(starts(h), []);
      assert.ok(h.events.some((e) => e.startsWith('Warning ErrImageNeverPull Container image "missing:1" is not present with pull policy of Never')), h.events.join('\n'));
    },
  },
  {
    rule: 'ErrImagePull, then ImagePullBackOff: a missing image that may be pulled is not in the store',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { image: 'missing:1' })] });
      assert.equal(cs((await h.sync(pod)).status, 'c').state?.waiting?.reason, 'ErrImagePull');
      assert.equal(cs((await h.sync(pod)).status, 'c').state?.waiting?.reason, 'ImagePullBackOff');
      assert.deepEqual(starts(h), []);
    },
  },
  {
    rule: 'InvalidImageName: an image reference that does not parse',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { image: 'busy box' })] });
      const st = (await h.sync(pod)).status;
      assert.equal(cs(st, 'c').state?.waiting?.reason, 'InvalidImageName');
      assert.deepEqual(starts(h), []);
    },
  },
  {
    rule: 'CreateContainerConfigError: a volumeMount naming no volume of the pod',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { volumeMounts: [{ name: 'nope', mountPath: '/x' }] })] });
      const r = await h.sync(pod);
      const w = cs(r.status, 'c').state?.waiting;
      assert.equal(w?.reason, 'CreateContainerConfigError');
      assert.match(w?.message ?? '', /the pod has no volume of that name/);
      assert.equal(r.nextSyncMs, initialMs);
      assert.deepEqual(starts(h), []);
    },
  },
  {
    rule: 'CreateContainerError: the runtime side refuses the container root, and nothing of the container is left',
    async run(h) {
      h.mounts.failOverlay = 'no space left on device';
      const pod = mkpod({ containers: [ctr('c')] });
      const st = (await h.sync(pod)).status;
      assert.equal(cs(st, 'c').state?.waiting?.reason, 'CreateContainerError');
      assert.deepEqual(starts(h), []);
      assert.deepEqual(h.worker.records.listInstances(pod.metadata.uid).filter((r) => r.kind !== 'sandbox'), []);
    },
  },
  {
    rule: 'StartError and RunContainerError: the runtime refuses to start the container (exit 128, reported, restarted on the back-off)',
    async run(h) {
      h.rt.refuseStart.set('c', 'exec: "sh": executable file not found in $PATH');
      const pod = mkpod({ containers: [ctr('c')] });
      const st = (await h.sync(pod)).status;
      const c = cs(st, 'c');
      const ended = c.state?.terminated ?? c.lastState?.terminated;
      assert.equal(ended?.reason, 'StartError');
      assert.equal(ended?.exitCode, 128);
      assert.ok(h.events.some((e) => e.startsWith('Warning Failed') && e.includes('executable file not found')), h.events.join('\n'));
      h.rt.refuseStart.clear();
      await h.syncUntil(pod, running('c'), 'c running once the runtime takes it');
    },
  },
  {
    rule: 'stop order: regular containers first, then sidecars in reverse order, the sandbox last',
    async run(h) {
      const side = (n: string) => ctr(n, { restartPolicy: 'Always' });
      const pod = mkpod({ initContainers: [side('s1'), side('s2')], containers: [ctr('a'), ctr('b')] });
      await h.syncUntil(pod, running('s1', 's2', 'a', 'b'), 'all running');
      deleting(pod);
      await h.syncUntil(pod, (s) => ['s1', 's2', 'a', 'b'].every((n) => cs(s, n).state?.terminated), 'all stopped');
      const sig = h.rt.signals();
      assert.deepEqual(sig.slice(0, 2).sort(), ['a TERM', 'b TERM']);
      assert.deepEqual(sig.slice(2), ['s2 TERM', 's1 TERM', 'POD KILL']);
    },
  },
  {
    rule: 'SIGKILL when the grace period is used up, not before',
    async run(h) {
      h.rt.ignoreTerm.add('c');
      const pod = mkpod({ terminationGracePeriodSeconds: 5, containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await h.sync(pod);
      h.advance(4999);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM']);
      h.advance(1);
      const st = await h.syncUntil(pod, (s) => cs(s, 'c').state?.terminated !== undefined, 'c killed');
      assert.equal(cs(st, 'c').state?.terminated?.exitCode, 137);
      await h.syncUntil(pod, () => h.rt.signals().includes('POD KILL'), 'sandbox killed');
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'POD KILL']);
    },
  },
  {
    rule: 'a SIGKILL the runtime refused is sent again a second later (the kubelet retries killContainer), a delivered one never',
    async run(h) {
      h.rt.ignoreTerm.add('c');
      h.rt.refuseKill.set('c', 2);
      h.rt.refuseKill.set('POD', 1);
      const pod = mkpod({ terminationGracePeriodSeconds: 2, containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await h.sync(pod);
      h.advance(2000);
      await h.sync(pod);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL'], 'refused, and not sent again before the retry interval');
      h.advance(1000);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'c KILL']);
      h.advance(1000);
      const st = await h.syncUntil(pod, (s) => cs(s, 'c').state?.terminated !== undefined, 'c killed');
      assert.equal(cs(st, 'c').state?.terminated?.exitCode, 137);
      await h.syncUntil(pod, () => h.rt.signals().filter((x) => x === 'POD KILL').length === 1, 'sandbox KILL refused once');
      await h.sync(pod);
      assert.equal(h.rt.signals().filter((x) => x === 'POD KILL').length, 1, 'not again within the retry interval');
      h.advance(1000);
      await h.syncUntil(pod, () => h.rt.signals().filter((x) => x === 'POD KILL').length === 2, 'sandbox killed on the retry');
      await h.sync(pod);
      h.advance(5000);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'c KILL', 'c KILL', 'POD KILL', 'POD KILL'], 'nothing signalled after the deliveries');
    },
  },
  {
    rule: 'a grace period of 0 still gives minimumGraceSeconds (2 s) between SIGTERM and SIGKILL',
    async run(h) {
      h.rt.ignoreTerm.add('c');
      const pod = mkpod({ terminationGracePeriodSeconds: 0, containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await h.sync(pod);
      h.advance(1999);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM']);
      h.advance(1);
      await h.syncUntil(pod, () => h.rt.signals().includes('POD KILL'), 'sandbox killed');
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'POD KILL']);
    },
  },
  {
    rule: 'OOMKilled: exit 137 with an OOM kill counted in the container cgroup',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'Never', containers: [ctr('c')] }), 137, { oomKill: 1 });
      assert.equal(cs(st, 'c').state?.terminated?.reason, 'OOMKilled');
    },
  },
  {
    rule: 'Error: exit 137 without an OOM kill is not OOMKilled',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'Never', containers: [ctr('c')] }), 137);
      assert.equal(cs(st, 'c').state?.terminated?.reason, 'Error');
    },
  },
  {
    rule: 'OOMKilled on cgroup v2: a container ended by a group OOM kill (memory.oom.group) counts too',
    setup: { cgroupVersion: 2 },
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'Never', containers: [ctr('c')] }), 137, { oomGroupKill: 1 });
      assert.equal(cs(st, 'c').state?.terminated?.reason, 'OOMKilled');
    },
  },
  {
    rule: 'restartPolicy Never: a failed container stays terminated and the pod is Failed',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'Never', containers: [ctr('c')] }), 1);
      assert.equal(st.phase, 'Failed');
      assert.equal(cs(st, 'c').state?.terminated?.exitCode, 1);
      assert.deepEqual(starts(h), ['c']);
    },
  },
  {
    rule: 'restartPolicy OnFailure: exit 0 completes the pod (Succeeded) without a restart',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'OnFailure', containers: [ctr('c')] }), 0);
      assert.equal(st.phase, 'Succeeded');
      assert.equal(cs(st, 'c').state?.terminated?.reason, 'Completed');
      assert.deepEqual(starts(h), ['c']);
    },
  },
  {
    rule: 'restartPolicy OnFailure: a failure restarts the container',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'OnFailure', containers: [ctr('c')] }), 1);
      assert.equal(cs(st, 'c').restartCount, 1);
      assert.deepEqual(starts(h), ['c', 'c']);
    },
  },
  {
    rule: 'restartPolicy Always: even a container that exits 0 restarts',
    async run(h) {
      const st = await exitOnce(h, mkpod({ restartPolicy: 'Always', containers: [ctr('c')] }), 0);
      assert.equal(st.phase, 'Running');
      assert.equal(cs(st, 'c').restartCount, 1);
    },
  },
  {
    rule: 'FailedCreatePodSandBox: a sandbox the runtime refuses is reported, leaves nothing behind, and is retried on the back-off',
    async run(h) {
      h.rt.failSandbox = 'cannot allocate memory';
      const pod = mkpod({ containers: [ctr('c')] });
      const r = await h.sync(pod);
      assert.ok(h.events.includes('Warning FailedCreatePodSandBox Failed to create pod sandbox: cannot allocate memory'), h.events.join('\n'));
      assert.equal(r.nextSyncMs, initialMs);
      assert.deepEqual(await h.rt.list(), []);
      assert.deepEqual(h.worker.records.listInstances(pod.metadata.uid), []);
      assert.deepEqual([...h.mounts.mounted], []);
      h.rt.failSandbox = undefined;
      await h.sync(pod);
      assert.equal(h.rt.calls.filter((c) => c.op === 'runDetached').length, 1, 'no new try within the back-off');
      h.advance(initialMs);
      await h.syncUntil(pod, running('c'), 'c running in the second sandbox');
    },
  },
  {
    rule: 'a sandbox that dies takes its containers with it; they start again in a new sandbox',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      const uid = pod.metadata.uid!;
      h.rt.exit(h.worker.sandboxID(uid, 0), 137);
      const st = await h.syncUntil(pod, (s) => running('c')(s) && cs(s, 'c').restartCount === 1, 'c again');
      assert.equal(cs(st, 'c').lastState?.terminated?.exitCode, 143);
      assert.deepEqual(h.rt.signals(), ['c TERM']);
      assert.equal((await h.rt.state(h.worker.sandboxID(uid, 1)))?.status, 'running');
    },
  },
  {
    rule: 'restart adoption: a new PodWorker over the same directories and runtime starts nothing twice',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      const before = h.rt.calls.length;
      h.worker = new PodWorker(h.opts);
      assert.ok((await h.worker.knownPods()).some((p) => p.uid === pod.metadata.uid));
      const st = (await h.sync(pod)).status;
      assert.ok(cs(st, 'c').state?.running);
      assert.deepEqual(h.rt.calls.slice(before).filter((c) => c.op !== 'delete'), []);
    },
  },
  {
    rule: 'a container that outlives its SIGKILL: terminate gives up after the bound with FailedKillPod and a status that is not terminal, the pod is free for other calls (a sync, a terminate with a shorter grace), and once it exits a retry ends the pod',
    setup: { runtimeRequestTimeoutMs: 50 },
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      const id = h.rt.running('c');
      h.rt.ignoreTerm.add('c');
      h.rt.surviveKill.add('c');
      deleting(pod);
      await h.sync(pod);
      assert.deepEqual(h.rt.signals(), ['c TERM']);
      h.advance(30_000);
      const events: string[] = [];
      const sink: EventSink = (_p, type, reason, message) => void events.push(`${type} ${reason} ${message}`);
      let out = await h.worker.terminate(pod, 30, sink);
      const error = 'error killing pod: failed to "KillContainer" for "c" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"';
      assert.deepEqual([out.done, out.status.phase, !out.done && out.error], [false, 'Running', error]);
      assert.ok(cs(out.status, 'c').state?.running, JSON.stringify(cs(out.status, 'c')));
      assert.deepEqual(events, [`Warning FailedKillPod ${error}`]);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL']);
      // Nothing waits behind it: a sync of the pod, and a later delete's shorter grace, proceed.
      assert.ok(cs((await h.sync(pod)).status, 'c').state?.running);
      out = await h.worker.terminate(pod, 0, sink);
      assert.equal(out.done, false);
      assert.equal(events.length, 2);
      h.rt.exit(id, 137);
      out = await h.worker.terminate(pod, 0, sink);
      assert.equal(out.done, true);
      assert.ok(isTerminalPhase(out.status.phase), out.status.phase);
      assert.equal(cs(out.status, 'c').state?.terminated?.exitCode, 137);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'POD KILL']);
      assert.equal(events.length, 2);
    },
  },
  {
    rule: 'a SIGKILL the runtime keeps refusing: terminate gives up after the bound with the runtime\'s answer in FailedKillPod, and a retry sends it again',
    // The bound is real time and the retry must finish within it (its SIGKILL went out before, so
    // the bound starts at once): 1 s, not 50 ms, so that a loaded machine cannot make it give up.
    setup: { runtimeRequestTimeoutMs: 1000 },
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      const id = h.rt.running('c');
      h.rt.ignoreTerm.add('c');
      h.rt.refuseKill.set('c', 1_000_000);
      const events: string[] = [];
      const sink: EventSink = (_p, type, reason, message) => void events.push(`${type} ${reason} ${message}`);
      deleting(pod);
      await h.sync(pod);
      h.advance(30_000);
      let out = await h.worker.terminate(pod, 30, sink);
      const error = `error killing pod: failed to "KillContainer" for "c" with KillContainerError: "runc kill ${id} KILL: exit status 1"`;
      assert.deepEqual([out.done, out.status.phase, !out.done && out.error], [false, 'Running', error]);
      assert.deepEqual(events, [`Warning FailedKillPod ${error}`]);
      h.rt.refuseKill.delete('c');
      h.advance(1000);
      out = await h.worker.terminate(pod, 0, sink);
      assert.equal(out.done, true);
      assert.equal(cs(out.status, 'c').state?.terminated?.exitCode, 137);
    },
  },
  {
    rule: 'a shorter grace reaches a terminate in flight (a second delete): SIGKILL at its deadline, not the first one\'s',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c')] });
      await h.syncUntil(pod, running('c'), 'c running');
      h.rt.ignoreTerm.add('c');
      deleting(pod);
      const first = h.worker.terminate(pod, 30, () => undefined);
      // Let the first call take the pod and send SIGTERM (the outcome is the same if it has not yet).
      for (let i = 0; i < 1000 && h.rt.signals().length === 0; i++) await new Promise((r) => setTimeout(r, 1));
      const second = h.worker.terminate(pod, 0, () => undefined);
      h.advance(2000);
      const out = await first;
      assert.equal(out.done, true);
      assert.equal(cs(out.status, 'c').state?.terminated?.exitCode, 137);
      assert.deepEqual(h.rt.signals(), ['c TERM', 'c KILL', 'POD KILL']);
      assert.equal((await second).done, true);
    },
  },
  {
    rule: 'a log directory left behind by a cut-short removal makes its pod known, and remove takes it',
    async run(h) {
      const stale = join(h.opts.runDir, 'logs', 'default_gone_0000-stale-uid');
      mkdirSync(join(stale, 'c'), { recursive: true });
      writeFileSync(join(stale, 'c', '0.log'), '2026-11-22T05:40:26.395786010+00:00 stdout F bye\n');
      assert.deepEqual((await h.worker.knownPods()).filter((p) => p.uid === '0000-stale-uid'), [{ uid: '0000-stale-uid', namespace: 'default', name: 'gone' }]);
      await h.worker.remove('0000-stale-uid');
      assert.ok(!existsSync(stale));
      assert.ok(!(await h.worker.knownPods()).some((p) => p.uid === '0000-stale-uid'));
    },
  },
  {
    rule: 'remove: no record, bundle, pin, mount, runtime container, cgroup (pod or parent made) or log directory is left',
    async run(h) {
      const pod = mkpod({ volumes: [{ name: 'v', emptyDir: {} }], containers: [ctr('c', { volumeMounts: [{ name: 'v', mountPath: '/v' }] })] });
      await h.syncUntil(pod, running('c'), 'c running');
      await h.worker.terminate(pod, 0, () => undefined);
      await h.worker.remove(pod.metadata.uid!);
      assert.deepEqual(await h.rt.list(), []);
      assert.deepEqual([...h.mounts.mounted], []);
      assert.deepEqual(readdirSync(join(h.opts.runDir, 'bundles')), []);
      assert.equal(existsSync(h.worker.records.podDir(pod.metadata.uid!)), false);
      assert.deepEqual(readdirSync(join(h.opts.runDir, 'logs')), []);
      assert.deepEqual(readdirSync(join(h.cg.root, 'bulkhead-fake')), []);
    },
  },
  {
    rule: 'a missing ConfigMap volume: FailedMount in upstream\'s words, ContainerCreating and no sandbox, retried on the volume back-off; the pod starts once it exists',
    async run(h) {
      const store = objectStore(h);
      const pod = mkpod({ containers: [ctr('c', { volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }] })], volumes: [{ name: 'cfg', configMap: { name: 'app' } }] });
      let r = await h.sync(pod);
      assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'ContainerCreating');
      assert.ok(h.events.includes('Warning FailedMount MountVolume.SetUp failed for volume "cfg" : configmap "app" not found'), h.events.join('\n'));
      assert.deepEqual(h.rt.calls.map((c) => c.op), []);
      assert.equal(r.nextSyncMs, initialMs);
      store.configMaps.set('app', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { k: 'v1' } });
      r = await h.sync(pod);
      assert.equal(cs(r.status, 'c').state?.waiting?.reason, 'ContainerCreating', 'still in its back-off');
      h.advance(initialMs);
      await h.syncUntil(pod, running('c'), 'c running');
      const spec = containerSpec(h, pod, 'c');
      const m = spec.mounts.find((x) => x.destination === '/etc/cfg');
      assert.deepEqual(m?.options, ['rbind', 'ro']);
      assert.equal(readFileSync(join(m!.source, 'k'), 'utf8'), 'v1');
      assert.equal(readlinkSync(join(m!.source, 'k')), '..data/k');
    },
  },
  {
    rule: 'a changed ConfigMap is rewritten on the next sync (a new ..data directory), the container keeps running; env reads a Secret and envFrom a ConfigMap',
    async run(h) {
      const store = objectStore(h);
      store.configMaps.set('app', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { k: 'v1', MODE: 'fast' } });
      store.secrets.set('db', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { password: Buffer.from('hunter2').toString('base64') } });
      const pod = mkpod({
        containers: [ctr('c', { volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg' }], env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }], envFrom: [{ prefix: 'APP_', configMapRef: { name: 'app' } }] } as Partial<Container>)],
        volumes: [{ name: 'cfg', configMap: { name: 'app', items: [{ key: 'k', path: 'conf/k.txt' }] } }],
      });
      await h.syncUntil(pod, running('c'), 'c running');
      const spec = containerSpec(h, pod, 'c');
      assert.ok(spec.process.env.includes('PW=hunter2') && spec.process.env.includes('APP_MODE=fast') && spec.process.env.includes('APP_k=v1'), spec.process.env.join(' '));
      const dir = spec.mounts.find((x) => x.destination === '/etc/cfg')!.source;
      const before = readlinkSync(join(dir, '..data'));
      assert.equal(readFileSync(join(dir, 'conf', 'k.txt'), 'utf8'), 'v1');
      await h.sync(pod);
      assert.equal(readlinkSync(join(dir, '..data')), before, 'unchanged content: nothing rewritten');
      store.configMaps.set('app', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { k: 'v2' } });
      const st = (await h.sync(pod)).status;
      assert.ok(cs(st, 'c').state?.running);
      assert.notEqual(readlinkSync(join(dir, '..data')), before);
      assert.equal(readFileSync(join(dir, 'conf', 'k.txt'), 'utf8'), 'v2');
      assert.deepEqual(readdirSync(dir).filter((e) => e.startsWith('..2')).length, 1, 'the old timestamped directory is gone');
    },
  },
  {
    rule: 'a missing Secret in env: CreateContainerConfigError with upstream\'s message, retried on the back-off',
    async run(h) {
      objectStore(h);
      const pod = mkpod({ containers: [ctr('c', { env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] })] });
      const r = await h.sync(pod);
      assert.deepEqual(cs(r.status, 'c').state?.waiting, { reason: 'CreateContainerConfigError', message: 'secret "db" not found' });
      assert.ok(h.events.includes('Warning Failed Error: secret "db" not found'), h.events.join('\n'));
      assert.equal(r.nextSyncMs, initialMs);
    },
  },
  {
    rule: 'stdin, stdinOnce and tty reach the runtime as the CRI passes them (conmon --stdin, --leave-stdin-open unless stdinOnce, --terminal and process.terminal), and attach finds them on the running instance',
    async run(h) {
      const pod = mkpod({
        containers: [ctr('once', { stdin: true, stdinOnce: true, tty: true }), ctr('open', { stdin: true }), ctr('none'), ctr('ttyonly', { tty: true })],
      });
      await h.syncUntil(pod, running('once', 'open', 'none', 'ttyonly'), 'all running');
      const stdio = Object.fromEntries(h.rt.calls.filter((c) => c.op === 'startMonitored').map((c) => [c.name, c.stdio]));
      assert.deepEqual(stdio, { once: { stdin: { once: true }, tty: true }, open: { stdin: { once: false } }, none: undefined, ttyonly: { tty: true } });
      const terminal = (n: string) => (containerSpec(h, pod, n).process as { terminal?: boolean }).terminal;
      assert.deepEqual(['once', 'open', 'none', 'ttyonly'].map(terminal), [true, false, false, true]);
      const inst = (n: string) => {
        const r = h.worker.runningInstance('default', pod.metadata.name!, n)!;
        return { stdin: r.stdin, tty: r.tty };
      };
      assert.deepEqual(['once', 'open', 'none', 'ttyonly'].map(inst), [
        { stdin: 'once', tty: true },
        { stdin: 'open', tty: undefined },
        { stdin: undefined, tty: undefined },
        { stdin: undefined, tty: true },
      ]);
    },
  },
];

/** ConfigMaps and Secrets the worker reads, changed by the row as it goes. */
function objectStore(h: Harness): { configMaps: Map<string, ConfigMap>; secrets: Map<string, Secret> } {
  const s = { configMaps: new Map<string, ConfigMap>(), secrets: new Map<string, Secret>() };
  h.opts.objects = { configMap: async (_ns, n) => s.configMaps.get(n) ?? null, secret: async (_ns, n) => s.secrets.get(n) ?? null };
  return s;
}

/** The config.json of a container's current instance. */
function containerSpec(h: Harness, pod: Pod, name: string): { mounts: { destination: string; source: string; options: string[] }[]; process: { env: string[] } } {
  return JSON.parse(readFileSync(join(h.opts.runDir, 'bundles', h.rt.running(name), 'config.json'), 'utf8'));
}

describe('PodWorker sync rules (fake runtime and cgroups)', () => {
  for (const row of rows) {
    it(row.rule, { timeout: 120_000 }, async () => {
      const h = harness(row.setup);
      try {
        await row.run(h);
      } finally {
        rmSync(h.dir, { recursive: true, force: true });
      }
    });
  }
});
