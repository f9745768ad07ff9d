// Running one probe handler against a container, the kubelet's prober.runProbe with pkg/probe's
// exec, tcp and http probers: exec through the container runtime (`runc exec`, the exit code
// decides, bounded by timeoutSeconds); tcpSocket, httpGet and grpc (the gRPC health protocol over
// HTTP/2) dialled inside the pod's network namespace through the pod's dialer, as port-forward
// dials (streaming/netnsdialer.ts; without perl, streaming/netnsdial.ts' `nsenter --net=<pin>
// busybox nc` per dial), since pods have no routable address. The rules and words are lifecycle/probehandlers.ts.

import { spawn } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { Container, Probe } from '../../api/types.js';
import { dialError, dialMessages, execProbeOutcome, followRedirect, grpcHealthRequest, grpcHealthStatus, grpcMessages, grpcProbeOutcome, httpGetError, httpProbeOutcome, httpProbeRequest, httpTimeoutCause, maxProbeOutput, podLocalHost, probeUserAgent, resolveContainerPort, type HTTPProbeRequest } from '../lifecycle/probehandlers.js';
import type { HandlerOutcome } from '../lifecycle/probes.js';
import { probeTiming } from '../lifecycle/probes.js';
import { defaultBusyboxPath } from '../runtime/rootfs.js';
import { spawnDialer, type PodConnection, type PodDialer } from '../streaming/netnsdial.js';
import type { ContainerRuntime } from '../runtime/runtime.js';

export interface ProbeTarget {
  container: Container;
  /** The running container's bare runtime id (exec). */
  id: string;
  /** Its bundle (the exec's process template). */
  bundle: string;
  /** The pod's pinned network namespace, or 'host'. */
  netns: string;
  /** How a port in it is dialled; default a busybox nc per dial (spawnDialer). */
  dialer?: PodDialer;
}

/** maxProbeRetries: an errored probe is tried again at once, up to three times. */
const maxProbeRetries = 3;

export async function runProbe(runtime: ContainerRuntime, p: Probe, t: ProbeTarget, busybox = defaultBusyboxPath): Promise<HandlerOutcome> {
  let out: HandlerOutcome = { error: 'no probe ran' };
  for (let i = 0; i < maxProbeRetries; i++) {
    out = await runOnce(runtime, p, t, busybox);
    if (!('error' in out)) return out;
  }
  return out;
}

async function runOnce(runtime: ContainerRuntime, p: Probe, t: ProbeTarget, busybox: string): Promise<HandlerOutcome> {
  const timeoutMs = probeTiming(p).timeoutSeconds * 1000;
  const dialer = t.dialer ?? spawnDialer(busybox);
  if (p.exec) return execProbe(runtime, t, p.exec.command ?? [], timeoutMs);
  if (p.httpGet) {
    const req = httpProbeRequest(p.httpGet, t.container);
    if ('error' in req) return { error: req.error };
    return httpProbe(req, t.netns, timeoutMs, dialer);
  }
  if (p.tcpSocket) {
    const port = resolveContainerPort(p.tcpSocket.port, t.container);
    if (typeof port !== 'number') return { error: port.error };
    return tcpProbe(p.tcpSocket.host || podLocalHost, port, t.netns, timeoutMs, busybox, dialer);
  }
  if (p.grpc) return grpcProbe(podLocalHost, p.grpc.service ?? '', p.grpc.port, t.netns, probeTiming(p).timeoutSeconds, dialer);
  return { error: `missing probe handler for ${t.container.name}` };
}

/** What an exec in a container came to: its exit code and output (each stream capped), a timeout, or why it could not run. */
export type ExecResult = { exitCode: number; stdout: string; stderr: string } | { timedOut: true } | { error: string };

/** Go's context.Canceled: what a call cut short by its caller says. */
export const contextCanceled = 'context canceled';

/**
 * RunInContainer: `command` in the container, bounded by `timeoutMs` when given (a lifecycle
 * hook's exec has none) and ended, `context canceled`, when `signal` aborts.
 */
