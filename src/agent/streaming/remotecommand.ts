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

/** Runs the session: `proc` is the command (or the attached container's output). */
export async function serveRemoteCommand(ws: WebSocket, protocol: RemoteCommandProtocol, opts: StreamOptions, proc: ExecProcess, argv: string[]): Promise<void> {
  let finished = false;
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary && !Buffer.isBuffer(data)) return;
    const m = parseClientMessage(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), protocol);
    if (m.kind === 'stdin') {
      if (opts.stdin && proc.stdin && !proc.stdin.writableEnded && m.data.length) proc.stdin.write(m.data);
    } else if (m.kind === 'resize') {
      if (opts.tty) proc.resize(m.width, m.height);
    } else if (m.kind === 'close' && m.channel === channel.stdin) {
      proc.stdin?.end();
    }
  });
  proc.stdin?.on('error', () => undefined);
  ws.on('close', () => {
    if (!finished) proc.kill();
  });
  ws.on('error', () => undefined);
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
