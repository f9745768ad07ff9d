// Container probes on the real kernel: PodWorker runs busybox containers under runc and conmon,
// and its ProbeManager probes them by `runc exec` and, for tcpSocket and httpGet, inside the
// pod's network namespace (busybox nc, busybox httpd in the container). Needs root, runc, conmon
// and a cgroup v1 memory hierarchy (test/agent/cgrouptrees.ts says why it skips otherwise). Every
// cgroup is below /<hierarchy>/bulkhead-test-<random>/ and removed in `after`. Nothing here asserts
// a duration: each row syncs until the status shows what it waits for, within a generous bound.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PodWorker } from '../../src/agent/podworker.js';
import type { Container, Pod, PodStatus } from '../../src/api/types.js';
import { podNetnsByUID } from '../../src/agent/podworker/queries.js';
import { realKernelSkipReason } from './cgrouptrees.js';
import { cleanUpRealWorker } from './workercleanup.js';
import { bb, converge as convergeWorker, cs, eventLog, podMaker, realWorkerOptions } from './workerpods.js';

const reason = realKernelSkipReason(['runc', 'conmon', 'mount', 'umount', 'nsenter']);
if (reason) console.error(`test/agent/probes.test: SKIPPING real-kernel probe tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const { pods, mkpod } = podMaker();

const cond = (s: PodStatus, type: string) => s.conditions?.find((c) => c.type === type)?.status;

describe('container probes on this host (real kernel)', { ...opts, concurrency: true }, () => {
  let base = '';
  let worker: PodWorker;
  const log = eventLog();
  const { sink, evs } = log;
  /** Syncs (as the agent does on exits, timers and probe results) until `until` holds. */
  const converge = (pod: Pod, until: (s: PodStatus) => boolean, what: string, timeoutMs?: number) => convergeWorker(worker, log, pod, until, what, timeoutMs);

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-probes-test-'));
    worker = new PodWorker({ ...(await realWorkerOptions(base, top)), probeEvents: sink });
  });

  /** Processes this file started (ended by their own handle). */
  const children = new Set<ChildProcess>();

  after(async () => {
    if (reason) return;
    for (const ch of children) ch.kill('SIGKILL');
    await cleanUpRealWorker(worker, pods, base, top, { cgroupsBelowTop: true });
  });

  it('exec readiness: running but not ready (ContainersReady and Ready False) until `cat /tmp/ready` succeeds; the failures are Unhealthy events with cat\'s output', async () => {
    const pod = mkpod('exec-ready', { containers: [bb('app', 'sleep 3; touch /tmp/ready; exec sleep 1000', { readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1, failureThreshold: 1 } })] });
    const first = await converge(pod, (s) => cs(s, 'app').state?.running !== undefined, 'running');
    assert.equal(cs(first, 'app').ready, false);
    assert.equal(cs(first, 'app').started, true);
    assert.equal(cond(first, 'ContainersReady'), 'False');
    assert.equal(cond(first, 'Ready'), 'False');
    const ready = await converge(pod, (s) => cs(s, 'app').ready, 'ready');
    assert.equal(cond(ready, 'ContainersReady'), 'True');
    assert.equal(cond(ready, 'Ready'), 'True');
    assert.ok(evs(pod).some((e) => /^Warning Unhealthy Readiness probe failed: cat: can't open '\/tmp\/ready': No such file or directory/.test(e)), JSON.stringify(evs(pod)));
  });

  it('exec liveness failing: Unhealthy, Killing "Container app failed liveness probe, will be restarted" with the probe\'s 1 s grace (the pod\'s is 600 s), restartCount 1', async () => {
    const pod = mkpod('exec-live', {
      terminationGracePeriodSeconds: 600,
      containers: [bb('app', 'trap "" TERM; while true; do sleep 1; done', { livenessProbe: { exec: { command: ['sh', '-c', 'echo sick; exit 3'] }, periodSeconds: 1, failureThreshold: 2, terminationGracePeriodSeconds: 1 } })],
    });
    const s = await converge(pod, (st) => cs(st, 'app').restartCount >= 1 && cs(st, 'app').state?.running !== undefined, 'a liveness restart');
    // Ignoring SIGTERM, it ended by the SIGKILL the probe's grace allowed.
    assert.equal(cs(s, 'app').lastState?.terminated?.exitCode, 137);
    assert.ok(evs(pod).includes('Warning Unhealthy Liveness probe failed: sick\n'), JSON.stringify(evs(pod)));
    assert.ok(evs(pod).includes('Normal Killing Container app failed liveness probe, will be restarted'), JSON.stringify(evs(pod)));
  });

  it('exec probe timeoutSeconds: a probe that outlives it fails with `command "…" timed out`', async () => {
    const pod = mkpod('exec-timeout', { containers: [bb('app', 'exec sleep 1000', { readinessProbe: { exec: { command: ['sleep', '30'] }, periodSeconds: 2, timeoutSeconds: 1, failureThreshold: 1 } })] });
    await converge(pod, () => evs(pod).some((e) => e.startsWith('Warning Unhealthy Readiness probe failed: command "sleep 30" timed out')), 'a timed-out probe');
    const s = await worker.sync(pod, sink);
    assert.equal(cs(s.status, 'app').ready, false);
  });

  it('startupProbe: not started and not ready, its liveness probe held back, until startup succeeds; then started, ready', async () => {
    const pod = mkpod('startup', {
      containers: [
        bb('app', 'sleep 3; touch /tmp/started; exec sleep 1000', {
          startupProbe: { exec: { command: ['test', '-f', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 60 },
          // Would kill the container at once if it ran before startup succeeded.
          livenessProbe: { exec: { command: ['test', '-f', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 1 },
        }),
      ],
    });
    const first = await converge(pod, (s) => cs(s, 'app').state?.running !== undefined, 'running');
    assert.equal(cs(first, 'app').started, false);
    assert.equal(cs(first, 'app').ready, false);
    const s = await converge(pod, (st) => cs(st, 'app').started === true, 'started');
    assert.equal(cs(s, 'app').ready, true);
    assert.equal(cs(s, 'app').restartCount, 0);
    assert.ok(!evs(pod).some((e) => e.includes('Liveness probe failed')), JSON.stringify(evs(pod)));
  });

  it('startupProbe failing: "Startup probe failed", Killing "Container app failed startup probe, will be restarted", restartCount 1', async () => {
    const pod = mkpod('startup-fail', { containers: [bb('app', 'trap "exit 0" TERM; sleep 1000 & wait', { startupProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 2 } })] });
    await converge(pod, (st) => cs(st, 'app').restartCount >= 1, 'a startup restart');
    assert.ok(evs(pod).includes('Warning Unhealthy Startup probe failed: '), JSON.stringify(evs(pod)));
    assert.ok(evs(pod).includes('Normal Killing Container app failed startup probe, will be restarted'), JSON.stringify(evs(pod)));
  });

  it('tcpSocket in the pod\'s network namespace: refused until httpd listens on 8080 (dial tcp 127.0.0.1:8080: connect: connection refused), then ready', async () => {
    const pod = mkpod('tcp', { containers: [bb('app', 'mkdir -p /www; sleep 3; exec httpd -f -p 8080 -h /www', { readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1, failureThreshold: 1 } })] });
    await converge(pod, (s) => cs(s, 'app').ready, 'ready');
    assert.ok(evs(pod).includes('Warning Unhealthy Readiness probe failed: dial tcp 127.0.0.1:8080: connect: connection refused'), JSON.stringify(evs(pod)));
  });

  it('httpGet in the pod\'s network namespace: a named port, 404 fails with the status code, 200 succeeds; the request carries User-Agent kube-probe/1.32, Accept */* and the probe\'s headers', async () => {
    // busybox nc as the HTTP server (busybox httpd's CGI needs glibc's NSS, absent in the image):
    // 404 until /tmp/healthy exists, then 200; the requests are appended to /tmp/reqs (nc answers
    // at once, so a probe may be done, and its relay gone, before its request got through).
    const resp = (code: string) => `printf 'HTTP/1.1 ${code}\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n' > /r${code.slice(0, 3)}`;
    const script = `${resp('404 Not Found')}; ${resp('200 OK')}; (sleep 4; touch /tmp/healthy) & while true; do r=/r404; [ -f /tmp/healthy ] && r=/r200; nc -l -p 8080 < $r >> /tmp/reqs; done`;
    const pod = mkpod('http', {
      containers: [bb('app', script, { ports: [{ name: 'web', containerPort: 8080 }], readinessProbe: { httpGet: { port: 'web', path: '/healthz', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] }, periodSeconds: 1, failureThreshold: 1 } })],
    });
    await converge(pod, (s) => cs(s, 'app').ready, 'ready');
    assert.ok(evs(pod).includes('Warning Unhealthy Readiness probe failed: HTTP probe failed with statuscode: 404'), JSON.stringify(evs(pod)));
    const id = cs((await worker.sync(pod, sink)).status, 'app').containerID!.replace('runc://', '');
    const reqs = readFileSync(join(worker.records.bundleDir(id), 'rootfs', 'tmp', 'reqs'), 'utf8').split('\r\n\r\n').filter(Boolean).map((r) => r.split('\r\n'));
    assert.ok(reqs.length > 0, 'no request reached the server');
    for (const req of reqs) {
      assert.equal(req[0], 'GET /healthz HTTP/1.1');
      for (const h of ['User-Agent: kube-probe/1.32', 'Accept: */*', 'X-Probe: yes', 'Host: 127.0.0.1:8080']) assert.ok(req.includes(h), `${h} in ${JSON.stringify(req)}`);
    }
  });

  it('httpGet to a port nobody listens on: Get "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused', async () => {
    const pod = mkpod('http-refused', { containers: [bb('app', 'exec sleep 1000', { readinessProbe: { httpGet: { port: 9, path: '/' }, periodSeconds: 1, failureThreshold: 1 } })] });
    await converge(pod, () => evs(pod).includes('Warning Unhealthy Readiness probe failed: Get "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused'), 'a refused HTTP probe');
  });
  it('grpc in the pod\'s network namespace: NOT_SERVING fails in the kubelet\'s words, SERVING makes the container ready', async () => {
    const pod = mkpod('grpc', { containers: [bb('app', 'exec sleep 1000', { readinessProbe: { grpc: { port: 50051, service: 'app' }, periodSeconds: 1, failureThreshold: 1 } })] });
    await converge(pod, (s) => cs(s, 'app').state?.running !== undefined, 'running');
    // The busybox image has no gRPC server: one runs from this host, inside the pod's network namespace.
    const netns = podNetnsByUID(worker, pod.metadata.uid!);
    assert.ok(netns && netns !== 'host', `pod netns ${netns}`);
    const server = `const h2=require('node:http2');const fs=require('node:fs');const s=h2.createServer();s.on('stream',(st)=>{st.on('data',()=>{});st.on('end',()=>{const ok=fs.existsSync(process.argv[1]);st.respond({':status':200,'content-type':'application/grpc'},{waitForTrailers:true});st.on('wantTrailers',()=>st.sendTrailers({'grpc-status':'0'}));st.end(Buffer.from([0,0,0,0,2,8,ok?1:2]));});});s.listen(50051,'127.0.0.1');`;
    const flag = join(base, 'grpc-serving');
    const child = spawn('nsenter', [`--net=${netns}`, process.execPath, '-e', server, flag], { stdio: 'ignore' });
    children.add(child);
    await converge(pod, () => evs(pod).includes('Warning Unhealthy Readiness probe failed: service unhealthy (responded with "NOT_SERVING")'), 'a NOT_SERVING answer');
    writeFileSync(flag, '');
    await converge(pod, (s) => cs(s, 'app').ready, 'ready');
    child.kill('SIGKILL');
    children.delete(child);
  });
});
