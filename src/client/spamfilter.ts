// The per-object limit of client-go's EventCorrelator (tools/record events_cache.go,
// EventSourceObjectSpamFilter): every source and involved object has its own token bucket,
// `burst` events at once, then one per `1/qps` seconds; an event that finds the bucket empty is
// dropped, so one object cannot flood the server with events (upstream: burst 25, one per five
// minutes, buckets for the 4,096 most recent objects). Pure: the clock is given.

import type { EventSource } from '../api/events.js';
import type { KubeObject } from '../api/types.js';

export const defaultSpamBurst = 25;
export const defaultSpamQPS = 1 / 300;
export const maxSpamKeys = 4096;

interface Bucket {
  tokens: number;
  lastMs: number;
}

/** The key one bucket is kept under: source and involved object (getSpamKey). */
export function spamKey(source: EventSource, obj: KubeObject): string {
  const m = obj.metadata ?? {};
  return [source.component, source.host ?? '', obj.kind ?? '', m.namespace ?? '', m.name ?? '', m.uid ?? '', obj.apiVersion ?? ''].join('\u0000');
}

export class SpamFilter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly nowMs: () => number, readonly burst = defaultSpamBurst, readonly qps = defaultSpamQPS) {}

  /** Takes a token for this key if there is one; false: drop the event. */
  allow(key: string): boolean {
    const now = this.nowMs();
    let b = this.buckets.get(key);
    if (b) this.buckets.delete(key);
    else {
      b = { tokens: this.burst, lastMs: now };
      if (this.buckets.size >= maxSpamKeys) this.buckets.delete(this.buckets.keys().next().value!);
    }
    // Most recently used last, so the oldest is evicted first (the LRU of upstream).
    this.buckets.set(key, b);
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.lastMs) / 1000) * this.qps);
    b.lastMs = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
