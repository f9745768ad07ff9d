// kubectl debug on `bulkhead up` (runc on this host) with the real kubectl: the ephemeral
// container it adds through pods/ephemeralcontainers runs in the pod, in the PID namespace of
// its --target (its `ps` sees the target's process), its output is read with `kubectl logs -c`,
// its state is reported in ephemeralContainerStatuses and it is never restarted; `kubectl debug
// -it` attaches a terminal to it; kubectl 1.27 to 1.33 (those on this machine) add one the same
// way. Needs root, runc, conmon, busybox-static, util-linux script and kubectl; anywhere else the
// suite skips and says why.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { existsSync } from 'node:fs';
import { runProcess } from './runprocess.js';
import { startUp, type Result, type UpCluster } from './upcluster.js';

/** The side kubectl releases on this machine, oldest and newest that Bulkhead supports among them. */
const sideClients = [27, 29, 31, 33].map((minor) => ({ minor, binary: `/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}` })).filter((k) => existsSync(k.binary));

const reason =
  realKernelSkipReason(['runc', 'conmon']) ??
  kubectlAvailable() ??
  (spawnSync('script', ['--version']).status === 0 ? undefined : 'util-linux script (a terminal for kubectl debug -it) is not on PATH');
if (reason) console.error(`test/e2e/debug.test: SKIPPING kubectl debug: ${reason}`);
const skip = reason ? { skip: reason } : {};

const pod = `apiVersion: v1
kind: Pod
metadata: {name: target}
spec:
  containers: [{name: app, image: busybox, command: [sh, -c, 'exec sleep 3600']}]
`;

interface EphemeralStatus {
  name: string;
  restartCount: number;
  state: { running?: unknown; terminated?: { exitCode: number } };
}

describe('kubectl debug on bulkhead up', skip, () => {
  let c: UpCluster;

  /** kubectl debug under `script` (a terminal), as a user types it; what was typed is written to its stdin. */
  function debugInTerminal(args: string[], typed: string): Promise<Result> {
    const env = { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir };
    const quoted = ['kubectl', '--cache-dir', join(c.dir, 'kube-cache-tty'), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-q', '-e', '-c', `stty cols 100 rows 30; exec ${quoted}`, '/dev/null'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined);
    child.stdin.write(typed);
    return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  }

  const ephemeral = async (name: string): Promise<EphemeralStatus | undefined> => {
    const p = JSON.parse(await c.ok(['get', 'pod', 'target', '-o', 'json'])) as { status: { ephemeralContainerStatuses?: EphemeralStatus[] } };
    return p.status.ephemeralContainerStatuses?.find((s) => s.name === name);
  };
  const debuggers = async (): Promise<string[]> => {
    const p = JSON.parse(await c.ok(['get', 'pod', 'target', '-o', 'json'])) as { spec: { ephemeralContainers?: { name: string }[] } };
    return (p.spec.ephemeralContainers ?? []).map((e) => e.name);
  };

  before(async () => {
    c = await startUp();
    await c.ok(['apply', '-f', c.file('pod.yaml', pod)]);
    await c.ok(['wait', '--for=condition=Ready', 'pod/target', '--timeout=120s']);
  });
  after(async () => {
    await c?.stop();
  });

  it('kubectl debug --target runs a debugger in the target\'s PID namespace; kubectl logs -c reads it; it is not restarted', async () => {
    const r = await c.kubectl(['debug', 'target', '--image=busybox', '--target=app', '--', 'sh', '-c', 'echo hi from the debugger; ps -o pid,args']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [name] = await debuggers();
    assert.match(name ?? '', /^debugger-/);
    const done = await c.until('the debugger to exit', async () => {
      const s = await ephemeral(name!);
      return s?.state.terminated ? s : undefined;
    }, 120_000);
    assert.equal(done.state.terminated!.exitCode, 0);
    const logs = await c.ok(['logs', 'target', '-c', name!]);
    assert.match(logs, /^hi from the debugger\n/);
    // The target's process is pid 1 of the namespace the debugger joined.
    assert.match(logs, /^\s*1\s+sleep 3600$/m);
    // Never restarted: a later status still shows the one run.
    const again = await ephemeral(name!);
    assert.equal(again?.restartCount, 0);
    assert.ok(again?.state.terminated, JSON.stringify(again));
  });

  for (const k of sideClients) {
    it(`kubectl 1.${k.minor} debug --container adds a debugger that runs and is read with logs -c`, async () => {
      const env = { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir };
      const name = `dbg-1${k.minor}`;
      const r = await runProcess(k.binary, ['--cache-dir', join(c.dir, `kube-cache-${k.minor}`), 'debug', 'target', '--image=busybox', '--target=app', `--container=${name}`, '--', 'sh', '-c', `echo hi from 1.${k.minor}`], env);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      await c.until(`${name} to exit`, async () => ((await ephemeral(name))?.state.terminated ? true : undefined), 120_000);
      assert.equal(await c.ok(['logs', 'target', '-c', name]), `hi from 1.${k.minor}\n`);
    });
  }

  it('kubectl debug -it attaches a terminal to the debugger: what is typed reaches it', async () => {
    const before = await debuggers();
    const r = await debugInTerminal(['debug', '-it', 'target', '--image=busybox', '--target=app', '--', 'sh', '-c', 'read l; tty; echo "got $l"'], 'typed\n');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /got typed\r?\n/);
    assert.match(r.stdout, /\/dev\/pts\/\d+\r?\n/);
    const added = (await debuggers()).filter((n) => !before.includes(n));
    assert.equal(added.length, 1);
  });
});
