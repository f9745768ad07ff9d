// Which owners an owned object's informer event concerns (the ReplicaSet controller's addPod and
// updatePod, the Deployment controller's addReplicaSet and updateReplicaSet: the same routing
// upstream writes twice). An object with a controller reference concerns that controller, if it
// still exists as the same object (uid); an orphan concerns every owner whose selector matches it,
// since any of them may adopt it.

import type { KubeObject, OwnerReference } from '../api/types.js';
import { controllerOf } from '../policy/controllerref.js';

export interface OwnerLookup<O, T> {
  /** The owner a controller reference names, if it is the same object (uid). */
  resolve(namespace: string | undefined, ref: OwnerReference | undefined): O | undefined;
  /** The owners whose selector matches an orphan (getPodReplicaSets, getDeploymentsForReplicaSet). */
  adopters(obj: T): O[];
}

/** A new object: its controller, or — an orphan — the owners that may adopt it. */
export function ownersOfAdded<O, T extends KubeObject>(obj: T, l: OwnerLookup<O, T>): { controller?: O; adopters: O[] } {
  const ref = controllerOf(obj);
  if (!ref) return { adopters: l.adopters(obj) };
  const controller = l.resolve(obj.metadata?.namespace, ref);
  return controller ? { controller, adopters: [] } : { adopters: [] };
}

/**
 * A changed object: the old controller when the controller reference moved (it lost the object);
 * the current controller; or — an orphan whose labels or controller reference changed — the
 * owners that may adopt it now.
 */
export function ownersOfUpdated<O, T extends KubeObject>(old: T, cur: T, l: OwnerLookup<O, T>): { previous?: O; controller?: O; adopters: O[] } {
  const curRef = controllerOf(cur);
  const oldRef = controllerOf(old);
  const refChanged = curRef?.uid !== oldRef?.uid;
  const previous = refChanged && oldRef ? l.resolve(old.metadata?.namespace, oldRef) : undefined;
  const out: { previous?: O; controller?: O; adopters: O[] } = { adopters: [] };
  if (previous) out.previous = previous;
  if (curRef) {
    const controller = l.resolve(cur.metadata?.namespace, curRef);
    if (controller) out.controller = controller;
    return out;
  }
  if (refChanged || labelsChanged(old, cur)) out.adopters = l.adopters(cur);
  return out;
}

export function labelsChanged(a: KubeObject, b: KubeObject): boolean {
  return JSON.stringify(a.metadata?.labels ?? {}) !== JSON.stringify(b.metadata?.labels ?? {});
}
