// An in-memory copy of one resource, kept current by a store watch: what an informer is to
// kube-apiserver's admission plugins. The server keeps one for the small, hot objects every pod
// admission reads (namespaces, LimitRanges, ResourceQuotas) and one of the bound pods, without
// their managedFields, for the node authorizer. (Controllers, the scheduler included, read
// src/client's informers instead.)
//
// The store delivers watch events before a write's promise resolves, so the copy is never behind
// a write this process has finished: an admission that follows a write sees it. Listeners and index functions run inside that delivery, so they must be quick (queue work,
// never await it). Cached objects are shared and frozen: callers must not mutate them.

import type { KubeObject } from '../api/types.js';
import type { KeyValue, Store, Watch } from '../storage/store.js';
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

export interface ObjectCacheOptions<T extends KubeObject> {
  /** Which objects to hold (a field selector's job upstream); one that stops matching leaves as DELETED. */
  keep?: (obj: T) => boolean;
  /** Changes a decoded object before it is cached (an informer's TransformFunc). */
  transform?: (obj: T) => void;
}

/** kube-scheduler's informer transform: managedFields only cost memory in a cache. */
export function stripManagedFields(obj: KubeObject): void {
  if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
}

export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly byKey = new Map<string, CachedObject<T>>();
  private readonly listeners = new Set<CacheListener<T>>();
  private readonly indexes = new Map<string, Index<T>>();
  /** list() results by prefix until the next change: admission lists the same namespace for every pod. */
  private readonly lists = new Map<string, CachedObject<T>[]>();
  private watch?: Watch;

  constructor(private readonly store: Store, readonly def: ResourceDef, private readonly opts: ObjectCacheOptions<T> = {}) {}

  /** decodeStored for an object nobody else holds: resourceVersion set in place, then frozen. */
  private decode(kv: KeyValue): CachedObject<T> | undefined {
    const obj = JSON.parse(kv.value) as T;
    (obj.metadata ??= {}).resourceVersion = String(kv.modRevision);
    if (this.opts.keep && !this.opts.keep(obj)) return undefined;
    this.opts.transform?.(obj);
    return { key: kv.key, modRevision: kv.modRevision, obj: Object.freeze(obj) };
  }

  async start(): Promise<void> {
    const prefix = storageKey(this.def, undefined);
    const snapshot = await this.store.list(prefix);
    for (const kv of snapshot.items) this.apply(kv.key, this.decode(kv));
    this.watch = await this.store.watch(prefix, snapshot.revision, {
      event: (e) => this.apply(e.kv.key, e.type === 'DELETE' ? undefined : this.decode(e.kv)),
    });
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
    this.watch?.cancel();
  }
}
