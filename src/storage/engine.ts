// The semantics every embedded backend shares, written once: argument checks, preconditions,
// transactions, revision numbering, read-revision checks, compaction bookkeeping and watch
// delivery. A backend (SQLite, memory) only stores and reads the log through `LogBackend`, so
// the two cannot disagree on a rule.
//
// Revisions follow etcd: one revision per write request. A transaction that writes several keys
// gets one revision, and every event it produces carries that revision as modRevision (etcd
// numbers the ops inside it with a sub-revision, which is not part of the contract; here the log
// keeps their order). A request that changes nothing (failed compare with an empty branch,
// delete of an absent key) does not take a revision and produces no event.
//
// Watches: watchers live in the process that holds the store. `watch` first replays the log
// (synchronously, before its promise resolves), then every committed write is delivered by
// calling `handlers.event` synchronously right after the commit, before the writing call's promise
// resolves. Writers are therefore never blocked by a slow consumer, but a handler must not do slow
// work inline: a consumer that needs to apply back-pressure buffers the events itself (a queue it
// drains asynchronously) and cancels, or falls back to a relist, when its buffer grows too large.
// Event objects are built once per write, frozen, and the same object is handed to every watcher.
//
// Group commit: a backend that can (SQLite) keeps one transaction open for the writes of one
// event-loop turn, each write in a savepoint of it, and commits them together at the end of the
// turn (setImmediate). A write's promise resolves, and its events are delivered, only after that
// commit, so nothing unacknowledged is ever observed by a watcher; concurrent writers share one
// COMMIT instead of paying one each. Reads made meanwhile see the writes of the open group (as
// etcd's reads see its uncommitted backend batch), but a revision is only reported (by
// currentRevision, or as a list's revision) once it is committed and delivered: asking for one
// commits the open group first. If the commit fails, every write of the group fails and every
// watch ends with the error, so watchers start again from committed state.
// A write made from inside a handler is delivered after the current event batch, so every watcher
// sees revisions in increasing order. A handler that throws ends its watch: `handlers.error` gets
// the exception and no more events follow; the writer is not affected.

import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
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
} from './store.js';
import { checkKey, checkPrefix, checkRevision, checkValue, compareKeys, prefixUpperBound } from './keys.js';

/** Keys in [from, to) (or (from, to) when not `fromInclusive`); `to` undefined means no upper bound. */
export interface RangeQuery {
  from: string;
  fromInclusive: boolean;
  to: string | undefined;
  /** Maximum number of rows; -1 for all. */
  limit: number;
  /** Read the state as of this revision; undefined for the current state. */
  revision: number | undefined;
}

export interface HistoryPage {
  events: WatchEvent[];
  /** Where the next page starts. */
  cursor: number;
  /** True when the log has no more matching rows up to the requested revision. */
  done: boolean;
}

/**
 * Storage for an MVCC log. Everything is synchronous; `transaction` is atomic (all or nothing) and
 * durable when it returns. The backend never checks rules; the engine does.
 */
export interface LogBackend {
  /** The highest revision in the log (0 when empty). */
  loadRevision(): number;
  loadCompactRevision(): number;
  current(key: string): KeyValue | undefined;
  /** The key's state as of `revision` (undefined when absent then). */
  at(key: string, revision: number): KeyValue | undefined;
  range(q: RangeQuery): KeyValue[];
  count(from: string, to: string | undefined): number;
  transaction<T>(body: () => T): T;
  /**
   * Group commit (optional): opens a transaction in which later `transaction` calls nest (each
   * rolled back alone when it throws) until `commitGroup` or `rollbackGroup`.
   */
  beginGroup?(): void;
  commitGroup?(): void;
  rollbackGroup?(): void;
  /** Appends the events of one write request (all with the same revision) and updates the current state. */
  append(events: readonly WatchEvent[]): void;
  /** A cursor at the first log entry with a revision greater than `afterRevision`. */
  historyStart(afterRevision: number): number;
  /** Up to `limit` log entries at or after `cursor` with revision <= `throughRevision`, keys under `prefix`. */
  history(prefix: string, cursor: number, throughRevision: number, limit: number): HistoryPage;
  /** Persists the compact revision (before any row is removed). */
  recordCompaction(revision: number): void;
  /** Where compaction begins. */
  compactStart(): number;
  /** Removes one slice of superseded history below `revision`; returns where to continue, or undefined when done. */
  compactStep(revision: number, from: number): number | undefined;
  /** Gives one slice of the space compaction freed back to the file system; true while more is left. */
  reclaimStep?(): boolean;
  close(): void;
}

