// client-go's retry.OnError over apimachinery's wait.Backoff, for the server's own retries of a
// write that lost a compare-and-swap: up to `steps` attempts, a sleep between two of them of
// `duration` plus up to `jitter` of it at random (wait.Jitter), `duration` multiplied by `factor`
// after each. The sleep is the caller's (the Api's), so a test can count the waits instead of
// timing them.

export interface Backoff {
  steps: number;
  durationMs: number;
  factor: number;
  jitter: number;
}

/** wait.Jitter(duration, maxFactor): duration plus a uniformly random part of up to maxFactor of it. */
export function jittered(durationMs: number, maxFactor: number, random: () => number = Math.random): number {
  return durationMs + random() * (maxFactor > 0 ? maxFactor : 1) * durationMs;
}

/**
 * retry.OnError: runs `fn` until it succeeds, fails with an error `retriable` refuses, or has
 * been tried `backoff.steps` times (wait.ExponentialBackoff); then the last retriable error is
 * thrown, as OnError returns it in place of wait's ErrWaitTimeout.
 */
export async function retryOnError<T>(backoff: Backoff, retriable: (e: unknown) => boolean, fn: () => Promise<T>, sleep: (ms: number) => Promise<void>, random: () => number = Math.random): Promise<T> {
  let duration = backoff.durationMs;
  for (let step = backoff.steps; ; step--) {
    try {
      return await fn();
    } catch (e) {
      if (!retriable(e) || step <= 1) throw e;
    }
    const wait = backoff.jitter > 0 ? jittered(duration, backoff.jitter, random) : duration;
    if (backoff.factor !== 0) duration *= backoff.factor;
    await sleep(wait);
  }
}
