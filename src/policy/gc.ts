// The garbage collector's decisions as pure functions, following kubernetes
// pkg/controller/garbagecollector (garbagecollector.go: attemptToDeleteItem's classification of
// owner references into solid, dangling and waiting-for-dependents; processDeletingDependentsItem
// for foreground; orphanDependents for orphan) and the API server's side of it,
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
// (deletionFinalizersForGarbageCollection, shouldOrphanDependents, shouldDeleteDependents).

import type { OwnerReference } from '../api/types.js';

export const finalizerOrphan = 'orphan';
export const finalizerForeground = 'foregroundDeletion';

export type GCPolicy = 'Background' | 'Foreground' | 'Orphan';

/** What a DELETE asked for: propagationPolicy, or the deprecated orphanDependents. */
export interface PropagationOptions {
  propagationPolicy?: string;
  orphanDependents?: boolean;
}

/**
 * The finalizers an object has after a DELETE (store.go deletionFinalizersForGarbageCollection):
 * the options decide, then a GC finalizer already present, then the kind's default (`orphan`
 * for batch/v1 Jobs, background otherwise). `changed` is false when the set is the same.
 */
export function deletionFinalizers(current: string[] | undefined, opts: PropagationOptions, defaultOrphan: boolean): { changed: boolean; finalizers: string[] } {
  const have = current ?? [];
  const orphan = shouldOrphan(have, opts, defaultOrphan);
  const foreground = shouldForeground(have, opts);
  const next = have.filter((f) => f !== finalizerOrphan && f !== finalizerForeground);
  if (orphan) next.push(finalizerOrphan);
  if (foreground) next.push(finalizerForeground);
  const same = new Set(have).size === new Set(next).size && next.every((f) => have.includes(f));
  return same ? { changed: false, finalizers: have } : { changed: true, finalizers: next };
}

function shouldOrphan(finalizers: string[], opts: PropagationOptions, defaultOrphan: boolean): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy === 'Orphan') return true;
  if (opts.propagationPolicy === 'Background' || opts.propagationPolicy === 'Foreground') return false;
  for (const f of finalizers) {
    if (f === finalizerOrphan) return true;
    if (f === finalizerForeground) return false;
  }
  return defaultOrphan;
}

function shouldForeground(finalizers: string[], opts: PropagationOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy === 'Foreground') return true;
  if (opts.propagationPolicy === 'Background' || opts.propagationPolicy === 'Orphan') return false;
  for (const f of finalizers) {
    if (f === finalizerForeground) return true;
    if (f === finalizerOrphan) return false;
  }
  return false;
}

/**
 * What the API server does after an update (store.go ShouldDeleteDuringUpdate): an object being
 * deleted whose last finalizer went, with no grace period pending, is removed.
 */
export function deleteDuringUpdate(meta: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] } | undefined): boolean {
  return !!meta?.deletionTimestamp && (meta.finalizers ?? []).length === 0 && (meta.deletionGracePeriodSeconds ?? 0) === 0;
}

/** What the collector found for one owner reference (a live read by name, compared by uid). */
export type OwnerState =
  /** Exists with the referenced uid and is not waiting on its dependents. */
  | 'present'
  /** Not found, or found with another uid (a dangling reference). */
  | 'absent'
  /** Exists, being deleted with the foregroundDeletion finalizer. */
  | 'waiting'
  /** Its kind could not be resolved or read: decide nothing. */
  | 'unknown';

/**
 * isDangling and classifyReferences for one reference: the owner read by name (undefined when
 * not found) is absent unless its uid is the referenced one; an owner being deleted with
 * `foregroundDeletion` is waiting for its dependents.
 */
export function ownerStateOf(ref: OwnerReference, owner: { uid?: string; deletionTimestamp?: string; finalizers?: string[] } | undefined): OwnerState {
  if (!owner || owner.uid !== ref.uid) return 'absent';
  if (isDeletingDependents(owner)) return 'waiting';
  return 'present';
}

export type DependentAction =
  | { action: 'none' }
  /** Some owners are solid: remove the references to the absent and waiting ones. */
  | { action: 'removeRefs'; uids: string[] }
  /**
   * Delete with this propagation. `unblockFirst`: a possible cycle (an owner waits on the item
   * and a dependent of the item waits on its own dependents), so the item's references first
   * lose blockOwnerDeletion (unblockedOwnerReferences), then it is deleted in the foreground.
   */
  | { action: 'delete'; policy: GCPolicy; unblockFirst?: true };

