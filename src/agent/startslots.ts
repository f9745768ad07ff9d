// How many pods create runtime objects (sandboxes, containers) at the same time. Starting a pod
// is CPU work (runc, conmon, mount), so fifty pods started together do not finish sooner than in
// turns: they all finish late, at about the same time. In a few slots they finish in the order
// they came, at nearly the same throughput. bench:startup, 50 pods at once on 2 CPUs: unlimited,
// p50 2.5–3.0 s and p99 2.7–3.2 s; 8 slots, p50 1.8–2.0 s and p99 2.8–3.1 s; 4 slots, about
// the same p50 as 8 but the last pod later. Waiters are served first come, first served.

export class StartSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`start slots: size must be a positive integer, got ${size}`);
    this.free = size;
  }

  /** Runs `fn` in a slot, waiting for one if all are taken. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
