// A ContainerRuntime and PodMounts that need no root, no runc and no kernel, as the kubelet's
// pkg/kubelet/container/testing/fake_runtime.go stands in for a CRI runtime: containers are
// entries in a map, "processes" are the test process's own pid placed in a FakeCgroupManager
// cgroup, exits are conmon's exit files written into the real exit directory (so the pod
// worker reads them as it reads conmon's), overlay roots and namespace pins are plain
// directories and files. Every call is logged in order, for assertions on what was signalled when.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readExit } from '../../../src/agent/monitor/conmon.js';
import type { PinnedKind } from '../../../src/agent/runtime/nspin.js';
import { ContainerNotStartedError, type ContainerRuntime, type ExecOptions, type ExecProcess, type MonitoredOptions, type PodMounts, type RuntimeContainer, type RuntimeStatus } from '../../../src/agent/runtime/runtime.js';
import type { FakeCgroupManager } from './cgroups.js';

interface FakeContainer {
  id: string;
  bundle: string;
  status: RuntimeStatus;
  pid: number;
  created: string;
  cgroupsPath: string;
  annotations: Record<string, string>;
  monitored: boolean;
}

export interface RuntimeCall {
  op: 'runDetached' | 'startMonitored' | 'kill' | 'delete' | 'exec';
  id: string;
  /** The container name of the id (`POD` for a sandbox), for readable assertions. */
  name: string;
  signal?: string;
  /** startMonitored's stdin and tty, as given. */
  stdio?: Pick<MonitoredOptions, 'stdin' | 'tty'>;
}

/** `<uid>-<name>-<attempt>` → name (uids hold dashes, names may too, the attempt never does). */
function nameOf(id: string, annotations?: Record<string, string>): string {
  return annotations?.['io.kubernetes.container.name'] ?? id.replace(/-\d+$/, '').split('-').slice(5).join('-');
}

export class FakeRuntime implements ContainerRuntime {
  readonly calls: RuntimeCall[] = [];
  private readonly containers = new Map<string, FakeContainer>();
  /** Container names that ignore SIGTERM (as a process that traps it and keeps running). */
  readonly ignoreTerm = new Set<string>();
  /**
   * Container names whose process survives a delivered SIGKILL (in uninterruptible sleep, or in a
   * frozen cgroup v1): the signal is sent, the container keeps running until the test exits it.
   */
  readonly surviveKill = new Set<string>();
  /** SIGKILLs the runtime refuses, by container name (`POD` for the sandbox): how many more to refuse. */
  readonly refuseKill = new Map<string, number>();
  /** Container name → the runtime's refusal message for startMonitored (e.g. no such executable). */
  readonly refuseStart = new Map<string, string>();
  /** When set, runDetached (the sandbox) fails with this message. */
  failSandbox: string | undefined;

  constructor(
    readonly exitDir: string,
    private readonly cgroups: FakeCgroupManager,
    /** When exits happen (the exit file's mtime is the container's finishedAt). */
    private readonly clock: () => Date,
  ) {}

  async version(): Promise<string> {
    return 'fake-runtime version 1';
  }

  async runDetached(id: string, bundle: string, io: { pidFile: string; logPath: string }): Promise<number> {
    const c = this.create(id, bundle, false);
    this.calls.push({ op: 'runDetached', id, name: nameOf(id, c.annotations) });
    if (this.failSandbox !== undefined) {
      this.containers.delete(id);
      throw new Error(this.failSandbox);
    }
    this.run(c);
    writeFileSync(io.pidFile, String(c.pid));
    writeFileSync(io.logPath, '', { flag: 'a' });
    return c.pid;
  }

  async startMonitored(id: string, bundle: string, logPath: string, opts: MonitoredOptions = {}): Promise<{ containerPid: number }> {
    const c = this.create(id, bundle, true);
    const name = nameOf(id, c.annotations);
    this.calls.push({ op: 'startMonitored', id, name, ...(opts.stdin || opts.tty ? { stdio: { ...(opts.stdin ? { stdin: opts.stdin } : {}), ...(opts.tty ? { tty: opts.tty } : {}) } } : {}) });
    const refusal = this.refuseStart.get(name);
    if (refusal !== undefined) {
      this.containers.delete(id);
      throw new Error(`runc create ${id} failed: ${refusal}`);
    }
    mkdirSync(dirname(logPath), { recursive: true });
    writeFileSync(logPath, '', { flag: 'a' });
    if (opts.startAfter && !(await opts.startAfter.catch(() => false))) {
      this.containers.delete(id);
      throw new ContainerNotStartedError(id);
    }
    this.run(c);
    return { containerPid: c.pid };
  }

  async kill(id: string, signal: string): Promise<void> {
    const c = this.containers.get(id);
    const name = nameOf(id, c?.annotations);
    this.calls.push({ op: 'kill', id, name, signal });
    if (!c) throw new Error(`container ${id} does not exist`);
    if (c.status !== 'running') throw new Error(`container ${id} is not running`);
    const refusals = signal === 'KILL' ? (this.refuseKill.get(name) ?? 0) : 0;
    if (refusals > 0) {
      this.refuseKill.set(name, refusals - 1);
      throw new Error(`runc kill ${id} KILL: exit status 1`);
    }
    if (signal === 'KILL' && !this.surviveKill.has(name)) this.exit(id, 137);
    else if (signal === 'TERM' && !this.ignoreTerm.has(nameOf(id, c.annotations))) this.exit(id, 143);
  }