/** Builds the event of a put at `revision` over the previous state `prev`. */
export function putEvent(key: string, value: string, revision: number, prev: KeyValue | undefined): WatchEvent {
  const kv: KeyValue = Object.freeze({
    key,
    value,
    createRevision: prev ? prev.createRevision : revision,
    modRevision: revision,
    version: prev ? prev.version + 1 : 1,
  });
  return prev
    ? Object.freeze({ type: 'PUT' as const, kv, prevKv: Object.freeze(prev), created: false })
    : Object.freeze({ type: 'PUT' as const, kv, created: true });
}

/**
 * Builds the event of the deletion of `prev` at `revision`: its kv is the last state (value,
 * createRevision, version) with the deletion's revision as modRevision, which is also what
 * `delete` returns (as the Kubernetes apiserver does, so the caller learns the deletion revision).
 */
export function deleteEvent(revision: number, prev: KeyValue): WatchEvent {
  const kv: KeyValue = Object.freeze({
    key: prev.key,
    value: prev.value,
    createRevision: prev.createRevision,
    modRevision: revision,
    version: prev.version,
  });
  return Object.freeze({ type: 'DELETE' as const, kv, prevKv: Object.freeze(prev), created: false });
}

interface Watcher {
  prefix: string;
  /** Live events at or below this revision are not for this watcher (replay covered them). */
  after: number;
  handlers: WatchHandlers;
  active: boolean;
}

interface TxnContext {
  current(key: string): KeyValue | undefined;
  put(key: string, value: string): KeyValue;
  /** Undefined when the key is absent (nothing written). */
  delete(key: string): KeyValue | undefined;
}

const replayPage = 1000;

