// What the API server's admission caches (ObjectCache) keep of an object they decode themselves.
// Objects may be shared with the watch cache and are frozen, so a transform returns a new object
// and never changes the one it is given.

import type { KubeObject } from './types.js';

/**
 * kube-scheduler's informer transform: managedFields only cost memory in a cache. The object
 * itself when it has none; else a shallow copy with a new metadata (spec and status shared).
 */
export function withoutManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
