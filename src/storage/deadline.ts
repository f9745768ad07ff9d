// A request's deadline, carried down to the store calls made for it, as Go's context carries
// kube-apiserver's request deadline (endpoints/filters/request_deadline.go sets it,
// server/filters/timeout.go answers 504 when it passes) through the handlers and the etcd3 store
// to clientv3, which sends it with each gRPC call and cancels the call when it passes. Node has
// no context argument on the Store contract, so the deadline rides on an AsyncLocalStorage: the
// API server runs each non-long-running request inside `withDeadline`, and a store that can bound
// its calls (etcd.ts) reads `currentDeadline()` when it sends one. Work the store does for itself
// (its watch feed, compaction) runs `withoutDeadline`, as clientv3 calls made with
// context.Background() are not bounded by any request.

import { AsyncLocalStorage } from 'node:async_hooks';

export interface Deadline {
  /** When the request's time is up, in epoch milliseconds. */
  readonly at: number;
}

/**
 * Made by the first store that bounds its calls (carryDeadlines). In Node 20 an
 * AsyncLocalStorage in use hooks every promise (async_hooks' promiseInitHook): on a SQLite server,
 * whose store never reads a deadline, that was some 8% more CPU per pod create for nothing.
 */
let current: AsyncLocalStorage<Deadline | undefined> | undefined;

/** Deadlines are carried from here on: called by a store that reads them (etcd.ts). */
export function carryDeadlines(): void {
  current ??= new AsyncLocalStorage<Deadline | undefined>();
}

/** Runs `fn` (and everything it starts) under `deadline`; undefined lifts any deadline. */
export function withDeadline<T>(deadline: Deadline | undefined, fn: () => T): T {
  return current ? current.run(deadline, fn) : fn();
}

/** Runs `fn` under no request's deadline (the store's own background work). */
export function withoutDeadline<T>(fn: () => T): T {
  return current ? current.run(undefined, fn) : fn();
}

/** The deadline of the request this code runs for, if any (none while no store carries them). */
export function currentDeadline(): Deadline | undefined {
  return current?.getStore();
}

/** The earliest of several deadlines (a call made for several requests at once ends with the first). */
export function earliest(deadlines: readonly (Deadline | undefined)[]): Deadline | undefined {
  let first: Deadline | undefined;
  for (const d of deadlines) if (d && (!first || d.at < first.at)) first = d;
  return first;
}

/** Go's context.DeadlineExceeded.Error(), which clientv3 returns for a call whose context expired (toErr). */
export const deadlineExceededMessage = 'context deadline exceeded';