export function checkOperations(ops: readonly Operation[], branch: string): void {
  if (!Array.isArray(ops)) throw new TypeError(`txn ${branch} must be an array of operations`);
  const seen = new Set<string>();
  for (const op of ops) {
    checkKey(op?.key);
    if (op.op === 'put') checkValue(op.value);
    else if (op.op !== 'delete') throw new TypeError(`unknown txn operation ${JSON.stringify((op as { op?: unknown }).op)}`);
    // As etcd: one revision per txn leaves no way to order two writes of one key.
    if (seen.has(op.key)) throw new TypeError(`duplicate key given in txn ${branch}: ${op.key}`);
    seen.add(op.key);
  }
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The writes of one event-loop turn, committed together. */
interface Group {
  /** The store revision before the group's first write. */
  startRevision: number;
  events: (readonly WatchEvent[])[];
  /** Settles when the group is committed (or failed to commit). */
  done: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

export abstract class LogStore implements Store {
  readonly #backend: LogBackend;
  #revision: number;
  #compactRevision: number;
  #closed = false;
  readonly #watchers = new Set<Watcher>();
  #queue: (readonly WatchEvent[])[] = [];
  #delivering = false;
  #compaction: Promise<void> = Promise.resolve();
  #group: Group | undefined;

  protected constructor(backend: LogBackend) {
    this.#backend = backend;
    this.#revision = backend.loadRevision();
    this.#compactRevision = backend.loadCompactRevision();
  }

  async currentRevision(): Promise<number> {
    this.#checkOpen();
    // A revision this store reports has been committed and delivered to every watcher (the
    // watch cache relies on it): an open group is committed first.
    this.#flush();
    return this.#revision;
  }

  async compactRevision(): Promise<number> {
    this.#checkOpen();
    return this.#compactRevision;
  }

  async get(key: string, revision = 0): Promise<KeyValue | undefined> {
    this.#checkOpen();
    checkKey(key);
    const at = this.#readRevision(revision);
    return at === undefined ? this.#backend.current(key) : this.#backend.at(key, at);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.#checkOpen();
    checkPrefix(prefix);
    // A list answers at a revision, and that revision must be committed and delivered too.
    this.#flush();
    const at = this.#readRevision(opts.revision ?? 0);
    const limit = opts.limit ?? 0;
    checkRevision(limit, 'limit');
    const revision = at ?? this.#revision;
    const to = prefixUpperBound(prefix);
    let from = prefix;
    let fromInclusive = true;
    if (opts.after !== undefined) {
      checkPrefix(opts.after);
      if (compareKeys(opts.after, prefix) >= 0) {
        from = opts.after;
        fromInclusive = false;
      }
    }
    if (to !== undefined && compareKeys(from, to) >= 0) return { items: [], revision, more: false };
    const items = this.#backend.range({ from, fromInclusive, to, limit: limit > 0 ? limit + 1 : -1, revision: at });
    const more = limit > 0 && items.length > limit;
    if (more) items.length = limit;
    return { items, revision, more };
  }

  async count(prefix: string): Promise<number> {
    this.#checkOpen();
    checkPrefix(prefix);
    return this.#backend.count(prefix, prefixUpperBound(prefix));
  }

  async create(key: string, value: string): Promise<KeyValue> {
    checkKey(key);
    checkValue(value);
    return (
      await this.#write((tx) => {
        if (tx.current(key)) throw new KeyExistsError(key);
        return tx.put(key, value);
      })
    ).value;
  }

  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    checkKey(key);
    checkValue(value);
    if (expectedModRevision !== undefined) checkRevision(expectedModRevision, 'expectedModRevision');
    return (
      await this.#write((tx) => {
        this.#precondition(tx, key, expectedModRevision);
        return tx.put(key, value);
      })
    ).value;
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    checkKey(key);
    if (expectedModRevision !== undefined) checkRevision(expectedModRevision, 'expectedModRevision');
    return (
      await this.#write((tx) => {
        this.#precondition(tx, key, expectedModRevision);
        return tx.delete(key)!;
      })
    ).value;
  }

  async txn(compares: Compare[], success: Operation[], failure: Operation[] = []): Promise<TxnResult> {
    if (!Array.isArray(compares)) throw new TypeError('txn compares must be an array');
    for (const c of compares) {
      checkKey(c?.key);
      checkRevision(c.modRevision, 'compare modRevision');
    }
    checkOperations(success, 'success');
    checkOperations(failure, 'failure');
    const { value, revision } = await this.#write((tx) => {
      const succeeded = compares.every((c) => (tx.current(c.key)?.modRevision ?? 0) === c.modRevision);
      const ops = succeeded ? success : failure;
      const results = ops.map((op) => (op.op === 'put' ? tx.put(op.key, op.value) : tx.delete(op.key)));
      return { succeeded, results };
    });
    return { succeeded: value.succeeded, revision, results: value.results };
  }

  async watch(prefix: string, afterRevision: number, handlers: WatchHandlers): Promise<Watch> {
    this.#checkOpen();
    checkPrefix(prefix);
    checkRevision(afterRevision, 'afterRevision');
    if (typeof handlers?.event !== 'function') throw new TypeError('watch handlers need an event function');
    if (afterRevision < this.#compactRevision) throw new CompactedError(afterRevision, this.#compactRevision);
    const through = this.#revision;
    const w: Watcher = { prefix, after: Math.max(through, afterRevision), handlers, active: true };
    this.#watchers.add(w);
    const watch: Watch = { cancel: () => this.#stop(w) };
    if (afterRevision < through) this.#replay(w, afterRevision, through);
    return watch;
  }

  async compact(revision: number): Promise<void> {
    this.#checkOpen();
    checkRevision(revision);
    if (revision > this.#revision) throw new FutureRevisionError(revision, this.#revision);
    if (revision < this.#compactRevision) throw new CompactedError(revision, this.#compactRevision);
    if (revision === this.#compactRevision) return this.#compaction;
    // Compaction runs on committed state, outside any group (a checkpoint cannot run inside one).
    this.#flush();
    // Reads and watches below `revision` are refused from now on, so the slices below may be
    // removed over several event-loop turns without anyone seeing a half-compacted history.
    this.#backend.recordCompaction(revision);
    this.#compactRevision = revision;
    const run = this.#compaction.then(async () => {
      let from: number | undefined = this.#backend.compactStart();
      while (!this.#closed && from !== undefined) {
        this.#flush();
        from = this.#backend.compactStep(revision, from);
        if (from !== undefined) await yieldToEventLoop();
      }
      while (!this.#closed && (this.#flush(), this.#backend.reclaimStep?.())) await yieldToEventLoop();
    });
    this.#compaction = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    const closed = new Error('store closed');
    for (const w of this.#watchers) this.#fail(w, closed);
    this.#backend.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error('store is closed');
  }

  /** Undefined for "the current state"; otherwise a revision that history can answer for. */
  #readRevision(revision: number): number | undefined {
    checkRevision(revision);
    if (revision === 0 || revision === this.#revision) return undefined;
    if (revision > this.#revision) throw new FutureRevisionError(revision, this.#revision);
    if (revision < this.#compactRevision) throw new CompactedError(revision, this.#compactRevision);
    return revision;
  }

  #precondition(tx: TxnContext, key: string, expected: number | undefined): void {
    const cur = tx.current(key);
    if (!cur) throw new KeyNotFoundError(key);
    if (expected !== undefined && cur.modRevision !== expected) {
      throw new RevisionConflictError(key, expected, cur.modRevision);
    }
  }

  /**
   * Runs `body` in one backend transaction at the next revision. Whatever it writes is appended
   * to the log before the commit; a throw rolls everything back. Committed events are delivered
   * to watchers before this returns. `revision` is the store revision right after this request
   * (a handler may have written more since).
   */
  #commit<T>(body: (tx: TxnContext) => T): { value: T; revision: number; durable?: Promise<void> } {
    this.#checkOpen();
    const backend = this.#backend;
    const group = this.#openGroup();
    const revision = this.#revision + 1;
    const events: WatchEvent[] = [];
    // A key's state is read once per request (a compare and then a put read the same row);
    // a key appears in the ops only once, so what is read here stays true until the append.
    const seen = new Map<string, KeyValue | undefined>();
    const current = (key: string): KeyValue | undefined => {
      if (seen.has(key)) return seen.get(key);
      const kv = backend.current(key);
      seen.set(key, kv);
      return kv;
    };
    const tx: TxnContext = {
      current,
      put: (key, value) => {
        const e = putEvent(key, value, revision, current(key));
        events.push(e);
        return e.kv;
      },
      delete: (key) => {
        const prev = current(key);
        if (!prev) return undefined;
        const e = deleteEvent(revision, prev);
        events.push(e);
        return e.kv;
      },
    };
    const value = backend.transaction(() => {
      const r = body(tx);
      if (events.length > 0) backend.append(events);
      return r;
    });
    if (events.length === 0) return { value, revision: this.#revision, durable: group?.done };
    this.#revision = revision;
    if (group) {
      group.events.push(events);
      return { value, revision, durable: group.done };
    }
    this.#publish(events);
    return { value, revision };
  }

  /**
   * #commit, answered once the state it read is committed: also a request that wrote nothing
   * or failed its precondition, since its answer came from the open group's writes.
   */
  async #write<T>(body: (tx: TxnContext) => T): Promise<{ value: T; revision: number }> {
    let c: { value: T; revision: number; durable?: Promise<void> };
    try {
      c = this.#commit(body);
    } catch (e) {
      // If the group fails to commit, its error is the answer: what `e` was read from is gone.
      await this.#group?.done;
      throw e;
    }
    await c.durable;
    return c;
  }

  /** The open group, opened (and its commit scheduled) if needed; undefined without group commit. */
  #openGroup(): Group | undefined {
    if (this.#group) return this.#group;
    const backend = this.#backend;
    if (!backend.beginGroup) return undefined;
    backend.beginGroup();
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Every writer awaits `done`; this keeps a failed commit from also being an unhandled rejection.
    done.catch(() => {});
    const group: Group = { startRevision: this.#revision, events: [], done, resolve, reject };
    this.#group = group;
    setImmediate(() => this.#flush());
    return group;
  }

  /** Commits the open group, then delivers its events and resolves its writers. */
  #flush(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = undefined;
    const backend = this.#backend;
    try {
      backend.commitGroup!();
    } catch (err) {
      try {
        backend.rollbackGroup!();
      } catch {
        // the commit's error is the one to report
      }
      this.#revision = group.startRevision;
      // Reads (and watch replays) may have seen the lost writes: every watch starts again.
      const e = err instanceof Error ? err : new Error(String(err));
      for (const w of this.#watchers) this.#fail(w, e);
      group.reject(e);
      return;
    }
    // All of the group's events are queued before any is delivered: writes its handlers make
    // form a new group, delivered after this one.
    if (this.#watchers.size > 0 && group.events.length > 0) {
      this.#queue.push(...group.events);
      if (!this.#delivering) this.#drain();
    }
    group.resolve();
  }

  #publish(events: readonly WatchEvent[]): void {
    if (this.#watchers.size === 0) return;
    this.#queue.push(events);
    if (!this.#delivering) this.#drain();
  }

  #drain(): void {
    this.#delivering = true;
    try {
      for (let i = 0; i < this.#queue.length; i++) {
        const events = this.#queue[i]!;
        // A watcher added during delivery has `after` >= these revisions and skips them.
        for (const w of this.#watchers) {
          for (const e of events) {
            if (!w.active) break;
            if (e.kv.modRevision > w.after && e.kv.key.startsWith(w.prefix)) this.#deliver(w, e);
          }
        }
      }
    } finally {
      this.#queue = [];
      this.#delivering = false;
    }
    // Writes the handlers made are committed and delivered now, before the writer that caused
    // this delivery resumes (as without group commit).
    if (this.#group) this.#flush();
  }

  #replay(w: Watcher, after: number, through: number): void {
    const outer = this.#delivering;
    this.#delivering = true; // writes made by handlers meanwhile wait in the queue
    try {
      let cursor = this.#backend.historyStart(after);
      for (;;) {
        const page = this.#backend.history(w.prefix, cursor, through, replayPage);
        for (const e of page.events) {
          if (!w.active) return;
          this.#deliver(w, e);
        }
        if (page.done || !w.active) return;
        cursor = page.cursor;
      }
    } finally {
      this.#delivering = outer;
      if (!outer && this.#queue.length > 0) this.#drain();
      else if (!outer && this.#group) this.#flush();
    }
  }

  #deliver(w: Watcher, e: WatchEvent): void {
    try {
      w.handlers.event(e);
    } catch (err) {
      this.#fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  #stop(w: Watcher): void {
    w.active = false;
    this.#watchers.delete(w);
  }

  #fail(w: Watcher, err: Error): void {
    if (!w.active) return;
    this.#stop(w);
    try {
      w.handlers.error?.(err);
    } catch {
      // the watch is over either way
    }
  }
}
