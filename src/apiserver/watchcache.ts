// kube-apiserver's watch cache (storage/cacher) for the HTTP read path: one in-memory copy of
// a resource, kept by one store watch, serves LIST and WATCH for every client. Each object is
// decoded once when its event arrives and encoded once when first sent (encoding.ts); a watch
// event is encoded once per type and form however many watchers send it.
//
// Freshness. The embedded stores (engine.ts) deliver a write's events before the write
// resolves, and a revision they report has been delivered, so after `await
// store.currentRevision()` returns R the cache holds every change up to R: a consistent read (no
// resourceVersion) waits only for that answer, as upstream's consistent-list-from-cache waits
// for the cache to reach etcd's current revision. A store whose current revision can be ahead
// of what its watch has delivered (etcd, written by other API servers) gives the cache no
// such signal (upstream's progress notifications): there, consistent reads, and reads and
// watches newer than the cache, go to the store. The cache's state is the state at every revision from its last change to the
// newest one it knows to be delivered; reads it cannot answer exactly are delegated to the
// store, as the cacher delegates to etcd: a continue token or resourceVersionMatch=Exact at a
// revision older than the last change, and a watch from before the events the cache keeps.
// The store then answers as it always did, 410 Gone for compacted revisions included.
//
// Objects are shared and deep-frozen: the HTTP handler reads them to encode them, and the
// in-process clients (loopback.ts) hand them to their informers, so that the server holds one
// decoded copy of each object however many controllers watch it.

import type { KubeObject } from '../api/types.js';
import { compareKeys } from '../storage/keys.js';
import type { KeyValue, Store, Watch, WatchEvent } from '../storage/store.js';
import { EncodedObject, EventLines } from './encoding.js';
import { defaultedOnRead } from './objects.js';
import { groupVersion, storageKey, type ResourceDef } from './resources.js';
import { parseRV, type ListOptions, type WatchEventType, type WatchSink } from './rest.js';
import { selection, selects, type Selection } from './selection.js';
import { statusErrors } from './status.js';

/** A watch sink that can take an event's shared encoding. */
export interface CacheWatchSink extends WatchSink {
  send(type: WatchEventType, object: unknown, lines?: EventLines): void;
}

/** One object in the cache: its storage key, the revision of its last write, its encodings. */
export class CacheEntry extends EncodedObject {
  constructor(readonly key: string, readonly rev: number, obj: KubeObject) {
    super(obj);
  }
}

/** One change, as the store reported it; `deleted` is the last state with the delete's revision. */
interface Change {
  rev: number;
  key: string;
  created: boolean;
  cur?: CacheEntry;
  prev?: CacheEntry;
  deleted?: CacheEntry;
}

interface Watcher {
  prefix: string;
  def: ResourceDef;
  sel: Selection;
  unfiltered: boolean;
  sink: CacheWatchSink;
  /** Changes at or below this revision are not for this watcher (it started after them). */
  after: number;
}

export interface CachedList {
  items: CacheEntry[];
  resourceVersion: string;
  continue?: string;
}

/** upstream's default watch cache size (before it grows with the event rate). */
export const defaultHistoryCapacity = 1000;

function freezeDeep(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  // Decoded JSON only: plain objects and arrays. for-in, not Object.values: no array per object.
  if (Array.isArray(v)) for (const c of v) freezeDeep(c);
  else for (const k in v) freezeDeep((v as Record<string, unknown>)[k]);
  Object.freeze(v);
}

/**
 * managedFields' field sets, one frozen copy of each shared by every cached object that has it:
 * the pods of one template, written by the same managers, carry the same sets, and a set
 * decoded is a tree of small objects larger than the rest of the pod. Entries go when no
 * cached object holds their set any more.
 */
