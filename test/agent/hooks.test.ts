// Container lifecycle hooks on the real kernel: PodWorker runs busybox containers under runc and
// conmon, runs postStart right after the start and preStop before SIGTERM, exec by `runc exec`
// and httpGet inside the pod's network namespace (podworker/hooks.ts). Needs root, runc, conmon
// and a cgroup v1 memory hierarchy (test/agent/cgrouptrees.ts says why it skips otherwise). Every
// cgroup is below /<hierarchy>/bulkhead-test-<random>/ and removed in `after`. Nothing here
// asserts a duration: each row syncs until the status or the log shows what it waits for,
// within a generous bound; the order of things is read from the container's own log.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readLogs } from '../../src/agent/monitor/conmon.js';
import { PodWorker } from '../../src/agent/podworker.js';
import type { Container, Pod, PodStatus } from '../../src/api/types.js';
import { realKernelSkipReason } from './cgrouptrees.js';
import { cleanUpRealWorker } from './workercleanup.js';
import { bb, converge as convergeWorker, cs, eventLog, podMaker, realWorkerOptions } from './workerpods.js';

const reason = realKernelSkipReason(['runc', 'conmon', 'mount', 'umount', 'nsenter']);
if (reason) console.error(`test/agent/hooks.test: SKIPPING real-kernel lifecycle hook tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const { pods, mkpod } = podMaker();

describe('container lifecycle hooks on this host (real kernel)', { ...opts, concurrency: true }, () => {
  let base = '';
  let worker: PodWorker;
  const log = eventLog();
  const { sink, evs } = log;
  /** Syncs (as the agent does on exits, timers and probe results) until `until` holds. */
  const converge = (pod: Pod, until: (s: PodStatus) => boolean, what: string, timeoutMs?: number) => convergeWorker(worker, log, pod, until, what, timeoutMs);

  /** The container's current log once it holds `want`. */
  async function logOnce(pod: Pod, container: string, want: RegExp, what: string): Promise<string> {
    let log = '';
    for (let i = 0; i < 3000; i++) {
      const p = worker.logPath('default', pod.metadata.name!, container, false);
      log = p ? readLogs(p) : '';
      if (want.test(log)) return log;
      await sleep(20);
    }
    throw new Error(`pod ${pod.metadata.name}: ${what} not in the log: ${JSON.stringify(log)}; events ${JSON.stringify(evs(pod))}`);
  }

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-hooks-test-'));
    worker = new PodWorker({ ...(await realWorkerOptions(base, top)) });
  });

  after(async () => {
    if (reason) return;
    await cleanUpRealWorker(worker, pods, base, top, { cgroupsBelowTop: true });
  });

  it('postStart exec runs in the container: the file it writes is there for the container to read', async () => {
    const pod = mkpod('post-start', {
      containers: [bb('app', 'while [ ! -f /tmp/post-start ]; do sleep 0.05; done; echo "read: $(cat /tmp/post-start)"; exec sleep 1000', { lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo from-the-hook > /tmp/post-start'] } } } })],
    });
    const s = await converge(pod, (st) => cs(st, 'app').state?.running !== undefined, 'running');
    assert.equal(cs(s, 'app').restartCount, 0);
    await logOnce(pod, 'app', /read: from-the-hook/, "the hook's file");
    assert.ok(!evs(pod).some((e) => /Hook/.test(e)), JSON.stringify(evs(pod)));
  });

  it('a failing postStart hook: FailedPostStartHook "PostStartHook failed", Killing "FailedPostStartHook", waiting PostStartHookError with the exec\'s error and output', async () => {
    const pod = mkpod('post-start-fails', { containers: [bb('app', 'exec sleep 1000', { lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo nope; exit 7'] } } } })] });
    const s = await converge(pod, (st) => cs(st, 'app').state?.waiting?.reason === 'PostStartHookError', 'PostStartHookError');
    assert.equal(
      cs(s, 'app').state?.waiting?.message,
      `Exec lifecycle hook ([sh -c echo nope; exit 7]) for Container "app" in Pod "post-start-fails_default(${pod.metadata.uid})" failed - error: command 'sh -c echo nope; exit 7' exited with 7: , message: "nope\\n"`,
    );
    assert.ok(cs(s, 'app').lastState?.terminated, 'the container was killed');
    const e = evs(pod);
    const i = e.indexOf('Warning FailedPostStartHook PostStartHook failed');
    assert.ok(i > e.indexOf('Normal Started Started container app'), JSON.stringify(e));
    assert.equal(e[i + 1], 'Normal Killing FailedPostStartHook');
  });

  it('a postStart httpGet to a port nobody listens on fails in the kubelet\'s words (dialled in the pod\'s network namespace)', async () => {
    const pod = mkpod('post-start-http', { containers: [bb('app', 'exec sleep 1000', { lifecycle: { postStart: { httpGet: { port: 9, path: '/hook' } } } })] });
    const s = await converge(pod, (st) => cs(st, 'app').state?.waiting?.reason === 'PostStartHookError', 'PostStartHookError');
    assert.equal(
      cs(s, 'app').state?.waiting?.message,
      `HTTP lifecycle hook (/hook) for Container "app" in Pod "post-start-http_default(${pod.metadata.uid})" failed - error: Get "http://127.0.0.1:9/hook": dial tcp 127.0.0.1:9: connect: connection refused`,
    );
  });

  it('preStop exec runs before SIGTERM: the container, trapping TERM, reads what the hook wrote', async () => {
    const pod = mkpod('pre-stop', {
      terminationGracePeriodSeconds: 30,
      containers: [bb('app', `trap 'echo "TERM; preStop wrote: $(cat /tmp/pre-stop)"; exit 0' TERM; echo up; while true; do sleep 0.1; done`, { lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo from-pre-stop > /tmp/pre-stop'] } } } })],
    });
    await converge(pod, (st) => cs(st, 'app').state?.running !== undefined, 'running');
    await logOnce(pod, 'app', /^up$/m, 'up');
    const out = await worker.terminate(pod, 30, sink);
    assert.equal(out.done, true);
    assert.equal(cs(out.status, 'app').state?.terminated?.exitCode, 0, 'it ended on its TERM trap, not a SIGKILL');
    await logOnce(pod, 'app', /TERM; preStop wrote: from-pre-stop/, 'the TERM trap after the hook');
    assert.ok(!evs(pod).includes('Warning FailedPreStopHook PreStopHook failed'), JSON.stringify(evs(pod)));
  });

  it('preStop httpGet reaches the container with User-Agent kube-lifecycle/1.32 before it is stopped; a 500 answer is no failure (the kubelet reads no status code)', async () => {
    // busybox nc as the HTTP server, answering 500; the request it reads goes to the container's log.
    const pod = mkpod('pre-stop-http', {
      terminationGracePeriodSeconds: 2,
      containers: [
        bb('app', `while true; do printf 'HTTP/1.1 500 Internal Server Error\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n' | nc -l -p 8080; done`, {
          lifecycle: { preStop: { httpGet: { port: 8080, path: '/drain' } } },
          // Ready once nc listens on 8080 (0x1F90, state 0A: LISTEN; over IPv4 or IPv6) in the pod's network namespace.
          readinessProbe: { exec: { command: ['sh', '-c', 'cat /proc/net/tcp /proc/net/tcp6 | grep -qE ":1F90 [0-9A-F]+:0000 0A"'] }, periodSeconds: 1 },
        }),
      ],
    });
    await converge(pod, (st) => cs(st, 'app').ready, 'ready');
    const out = await worker.terminate(pod, 2, sink);
    assert.equal(out.done, true);
    const log = await logOnce(pod, 'app', /GET \/drain HTTP\/1\.1/, 'the hook request');
    assert.match(log, /User-Agent: kube-lifecycle\/1\.32/);
    assert.ok(!evs(pod).includes('Warning FailedPreStopHook PreStopHook failed'), JSON.stringify(evs(pod)));
  });
});
