// The rate-limited requeue of a failed sync (client-go workqueue's
// ItemExponentialFailureRateLimiter: 5 ms doubling per failure of the same key, here capped at
// 60 s rather than 1000 s so a wedged key on a small cluster comes back within a minute). A
// success forgets the key's failures (queue.Forget). Every workload controller's queue uses it.

import { isStatus } from '../client/errors.js';
import { errorText } from './errors.js';
import type { KeyedQueue } from './queue.js';

export class FailureBackoff {
  private readonly failures = new Map<string, number>();

  constructor(private readonly baseMs = 5, private readonly maxMs = 60_000) {}

  /** The delay before retrying a key that just failed. */
  next(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  /** The queue's onError: log the failure (a conflict is routine: the informer is behind) and come back later. */
  requeue(queue: () => KeyedQueue, name: string): (key: string, e: unknown) => void {
    return (key, e) => {
      if (!isStatus(e, 409)) console.error(`${name}: ${key}: ${errorText(e)}`);
      queue().addAfter(key, this.next(key));
    };
  }
}
