// An in-process store with the same semantics as the SQLite one (both run on `LogStore`), for
// fast unit tests of the API server: full history for reads at a revision and watch replay,
// compaction, the same errors. Nothing is persisted.

import type { KeyValue, WatchEvent } from './store.js';
import { LogStore, type HistoryPage, type LogBackend, type RangeQuery } from './engine.js';
import { compareKeys } from './keys.js';

/** One entry of a key's history: its state from `revision` on (undefined: deleted). */
interface Version {
  revision: number;
  kv: KeyValue | undefined;
}

/** Index of the first element of `sorted` that is not less than `key` (or greater, when `strict`). */
function lowerBound(sorted: readonly string[], key: string, strict: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(sorted[mid]!, key);
    if (c < 0 || (strict && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function stateAt(versions: readonly Version[], revision: number): KeyValue | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    if (versions[i]!.revision <= revision) return versions[i]!.kv;
  }
  return undefined;
}

class MemoryBackend implements LogBackend {
  readonly #current = new Map<string, KeyValue>();
  readonly #history = new Map<string, Version[]>();
  /** Every key with history, in key order. */
  #keys: string[] = [];
  /** Every event not compacted away, in revision order. */
  #log: WatchEvent[] = [];
  #compactRevision = 0;

  loadRevision(): number {
    return this.#log.at(-1)?.kv.modRevision ?? 0;
  }

  loadCompactRevision(): number {
    return this.#compactRevision;
  }

  current(key: string): KeyValue | undefined {
    return this.#current.get(key);
  }

  at(key: string, revision: number): KeyValue | undefined {
    const versions = this.#history.get(key);
    return versions ? stateAt(versions, revision) : undefined;
  }

  range(q: RangeQuery): KeyValue[] {
    const out: KeyValue[] = [];
    for (let i = lowerBound(this.#keys, q.from, !q.fromInclusive); i < this.#keys.length; i++) {
      if (q.limit >= 0 && out.length >= q.limit) break;
      const key = this.#keys[i]!;
      if (q.to !== undefined && compareKeys(key, q.to) >= 0) break;
      const kv = q.revision === undefined ? this.#current.get(key) : this.at(key, q.revision);
      if (kv) out.push(kv);
    }
    return out;
  }

  count(from: string, to: string | undefined): number {
    let n = 0;
    for (let i = lowerBound(this.#keys, from, false); i < this.#keys.length; i++) {
      const key = this.#keys[i]!;
      if (to !== undefined && compareKeys(key, to) >= 0) break;
      if (this.#current.has(key)) n++;
    }
    return n;
  }

  transaction<T>(body: () => T): T {
    // The engine only calls `append`, the one mutation, after every check has passed.
    return body();
  }

  append(events: readonly WatchEvent[]): void {
    for (const e of events) {
      const { key } = e.kv;
      this.#log.push(e);
      const live = e.type === 'PUT' ? e.kv : undefined;
      if (live) this.#current.set(key, live);
      else this.#current.delete(key);
      let versions = this.#history.get(key);
      if (!versions) {
        versions = [];
        this.#history.set(key, versions);
        this.#keys.splice(lowerBound(this.#keys, key, false), 0, key);
      }
      versions.push({ revision: e.kv.modRevision, kv: live });
    }
  }

  historyStart(afterRevision: number): number {
    let lo = 0;
    let hi = this.#log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#log[mid]!.kv.modRevision <= afterRevision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  history(prefix: string, cursor: number, throughRevision: number, limit: number): HistoryPage {
    const events: WatchEvent[] = [];
    let i = cursor;
    for (; i < this.#log.length && events.length < limit; i++) {
      const e = this.#log[i]!;
      if (e.kv.modRevision > throughRevision) return { events, cursor: i, done: true };
      if (e.kv.key.startsWith(prefix)) events.push(e);
    }
    return { events, cursor: i, done: i >= this.#log.length };
  }

  recordCompaction(revision: number): void {
    this.#compactRevision = revision;
  }

  compactStart(): number {
    return 0;
  }

  compactStep(revision: number): number | undefined {
    // Same rule as the SQLite log: below `revision`, keep only each key's state as of `revision`,
    // and not even that when it is a deletion.
    this.#log = this.#log.filter((e) => e.kv.modRevision >= revision);
    const emptied = new Set<string>();
    for (const [key, versions] of this.#history) {
      const kept = versions.filter((v, i) => {
        if (v.revision >= revision) return true;
        if (!v.kv) return false;
        const next = versions[i + 1];
        return next === undefined || next.revision > revision;
      });
      if (kept.length === 0) {
        this.#history.delete(key);
        emptied.add(key);
      } else if (kept.length !== versions.length) {
        this.#history.set(key, kept);
      }
    }
    if (emptied.size > 0) this.#keys = this.#keys.filter((k) => !emptied.has(k));
    return undefined;
  }

  close(): void {
    this.#current.clear();
    this.#history.clear();
    this.#keys = [];
    this.#log = [];
  }
}

export class MemoryStore extends LogStore {
  constructor() {
    super(new MemoryBackend());
  }
}
