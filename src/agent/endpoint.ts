// The agent's endpoint, the counterpart of the kubelet's port 10250: HTTPS with a serving
// certificate the cluster CA signed, every request authenticated and authorized as the kubelet
// does it (endpointauth.ts: client certificates and TokenReview, then SubjectAccessReview on
// nodes/proxy, nodes/log, nodes/stats, nodes/metrics...). The API server proxies `kubectl logs`
// to /containerLogs and nodes/proxy to any path; /metrics serves the agent's Prometheus metrics.
// Refusals are the kubelet's plain-text 401 and 403; other errors are core/v1 Status bodies with
// the kubelet's words, which the API server passes through to kubectl.

import { ServerResponse, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { queryBool } from '../api/queryparams.js';
import { forbiddenMessage, requestAttributes, type EndpointAuthenticator } from './endpointauth.js';
import { formatLogs, parseK8sFileLog, type LogLine } from './monitor/conmon.js';
import { handleStreamingUpgrade, type StreamingHost } from './streaming/server.js';

export interface LogTarget {
  /** The log file of the container's current (or previous) instance, if it has one. */
  path?: string;
  /** Why there is no log, in the kubelet's words (used when path is undefined). */
  missing?: string;
  /** Whether the instance may still write (follow keeps reading while true). */
  running: () => boolean;
}

export interface EndpointOptions {
  host: string;
  port: number;
  /** The serving certificate and key, and the CA client certificates must chain to. */
  tls: { cert: string; key: string; clientCA: string };
  auth: EndpointAuthenticator;
  logs: (namespace: string, pod: string, container: string, previous: boolean) => LogTarget;
  metrics: () => Promise<string>;
  metricsContentType: string;
  /** /stats/summary (the kubelet's Summary JSON) and /metrics/resource (stats/); absent: 404. */
  stats?: { summary(): unknown; resourceMetrics(): string; resourceMetricsContentType: string };
  /** exec, attach, port-forward (streaming/server.ts); without it upgrades are refused. */
  streaming?: StreamingHost;
  log?: (msg: string) => void;
}

function status(res: ServerResponse, code: number, reason: string, message: string): void {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }));
}

/** go-restful's WriteErrorString: the status and the text, which Go sniffs as plain text. */
function refuse(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

/** InstallAuthFilter: undefined when the request may go on, else it has been answered. */
async function admit(req: IncomingMessage, res: ServerResponse, path: string, auth: EndpointAuthenticator, log?: (m: string) => void): Promise<boolean> {
  let user;
  try {
    user = await auth.authenticate(req);
  } catch (e) {
    log?.(`Unable to authenticate the request due to an error: ${e instanceof Error ? e.message : String(e)}`);
    refuse(res, 401, 'Unauthorized');
    return false;
  }
  if (!user) {
    refuse(res, 401, 'Unauthorized');
    return false;
  }
  const attrs = requestAttributes(req.method ?? 'GET', path);
  try {
    for (const sub of attrs.subresources) if (await auth.authorize(user, attrs.verb, sub)) return true;
  } catch (e) {
    log?.(`Authorization error: ${e instanceof Error ? e.message : String(e)}`);
    refuse(res, 500, `Authorization error (user=${user.name}, verb=${attrs.verb}, resource=nodes, subresource(s)=[${attrs.subresources.join(' ')}])`);
    return false;
  }
  refuse(res, 403, forbiddenMessage(user, attrs));
  return false;
}

/** Lines of `text` that are complete records, and where the incomplete rest begins. */
function completeRecords(text: string): { done: string; rest: string } {
  const i = text.lastIndexOf('\n');
  return i < 0 ? { done: '', rest: text } : { done: text.slice(0, i + 1), rest: text.slice(i + 1) };
}

interface LogQuery {
  follow: boolean;
  tailLines?: number;
  timestamps: boolean;
  limitBytes?: number;
  sinceSeconds?: number;
  /** sinceTime, as epoch milliseconds. */
  sinceTime?: number;
}

/**
 * The kubelet's NewLogOptions: sinceSeconds back from now, or sinceTime when that is later; a
 * line written before it is skipped. (Tail and since commute on a log in time order.)
 */
export function logsSince(q: Pick<LogQuery, 'sinceSeconds' | 'sinceTime'>, now: number): number | undefined {
  let since = q.sinceSeconds !== undefined ? now - q.sinceSeconds * 1000 : undefined;
  if (q.sinceTime !== undefined && (since === undefined || q.sinceTime > since)) since = q.sinceTime;
  return since;
}

function selectLines(lines: LogLine[], q: LogQuery, now: number): LogLine[] {
  const since = logsSince(q, now);
  if (since === undefined) return lines;
  return lines.filter((l) => Date.parse(l.time) >= since);
}

async function serveLogs(target: LogTarget, q: LogQuery, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  // A follower must see the headers before the first line arrives.
  res.flushHeaders();
  let budget = q.limitBytes ?? Infinity;
  const write = (s: string): boolean => {
    if (!s || budget <= 0) return budget > 0;
    const b = Buffer.from(s);
    const out = b.length > budget ? b.subarray(0, budget) : b;
    budget -= out.length;
    res.write(out);
    return budget > 0;
  };
  if (!target.path) {
    res.end();
    return;
  }
  let fd: number;
  try {
    fd = openSync(target.path, 'r');
  } catch {
    res.end();
    return;
  }
  let offset = 0;
  let pending = '';
  const readMore = (): string => {
    const size = fstatSync(fd).size;
    if (size <= offset) return '';
    const buf = Buffer.alloc(size - offset);
    const n = readSync(fd, buf, 0, buf.length, offset);
    offset += n;
    return buf.toString('utf8', 0, n);
  };
  try {
    const first = completeRecords(readMore());
    pending = first.rest;
    const lines = selectLines(parseK8sFileLog(first.done), q, Date.now());
    if (!write(formatLogs(lines, { tailLines: q.tailLines, timestamps: q.timestamps })) || !q.follow) return;
    let closed = false;
    req.on('close', () => (closed = true));
    res.on('close', () => (closed = true));
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (closed) return;
      const running = target.running();
      const chunk = completeRecords(pending + readMore());
      pending = chunk.rest;
      if (chunk.done && !write(formatLogs(parseK8sFileLog(chunk.done), { timestamps: q.timestamps }))) return;
      if (!running && !chunk.done) return;
    }
  } finally {
    closeSync(fd);
    if (!res.writableEnded) res.end();
  }
}

