// Attach as an ExecProcess: the running container's output, from the moment of attaching, read
// from the log conmon writes (k8s-file records `<time> <stream> <F|P> <text>`), so stdout and
// stderr stay apart as the kubelet's attach keeps them (with a terminal, all of it is stdout).
// A container started with stdin (its spec's stdin) takes the session's input through the
// runtime's attachInput (monitor/attachsocket.ts: conmon's attach socket); one started without
// gets none, as the CRI runtimes drop attach input to a container without stdin.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { ContainerInput, ExecProcess, RunningInstance } from '../runtime/runtime.js';

// `s`: a terminal's output ends its lines with \r\n, and `.` alone stops at the \r.
const recordRe = /^(\S+) (stdout|stderr) (F|P) (.*)$/s;

/** The output of complete k8s-file records: each stream's text, `F` records ending their line. */
export function recordsOutput(text: string): { stream: 'stdout' | 'stderr'; data: string }[] {
  const out: { stream: 'stdout' | 'stderr'; data: string }[] = [];
  for (const rec of text.split('\n')) {
    const m = recordRe.exec(rec);
    if (!m) continue;
    out.push({ stream: m[2] as 'stdout' | 'stderr', data: m[3] === 'F' ? `${m[4]}\n` : m[4]! });
  }
  return out;
}

export function attachLog(logPath: string, running: () => boolean, pollMs = 100): ExecProcess {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let stopped = false;
  let fd: number | undefined;
  try {
    fd = openSync(logPath, 'r');
  } catch {
    fd = undefined;
  }
  let offset = fd === undefined ? 0 : fstatSync(fd).size;
  let pending = '';
  const exited = new Promise<number>((resolve) => {
    const tick = (): void => {
      const alive = running();
      if (fd !== undefined) {
        const size = fstatSync(fd).size;
        if (size > offset) {
          const buf = Buffer.alloc(size - offset);
          const n = readSync(fd, buf, 0, buf.length, offset);
          offset += n;
          const text = pending + buf.toString('utf8', 0, n);
          const end = text.lastIndexOf('\n');
          pending = end < 0 ? text : text.slice(end + 1);
          for (const o of recordsOutput(end < 0 ? '' : text.slice(0, end + 1))) (o.stream === 'stdout' ? stdout : stderr).write(o.data);
        }
      }
      if (stopped || !alive) {
        if (fd !== undefined) closeSync(fd);
        stdout.end();
        stderr.end();
        resolve(0);
        return;
      }
      setTimeout(tick, pollMs);
    };
    tick();
  });
  return { stdout, stderr, resize: () => undefined, kill: () => (stopped = true), exited };
}

/** What an attach session needs of the node. */
export interface AttachHost {
  /** Whether `inst` is still the container's running instance. */
  running(): boolean;
  /** The session's input to the container; undefined when the runtime serves none. */
  attachInput?(id: string): ContainerInput | undefined;
  resizeTerminal?(id: string, width: number, height: number): void;
}

/**
 * One attach session to `inst`: its output from the log; its input when the client sends stdin
 * and the container was started with stdin. A runtime that cannot deliver stdin to such a
 * container ends the session with an error saying so, rather than leaving the client's input
 * unread (`kubectl run -i … -- cat` would wait for good).
 */
export function attachProcess(inst: RunningInstance, host: AttachHost, opts: { stdin: boolean; size?: { width: number; height: number } }): ExecProcess {
  const resize = (w: number, h: number): void => {
    if (inst.tty) host.resizeTerminal?.(inst.id, w, h);
  };
  if (opts.size) resize(opts.size.width, opts.size.height);
  const wantsInput = opts.stdin && inst.stdin !== undefined;
  const input = wantsInput ? host.attachInput?.(inst.id) : undefined;
  if (wantsInput && !input) {
    const fail = Promise.reject(new Error(`this node's container runtime does not serve stdin to attach sessions`));
    fail.catch(() => undefined); // the session awaits it; no unhandled rejection before it does
    return { stdout: new PassThrough().end(), resize, kill: () => undefined, exited: fail };
  }
  const out = attachLog(inst.logPath, host.running);
  if (!input) return { ...out, resize };
  const exited = new Promise<number>((resolve, reject) => {
    input.attached.catch((e: unknown) => {
      out.kill();
      reject(e);
    });
    // CRI-O's AttachContainer: a session to a container whose stdin stays open (no stdinOnce)
    // and has no terminal ends at the client's EOF, once that EOF has been passed on; other
    // sessions end with the container's output.
    if (inst.stdin === 'open' && !inst.tty)
      void input.inputDone.then(() => {
        input.close();
        out.kill();
      });
    void out.exited.then((code) => {
      input.close();
      resolve(code);
    });
  });
  return {
    ...out,
    stdin: input.stdin,
    resize,
    kill: () => {
      input.close();
      out.kill();
    },
    exited,
  };
}
