// Which objects a controller owns, adopts and releases (pkg/controller/controller_ref_manager.go
// BaseControllerRefManager.ClaimObject, with the patches of ClaimPods/ClaimReplicaSets and
// metav1.NewControllerRef): an object controlled by another owner is never touched; one
// controlled by this owner is kept while the selector matches it and released when it stops
// matching (unless the owner itself is being deleted); an orphan that matches is adopted when
// neither it nor the owner is being deleted. Pure: the caller does the writes.

import type { KubeObject, OwnerReference } from '../api/types.js';

export type ClaimAction =
  /** Controlled by this owner and matching: it is the owner's. */
  | 'own'
  /** Controlled by someone else, or an orphan that is not to be adopted. */
  | 'ignore'
  /** An orphan that matches: patch in the controller reference, then it is the owner's. */
  | 'adopt'
  /** Controlled by this owner but no longer matching: patch the reference out. */
  | 'release';

export interface ClaimOwner {
  uid?: string;
  namespace?: string;
  deletionTimestamp?: string;
}

/** metav1.GetControllerOf: the owner reference with controller=true. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** ClaimObject's decision for one object. */
export function claimAction(owner: ClaimOwner, obj: KubeObject, matches: boolean): ClaimAction {
  const ref = controllerOf(obj);
  if (ref) {
    if (ref.uid !== owner.uid) return 'ignore';
    if (matches) return 'own';
    // An owner being deleted keeps what it has: its dependents go with it.
    return owner.deletionTimestamp ? 'ignore' : 'release';
  }
  if (owner.deletionTimestamp || !matches) return 'ignore';
  if (obj.metadata?.deletionTimestamp) return 'ignore';
  if (owner.namespace && owner.namespace !== obj.metadata?.namespace) return 'ignore';
  return 'adopt';
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion both true. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata?.name ?? '', uid: owner.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The strategic merge patch that adopts (ownerReferences merge on uid; metadata.uid as a precondition). */
export function adoptPatch(ref: OwnerReference, objUid: string): unknown {
  return { metadata: { ownerReferences: [ref], uid: objUid } };
}

/** The strategic merge patch that releases: the owner's reference deleted by its uid. */
export function releasePatch(ownerUid: string, objUid: string): unknown {
  return { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: objUid } };
}

/** The error text of RecheckDeletionTimestamp when the owner is already going (adoption refused). */
export function ownerDeletedMessage(namespace: string, name: string, at: string): string {
  return `${namespace}/${name} has just been deleted at ${at}`;
}
