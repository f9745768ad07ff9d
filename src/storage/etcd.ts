// The store on an etcd v3 cluster (`--store etcd://HOST:PORT[,HOST:PORT…]`), through the etcd3
// client library's gRPC KV and Watch services. The contract (store.ts) is etcd's, so most of it
// maps one to one:
//
//   revision          etcd's revision: resourceVersion is what etcd says, and it is global to the
//                     etcd (several clusters sharing one see each other's writes as gaps).
//   create            txn: mod_revision(key) = 0 → put, else range (to tell why it failed).
//   update, delete    txn: mod_revision(key) = expected (or > 0: exists) → put/delete with prev_kv.
//   txn               the same compares and ops in one etcd txn: a quota charge (a compare on the
//                     quota object's mod_revision and its put) commits with the object or not at all.
//   reads at a rev    etcd's MVCC ranges; ErrCompacted / ErrFutureRev become CompactedError /
//                     FutureRevisionError.
//   watch             etcd's watch with prev_kv.
//   compact           etcd's compaction (physical), which is global to the etcd, as kube-apiserver's.
//
// Keys. A store key K is the etcd key PREFIX + K. The API server's keys already begin with
// /registry/, so with the default empty prefix the layout is kube-apiserver's; several clusters
// share one etcd by each taking its own prefix (--etcd-prefix /cluster-a), none a prefix of
// another.
//
// Watches. The contract promises what the embedded engine does (engine.ts): a write's events
// reach this process's watchers before the write's promise resolves, every watcher sees revisions
// in order, events are built once and shared, and `watch` replays history before it resolves.
// So the store keeps ONE etcd watch over its whole prefix (the "feed", from the revision it opened
// at), fans its events out to the local watchers, and each write waits until the feed has
// delivered its revision. A write made by another process (another API server on the same etcd)
// arrives through the same feed. A watch from an older revision first replays (after, P] with a
// second etcd watch over the prefix, where P is the revision of the last event the feed
// delivered, and buffers live events meanwhile. The replay knows it is complete when it sees the
// event at P; when the feed has delivered nothing yet since the store opened, P is not known to
// be an event, so the store first writes a progress marker (the key PREFIX + "\0", hidden from
// every read and watch) and waits for the feed to deliver it.
//
// If the feed's stream breaks (etcd restarts, a member goes away) it resumes from the last
// delivered revision; if that was compacted meanwhile, every watcher ends with CompactedError,
// as the API server's watchers expect (410 Gone, then a relist).
//
// Retries follow Go's clientv3 (client/v3/retry.go, retry_interceptor.go), not the etcd3
// client's default, which re-sends every call that failed with a "recoverable" gRPC error, writes
// included: a create whose first try committed but whose answer was lost came back as a failed
// compare (409 AlreadyExists for a create that happened; an unconditional update applied twice).
// A read (Range, a read-only Txn) is re-sent when it failed Unavailable; a write only when it was
// never sent (no connection to send it on). A write that may have reached etcd ends in
// StoreUnavailableError (outcome unknown), worded as Go's client words it, which kube-apiserver
// answers as a 500 with that text.
//
// Deadlines. A call made for an API request carries the request's deadline (deadline.ts), as
// kube-apiserver's etcd3 store passes the request's context to clientv3: gRPC sends it to etcd and
// cancels the call when it passes, so a member that stops answering without closing the
// connection cannot hold a request for ever. The call then ends with Go's context error
// ("context deadline exceeded"), a write that was sent with an unknown outcome; no try starts
// after the deadline. The store's own work (the feed, its reconnects) runs under no deadline.

import etcd3 from 'etcd3';
import type { IKeyValue, IWatchResponse, IRequestOp, IResponseOp, ICompare } from 'etcd3';
import { noop, type RetryPolicy } from 'cockatiel';
import { DeadlineBeforeSend, grpcStatus, memberPolicy, readPolicy, unanswered, writePolicy } from './etcdretry.js';
import { carryDeadlines, currentDeadline, withoutDeadline } from './deadline.js';
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
import { checkOperations } from './engine.js';
import { checkKey, checkPrefix, checkRevision, checkValue, compareKeys } from './keys.js';

