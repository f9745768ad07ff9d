// The etcd-shaped contract every backend implements (DESIGN.md "Storage"): one global
// revision counter, create-if-absent, compare-and-swap update and delete, multi-key
// transactions, consistent lists at a revision, watches from a revision, and compaction
// after which older revisions answer "too old".
//
// Values are opaque strings (the API server stores JSON). Revisions are positive integers;
// the first write gets revision 1. `resourceVersion` is the decimal modRevision.

export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the write that created this key (since its last deletion). */
  createRevision: number;
  /** Revision of the last write to this key. */
  modRevision: number;
  /** Number of writes since creation, starting at 1. */
  version: number;
}

export type WatchEventType = 'PUT' | 'DELETE';

export interface WatchEvent {
  type: WatchEventType;
  /** For PUT the new value; for DELETE the key with the deletion's revision as modRevision and the last value. */
  kv: KeyValue;
  /** The value before this event, when there was one. */
  prevKv?: KeyValue;
  /** True for the PUT that created the key. */
  created: boolean;
}

export class KeyExistsError extends Error {
  constructor(readonly key: string) {
    super(`key exists: ${key}`);
  }
}

export class KeyNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
  }
}

/** A compare-and-swap precondition failed: the key's modRevision is not the expected one. */
export class RevisionConflictError extends Error {
  constructor(readonly key: string, readonly expected: number, readonly actual: number | undefined) {
    super(`revision conflict on ${key}: expected ${expected}, found ${actual ?? 'none'}`);
  }
}

/** A read or watch asked for a revision that compaction has removed. */
export class CompactedError extends Error {
  constructor(readonly requested: number, readonly compactRevision: number) {
    super(`required revision ${requested} has been compacted (compacted up to ${compactRevision})`);
  }
}

/** A read asked for a revision newer than the store has. */
export class FutureRevisionError extends Error {
  constructor(readonly requested: number, readonly current: number) {
    super(`required revision ${requested} is a future revision (current ${current})`);
  }
}

/**
 * The store's server did not answer: it could not be reached, or the connection broke before the
 * answer came. When `outcomeUnknown`, the request was a write that may have reached the server
 * and committed; the caller can report neither success nor a refusal for it (kube-apiserver
 * passes its etcd client's error up as a 500 with the client's words; so does the API server).
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, readonly outcomeUnknown: boolean) {
    super(message);
  }
}

export type Compare =
  /** modRevision of key equals `revision`; 0 means "the key does not exist". */
  | { key: string; modRevision: number };

export type Operation =
  | { op: 'put'; key: string; value: string }
  | { op: 'delete'; key: string };

export interface TxnResult {
  succeeded: boolean;
  /** The store revision after the transaction (unchanged when it wrote nothing). */
  revision: number;
  /** For each operation in the branch that ran: the key's new state (put) or the deleted state (delete; undefined when absent). */
  results: (KeyValue | undefined)[];
}

export interface ListOptions {
  /** Read at this revision (0 or absent: the current one). Older than compaction → CompactedError. */
  revision?: number;
  /** Maximum number of items; 0 or absent for all. */
  limit?: number;
  /** Return only keys strictly greater than this one (for paging). */
  after?: string;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the list reflects. */
  revision: number;
  /** True when `limit` cut the list short. */
  more: boolean;
}

export interface Watch {
  /** Stops delivery; idempotent. */
  cancel(): void;
}

export interface WatchHandlers {
  event(e: WatchEvent): void;
  /** The watch cannot continue (e.g. compacted while lagging); no more events follow. */
  error?(err: Error): void;
}

export interface Store {
  /** The current global revision (0 before the first write). */
  currentRevision(): Promise<number>;
  /** The revision below which history has been compacted (0 when never compacted). */
  compactRevision(): Promise<number>;
  get(key: string, revision?: number): Promise<KeyValue | undefined>;
  /** Keys starting with `prefix`, in key order, as of one revision. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  count(prefix: string): Promise<number>;
  /** Fails with KeyExistsError when the key exists. */
  create(key: string, value: string): Promise<KeyValue>;
  /**
   * Replaces the value. With `expectedModRevision` it is a compare-and-swap
   * (RevisionConflictError on mismatch); KeyNotFoundError when absent.
   */
  update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue>;
  /** Deletes and returns the last state; same preconditions as update. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /** If every compare holds, run `success`, else `failure`; atomically, one revision for all writes. */
  txn(compares: Compare[], success: Operation[], failure?: Operation[]): Promise<TxnResult>;
  /**
   * Every change under `prefix` with revision > `afterRevision`, in revision order, then live
   * changes until cancelled. Throws CompactedError when `afterRevision` < compactRevision.
   */
  watch(prefix: string, afterRevision: number, handlers: WatchHandlers): Promise<Watch>;
  /**
   * Drops history before `revision`: reads at a revision below it and watches from below it
   * answer CompactedError afterwards; the state as of `revision` and later stays readable.
   */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}
