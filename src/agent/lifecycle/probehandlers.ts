// What the kubelet's probe handlers say and decide, without the I/O (pkg/probe/exec, http, tcp;
// pkg/probe/http/request.go NewRequestForHTTPGetAction; pkg/probe/util.go ResolveContainerPort;
// pkg/kubelet/cri/remote ExecSync's timeout). The pod worker dials and execs (podworker/prober.ts).
//
// Pods have no routable IP here: a probe without a host dials 127.0.0.1 inside the pod's network
// namespace, which is where the pod's own listeners are; the messages name that address where the
// kubelet's name the pod IP.

import type { Container, HTTPGetAction } from '../../api/types.js';
import { kubernetesVersion } from '../../api/version.js';
import type { HandlerOutcome } from './probes.js';

/** pkg/probe: what a handler reads of a response or an exec's output (10 KiB). */
export const maxProbeOutput = 10 * 1024;

/** The host a probe without one dials: the pod's loopback, in its network namespace. */
export const podLocalHost = '127.0.0.1';

/** ResolveContainerPort: a number, a container port's name, or a number as a string. */
export function resolveContainerPort(port: number | string, c: Container): number | { error: string } {
  let n: number;
  if (typeof port === 'number') n = port;
  else {
    const named = c.ports?.find((p) => p.name === port);
    if (named) n = named.containerPort;
    else if (/^-?\d+$/.test(port)) n = Number(port);
    else return { error: `strconv.Atoi: parsing ${JSON.stringify(port)}: invalid syntax` };
  }
  if (n > 0 && n < 65536) return n;
  return { error: `invalid port number: ${n}` };
}

/** The User-Agent the kubelet's probes send: kube-probe/<major>.<minor> (lifecycle hooks: kube-lifecycle/…). */
export function probeUserAgent(fragment: 'probe' | 'lifecycle' = 'probe'): string {
  return `kube-${fragment}/${kubernetesVersion.major}.${kubernetesVersion.minor}`;
}

export interface HTTPProbeRequest {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Path and query as the URL writes them. */
  path: string;
  /** The URL as Go's url.URL.String() gives it (the messages quote it). */
  url: string;
  /** Header lines in order; Host among them when the probe sets one. */
  headers: [string, string][];
}

function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * NewRequestForHTTPGetAction: scheme (lower-cased, http by default), host (the probe's, else the
 * pod's address), port, path; the probe's headers, then User-Agent kube-<probe|lifecycle>/<major.minor> and
 * Accept *\/* unless the probe sets them (an empty Accept removes it).
 */
export function httpProbeRequest(h: HTTPGetAction, c: Container, podHost: string = podLocalHost, userAgent: 'probe' | 'lifecycle' = 'probe'): HTTPProbeRequest | { error: string } {
  const scheme = (h.scheme ?? 'HTTP').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return { error: `unsupported protocol scheme "${scheme}"` };
  const port = resolveContainerPort(h.port, c);
  if (typeof port !== 'number') return port;
  const host = h.host || podHost;
  let path = h.path ?? '';
  if (path !== '' && !path.startsWith('/')) path = `/${path}`;
  const url = `${scheme}://${joinHostPort(host, port)}${path}`;
  const headers: [string, string][] = [];
  for (const x of h.httpHeaders ?? []) headers.push([x.name, x.value]);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name.toLowerCase());
  if (!has('User-Agent')) headers.push(['User-Agent', probeUserAgent(userAgent)]);
  if (!has('Accept')) headers.push(['Accept', '*/*']);
  else if (headers.filter(([n]) => n.toLowerCase() === 'accept').every(([, v]) => v === '')) {
    for (let i = headers.length - 1; i >= 0; i--) if (headers[i]![0].toLowerCase() === 'accept') headers.splice(i, 1);
  }
  return { scheme, host, port, path: path || '/', url, headers };
}

/** DoHTTPProbe's verdict on a response: 2xx success, 3xx a warning (a redirect not followed), else failure. */
export function httpProbeOutcome(statusCode: number, body: string): HandlerOutcome {
  if (statusCode >= 200 && statusCode < 400) {
    if (statusCode >= 300) return { result: 'Warning', output: `Probe terminated redirects, Response body: ${body}` };
    return { result: 'Success', output: body };
  }
  return { result: 'Failure', output: `HTTP probe failed with statuscode: ${statusCode}` };
}

/**
 * redirectChecker(followNonLocalRedirects=false): a redirect to the same host name is followed
 * (at most 10), one elsewhere ends the probe with the 3xx response itself.
 */
export function followRedirect(from: HTTPProbeRequest, location: string, redirectsSoFar: number): { follow: HTTPProbeRequest } | { stop: 'use-last-response' } | { error: string } {
  let u: URL;
  try {
    u = new URL(location, from.url);
  } catch {
    return { stop: 'use-last-response' };
  }
  const scheme = u.protocol.replace(/:$/, '');
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  if (hostname !== from.host || (scheme !== 'http' && scheme !== 'https')) return { stop: 'use-last-response' };
  if (redirectsSoFar >= 10) return { error: 'stopped after 10 redirects' };
  const port = u.port ? Number(u.port) : scheme === 'https' ? 443 : 80;
  const path = `${u.pathname}${u.search}`;
  // The same headers go with it (Go's client copies them to a redirect on the same host).
  return { follow: { scheme, host: from.host, port, path, url: `${scheme}://${joinHostPort(from.host, port)}${path}`, headers: from.headers } };
}

