// The etcd store's retry rules, as Go's clientv3 has them (client/v3/retry.go,
// retry_interceptor.go) rather than the etcd3 client's default, which re-sends every call that
// failed with a "recoverable" gRPC error, writes included: a read (Range, a read-only Txn) is
// re-sent when it failed Unavailable; a write only when it was never sent. A write that may have
// reached etcd ends in StoreUnavailableError (outcome unknown), worded as Go's client words it.
// A call made for a request carries its deadline (deadline.ts): one that outlives it is cancelled
// by gRPC and ends as clientv3 ends it, with the context's error ("context deadline exceeded"),
// and a write that had been sent then has an unknown outcome too.

import { circuitBreaker, ConsecutiveBreaker, ExponentialBackoff, handleWhen, isBrokenCircuitError, retry } from 'cockatiel';
import { StoreUnavailableError } from './store.js';
import { deadlineExceededMessage } from './deadline.js';

/** The gRPC status of an error from the etcd3 client, whose message is grpc-js's "14 UNAVAILABLE: details". */
export function grpcStatus(e: unknown): { code: number; details: string } | undefined {
  const m = /^(\d+) [A-Z_]+: ([\s\S]*)$/.exec(e instanceof Error ? e.message : '');
  return m ? { code: Number(m[1]), details: m[2]! } : undefined;
}

const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;

/** The request's deadline had passed before a try could start: the call was not sent (again). */
export class DeadlineBeforeSend extends Error {
  constructor() {
    super(deadlineExceededMessage);
  }
}

/** grpc-js had no connection to the member to send on: its words for clientv3's "there is no connection available". */
function noConnection(e: unknown): boolean {
  const s = grpcStatus(e);
  return s?.code === UNAVAILABLE && /^(\w+: )?No connection established/.test(s.details);
}

/**
 * The call was never sent: no connection to send on, the channel closed before the call started,
 * or every member's circuit was open. The only failure after which Go re-sends a write
 * (isSafeRetryMutableRPC).
 */
export function neverSent(e: unknown): boolean {
  return isBrokenCircuitError(e) || noConnection(e) || grpcStatus(e)?.details === 'Channel closed before call started';
}

/** isSafeRetryImmutableRPC: a read is re-sent after Unavailable only (not after a deadline, a cancel or a server's refusal). */
export function retryableRead(e: unknown): boolean {
  return neverSent(e) || grpcStatus(e)?.code === UNAVAILABLE;
}

/** Go's codes.Code names, for the codes after which a call's outcome is not known. */
const goCodes: Record<number, string> = { 1: 'Canceled', 2: 'Unknown', 4: 'DeadlineExceeded', 13: 'Internal', 14: 'Unavailable' };

/**
 * What a call that failed without an answer throws: StoreUnavailableError worded as Go's client
 * words it (etcd's own errors, "etcdserver: …", as rpctypes gives them; others as a gRPC status
 * error; a call that outlived its deadline as the context's error, which clientv3's toErr returns
 * for DeadlineExceeded), or the error itself when etcd answered (a refusal, a compacted revision,
 * …). `lastGrpc` is the last gRPC failure among the tries, better words than an open circuit's;
 * `hadDeadline` says the call carried a request's deadline (so DeadlineExceeded is its own).
 */
export function unanswered(e: unknown, lastGrpc: Error | undefined, write: boolean, hadDeadline = false): unknown {
  // Not sent at all, or not sent again after a try that never left: nothing can have committed.
  if (e instanceof DeadlineBeforeSend) return new StoreUnavailableError(deadlineExceededMessage, false);
  const broken = isBrokenCircuitError(e);
  const s = grpcStatus(broken && lastGrpc ? lastGrpc : e);
  if (hadDeadline && !broken && s?.code === DEADLINE_EXCEEDED) return new StoreUnavailableError(deadlineExceededMessage, write);
  if (!broken && !(s && s.code in goCodes)) return e;
  const message = !s ? `rpc error: code = Unavailable desc = ${(e as Error).message}` : s.details.startsWith('etcdserver: ') ? s.details : `rpc error: code = ${goCodes[s.code] ?? s.code} desc = ${s.details}`;
  return new StoreUnavailableError(message, write && !neverSent(e));
}

/**
 * clientv3 waits 25 ms (±10%) between up to 100 tries, about 2.5 s in all; an exponential back-off
 * from 25 ms capped at 1 s gives about the same total (1.7 to 3.1 s over 8 retries) with fewer
 * calls to a member that is restarting.
 */
const retryBackoff = () => new ExponentialBackoff({ initialDelay: 25, maxDelay: 1000 });
export const readPolicy = retry(handleWhen(retryableRead), { maxAttempts: 8, backoff: retryBackoff() });
export const writePolicy = retry(handleWhen(neverSent), { maxAttempts: 8, backoff: retryBackoff() });

/**
 * The per-member circuit breaker etcd3 runs each call through, tripped only when the member
 * cannot be connected to, which is what it is for (with several members, calls go to the others
 * meanwhile); after 1 s, gRPC's first reconnect back-off, it lets one call try again. etcd3's
 * default trips on any failure and stays open 5 s: two lost answers and one more failure shut
 * the only member out for longer than the retries above, though it answered at once on a new
 * connection.
 */
export const memberPolicy = () => circuitBreaker(handleWhen(noConnection), { halfOpenAfter: 1000, breaker: new ConsecutiveBreaker(3) });
