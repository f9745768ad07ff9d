// ControllerRefManager (pkg/controller/controller_ref_manager.go) over the client: a controller
// claims the objects its selector matches (ClaimPods, ClaimReplicaSets, ClaimControllerRevisions:
// every workload controller, for pods and for revisions). The decision per object is src/policy/controllerref.ts;
// here are the writes: adoption and release as strategic merge patches carrying the object's uid
// (a precondition: a replaced object is never adopted), adoption only after a fresh read of the
// owner shows it is the same one and not being deleted (RecheckDeletionTimestamp, once per
// claim). An object gone (404) or replaced (422 from the uid precondition) is skipped quietly.

import { labelSelectorMatcher } from '../api/selectors.js';
import type { KubeObject, LabelSelector, OwnerReference } from '../api/types.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';
import { adoptPatch, claimAction, ownerDeletedMessage, releasePatch } from '../policy/controllerref.js';

export interface ClaimOptions<T extends KubeObject> {
  client: KubeClient;
  /** Where the objects are (pods, replicasets, controllerrevisions). */
  ref: ResourceRef;
  owner: KubeObject & { spec?: { selector?: LabelSelector } };
  /** Where the owner is: read afresh before the first adoption. */
  ownerRef: ResourceRef;
  controllerRef: OwnerReference;
  /** A test beyond the owner's selector (StatefulSet: the pod's name is a member's). */
  filter?: (obj: T) => boolean;
}

/** ClaimObjects: the objects that are the owner's after adopting and releasing; the first error (after trying every object) is thrown. */
export async function claimObjects<T extends KubeObject>(objs: readonly T[], o: ClaimOptions<T>): Promise<T[]> {
  const owner = o.owner.metadata ?? {};
  const selects = labelSelectorMatcher(o.owner.spec?.selector);
  const matches = (obj: T) => selects(obj.metadata?.labels) && (o.filter?.(obj) ?? true);
  const claimed: T[] = [];
  let canAdopt: Promise<void> | undefined;
  const recheck = () =>
    (canAdopt ??= o.client.get(o.ownerRef, owner.namespace, owner.name ?? '').then((fresh) => {
      if (fresh.metadata?.uid !== owner.uid) throw new Error(`original ${o.controllerRef.kind} ${owner.namespace}/${owner.name} is gone: got uid ${fresh.metadata?.uid}, wanted ${owner.uid}`);
      if (fresh.metadata?.deletionTimestamp) throw new Error(ownerDeletedMessage(owner.namespace ?? '', owner.name ?? '', fresh.metadata.deletionTimestamp));
    }));
  let firstError: unknown;
  for (const obj of objs) {
    const m = obj.metadata ?? {};
    const action = claimAction({ uid: owner.uid, namespace: owner.namespace, deletionTimestamp: owner.deletionTimestamp }, obj, matches(obj));
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

/** resolveControllerRef: the owner a controller reference names, if the informer has that very object (kind and uid checked). */
export function resolveControllerRef<T extends KubeObject>(namespace: string | undefined, ref: OwnerReference | undefined, kind: string, get: (namespace: string | undefined, name: string) => T | undefined): T | undefined {
  if (!ref || ref.kind !== kind) return undefined;
  const owner = get(namespace, ref.name);
  return owner?.metadata?.uid === ref.uid ? owner : undefined;
}