class FieldSets {
  readonly #byJSON = new Map<string, WeakRef<object>>();
  readonly #gone = new FinalizationRegistry<string>((json) => {
    if (this.#byJSON.get(json)?.deref() === undefined) this.#byJSON.delete(json);
  });

  intern(set: unknown): unknown {
    if (typeof set !== 'object' || set === null) return set;
    const json = JSON.stringify(set);
    const known = this.#byJSON.get(json)?.deref();
    if (known) return known;
    freezeDeep(set);
    this.#byJSON.set(json, new WeakRef(set));
    this.#gone.register(set, json);
    return set;
  }
}

const fieldSets = new FieldSets();

/**
 * The object of a store event. `held` is the same write as another cache of this process
 * decoded it (ObjectCache.decodedAt: the value parsed and defaulted on read, resourceVersion
 * set, frozen at its top level), taken instead of parsing the value once more.
 */
function decode(kv: KeyValue, held?: KubeObject, prev?: KubeObject): KubeObject {
  const obj = held ?? defaultedOnRead(JSON.parse(kv.value) as KubeObject);
  if (!held) (obj.metadata ??= {}).resourceVersion = String(kv.modRevision);
  for (const e of obj.metadata?.managedFields ?? []) if (e?.fieldsV1 !== undefined && !Object.isFrozen(e)) e.fieldsV1 = fieldSets.intern(e.fieldsV1);
  // Another cache's object is not this cache's to change.
  if (prev && !held) shareUnchanged(prev, obj);
  // Deep: in-process readers (loopback.ts) share the object, and one that changed a nested part
  // would change what every later LIST and WATCH sends. Frozen, such a write throws instead.
  if (held) for (const k in obj) freezeDeep((obj as unknown as Record<string, unknown>)[k]);
  freezeDeep(obj);
  return obj;
}

/**
 * An update leaves most of an object as it was (a status write, the spec; a spec change, the
 * status): each member of `obj`, and of its metadata, whose JSON is the same as the previous
 * state's (the same members in the same order, so the same bytes when encoded) becomes that
 * state's frozen copy. The cache then holds one copy of what did not change instead of two
 * (the previous state stays in the history), and readers that compare two states find the
 * shared parts equal at once.
 */
function shareUnchanged(prev: KubeObject, obj: KubeObject): void {
  shareMembers(prev as unknown as Record<string, unknown>, obj as unknown as Record<string, unknown>, 'metadata');
  const pm = prev.metadata as Record<string, unknown> | undefined;
  const om = obj.metadata as Record<string, unknown> | undefined;
  if (pm && om) shareMembers(pm, om, undefined);
}

function shareMembers(prev: Record<string, unknown>, obj: Record<string, unknown>, skip: string | undefined): void {
  for (const k in obj) {
    if (k === skip || !Object.prototype.hasOwnProperty.call(prev, k)) continue;
    const p = prev[k];
    const o = obj[k];
    if (p !== o && typeof p === 'object' && p !== null && sameJSON(p, o)) obj[k] = p;
  }
}