const { Etcd3 } = etcd3;

export interface EtcdTLSOptions {
  /** PEM of the CA that signed the etcd servers' certificates (kube-apiserver's --etcd-cafile). */
  ca?: Buffer;
  /** PEM client certificate and key (--etcd-certfile, --etcd-keyfile). */
  cert?: Buffer;
  key?: Buffer;
}

export interface EtcdStoreOptions {
  /** host:port of each member (a scheme, http:// or https://, is allowed). */
  endpoints: string[];
  /** Prepended to every key (kube-apiserver's --etcd-prefix for the part before /registry); default "". */
  prefix?: string;
  tls?: EtcdTLSOptions;
  /** How long a connection attempt may take, in milliseconds (default 5000). */
  dialTimeoutMs?: number;
}

type Client = InstanceType<typeof Etcd3>;
type WatchStream = Awaited<ReturnType<Client['watchClient']['watch']>>;
/** gRPC's per-call options (the deadline), as the etcd3 client takes them. */
type CallOptions = Parameters<Client['kv']['range']>[1];

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** etcd's range_end for "every key starting with these bytes"; "\0" (every key) for an empty prefix. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

const isCompacted = (e: unknown) => /required revision has been compacted/.test(String((e as Error)?.message));
const isFuture = (e: unknown) => /required revision is a future revision/.test(String((e as Error)?.message));

interface LiveWatcher {
  prefix: string;
  /** Events at or below this revision are not for this watcher. */
  after: number;
  handlers: WatchHandlers;
  active: boolean;
  /** While the replay runs, live events wait here. */
  buffer: WatchEvent[] | undefined;
  /** Ends the replay stream when the watcher stops. */
  onStop?: () => void;
}

interface Waiter {
  revision: number;
  resolve(): void;
}

/** How long a write waits for the feed to deliver it before resolving anyway (the write is committed). */
const deliveryPatienceMs = 30_000;
const reconnectDelayMs = 250;

export class EtcdStore implements Store {
  readonly #client: Client;
  readonly #prefix: string;
  readonly #prefixBytes: Buffer;
  readonly #marker: Buffer;
  #closed = false;
  readonly #watchers = new Set<LiveWatcher>();
  /** Revision of the last event the feed delivered (or the revision it started after). */
  #position = 0;
  /** True once #position is the revision of an event under the prefix. */
  #positionIsEvent = false;
  #waiters: Waiter[] = [];
  #feed: WatchStream | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  /** A lower bound of etcd's compact revision (compaction only moves it up). */
  #compactFloor = 0;
  readonly endpoints: readonly string[];

  private constructor(client: Client, opts: EtcdStoreOptions) {
    // Its calls carry the deadline of the request they are made for (#call reads it).
    carryDeadlines();
    this.#client = client;
    this.#prefix = opts.prefix ?? '';
    this.#prefixBytes = utf8(this.#prefix);
    this.#marker = Buffer.concat([this.#prefixBytes, Buffer.from([0])]);
    this.endpoints = opts.endpoints;
  }

