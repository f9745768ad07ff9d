// kubectl exec, attach, cp and port-forward on `bulkhead up` (runc on this host), with the
// kubectl clients that speak each protocol: 1.29 SPDY/3.1 for everything, 1.31 and 1.33
// WebSocket v5.channel.k8s.io for exec/attach/cp and SPDY tunnelled in WebSocket for
// port-forward, and the `kubectl` on PATH (1.32). For each: exec with the exit code
// propagated, stdin piped, a TTY (kubectl under `script` for a terminal; the size it sets is
// the one the command sees), attach to a container's output, cp in both directions (busybox
// tar in the container), port-forward to busybox httpd with an HTTP GET through it, `run -i
// --rm` with piped stdin (stdinOnce), `run -it --rm` (a terminal) and `attach -i` to a stdin:
// true container (stdin left open between sessions). Needs root, runc, conmon, busybox-static, util-linux script and kubectl (and the side
// binaries); anywhere else the suite skips and says why.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type Result, type UpCluster } from './upcluster.js';

const side = (minor: number) => `/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`;
const clients = [
  { name: 'kubectl 1.29 (SPDY)', binary: side(29) },
  { name: 'kubectl 1.31 (WebSocket)', binary: side(31) },
  { name: 'kubectl 1.33 (WebSocket)', binary: side(33) },
  { name: 'kubectl on PATH (1.32)', binary: 'kubectl' },
];
const reason =
  realKernelSkipReason(['runc', 'conmon']) ??
  kubectlAvailable() ??
  clients.map((c) => (c.binary === 'kubectl' || existsSync(c.binary) ? undefined : `${c.binary} is missing`)).find((m) => m) ??
  (spawnSync('script', ['--version']).status === 0 ? undefined : 'util-linux script (a terminal for kubectl exec -t) is not on PATH');
if (reason) console.error(`test/e2e/exec.test: SKIPPING kubectl exec/attach/cp/port-forward: ${reason}`);
const skip = reason ? { skip: reason } : {};

const pods = `apiVersion: v1
kind: Pod
metadata: {name: shell}
spec:
  containers: [{name: sh, image: busybox, command: [sleep, "3600"]}]
---
apiVersion: v1
kind: Pod
metadata: {name: ticker}
spec:
  containers: [{name: tick, image: busybox, command: [sh, -c, 'i=0; while true; do i=$((i+1)); echo tick $i; echo tock $i >&2; sleep 0.5; done']}]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: httpd, image: busybox, command: [sh, -c, 'mkdir -p /www && echo hello from the pod > /www/index.html && exec httpd -f -p 8080 -h /www']}]
---
apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  containers: [{name: read, image: busybox, stdin: true, command: [sh, -c, 'while read l; do echo "got $l"; done; echo "stdin closed"']}]
`;

