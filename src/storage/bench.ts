// Raw store measurements shared by bench/store.bench.ts and the API server's benchmark, which
// prints them as its baseline (what the store alone can do on this machine).

import { performance } from 'node:perf_hooks';
import type { Store } from './store.js';

/** A JSON document of about `bytes` bytes, shaped like a small pod; `i` makes it unique. */
export function benchValue(i: number, bytes = 1024): string {
  const doc = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'bench', uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, labels: { app: 'bench' } },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    status: { phase: 'Pending', padding: '' },
  };
  const base = JSON.stringify(doc).length;
  doc.status.padding = 'x'.repeat(Math.max(0, bytes - base));
  return JSON.stringify(doc);
}

export interface WriteMeasurement {
  /** Keys written per second. */
  perSecond: number;
  /** Write requests (creates or txns) per second. */
  requestsPerSecond: number;
  keys: number;
  seconds: number;
}

/**
 * Creates `n` keys of ~1 KiB JSON under `prefix` (default a fresh one), one create per key, or
 * `batch` keys per txn, awaiting each write before the next, and reports the rate.
 */
export async function measureRawStoreWrites(
  store: Store,
  n: number,
  opts: { batch?: number; prefix?: string; valueBytes?: number } = {},
): Promise<WriteMeasurement> {
  const batch = Math.max(1, opts.batch ?? 1);
  const prefix = opts.prefix ?? `/bench/raw-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}/`;
  const values = Array.from({ length: Math.min(n, 256) }, (_, i) => benchValue(i, opts.valueBytes));
  let requests = 0;
  const start = performance.now();
  for (let i = 0; i < n; i += batch) {
    const end = Math.min(n, i + batch);
    if (batch === 1) {
      await store.create(`${prefix}${String(i).padStart(9, '0')}`, values[i % values.length]!);
    } else {
      const keys: string[] = [];
      for (let j = i; j < end; j++) keys.push(`${prefix}${String(j).padStart(9, '0')}`);
      const r = await store.txn(
        keys.map((key) => ({ key, modRevision: 0 })),
        keys.map((key, k) => ({ op: 'put' as const, key, value: values[(i + k) % values.length]! })),
      );
      if (!r.succeeded) throw new Error(`benchmark keys under ${prefix} already exist`);
    }
    requests++;
  }
  const seconds = (performance.now() - start) / 1000;
  return { perSecond: n / seconds, requestsPerSecond: requests / seconds, keys: n, seconds };
}

export interface LatencySummary {
  /** Microseconds. */
  p50: number;
  p99: number;
  mean: number;
  samples: number;
}

export function summarize(micros: number[]): LatencySummary {
  const sorted = [...micros].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { p50: pick(0.5), p99: pick(0.99), mean, samples: sorted.length };
}

/** Latency of `samples` gets of random existing keys under `prefix` (which must hold `keys` keys written by measureRawStoreWrites). */
export async function measureGetLatency(store: Store, prefix: string, keys: number, samples: number): Promise<LatencySummary> {
  const out: number[] = [];
  for (let s = 0; s < samples; s++) {
    const key = `${prefix}${String(Math.floor(Math.random() * keys)).padStart(9, '0')}`;
    const t = performance.now();
    const kv = await store.get(key);
    out.push((performance.now() - t) * 1000);
    if (!kv) throw new Error(`benchmark key ${key} is missing`);
  }
  return summarize(out);
}

/** Latency of listing `prefix`, with `limit` (0 = all) and optionally at a past revision. */
export async function measureListLatency(
  store: Store,
  prefix: string,
  samples: number,
  opts: { limit?: number; revision?: number } = {},
): Promise<LatencySummary & { items: number }> {
  const out: number[] = [];
  let items = 0;
  for (let s = 0; s < samples; s++) {
    const t = performance.now();
    const r = await store.list(prefix, opts);
    out.push((performance.now() - t) * 1000);
    items = r.items.length;
  }
  return { ...summarize(out), items };
}