  /** Connects, reads the current revision and starts the feed from it. */
  static async open(opts: EtcdStoreOptions): Promise<EtcdStore> {
    if (!Array.isArray(opts.endpoints) || opts.endpoints.length === 0) throw new TypeError('etcd store needs at least one endpoint');
    if (opts.prefix !== undefined) checkPrefix(opts.prefix);
    const tls = opts.tls;
    const secure = !!tls && (tls.ca !== undefined || tls.cert !== undefined);
    if (tls && (tls.cert === undefined) !== (tls.key === undefined)) throw new TypeError('etcd TLS: a client certificate needs its key and a key its certificate');
    const hosts = opts.endpoints.map((e) => {
      const bare = e.replace(/^(https?|etcd|etcds):\/\//, '');
      return `${secure ? 'https' : 'http'}://${bare}`;
    });
    const client = new Etcd3({
      hosts,
      dialTimeout: opts.dialTimeoutMs ?? 5000,
      // gRPC's default 4 MiB would refuse a list of a few thousand objects; kube-apiserver lifts it too.
      grpcOptions: { 'grpc.max_receive_message_length': -1 },
      // No retries in the client (its default re-sends writes): the store says which calls are
      // reads (#read, #write).
      faultHandling: { global: noop, host: memberPolicy },
      // Without a CA file the system's trusted roots check the members' certificates (gRPC's null).
      ...(secure ? { credentials: { rootCertificate: (tls!.ca ?? null) as Buffer, privateKey: tls!.key, certChain: tls!.cert } } : {}),
    });
    const store = new EtcdStore(client, opts);
    try {
      store.#position = await store.#headerRevision();
      await store.#startFeed();
    } catch (e) {
      client.close();
      throw new Error(`cannot reach etcd at ${opts.endpoints.join(',')}: ${(e as Error).message}`, { cause: e });
    }
    return store;
  }

  // ---- keys ----

  #etcdKey(key: string): Buffer {
    return utf8(this.#prefix + key);
  }

  #storeKey(key: Buffer): string {
    return key.subarray(this.#prefixBytes.length).toString('utf8');
  }

  #isMarker(key: Buffer): boolean {
    return key.equals(this.#marker);
  }

  #kv(kv: IKeyValue): KeyValue {
    return {
      key: this.#storeKey(kv.key),
      value: kv.value.toString('utf8'),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
      version: Number(kv.version),
    };
  }

  // ---- calls ----

