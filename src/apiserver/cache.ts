// An in-memory copy of one resource, kept current by a store watch: what an informer is to
// kube-apiserver's admission plugins. The server keeps one for the small, hot objects every pod
// admission reads (namespaces, LimitRanges, ResourceQuotas) and one of the bound pods, without
// their managedFields, for the node authorizer. (Controllers, the scheduler included, read
// src/client's informers instead.)
//
// The store delivers watch events before a write's promise resolves, so the copy is never behind
// a write this process has finished: an admission that follows a write sees it. Listeners and
// index functions run inside that delivery, so they must be quick (queue work, never await it).
// Cached objects are shared and frozen: callers must not mutate them. When the watch ends (etcd
// lost, history compacted under a lagging watch) the cache lists again and watches from there,
// as a reflector does; what changed in between reaches listeners as events.

import type { KubeObject } from '../api/types.js';
import type { KeyValue, Store, Watch } from '../storage/store.js';
import { defaultedOnRead } from './objects.js';
import { storageKey, type ResourceDef } from './resources.js';

export interface CachedObject<T extends KubeObject = KubeObject> {
  key: string;
  modRevision: number;
  obj: T;
}

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Called for every change after the cache has applied it; `old` is the previous state. */
export type CacheListener<T extends KubeObject> = (type: CacheEventType, obj: T, old: T | undefined) => void;

/** Which bucket of an index an object belongs in (undefined: none). */
export type IndexFunc<T extends KubeObject> = (obj: T) => string | undefined;

interface Index<T extends KubeObject> {
  fn: IndexFunc<T>;
  buckets: Map<string, Map<string, T>>;
}

const noObjects: ReadonlyMap<string, never> = new Map<string, never>();

/** client-go's reflector backs off from 800 ms to 30 s; a local store answers again sooner. */
const relistInitialMs = 100;
const relistMaxMs = 5000;

export interface ObjectCacheOptions<T extends KubeObject> {
  /** Which objects to hold (a field selector's job upstream); one that stops matching leaves as DELETED. */
  keep?: (obj: T) => boolean;
  /** What to cache instead of a decoded object (an informer's TransformFunc), e.g. withoutManagedFields. */
  transform?: (obj: T) => T;
  /**
   * An already decoded, shared object for a key at a revision (the watch cache's, Cacher.decoded),
   * held as it is instead of a decoded copy; the transform applies to the copies only.
   */
  decoded?: (kv: KeyValue) => T | undefined;
  /**
   * The objects this process already holds and the revision they are the state at (the watch
   * cache's, Cacher.snapshot): the first fill takes them, shared as they are, instead of listing
   * the store again, then watches from that revision. Undefined from it, or a relist, reads the store.
   */
  initial?: () => HeldList<T> | undefined;
}

/** A list already decoded, at a revision. */
export interface HeldList<T extends KubeObject = KubeObject> {
  items: readonly { key: string; modRevision: number; obj: T }[];
  revision: number;
}

