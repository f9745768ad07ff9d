// `runc exec` / `crun exec` as an ExecProcess (runtime.ts), the CLI counterpart of CRI-O's
// ExecContainer.
//
// Without a TTY the process's stdio are runc's own pipes: runc passes them through and exits
// with the process's code.
//
// With a TTY, runc exec -t creates the container-side pty itself but then copies it to and from
// its own terminal, which it must have ("open /dev/tty: no such device or address" on pipes;
// --console-socket is the other way, but then the pty master arrives as an SCM_RIGHTS fd,
// which Node cannot receive). So runc runs under util-linux `script`, which gives it a terminal
// (Debian's bsdutils, an Essential package: on every node); runc puts that terminal in raw mode
// (keeping its output processing: runc clears ONLCR on the container's pty instead, and this
// terminal turns \n into \r\n), and script -e exits with runc's code. runc clears the
// container pty's ONLCR only once it has its master, so a command that writes at once may have
// its first line ended \r\r\n (runc's own race, measured here in 3 of 10 `stty size` under
// load); a terminal shows it as \r\n. A resize is `stty -F` on
// runc's terminal: the kernel signals runc (SIGWINCH), which resizes the container's pty.
//
// The size at the start must hold from the command's first instruction (`kubectl exec -t …
// -- stty size`), but runc copies its terminal's size to the container's only after the process
// has started. So the exec is given as a process spec (`--process`): the container's own
// config.json process (what `runc exec` copies without one: env, cwd, user, capabilities,
// rlimits), with the command, terminal and consoleSize, which runc's init applies before it
// executes the command; and runc's terminal is sized the same first, so runc's later copy agrees.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecOptions, ExecProcess } from './runtime.js';

/** A POSIX shell word: `'…'` with embedded quotes closed and escaped. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The exit code of a child as a shell reports it: 128+n for a signal. */
function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const n = signal ? ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 } as Record<string, number>)[signal] ?? 1 : 1;
  return 128 + n;
}

/** The pids of `pid`'s children (Linux 3.5+). */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The terminal that script's child (runc) has as stdin, once it exists. */
function childTerminal(scriptPid: number): string | undefined {
  for (const c of children(scriptPid)) {
    try {
      const t = readlinkSync(`/proc/${c}/fd/0`);
      if (t.startsWith('/dev/pts/')) return t;
    } catch {
      // gone, or not yet
    }
  }
  return undefined;
}

let execSeq = 0;

/**
 * The process spec of an exec with a TTY of `size`: the container's own process (its bundle's
 * config.json) with `argv`; undefined when the bundle has none (runc exec then copies it itself).
 */
export function processSpec(bundle: string, argv: string[], size: { width: number; height: number }): Record<string, unknown> | undefined {
  let proc: Record<string, unknown> | undefined;
  try {
    // Integers beyond 2^53 (an unlimited rlimit is 2^64-1) would lose their value in a JS
    // number: they travel as marked strings and are written back as the digits they were.
    const text = markBigIntegers(readFileSync(join(bundle, 'config.json'), 'utf8'));
    proc = (JSON.parse(text) as { process?: Record<string, unknown> }).process;
  } catch {
    return undefined;
  }
  if (!proc) return undefined;
  return { ...proc, args: argv, terminal: true, consoleSize: { height: size.height, width: size.width } };
}

const bigMark = '\u0000big:';

/** JSON text with every integer of 16 digits or more outside strings turned into a marked string. */
export function markBigIntegers(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch >= '0' && ch <= '9') {
      let j = i;
      while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
      const digits = text.slice(i, j);
      out += digits.length >= 16 && !/[.eE]/.test(text[j] ?? '') ? JSON.stringify(bigMark + digits) : digits;
      i = j - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** A process spec as JSON, the marked big integers as their digits again. */
export function serializeProcessSpec(spec: Record<string, unknown>): string {
  return JSON.stringify(spec).replace(/"\\u0000big:(\d+)"/g, '$1');
}

export function ociExec(binary: string, root: string, id: string, argv: string[], opts: ExecOptions): ExecProcess {
  let child: ChildProcess;
  let processFile: string | undefined;
  const stdin = opts.stdin ? 'pipe' : 'ignore';
  if (!opts.tty) {
    child = spawn(binary, ['--root', root, 'exec', id, ...argv], { stdio: [stdin, 'pipe', 'pipe'] });
  } else {
    const spec = opts.size && opts.bundle ? processSpec(opts.bundle, argv, opts.size) : undefined;
    if (spec) {
      processFile = join(opts.bundle!, `exec-${process.pid}-${++execSeq}.json`);
      writeFileSync(processFile, serializeProcessSpec(spec));
    }
    const runcArgs = processFile ? [binary, '--root', root, 'exec', '-t', '--process', processFile, id] : [binary, '--root', root, 'exec', '-t', id, ...argv];
    const size = opts.size ? `stty cols ${opts.size.width} rows ${opts.size.height}; ` : '';
    const cmd = `${size}exec ${runcArgs.map(shellQuote).join(' ')}`;
    // script needs a stdin even when the client sends none: an empty pipe would be EOF at once,
    // which script passes on as the terminal's EOF; so stdin is always a pipe, left open.
    child = spawn('script', ['-q', '-e', '-c', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, SHELL: '/bin/sh' } });
  }
  const exited = new Promise<number>((resolve) => {
    const done = (code: number) => {
      if (processFile) rmSync(processFile, { force: true });
      resolve(code);
    };
    child.once('error', () => done(126));
    child.once('close', (code, signal) => done(exitCode(code, signal)));
  });
  let pending: { width: number; height: number } | undefined;
  let resizing = false;
  const resize = (width: number, height: number): void => {
    if (!opts.tty || !child.pid) return;
    pending = { width, height };
    if (resizing) return;
    let tries = 0;
    const next = (): void => {
      const p = pending;
      const tty = childTerminal(child.pid!);
      if (p && !tty && child.exitCode === null && tries++ < 100) {
        // runc has not started yet: the first size comes with the connection.
        resizing = true;
        setTimeout(next, 20);
        return;
      }
      if (!p || !tty) {
        resizing = false;
        return;
      }
      pending = undefined;
      resizing = true;
      const s = spawn('stty', ['-F', tty, 'cols', String(p.width), 'rows', String(p.height)], { stdio: 'ignore' });
      s.once('error', () => (resizing = false));
      s.once('close', next);
    };
    next();
  };
  return {
    ...(opts.stdin && child.stdin ? { stdin: child.stdin } : {}),
    stdout: child.stdout!,
    ...(child.stderr ? { stderr: child.stderr } : {}),
    resize,
    // runc passes SIGTERM on to the process (script to runc): killing runc would leave it running.
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
    exited,
  };
}
