// A thin typed wrapper over the runc CLI, one state directory (`runc --root`) per instance.
// runc's own messages go to a per-call JSON log (`--log … --log-format json`), so a failure can
// be told apart from the container's output: RuncError carries runc's log messages and stderr.

import { spawn } from 'node:child_process';
import { closeSync, constants as fsc, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { processAlive } from './proc.js';

export interface RuncOptions {
  /** State directory (runc --root). Created if missing. */
  root: string;
  /** Default: "runc" from PATH. */
  binary?: string;
  /** Per-call timeout; default 20 s. */
  timeoutMs?: number;
}

export class RuncError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    /** runc's log messages (error/fatal levels), oldest first. */
    readonly runcMessages: string[],
    readonly stderr: string,
  ) {
    const detail = runcMessages.length ? runcMessages.join('; ') : stderr.trim() || `exit code ${exitCode}`;
    super(`runc ${args.join(' ')}: ${detail}`);
    this.name = 'RuncError';
  }
}

export type RuncStatus = 'creating' | 'created' | 'running' | 'paused' | 'stopped';

export interface RuncState {
  ociVersion: string;
  id: string;
  pid: number;
  status: RuncStatus;
  bundle: string;
  rootfs: string;
  created: string;
  annotations?: Record<string, string>;
}

export interface RunResult {
  /** The container's exit status (runc run exits with it), null if killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface DetachedIO {
  /** Files that receive the container's stdout/stderr; default /dev/null. */
  stdoutPath?: string;
  stderrPath?: string;
  /** runc --pid-file: where runc writes the container init's host pid once it exists. */
  pidFile?: string;
}

interface Exec {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  messages: string[];
}

let callSeq = 0;

function pidFileArgs(io: DetachedIO): string[] {
  return io.pidFile ? ['--pid-file', io.pidFile] : [];
}

/**
 * Which command line a runtime binary speaks: crun's (named crun) or runc's (runc, and wrappers
 * that exec it). Its state format differs too, so each flavour keeps its own state directory.
 */
export function runtimeFlavor(binary: string | undefined): 'runc' | 'crun' {
  return basename(binary ?? 'runc').startsWith('crun') ? 'crun' : 'runc';
}

export class Runc {
  readonly root: string;
  readonly binary: string;
  readonly timeoutMs: number;

  constructor(opts: RuncOptions) {
    this.root = opts.root;
    this.binary = opts.binary ?? 'runc';
    this.timeoutMs = opts.timeoutMs ?? 20000;
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
  }

  /** `runc --version` first line, e.g. "runc version 1.1.5+ds1". */
  async version(): Promise<string> {
    const r = await this.exec(['--version'], { log: false });
    if (r.code !== 0) throw new RuncError(['--version'], r.code, r.messages, r.stderr);
    return r.stdout.split('\n')[0]!.trim();
  }

