// An in-memory copy of one resource, kept current by a store watch, for the small, hot
// objects every pod admission reads (namespaces, LimitRanges, ResourceQuotas): what an
// informer is to kube-apiserver's admission plugins. The store delivers watch events before
// a write's promise resolves, so the copy is never behind a write this process has finished.
// Cached objects are shared: callers must not mutate them.

import type { KubeObject } from '../api/types.js';
import type { Store, Watch } from '../storage/store.js';
import { decodeStored } from './objects.js';
import { storageKey, type ResourceDef } from './resources.js';

export interface CachedObject<T extends KubeObject = KubeObject> {
  key: string;
  modRevision: number;
  obj: T;
}

export class ObjectCache<T extends KubeObject = KubeObject> {
  private readonly byKey = new Map<string, CachedObject<T>>();
  private watch?: Watch;

  constructor(private readonly store: Store, readonly def: ResourceDef) {}

  async start(): Promise<void> {
    const prefix = storageKey(this.def, undefined);
    const snapshot = await this.store.list(prefix);
    for (const kv of snapshot.items) this.byKey.set(kv.key, { key: kv.key, modRevision: kv.modRevision, obj: Object.freeze(decodeStored<T>(kv)) });
    this.watch = await this.store.watch(prefix, snapshot.revision, {
      event: (e) => {
        if (e.type === 'DELETE') this.byKey.delete(e.kv.key);
        else this.byKey.set(e.kv.key, { key: e.kv.key, modRevision: e.kv.modRevision, obj: Object.freeze(decodeStored<T>(e.kv)) });
      },
    });
  }

  get(namespace: string | undefined, name: string): CachedObject<T> | undefined {
    return this.byKey.get(storageKey(this.def, namespace, name));
  }

  /** The objects of one namespace (or all, for cluster-scoped resources), in key order. */
  list(namespace?: string): CachedObject<T>[] {
    const prefix = storageKey(this.def, namespace);
    const out: CachedObject<T>[] = [];
    for (const [k, v] of this.byKey) if (k.startsWith(prefix)) out.push(v);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  stop(): void {
    this.watch?.cancel();
  }
}
