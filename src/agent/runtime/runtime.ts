// What the pod worker needs of a container runtime, as one interface, the way CRI-O's
// internal/oci/oci.go puts the runtime (runtime_oci.go for runc/crun + conmon, runtime_vm.go…)
// behind one type: the pod worker speaks to ContainerRuntime and PodMounts only, so
// ociruntime.ts (runc or crun under conmon) and a fake (test/agent/fakes/) can stand in.
//
// Exit codes travel through files, as conmon's --exit-dir writes them: `<exitDir>/<id>` holds
// the code once the container has exited. The agent watches that directory, so every runtime
// announces exits there (a fake writes the same files).

import type { Readable, Writable } from 'node:stream';
import type { PinnedKind } from './nspin.js';

export type RuntimeStatus = 'creating' | 'created' | 'running' | 'paused' | 'stopped';

/** One container as the runtime reports it (`runc state` / `crun state`). */
export interface RuntimeContainer {
  id: string;
  /** The container init's host pid (0 once stopped, for some runtimes). */
  pid: number;
  status: RuntimeStatus;
  bundle: string;
  created: string;
  annotations?: Record<string, string>;
}

/** A container created but, as its startAfter said, never started (and deleted again). */
export class ContainerNotStartedError extends Error {
  constructor(id: string) {
    super(`${id}: not started, what it waited for failed`);
    this.name = 'ContainerNotStartedError';
  }
}

/**
 * A process started in a running container (`runc exec`), as the kubelet's streaming server
 * drives the CRI's Exec: its stdio as streams, a terminal size for a TTY, and the exit code.
 */
export interface ExecProcess {
  /** Present when stdin was asked for; end() is the client's EOF. */
  stdin?: Writable;
  stdout: Readable;
  /** Absent with a TTY: the terminal merges stderr into stdout, as the kubelet's does. */
  stderr?: Readable;
  /** Sets the TTY's size (columns, rows); a no-op without a TTY. */
  resize(width: number, height: number): void;
  /** Ends the process (the client went away). */
  kill(): void;
  /** The exit code once the process and its output have ended (128+n for a signal). */
  exited: Promise<number>;
}

export interface ExecOptions {
  tty: boolean;
  stdin: boolean;
  /** The terminal's size from the start (columns, rows), when the client sent one. */
  size?: { width: number; height: number };
  /** The container's bundle: its config.json's process is the template of the exec's. */
  bundle?: string;
}

/** How startMonitored starts a container beyond its bundle. */
export interface MonitoredOptions {
  /** Start only once this resolves true (the sandbox still starting). */
  startAfter?: Promise<boolean>;
  /**
   * The container spec's stdin (`once`: stdinOnce): its stdin stays open for attach sessions
   * (attachInput); `once` closes it when the first session ends. Without it stdin is /dev/null.
   */
  stdin?: { once: boolean };
  /** The container spec's tty: its stdio is a terminal (the bundle's process.terminal says so too). */
  tty?: boolean;
}

/** A container's running instance, as exec and attach find it. */
export interface RunningInstance {
  id: string;
  logPath: string;
  /** Started with a stdin to attach to ('once': stdinOnce). */
  stdin?: 'once' | 'open';
  /** Started with a terminal. */
  tty?: boolean;
}

/** One attach session's input to a container started with MonitoredOptions.stdin. */
export interface ContainerInput {
  /** What the client sends; end() is the client's EOF. */
  stdin: Writable;
  /** Resolves once the session can deliver input; rejects with why it cannot. */
  attached: Promise<void>;
  /** Resolves once the client's EOF (stdin.end()) has reached the container's side. */
  inputDone: Promise<void>;
  /** Ends the session (the client went away). */
  close(): void;
}

export interface ContainerRuntime {
  /** The directory of exit files (`<exitDir>/<id>`). */
  readonly exitDir: string;

  /** The runtime binary's version line, e.g. "runc version 1.1.5+ds1". */
  version(): Promise<string>;

  /**
   * Creates and starts `id` from `bundle` with no monitor (a pod sandbox: its exit code matters
   * to no one); stdout and stderr go to `logPath`. Resolves with the init's host pid, which the
   * runtime wrote to `pidFile`.
   */
  runDetached(id: string, bundle: string, io: { pidFile: string; logPath: string }): Promise<number>;

  /**
   * Creates `id` under a monitor that outlives the agent, writes its output to `logPath` (k8s-file)
   * and its exit code to `<exitDir>/<id>`, and starts it, once `startAfter` (when given) resolves
   * true; on false it is deleted unstarted and this rejects with ContainerNotStartedError. Any
   * other rejection: the runtime refused the container.
   */
  startMonitored(id: string, bundle: string, logPath: string, opts?: MonitoredOptions): Promise<{ containerPid: number }>;

  /** Sends `signal` ('TERM', 'KILL', …) to the container's init. */
  kill(id: string, signal: string): Promise<void>;

  /** Deletes the container (`force`: even while it runs). A container the runtime does not know is no error. */
  delete(id: string, opts?: { force?: boolean }): Promise<void>;

  /** The container's state; undefined when the runtime does not know it. */
  state(id: string): Promise<RuntimeContainer | undefined>;

  /** Every container in this runtime's state directory. */
  list(): Promise<RuntimeContainer[]>;

  /** Whether the monitor startMonitored left for `id` (bundle `bundle`) is still alive. */
  monitorAlive(id: string, bundle: string): boolean;

  /** The exit code in `<exitDir>/<id>`; undefined while there is none (or it is empty: code unknown). */
  readExit(id: string): number | undefined;

  /** Runs `argv` in the running container `id` (`runc exec`), for kubectl exec. */
  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess;

  /**
   * An attach session's input to the running container `id` (bundle `bundle`), started with
   * MonitoredOptions.stdin. A runtime without it serves attach without stdin, and says so.
   */
  attachInput?(id: string, bundle: string): ContainerInput;

  /** Sets the terminal size of `id`, started with MonitoredOptions.tty; false when it cannot. */
  resizeTerminal?(id: string, bundle: string, width: number, height: number): boolean;
}

/**
 * What needs mounts (and so root) around a container: its writable root and the pod's pinned
 * namespaces. A runtime of its own kind, as CRI-O keeps pinns and the storage driver beside
 * the OCI runtime; the fake uses plain files.
 */
export interface PodMounts {
  /** An overlay of `lower` (read-only) with `upper`/`work` at `target`; the directories are made. */
  mountOverlay(lower: string, upper: string, work: string, target: string): Promise<void>;
  /** Unmounts `target` when it is a mount point; a no-op otherwise. */
  unmountIfMounted(target: string): Promise<void>;
  /** New namespaces of `kinds`, pinned at `<dir>/<kind>`; returns the paths to join. */
  pinNamespaces(dir: string, kinds: readonly PinnedKind[]): Promise<Partial<Record<PinnedKind, string>>>;
  /** Unpins and removes what pinNamespaces made in `dir`; a no-op when there is none. */
  unpinNamespaces(dir: string): Promise<void>;
}
