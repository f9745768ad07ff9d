// The garbage collector's pure decisions (src/policy/gc.ts), one row per rule, after kubernetes
// pkg/controller/garbagecollector (attemptToDeleteItem, processDeletingDependentsItem,
// orphanDependents) and registry/generic/registry/store.go (deletionFinalizersForGarbageCollection).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnerReference } from '../../src/api/types.js';
import { decideDependent, decideOwner, ownerStateOf, deleteDuringUpdate, deletionFinalizers, isDeletingDependents, unblockedOwnerReferences, type DependentAction, type OwnerAction, type OwnerState } from '../../src/policy/gc.js';

const ref = (uid: string, block?: boolean): OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `cm-${uid}`, uid, ...(block !== undefined ? { blockOwnerDeletion: block } : {}) });

describe('decideDependent (attemptToDeleteItem)', () => {
  const rows: { name: string; refs: OwnerReference[]; states: OwnerState[]; finalizers?: string[]; hasDependents?: boolean; dependentDeletingDependents?: boolean; beingDeleted?: boolean; want: DependentAction }[] = [
    { name: 'the only owner is gone: delete in the background', refs: [ref('a')], states: ['absent'], want: { action: 'delete', policy: 'Background' } },
    { name: 'one of two owners alive: keep, dropping the dangling reference', refs: [ref('a'), ref('b')], states: ['absent', 'present'], want: { action: 'removeRefs', uids: ['a'] } },
    { name: 'all owners alive: nothing', refs: [ref('a'), ref('b')], states: ['present', 'present'], want: { action: 'none' } },
    { name: 'an owner of unknown kind: decide nothing', refs: [ref('a')], states: ['unknown'], want: { action: 'none' } },
    { name: 'owner waits on dependents (foreground): delete', refs: [ref('a')], states: ['waiting'], want: { action: 'delete', policy: 'Background' } },
    { name: 'owner waits and the item has dependents: delete in the foreground', refs: [ref('a')], states: ['waiting'], hasDependents: true, want: { action: 'delete', policy: 'Foreground' } },
    { name: 'owner waits and a dependent of the item waits on its own (a cycle): unblock the references, then delete in the foreground', refs: [ref('a', true)], states: ['waiting'], hasDependents: true, dependentDeletingDependents: true, want: { action: 'delete', policy: 'Foreground', unblockFirst: true } },
    { name: 'a dependent waits but no owner does: no unblocking, the item goes by its own finalizers', refs: [ref('a', true)], states: ['absent'], hasDependents: true, dependentDeletingDependents: true, want: { action: 'delete', policy: 'Background' } },
    { name: 'a dependent waits but an owner is solid: the item stays', refs: [ref('a', true), ref('b', true)], states: ['present', 'waiting'], hasDependents: true, dependentDeletingDependents: true, want: { action: 'removeRefs', uids: ['b'] } },
    { name: 'the item carries orphan: delete with Orphan', refs: [ref('a')], states: ['absent'], finalizers: ['orphan'], want: { action: 'delete', policy: 'Orphan' } },
    { name: 'the item carries foregroundDeletion: delete with Foreground', refs: [ref('a')], states: ['absent'], finalizers: ['foregroundDeletion'], want: { action: 'delete', policy: 'Foreground' } },
    { name: 'the item is already being deleted: nothing', refs: [ref('a')], states: ['absent'], beingDeleted: true, want: { action: 'none' } },
    { name: 'no owners: nothing', refs: [], states: [], want: { action: 'none' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(decideDependent(r.refs, r.states, { finalizers: r.finalizers, hasDependents: r.hasDependents ?? false, dependentDeletingDependents: r.dependentDeletingDependents, beingDeleted: r.beingDeleted ?? false }), r.want);
    });
  }
});

