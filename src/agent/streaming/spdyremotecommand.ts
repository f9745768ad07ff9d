// A remote command (exec, attach) over SPDY, as kubectl ≤1.29 speaks it for exec and attach
// (and 1.30 after a failed WebSocket upgrade): remotecommand's v4.channel.k8s.io, the
// kubelet's pkg/kubelet/cri/streaming/remotecommand/httpstream.go. The client opens one stream
// per channel, named by the streamtype header (error, stdin, stdout, stderr, resize); when
// every stream the options call for is there, the command runs. Resize messages are JSON
// TerminalSize values one after another; stdin's FIN is its EOF. At the end stdout and stderr
// are closed (the client reads them to EOF before it reads the error stream), the exit Status
// is written on the error stream, and the connection is closed.

import type { ExecProcess } from '../runtime/runtime.js';
import { exitStatus, failureStatus } from './channels.js';
import { firstSizeWaitMs, type Starter, type StreamOptions } from './remotecommand.js';
import type { SpdyConnection, SpdyStream } from './spdy.js';

/** The SPDY subprotocols served for exec and attach (v5 is WebSocket's only). */
export const spdyRemoteCommandProtocols = ['v4.channel.k8s.io'] as const;

/** How long the client has to open its streams: the kubelet's streamCreationTimeout. */
const streamCreationTimeoutMs = 30_000;

type Streams = Partial<Record<'error' | 'stdin' | 'stdout' | 'stderr' | 'resize', SpdyStream>>;

function expected(opts: StreamOptions): (keyof Streams)[] {
  return ['error' as const, ...(opts.stdin ? ['stdin' as const] : []), ...(opts.stdout ? ['stdout' as const] : []), ...(opts.stderr ? ['stderr' as const] : []), ...(opts.tty ? ['resize' as const] : [])];
}

/** Each complete JSON object of a resize stream's text, and the incomplete rest. */
export function splitJSONValues(text: string): { values: unknown[]; rest: string } {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  let consumed = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && depth > 0 && --depth === 0) {
      try {
        values.push(JSON.parse(text.slice(start, i + 1)));
      } catch {
        // a malformed size is skipped, as the kubelet's decoder loop ends on it
      }
      consumed = i + 1;
    }
  }
  return { values, rest: text.slice(consumed) };
}

export function serveSpdyRemoteCommand(conn: SpdyConnection, opts: StreamOptions, start: Starter, argv: string[], log?: (m: string) => void): void {
  const streams: Streams = {};
  const want = expected(opts);
  let started = false;
  const timer = setTimeout(() => {
    log?.('remote command: timed out waiting for client to create streams');
    conn.close();
  }, streamCreationTimeoutMs);
  conn.on('close', () => clearTimeout(timer));
  conn.on('stream', (s: SpdyStream) => {
    s.on('error', () => undefined);
    const type = s.header('streamtype') as keyof Streams | undefined;
    if (!type || !want.includes(type) || streams[type]) {
      conn.reset(s.id, 1);
      return;
    }
    s.reply();
    streams[type] = s;
    if (!started && want.every((w) => streams[w])) {
      started = true;
      clearTimeout(timer);
      void run();
    }
  });

  /** The first value on the resize stream (the TTY's size at the start), or undefined after a while. */
  function firstSize(): Promise<{ width: number; height: number } | undefined> {
    const r = streams.resize;
    if (!r) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let text = '';
      const t = setTimeout(() => done(undefined), firstSizeWaitMs);
      const onData = (d: Buffer) => {
        text += d.toString('utf8');
        const v = splitJSONValues(text).values[0] as { Width?: number; Height?: number } | undefined;
        if (v && typeof v.Width === 'number' && typeof v.Height === 'number') done({ width: v.Width, height: v.Height }, text);
      };
      const done = (size: { width: number; height: number } | undefined, seen = text) => {
        clearTimeout(t);
        r.off('data', onData);
        r.pause();
        // What came after the first value is read again by the resize loop.
        const rest = splitJSONValues(seen).values.length ? seen.slice(seen.indexOf('}') + 1) : seen;
        if (rest.trim()) r.unshift(Buffer.from(rest));
        resolve(size);
      };
      r.on('data', onData);
    });
  }

  async function run(): Promise<void> {
    const size = await firstSize();
    const proc = start(size);
    let finished = false;
    conn.on('close', () => {
      if (!finished) proc.kill();
    });
    if (streams.stdin && proc.stdin) {
      proc.stdin.on('error', () => undefined);
      streams.stdin.pipe(proc.stdin);
    } else streams.stdin?.resume();
    if (streams.resize) {
      let rest = '';
      streams.resize.setEncoding('utf8');
      streams.resize.on('data', (d: string) => {
        const r = splitJSONValues(rest + d);
        rest = r.rest;
        for (const v of r.values) {
          const { Width, Height } = v as { Width?: number; Height?: number };
          if (typeof Width === 'number' && typeof Height === 'number') proc.resize(Width, Height);
        }
      });
    }
    const outputs = [
      [proc.stdout, streams.stdout],
      [proc.stderr, streams.stderr],
    ].map(
      ([src, dst]) =>
        new Promise<void>((resolve) => {
          if (!src) return resolve();
          const s = src as NodeJS.ReadableStream;
          if (dst) s.pipe(dst as SpdyStream, { end: false });
          else s.resume();
          s.once('end', () => resolve());
          s.once('error', () => resolve());
        }),
    );
    let status;
    try {
      const code = await proc.exited;
      await Promise.all(outputs);
      status = exitStatus(code, argv);
    } catch (e) {
      status = failureStatus(e instanceof Error ? e.message : String(e));
    }
    finished = true;
    streams.stdout?.end();
    streams.stderr?.end();
    streams.error!.end(JSON.stringify(status));
    // Let the frames go out before GOAWAY.
    setImmediate(() => conn.close());
  }
}
