// The kubelet's restart and image-pull back-off: client-go's flowcontrol.Backoff as the kubelet
// uses it (no jitter). Times are milliseconds since the epoch, passed in, so the rules are pure.
//
// - next(id): the first call (or one after the entry went stale) sets `initialMs`; every later
//   call doubles it, capped at `maxMs`. lastUpdate becomes `now`.
// - An entry is stale when the event being judged comes more than 2 × maxMs after the entry's
//   lastUpdate: a container that ran 10 minutes (2 × 300 s) after its last restart starts
//   again from 10 s.

export interface BackoffConfig {
  initialMs: number;
  maxMs: number;
}

/** kubelet: backOffPeriod 10 s, MaxContainerBackOff 300 s (the image back-off uses the same). */
export const kubeletBackoff: BackoffConfig = { initialMs: 10_000, maxMs: 300_000 };

/** The volume manager's retries (nestedpendingoperations: 500 ms doubling to 2 m 2 s). */
export const volumeManagerBackoff: BackoffConfig = { initialMs: 500, maxMs: 122_000 };

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly config: BackoffConfig = kubeletBackoff) {
    if (!(config.initialMs > 0) || !(config.maxMs >= config.initialMs)) throw new RangeError(`back-off ${JSON.stringify(config)}: need 0 < initialMs <= maxMs`);
  }

  private stale(e: Entry, eventTime: number): boolean {
    return eventTime - e.lastUpdate > 2 * this.config.maxMs;
  }

  /** The current back-off of `id` in ms (0 when there is none). */
  get(id: string): number {
    return this.entries.get(id)?.backoffMs ?? 0;
  }

  /** flowcontrol IsInBackOffSince: whether less than the back-off has passed since `eventTime` (e.g. a container's finish). */
  inBackoffSince(id: string, eventTime: number, now: number): boolean {
    return this.remainingSince(id, eventTime, now) > 0;
  }

  /** How long the back-off since `eventTime` still runs (0 when not in back-off). */
  remainingSince(id: string, eventTime: number, now: number): number {
    const e = this.entries.get(id);
    if (!e || this.stale(e, eventTime)) return 0;
    return Math.max(0, e.backoffMs - (now - eventTime));
  }

  /** flowcontrol IsInBackOffSinceUpdate (image pulls): measured from the last next(). */
  remainingSinceUpdate(id: string, now: number): number {
    const e = this.entries.get(id);
    if (!e || this.stale(e, now)) return 0;
    return Math.max(0, e.backoffMs - (now - e.lastUpdate));
  }

  /** flowcontrol Next: start or double the back-off of `id`. */
  next(id: string, eventTime: number, now: number): void {
    const e = this.entries.get(id);
    if (!e || this.stale(e, eventTime)) this.entries.set(id, { backoffMs: this.config.initialMs, lastUpdate: now });
    else this.entries.set(id, { backoffMs: Math.min(e.backoffMs * 2, this.config.maxMs), lastUpdate: now });
  }

  /** Forget `id` (a success). */
  reset(id: string): void {
    this.entries.delete(id);
  }

  /** Forget every entry whose id starts with `prefix` (a removed pod). */
  forget(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}

/**
 * Go's time.Duration.String() for a whole number of milliseconds, as the kubelet prints a
 * back-off: 10s, 1m20s, 5m0s, 200ms, 1.5s, 1h0m0s.
 */
export function goDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`duration ${ms} ms`);
  ms = Math.round(ms);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const rest = ms % 60_000;
  const whole = Math.floor(rest / 1000);
  const frac = rest % 1000 === 0 ? '' : `.${String(rest % 1000).padStart(3, '0').replace(/0+$/, '')}`;
  const s = `${whole}${frac}s`;
  if (h > 0) return `${h}h${m}m${s}`;
  if (m > 0) return `${m}m${s}`;
  return s;
}
