// The agent's streaming endpoints, the kubelet's /exec, /attach and /portForward: HTTP
// upgrades the API server passes through from kubectl (pods/exec, pods/attach,
// pods/portforward). The path names the pod and container as the kubelet's do (an optional
// pod UID before the container); the query is what the API server's ExecLocation writes
// (`command` repeated, `input`, `output`, `error`, `tty` as "1"). Errors before the upgrade are
// the kubelet's: 404 "pod does not exist", 500 `container not found ("c")` as plain text.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ExecOptions, ExecProcess } from '../runtime/runtime.js';
import { attachLog } from './attach.js';
import { negotiate, remoteCommandProtocols } from './channels.js';
import { serveRemoteCommand, type StreamOptions } from './remotecommand.js';

export interface StreamingHost {
  /** Whether the pod has state on this node. */
  podKnown(namespace: string, pod: string): boolean;
  /** The running instance of the container. */
  runningInstance(namespace: string, pod: string, container: string): { id: string; logPath: string } | undefined;
  exec(id: string, argv: string[], opts: ExecOptions): ExecProcess;
  /** The pod's network namespace (a path, or 'host'); undefined without a running sandbox. */
  podNetns(namespace: string, pod: string): string | undefined;
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

/** Serves an upgrade request below /exec, /attach or /portForward; false when the path is none of them. */
export function handleStreamingUpgrade(host: StreamingHost, req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? '/', 'http://agent');
  const target = parseStreamPath(url.pathname);
  if (!target) return false;
  socket.on('error', () => undefined);
  if (target.kind === 'portForward') {
    reject(socket, 400, 'Bad Request', 'port-forward is not served yet');
    return true;
  }
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
    reject(socket, 400, 'Bad Request', 'Upgrade request required');
    return true;
  }
  if (!host.podKnown(target.namespace, target.pod)) {
    reject(socket, 404, 'Not Found', 'pod does not exist');
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
  const offered = req.headers['sec-websocket-protocol'];
  const protocol = negotiate(offered, remoteCommandProtocols);
  if (!protocol) {
    const asked = (offered ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    reject(socket, 403, 'Forbidden', `requested protocol(s) are not supported: [${asked.join(' ')}]; supports [${remoteCommandProtocols.join(' ')}]`);
    return true;
  }
  const argv = url.searchParams.getAll('command');
  wss.handleUpgrade(req, socket, head, (ws) => {
    const proc = target.kind === 'exec' ? host.exec(inst.id, argv, { tty: opts.tty, stdin: opts.stdin }) : attachLog(inst.logPath, () => host.runningInstance(target.namespace, target.pod, target.container!)?.id === inst.id);
    serveRemoteCommand(ws, protocol, opts, proc, argv).catch((e: unknown) => host.log?.(`${target.kind} ${target.namespace}/${target.pod}: ${e instanceof Error ? e.message : String(e)}`));
  });
  return true;
}
