// A status subresource write that survives a conflicting write by someone else: the object is
// read again and the status put on the fresh copy (client-go's retry.RetryOnConflict around
// UpdateStatus, as the StatefulSet and DaemonSet controllers do it).

import type { KubeObject } from '../api/types.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';

/**
 * Writes `status(target)` to `obj`'s status subresource; on a 409 reads the object again and
 * retries, `retries` more times at most (upstream: StatefulSet 4 — DefaultRetry's 5 steps —,
 * ReplicaSet and DaemonSet 1 — statusUpdateRetries). Other errors, and the last conflict, are
 * thrown; the object as the server returned it otherwise.
 */
export async function writeStatusRetryingConflicts<T extends KubeObject & { status?: unknown }>(
  client: KubeClient,
  ref: ResourceRef,
  obj: T,
  status: (target: T) => T['status'],
  retries: number,
): Promise<T> {
  let target = obj;
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.update<T>(ref, obj.metadata?.namespace, { ...target, status: status(target) }, { subresource: 'status' });
    } catch (e) {
      if (attempt >= retries || !isStatus(e, 409)) throw e;
      target = await client.get<T>(ref, obj.metadata?.namespace, obj.metadata?.name ?? '');
    }
  }
}