describe('kubectl exec, attach, cp and port-forward on bulkhead up', skip, () => {
  let c: UpCluster;
  const children = new Set<ChildProcess>();

  /** A kubectl child of this test (killed by the test, by its own handle). */
  function start(binary: string, args: string[], opts: { tty?: boolean } = {}): { child: ChildProcess; out: () => string; done: Promise<Result> } {
    const env = { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir };
    const base = ['--cache-dir', join(c.dir, `kube-cache-${binary.replace(/\W/g, '')}`)];
    const quoted = [binary, ...base, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = opts.tty ? spawn('script', ['-q', '-e', '-c', `stty cols 100 rows 30; exec ${quoted}`, '/dev/null'], { env }) : spawn(binary, [...base, ...args], { env });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdin!.on('error', () => undefined);
    const done = new Promise<Result>((resolve) =>
      child.on('close', (code) => {
        children.delete(child);
        resolve({ code: code ?? -1, stdout, stderr });
      }),
    );
    return { child, out: () => stdout + stderr, done };
  }

  function run(binary: string, args: string[], input?: string): Promise<Result> {
    const p = start(binary, args);
    p.child.stdin!.end(input ?? '');
    return p.done;
  }

  function httpGet(port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  }

  before(async () => {
    c = await startUp();
    await c.ok(['apply', '-f', c.file('pods.yaml', pods)]);
    await c.ok(['wait', '--for=condition=Ready', 'pod/shell', 'pod/ticker', 'pod/web', 'pod/reader', '--timeout=120s']);
  });
  after(async () => {
    for (const ch of children) ch.kill('SIGKILL');
    await c?.stop();
  });

  for (const k of clients) {
    describe(k.name, () => {
      it('exec runs the command in the container; a non-zero exit is reported and is kubectl\'s exit code', async () => {
        const ok = await run(k.binary, ['exec', 'shell', '--', 'sh', '-c', 'echo out; echo err >&2; hostname']);
        assert.equal(ok.code, 0, ok.stderr);
        assert.equal(ok.stdout, 'out\nshell\n');
        assert.equal(ok.stderr, 'err\n');
        const bad = await run(k.binary, ['exec', 'shell', '--', 'sh', '-c', 'exit 7']);
        assert.equal(bad.code, 7);
        assert.match(bad.stderr, /command terminated with exit code 7/);
      });

      it('exec -i passes stdin through to its end', async () => {
        const r = await run(k.binary, ['exec', '-i', 'shell', '--', 'sh', '-c', 'cat; echo done'], 'line one\nline two\n');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'line one\nline two\ndone\n');
      });

      it('exec -it gives the command a terminal of the client\'s size', async () => {
        const p = start(k.binary, ['exec', '-it', 'shell', '--', 'sh', '-c', 'stty size; tty; exit 5'], { tty: true });
        const r = await p.done;
        assert.equal(r.code, 5, r.stdout + r.stderr);
        assert.match(r.stdout, /30 100\r*\n/);
        assert.match(r.stdout, /\/dev\/pts\/\d+/);
        assert.match(r.stdout, /command terminated with exit code 5/);
      });

      it("attach streams the running container's stdout and stderr", async () => {
        const p = start(k.binary, ['attach', 'ticker']);
        await c.until('attached output', async () => (/tick \d+/.test(p.out()) && /tock \d+/.test(p.out()) ? true : undefined), 60_000);
        p.child.kill('SIGTERM');
        await p.done;
      });

      it('run -i --rm --restart=Never: piped stdin reaches the container (stdinOnce: its EOF ends cat), the pod is deleted afterwards', async () => {
        const name = `run-${k.binary.replace(/\W/g, '').slice(-8).toLowerCase()}`;
        const r = await run(k.binary, ['run', '-i', '--rm', '--restart=Never', name, '--image=busybox', '--', 'cat'], 'hi\n');
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /^hi\n/);
        assert.match(r.stdout + r.stderr, new RegExp(`pod "${name}" deleted`));
        const gone = await c.kubectl(['get', 'pod', name]);
        assert.match(gone.stderr, new RegExp(`pods "${name}" not found`));
      });

      it('attach -i delivers stdin to a running stdin: true container; without stdinOnce the session ends at EOF and stdin stays open', async () => {
        const line = `from ${k.name}`;
        const r = await run(k.binary, ['attach', '-i', 'reader'], `${line}\n`);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const logs = await c.until('the attached input read', async () => {
          const l = await c.ok(['logs', 'reader']);
          return l.includes(`got ${line}\n`) ? l : undefined;
        }, 60_000);
        assert.ok(!logs.includes('stdin closed'), logs);
      });

      it('run -it --rm: the container\'s stdin is its terminal, and what the client types reaches it', async () => {
        const name = `tty-${k.binary.replace(/\W/g, '').slice(-8).toLowerCase()}`;
        const p = start(k.binary, ['run', '-it', '--rm', '--restart=Never', name, '--image=busybox', '--', 'sh', '-c', 'read l; tty; echo "got $l"'], { tty: true });
        p.child.stdin!.write('typed\n');
        const r = await p.done;
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout, /\/dev\/pts\/\d+\r?\n/);
        assert.match(r.stdout, /got typed\r?\n/);
        const gone = await c.kubectl(['get', 'pod', name]);
        assert.match(gone.stderr, new RegExp(`pods "${name}" not found`));
      });

      it('cp copies a file into the container and back out', async () => {
        const src = c.file(`in-${k.binary.replace(/\W/g, '')}.txt`, `copied by ${k.name}\n`);
        const up = await run(k.binary, ['cp', src, 'shell:/tmp/copied.txt']);
        assert.equal(up.code, 0, up.stderr);
        assert.equal((await run(k.binary, ['exec', 'shell', '--', 'cat', '/tmp/copied.txt'])).stdout, `copied by ${k.name}\n`);
        const back = join(c.dir, `back-${k.binary.replace(/\W/g, '')}.txt`);
        const down = await run(k.binary, ['cp', 'shell:/tmp/copied.txt', back]);
        assert.equal(down.code, 0, down.stderr);
        assert.equal(readFileSync(back, 'utf8'), `copied by ${k.name}\n`);
      });

      it("port-forward reaches busybox httpd inside the pod's network namespace", async () => {
        const p = start(k.binary, ['port-forward', 'pod/web', ':8080']);
        const port = await c.until('the forwarded port', async () => {
          const m = /Forwarding from 127\.0\.0\.1:(\d+) -> 8080/.exec(p.out());
          return m ? Number(m[1]) : undefined;
        }, 60_000);
        assert.equal(await httpGet(port), 'hello from the pod\n');
        assert.equal(await httpGet(port), 'hello from the pod\n', 'a second connection over the same session');
        p.child.kill('SIGTERM');
        await p.done;
      });
    });
  }

  it('the errors before the upgrade are upstream\'s: no such pod, no such container, a container that is not running', async () => {
    const noPod = await c.kubectl(['exec', 'nosuchpod', '--', 'true']);
    assert.equal(noPod.code, 1);
    assert.match(noPod.stderr, /Error from server \(NotFound\): pods "nosuchpod" not found/);
    const noContainer = await c.kubectl(['exec', 'shell', '-c', 'nope', '--', 'true']);
    assert.match(noContainer.stderr, /Error from server \(BadRequest\): container nope is not valid for pod shell/);
    writeFileSync(join(c.dir, 'two.yaml'), `apiVersion: v1
kind: Pod
metadata: {name: two}
spec:
  restartPolicy: Never
  containers:
  - {name: long, image: busybox, command: [sleep, "3600"]}
  - {name: short, image: busybox, command: ["true"]}
`);
    await c.ok(['apply', '-f', join(c.dir, 'two.yaml')]);
    await c.until('the short container to exit', async () => ((await c.pod('two')).status.containerStatuses?.find((s) => s.name === 'short')?.state.terminated ? true : undefined), 120_000);
    const stopped = await c.kubectl(['exec', 'two', '-c', 'short', '--', 'true']);
    assert.equal(stopped.code, 1);
    assert.match(stopped.stderr, /error: unable to upgrade connection: container not found \("short"\)/);
  });
});
