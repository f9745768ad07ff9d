// The informer's store: objects by namespace/name key with named indexes kept current on every
// change (client-go tools/cache ThreadSafeStore with Indexers), and the Lister that reads it
// (client-go's generated listers: get by namespace and name, list by namespace, by index).

import type { KubeObject } from '../api/types.js';

/** `namespace/name`, or `name` for cluster-scoped objects (cache.MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name ?? ''}` : (obj.metadata?.name ?? '');
}

/** Which bucket of an index an object belongs in (undefined: none). */
export type IndexFunc<T extends KubeObject> = (obj: T) => string | undefined;

/** Indexed by namespace from the start, as cache.NamespaceIndex. */
export const namespaceIndex = 'namespace';

const empty: ReadonlyMap<string, never> = new Map<string, never>();

export class Indexer<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<string, { fn: IndexFunc<T>; buckets: Map<string, Map<string, T>> }>();

  constructor() {
    this.addIndex(namespaceIndex, (o) => o.metadata?.namespace);
  }

  /** Adds or replaces an object; returns the previous one. */
  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const prev = this.items.get(key);
    this.items.set(key, obj);
    this.reindex(key, prev, obj);
    return prev;
  }

  /** Removes an object by key; returns what was there. */
  delete(key: string): T | undefined {
    const prev = this.items.get(key);
    if (!prev) return undefined;
    this.items.delete(key);
    this.reindex(key, prev, undefined);
    return prev;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  get size(): number {
    return this.items.size;
  }

  /** Keeps the objects grouped by `fn` from now on, starting with the current ones; a name already taken keeps its function. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexes.has(name)) return;
    this.indexes.set(name, { fn, buckets: new Map() });
    for (const [key, obj] of this.items) this.place(name, key, obj);
  }

  /** The objects in one bucket of an index, by key. */
  byIndex(name: string, value: string): ReadonlyMap<string, T> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`indexer: no index ${name}`);
    return index.buckets.get(value) ?? empty;
  }

  private place(name: string, key: string, obj: T): void {
    const index = this.indexes.get(name)!;
    const v = index.fn(obj);
    if (v === undefined) return;
    let bucket = index.buckets.get(v);
    if (!bucket) index.buckets.set(v, (bucket = new Map()));
    bucket.set(key, obj);
  }

  private reindex(key: string, prev: T | undefined, next: T | undefined): void {
    for (const [name, index] of this.indexes) {
      const from = prev ? index.fn(prev) : undefined;
      if (from !== undefined) {
        const bucket = index.buckets.get(from);
        bucket?.delete(key);
        if (bucket?.size === 0) index.buckets.delete(from);
      }
      if (next) this.place(name, key, next);
    }
  }
}

/** Reads an informer's store (client-go's listers). */
export class Lister<T extends KubeObject> {
  constructor(private readonly indexer: Indexer<T>) {}

  get(namespace: string | undefined, name: string): T | undefined {
    return this.indexer.get(namespace ? `${namespace}/${name}` : name);
  }

  /** The objects of one namespace, or every object, in key order. */
  list(namespace?: string): T[] {
    const source = namespace === undefined ? this.indexer.values() : this.indexer.byIndex(namespaceIndex, namespace).values();
    return [...source].sort((a, b) => {
      const ka = objectKey(a);
      const kb = objectKey(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }

  byIndex(name: string, value: string): ReadonlyMap<string, T> {
    return this.indexer.byIndex(name, value);
  }

  get size(): number {
    return this.indexer.size;
  }
}
