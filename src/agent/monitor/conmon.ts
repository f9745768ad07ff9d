// Per-container monitor: conmon (Debian package `conmon`, 2.1.6) runs `runc create` for a bundle,
// stays the parent of the container's init (conmon makes itself a child subreaper), writes the
// exit code to `<exitDir>/<id>` when the container exits, and copies its stdout/stderr to a
// k8s-file log. conmon is detached from the agent (own session, stdio not connected to the
// agent), so containers, logs and exit codes survive an agent restart; `adopt` picks them up.
//
// Files of one container (podman's layout: monitor files beside config.json in the bundle):
//   <bundle>/conmon/conmon.pid     conmon's pid (--conmon-pidfile)
//   <bundle>/conmon/container.pid  the container init's host pid (--container-pidfile; runc
//                                  writes it when `runc create` has succeeded)
//   <bundle>/conmon/runc.log       runc's JSON log for the create call (errors when it fails)
//   <bundle>/conmon/conmon.err     conmon's own stderr
//   <bundle>/conmon/exit           conmon's --persist-dir copy of the exit code
//   <exitDir>/<id>                 the exit code, decimal, no newline (conmon --exit-dir)
//   <logPath>                      `<RFC3339Nano time> stdout|stderr F|P <text>` lines

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { processAlive } from '../runtime/proc.js';
import { parseRuncLog, Runc, RuncError, type RuncState } from '../runtime/runc.js';

export { processAlive };

export interface StartOptions {
  /** Container id (runc id, conmon --cid/--cuuid/--name). */
  id: string;
  /** Bundle directory holding config.json; monitor files go to <bundle>/conmon/. */
  bundle: string;
  /** runc state directory (runc --root). */
  stateDir: string;
  /** Where conmon writes `<exitDir>/<id>` when the container exits. Created if missing. */
  exitDir: string;
  /** The container's k8s-file log. Its directory is created if missing. */
  logPath: string;
  /** Default: `conmon` from PATH. */
  conmon?: string;
  /** Absolute runc path (conmon execs it); default: `runc` resolved in PATH. */
  runtime?: string;
  /** How long to wait for the container to be created and started; default 10 s. */
  timeoutMs?: number;
  /**
   * The container is created at once but started only when this resolves true (a pod's sandbox
   * still starting); on false it is deleted unstarted and startMonitored rejects with NotStartedError.
   */
  startAfter?: Promise<boolean>;
  /**
   * The container's stdin (the CRI's stdin/stdin_once/tty, as CRI-O passes them to conmon):
   * conmon holds a pipe to it (with tty, the pty) that clients of `<bundle>/attach` write to
   * (attachsocket.ts); `once`: closed when the first such client goes away. Without it the
   * container's stdin is /dev/null.
   */
  stdin?: { once: boolean };
  /** A terminal (the spec's process.terminal must say so too): conmon takes the pty's master. */
  tty?: boolean;
}

export interface Started {
  containerPid: number;
  conmonPid: number;
}

export class MonitorError extends Error {
  constructor(message: string, readonly runcMessages: string[] = []) {
    super(message);
    this.name = 'MonitorError';
  }
}

/** A container created but, as StartOptions.startAfter said, never started (and deleted again). */
export class NotStartedError extends MonitorError {
  constructor(id: string) {
    super(`${id}: not started, what it waited for failed`);
    this.name = 'NotStartedError';
  }
}

export function monitorDir(bundle: string): string {
  return join(bundle, 'conmon');
}

