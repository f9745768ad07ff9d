// pods/log as kube-apiserver serves it: the options are validated (PodLogOptions), the pod's
// node is looked up for the location of its agent (the kubelet's /containerLogs endpoint; see
// nodeconnection.ts for the address, port and credentials), and the request is proxied there; the
// body is streamed through until it ends or the client goes away.
//
// Failures are worded as upstream words them: a pod without a node has no location, which is an
// empty 204; a missing Node is its NotFound; an error before any response (connection refused,
// no route) is an error that is not a Status, which kube-apiserver answers as a 500 with no
// reason and the Go error text (`Get "http://…/containerLogs/…": dial tcp …: connect: connection
// refused`); an error status from the agent is passed through when its body is a Status (the
// agent's are, with the kubelet's words), otherwise converted as GenericHttpResponseChecker does.

import type { ServerResponse } from 'node:http';
import { fieldError, type FieldError } from '../api/fielderrors.js';
import { queryBool } from '../api/queryparams.js';
import type { Pod, Status } from '../api/types.js';
import { goRequestError, unknownError, type AgentConnector } from './nodeconnection.js';
import { sendJSON } from './request.js';
import { int64Param } from './queryparams.js';
import { statusErrors } from './status.js';
import { metaTime } from '../api/metatime.js';

export interface PodLogOptions {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
}

/** GenericHttpResponseChecker's maxReadLength. */
const maxErrorBody = 50_000;

function boolParam(q: URLSearchParams, name: string): boolean {
  return queryBool(q.get(name));
}

function intParam(q: URLSearchParams, name: string): number | undefined {
  return q.get(name) === '' ? undefined : int64Param(q, name);
}

/** The query of a pods/log request as PodLogOptions, validated as ValidatePodLogOptions does. */
export function parsePodLogOptions(q: URLSearchParams, podName: string): PodLogOptions {
  const opts: PodLogOptions = {
    container: q.get('container') || undefined,
    follow: boolParam(q, 'follow'),
    previous: boolParam(q, 'previous'),
    timestamps: boolParam(q, 'timestamps'),
    sinceSeconds: intParam(q, 'sinceSeconds'),
    tailLines: intParam(q, 'tailLines'),
    limitBytes: intParam(q, 'limitBytes'),
  };
  const since = q.get('sinceTime');
  if (since) {
    const t = Date.parse(since);
    if (!/^\d{4}-\d\d-\d\dT/.test(since) || Number.isNaN(t)) throw statusErrors.badRequest(`parsing time ${JSON.stringify(since)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(since)} as "2006"`);
    opts.sinceTime = metaTime(new Date(t));
  }
  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0) errs.push(fieldError.invalid('tailLines', opts.tailLines, 'must be greater than or equal to 0'));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1) errs.push(fieldError.invalid('limitBytes', opts.limitBytes, 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    errs.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1) {
    errs.push(fieldError.invalid('sinceSeconds', opts.sinceSeconds, 'must be greater than 0'));
  }
  if (errs.length) throw statusErrors.invalid('PodLogOptions', '', podName, errs);
  return opts;
}

/** validateContainer: the named container (of any kind), or the only one when none is named. */
export function logContainer(pod: Pod, requested: string | undefined): string {
  const name = pod.metadata.name ?? '';
  const all = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? []), ...(pod.spec.ephemeralContainers ?? [])].map((c) => c.name);
  if (!requested) {
    const containers = pod.spec.containers ?? [];
    if (containers.length === 1) return containers[0]!.name;
    if (containers.length === 0) throw statusErrors.badRequest(`a container name must be specified for pod ${name}`);
    throw statusErrors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
  }
  if (!all.includes(requested)) throw statusErrors.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

/** LogLocation: the agent's /containerLogs URL, query keys sorted as url.Values.Encode sorts them. */
export function containerLogsURL(base: URL, pod: Pod, container: string, opts: PodLogOptions): URL {
  const params: [string, string][] = [];
  if (opts.follow) params.push(['follow', 'true']);
  if (opts.previous) params.push(['previous', 'true']);
  if (opts.timestamps) params.push(['timestamps', 'true']);
  if (opts.sinceSeconds !== undefined) params.push(['sinceSeconds', String(opts.sinceSeconds)]);
  if (opts.sinceTime !== undefined) params.push(['sinceTime', opts.sinceTime]);
  if (opts.tailLines !== undefined) params.push(['tailLines', String(opts.tailLines)]);
  if (opts.limitBytes !== undefined) params.push(['limitBytes', String(opts.limitBytes)]);
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const url = new URL(base);
  url.pathname = `/containerLogs/${pod.metadata.namespace}/${pod.metadata.name}/${container}`;
  url.search = new URLSearchParams(params).toString();
  return url;
}

function isStatus(v: unknown): v is Status {
  return !!v && typeof v === 'object' && (v as { kind?: unknown }).kind === 'Status';
}

/** GenericHttpResponseChecker: an error status from the agent as the Status the client gets. */
export function upstreamError(code: number, body: string, contentType: string | undefined, podName: string): { code: number; body: unknown } {
  if (contentType?.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (isStatus(parsed)) return { code, body: parsed };
    } catch {
      // not JSON after all: converted below
    }
  }
  if (code === 500) return { code, body: statusErrors.internal(body).status };
  if (code === 400) return { code, body: statusErrors.badRequest(body).status };
  const generic: Record<number, [string, string]> = {
    404: ['NotFound', 'the server could not find the requested resource'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', body],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  let [reason, message] = generic[code] ?? ['', `the server responded with the status code ${code} but did not return more information`];
  if (!generic[code] && code >= 500) [reason, message] = ['InternalError', `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`];
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${message} ( pods/log ${podName})`, code, details: { name: podName, group: '', kind: 'pods/log' } };
  if (reason) s.reason = reason;
  return { code, body: s };
}

/**
 * GETs `url` from the node's agent and streams the answer into `res`. Resolves when the
 * response is complete; an error before the agent answered is thrown as a StatusError.
 */
export function proxyLogs(agent: AgentConnector, url: URL, podName: string, res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const done = (e?: unknown) => {
      if (settled) return;
      settled = true;
      if (e) reject(e);
      else resolve();
    };
    const upstream = agent.request(url, { method: 'GET' });
    // The client went away: stop reading from the agent (a followed log would never end).
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      done();
    });
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.end();
        done();
      } else done(unknownError(goRequestError(url, e)));
    });
    upstream.on('response', (up) => {
      const code = up.statusCode ?? 500;
      if (code < 200 || code > 206) {
        const chunks: Buffer[] = [];
        let size = 0;
        up.on('data', (c: Buffer) => {
          if (size < maxErrorBody) chunks.push(c);
          size += c.length;
        });
        up.on('end', () => {
          const text = Buffer.concat(chunks).subarray(0, maxErrorBody).toString('utf8');
          const e = upstreamError(code, text, up.headers['content-type'], podName);
          sendJSON(res, e.code, e.body);
          done();
        });
        up.on('error', (e) => done(statusErrors.internal(e.message)));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      // Each chunk goes out as it comes: `kubectl logs -f` shows lines as the container writes them.
      res.flushHeaders();
      up.pipe(res);
      up.on('end', () => done());
      // The agent went away mid-stream: what was sent stands, the response ends there.
      up.on('error', () => {
        res.end();
        done();
      });
    });
    upstream.end();
  });
}
