// The ContainerRuntime (runtime.ts) of an OCI runtime CLI under conmon, as CRI-O's
// internal/oci/runtime_oci.go: runc or crun (the binary is a parameter: the same CLI subset is
// used, `--root`, `--log`/`--log-format json`, run/state/list/kill/delete, and conmon is given
// it as --runtime). Containers are created by conmon (monitor/conmon.ts), the pod sandbox by a
// bare `run --detach` (runc.ts), and every state directory is `<stateDir>`.

import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { monitorDir, NotStartedError, processAlive, readExit, readPid, startMonitored, which } from '../monitor/conmon.js';
import { Runc, RuncError, type RuncState } from './runc.js';
import { attachInput, resizeTerminal } from '../monitor/attachsocket.js';
import { ociExec } from './ociexec.js';
import { ContainerNotStartedError, type ContainerInput, type ContainerRuntime, type ExecOptions, type ExecProcess, type MonitoredOptions, type RuntimeContainer } from './runtime.js';

export interface OciRuntimeOptions {
  /** The runtime's state directory (`--root`). */
  stateDir: string;
  /** conmon's --exit-dir. */
  exitDir: string;
  /** The OCI runtime binary (runc, crun; a name in PATH or a path); default runc. */
  binary?: string;
  /** The conmon binary; default conmon from PATH. */
  conmon?: string;
}

export class OciRuntime implements ContainerRuntime {
  readonly exitDir: string;
  /** The runtime's CLI; exposed for tests and tools that need more than the interface. */
  readonly cli: Runc;
  /** conmon's process name (/proc/<pid>/stat comm: the executable's name, at most 15 characters). */
  private readonly conmonComm: string;

  constructor(private readonly opts: OciRuntimeOptions) {
    this.exitDir = opts.exitDir;
    const binary = opts.binary ?? 'runc';
    this.cli = new Runc({ root: opts.stateDir, binary: which(binary) ?? binary });
    this.conmonComm = basename(opts.conmon ?? 'conmon').slice(0, 15);
  }

  version(): Promise<string> {
    return this.cli.version();
  }

  async runDetached(id: string, bundle: string, io: { pidFile: string; logPath: string }): Promise<number> {
    await this.cli.runDetached(id, bundle, { pidFile: io.pidFile, stdoutPath: io.logPath, stderrPath: io.logPath });
    const pid = readPid(io.pidFile);
    if (pid === undefined) throw new Error(`${basename(this.cli.binary)} run ${id}: no pid in ${io.pidFile}`);
    return pid;
  }

  async startMonitored(id: string, bundle: string, logPath: string, opts: MonitoredOptions = {}): Promise<{ containerPid: number }> {
    try {
      const s = await startMonitored({
        id,
        bundle,
        stateDir: this.cli.root,
        exitDir: this.exitDir,
        logPath,
        ...(this.opts.conmon ? { conmon: this.opts.conmon } : {}),
        ...(this.opts.binary ? { runtime: this.opts.binary } : {}),
        ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
        ...(opts.stdin ? { stdin: opts.stdin } : {}),
        ...(opts.tty ? { tty: true } : {}),
      });
      return { containerPid: s.containerPid };
    } catch (e) {
      if (e instanceof NotStartedError) throw new ContainerNotStartedError(id);
      throw e;
    }
  }

  kill(id: string, signal: string): Promise<void> {
    return this.cli.kill(id, signal);
  }

  async delete(id: string, opts: { force?: boolean } = {}): Promise<void> {
    try {
      await this.cli.delete(id, opts);
    } catch (e) {
      if (!this.absent(e, id)) throw e;
    }
  }

  async state(id: string): Promise<RuntimeContainer | undefined> {
    try {
      return await this.cli.state(id);
    } catch (e) {
      if (this.absent(e, id)) return undefined;
      throw e;
    }
  }

  /**
   * `list --format json`, retried when a container vanished while the runtime was listing (it
   * reads each state directory). crun's list has no annotations: they are read from the bundle.
   */
  async list(): Promise<RuntimeContainer[]> {
    for (let i = 0; ; i++) {
      let states: RuncState[];
      try {
        states = await this.cli.list();
      } catch (e) {
        if (i >= 5 || !(e instanceof RuncError && /no such file or directory/i.test(e.message))) throw e;
        continue;
      }
      return states.map((s) => (s.annotations ? s : { ...s, ...bundleAnnotations(s.bundle) }));
    }
  }

  monitorAlive(_id: string, bundle: string): boolean {
    const pid = readPid(join(monitorDir(bundle), 'conmon.pid'));
    return pid !== undefined && processAlive(pid, this.conmonComm);
  }

  readExit(id: string): number | undefined {
    return readExit(this.exitDir, id);
  }

  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess {
    return ociExec(this.cli.binary, this.cli.root, id, argv, opts);
  }

  /** conmon's attach socket, runc and crun alike (conmon owns the container's stdin). */
  attachInput(_id: string, bundle: string): ContainerInput {
    return attachInput(bundle);
  }

  resizeTerminal(_id: string, bundle: string, width: number, height: number): boolean {
    return resizeTerminal(bundle, width, height);
  }

  /**
   * A failure because the runtime does not know `id`: runc says "does not exist", crun names
   * the missing state file; both keep a container's state in `<root>/<id>/`, so its absence decides.
   */
  private absent(e: unknown, id: string): boolean {
    if (!(e instanceof RuncError)) return false;
    return /does not exist/.test(e.message) || !existsSync(join(this.cli.root, id));
  }
}

function bundleAnnotations(bundle: string): { annotations?: Record<string, string> } {
  try {
    const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { annotations?: Record<string, string> };
    return spec.annotations ? { annotations: spec.annotations } : {};
  } catch {
    return {};
  }
}