/** Go's client error: `Get "URL": <cause>`. */
export function httpGetError(url: string, cause: string): string {
  return `Get "${url}": ${cause}`;
}

/** The net/http timeout of a client with Timeout set. */
export const httpTimeoutCause = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';

/** Go's dial errors, as net.DialTimeout words them. */
export const dialMessages = {
  refused: (host: string, port: number) => `dial tcp ${joinHostPort(host, port)}: connect: connection refused`,
  timeout: (host: string, port: number) => `dial tcp ${joinHostPort(host, port)}: i/o timeout`,
  unreachable: (host: string, port: number) => `dial tcp ${joinHostPort(host, port)}: connect: network is unreachable`,
  other: (host: string, port: number, why: string) => `dial tcp ${joinHostPort(host, port)}: ${why}`,
};

/** The dial error for what busybox nc said on stderr. */
export function dialError(host: string, port: number, ncStderr: string): string {
  if (/refused/i.test(ncStderr)) return dialMessages.refused(host, port);
  if (/unreachable/i.test(ncStderr)) return dialMessages.unreachable(host, port);
  if (/timed out|timeout/i.test(ncStderr)) return dialMessages.timeout(host, port);
  return dialMessages.other(host, port, ncStderr.replace(/^nc: /, '').trim() || 'connect failed');
}

/** The exec probe: exit 0 succeeds, anything else fails with the output; a timeout fails with CRI's words. */
export function execProbeOutcome(r: { exitCode: number; output: string } | { timedOut: true }, command: string[]): HandlerOutcome {
  if ('timedOut' in r) return { result: 'Failure', output: `command ${JSON.stringify(command.join(' '))} timed out` };
  return { result: r.exitCode === 0 ? 'Success' : 'Failure', output: r.output };
}

// gRPC health checking (pkg/probe/grpc/grpc.go): grpc.health.v1.Health/Check over HTTP/2 without
// TLS, the answer's ServingStatus SERVING passes; anything else fails in grpc-go's words.

/** HealthCheckResponse.ServingStatus names. */
export const grpcServingStatus: Record<number, string> = { 0: 'UNKNOWN', 1: 'SERVING', 2: 'NOT_SERVING', 3: 'SERVICE_UNKNOWN' };

/** The length-prefixed message of HealthCheckRequest{service} (protobuf field 1, a string). */
export function grpcHealthRequest(service: string): Buffer {
  const s = Buffer.from(service, 'utf8');
  const body = s.length ? Buffer.concat([Buffer.from([0x0a]), varint(s.length), s]) : Buffer.alloc(0);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

/** HealthCheckResponse.status from a length-prefixed response (0, UNKNOWN, when absent); undefined when malformed. */
export function grpcHealthStatus(frame: Buffer): number | undefined {
  if (frame.length < 5 || frame[0] !== 0) return undefined;
  const len = frame.readUInt32BE(1);
  const msg = frame.subarray(5, 5 + len);
  if (msg.length !== len) return undefined;
  let i = 0;
  let status = 0;
  while (i < msg.length) {
    const tag = msg[i++]!;
    if (tag === 0x08) {
      let v = 0;
      let shift = 0;
      while (i < msg.length) {
        const b = msg[i++]!;
        v |= (b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) break;
      }
      status = v;
    } else return status;
  }
  return status;
}

/** Go's time.Duration String() of whole seconds: 1s, 1m30s. */
function goSeconds(s: number): string {
  const m = Math.floor(s / 60);
  return m ? `${m}m${s % 60}s` : `${s}s`;
}

export const grpcMessages = {
  connectTimeout: (addr: string, timeoutSeconds: number) => `timeout: failed to connect service ${JSON.stringify(addr)} within ${goSeconds(timeoutSeconds)}: context deadline exceeded`,
  rpcTimeout: (timeoutSeconds: number) => `timeout: health rpc did not complete within ${goSeconds(timeoutSeconds)}`,
  unimplemented: (message: string) => `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${message}`,
  failed: (code: number, message: string) => `error: health rpc probe failed: rpc error: code = ${grpcCodeName(code)} desc = ${message}`,
  unhealthy: (status: number) => `service unhealthy (responded with ${JSON.stringify(grpcServingStatus[status] ?? String(status))})`,
  healthy: 'service healthy',
};

const grpcCodes = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];
function grpcCodeName(code: number): string {
  return grpcCodes[code] ?? `Code(${code})`;
}

/** The verdict on a finished Check call: its grpc-status, grpc-message and response status. */
export function grpcProbeOutcome(r: { grpcStatus: number; grpcMessage: string; status?: number }): HandlerOutcome {
  if (r.grpcStatus === 12) return { result: 'Failure', output: grpcMessages.unimplemented(r.grpcMessage) };
  if (r.grpcStatus !== 0) return { result: 'Failure', output: grpcMessages.failed(r.grpcStatus, r.grpcMessage) };
  if (r.status !== 1) return { result: 'Failure', output: grpcMessages.unhealthy(r.status ?? 0) };
  return { result: 'Success', output: grpcMessages.healthy };
}
