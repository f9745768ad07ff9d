// A remote command (exec, attach) served over one WebSocket with the channel protocol of
// channels.ts: the kubelet's remotecommand.ServeExec/ServeAttach on a wsstream connection.
// Output is sent as the process writes it; when the process has ended and its output is
// drained, the error channel gets the exit Status and the connection closes (code 1000). The
// client going away ends the process.

import type { Readable } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ExecProcess } from '../runtime/runtime.js';
import { channel, exitStatus, failureStatus, frame, parseClientMessage, type RemoteCommandProtocol } from './channels.js';

export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** How much output may wait unsent before the process's pipes are paused (backpressure). */
const highWater = 1 << 20;

function pump(ws: WebSocket, src: Readable | undefined, ch: number, wanted: boolean): Promise<void> {
  if (!src) return Promise.resolve();
  return new Promise<void>((resolve) => {
    src.on('data', (d: Buffer) => {
      if (!wanted || ws.readyState !== ws.OPEN) return;
      ws.send(frame(ch, d));
      if (ws.bufferedAmount > highWater) {
        src.pause();
        const resume = (): void => {
          if (ws.bufferedAmount <= highWater / 2 || ws.readyState !== ws.OPEN) src.resume();
          else setTimeout(resume, 10);
        };
        setTimeout(resume, 10);
      }
    });
    src.once('end', resolve);
    src.once('close', resolve);
    src.once('error', () => resolve());
  });
}

/**
 * How long a TTY session waits for the client's first terminal size before the command starts
 * without one: kubectl sends it as its first message, and a command that asks its terminal's
 * size at once (`stty size`, a shell's first prompt) must see it.
 */
export const firstSizeWaitMs = 2_000;

export type Starter = (size?: { width: number; height: number }) => ExecProcess;

/** Runs the session: `start` runs the command (or attaches to the container's output). */
export async function serveRemoteCommand(ws: WebSocket, protocol: RemoteCommandProtocol, opts: StreamOptions, start: Starter, argv: string[]): Promise<void> {
  let finished = false;
  let proc: ExecProcess | undefined;
  const early: Buffer[] = [];
  let earlyEOF = false;
  let gotSize: (s: { width: number; height: number }) => void = () => undefined;
  const firstSize = new Promise<{ width: number; height: number } | undefined>((resolve) => {
    if (!opts.tty) return resolve(undefined);
    gotSize = resolve;
    setTimeout(() => resolve(undefined), firstSizeWaitMs);
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary && !Buffer.isBuffer(data)) return;
    const m = parseClientMessage(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), protocol);
    if (m.kind === 'stdin') {
      if (!opts.stdin || !m.data.length) return;
      if (!proc) early.push(m.data);
      else if (proc.stdin && !proc.stdin.writableEnded) proc.stdin.write(m.data);
    } else if (m.kind === 'resize') {
      if (!opts.tty) return;
      if (!proc) gotSize({ width: m.width, height: m.height });
      else proc.resize(m.width, m.height);
    } else if (m.kind === 'close' && m.channel === channel.stdin) {
      if (!proc) earlyEOF = true;
      else proc.stdin?.end();
    }
  });
  ws.on('close', () => {
    if (!finished) proc?.kill();
  });
  ws.on('error', () => undefined);
  const size = await firstSize;
  if (ws.readyState !== ws.OPEN) return;
  proc = start(size);
  for (const b of early) proc.stdin?.write(b);
  if (earlyEOF) proc.stdin?.end();
  proc.stdin?.on('error', () => undefined);
  const outputs = Promise.all([pump(ws, proc.stdout, channel.stdout, opts.stdout || opts.tty), pump(ws, proc.stderr, channel.stderr, opts.stderr)]);
  let status;
  try {
    const code = await proc.exited;
    await outputs;
    status = exitStatus(code, argv);
  } catch (e) {
    status = failureStatus(e instanceof Error ? e.message : String(e));
  }
  finished = true;
  if (ws.readyState === ws.OPEN) {
    ws.send(frame(channel.error, JSON.stringify(status)));
    ws.close(1000);
  }
}
