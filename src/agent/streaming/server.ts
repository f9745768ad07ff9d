// The agent's streaming endpoints, the kubelet's /exec, /attach and /portForward: HTTP
// upgrades the API server passes through from kubectl (pods/exec, pods/attach,
// pods/portforward). The path names the pod and container as the kubelet's do (an optional
// pod UID before the container); the query is what the API server's ExecLocation writes
// (`command` repeated, `input`, `output`, `error`, `tty` as "1"). Errors before the upgrade are
// the kubelet's: 404 "pod does not exist", 500 `container not found ("c")` as plain text.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ContainerInput, ExecOptions, ExecProcess, RunningInstance } from '../runtime/runtime.js';
import { attachProcess } from './attach.js';
import { negotiate, remoteCommandProtocols } from './channels.js';
import { messageDuplex, type PodDialer } from './netnsdial.js';
import { servePortForward } from './portforward.js';
import { serveRemoteCommand, type StreamOptions } from './remotecommand.js';
import { SpdyConnection } from './spdy.js';
import { serveSpdyRemoteCommand, spdyRemoteCommandProtocols } from './spdyremotecommand.js';

export interface StreamingHost {
  /** Whether the pod has state on this node. */
  podKnown(namespace: string, pod: string): boolean;
  /** The running instance of the container. */
  runningInstance(namespace: string, pod: string, container: string): RunningInstance | undefined;
  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess;
  /** An attach session's input to a container started with stdin; undefined: the runtime serves none. */
  attachInput?(id: string): ContainerInput | undefined;
  /** Resizes the terminal of a container started with tty. */
  resizeTerminal?(id: string, width: number, height: number): void;
  /** The pod's network namespace (a path, or 'host'); undefined without a running sandbox. */
  podNetns(namespace: string, pod: string): string | undefined;
  /** How port-forward dials the pod's port; default a busybox nc per connection. */
  dialer?: PodDialer;
  log?: (msg: string) => void;
}

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (protocols) => negotiate([...protocols].join(','), remoteCommandProtocols) ?? false });

function reject(socket: Duplex, code: number, reason: string, body: string, contentType = 'text/plain; charset=utf-8'): void {
  if (!socket.writable) return;
  socket.end(`HTTP/1.1 ${code} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export interface StreamRequest {
  kind: 'exec' | 'attach' | 'portForward';
  namespace: string;
  pod: string;
  container?: string;
}

/** /exec|attach/{ns}/{pod}[/{uid}]/{container}, /portForward/{ns}/{pod}[/{uid}]. */
export function parseStreamPath(pathname: string): StreamRequest | undefined {
  const parts = pathname.split('/').slice(1);
  let decoded: string[];
  try {
    decoded = parts.map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [kind, ns, pod] = decoded;
  if (!ns || !pod) return undefined;
  if ((kind === 'exec' || kind === 'attach') && (decoded.length === 4 || decoded.length === 5)) return { kind, namespace: ns, pod, container: decoded[decoded.length - 1]! };
  if (kind === 'portForward' && (decoded.length === 3 || decoded.length === 4)) return { kind, namespace: ns, pod };
  return undefined;
}

/** remotecommand's NewOptions: the streams asked for (a TTY takes stderr into stdout). */
export function streamOptions(q: URLSearchParams): StreamOptions | string {
  const tty = q.get('tty') === '1';
  const stdin = q.get('input') === '1';
  const stdout = q.get('output') === '1';
  const stderr = q.get('error') === '1' && !tty;
  if (!stdin && !stdout && !stderr) return 'you must specify at least 1 of stdin, stdout, stderr';
  return { stdin, stdout, stderr, tty };
}

/** The values of a header that may be repeated and comma-joined (X-Stream-Protocol-Version). */
function headerList(req: IncomingMessage, name: string): string[] {
  return (req.headersDistinct[name] ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/**
 * httpstream.Handshake for SPDY: the first protocol of the client's list that is served is
 * answered in the 101; none is 403 with the served ones in X-Accepted-Stream-Protocol-Versions.
 */
function spdyHandshake(req: IncomingMessage, socket: Duplex, head: Buffer, served: readonly string[], log?: (m: string) => void): SpdyConnection | undefined {
  const offered = headerList(req, 'x-stream-protocol-version');
  if (!offered.length) {
    reject(socket, 400, 'Bad Request', `unable to upgrade: X-Stream-Protocol-Version is required`);
    return undefined;
  }
  const chosen = offered.find((p) => served.includes(p));
  if (!chosen) {
    const body = `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${served.join(' ')}]`;
    if (socket.writable) socket.end(`HTTP/1.1 403 Forbidden\r\n${served.map((p) => `X-Accepted-Stream-Protocol-Versions: ${p}\r\n`).join('')}Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body) + 1}\r\nConnection: close\r\n\r\n${body}\n`);
    return undefined;
  }
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${chosen}\r\n\r\n`);
  if (head.length) socket.unshift(head);
  const conn = new SpdyConnection(socket);
  conn.on('protocolError', (e: unknown) => log?.(`SPDY ${req.url}: ${e instanceof Error ? e.message : String(e)}`));
  return conn;
}

