// ControllerRefManager (pkg/controller/controller_ref_manager.go) over the client: a controller
// claims the objects its selector matches. The decision per object is src/policy/controllerref.ts;
// here are the writes: adoption and release as strategic merge patches carrying the object's uid
// (a precondition: a replaced object is never adopted), adoption only after a fresh read of the
// owner shows it is the same one and not being deleted (RecheckDeletionTimestamp, once per
// claim). An object gone (404) or replaced (422 from the uid precondition) is skipped quietly.

import type { KubeObject, OwnerReference } from '../api/types.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { adoptPatch, claimAction, ownerDeletedMessage, releasePatch } from '../policy/controllerref.js';

export interface ClaimOptions<T extends KubeObject> {
  client: KubeClient;
  /** Where the objects are (pods, replicasets). */
  ref: ResourceRef;
  owner: KubeObject;
  controllerRef: OwnerReference;
  matches: (obj: T) => boolean;
  /** Reads the owner afresh (its kind's GET). */
  getOwner: () => Promise<KubeObject>;
}

/** ClaimObjects: the objects that are the owner's after adopting and releasing; the first error (after trying every object) is thrown. */
export async function claimObjects<T extends KubeObject>(objs: readonly T[], o: ClaimOptions<T>): Promise<T[]> {
  const owner = o.owner.metadata ?? {};
  const claimed: T[] = [];
  let canAdopt: Promise<void> | undefined;
  const recheck = () =>
    (canAdopt ??= o.getOwner().then((fresh) => {
      if (fresh.metadata?.uid !== owner.uid) throw new Error(`original ${o.controllerRef.kind} ${owner.namespace}/${owner.name} is gone: got uid ${fresh.metadata?.uid}, wanted ${owner.uid}`);
      if (fresh.metadata?.deletionTimestamp) throw new Error(ownerDeletedMessage(owner.namespace ?? '', owner.name ?? '', fresh.metadata.deletionTimestamp));
    }));
  let firstError: unknown;
  for (const obj of objs) {
    const m = obj.metadata ?? {};
    const action = claimAction({ uid: owner.uid, namespace: owner.namespace, deletionTimestamp: owner.deletionTimestamp }, obj, o.matches(obj));
    try {
      if (action === 'own') claimed.push(obj);
      else if (action === 'adopt') {
        await recheck();
        await o.client.patch(o.ref, m.namespace, m.name ?? '', 'application/strategic-merge-patch+json', adoptPatch(o.controllerRef, m.uid ?? ''));
        claimed.push(obj);
      } else if (action === 'release') {
        await o.client.patch(o.ref, m.namespace, m.name ?? '', 'application/strategic-merge-patch+json', releasePatch(owner.uid ?? '', m.uid ?? ''));
      }
    } catch (e) {
      if (isStatus(e, 404, 422)) continue;
      firstError ??= e;
    }
  }
  if (firstError !== undefined) throw firstError;
  return claimed;
}

/** The create was refused because the namespace is going away (metav1 NamespaceTerminatingCause): nothing to report, nothing to retry. */
export function isNamespaceTerminating(e: unknown): boolean {
  if (!isStatus(e, 403)) return false;
  const status = (e as { status?: { message?: string; details?: { causes?: { reason?: string }[] } } }).status;
  if (status?.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return true;
  return /because it is being terminated$/.test(status?.message ?? '');
}

/** The text of an error as Go's %v prints a StatusError: its message. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A per-key exponential back-off for failed syncs (workqueue's default item limiter: 5 ms doubling, capped). */
export class Backoff {
  private readonly failures = new Map<string, number>();
  constructor(private readonly baseMs = 5, private readonly maxMs = 60_000) {}
  next(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }
  forget(key: string): void {
    this.failures.delete(key);
  }
}
