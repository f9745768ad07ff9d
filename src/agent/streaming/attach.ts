// Attach as an ExecProcess: the running container's output, from the moment of attaching, read
// from the log conmon writes (k8s-file records `<time> <stream> <F|P> <text>`), so stdout and
// stderr stay apart as the kubelet's attach keeps them. conmon's attach socket would also
// carry stdin, but it is a SOCK_SEQPACKET socket, which Node cannot open: stdin is not served.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { ExecProcess } from '../runtime/runtime.js';

const recordRe = /^(\S+) (stdout|stderr) (F|P) (.*)$/;

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
