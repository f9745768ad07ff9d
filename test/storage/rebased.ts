// The storage rules are written with literal revisions (the first write gets 1). On etcd the
// revision counter belongs to the whole etcd, which every rule of a test file shares (each rule
// on a fresh key prefix), so a rule starts wherever the last one left the counter. This view
// subtracts the revision the store had when the rule began from every revision that comes out
// and adds it to every revision that goes in, so the same rules read the same on every backend.
// It changes numbers only: no call is added, dropped or reordered. No side effects on import.

import {
  CompactedError,
  FutureRevisionError,
  RevisionConflictError,
  type Compare,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type Operation,
  type Store,
  type TxnResult,
  type Watch,
  type WatchEvent,
  type WatchHandlers,
} from '../../src/storage/store.js';

export class RebasedStore implements Store {
  readonly #events = new WeakMap<WatchEvent, WatchEvent>();

  constructor(readonly inner: Store, readonly base: number) {}

  static async over(inner: Store): Promise<RebasedStore> {
    return new RebasedStore(inner, await inner.currentRevision());
  }

  /** In: 0 keeps its meaning ("current" or "absent"); invalid values pass as they are, to be refused. */
  #in(r: number | undefined): number | undefined {
    return typeof r === 'number' && Number.isSafeInteger(r) && r > 0 ? r + this.base : r;
  }

  #out(r: number): number {
    return r === 0 ? 0 : Math.max(0, r - this.base);
  }

  #kv(kv: KeyValue): KeyValue;
  #kv(kv: KeyValue | undefined): KeyValue | undefined;
  #kv(kv: KeyValue | undefined): KeyValue | undefined {
    if (!kv) return kv;
    const out = { ...kv, createRevision: this.#out(kv.createRevision), modRevision: this.#out(kv.modRevision) };
    return Object.isFrozen(kv) ? Object.freeze(out) : out;
  }

  #error(e: unknown): unknown {
    if (e instanceof CompactedError) return new CompactedError(this.#out(e.requested), this.#out(e.compactRevision));
    if (e instanceof FutureRevisionError) return new FutureRevisionError(this.#out(e.requested), this.#out(e.current));
    if (e instanceof RevisionConflictError) return new RevisionConflictError(e.key, this.#out(e.expected), e.actual === undefined ? undefined : this.#out(e.actual));
    return e;
  }

  async #call<T>(p: () => Promise<T>): Promise<T> {
    try {
      return await p();
    } catch (e) {
      throw this.#error(e);
    }
  }

  /** One rebased object per event, so watchers still share it; frozen as the original. */
  #event(e: WatchEvent): WatchEvent {
    let out = this.#events.get(e);
    if (!out) {
      const mapped: WatchEvent = { type: e.type, kv: this.#kv(e.kv), ...(e.prevKv ? { prevKv: this.#kv(e.prevKv) } : {}), created: e.created };
      out = Object.isFrozen(e) ? Object.freeze(mapped) : mapped;
      this.#events.set(e, out);
    }
    return out;
  }

  async currentRevision(): Promise<number> {
    return this.#out(await this.inner.currentRevision());
  }
  async compactRevision(): Promise<number> {
    return this.#out(await this.inner.compactRevision());
  }
  get(key: string, revision?: number): Promise<KeyValue | undefined> {
    return this.#call(async () => this.#kv(await this.inner.get(key, this.#in(revision))));
  }
  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return this.#call(async () => {
      const r = await this.inner.list(prefix, { ...opts, revision: this.#in(opts.revision) });
      return { items: r.items.map((kv) => this.#kv(kv)), revision: this.#out(r.revision), more: r.more };
    });
  }
  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }
  create(key: string, value: string): Promise<KeyValue> {
    return this.#call(async () => this.#kv(await this.inner.create(key, value)));
  }
  update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    return this.#call(async () => this.#kv(await this.inner.update(key, value, this.#in(expectedModRevision))));
  }
  delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    return this.#call(async () => this.#kv(await this.inner.delete(key, this.#in(expectedModRevision))));
  }
  txn(compares: Compare[], success: Operation[], failure?: Operation[]): Promise<TxnResult> {
    return this.#call(async () => {
      const mapped = Array.isArray(compares) ? compares.map((c) => (c && typeof c === 'object' ? { ...c, modRevision: this.#in(c.modRevision)! } : c)) : compares;
      const r = await this.inner.txn(mapped, success, failure);
      return { succeeded: r.succeeded, revision: this.#out(r.revision), results: r.results.map((kv) => this.#kv(kv)) };
    });
  }
  watch(prefix: string, afterRevision: number, handlers: WatchHandlers): Promise<Watch> {
    const after = typeof afterRevision === 'number' && Number.isSafeInteger(afterRevision) && afterRevision >= 0 ? afterRevision + this.base : afterRevision;
    return this.#call(() =>
      this.inner.watch(prefix, after, {
        event: (e) => handlers.event(this.#event(e)),
        ...(handlers?.error ? { error: (err: Error) => handlers.error!(this.#error(err) as Error) } : {}),
      }),
    );
  }
  compact(revision: number): Promise<void> {
    return this.#call(() => this.inner.compact(this.#in(revision)!));
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