/** The dependent attemptToDeleteItem looks at. */
export interface DependentItem {
  finalizers?: string[];
  /** The graph has dependents of it. */
  hasDependents: boolean;
  /** One of its dependents is being deleted with foregroundDeletion (isDeletingDependents). */
  dependentDeletingDependents?: boolean;
  beingDeleted: boolean;
}

/**
 * attemptToDeleteItem for one dependent: with a solid owner it stays (and loses its references
 * to owners that are gone or waiting); without one it is deleted, in the foreground when an
 * owner waits on it and it has dependents of its own (unblocking its own references first when
 * one of those dependents waits too: upstream's cycle detection, false positives included), else
 * by its own GC finalizer (foreground/orphan) or in the background.
 */
export function decideDependent(refs: OwnerReference[], states: OwnerState[], item: DependentItem): DependentAction {
  if (refs.length === 0 || item.beingDeleted) return { action: 'none' };
  if (states.includes('unknown')) return { action: 'none' };
  const solid = refs.filter((_, i) => states[i] === 'present');
  const gone = refs.filter((_, i) => states[i] !== 'present').map((r) => r.uid);
  if (solid.length > 0) return gone.length ? { action: 'removeRefs', uids: gone } : { action: 'none' };
  if (states.includes('waiting') && item.hasDependents) {
    return item.dependentDeletingDependents ? { action: 'delete', policy: 'Foreground', unblockFirst: true } : { action: 'delete', policy: 'Foreground' };
  }
  const f = item.finalizers ?? [];
  if (f.includes(finalizerForeground)) return { action: 'delete', policy: 'Foreground' };
  if (f.includes(finalizerOrphan)) return { action: 'delete', policy: 'Orphan' };
  return { action: 'delete', policy: 'Background' };
}

/**
 * unblockOwnerReferences (patch.go): the references with blockOwnerDeletion=true turned to
 * false, the others as they are; undefined when none blocks (nothing to write).
 */
export function unblockedOwnerReferences(refs: OwnerReference[]): OwnerReference[] | undefined {
  if (!refs.some((r) => r.blockOwnerDeletion === true)) return undefined;
  return refs.map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
}

/** isDeletingDependents: being deleted and holding foregroundDeletion. */
export function isDeletingDependents(meta: { deletionTimestamp?: string; finalizers?: string[] }): boolean {
  return !!meta.deletionTimestamp && (meta.finalizers ?? []).includes(finalizerForeground);
}

/** A dependent as an owner being deleted sees it. */
export interface DependentView {
  uid: string;
  ownerReferences?: OwnerReference[];
  beingDeleted: boolean;
}

export type OwnerAction =
  | { action: 'none' }
  /** Foreground: dependents with blockOwnerDeletion still exist; delete those not yet being deleted. */
  | { action: 'deleteDependents'; uids: string[] }
  /** Orphan: strip the owner's references from these dependents. */
  | { action: 'orphan'; uids: string[] }
  /** The GC finalizer can go. */
  | { action: 'removeFinalizer'; finalizer: string };

/**
 * An owner being deleted (processDeletingDependentsItem, orphanDependents): with `orphan`, its
 * dependents lose their references to it, then the finalizer goes; with `foregroundDeletion`
 * the finalizer goes once no dependent that blocks owner deletion remains.
 */
export function decideOwner(owner: { uid: string; deletionTimestamp?: string; finalizers?: string[] }, dependents: DependentView[]): OwnerAction {
  if (!owner.deletionTimestamp) return { action: 'none' };
  const f = owner.finalizers ?? [];
  const refsOwner = (d: DependentView) => (d.ownerReferences ?? []).some((r) => r.uid === owner.uid);
  if (f.includes(finalizerOrphan)) {
    const still = dependents.filter(refsOwner).map((d) => d.uid);
    return still.length ? { action: 'orphan', uids: still } : { action: 'removeFinalizer', finalizer: finalizerOrphan };
  }
  if (f.includes(finalizerForeground)) {
    const blocking = dependents.filter((d) => (d.ownerReferences ?? []).some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true));
    if (blocking.length === 0) return { action: 'removeFinalizer', finalizer: finalizerForeground };
    const toDelete = blocking.filter((d) => !d.beingDeleted).map((d) => d.uid);
    return toDelete.length ? { action: 'deleteDependents', uids: toDelete } : { action: 'none' };
  }
  return { action: 'none' };
}