/** port-forward over WebSocket (kubectl ≥1.31): SPDY tunnelled in binary messages. */
export const portForwardTunnelProtocol = 'SPDY/3.1+portforward.k8s.io';
// `/` is no token character (RFC 7230), so ws refuses this subprotocol ("Invalid
// Sec-WebSocket-Protocol header"): the header is taken off the request before ws sees it and
// the answer's is added when ws writes its 101.
const tunnelServer = new WebSocketServer({ noServer: true, perMessageDeflate: false });
tunnelServer.on('headers', (headers: string[]) => headers.push(`Sec-WebSocket-Protocol: ${portForwardTunnelProtocol}`));

/** Serves an upgrade request below /exec, /attach or /portForward; false when the path is none of them. */
export function handleStreamingUpgrade(host: StreamingHost, req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? '/', 'http://agent');
  const target = parseStreamPath(url.pathname);
  if (!target) return false;
  socket.on('error', () => undefined);
  const upgrade = (req.headers.upgrade ?? '').toLowerCase();
  const websocket = upgrade === 'websocket';
  const spdy = upgrade === 'spdy/3.1';
  if (!websocket && !spdy) {
    reject(socket, 400, 'Bad Request', 'Upgrade request required');
    return true;
  }
  if (!host.podKnown(target.namespace, target.pod)) {
    reject(socket, 404, 'Not Found', 'pod does not exist');
    return true;
  }
  if (target.kind === 'portForward') {
    const netns = host.podNetns(target.namespace, target.pod);
    if (!netns) {
      reject(socket, 500, 'Internal Server Error', `pod not found (${JSON.stringify(`${target.pod}_${target.namespace}`)})`);
      return true;
    }
    const pf = { namespace: target.namespace, pod: target.pod, netns, ...(host.dialer ? { dialer: host.dialer } : {}) };
    if (spdy) {
      const conn = spdyHandshake(req, socket, head, ['portforward.k8s.io'], host.log);
      if (conn) servePortForward(conn, pf);
      return true;
    }
    const offered = headerList(req, 'sec-websocket-protocol');
    if (!offered.includes(portForwardTunnelProtocol)) {
      reject(socket, 403, 'Forbidden', `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${portForwardTunnelProtocol}]`);
      return true;
    }
    delete req.headers['sec-websocket-protocol'];
    tunnelServer.handleUpgrade(req, socket, head, (ws) => {
      const tunnel = messageDuplex(
        (b) => ws.readyState === ws.OPEN && ws.send(b),
        () => ws.close(1000),
      );
      ws.on('message', (d: Buffer) => tunnel.deliver(Buffer.isBuffer(d) ? d : Buffer.from(d as ArrayBuffer)));
      ws.on('close', () => {
        tunnel.finish();
        tunnel.destroy();
      });
      ws.on('error', () => undefined);
      servePortForward(new SpdyConnection(tunnel), pf);
    });
    return true;
  }
  const inst = host.runningInstance(target.namespace, target.pod, target.container!);
  if (!inst) {
    reject(socket, 500, 'Internal Server Error', `container not found (${JSON.stringify(target.container)})`);
    return true;
  }
  const opts = streamOptions(url.searchParams);
  if (typeof opts === 'string') {
    reject(socket, 400, 'Bad Request', opts);
    return true;
  }
  const argv = url.searchParams.getAll('command');
  const attachHost = {
    running: () => host.runningInstance(target.namespace, target.pod, target.container!)?.id === inst.id,
    ...(host.attachInput ? { attachInput: (id: string) => host.attachInput!(id) } : {}),
    ...(host.resizeTerminal ? { resizeTerminal: (id: string, w: number, h: number) => host.resizeTerminal!(id, w, h) } : {}),
  };
  const start = (size?: { width: number; height: number }): ExecProcess =>
    target.kind === 'exec' ? host.exec(inst.id, argv, { tty: opts.tty, stdin: opts.stdin, ...(size ? { size } : {}) }) : attachProcess(inst, attachHost, { stdin: opts.stdin, ...(size ? { size } : {}) });
  if (spdy) {
    const conn = spdyHandshake(req, socket, head, spdyRemoteCommandProtocols, host.log);
    if (conn) serveSpdyRemoteCommand(conn, opts, start, argv, host.log);
    return true;
  }
  const offered = req.headers['sec-websocket-protocol'];
  const protocol = negotiate(offered, remoteCommandProtocols);
  if (!protocol) {
    const asked = (offered ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    reject(socket, 403, 'Forbidden', `requested protocol(s) are not supported: [${asked.join(' ')}]; supports [${remoteCommandProtocols.join(' ')}]`);
    return true;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    serveRemoteCommand(ws, protocol, opts, start, argv).catch((e: unknown) => host.log?.(`${target.kind} ${target.namespace}/${target.pod}: ${e instanceof Error ? e.message : String(e)}`));
  });
  return true;
}