/** Absolute path of `name` in PATH (conmon needs an absolute runtime path). */
export function which(name: string): string | undefined {
  if (isAbsolute(name)) return existsSync(name) ? name : undefined;
  for (const d of (process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin').split(delimiter)) {
    const p = join(d, name);
    if (d && existsSync(p)) return p;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Wakes a waiter when `name` is created or renamed into `dir` (inotify), or after the poll
 * period at the latest: a pidfile is seen the moment it is written, and what inotify cannot
 * report (a process dying) is still checked every `pollMs`. Without inotify (e.g. the limit of
 * watches is reached) it is a plain poll.
 */
class FileArrival {
  private watcher?: FSWatcher;
  private wake?: () => void;

  constructor(dir: string, name: string) {
    try {
      this.watcher = watch(dir, (_type, file) => {
        if (file === null || String(file) === name) this.wake?.();
      });
      this.watcher.on('error', () => this.close());
    } catch {
      this.watcher = undefined;
    }
  }

  wait(pollMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.watcher ? pollMs : Math.min(pollMs, 5));
      this.wake = done;
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.wake?.();
  }
}

/** The pid in a pidfile, or undefined while it is missing or not a pid yet. */
export function readPid(path: string): number | undefined {
  try {
    const n = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}


/**
 * Launch conmon for `opts.id`: conmon runs `runc create`, then this function starts it (Runc.startCreated)
 * and returns once the container is running (or has already exited). conmon outlives the
 * calling process. On a create failure rejects with runc's own messages.
 */
export async function startMonitored(opts: StartOptions): Promise<Started> {
  const runtime = which(opts.runtime ?? 'runc');
  if (!runtime) throw new MonitorError(`runtime ${opts.runtime ?? 'runc'} not found in PATH`);
  const timeoutMs = opts.timeoutMs ?? 10000;
  const dir = monitorDir(opts.bundle);
  mkdirSync(dir, { recursive: true });
  mkdirSync(opts.exitDir, { recursive: true });
  mkdirSync(join(opts.logPath, '..'), { recursive: true });
  const conmonPidFile = join(dir, 'conmon.pid');
  const containerPidFile = join(dir, 'container.pid');
  const runcLog = join(dir, 'runc.log');
  for (const f of [conmonPidFile, containerPidFile]) if (existsSync(f)) throw new MonitorError(`${f} exists: container ${opts.id} was started before (use adopt)`);
  const args = [
    '--api-version', '1',
    '--cid', opts.id, '--cuuid', opts.id, '--name', opts.id,
    '--runtime', runtime,
    '--runtime-arg', `--root=${opts.stateDir}`,
    '--runtime-arg', `--log=${runcLog}`,
    '--runtime-arg', '--log-format=json',
    '--bundle', opts.bundle,
    '--container-pidfile', containerPidFile,
    '--conmon-pidfile', conmonPidFile,
    '--log-path', `k8s-file:${opts.logPath}`,
    '--exit-dir', opts.exitDir,
    '--persist-dir', dir,
    // conmon refuses to start when this directory is missing; it holds the attach socket link.
    '--socket-dir-path', dir,
    ...(opts.stdin ? ['--stdin', ...(opts.stdin.once ? [] : ['--leave-stdin-open'])] : []),
    ...(opts.tty ? ['--terminal'] : []),
  ];
  const err = openSync(join(dir, 'conmon.err'), 'a');
  // conmon (without --sync) forks: the process we spawn writes the monitor's pid to the conmon
  // pidfile and exits at once; the monitor child lives on in its own session. A file, not a
  // pipe, for stderr: nothing ties conmon to this process.
  // cwd: conmon writes an `oom` marker file into its working directory when the container is
  // OOM-killed; it belongs with the container's other monitor files.
  const child = spawn(opts.conmon ?? 'conmon', args, { cwd: dir, detached: true, stdio: ['ignore', 'ignore', err] });
  closeSync(err);
  const parentExit = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  child.unref();
  const conmonErr = () => {
    try {
      return readFileSync(join(dir, 'conmon.err'), 'utf8').trim();
    } catch {
      return '';
    }
  };
  if (parentExit !== 0) throw new MonitorError(`conmon exited with ${parentExit}: ${conmonErr() || 'no message'}`);
  const conmonPid = readPid(conmonPidFile);
  if (conmonPid === undefined) throw new MonitorError(`conmon wrote no pidfile ${conmonPidFile}: ${conmonErr() || 'no message'}`);

  // runc writes the container pidfile once `runc create` has finished; conmon exits without
  // writing an exit file when create fails.
  const deadline = Date.now() + timeoutMs;
  let containerPid: number | undefined;
  // Each pass reads the pidfile before it waits, so an arrival before the watch is not missed.
  const arrival = new FileArrival(dir, 'container.pid');
  try {
    for (;;) {
      containerPid = readPid(containerPidFile);
      if (containerPid !== undefined) break;
      if (!processAlive(conmonPid)) {
        containerPid = readPid(containerPidFile);
        if (containerPid !== undefined) break;
        const msgs = readRuncErrors(runcLog);
        throw new MonitorError(`runc create ${opts.id} failed: ${msgs.join('; ') || conmonErr() || 'conmon exited'}`, msgs);
      }
      if (Date.now() > deadline) throw new MonitorError(`runc create ${opts.id}: no container pidfile after ${timeoutMs} ms`);
      await arrival.wait(10);
    }
  } finally {
    arrival.close();
  }
  const runc = new Runc({ root: opts.stateDir, binary: runtime, timeoutMs });
  if (opts.startAfter && !(await opts.startAfter.catch(() => false))) {
    await runc.delete(opts.id, { force: true }).catch(() => undefined);
    // conmon notices the end and writes its exit file; gone, it writes nothing more.
    for (const end = Date.now() + timeoutMs; processAlive(conmonPid) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    throw new NotStartedError(opts.id);
  }
  await runc.startCreated(opts.id, containerPid);
  return { containerPid, conmonPid };
}

function readRuncErrors(path: string): string[] {
  try {
    return parseRuncLog(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** The exit code conmon recorded for `id`, or undefined while it has not exited. */
export function readExit(exitDir: string, id: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(exitDir, id), 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  // An empty file is one conmon is still writing.
  if (!/^-?[0-9]+$/.test(text)) return undefined;
  return Number(text);
}

/** Poll the exit file until it appears or `timeoutMs` passes. */
export async function waitExit(exitDir: string, id: string, timeoutMs: number, pollMs = 10): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = readExit(exitDir, id);
    if (code !== undefined || Date.now() >= deadline) return code;
    await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
  }
}

// ---------------------------------------------------------------------------------------------
// Logs

export type LogStream = 'stdout' | 'stderr';

export interface LogLine {
  /** Time of the line's first fragment, as conmon wrote it (RFC 3339, nanoseconds). */
  time: string;
  stream: LogStream;
  text: string;
  /** The line has no end yet (only `P` fragments so far). */
  partial: boolean;
}

const recordRe = /^(\S+) (stdout|stderr) ([FP]) (.*)$/s;

/**
 * Parse k8s-file text into logical lines, oldest first. `P` fragments are joined with the
 * following fragments of the SAME stream up to its `F` record (the other stream may interleave).
 * An unterminated last record (being written) is ignored; so are lines in another format.
 */
export function parseK8sFileLog(text: string): LogLine[] {
  const out: LogLine[] = [];
  const open: Partial<Record<LogStream, LogLine>> = {};
  const records = text.split('\n');
  records.pop(); // '' after the last newline, or an incomplete record
  for (const rec of records) {
    const m = recordRe.exec(rec);
    if (!m) continue;
    const [, time, stream, tag, body] = m as unknown as [string, string, LogStream, 'F' | 'P', string];
    let line = open[stream];
    if (line) line.text += body;
    else {
      line = { time, stream, text: body, partial: true };
      out.push(line);
    }
    if (tag === 'F') {
      line.partial = false;
      delete open[stream];
    } else open[stream] = line;
  }
  return out;
}

/** conmon's `2026-11-22T05:40:26.395786010+00:00` as Go's RFC3339Nano in UTC, as kubectl prints it. */
export function kubeTimestamp(t: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(t);
  if (!m) return t;
  const [, base, frac = '', zone] = m as unknown as [string, string, string | undefined, string];
  const f = frac.replace(/0+$/, '');
  if (zone === 'Z' || zone === '+00:00' || zone === '-00:00') return `${base}${f ? `.${f}` : ''}Z`;
  const ms = Date.parse(`${base}${zone}`);
  const iso = new Date(ms).toISOString().slice(0, 19);
  return `${iso}${f ? `.${f}` : ''}Z`;
}

export interface ReadLogsOptions {
  /** Only the last n lines (kubectl logs --tail). */
  tailLines?: number;
  /** Prefix each line with its time (kubectl logs --timestamps). */
  timestamps?: boolean;
}

/** Format lines as `kubectl logs` prints them (stdout and stderr interleaved in file order). */
export function formatLogs(lines: LogLine[], opts: ReadLogsOptions = {}): string {
  const sel = opts.tailLines !== undefined ? (opts.tailLines <= 0 ? [] : lines.slice(-opts.tailLines)) : lines;
  return sel.map((l) => `${opts.timestamps ? `${kubeTimestamp(l.time)} ` : ''}${l.text}${l.partial ? '' : '\n'}`).join('');
}

/** The container log as `kubectl logs` prints it; '' when there is no log file yet. */
export function readLogs(logPath: string, opts: ReadLogsOptions = {}): string {
  return formatLogs(readLogLines(logPath), opts);
}

export function readLogLines(logPath: string): LogLine[] {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return parseK8sFileLog(text);
}

// ---------------------------------------------------------------------------------------------
// Stop and adopt

export interface StopOptions {
  /** conmon's exit dir, where the exit code is read from. */
  exitDir: string;
  /** How long to wait for the exit file after SIGKILL; default 10 s. */
  killTimeoutMs?: number;
}

function notRunning(e: unknown): boolean {
  return e instanceof RuncError && /not running|does not exist|container not running|process already finished/i.test(e.message);
}

/**
 * Graceful termination: SIGTERM to the container's init, then SIGKILL when it has not exited
 * after `graceSeconds`. Resolves with the exit code conmon recorded (128+signal for a signal
 * death, e.g. 137 after SIGKILL). A container that already exited just yields its code.
 */
export async function stopContainer(runc: Runc, id: string, graceSeconds: number, opts: StopOptions): Promise<number> {
  const done = readExit(opts.exitDir, id);
  if (done !== undefined) return done;
  try {
    await runc.kill(id, 'TERM');
  } catch (e) {
    if (!notRunning(e)) throw e;
  }
  const graceful = await waitExit(opts.exitDir, id, Math.max(0, graceSeconds * 1000));
  if (graceful !== undefined) return graceful;
  try {
    await runc.kill(id, 'KILL');
  } catch (e) {
    if (!notRunning(e)) throw e;
  }
  const killTimeout = opts.killTimeoutMs ?? 10000;
  const code = await waitExit(opts.exitDir, id, killTimeout);
  if (code === undefined) throw new MonitorError(`container ${id}: no exit file in ${opts.exitDir} ${killTimeout} ms after SIGKILL (is its conmon alive?)`);
  return code;
}

export type Adopted =
  /** Running, with its conmon alive: the exit code will be recorded. */
  | { state: 'running'; containerPid: number; conmonPid: number; bundle: string }
  /** Running but its conmon is gone: the exit code will be lost (the caller should restart it). */
  | { state: 'unmonitored'; containerPid: number; bundle: string }
  /** Created but never started (the previous agent stopped between create and start). */
  | { state: 'created'; containerPid: number; conmonPid?: number; bundle: string }
  /** Exited; exitCode undefined when no monitor recorded it. */
  | { state: 'exited'; exitCode: number | undefined; bundle?: string }
  /** Neither runc nor conmon knows this id. */
  | { state: 'absent' };

/**
 * What happened to a container an earlier agent process started with startMonitored: reads
 * `runc state` (for the bundle and status), the conmon pidfile and the exit file. Starts and
 * signals nothing.
 */
export async function adopt(stateDir: string, exitDir: string, id: string, opts: { runtime?: string } = {}): Promise<Adopted> {
  const code = readExit(exitDir, id);
  const runc = new Runc({ root: stateDir, binary: which(opts.runtime ?? 'runc') ?? 'runc' });
  let st: RuncState | undefined;
  try {
    st = await runc.state(id);
  } catch (e) {
    if (!(e instanceof RuncError && /does not exist/.test(e.message))) throw e;
  }
  if (code !== undefined) return st ? { state: 'exited', exitCode: code, bundle: st.bundle } : { state: 'exited', exitCode: code };
  if (!st) return { state: 'absent' };
  const dir = monitorDir(st.bundle);
  const conmonPid = readPid(join(dir, 'conmon.pid'));
  const conmonAlive = conmonPid !== undefined && processAlive(conmonPid, 'conmon');
  if (st.status === 'created') return conmonAlive ? { state: 'created', containerPid: st.pid, conmonPid: conmonPid!, bundle: st.bundle } : { state: 'created', containerPid: st.pid, bundle: st.bundle };
  if (st.status === 'stopped') {
    // conmon may be between reaping the init and writing the exit file.
    const late = conmonAlive ? await waitExit(exitDir, id, 2000) : readExit(exitDir, id);
    return { state: 'exited', exitCode: late, bundle: st.bundle };
  }
  if (conmonAlive) return { state: 'running', containerPid: st.pid, conmonPid: conmonPid!, bundle: st.bundle };
  return { state: 'unmonitored', containerPid: st.pid, bundle: st.bundle };
}
