// client-go's client-side rate limit (flowcontrol.NewTokenBucketRateLimiter over
// golang.org/x/time/rate): a bucket of `burst` tokens, full at the start, refilled at `qps` per
// second; every API request takes one and waits for it when the bucket is empty. The in-process
// controllers take one per write that their upstream counterpart sends as a request, so they
// load the server no more than kube-scheduler with its default clientConnection (qps 50,
// burst 100) would.

export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly waiting = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  constructor(readonly qps: number, readonly burst: number, private readonly now: () => number = () => performance.now()) {
    this.tokens = burst;
    this.last = now();
  }

  /** Resolves when a token is granted (at once while the bucket has one); tokens are granted in call order. */
  take(): Promise<void> {
    if (this.qps <= 0 || !Number.isFinite(this.qps)) return Promise.resolve();
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    // Reserve now, as rate.Limiter.Wait does: a deficit is the wait of this caller.
    this.tokens -= 1;
    if (this.tokens >= 0) return Promise.resolve();
    const waitMs = (-this.tokens / this.qps) * 1000;
    return new Promise((resolve) => {
      const w = {
        resolve,
        timer: setTimeout(() => {
          this.waiting.delete(w);
          resolve();
        }, waitMs),
      };
      this.waiting.add(w);
    });
  }

  /** Lets every waiter go now (the owner is stopping and will not write). */
  releaseAll(): void {
    for (const w of this.waiting) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.waiting.clear();
  }
}
