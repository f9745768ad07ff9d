// The channel framing of remote commands over WebSocket (k8s.io/apimachinery's wsstream and
// client-go's remotecommand websocket.go): each binary message is one channel byte and the
// data. The channels are those of the SPDY streams: 0 stdin, 1 stdout, 2 stderr, 3 error (one
// JSON Status when the command ends), 4 resize (JSON TerminalSize); v5.channel.k8s.io adds
// 255, the client's "close": [255, n] half-closes channel n (stdin's EOF). v4 has no close,
// so a v4 client's stdin EOF is the connection's end. The error channel's Status carries the
// exit code as the kubelet's remotecommand v4 writes it, which kubectl turns into
// "command terminated with exit code N" and its own exit status.

import type { Status } from '../../api/types.js';

export const channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

/** The subprotocols served for exec and attach, the preferred first. */
export const remoteCommandProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;
export type RemoteCommandProtocol = (typeof remoteCommandProtocols)[number];

/** One message: the channel byte, then the data. */
export function frame(ch: number, data: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = ch;
  body.copy(out, 1);
  return out;
}

export type ClientMessage =
  | { kind: 'stdin'; data: Buffer }
  | { kind: 'resize'; width: number; height: number }
  | { kind: 'close'; channel: number }
  | { kind: 'ignored' };

/** A client's message as what it asks for; an empty or unknown one is ignored, as wsstream does. */
export function parseClientMessage(msg: Buffer, protocol: RemoteCommandProtocol): ClientMessage {
  if (msg.length === 0) return { kind: 'ignored' };
  const ch = msg[0]!;
  const data = msg.subarray(1);
  if (ch === channel.stdin) return { kind: 'stdin', data };
  if (ch === channel.resize) {
    const size = parseTerminalSize(data);
    return size ? { kind: 'resize', ...size } : { kind: 'ignored' };
  }
  if (ch === channel.close && protocol === 'v5.channel.k8s.io' && data.length >= 1) return { kind: 'close', channel: data[0]! };
  return { kind: 'ignored' };
}

/** remotecommand.TerminalSize as JSON ({"Width":…,"Height":…}); undefined when malformed. */
export function parseTerminalSize(data: Buffer): { width: number; height: number } | undefined {
  try {
    const v = JSON.parse(data.toString('utf8')) as { Width?: unknown; Height?: unknown };
    const w = v.Width;
    const h = v.Height;
    if (typeof w !== 'number' || typeof h !== 'number' || !Number.isInteger(w) || !Number.isInteger(h) || w < 0 || h < 0 || w > 65535 || h > 65535) return undefined;
    return { width: w, height: h };
  } catch {
    return undefined;
  }
}

/** The Status the error channel carries when the command has ended (v4 and v5 alike). */
export function exitStatus(code: number, argv: string[]): Status {
  if (code === 0) return { metadata: {}, status: 'Success' } as Status;
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  } as Status;
}

/** The Status for a failure that is not the command's exit (it could not be started, say). */
export function failureStatus(message: string): Status {
  return { metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 } as Status;
}

/** The first offered subprotocol that is served (Sec-WebSocket-Protocol's order is the client's preference). */
export function negotiate<T extends string>(offered: string | undefined, served: readonly T[]): T | undefined {
  const list = (offered ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return list.find((p): p is T => (served as readonly string[]).includes(p));
}