  async delete(id: string): Promise<void> {
    const c = this.containers.get(id);
    if (!c) return;
    this.calls.push({ op: 'delete', id, name: nameOf(id, c.annotations) });
    if (c.status === 'running') this.cgroups.leave(c.cgroupsPath, c.pid);
    this.containers.delete(id);
  }

  async state(id: string): Promise<RuntimeContainer | undefined> {
    const c = this.containers.get(id);
    return c && this.view(c);
  }

  async list(): Promise<RuntimeContainer[]> {
    return [...this.containers.values()].map((c) => this.view(c));
  }

  monitorAlive(id: string): boolean {
    const c = this.containers.get(id);
    return c !== undefined && c.monitored && c.status !== 'stopped';
  }

  readExit(id: string): number | undefined {
    return readExit(this.exitDir, id);
  }

  /** Runs `argv` on the host, as if in the container (a TTY is not emulated). */
  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess {
    this.calls.push({ op: 'exec', id, name: nameOf(id, this.containers.get(id)?.annotations) });
    const child = spawn(argv[0]!, argv.slice(1), { stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number>((resolve) => {
      child.once('error', () => resolve(126));
      child.once('close', (code) => resolve(code ?? 137));
    });
    return { ...(child.stdin ? { stdin: child.stdin } : {}), stdout: child.stdout!, stderr: child.stderr!, resize: () => undefined, kill: () => child.kill('SIGKILL'), exited };
  }

  // -------------------------------------------------------------------------------------------
  // What the kernel and conmon would do

  /** The container's init exits with `code`: it leaves its cgroup, and a monitored one gets its exit file. */
  exit(id: string, code: number): void {
    const c = this.containers.get(id);
    if (!c || c.status === 'stopped') throw new Error(`fake runtime: ${id} is not running`);
    c.status = 'stopped';
    this.cgroups.leave(c.cgroupsPath, c.pid);
    if (!c.monitored) return;
    const file = join(this.exitDir, id);
    mkdirSync(this.exitDir, { recursive: true });
    writeFileSync(file, String(code));
    const t = this.clock();
    utimesSync(file, t, t);
  }

  /** The running container of that name (the newest attempt), by its id. */
  running(name: string): string {
    const ids = [...this.containers.values()].filter((c) => c.status === 'running' && nameOf(c.id, c.annotations) === name).map((c) => c.id);
    if (ids.length !== 1) throw new Error(`fake runtime: ${ids.length} running containers named ${name}`);
    return ids[0]!;
  }

  /** The signals sent, as `<name> <signal>` (the sandbox is `POD`), in order. */
  signals(): string[] {
    return this.calls.filter((c) => c.op === 'kill').map((c) => `${c.name} ${c.signal}`);
  }

  private create(id: string, bundle: string, monitored: boolean): FakeContainer {
    if (this.containers.has(id)) throw new Error(`fake runtime: container ${id} exists`);
    const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { annotations?: Record<string, string>; linux: { cgroupsPath: string } };
    const c: FakeContainer = { id, bundle, status: 'created', pid: process.pid, created: this.clock().toISOString(), cgroupsPath: spec.linux.cgroupsPath, annotations: spec.annotations ?? {}, monitored };
    this.containers.set(id, c);
    return c;
  }

  private run(c: FakeContainer): void {
    c.status = 'running';
    this.cgroups.join(c.cgroupsPath, c.pid);
  }

  private view(c: FakeContainer): RuntimeContainer {
    return { id: c.id, pid: c.status === 'stopped' ? 0 : c.pid, status: c.status, bundle: c.bundle, created: c.created, annotations: c.annotations };
  }
}

/** Overlay roots and namespace pins as plain directories and files, with what is "mounted" kept for assertions. */
export class FakeMounts implements PodMounts {
  readonly mounted = new Set<string>();
  /** When set, mountOverlay fails with this message (a runtime-side refusal: CreateContainerError). */
  failOverlay: string | undefined;

  async mountOverlay(_lower: string, upper: string, work: string, target: string): Promise<void> {
    if (this.failOverlay !== undefined) throw new Error(this.failOverlay);
    for (const d of [upper, work, target]) mkdirSync(d, { recursive: true });
    this.mounted.add(target);
  }

  async unmountIfMounted(target: string): Promise<void> {
    this.mounted.delete(target);
  }

  async pinNamespaces(dir: string, kinds: readonly PinnedKind[]): Promise<Partial<Record<PinnedKind, string>>> {
    const out: Partial<Record<PinnedKind, string>> = {};
    if (!kinds.length) return out;
    mkdirSync(dir, { recursive: true });
    for (const k of kinds) {
      const p = join(dir, k);
      writeFileSync(p, '');
      this.mounted.add(p);
      out[k] = p;
    }
    return out;
  }

  async unpinNamespaces(dir: string): Promise<void> {
    for (const k of ['network', 'ipc', 'uts']) {
      this.mounted.delete(join(dir, k));
      rmSync(join(dir, k), { force: true });
    }
    try {
      rmdirSync(dir);
    } catch {
      // Not there: nothing was pinned.
    }
  }
}
