// Lifecycle hooks in the pod worker's start and stop (podworker/start.ts, stop.ts, hooks.ts), one
// row per rule, on the fake runtime of harness.ts: its exec runs the hook's command on the host,
// and its clock moves only when a row moves it, so every grace here is exact. The real runtime's
// hooks are tested in test/agent/hooks.test.ts (kernel tier).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cs, ctr, deleting, harness, mkpod, running, starts, type Harness } from './harness.js';

interface Row {
  rule: string;
  run(h: Harness): Promise<void>;
}

/** The runtime calls on container `name`, as `exec` or the signal, in order. */
const callsOn = (h: Harness, name: string) => h.rt.calls.filter((c) => c.name === name && (c.op === 'exec' || c.op === 'kill')).map((c) => (c.op === 'exec' ? 'exec' : c.signal));

/** Syncs (no time passes on the fake clock) until `until` holds; a hook runs on the host meanwhile. */
async function syncWhile(h: Harness, pod: Parameters<Harness['sync']>[0], until: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await h.sync(pod);
    if (until()) return;
  }
  throw new Error(`${what}: not reached in 200 syncs; calls ${JSON.stringify(callsOn(h, 'c'))}; events ${h.events.join(' | ')}`);
}

/** A hook command that ends once `file` exists (the row creates it). */
const waitFor = (file: string) => `while [ ! -e ${file} ]; do sleep 0.02; done`;

