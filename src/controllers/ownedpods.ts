// What a workload controller owns (pkg/controller/controller_ref_manager.go PodControllerRefManager
// and ControllerRevisionControllerRefManager; ClaimPods, ClaimControllerRevisions): the pods and
// revisions of its namespace that match its selector, adopting orphans and releasing those that
// stopped matching, by patching ownerReferences with a resourceVersion precondition as the
// garbage collector does. The decision per object is src/policy/workloadpods.ts claimPod. Before
// the first adoption the owner is read again (RecheckDeletionTimestamp), so a set being deleted
// or replaced under the same name adopts nothing. A failed adoption or release of a pod that is
// gone is skipped (upstream ignores NotFound too).
//
// Written for the StatefulSet and DaemonSet controllers; shared by any controller with a
// selector and a controller reference.

import type { KubeObject, LabelSelector, OwnerReference, Pod } from '../api/types.js';
import { claimPod, controllerOf } from '../policy/workloadpods.js';
import { isStatus } from '../client/errors.js';
import type { KubeClient, ResourceRef } from '../client/interface.js';

type Owner = KubeObject & { metadata: NonNullable<KubeObject['metadata']>; spec?: { selector?: LabelSelector } };

export class OwnedObjects {
  constructor(private readonly client: KubeClient, private readonly ownerRef: ResourceRef, private readonly controllerRef: (owner: Owner) => OwnerReference) {}

  /**
   * ClaimObjects: the objects (pods or revisions) the owner keeps after adopting and releasing.
   * `candidates` are the namespace's objects from the informer.
   */
  async claim<T extends KubeObject & { metadata: NonNullable<KubeObject['metadata']> }>(ref: ResourceRef, owner: Owner, candidates: readonly T[], filter: (o: T) => boolean = () => true): Promise<T[]> {
    const owned: T[] = [];
    let adoptable: boolean | undefined;
    for (const o of candidates) {
      const action = claimPod(owner, o as unknown as Pod, (p) => filter(p as unknown as T));
      if (action === 'own') owned.push(o);
      else if (action === 'adopt') {
        adoptable ??= await this.canAdopt(owner);
        if (!adoptable) continue;
        const adopted = await this.patchRefs(ref, o, [...(o.metadata.ownerReferences ?? []), this.controllerRef(owner)]);
        if (adopted) owned.push(adopted);
      } else if (action === 'release') {
        const uid = owner.metadata.uid;
        await this.patchRefs(ref, o, (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid));
      }
    }
    return owned;
  }

  /** RecheckDeletionTimestamp: the owner as it is now is the same one and not being deleted. */
  private async canAdopt(owner: Owner): Promise<boolean> {
    try {
      const fresh = await this.client.get(this.ownerRef, owner.metadata.namespace, owner.metadata.name ?? '');
      return fresh.metadata?.uid === owner.metadata.uid && !fresh.metadata?.deletionTimestamp;
    } catch (e) {
      if (isStatus(e, 404)) return false;
      throw e;
    }
  }

  private async patchRefs<T extends KubeObject & { metadata: NonNullable<KubeObject['metadata']> }>(ref: ResourceRef, o: T, refs: OwnerReference[]): Promise<T | undefined> {
    try {
      return await this.client.patch<T>(ref, o.metadata.namespace, o.metadata.name ?? '', 'application/merge-patch+json', {
        metadata: { resourceVersion: o.metadata.resourceVersion, uid: o.metadata.uid, ownerReferences: refs.length ? refs : null },
      });
    } catch (e) {
      // Gone, or changed since the informer saw it: the next sync sees it as it is.
      if (isStatus(e, 404, 409, 422)) return undefined;
      throw e;
    }
  }
}

/** The owner a controller reference names, if the informer has that very object (uid checked). */
export function resolveControllerRef<T extends KubeObject>(obj: KubeObject, kind: string, get: (namespace: string | undefined, name: string) => T | undefined): T | undefined {
  const ref = controllerOf(obj);
  if (!ref || ref.kind !== kind) return undefined;
  const owner = get(obj.metadata?.namespace, ref.name);
  return owner?.metadata?.uid === ref.uid ? owner : undefined;
}