export function execInContainer(runtime: ContainerRuntime, t: ProbeTarget, command: string[], timeoutMs?: number, signal?: AbortSignal): Promise<ExecResult> {
  return new Promise((resolve) => {
    let proc: ReturnType<ContainerRuntime['exec']>;
    try {
      proc = runtime.exec(t.id, command, { tty: false, stdin: false, bundle: t.bundle });
    } catch (e) {
      resolve({ error: (e as Error).message });
      return;
    }
    // RunInContainer: stdout, then stderr, each capped as the exec prober caps the whole.
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(0, maxProbeOutput)));
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(0, maxProbeOutput)));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            proc.kill();
            resolve({ timedOut: true });
          }, timeoutMs);
    const cancel = () => {
      proc.kill();
      resolve({ error: contextCanceled });
    };
    if (signal?.aborted) cancel();
    else signal?.addEventListener('abort', cancel, { once: true });
    void proc.exited.then((exitCode) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

async function execProbe(runtime: ContainerRuntime, t: ProbeTarget, command: string[], timeoutMs: number): Promise<HandlerOutcome> {
  const r = await execInContainer(runtime, t, command, timeoutMs);
  if ('error' in r) return r;
  return execProbeOutcome('timedOut' in r ? r : { exitCode: r.exitCode, output: (r.stdout + r.stderr).slice(0, maxProbeOutput) }, command);
}

/**
 * DoTCPProbe: a connection that opens succeeds (and is closed at once). In a pod's namespace the
 * pod's dialer connects and answers (a bare `check`); without one (no perl) busybox nc connects
 * and runs /bin/true on the connection (`-e`), exiting 0, or says why not.
 */
function tcpProbe(host: string, port: number, netns: string, timeoutMs: number, busybox: string, dialer: PodDialer): Promise<HandlerOutcome> {
  const checked = netns === 'host' ? undefined : dialer.check?.(netns, host, port, timeoutMs / 1000);
  if (checked) return tcpCheck(checked, host, port, timeoutMs);
  const argv = ['nc', '-w', String(Math.max(1, Math.ceil(timeoutMs / 1000))), host, String(port), '-e', '/bin/true'];
  const child = netns === 'host' ? spawn(busybox, argv, { stdio: ['ignore', 'ignore', 'pipe'] }) : spawn('nsenter', [`--net=${netns}`, busybox, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve) => {
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ result: 'Failure', output: dialMessages.timeout(host, port) });
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ error: e.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { result: 'Success', output: '' } : { result: 'Failure', output: dialError(host, port, stderr) });
    });
  });
}

/** The dialer's bare connect, bounded by the probe's timeout as nc's -w and the timer above bound it. */
function tcpCheck(conn: PodConnection, host: string, port: number, timeoutMs: number): Promise<HandlerOutcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      conn.close();
      resolve({ result: 'Failure', output: dialMessages.timeout(host, port) });
    }, timeoutMs);
    void conn.failed.then((why) => {
      clearTimeout(timer);
      conn.close();
      resolve(why === undefined ? { result: 'Success', output: '' } : { result: 'Failure', output: dialError(host, port, why) });
    });
  });
}

/** A socket-like Duplex over a relay's two streams, for the HTTP client. */
function relaySocket(conn: PodConnection): Duplex {
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      conn.writable.write(chunk, () => cb());
    },
    final(cb) {
      conn.writable.end();
      cb();
    },
    destroy(err, cb) {
      conn.close();
      cb(err);
    },
  });
  conn.readable.on('data', (b: Buffer) => d.push(b));
  conn.readable.on('end', () => d.push(null));
  (conn.readable as NodeJS.EventEmitter).on('error', () => undefined);
  // A dial that fails (a refused port) fails the connection: the HTTP client asks `failed` why.
  void conn.failed.then((why) => {
    if (why !== undefined && !d.destroyed) d.destroy(new Error(why));
  });
  const noop = () => d;
  Object.assign(d, { setTimeout: noop, setNoDelay: noop, setKeepAlive: noop, ref: noop, unref: noop });
  return d;
}

/** One GET, no redirects: the status, the Location, and at most 10 KiB of the body; or why it could not be had. */
function getOnce(req: HTTPProbeRequest, netns: string, deadline: number, dialer: PodDialer, signal?: AbortSignal): Promise<{ status: number; location?: string; body: string } | { cause: string }> {
  const conn = dialer.dial(netns, req.host, req.port, (deadline - Date.now()) / 1000);
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: { status: number; location?: string; body: string } | { cause: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      conn.close();
      resolve(v);
    };
    const timer = setTimeout(() => finish({ cause: httpTimeoutCause }), Math.max(1, deadline - Date.now()));
    const cancel = () => finish({ cause: contextCanceled });
    if (signal?.aborted) cancel();
    else signal?.addEventListener('abort', cancel);
    const raw = relaySocket(conn);
    const socket = req.scheme === 'https' ? tlsConnect({ socket: raw, rejectUnauthorized: false, ...(/^[\d.:]+$/.test(req.host) ? {} : { servername: req.host }) }) : raw;
    const headers: Record<string, string | string[]> = {};
    for (const [n, v] of req.headers) {
      const prev = headers[n];
      headers[n] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    headers['Connection'] ??= 'close';
    const r = httpRequest({ method: 'GET', host: req.host, port: req.port, path: req.path, headers, createConnection: () => socket as never, setHost: !req.headers.some(([n]) => n.toLowerCase() === 'host') }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        if (body.length >= maxProbeOutput) finish({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), body: body.slice(0, maxProbeOutput) });
      });
      res.on('end', () => finish({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), body }));
      res.on('error', () => finish({ status: res.statusCode ?? 0, body }));
    });
    r.on('error', (e) => {
      // A relay that could not connect says why; otherwise the client's own error.
      void conn.failed.then((dial) => finish({ cause: dial ? dialError(req.host, req.port, dial) : e.message === 'socket hang up' ? 'EOF' : e.message }));
    });
    r.end();
  });
}