/** Waits (real time, bounded) until `until` holds: something the worker does in the background. */
async function syncWhile0(until: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000 && !until(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(until(), `${what}: not seen within 30 s`);
}

const rows: Row[] = [
  {
    rule: 'postStart exec that passes: the container runs, no hook event, nothing signalled',
    async run(h) {
      const marker = join(h.dir, 'post-start-ran');
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { postStart: { exec: { command: ['touch', marker] } } } })] });
      const st = await h.syncUntil(pod, running('c'), 'c running');
      assert.ok(existsSync(marker), 'the hook ran');
      assert.equal(cs(st, 'c').restartCount, 0);
      assert.deepEqual(callsOn(h, 'c'), ['exec']);
      assert.ok(!h.events.some((e) => /Hook/.test(e)), h.events.join('\n'));
    },
  },
  {
    rule: 'postStart exec that fails: FailedPostStartHook "PostStartHook failed", Killing "FailedPostStartHook", waiting PostStartHookError with the handler message, then restarted',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] } } } })] });
      const r = await h.sync(pod);
      const st = cs(r.status, 'c');
      assert.equal(st.state?.waiting?.reason, 'PostStartHookError');
      assert.equal(
        st.state?.waiting?.message,
        `Exec lifecycle hook ([sh -c echo out; echo err >&2; exit 3]) for Container "c" in Pod "${pod.metadata.name}_default(${pod.metadata.uid})" failed - error: command 'sh -c echo out; echo err >&2; exit 3' exited with 3: err\n, message: "out\\nerr\\n"`,
      );
      assert.equal(st.lastState?.terminated?.exitCode, 143);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM']);
      const i = h.events.indexOf('Warning FailedPostStartHook PostStartHook failed');
      assert.ok(i > h.events.indexOf('Normal Started Started container c'), h.events.join('\n'));
      assert.equal(h.events[i + 1], 'Normal Killing FailedPostStartHook');
      // The first exit restarts at once (whose hook fails again); the second waits out the back-off.
      await h.sync(pod);
      assert.deepEqual(starts(h), ['c', 'c']);
      const third = await h.sync(pod);
      assert.equal(cs(third.status, 'c').state?.waiting?.reason, 'CrashLoopBackOff');
      assert.deepEqual(starts(h), ['c', 'c']);
    },
  },
  {
    rule: 'postStart tcpSocket (deprecated): not run, it fails as "Cannot run handler" and the container is killed',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { postStart: { tcpSocket: { port: 8080 } } } })] });
      const st = cs((await h.sync(pod)).status, 'c');
      assert.equal(st.state?.waiting?.reason, 'PostStartHookError');
      assert.equal(st.state?.waiting?.message, 'Cannot run handler: invalid handler: &LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{0 8080 },Host:,},Sleep:nil,}');
      assert.deepEqual(callsOn(h, 'c'), ['TERM']);
    },
  },
  {
    rule: 'a postStart exec still running when the pod is stopped is cut short (the kubelet cancels the sync): FailedPostStartHook, the CRI\'s "context canceled", the pod stops',
    async run(h) {
      const release = join(h.dir, 'never');
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { postStart: { exec: { command: ['sh', '-c', waitFor(release)] } } } })] });
      const syncing = h.sync(pod);
      await syncWhile0(() => callsOn(h, 'c').includes('exec'), 'the hook started');
      const out = await h.worker.terminate(pod, 30, (_p, type, reason, message) => h.events.push(`${type} ${reason} ${message}`));
      const first = await syncing;
      assert.equal(out.done, true);
      assert.equal(cs(first.status, 'c').state?.waiting?.reason, 'PostStartHookError');
      assert.match(cs(first.status, 'c').state?.waiting?.message ?? '', /failed - error: rpc error: code = Canceled desc = context canceled, message: ""$/);
      assert.ok(h.events.includes('Warning FailedPostStartHook PostStartHook failed'), h.events.join('\n'));
      writeFileSync(release, '');
    },
  },
  {
    rule: 'a postStart sleep cut short by a stop fails with "container terminated before sleep hook finished"',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { postStart: { sleep: { seconds: 3600 } } } })] });
      const syncing = h.sync(pod);
      await syncWhile0(() => h.events.includes('Normal Started Started container c'), 'the start');
      await h.worker.terminate(pod, 30, () => undefined);
      const st = cs((await syncing).status, 'c');
      assert.equal(st.state?.waiting?.message, `Sleep lifecycle hook (3600) for Container "c" in Pod "${pod.metadata.name}_default(${pod.metadata.uid})" failed - error: container terminated before sleep hook finished`);
    },
  },
  {
    rule: 'preStop exec runs before SIGTERM: the hook first, then TERM once it is done',
    async run(h) {
      const marker = join(h.dir, 'pre-stop-ran');
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['touch', marker] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await syncWhile(h, pod, () => callsOn(h, 'c').includes('TERM'), 'TERM');
      assert.ok(existsSync(marker));
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM']);
      assert.ok(h.events.includes('Normal Killing Stopping container c'), h.events.join('\n'));
    },
  },
  {
    rule: 'a preStop hook still running holds SIGTERM back until the grace is used up; then TERM, and SIGKILL after the 2 s minimum',
    async run(h) {
      const release = join(h.dir, 'release');
      const pod = mkpod({ terminationGracePeriodSeconds: 10, containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['sh', '-c', waitFor(release)] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      h.rt.ignoreTerm.add('c');
      deleting(pod);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec']);
      h.advance(9_999);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec'], 'no TERM within the grace');
      h.advance(1);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM']);
      h.advance(1_999);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM']);
      h.advance(1);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM', 'KILL']);
      writeFileSync(release, '');
    },
  },
  {
    rule: "the preStop hook's whole seconds are taken from the grace: a 3.5 s hook leaves 7 s of a 10 s grace",
    async run(h) {
      const release = join(h.dir, 'release');
      const pod = mkpod({ terminationGracePeriodSeconds: 10, containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['sh', '-c', waitFor(release)] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      h.rt.ignoreTerm.add('c');
      deleting(pod);
      await h.sync(pod);
      h.advance(3_500);
      writeFileSync(release, '');
      await syncWhile(h, pod, () => callsOn(h, 'c').includes('TERM'), 'TERM after the hook');
      h.advance(6_999);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM']);
      h.advance(1);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec', 'TERM', 'KILL']);
    },
  },
  {
    rule: "a sidecar's preStop hook starts with the stop, as every container's does, but its SIGTERM waits for the regular containers to exit",
    async run(h) {
      const marker = join(h.dir, 'sidecar-pre-stop');
      const pod = mkpod({
        initContainers: [ctr('s', { restartPolicy: 'Always', lifecycle: { preStop: { exec: { command: ['touch', marker] } } } })],
        containers: [ctr('c')],
      });
      await h.syncUntil(pod, running('s', 'c'), 's and c running');
      h.rt.ignoreTerm.add('c');
      deleting(pod);
      await syncWhile(h, pod, () => existsSync(marker) && callsOn(h, 'c').includes('TERM'), "the sidecar's hook and c's TERM");
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 's'), ['exec'], 'no TERM for the sidecar while c runs');
      h.rt.exit(h.rt.running('c'), 143);
      await syncWhile(h, pod, () => callsOn(h, 's').includes('TERM'), "the sidecar's TERM");
      assert.deepEqual(callsOn(h, 's'), ['exec', 'TERM']);
    },
  },
  {
    rule: 'a failing preStop hook: FailedPreStopHook "PreStopHook failed", and the container is stopped all the same',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['sh', '-c', 'exit 1'] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await syncWhile(h, pod, () => callsOn(h, 'c').includes('TERM'), 'TERM');
      assert.ok(h.events.includes('Warning FailedPreStopHook PreStopHook failed'), h.events.join('\n'));
    },
  },
  {
    rule: "a preStop hook that fails after the sync that started it returned: FailedPreStopHook goes to the worker's sink of events between syncs",
    async run(h) {
      const later: string[] = [];
      h = harness({ worker: { probeEvents: (_p, type, reason, message) => later.push(`${type} ${reason} ${message}`) } });
      const release = join(h.dir, 'release');
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['sh', '-c', `${waitFor(release)}; exit 1`] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      deleting(pod);
      await h.sync(pod);
      assert.deepEqual(callsOn(h, 'c'), ['exec'], 'the hook still runs');
      writeFileSync(release, '');
      await syncWhile0(() => later.includes('Warning FailedPreStopHook PreStopHook failed'), 'the event');
      assert.ok(!h.events.includes('Warning FailedPreStopHook PreStopHook failed'));
    },
  },
  {
    rule: 'a termination with no grace (a forced delete) runs no preStop hook',
    async run(h) {
      const pod = mkpod({ containers: [ctr('c', { lifecycle: { preStop: { exec: { command: ['true'] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      const out = await h.worker.terminate(pod, 0, () => undefined);
      assert.equal(out.done, true);
      assert.deepEqual(callsOn(h, 'c'), ['TERM']);
    },
  },
  {
    rule: 'the kill of one container for a restart (a changed definition) runs its preStop hook too',
    async run(h) {
      const marker = join(h.dir, 'restart-pre-stop');
      const pod = mkpod({ containers: [ctr('c', { image: 'busybox', lifecycle: { preStop: { exec: { command: ['touch', marker] } } } })] });
      await h.syncUntil(pod, running('c'), 'c running');
      // A changed image is a definition change: the kubelet kills and restarts the container.
      pod.spec.containers[0]!.image = 'docker.io/library/busybox:latest';
      await syncWhile(h, pod, () => callsOn(h, 'c').includes('TERM'), 'TERM of the changed container');
      assert.ok(existsSync(marker));
      assert.deepEqual(callsOn(h, 'c').slice(0, 2), ['exec', 'TERM']);
    },
  },
];

describe('lifecycle hooks in the pod worker (fake runtime)', () => {
  for (const row of rows) {
    it(row.rule, { timeout: 60_000 }, async () => {
      const h = harness();
      await row.run(h);
    });
  }
});
