// A real single-node cluster for end-to-end tests: `bulkhead up` as a child process (API
// server, scheduler and node agent running pods with runc on this host) and the real kubectl.
// Every cgroup lives below the test's own --cgroup-root; stop() deletes the pods through the
// API (so the agent stops their containers), stops `up`, checks that the agent removed its own
// cgroups (kubepods, the QoS tiers, the root it made), then kills whatever containers of this
// cluster's runc state directory are left and removes the cgroup tree.

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { hierarchyRoots, removeTestCgroups } from '../agent/cgrouptrees.js';
import { pollUntil } from './poll.js';
import { runProcess, type Result } from './runprocess.js';
import { nodeEnv, nodeFlags } from '../../src/cli/nodeflags.js';

const execFileP = promisify(execFile);

export type { Result } from './runprocess.js';

export interface UpCluster {
  dir: string;
  dataDir: string;
  cgroupRoot: string;
  nodeName: string;
  kubeconfig: string;
  kubectl(args: string[], input?: string): Promise<Result>;
  /** kubectl that must succeed; returns stdout. */
  ok(args: string[], input?: string): Promise<string>;
  file(name: string, text: string): string;
  /** `bulkhead` (this build) with the given args. */
  bulkhead(args: string[]): Promise<Result>;
  /** The agent's endpoint (metrics, logs) as the admin reaches it: through nodes/proxy. */
  agentGet(path: string): Promise<string>;
  /** Waits until `check` returns a value (not undefined), polling every 200 ms. */
  until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  /** The pod as JSON. */
  pod(name: string, namespace?: string): Promise<PodJSON>;
  log(): string;
  /**
   * Stops `bulkhead up` (its containers keep running) and starts it again on the same data;
   * with `extraFlags`, those replace the ones it was started with (e.g. another node default).
   */
  restart(extraFlags?: string[]): Promise<void>;
  /** Stops `bulkhead up` (SIGTERM: its containers keep running); restart() starts it again. Its exit code. */
  halt(): Promise<number>;
  stop(): Promise<void>;
}

export interface PodJSON {
  metadata: { name: string; uid: string; namespace: string };
  spec: { nodeName?: string };
  status: {
    phase?: string;
    qosClass?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: ContainerStatusJSON[];
    initContainerStatuses?: ContainerStatusJSON[];
  };
}

export interface ContainerStatusJSON {
  name: string;
  ready: boolean;
  restartCount: number;
  containerID?: string;
  state: { running?: { startedAt?: string }; waiting?: { reason?: string; message?: string }; terminated?: { exitCode: number; reason?: string; signal?: number } };
  lastState?: { terminated?: { exitCode: number; reason?: string } };
}

export const mainJS = join(process.cwd(), 'dist/bin/main.js');