/**
 * A GET with the kubelet's client: redirects followed on the same host only, one timeout for all.
 * The last response, or the client's error (`Get "URL": cause`).
 */
export async function httpGet(first: HTTPProbeRequest, netns: string, timeoutMs: number, dialer: PodDialer = spawnDialer(), signal?: AbortSignal): Promise<{ status: number; body: string } | { error: string }> {
  // setTimeout takes at most 2^31-1 ms: a longer bound (a hook's, which has none) is that.
  const deadline = Date.now() + Math.min(timeoutMs, 2 ** 31 - 1);
  let req = first;
  for (let redirects = 0; ; redirects++) {
    const res = await getOnce(req, netns, deadline, dialer, signal);
    if ('cause' in res) return { error: httpGetError(req.url, res.cause) };
    if (res.status >= 300 && res.status < 400 && res.location) {
      const next = followRedirect(req, res.location, redirects);
      if ('follow' in next) {
        req = next.follow;
        continue;
      }
      if ('error' in next) return { error: httpGetError(req.url, next.error) };
    }
    return res;
  }
}

/** DoHTTPProbe: the GET above, its response judged as the prober judges it. */
async function httpProbe(first: HTTPProbeRequest, netns: string, timeoutMs: number, dialer: PodDialer): Promise<HandlerOutcome> {
  const res = await httpGet(first, netns, timeoutMs, dialer);
  if ('error' in res) return { result: 'Failure', output: res.error };
  return httpProbeOutcome(res.status, res.body);
}

/**
 * The gRPC prober: grpc.health.v1.Health/Check over HTTP/2 (no TLS) through the same relay,
 * with grpc-go's blocking dial: a connection that fails is tried again until the timeout.
 */
async function grpcProbe(host: string, service: string, port: number, netns: string, timeoutSeconds: number, dialer: PodDialer): Promise<HandlerOutcome> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const addr = `${host}:${port}`;
  let session: ClientHttp2Session | undefined;
  while (!session) {
    session = await http2Session(host, port, netns, deadline, dialer);
    if (session) break;
    if (Date.now() >= deadline) return { result: 'Failure', output: grpcMessages.connectTimeout(addr, timeoutSeconds) };
    await new Promise((r) => setTimeout(r, Math.min(100, Math.max(1, deadline - Date.now()))));
  }
  const s = session;
  try {
    return await new Promise<HandlerOutcome>((resolve) => {
      const timer = setTimeout(() => resolve({ result: 'Failure', output: grpcMessages.rpcTimeout(timeoutSeconds) }), Math.max(1, deadline - Date.now()));
      const req = s.request({ ':method': 'POST', ':path': '/grpc.health.v1.Health/Check', ':scheme': 'http', ':authority': addr, 'content-type': 'application/grpc', te: 'trailers', 'user-agent': probeUserAgent() });
      const chunks: Buffer[] = [];
      let headers: Record<string, unknown> = {};
      req.on('response', (h) => (headers = h));
      req.on('data', (b: Buffer) => chunks.push(b));
      req.on('trailers', (t) => (headers = { ...headers, ...t }));
      req.on('error', (e) => {
        clearTimeout(timer);
        resolve({ result: 'Failure', output: grpcMessages.failed(14, e.message) });
      });
      req.on('end', () => {
        clearTimeout(timer);
        const grpcStatus = Number(headers['grpc-status'] ?? (headers[':status'] === 200 ? 2 : 14));
        const grpcMessage = decodeURIComponent(String(headers['grpc-message'] ?? ''));
        const status = grpcHealthStatus(Buffer.concat(chunks));
        resolve(grpcProbeOutcome({ grpcStatus, grpcMessage, ...(status !== undefined ? { status } : {}) }));
      });
      req.end(grpcHealthRequest(service));
    });
  } finally {
    s.destroy();
  }
}

/** An HTTP/2 session to host:port in the pod's network namespace, or undefined when it could not be opened by the deadline. */
function http2Session(host: string, port: number, netns: string, deadline: number, dialer: PodDialer): Promise<ClientHttp2Session | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (s: ClientHttp2Session | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!s) session.destroy();
      resolve(s);
    };
    const timer = setTimeout(() => finish(undefined), Math.max(1, deadline - Date.now()));
    let conn: PodConnection | undefined;
    const socket = () => {
      if (netns === 'host') return netConnect({ host, port });
      conn = dialer.dial(netns, host, port, (deadline - Date.now()) / 1000);
      return relaySocket(conn);
    };
    const session = http2Connect(`http://${host.includes(':') ? `[${host}]` : host}:${port}`, { createConnection: socket as never });
    session.on('error', () => finish(undefined));
    session.on('close', () => finish(undefined));
    session.on('connect', () => {
      // Over a relay, the session "connects" at once: the peer's SETTINGS show it is there.
      if (!conn) finish(session);
    });
    session.on('remoteSettings', () => finish(session));
  });
}