export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly byKey = new Map<string, CachedObject<T>>();
  private readonly listeners = new Set<CacheListener<T>>();
  private readonly indexes = new Map<string, Index<T>>();
  /** list() results by prefix until the next change: admission lists the same namespace for every pod. */
  private readonly lists = new Map<string, CachedObject<T>[]>();
  private watch?: Watch;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly store: Store, readonly def: ResourceDef, private readonly opts: ObjectCacheOptions<T> = {}) {}

  /** An object another cache decoded, held as it is (kept or not, never transformed). */
  private shared(key: string, modRevision: number, obj: T): CachedObject<T> | undefined {
    return this.opts.keep && !this.opts.keep(obj) ? undefined : { key, modRevision, obj };
  }

  /** The watch cache's object when `decoded` has it; else decodeStored for an object nobody else holds (resourceVersion set in place, then frozen). */
  private decode(kv: KeyValue): CachedObject<T> | undefined {
    const shared = this.opts.decoded?.(kv);
    if (shared) return this.shared(kv.key, kv.modRevision, shared);
    const obj = defaultedOnRead(JSON.parse(kv.value) as T);
    (obj.metadata ??= {}).resourceVersion = String(kv.modRevision);
    if (this.opts.keep && !this.opts.keep(obj)) return undefined;
    return { key: kv.key, modRevision: kv.modRevision, obj: Object.freeze(this.opts.transform ? this.opts.transform(obj) : obj) };
  }

  async start(): Promise<void> {
    await this.listAndWatch(this.opts.initial?.());
  }

  /**
   * A reflector's ListAndWatch: the store's objects now, or the `held` ones on the first fill
   * (what changed while no watch ran goes through apply, so listeners and indexes see it as
   * events), then a watch from that revision.
   */
  private async listAndWatch(held?: HeldList<T>): Promise<void> {
    const prefix = storageKey(this.def, undefined);
    const listed = new Set<string>();
    const fill = (key: string, modRevision: number, entry: () => CachedObject<T> | undefined) => {
      listed.add(key);
      if (this.byKey.get(key)?.modRevision !== modRevision) this.apply(key, entry());
    };
    let revision: number;
    if (held) {
      for (const e of held.items) fill(e.key, e.modRevision, () => this.shared(e.key, e.modRevision, e.obj));
      revision = held.revision;
    } else {
      const snapshot = await this.store.list(prefix);
      for (const kv of snapshot.items) fill(kv.key, kv.modRevision, () => this.decode(kv));
      revision = snapshot.revision;
    }
    for (const key of [...this.byKey.keys()]) if (!listed.has(key)) this.apply(key, undefined);
    if (this.stopped) return;
    this.watch = await this.store.watch(prefix, revision, {
      event: (e) => this.apply(e.kv.key, e.type === 'DELETE' ? undefined : this.decode(e.kv)),
      error: (err) => this.relist(err),
    });
    if (this.stopped) this.watch.cancel();
  }

  /** The watch ended (the store lost its connection, or history was compacted under it): list again, retrying with back-off. */
  private relist(err: Error): void {
    this.watch = undefined;
    if (this.stopped) return;
    console.error(`cache ${this.def.resource}: watch ended (${err.message}); listing again`);
    const attempt = (delayMs: number) => {
      const t = setTimeout(() => {
        this.retry = undefined;
        if (this.stopped) return;
        this.listAndWatch().catch((e: unknown) => {
          console.error(`cache ${this.def.resource}: list: ${e instanceof Error ? e.message : String(e)}`);
          attempt(Math.min(delayMs * 2 || relistInitialMs, relistMaxMs));
        });
      }, delayMs);
      this.retry = t;
    };
    attempt(0);
  }

  private apply(key: string, next: CachedObject<T> | undefined): void {
    const prev = this.byKey.get(key);
    if (next) this.byKey.set(key, next);
    else if (prev) this.byKey.delete(key);
    else return;
    if (this.lists.size) this.lists.clear();
    for (const index of this.indexes.values()) {
      const from = prev ? index.fn(prev.obj) : undefined;
      const to = next ? index.fn(next.obj) : undefined;
      if (from !== undefined && from !== to) {
        const bucket = index.buckets.get(from);
        bucket?.delete(key);
        if (bucket?.size === 0) index.buckets.delete(from);
      }
      if (to !== undefined) {
        let bucket = index.buckets.get(to);
        if (!bucket) index.buckets.set(to, (bucket = new Map()));
        bucket.set(key, next!.obj);
      }
    }
    const type: CacheEventType = !next ? 'DELETED' : prev ? 'MODIFIED' : 'ADDED';
    for (const l of this.listeners) {
      try {
        l(type, (next ?? prev)!.obj, prev?.obj);
      } catch (e) {
        // A listener's failure must not end the watch that keeps every other reader current.
        console.error(`cache ${this.def.resource}: listener: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /**
   * The object this cache decoded itself for `key`'s write at `modRevision`, when it holds that
   * write (not a transformed copy): what a store watcher registered after this cache's (the
   * embedded stores deliver in registration order) can take instead of decoding its own. It is
   * the store's value as read (defaulted, resourceVersion set), frozen at its top level only.
   */
  decodedAt(key: string, modRevision: number): T | undefined {
    if (this.opts.transform) return undefined;
    const c = this.byKey.get(key);
    return c && c.modRevision === modRevision ? c.obj : undefined;
  }

  get(namespace: string | undefined, name: string): CachedObject<T> | undefined {
    return this.byKey.get(storageKey(this.def, namespace, name));
  }

  /** The objects of one namespace (or all, for cluster-scoped resources), in key order. */
  list(namespace?: string): readonly CachedObject<T>[] {
    const prefix = storageKey(this.def, namespace);
    const known = this.lists.get(prefix);
    if (known) return known;
    const out: CachedObject<T>[] = [];
    for (const [k, v] of this.byKey) if (k.startsWith(prefix)) out.push(v);
    out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.lists.set(prefix, out);
    return out;
  }

  /** Every cached object, in no particular order. */
  values(): IterableIterator<CachedObject<T>> {
    return this.byKey.values();
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Adds a listener for later changes; returns its removal. */
  subscribe(listener: CacheListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Keeps the objects grouped by `fn` (e.g. pods by node) from now on, starting from the current
   * contents. A second call with the same name keeps the first function.
   */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexes.has(name)) return;
    const index: Index<T> = { fn, buckets: new Map() };
    for (const [key, c] of this.byKey) {
      const v = fn(c.obj);
      if (v === undefined) continue;
      let bucket = index.buckets.get(v);
      if (!bucket) index.buckets.set(v, (bucket = new Map()));
      bucket.set(key, c.obj);
    }
    this.indexes.set(name, index);
  }

  /** The objects in one bucket of an index, by storage key. */
  byIndex(name: string, value: string): ReadonlyMap<string, T> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`cache ${this.def.resource}: no index ${name}`);
    return index.buckets.get(value) ?? noObjects;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.watch?.cancel();
  }
}
