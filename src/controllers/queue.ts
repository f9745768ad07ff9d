// A work queue keyed by string: adding a key that is already waiting does nothing, a key is
// never processed twice at once, and a key added while it is being processed runs again after.

export class KeyedQueue {
  private pending = new Set<string>();
  private running = new Set<string>();
  private again = new Set<string>();
  private stopped = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly work: (key: string) => Promise<void>, private readonly onError: (key: string, e: unknown) => void = (k, e) => console.error(`controller: ${k}: ${e instanceof Error ? e.message : String(e)}`)) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    if (this.pending.has(key)) return;
    this.pending.add(key);
    queueMicrotask(() => void this.run(key));
  }

  private async run(key: string): Promise<void> {
    if (!this.pending.delete(key) || this.stopped) return this.settle();
    this.running.add(key);
    try {
      await this.work(key);
    } catch (e) {
      this.onError(key, e);
    } finally {
      this.running.delete(key);
      if (this.again.delete(key)) this.add(key);
      this.settle();
    }
  }

  private settle(): void {
    if (this.pending.size === 0 && this.running.size === 0) {
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    }
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (this.pending.size === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.settle();
  }
}