function intParam(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
}

export async function startEndpoint(opts: EndpointOptions): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  // Client certificates are asked for, not required: a caller may bring a bearer token instead.
  const tlsOpts = { cert: opts.tls.cert, key: opts.tls.key, ca: opts.tls.clientCA, requestCert: true, rejectUnauthorized: false };
  const server = createServer(tlsOpts, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://agent');
    admit(req, res, url.pathname, opts.auth, opts.log).then(
      (ok) => {
        if (ok) serve(req, res, url);
      },
      (e: unknown) => {
        if (!res.headersSent) status(res, 500, 'InternalError', String(e));
      },
    );
  });
  const serve = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (url.pathname === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('ok');
      return;
    }
    if (req.method !== 'GET') {
      status(res, 405, 'MethodNotAllowed', `method ${req.method} is not allowed`);
      return;
    }
    if (url.pathname === '/metrics') {
      opts.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': opts.metricsContentType }).end(text),
        (e: unknown) => status(res, 500, 'InternalError', String(e)),
      );
      return;
    }
    if (opts.stats && (url.pathname === '/stats/summary' || url.pathname === '/metrics/resource')) {
      try {
        if (url.pathname === '/stats/summary') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(opts.stats.summary()));
        else res.writeHead(200, { 'Content-Type': opts.stats.resourceMetricsContentType }).end(opts.stats.resourceMetrics());
      } catch (e) {
        status(res, 500, 'InternalError', e instanceof Error ? e.message : String(e));
      }
      return;
    }
    const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!m) {
      status(res, 404, 'NotFound', `404 page not found`);
      return;
    }
    let ns: string, pod: string, container: string;
    try {
      [ns, pod, container] = m.slice(1).map(decodeURIComponent) as [string, string, string];
    } catch {
      // A throw here would escape the request listener and end the agent.
      status(res, 400, 'BadRequest', `invalid URL escape in ${JSON.stringify(url.pathname)}`);
      return;
    }
    const q = url.searchParams;
    const previous = queryBool(q.get('previous'));
    const target = opts.logs(ns, pod, container, previous);
    if (!target.path && target.missing) {
      status(res, 400, 'BadRequest', target.missing);
      return;
    }
    const query: LogQuery = {
      follow: queryBool(q.get('follow')),
      timestamps: queryBool(q.get('timestamps')),
      tailLines: intParam(q.get('tailLines')),
      limitBytes: intParam(q.get('limitBytes')),
      sinceSeconds: intParam(q.get('sinceSeconds')),
      sinceTime: q.get('sinceTime') ? Date.parse(q.get('sinceTime')!) : undefined,
    };
    if (query.sinceTime !== undefined && Number.isNaN(query.sinceTime)) query.sinceTime = undefined;
    serveLogs(target, query, req, res).catch((e: unknown) => {
      opts.log?.(`containerLogs ${ns}/${pod}/${container}: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) status(res, 500, 'InternalError', String(e));
      else res.destroy();
    });
  };
  // exec, attach and port-forward: the same authentication and nodes/proxy authorization, the
  // refusal written on the upgrade's connection.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'https://agent');
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.on('finish', () => socket.end());
    admit(req, res, url.pathname, opts.auth, opts.log).then(
      (ok) => {
        if (!ok) return;
        res.detachSocket(socket as never);
        if (!opts.streaming || !handleStreamingUpgrade(opts.streaming, req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      },
      () => socket.destroy(),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port, opts.host, () => ok());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