export async function startUp(extraFlags: string[] = [], opts: { startTimeoutMs?: number } = {}): Promise<UpCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-up-'));
  const dataDir = join(dir, 'data');
  const cgroupRoot = `/bulkhead-test-${randomBytes(6).toString('hex')}`;
  const nodeName = `node-${randomBytes(3).toString('hex')}`;
  let output = '';
  let child!: ChildProcess;
  let exited!: Promise<number>;
  let flags = extraFlags;
  const launch = async () => {
    const args = [mainJS, 'up', '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--agent-listen', '127.0.0.1:0', '--cgroup-root', cgroupRoot, '--node-name', nodeName, ...flags];
    const from = output.length;
    child = spawn(process.execPath, [...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...nodeEnv } });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const c = child;
    exited = new Promise<number>((r) => c.on('exit', (code) => r(code ?? -1)));
    const started = Date.now();
    while (!/Bulkhead API server is running at/.test(output.slice(from))) {
      if (c.exitCode !== null) throw new Error(`bulkhead up exited with ${c.exitCode}:\n${output}`);
      if (Date.now() - started > (opts.startTimeoutMs ?? 60_000)) {
        c.kill('SIGKILL');
        throw new Error(`bulkhead up did not start in time:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** SIGTERM, SIGKILL after 15 s; the exit code (0 after a clean shutdown). */
  const terminate = async (): Promise<number> => {
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(t);
    return code;
  };
  await launch();
  const kubeconfig = join(dataDir, 'kubeconfig');
  const env = { ...process.env, KUBECONFIG: kubeconfig, HOME: dir };
  const base = ['--cache-dir', join(dir, 'kube-cache'), '--request-timeout', '30s'];
  const run = (cmd: string, args: string[], input?: string): Promise<Result> => runProcess(cmd, args, env, input);
  const c: UpCluster = {
    dir,
    dataDir,
    cgroupRoot,
    nodeName,
    kubeconfig,
    kubectl: (args, input) => run('kubectl', [...base, ...args], input),
    async ok(args, input) {
      const r = await run('kubectl', [...base, ...args], input);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
      return r.stdout;
    },
    file(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    bulkhead: (args) => run(process.execPath, [mainJS, ...args]),
    agentGet: (path) => c.ok(['get', '--raw', `/api/v1/nodes/${nodeName}/proxy${path}`]),
    until: (what, check, timeoutMs = 30_000) => pollUntil(what, check, { timeoutMs, intervalMs: 200, context: () => `--- bulkhead up output ---\n${output.slice(-4000)}` }),
    async pod(name, namespace = 'default') {
      return JSON.parse(await c.ok(['get', 'pod', name, '-n', namespace, '-o', 'json'])) as PodJSON;
    },
    log: () => output,
    halt: () => terminate(),
    async restart(extraFlags) {
      await terminate();
      if (extraFlags) flags = extraFlags;
      await launch();
    },
    async stop() {
      let cleanShutdown = false;
      if (child.exitCode === null) {
        await run('kubectl', [...base, 'delete', 'pods', '--all', '-A', '--grace-period=1', '--wait=true', '--timeout=60s']).catch(() => undefined);
        cleanShutdown = (await terminate()) === 0;
      }
      // Containers this cluster's runtime still has (only ours: its own state directory, runc's
      // or, where the agent picked it, crun's).
      const runtimes = ['runc', 'crun'].map((rt) => ({ rt, root: join(dataDir, 'agent', 'state', rt) })).filter((r) => existsSync(r.root));
      const owned: { rt: string; root: string; id: string }[] = [];
      for (const r of runtimes) {
        const listed = (await execFileP(r.rt, ['--root', r.root, 'list', '-q']).catch(() => ({ stdout: '' }))).stdout.split('\n').filter(Boolean);
        owned.push(...listed.map((id) => ({ ...r, id })));
      }
      const ids = owned.map((o) => o.id);
      // A clean shutdown that left the agent no pod (none in the runtime, no pod records: a pod
      // deleted from the API just before may still have been on its way out) must not leave
      // anything of the agent's cgroup root behind.
      // The agent's own test (runtime.knownPods): pod records, container bundles, runc state.
      const empty = (d: string) => !existsSync(d) || readdirSync(d).length === 0;
      const noPodsLeft = ids.length === 0 && empty(join(dataDir, 'agent', 'run', 'pods')) && empty(join(dataDir, 'agent', 'run', 'bundles'));
      const agentLeft = cleanShutdown && noPodsLeft ? hierarchyRoots().map((h) => join(h, cgroupRoot)).filter((d) => existsSync(d)).flatMap((d) => [d, ...subdirs(d)]) : [];
      for (const o of owned) await execFileP(o.rt, ['--root', o.root, 'delete', '--force', o.id]).catch(() => undefined);
      // Rootfs overlay mounts of containers left behind (below this cluster's directory only).
      const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(dir + '/'));
      for (const m of mounts.sort().reverse()) await execFileP('umount', ['-l', m]).catch(() => undefined);
      const left = removeTestCgroups(cgroupRoot.slice(1));
      rmSync(dir, { recursive: true, force: true });
      if (left.length) throw new Error(`cgroups left behind: ${left.join(', ')}`);
      if (agentLeft.length) throw new Error(`after a clean shutdown with no pods the agent left its cgroups (kubepods, QoS tiers, root) behind: ${agentLeft.join(', ')}\n--- bulkhead up output ---\n${output.slice(-3000)}`);
    },
  };
  return c;
}

/** Every directory below `dir`, deepest last. */
function subdirs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    out.push(join(dir, e.name), ...subdirs(join(dir, e.name)));
  }
  return out;
}