/** Whether two decoded JSON values encode to the same text: members compared in order. */
function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJSON(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Another cache's decoded object for a store event, if it has that write (see decode). */
export type HeldObjects = (kv: KeyValue) => KubeObject | undefined;

/** The event a watcher sees for a change (rest.ts's Api.watch rules), or none. */
function eventFor(w: Watcher, c: Change): [WatchEventType, CacheEntry] | undefined {
  if (!c.key.startsWith(w.prefix)) return undefined;
  if (c.deleted) return selects(w.def, w.sel, c.deleted.obj) ? ['DELETED', c.deleted] : undefined;
  const cur = c.cur!;
  const now = selects(w.def, w.sel, cur.obj);
  // Without selectors the previous state cannot change the event type.
  const before = c.prev && !c.created ? w.unfiltered || selects(w.def, w.sel, c.prev.obj) : false;
  if (now && before) return ['MODIFIED', cur];
  if (now) return ['ADDED', cur];
  if (before) return ['DELETED', cur];
  return undefined;
}

/** The cache of one storage prefix (one resource in every namespace). */
export class WatchCache {
  readonly #byKey = new Map<string, CacheEntry>();
  /** The same entries in key order, for namespace ranges and pages. */
  #sorted: CacheEntry[] = [];
  #history: Change[] = [];
  /** Every change after this revision is in #history. */
  #historyFrom = 0;
  #lastChange = 0;
  #fresh = 0;
  readonly #watchers = new Set<Watcher>();
  #watch?: Watch;
  #broken = false;

  constructor(private readonly store: Store, readonly prefix: string, private readonly opts: { historyCapacity: number; onBroken(): void; held?: HeldObjects }) {}

  async start(): Promise<void> {
    const snapshot = await this.store.list(this.prefix);
    for (const kv of snapshot.items) {
      const e = new CacheEntry(kv.key, kv.modRevision, decode(kv));
      this.#byKey.set(kv.key, e);
      this.#sorted.push(e);
    }
    // The store lists in key order.
    this.#historyFrom = this.#lastChange = this.#fresh = snapshot.revision;
    this.#watch = await this.store.watch(this.prefix, snapshot.revision, { event: (e) => this.#apply(e), error: (err) => this.#fail(err) });
  }

  stop(): void {
    this.#watch?.cancel();
    for (const w of this.#watchers) w.sink.close();
    this.#watchers.clear();
  }

  get broken(): boolean {
    return this.#broken;
  }

  /** The cached object of `key` when its last write is `rev` (what a store event for it decodes to). */
  decoded(key: string, rev: number): KubeObject | undefined {
    const e = this.#byKey.get(key);
    return e && e.rev === rev ? e.obj : undefined;
  }

  entry(key: string): CacheEntry | undefined {
    return this.#byKey.get(key);
  }

  /** Its objects in key order and the revision they are the state at (a list answered from the cache). */
  snapshot(): { items: { key: string; modRevision: number; obj: KubeObject }[]; revision: number } {
    return { items: this.#sorted.map((e) => ({ key: e.key, modRevision: e.rev, obj: e.obj })), revision: this.revision };
  }

  /** Everything up to `revision` has been delivered (the caller read it from the store). */
  observe(revision: number): void {
    if (revision > this.#fresh) this.#fresh = revision;
  }

  /** The newest revision the cache's state is known to be the state at. */
  get revision(): number {
    return Math.max(this.#fresh, this.#lastChange);
  }

  /** True when the state at `revision` is the cache's state. */
  holdsStateAt(revision: number): boolean {
    return revision >= this.#lastChange && revision <= this.revision;
  }

  #fail(err: Error): void {
    if (this.#broken) return;
    this.#broken = true;
    console.error(`watch cache ${this.prefix}: ${err.message}`);
    this.opts.onBroken();
    this.stop();
  }

  #apply(e: WatchEvent): void {
    if (this.#broken) return;
    try {
      const key = e.kv.key;
      const rev = e.kv.modRevision;
      const prev = this.#byKey.get(key);
      let change: Change;
      if (e.type === 'DELETE') {
        if (prev) {
          this.#byKey.delete(key);
          const i = this.#find(key);
          if (i < this.#sorted.length && this.#sorted[i]!.key === key) this.#sorted.splice(i, 1);
        }
        change = { rev, key, created: false, prev, deleted: new CacheEntry(key, rev, decode(e.kv)) };
      } else {
        const cur = new CacheEntry(key, rev, decode(e.kv, this.opts.held?.(e.kv), prev?.obj));
        this.#byKey.set(key, cur);
        const i = this.#find(key);
        if (i < this.#sorted.length && this.#sorted[i]!.key === key) this.#sorted[i] = cur;
        else this.#sorted.splice(i, 0, cur);
        change = { rev, key, created: e.created, cur, prev };
      }
      this.#lastChange = rev;
      if (rev > this.#fresh) this.#fresh = rev;
      this.#remember(change);
      this.#dispatch(change);
    } catch (err) {
      this.#fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  #remember(c: Change): void {
    this.#history.push(c);
    const cap = this.opts.historyCapacity;
    // Trimmed in steps of a quarter, so that a change costs O(1) on average.
    if (this.#history.length >= cap + Math.ceil(cap / 4)) {
      const drop = this.#history.length - cap;
      this.#historyFrom = this.#history[drop - 1]!.rev;
      this.#history = this.#history.slice(drop);
    }
  }

  #dispatch(c: Change): void {
    let curLines: EventLines | undefined;
    let deletedLines: EventLines | undefined;
    for (const w of this.#watchers) {
      if (c.rev <= w.after) continue;
      const ev = eventFor(w, c);
      if (!ev) continue;
      const [type, entry] = ev;
      const lines = entry === c.deleted ? (deletedLines ??= new EventLines(entry)) : (curLines ??= new EventLines(entry));
      try {
        w.sink.send(type, entry.obj, lines);
      } catch (err) {
        // One watcher's failure must not cost the others their events.
        console.error(`watch cache ${this.prefix}: watcher: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** The index of the first entry whose key is >= `key`. */
  #find(key: string): number {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.#sorted[mid]!.key, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Entries under `prefix` that `sel` selects, in key order, after the key `after`, at most `limit` (0: all). */
  list(def: ResourceDef, prefix: string, sel: Selection, after: string | undefined, limit: number): { items: CacheEntry[]; more: boolean; last?: string } {
    let i = this.#find(after !== undefined && compareKeys(after, prefix) >= 0 ? after : prefix);
    if (after !== undefined && this.#sorted[i]?.key === after) i++;
    const items: CacheEntry[] = [];
    const unfiltered = sel.labels.length === 0 && sel.fields.length === 0;
    for (; i < this.#sorted.length; i++) {
      const e = this.#sorted[i]!;
      if (!e.key.startsWith(prefix)) break;
      if (!unfiltered && !selects(def, sel, e.obj)) continue;
      items.push(e);
      if (limit && items.length === limit) {
        const next = this.#sorted[i + 1];
        return { items, more: !!next && next.key.startsWith(prefix), last: e.key };
      }
    }
    return { items, more: false };
  }

  /**
   * Sends the changes after `from` (when the cache still has all of them: false otherwise) and
   * then every later change, until the returned watch is cancelled.
   */
  watchFrom(def: ResourceDef, prefix: string, sel: Selection, from: number, sink: CacheWatchSink): Watch | undefined {
    if (from < this.#historyFrom) return undefined;
    const w: Watcher = { prefix, def, sel, unfiltered: sel.labels.length === 0 && sel.fields.length === 0, sink, after: from };
    let lo = 0;
    let hi = this.#history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#history[mid]!.rev <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.#history.length; i++) {
      const ev = eventFor(w, this.#history[i]!);
      if (ev) sink.send(ev[0], ev[1].obj, new EventLines(ev[1]));
    }
    return this.#add(w);
  }

  /** Sends the current objects as ADDED events, then every later change. */
  watchWithInitial(def: ResourceDef, prefix: string, sel: Selection, sink: CacheWatchSink, afterInitial: (revision: number) => void): Watch {
    const w: Watcher = { prefix, def, sel, unfiltered: sel.labels.length === 0 && sel.fields.length === 0, sink, after: this.revision };
    for (const e of this.list(def, prefix, sel, undefined, 0).items) sink.send('ADDED', e.obj, new EventLines(e));
    afterInitial(this.revision);
    return this.#add(w);
  }

  #add(w: Watcher): Watch {
    this.#watchers.add(w);
    return { cancel: () => void this.#watchers.delete(w) };
  }
}

function badContinue(): Error {
  return statusErrors.badRequest('continue key is not valid: illegal base64 data');
}

/**
 * The watch caches of a server, one per resource, each started by the first LIST or WATCH of
 * its resource. list() and watch() answer undefined for a read the store must answer.
 */
export class Cacher {
  readonly #caches = new Map<string, Promise<WatchCache>>();
  /** The caches of #caches that have started, by prefix. */
  readonly #started = new Map<string, WatchCache>();
  #stopped = false;

  /**
   * `deliversOnCommit`: the store's current revision has always been delivered to its watchers
   * (engine.ts's stores; not etcd's).
   */
  constructor(private readonly store: Store, private readonly opts: { historyCapacity?: number; deliversOnCommit?: boolean } = {}) {}

  get #deliversOnCommit(): boolean {
    return this.opts.deliversOnCommit ?? true;
  }

  #cache(def: ResourceDef): Promise<WatchCache> {
    const prefix = storageKey(def, undefined);
    let c = this.#caches.get(prefix);
    if (!c) {
      const cache = new WatchCache(this.store, prefix, {
        historyCapacity: this.opts.historyCapacity ?? defaultHistoryCapacity,
        held: this.#held.get(prefix),
        // The next reader starts a new cache from a new list (a reflector's relist).
        onBroken: () => {
          if (this.#caches.get(prefix) === c) this.#caches.delete(prefix);
          if (this.#started.get(prefix) === cache) this.#started.delete(prefix);
        },
      });
      c = cache.start().then(() => {
        if (this.#caches.get(prefix) === c) this.#started.set(prefix, cache);
        return cache;
      });
      this.#caches.set(prefix, c);
      c.catch(() => {
        if (this.#caches.get(prefix) === c) this.#caches.delete(prefix);
      });
    }
    return c;
  }

  readonly #held = new Map<string, HeldObjects>();

  /**
   * Where `def`'s cache, once started, can take the objects of store events another cache of
   * this process decoded first (the admission caches of cache.ts, started before any watch
   * cache): a quota's status write, made for every batch of pod creates, is then parsed once.
   */
  shareDecoded(def: ResourceDef, held: HeldObjects): void {
    this.#held.set(storageKey(def, undefined), held);
  }

  /** Starts a resource's cache ahead of its first reader (kube-apiserver starts them all with the server); resolves once it holds the store's objects. */
  async start(def: ResourceDef): Promise<void> {
    if (!this.#stopped) await this.#cache(def);
  }

  /**
   * The object a store event of `def` decodes to, when its cache already holds it: a store
   * watcher registered after the cache's (the embedded stores deliver in registration order)
   * can share the cache's copy instead of decoding its own.
   */
  decoded(def: ResourceDef): (kv: KeyValue) => KubeObject | undefined {
    const prefix = storageKey(def, undefined);
    return (kv) => this.#started.get(prefix)?.decoded(kv.key, kv.modRevision);
  }

  /**
   * The object of storage key `key` now and the revision of its last write, as a started cache
   * of a store that delivers on commit knows them (every write committed so far has reached it):
   * `{}` when there is none, undefined when no such cache can say. The object is the cache's,
   * deep-frozen.
   */
  lookup(def: ResourceDef, key: string): { obj: KubeObject; rev: number } | { obj?: undefined } | undefined {
    if (!this.#deliversOnCommit || this.#stopped) return undefined;
    const cache = this.#started.get(storageKey(def, undefined));
    if (!cache || cache.broken) return undefined;
    const e = cache.entry(key);
    return e ? { obj: e.obj, rev: e.rev } : {};
  }

  /**
   * A started cache's objects and the revision they are the state at (undefined before it
   * started, or once it broke): what another cache of this process can start from instead of
   * listing the store again (ObjectCache's `initial`).
   */
  snapshot(def: ResourceDef): { items: { key: string; modRevision: number; obj: KubeObject }[]; revision: number } | undefined {
    return this.#started.get(storageKey(def, undefined))?.snapshot();
  }

  async list(def: ResourceDef, namespace: string | undefined, opts: ListOptions): Promise<CachedList | undefined> {
    // A version served by conversion is read through the Api, which converts each object.
    if (this.#stopped || def.convert) return undefined;
    const sel = selection(def, opts);
    const rv = parseRV(opts.resourceVersion);
    const match = opts.resourceVersionMatch;
    if (match && match !== 'Exact' && match !== 'NotOlderThan') return undefined;
    const exact = match === 'Exact';
    if (exact && !rv) return undefined;
    let token: { rv: number; start: string } | undefined;
    if (opts.continue) {
      try {
        token = JSON.parse(Buffer.from(opts.continue, 'base64url').toString('utf8')) as { rv: number; start: string };
      } catch {
        throw badContinue();
      }
      if (typeof token?.rv !== 'number' || typeof token.start !== 'string') return undefined;
    }
    if (!this.#deliversOnCommit && rv === undefined) return undefined;
    const cache = await this.#cache(def);
    const current = await this.store.currentRevision();
    if (this.#deliversOnCommit) cache.observe(current);
    if (rv && !exact && rv > current) throw statusErrors.tooLargeResourceVersion(rv, current);
    if (rv && !exact && rv > cache.revision) return undefined;
    // A read at a past revision is the cache's only while nothing changed since and the store
    // could still answer it (else the store's 410 Gone).
    const at = token ? token.rv : exact ? rv! : undefined;
    if (at !== undefined) {
      const compacted = await this.store.compactRevision();
      // Checked after the await: a change may have arrived meanwhile.
      if (at < compacted || !cache.holdsStateAt(at)) return undefined;
    }
    const revision = at ?? cache.revision;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const page = cache.list(def, storageKey(def, namespace), sel, token?.start, limit);
    const result: CachedList = { items: page.items, resourceVersion: String(revision) };
    if (page.more && page.last) result.continue = Buffer.from(JSON.stringify({ rv: revision, start: page.last })).toString('base64url');
    return result;
  }

  async watch(def: ResourceDef, namespace: string | undefined, opts: ListOptions, sink: CacheWatchSink): Promise<Watch | undefined> {
    if (this.#stopped || def.convert) return undefined;
    const sel = selection(def, opts);
    const requested = parseRV(opts.resourceVersion) ?? 0;
    const initial = opts.sendInitialEvents ?? requested === 0;
    // A consistent start (no resourceVersion) needs a cache known to be current.
    if (!this.#deliversOnCommit && opts.resourceVersion === undefined && initial) return undefined;
    const cache = await this.#cache(def);
    const current = await this.store.currentRevision();
    if (this.#deliversOnCommit) cache.observe(current);
    const prefix = storageKey(def, namespace);
    if (requested > current) {
      // A later revision will not arrive by waiting: the store has the newest there is.
      sink.send('ERROR', statusErrors.tooLargeResourceVersion(requested, current).status);
      sink.close();
      return { cancel() {} };
    }
    if (initial) {
      if (requested > cache.revision) return undefined;
      return cache.watchWithInitial(def, prefix, sel, sink, (revision) => {
        if (opts.sendInitialEvents && opts.allowWatchBookmarks) {
          sink.send('BOOKMARK', { kind: def.kind, apiVersion: groupVersion(def), metadata: { resourceVersion: String(revision), annotations: { 'k8s.io/initial-events-end': 'true' } } });
        }
      });
    }
    if (requested === 0) return cache.watchFrom(def, prefix, sel, current, sink);
    // The store refuses a watch from a compacted revision (410 Gone); so does this cache.
    const compacted = await this.store.compactRevision();
    if (requested < compacted) return undefined;
    return cache.watchFrom(def, prefix, sel, requested, sink);
  }

  stop(): void {
    this.#stopped = true;
    for (const c of this.#caches.values()) void c.then((cache) => cache.stop(), () => undefined);
    this.#caches.clear();
    this.#started.clear();
  }
}
