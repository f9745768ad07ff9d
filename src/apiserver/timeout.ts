// The deadline of every request that is not long-running, as kube-apiserver's handler chain sets
// and enforces it (k8s.io/apiserver):
//
//   endpoints/filters/request_deadline.go  WithRequestDeadline: the request's context gets a
//                                          deadline --request-timeout (default 1m0s) after it was
//                                          received; the handlers pass that context down, and the
//                                          etcd3 store hands it to clientv3 with every call, so
//                                          the etcd call is cancelled when it passes.
//   server/filters/timeout.go              WithTimeoutForNonLongRunningRequests: when the context
//                                          is done before the handler has written, the client gets
//                                          504 and apierrors.NewTimeoutError("request did not
//                                          complete within the allotted timeout", 0), encoded as
//                                          it is (no kind or apiVersion) with no Content-Type set,
//                                          so Go sniffs "text/plain; charset=utf-8"; whatever the
//                                          handler writes afterwards is dropped (http.ErrHandlerTimeout).
//                                          A handler that had started its answer has its
//                                          connection cut instead (panic(http.ErrAbortHandler)).
//
// The handler's own result arrives after the filter has answered and is lost, whatever the
// verb: a read, and a write whose etcd call was cancelled after it was sent (its outcome unknown:
// "may still be processing the request", as kubectl words a 504), answer alike. Long-running
// requests (BasicLongRunningRequestCheck with kube-apiserver's sets: the verbs watch and proxy,
// the subresources attach, exec, proxy, log and portforward) have no deadline.
//
// A request may shorten its own deadline with the `timeout` query parameter, a Go duration
// (kubectl's --request-timeout sends it): request_deadline.go's parseTimeout and
// WithRequestDeadline. One that does not parse is a 400 before anything else is looked at
// ("invalid timeout specified in the request URL - " and time.ParseDuration's error); 0, a
// negative one, or one not below --request-timeout leaves the server's.

import type { ServerResponse } from 'node:http';
import { DurationError, parseGoDurationNanos } from '../api/goduration.js';
import { deadlineExceededMessage, withDeadline, type Deadline } from '../storage/deadline.js';
import { StoreUnavailableError } from '../storage/store.js';
import type { ResourcePath } from './request.js';
import { statusErrors } from './status.js';

/** kube-apiserver's --request-timeout default (genericapiserver's RequestTimeout: 60 s). */
export const defaultRequestTimeoutMs = 60_000;

const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** kube-apiserver's long-running check: a watch, a proxy, or a streaming subresource. */
export function isLongRunning(path: ResourcePath | undefined, query: URLSearchParams): boolean {
  const watch = query.get('watch');
  if (watch !== null && ['true', '1', 't', 'T', 'TRUE', 'True'].includes(watch)) return true;
  return path?.subresource !== undefined && longRunningSubresources.has(path.subresource);
}

/** request_deadline.go's invalidTimeoutInURL. */
export const invalidTimeoutInURL = 'invalid timeout specified in the request URL';

/**
 * WithRequestDeadline's timeout for a request that is not long-running, in milliseconds: the
 * `timeout` query parameter when it is above 0 and below `maxMs` (--request-timeout), else
 * `maxMs`. A value time.ParseDuration refuses is apierrors.NewBadRequest in parseTimeout's words.
 */
export function requestTimeoutMs(query: URLSearchParams, maxMs: number): number {
  const value = query.get('timeout') ?? '';
  if (value === '') return maxMs;
  let nanos: bigint;
  try {
    nanos = parseGoDurationNanos(value);
  } catch (e) {
    if (e instanceof DurationError) throw statusErrors.badRequest(`${invalidTimeoutInURL} - ${e.message}`);
    throw e;
  }
  const ms = Number(nanos) / 1e6;
  return nanos > 0n && ms < maxMs ? ms : maxMs;
}

/** The body timeout.go writes: the StatusError's ErrStatus as json.Encoder encodes it. */
export const requestTimeoutBody =
  JSON.stringify({
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within the allotted timeout',
    reason: 'Timeout',
    details: {},
    code: 504,
  }) + '\n';

/** What Go's net/http sniffs for that body (DetectContentType of JSON text). */
export const requestTimeoutContentType = 'text/plain; charset=utf-8';

/**
 * Runs `handle` under a deadline `timeoutMs` after `receivedAt`: store calls made for it carry
 * the deadline, and when it passes before `handle` has answered, the client gets kube's 504 and
 * every later write of `handle` to `res` is dropped. Resolves (or rejects) when `handle` settles.
 *
 * Go's filter and the etcd call watch the same context, and the filter answers the moment it is
 * done; here the store's gRPC deadline and this timer are two timers for one instant, so an
 * answer `handle` begins at or after the deadline, and a store call's "context deadline
 * exceeded" reaching the top, are the deadline too and get the 504, whichever timer ran first.
 */
export async function runWithRequestTimeout(res: ServerResponse, receivedAt: number, timeoutMs: number, handle: () => Promise<void>): Promise<void> {
  const deadline: Deadline = { at: receivedAt + timeoutMs };
  const writeHead = res.writeHead;
  const timer = setTimeout(() => timeOut(res, writeHead), Math.max(0, deadline.at - Date.now()));
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (Date.now() >= deadline.at) {
      timeOut(res, writeHead);
      return res;
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  try {
    await withDeadline(deadline, handle);
  } catch (e) {
    if (e instanceof StoreUnavailableError && e.message === deadlineExceededMessage) timeOut(res, writeHead);
    throw e;
  } finally {
    clearTimeout(timer);
    if (!timedOut.has(res)) res.writeHead = writeHead;
  }
}

const timedOut = new WeakSet<ServerResponse>();

function timeOut(res: ServerResponse, writeHead: ServerResponse['writeHead']): void {
  if (res.writableEnded || timedOut.has(res)) return;
  timedOut.add(res);
  if (res.headersSent) {
    // The answer had begun: there is no way to replace it, only to cut it (Go's ErrAbortHandler).
    res.destroy();
  } else {
    // Headers the handler had set are its own (timeout.go keeps them apart until it writes).
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    writeHead.call(res, 504, { 'Content-Type': requestTimeoutContentType, 'Cache-Control': 'no-cache, private' });
    res.end(requestTimeoutBody);
  }
  // From here on the handler writes into nothing (http.ErrHandlerTimeout), and its error path's
  // destroy() of an answer it believes it started must not cut this one.
  const dropped = res as unknown as Record<string, unknown>;
  const self = () => res;
  for (const m of ['writeHead', 'setHeader', 'removeHeader', 'appendHeader', 'flushHeaders', 'end', 'destroy']) dropped[m] = self;
  dropped['write'] = () => true;
}