  /**
   * `runc run` in the foreground, stdout/stderr captured: resolves with the container's exit
   * status. Rejects with RuncError when runc itself failed (it logged an error).
   */
  async run(id: string, bundle: string): Promise<RunResult> {
    const args = ['run', '--bundle', bundle, id];
    const r = await this.exec(args, { pipe: true, onTimeout: () => this.kill(id, 'KILL').catch(() => undefined) });
    if (r.messages.length) throw new RuncError(args, r.code, r.messages, r.stderr);
    return { exitCode: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  }

  /** `runc run --detach`: the container's init is reparented away from the agent; its exit code is lost. */
  async runDetached(id: string, bundle: string, io: DetachedIO = {}): Promise<void> {
    await this.ok(['run', '--detach', '--bundle', bundle, ...pidFileArgs(io), id], io);
  }

  /** `runc create`: namespaces, cgroups and limits are set up; the process waits for start. */
  async create(id: string, bundle: string, io: DetachedIO = {}): Promise<void> {
    await this.ok(['create', '--bundle', bundle, ...pidFileArgs(io), id], io);
  }

  async start(id: string): Promise<void> {
    await this.ok(['start', id]);
  }

  /**
   * What `runc start` does, without a second runc process: a created container's init waits on
   * the exec fifo runc 1.x keeps at <root>/<id>/exec.fifo; reading its one byte lets the init
   * exec the user process, and removing the fifo is what makes `runc state` say "running". That
   * is ~0.5 ms against ~8 ms for `runc start` (measured here), per container start. Where no such
   * fifo exists (another layout), and for crun, whose init keeps to another protocol on a fifo
   * of the same name (reading it as runc's waits for good: measured in the v2 guest), `<binary>
   * start` itself.
   */
  async startCreated(id: string, initPid: number): Promise<void> {
    const path = join(this.root, id, 'exec.fifo');
    if (runtimeFlavor(this.binary) === 'crun') return await this.start(id);
    try {
      if (!statSync(path).isFIFO()) return await this.start(id);
    } catch {
      return await this.start(id);
    }
    // An init that died before opening its end would leave the open blocked for good: opening
    // the write end ourselves (a reader is waiting, so it does not block) releases it with no byte.
    const deadline = Date.now() + this.timeoutMs;
    let released = false;
    const watchdog = setInterval(() => {
      if (processAlive(initPid) && Date.now() < deadline) return;
      released = true;
      clearInterval(watchdog);
      try {
        closeSync(openSync(path, fsc.O_WRONLY | fsc.O_NONBLOCK));
      } catch {
        // The open finished meanwhile.
      }
    }, 100);
    let got = 0;
    try {
      const fh = await open(path, 'r');
      clearInterval(watchdog);
      try {
        // The byte, then end of file when the init execs (its end is close-on-exec) or dies.
        const buf = Buffer.alloc(16);
        for (let n = 1; n > 0; got += n) n = (await fh.read(buf, 0, buf.length, null)).bytesRead;
      } finally {
        await fh.close();
      }
    } finally {
      clearInterval(watchdog);
    }
    await unlink(path).catch(() => undefined);
    if (got === 0) {
      const why = released && processAlive(initPid) ? `no start within ${this.timeoutMs} ms` : 'container process is already dead';
      throw new RuncError(['start', id], null, [why], '');
    }
  }

  async state(id: string): Promise<RuncState> {
    const r = await this.ok(['state', id]);
    return JSON.parse(r.stdout) as RuncState;
  }

  /** Ids in this state directory. */
  async list(): Promise<RuncState[]> {
    const r = await this.ok(['list', '--format', 'json']);
    const parsed = JSON.parse(r.stdout.trim() || 'null') as RuncState[] | null;
    return parsed ?? [];
  }

  async kill(id: string, signal: string = 'TERM', opts: { all?: boolean } = {}): Promise<void> {
    await this.ok(['kill', ...(opts.all ? ['--all'] : []), id, signal]);
  }

  async delete(id: string, opts: { force?: boolean } = {}): Promise<void> {
    await this.ok(['delete', ...(opts.force ? ['--force'] : []), id]);
  }

  private async ok(args: string[], io?: DetachedIO): Promise<Exec> {
    const r = await this.exec(args, io ? { io } : {});
    if (r.code !== 0 || r.messages.length) throw new RuncError(args, r.code, r.messages, r.stderr);
    return r;
  }

  private exec(args: string[], opts: { pipe?: boolean; io?: DetachedIO; log?: boolean; onTimeout?: () => void } = {}): Promise<Exec> {
    const useLog = opts.log !== false;
    const logPath = join(this.root, `.call-${process.pid}-${++callSeq}.log`);
    const full = useLog ? ['--root', this.root, '--log', logPath, '--log-format', 'json', ...args] : ['--root', this.root, ...args];
    // A detached container keeps runc's stdout/stderr as its own: give it files, not pipes,
    // or the pipes stay open for the container's lifetime.
    const fds: number[] = [];
    let stdio: ('ignore' | 'pipe' | number)[];
    if (opts.io) {
      const out = openSync(opts.io.stdoutPath ?? '/dev/null', 'a');
      const err = openSync(opts.io.stderrPath ?? '/dev/null', 'a');
      fds.push(out, err);
      stdio = ['ignore', out, err];
    } else {
      stdio = ['ignore', 'pipe', 'pipe'];
    }
    return new Promise<Exec>((resolve, reject) => {
      const child = spawn(this.binary, full, { stdio });
      for (const fd of fds) closeSync(fd);
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => {
        opts.onTimeout?.();
        child.kill('SIGKILL');
        stderr += `\n[bulkhead] runc ${args.join(' ')} timed out after ${this.timeoutMs} ms`;
      }, this.timeoutMs);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      // 'close' waits for the pipes; with files (detached IO) 'exit' is the end.
      child.once(opts.io ? 'exit' : 'close', (code: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        const messages = useLog ? readLogErrors(logPath) : [];
        if (useLog) rmSync(logPath, { force: true });
        resolve({ code, signal, stdout, stderr, messages });
      });
    });
  }
}

/** error/fatal messages of a runc JSON log (other levels are dropped). */
export function parseRuncLog(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as { level?: string; msg?: string };
      if ((e.level === 'error' || e.level === 'fatal') && e.msg) out.push(e.msg);
    } catch {
      out.push(line.trim());
    }
  }
  return out;
}

function readLogErrors(path: string): string[] {
  try {
    return parseRuncLog(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** Whether a runc binary can be started ("runc version …"), without throwing. */
export async function runcAvailable(binary = 'runc'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const c = spawn(binary, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    c.once('error', () => resolve(undefined));
    c.once('close', (code) => resolve(code === 0 ? out.split('\n')[0]!.trim() : undefined));
  });
}
