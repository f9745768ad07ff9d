// The ReplicaSet controller's decisions (pkg/controller/replicaset/replica_set.go manageReplicas,
// slowStartBatch; replica_set_utils.go calculateStatus and the ReplicaFailure condition): how
// many pods to create or which to delete, in what batches, and the status (the pod itself is
// podtemplate.ts). Pure; the controller
// (src/controllers/replicaset.ts) does the writes.

import type { AppsCondition, Pod, ReplicaSet, ReplicaSetStatus } from '../api/types.js';
import { isPodAvailable, isPodReady, podsToDelete } from './activepods.js';
import { metaTime } from '../api/metatime.js';

/** replica_set.go BurstReplicas: at most this many creates or deletes per sync. */
export const burstReplicas = 500;
/** controller.SlowStartInitialBatchSize. */
export const slowStartInitialBatchSize = 1;

export const replicaFailure = 'ReplicaFailure';

/** The event reasons of controller_utils.go. */
export const podEventReasons = {
  successfulCreate: 'SuccessfulCreate',
  failedCreate: 'FailedCreate',
  successfulDelete: 'SuccessfulDelete',
  failedDelete: 'FailedDelete',
} as const;

/**
 * slowStartBatch's batch sizes for `count` calls: 1, 2, 4, … (doubling, capped by what is left).
 * The caller runs each batch in parallel and stops after the first batch with a failure, so a
 * create that fails (quota, admission) fails once rather than `count` times.
 */
export function slowStartBatches(count: number, initial = slowStartInitialBatchSize): number[] {
  const out: number[] = [];
  let remaining = count;
  for (let size = Math.min(remaining, initial); size > 0; size = Math.min(2 * size, remaining)) {
    out.push(size);
    remaining -= size;
  }
  return out;
}

export type ManageDecision = { action: 'none' } | { action: 'create'; count: number } | { action: 'delete'; pods: Pod[] };

/** manageReplicas: the difference between the active pods owned and spec.replicas, capped by the burst. */
export function manageReplicas(rs: ReplicaSet, activePods: readonly Pod[], relatedPods: readonly Pod[], now?: Date): ManageDecision {
  const diff = activePods.length - (rs.spec?.replicas ?? 1);
  if (diff < 0) return { action: 'create', count: Math.min(-diff, burstReplicas) };
  if (diff > 0) return { action: 'delete', pods: podsToDelete(activePods, relatedPods, Math.min(diff, burstReplicas), now) };
  return { action: 'none' };
}

/** The condition of `type`, if set. */
export function getCondition(conds: readonly AppsCondition[] | undefined, type: string): AppsCondition | undefined {
  return conds?.find((c) => c.type === type);
}

/** A label set matches the template's labels when it holds every one of them (fullyLabeledReplicas). */
function hasAllLabels(have: Record<string, string> | undefined, want: Record<string, string> | undefined): boolean {
  return Object.entries(want ?? {}).every(([k, v]) => have?.[k] === v);
}

/**
 * calculateStatus: the counts over the active pods the ReplicaSet owns, and ReplicaFailure set
 * (FailedCreate / FailedDelete with the error's text) when managing the replicas failed,
 * removed when it next succeeds. observedGeneration is the caller's (updateReplicaSetStatus).
 */
export function replicaSetStatus(rs: ReplicaSet, pods: readonly Pod[], manageError: string | undefined, now: Date): ReplicaSetStatus {
  const status: ReplicaSetStatus = { ...(rs.status ?? {}) };
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  const minReady = rs.spec?.minReadySeconds ?? 0;
  for (const p of pods) {
    if (hasAllLabels(p.metadata?.labels, rs.spec?.template?.metadata?.labels)) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, now)) available++;
    }
  }
  const failure = getCondition(rs.status?.conditions, replicaFailure);
  if (manageError !== undefined && !failure) {
    const diff = pods.length - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? podEventReasons.failedCreate : diff > 0 ? podEventReasons.failedDelete : '';
    const cond: AppsCondition = { type: replicaFailure, status: 'True', lastTransitionTime: metaTime(now), reason, message: manageError };
    status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== replicaFailure), cond];
  } else if (manageError === undefined && failure) {
    status.conditions = (status.conditions ?? []).filter((c) => c.type !== replicaFailure);
    if (status.conditions.length === 0) delete status.conditions;
  }
  status.replicas = pods.length;
  // omitempty, as the Go type serializes them.
  setOrDrop(status, 'fullyLabeledReplicas', fullyLabeled);
  setOrDrop(status, 'readyReplicas', ready);
  setOrDrop(status, 'availableReplicas', available);
  return status;
}

function setOrDrop(s: ReplicaSetStatus, k: 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas' | 'observedGeneration', v: number): void {
  if (v) s[k] = v;
  else delete s[k];
}

/** updateReplicaSetStatus's test: nothing to write when the counts, conditions and observedGeneration already agree. */
export function replicaSetStatusUnchanged(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur = rs.status ?? {};
  return (
    (cur.replicas ?? 0) === (next.replicas ?? 0) &&
    (cur.fullyLabeledReplicas ?? 0) === (next.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (next.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (next.availableReplicas ?? 0) &&
    (rs.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    JSON.stringify(cur.conditions ?? []) === JSON.stringify(next.conditions ?? [])
  );
}

/** The status to write: `next` with observedGeneration = the ReplicaSet's generation. */
export function withObservedGeneration(rs: ReplicaSet, next: ReplicaSetStatus): ReplicaSetStatus {
  const s = { ...next };
  setOrDrop(s, 'observedGeneration', rs.metadata.generation ?? 0);
  return s;
}

/**
 * The resync after minReadySeconds (syncReplicaSet's last line of defence): every pod ready but
 * not all available yet. Seconds to wait, or undefined.
 */
export function minReadyRequeueSeconds(rs: ReplicaSet): number | undefined {
  const want = rs.spec?.replicas ?? 1;
  const min = rs.spec?.minReadySeconds ?? 0;
  if (min > 0 && (rs.status?.readyReplicas ?? 0) === want && (rs.status?.availableReplicas ?? 0) !== want) return min;
  return undefined;
}