describe('ownerStateOf (isDangling)', () => {
  it('owner not found: absent', () => assert.equal(ownerStateOf(ref('a'), undefined), 'absent'));
  it('owner uid mismatch (same name, another object): dangling, absent', () => assert.equal(ownerStateOf(ref('a'), { uid: 'other' }), 'absent'));
  it('owner with the uid: present', () => assert.equal(ownerStateOf(ref('a'), { uid: 'a' }), 'present'));
  it('owner being deleted in the foreground: waiting', () => assert.equal(ownerStateOf(ref('a'), { uid: 'a', deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 'waiting'));
  it('owner being deleted otherwise: still present', () => assert.equal(ownerStateOf(ref('a'), { uid: 'a', deletionTimestamp: 't', finalizers: ['orphan'] }), 'present'));
});

describe('unblockedOwnerReferences (unblockOwnerReferences patch)', () => {
  const rows: { name: string; refs: OwnerReference[]; want: OwnerReference[] | undefined }[] = [
    { name: 'blocking references turn non-blocking', refs: [ref('a', true), ref('b', true)], want: [ref('a', false), ref('b', false)] },
    { name: 'non-blocking and unset references stay as they are', refs: [ref('a', true), ref('b', false), ref('c')], want: [ref('a', false), ref('b', false), ref('c')] },
    { name: 'none blocks: nothing to write', refs: [ref('a', false), ref('b')], want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(unblockedOwnerReferences(r.refs), r.want));
});

describe('isDeletingDependents', () => {
  const rows: { name: string; meta: { deletionTimestamp?: string; finalizers?: string[] }; want: boolean }[] = [
    { name: 'being deleted with foregroundDeletion: deleting dependents', meta: { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }, want: true },
    { name: 'being deleted without it: not', meta: { deletionTimestamp: 't', finalizers: ['orphan'] }, want: false },
    { name: 'the finalizer without a deletion: not', meta: { finalizers: ['foregroundDeletion'] }, want: false },
  ];
  for (const r of rows) it(r.name, () => assert.equal(isDeletingDependents(r.meta), r.want));
});

describe('decideOwner (foreground and orphan)', () => {
  const now = '2026-01-01T00:00:00Z';
  const dep = (uid: string, refs: OwnerReference[], beingDeleted = false) => ({ uid, ownerReferences: refs, beingDeleted });
  const rows: { name: string; deletionTimestamp?: string; finalizers: string[]; deps: ReturnType<typeof dep>[]; want: OwnerAction }[] = [
    { name: 'foreground waits for blockOwnerDeletion dependents: delete them', deletionTimestamp: now, finalizers: ['foregroundDeletion'], deps: [dep('d1', [ref('o', true)]), dep('d2', [ref('o', false)])], want: { action: 'deleteDependents', uids: ['d1'] } },
    { name: 'foreground with its blocking dependents already being deleted: wait', deletionTimestamp: now, finalizers: ['foregroundDeletion'], deps: [dep('d1', [ref('o', true)], true)], want: { action: 'none' } },
    { name: 'foreground with no blocking dependent left: remove the finalizer', deletionTimestamp: now, finalizers: ['foregroundDeletion'], deps: [dep('d2', [ref('o')])], want: { action: 'removeFinalizer', finalizer: 'foregroundDeletion' } },
    { name: 'orphan strips the references to the owner', deletionTimestamp: now, finalizers: ['orphan'], deps: [dep('d1', [ref('o', true)]), dep('d2', [ref('x')])], want: { action: 'orphan', uids: ['d1'] } },
    { name: 'orphan with no dependent pointing at it: remove the finalizer', deletionTimestamp: now, finalizers: ['orphan'], deps: [], want: { action: 'removeFinalizer', finalizer: 'orphan' } },
    { name: 'not being deleted: nothing', finalizers: ['foregroundDeletion'], deps: [dep('d1', [ref('o', true)])], want: { action: 'none' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(decideOwner({ uid: 'o', deletionTimestamp: r.deletionTimestamp, finalizers: r.finalizers }, r.deps), r.want);
    });
  }
});

describe('deletionFinalizers (the API server on DELETE)', () => {
  const rows: { name: string; have?: string[]; opts: { propagationPolicy?: string; orphanDependents?: boolean }; defaultOrphan?: boolean; want: { changed: boolean; finalizers: string[] } }[] = [
    { name: 'Background: no GC finalizer', opts: { propagationPolicy: 'Background' }, want: { changed: false, finalizers: [] } },
    { name: 'Foreground adds foregroundDeletion', have: ['x/y'], opts: { propagationPolicy: 'Foreground' }, want: { changed: true, finalizers: ['x/y', 'foregroundDeletion'] } },
    { name: 'Orphan adds orphan', opts: { propagationPolicy: 'Orphan' }, want: { changed: true, finalizers: ['orphan'] } },
    { name: 'orphanDependents=false removes orphan', have: ['orphan'], opts: { orphanDependents: false }, want: { changed: true, finalizers: [] } },
    { name: 'orphanDependents=true adds orphan', opts: { orphanDependents: true }, want: { changed: true, finalizers: ['orphan'] } },
    { name: 'Orphan replaces foregroundDeletion', have: ['foregroundDeletion'], opts: { propagationPolicy: 'Orphan' }, want: { changed: true, finalizers: ['orphan'] } },
    { name: 'no options: a GC finalizer present stays', have: ['foregroundDeletion'], opts: {}, want: { changed: false, finalizers: ['foregroundDeletion'] } },
    { name: 'no options: the kind default orphans (batch/v1 Job)', opts: {}, defaultOrphan: true, want: { changed: true, finalizers: ['orphan'] } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      assert.deepEqual(deletionFinalizers(r.have, r.opts, r.defaultOrphan ?? false), r.want);
    });
  }
});

describe('deleteDuringUpdate (ShouldDeleteDuringUpdate)', () => {
  it('being deleted, no finalizers, zero grace: removed', () => assert.equal(deleteDuringUpdate({ deletionTimestamp: 't', deletionGracePeriodSeconds: 0, finalizers: [] }), true));
  it('a finalizer left: kept', () => assert.equal(deleteDuringUpdate({ deletionTimestamp: 't', deletionGracePeriodSeconds: 0, finalizers: ['orphan'] }), false));
  it('a grace period pending: kept', () => assert.equal(deleteDuringUpdate({ deletionTimestamp: 't', deletionGracePeriodSeconds: 30 }), false));
  it('not being deleted: kept', () => assert.equal(deleteDuringUpdate({ finalizers: [] }), false));
});