  /** A call that may be sent again (retryableRead): a read, or a write whose repetition changes nothing. */
  #read<T>(call: (options: CallOptions | undefined) => Promise<T>): Promise<T> {
    return this.#send(readPolicy, call, false);
  }

  /** A write: sent again only when it never left (neverSent). */
  #write<T>(call: (options: CallOptions | undefined) => Promise<T>): Promise<T> {
    return this.#send(writePolicy, call, true);
  }

  /**
   * Sends a call under the policy. A call made for a request carries the request's deadline
   * (deadline.ts) as clientv3 carries its context's: gRPC sends it to etcd (grpc-timeout) and
   * cancels the call when it passes; no try starts after it.
   */
  async #send<T>(policy: RetryPolicy, call: (options: CallOptions | undefined) => Promise<T>, write: boolean): Promise<T> {
    const deadline = currentDeadline();
    const options = deadline ? { deadline: new Date(deadline.at) } : undefined;
    let lastGrpc: Error | undefined;
    try {
      return await policy.execute(async () => {
        if (deadline && Date.now() >= deadline.at) throw new DeadlineBeforeSend();
        try {
          return await call(options);
        } catch (e) {
          if (grpcStatus(e)) lastGrpc = e as Error;
          throw e;
        }
      });
    } catch (e) {
      throw unanswered(e, lastGrpc, write, deadline !== undefined);
    }
  }

  // ---- reads ----

  #checkOpen(): void {
    if (this.#closed) throw new Error('store is closed');
  }

  async #headerRevision(): Promise<number> {
    const r = await this.#read((o) => this.#client.kv.range({ key: this.#marker, count_only: true }, o));
    return Number(r.header.revision);
  }

  async currentRevision(): Promise<number> {
    this.#checkOpen();
    return this.#headerRevision();
  }

  /**
   * etcd answers a read at a compacted revision with an error that does not say up to where it
   * compacted: the smallest readable revision is found by bisection from the last known floor
   * (usually one request: the floor itself is still the compact revision).
   */
  async compactRevision(): Promise<number> {
    this.#checkOpen();
    const readable = async (rev: number) => {
      try {
        await this.#read((o) => this.#client.kv.range({ key: this.#marker, count_only: true, revision: rev }, o));
        return true;
      } catch (e) {
        if (isCompacted(e)) return false;
        throw e;
      }
    };
    const current = await this.#headerRevision();
    let lo = Math.max(1, this.#compactFloor);
    if (await readable(lo)) return this.#compactFloor;
    let hi = current; // always readable
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await readable(mid)) hi = mid;
      else lo = mid;
    }
    this.#compactFloor = Math.max(this.#compactFloor, hi);
    return hi;
  }

  /** Runs a read at `revision`, turning etcd's revision errors into the contract's. */
  async #atRevision<T>(revision: number, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (isCompacted(e)) throw new CompactedError(revision, await this.compactRevision());
      if (isFuture(e)) throw new FutureRevisionError(revision, await this.#headerRevision());
      throw e;
    }
  }

  async get(key: string, revision = 0): Promise<KeyValue | undefined> {
    this.#checkOpen();
    checkKey(key);
    checkRevision(revision);
    const r = await this.#atRevision(revision, () => this.#read((o) => this.#client.kv.range({ key: this.#etcdKey(key), revision }, o)));
    const kv = r.kvs[0];
    return kv && this.#kv(kv);
  }

  /** The etcd range of store keys starting with `prefix`; the marker sits at the bottom of the empty prefix's range. */
  #range(prefix: string): { from: Buffer; to: Buffer } {
    const from = this.#etcdKey(prefix);
    return { from, to: prefixEnd(from) };
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.#checkOpen();
    checkPrefix(prefix);
    const revision = opts.revision ?? 0;
    checkRevision(revision);
    const limit = opts.limit ?? 0;
    checkRevision(limit, 'limit');
    let { from, to } = this.#range(prefix);
    if (opts.after !== undefined) {
      checkPrefix(opts.after);
      // Keys strictly after `after`: the first key at or above after + "\0".
      if (compareKeys(opts.after, prefix) >= 0) from = Buffer.concat([this.#etcdKey(opts.after), Buffer.from([0])]);
    }
    if (Buffer.compare(from, to) >= 0) return { items: [], revision: revision || (await this.#headerRevision()), more: false };
    // One more than asked when the marker may be among the keys, so that dropping it leaves enough.
    const markerInside = Buffer.compare(from, this.#marker) <= 0 && Buffer.compare(this.#marker, to) < 0;
    const ask = limit > 0 ? limit + (markerInside ? 1 : 0) : 0;
    const r = await this.#atRevision(revision, () => this.#read((o) => this.#client.kv.range({ key: from, range_end: to, revision, limit: ask }, o)));
    const items = r.kvs.filter((kv) => !this.#isMarker(kv.key)).map((kv) => this.#kv(kv));
    let more = r.more;
    if (limit > 0 && items.length > limit) {
      items.length = limit;
      more = true;
    }
    return { items, revision: revision || Number(r.header.revision), more };
  }

  async count(prefix: string): Promise<number> {
    this.#checkOpen();
    checkPrefix(prefix);
    const { from, to } = this.#range(prefix);
    const markerInside = Buffer.compare(from, this.#marker) <= 0 && Buffer.compare(this.#marker, to) < 0;
    if (!markerInside) return Number((await this.#read((o) => this.#client.kv.range({ key: from, range_end: to, count_only: true }, o))).count);
    // Both halves around the marker, in one read-only txn (one revision; a read, so re-sent as one).
    const r = await this.#read((o) =>
      this.#client.kv.txn(
        {
          success: [
            { request_range: { key: from, range_end: this.#marker, count_only: true } },
            { request_range: { key: Buffer.concat([this.#marker, Buffer.from([0])]), range_end: to, count_only: true } },
          ],
        },
        o,
      ),
    );
    return r.responses.reduce((n, op) => n + Number(op.response_range.count), 0);
  }

  // ---- writes ----

  /** Resolves once the feed has delivered `revision` to this process's watchers. */
  #delivered(revision: number): Promise<void> {
    if (this.#position >= revision || this.#closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve();
      }, deliveryPatienceMs);
      timer.unref();
      const waiter: Waiter = {
        revision,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.#waiters.push(waiter);
    });
  }

  #release(): void {
    if (this.#waiters.length === 0) return;
    const keep: Waiter[] = [];
    for (const w of this.#waiters) {
      if (w.revision <= this.#position || this.#closed) w.resolve();
      else keep.push(w);
    }
    this.#waiters = keep;
  }

  async #txn(compare: ICompare[], success: IRequestOp[], failure: IRequestOp[]): Promise<{ succeeded: boolean; revision: number; responses: IResponseOp[]; wrote: boolean }> {
    this.#checkOpen();
    const before = this.#position;
    const r = await this.#write((o) => this.#client.kv.txn({ compare, success, failure }, o));
    const revision = Number(r.header.revision);
    // A request that changed nothing takes no revision (etcd's rule, and the contract's).
    const ops = r.succeeded ? success : failure;
    const wrote = ops.some((op) => op.request_put !== undefined) ||
      r.responses.some((op) => op.response_delete_range !== undefined && op.response_delete_range !== null && Number(op.response_delete_range.deleted) > 0);
    if (wrote && revision > before) await this.#delivered(revision);
    return { succeeded: r.succeeded, revision, responses: r.responses, wrote };
  }

  #modIs(key: string, modRevision: number): ICompare {
    return { key: this.#etcdKey(key), target: 'Mod', result: 'Equal', mod_revision: modRevision };
  }

  #exists(key: string): ICompare {
    return { key: this.#etcdKey(key), target: 'Mod', result: 'Greater', mod_revision: 0 };
  }

  /** The key's state after a put at `revision` over `prev` (etcd's prev_kv). */
  #afterPut(key: string, value: string, revision: number, prev: IKeyValue | null | undefined): KeyValue {
    return prev
      ? { key, value, createRevision: Number(prev.create_revision), modRevision: revision, version: Number(prev.version) + 1 }
      : { key, value, createRevision: revision, modRevision: revision, version: 1 };
  }

  /** What a delete returns: the last state with the deletion's revision. */
  #afterDelete(revision: number, prev: IKeyValue): KeyValue {
    return { ...this.#kv(prev), modRevision: revision };
  }

  async create(key: string, value: string): Promise<KeyValue> {
    checkKey(key);
    checkValue(value);
    const r = await this.#txn([this.#modIs(key, 0)], [{ request_put: { key: this.#etcdKey(key), value: utf8(value), prev_kv: true } }], []);
    if (!r.succeeded) throw new KeyExistsError(key);
    return this.#afterPut(key, value, r.revision, undefined);
  }

  /** Why a precondition failed: absent, or at another revision (read in the failed txn). */
  #preconditionError(key: string, expected: number | undefined, responses: IResponseOp[]): Error {
    const cur = responses[0]?.response_range?.kvs[0];
    if (!cur) return new KeyNotFoundError(key);
    return new RevisionConflictError(key, expected!, Number(cur.mod_revision));
  }

  async update(key: string, value: string, expectedModRevision?: number): Promise<KeyValue> {
    checkKey(key);
    checkValue(value);
    if (expectedModRevision !== undefined) checkRevision(expectedModRevision, 'expectedModRevision');
    const compare = expectedModRevision === undefined || expectedModRevision === 0 ? this.#exists(key) : this.#modIs(key, expectedModRevision);
    const compares = expectedModRevision === 0 ? [compare, this.#modIs(key, 0)] : [compare]; // 0: never (absent keys cannot be updated)
    const r = await this.#txn(
      compares,
      [{ request_put: { key: this.#etcdKey(key), value: utf8(value), prev_kv: true } }],
      [{ request_range: { key: this.#etcdKey(key) } }],
    );
    if (!r.succeeded) throw this.#preconditionError(key, expectedModRevision, r.responses);
    return this.#afterPut(key, value, r.revision, r.responses[0]!.response_put.prev_kv);
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    checkKey(key);
    if (expectedModRevision !== undefined) checkRevision(expectedModRevision, 'expectedModRevision');
    const compare = expectedModRevision === undefined || expectedModRevision === 0 ? this.#exists(key) : this.#modIs(key, expectedModRevision);
    const compares = expectedModRevision === 0 ? [compare, this.#modIs(key, 0)] : [compare];
    const r = await this.#txn(
      compares,
      [{ request_delete_range: { key: this.#etcdKey(key), prev_kv: true } }],
      [{ request_range: { key: this.#etcdKey(key) } }],
    );
    if (!r.succeeded) throw this.#preconditionError(key, expectedModRevision, r.responses);
    return this.#afterDelete(r.revision, r.responses[0]!.response_delete_range.prev_kvs[0]!);
  }

  #op(op: Operation): IRequestOp {
    return op.op === 'put'
      ? { request_put: { key: this.#etcdKey(op.key), value: utf8(op.value), prev_kv: true } }
      : { request_delete_range: { key: this.#etcdKey(op.key), prev_kv: true } };
  }

  async txn(compares: Compare[], success: Operation[], failure: Operation[] = []): Promise<TxnResult> {
    if (!Array.isArray(compares)) throw new TypeError('txn compares must be an array');
    for (const c of compares) {
      checkKey(c?.key);
      checkRevision(c.modRevision, 'compare modRevision');
    }
    checkOperations(success, 'success');
    checkOperations(failure, 'failure');
    this.#checkOpen();
    const r = await this.#txn(compares.map((c) => this.#modIs(c.key, c.modRevision)), success.map((op) => this.#op(op)), failure.map((op) => this.#op(op)));
    const ops = r.succeeded ? success : failure;
    const results = ops.map((op, i): KeyValue | undefined => {
      const res = r.responses[i]!;
      if (op.op === 'put') return this.#afterPut(op.key, op.value, r.revision, res.response_put.prev_kv);
      const prev = res.response_delete_range.prev_kvs[0];
      return prev && this.#afterDelete(r.revision, prev);
    });
    return { succeeded: r.succeeded, revision: r.revision, results };
  }

  async compact(revision: number): Promise<void> {
    this.#checkOpen();
    checkRevision(revision);
    const current = await this.#headerRevision();
    if (revision > current) throw new FutureRevisionError(revision, current);
    const compacted = await this.compactRevision();
    if (revision < compacted) throw new CompactedError(revision, compacted);
    if (revision === compacted) return;
    try {
      // Sent again after Unavailable like a read: a repeat of a compaction that happened answers
      // "compacted", which is taken as done just below.
      await this.#read((o) => this.#client.kv.compact({ revision, physical: true }, o));
    } catch (e) {
      // Another API server (or etcdctl) compacted at or past it first: the same outcome.
      if (!isCompacted(e)) throw e;
    }
    this.#compactFloor = Math.max(this.#compactFloor, revision);
  }

  // ---- watches ----

  /** The contract's event for one etcd event (DELETE carries the last state at the deletion's revision). */
  #event(e: { type: string; kv: IKeyValue; prev_kv?: IKeyValue | null }): WatchEvent {
    const prevKv = e.prev_kv ? Object.freeze(this.#kv(e.prev_kv)) : undefined;
    if (e.type === 'Delete') {
      const revision = Number(e.kv.mod_revision);
      const last = prevKv ?? { key: this.#storeKey(e.kv.key), value: '', createRevision: 0, modRevision: revision, version: 0 };
      const kv = Object.freeze({ ...last, modRevision: revision });
      return Object.freeze(prevKv ? { type: 'DELETE' as const, kv, prevKv, created: false } : { type: 'DELETE' as const, kv, created: false });
    }
    const kv = Object.freeze(this.#kv(e.kv));
    const created = kv.version === 1;
    return Object.freeze(prevKv && !created ? { type: 'PUT' as const, kv, prevKv, created } : { type: 'PUT' as const, kv, created });
  }

  /** Opens an etcd watch over the whole prefix from `startRevision` with prev_kv; resolves on its creation. */
  async #openStream(startRevision: number, onResponse: (res: IWatchResponse) => void, onEnd: (err: Error) => void): Promise<WatchStream> {
    const stream = await this.#client.watchClient.watch();
    let ended = false;
    const end = (err: Error) => {
      if (ended) return;
      ended = true;
      onEnd(err);
    };
    // What a watch's events set off is the store's own work, bounded by no request's deadline
    // (a socket's callbacks run in the async context of whatever opened the connection).
    stream.on('data', (res: IWatchResponse) => withoutDeadline(() => onResponse(res)));
    stream.on('error', (err: Error) => withoutDeadline(() => end(err)));
    stream.on('end', () => withoutDeadline(() => end(new Error('etcd watch stream ended'))));
    stream.write({ create_request: { key: this.#prefixBytes.length ? this.#prefixBytes : Buffer.from([0]), range_end: prefixEnd(this.#prefixBytes), start_revision: startRevision, prev_kv: true } });
    return stream;
  }

  async #startFeed(): Promise<void> {
    if (this.#closed) return;
    let created!: () => void;
    let failed!: (e: Error) => void;
    const ready = new Promise<void>((ok, fail) => {
      created = ok;
      failed = fail;
    });
    const stream = await this.#openStream(
      this.#position + 1,
      (res) => {
        if (res.canceled) {
          const compacted = Number(res.compact_revision);
          stream.cancel();
          if (compacted > 0) this.#feedCompacted(compacted);
          else this.#feedBroke(new Error(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
          created();
          return;
        }
        if (res.created) created();
        if (res.events.length > 0) this.#feedEvents(res);
      },
      (err) => {
        failed(err);
        if (this.#feed === stream) this.#feedBroke(err);
      },
    );
    this.#feed = stream;
    await ready;
  }

  #feedEvents(res: IWatchResponse): void {
    for (const raw of res.events) {
      const revision = Number(raw.kv.mod_revision);
      if (!this.#isMarker(raw.kv.key)) {
        const e = this.#event(raw);
        for (const w of this.#watchers) {
          if (!w.active || revision <= w.after || !e.kv.key.startsWith(w.prefix)) continue;
          if (w.buffer) w.buffer.push(e);
          else this.#deliver(w, e);
        }
      }
      this.#position = revision;
      this.#positionIsEvent = true;
    }
    this.#release();
  }

  /** The feed lost its stream: resume from the last delivered revision once the connection is back. */
  #feedBroke(_err: Error): void {
    this.#feed = undefined;
    if (this.#closed || this.#reconnect) return;
    this.#reconnect = setTimeout(() => {
      this.#reconnect = undefined;
      withoutDeadline(() => this.#startFeed()).catch((e: Error) => this.#feedBroke(e));
    }, reconnectDelayMs);
    this.#reconnect.unref();
  }

  /** The history the feed needed is gone: every watcher ends with 410 Gone; the feed restarts from now. */
  #feedCompacted(compactRevision: number): void {
    this.#feed = undefined;
    this.#compactFloor = Math.max(this.#compactFloor, compactRevision);
    const err = new CompactedError(this.#position, compactRevision);
    for (const w of [...this.#watchers]) this.#fail(w, err);
    void withoutDeadline(async () => {
      this.#position = await this.#headerRevision();
      this.#positionIsEvent = false;
      this.#release();
      await this.#startFeed();
    }).catch((e: Error) => this.#feedBroke(e));
  }

  async watch(prefix: string, afterRevision: number, handlers: WatchHandlers): Promise<Watch> {
    this.#checkOpen();
    checkPrefix(prefix);
    checkRevision(afterRevision, 'afterRevision');
    if (typeof handlers?.event !== 'function') throw new TypeError('watch handlers need an event function');
    // Below the compact revision: 410 Gone now (a read at `afterRevision` tells, as the contract says).
    if (afterRevision === 0) {
      const compacted = await this.compactRevision();
      if (compacted > 0) throw new CompactedError(0, compacted);
    } else if (afterRevision < this.#position) {
      await this.#atRevision(afterRevision, () => this.#read((o) => this.#client.kv.range({ key: this.#marker, count_only: true, revision: afterRevision }, o)));
    }
    if (afterRevision < this.#position && !this.#positionIsEvent) {
      // Make the feed's position an event the replay can recognise (sent again like a read: a
      // second marker event serves as well as one).
      const r = await this.#read((o) => this.#client.kv.put({ key: this.#marker, value: Buffer.alloc(0) }, o));
      await this.#delivered(Number(r.header.revision));
    }
    this.#checkOpen();
    const through = this.#position;
    const w: LiveWatcher = { prefix, after: Math.max(through, afterRevision), handlers, active: true, buffer: afterRevision < through ? [] : undefined };
    this.#watchers.add(w);
    const watch: Watch = { cancel: () => this.#stop(w) };
    if (w.buffer) await this.#replay(w, afterRevision, through);
    return watch;
  }

  /** Delivers (after, through] from etcd's history, then what the feed buffered meanwhile. */
  async #replay(w: LiveWatcher, after: number, through: number): Promise<void> {
    await new Promise<void>((done) => {
      let stream: WatchStream | undefined;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        w.onStop = undefined;
        stream?.cancel();
        done();
      };
      w.onStop = finish;
      this.#openStream(
        after + 1,
        (res) => {
          if (finished) return;
          if (res.canceled) {
            const compacted = Number(res.compact_revision);
            this.#fail(w, compacted > 0 ? new CompactedError(after, compacted) : new Error(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
            return finish();
          }
          for (const raw of res.events) {
            const revision = Number(raw.kv.mod_revision);
            if (revision > through) return finish();
            if (!this.#isMarker(raw.kv.key)) {
              const e = this.#event(raw);
              if (e.kv.key.startsWith(w.prefix)) this.#deliver(w, e);
              if (!w.active) return finish();
            }
            if (revision === through && raw === res.events.at(-1)) return finish();
          }
          if (Number(res.events.at(-1)?.kv.mod_revision ?? 0) >= through) finish();
        },
        (err) => {
          if (finished) return;
          this.#fail(w, err);
          finish();
        },
      ).then(
        (s) => {
          stream = s;
          if (finished) s.cancel();
        },
        (err: Error) => {
          this.#fail(w, err);
          finish();
        },
      );
    });
    // Live events that arrived during the replay, then live delivery.
    const buffered = w.buffer ?? [];
    w.buffer = undefined;
    for (const e of buffered) {
      if (!w.active) break;
      this.#deliver(w, e);
    }
  }

  #deliver(w: LiveWatcher, e: WatchEvent): void {
    try {
      w.handlers.event(e);
    } catch (err) {
      this.#fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  #stop(w: LiveWatcher): void {
    w.active = false;
    this.#watchers.delete(w);
    w.onStop?.();
  }

  #fail(w: LiveWatcher, err: Error): void {
    if (!w.active) return;
    this.#stop(w);
    try {
      w.handlers.error?.(err);
    } catch {
      // the watch is over either way
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#reconnect);
    const closed = new Error('store closed');
    for (const w of [...this.#watchers]) this.#fail(w, closed);
    this.#release();
    this.#feed?.cancel();
    this.#feed = undefined;
    this.#client.close();
  }
}
