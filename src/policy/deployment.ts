// The Deployment controller's decisions for one sync (pkg/controller/deployment: sync.go
// getNewReplicaSet, scale, cleanupDeployment, calculateStatus, isScalingEvent; rolling.go
// reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate; recreate.go oldPodsRunning; progress.go
// syncRolloutStatus, getReplicaFailures, requeueStuckDeployment; checkPausedConditions). Each
// returns what to write; the controller (src/controllers/deployment.ts) writes it in upstream's
// order, stops at the first failure, and records the events.

import type { AppsCondition, Deployment, DeploymentStatus, Pod, ReplicaSet } from '../api/types.js';
import { newControllerRef } from './controllerref.js';
import {
  availableReplicaCount,
  actualReplicaCount,
  byCreation,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  conditionTypes,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  desiredReplicasOf,
  filterActive,
  findActiveOrLatest,
  getDeploymentCondition,
  getProportion,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  newDeploymentCondition,
  newRSNewReplicas,
  readyReplicaCount,
  reasons,
  removeDeploymentCondition,
  replicasOf,
  rsReplicas,
  setDeploymentCondition,
  setNewReplicaSetAnnotations,
  podTemplateHashLabel,
  specReplicaCount,
} from './deploymentutil.js';
import { computeHash } from './hash.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export const deploymentEventReasons = {
  scalingReplicaSet: 'ScalingReplicaSet',
  selectingAll: 'SelectingAll',
  failedRSCreate: reasons.failedRSCreate,
} as const;

export const selectingAllMessage = 'This deployment is selecting all pods. A non-empty selector is required.';

/**
 * One ReplicaSet resize. `always`: write even at the same size when its replicas annotations are
 * stale (scale's proportional pass). The same ReplicaSet may come twice in a plan; the second
 * resize applies to what the first write returned.
 */
export interface ScaleOp {
  rs: ReplicaSet;
  to: number;
  always?: boolean;
}

/** The ScalingReplicaSet event message of scaleReplicaSet. */
export function scaledMessage(name: string, from: number, to: number): string {
  return `Scaled ${from < to ? 'up' : 'down'} replica set ${name} from ${from} to ${to}`;
}

/** An empty selector selects everything; the controller refuses it (SelectingAll). */
export function selectsAll(d: Deployment): boolean {
  const s = d.spec?.selector;
  return !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);
}

// ---- the new ReplicaSet ----

/**
 * The ReplicaSet getNewReplicaSet creates: named `<deployment>-<hash>` (deterministic, so a
 * retry after a slow cache finds it), the template and selector carrying the hash label, the
 * Deployment as controller, sized by NewRSNewReplicas, annotated with the revision and replicas.
 */
export function newReplicaSetFor(d: Deployment, oldRSs: readonly ReplicaSet[], newRevision: number): ReplicaSet {
  const template = deepCopyJSON(d.spec?.template ?? {});
  const hash = computeHash(template, d.status?.collisionCount);
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(d.spec?.template?.metadata?.labels ?? {}), [podTemplateHashLabel]: hash } };
  const selector = deepCopyJSON(d.spec?.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [podTemplateHashLabel]: hash };
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
      labels: { ...template.metadata.labels },
    },
    spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
  };
  rs.spec!.replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
  const annotations: Record<string, string> = {};
  setNewReplicaSetAnnotations(d, annotations, newRevision, false);
  rs.metadata.annotations = annotations;
  return rs;
}

/** The existing new ReplicaSet brought up to date (annotations, revision, minReadySeconds), or undefined when it already is. */
export function syncedNewReplicaSet(d: Deployment, rs: ReplicaSet, newRevision: number): ReplicaSet | undefined {
  const copy = deepCopyJSON(rs);
  const annotations = { ...(copy.metadata.annotations ?? {}) };
  const changed = setNewReplicaSetAnnotations(d, annotations, newRevision, true);
  const minReady = d.spec?.minReadySeconds ?? 0;
  if (!changed && (copy.spec?.minReadySeconds ?? 0) === minReady) return undefined;
  copy.metadata.annotations = annotations;
  copy.spec = { ...(copy.spec ?? {}), minReadySeconds: minReady };
  return copy;
}

// ---- scaling (sync.go scale) ----

/**
 * scale: one active ReplicaSet (or none) takes the whole count; a saturated new ReplicaSet
 * scales every old one to 0; otherwise, for RollingUpdate, the difference between
 * replicas+maxSurge and what the active ReplicaSets hold is shared out in proportion to their
 * max-replicas annotations, the leftover going to the first (largest; newer first when growing,
 * older first when shrinking).
 */
export function scalePlan(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ScaleOp[] {
  const want = replicasOf(d);
  const one = findActiveOrLatest(newRS, oldRSs);
  if (one) return rsReplicas(one) === want ? [] : [{ rs: one, to: want }];
  if (isSaturated(d, newRS)) return filterActive(oldRSs).map((rs) => ({ rs, to: 0 }));
  if (!isRollingUpdate(d)) return [];
  const all = filterActive([...oldRSs, newRS]);
  const allowed = want > 0 ? want + maxSurge(d) : 0;
  const toAdd = allowed - specReplicaCount(all);
  if (toAdd > 0) all.sort(bySizeNewer);
  else if (toAdd < 0) all.sort(bySizeOlder);
  let added = 0;
  const size = new Map<ReplicaSet, number>();
  for (const rs of all) {
    if (toAdd !== 0) {
      const p = getProportion(rs, d, toAdd, added);
      size.set(rs, rsReplicas(rs) + p);
      added += p;
    } else size.set(rs, rsReplicas(rs));
  }
  return all.map((rs, i) => {
    let to = size.get(rs)!;
    if (i === 0 && toAdd !== 0) to = Math.max(0, to + toAdd - added);
    return { rs, to, always: true };
  });
}

/** isScalingEvent: an active ReplicaSet whose desired-replicas annotation differs from spec.replicas. */
export function isScalingEvent(d: Deployment, allRSs: readonly (ReplicaSet | undefined)[]): boolean {
  return filterActive(allRSs).some((rs) => {
    const desired = desiredReplicasOf(rs);
    return desired !== undefined && desired !== replicasOf(d);
  });
}

// ---- RollingUpdate (rolling.go) ----

/** reconcileNewReplicaSet: the new ReplicaSet's next size, or undefined when it stays. */
export function reconcileNewReplicaSet(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number | undefined {
  const want = replicasOf(d);
  if (rsReplicas(newRS) === want) return undefined;
  if (rsReplicas(newRS) > want) return want;
  const n = newRSNewReplicas(d, allRSs, newRS);
  return n === rsReplicas(newRS) ? undefined : n;
}

export class ScaleDownError extends Error {}

/**
 * reconcileOldReplicaSets: how far the old ReplicaSets may shrink now. The budget is all pods
 * minus minAvailable minus the new ReplicaSet's unavailable ones; unhealthy old replicas go
 * first (cleanupUnhealthyReplicas, oldest ReplicaSet first), then available ones while more
 * than minAvailable are available (scaleDownOldReplicaSetsForRollingUpdate). The ops are in
 * the order they are to be written; `scaledDown` is the total (upstream's return value).
 */
export function reconcileOldReplicaSets(d: Deployment, allRSs: readonly ReplicaSet[], oldRSs: readonly ReplicaSet[], newRS: ReplicaSet): { ops: ScaleOp[]; scaledDown: number } {
  if (specReplicaCount(oldRSs) === 0) return { ops: [], scaledDown: 0 };
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = specReplicaCount(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return { ops: [], scaledDown: 0 };
  const ops: ScaleOp[] = [];
  // cleanupUnhealthyReplicas, on copies so the next step sees the sizes it leaves.
  const olds = [...oldRSs].sort(byCreation).map((rs) => deepCopyJSON(rs));
  let cleaned = 0;
  for (const rs of olds) {
    if (cleaned >= maxScaledDown) break;
    const size = rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (size === 0 || size === available) continue;
    const down = Math.min(maxScaledDown - cleaned, size - available);
    const to = size - down;
    if (to > size) throw new ScaleDownError(`when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata.namespace}/${rs.metadata.name} ${size} -> ${to}`);
    ops.push({ rs: oldRSs.find((o) => o.metadata.uid === rs.metadata.uid) ?? rs, to });
    rs.spec = { ...(rs.spec ?? {}), replicas: to };
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate
  const available = availableReplicaCount([...olds, newRS]);
  let scaled = 0;
  if (available > minAvailable) {
    const budget = available - minAvailable;
    for (const rs of olds) {
      if (scaled >= budget) break;
      const size = rsReplicas(rs);
      if (size === 0) continue;
      const down = Math.min(size, budget - scaled);
      const to = size - down;
      if (to > size) throw new ScaleDownError(`when scaling down old replica set, got invalid request to scale down ${rs.metadata.namespace}/${rs.metadata.name} ${size} -> ${to}`);
      // A ReplicaSet already cleaned is written again, from the size the first write left (the caller writes over its own result).
      ops.push({ rs: oldRSs.find((o) => o.metadata.uid === rs.metadata.uid) ?? rs, to });
      scaled += down;
    }
  }
  return { ops, scaledDown: cleaned + scaled };
}

// ---- Recreate (recreate.go) ----

/** oldPodsRunning: an old ReplicaSet still counts pods, or a pod of one is not finished. */
export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[], podsByRS: ReadonlyMap<string, readonly Pod[]>): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podsByRS) {
    if (newRS && newRS.metadata.uid === uid) continue;
    if (pods.some((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded')) return true;
  }
  return false;
}

// ---- cleanup ----

/**
 * cleanupDeployment: beyond revisionHistoryLimit, the oldest old ReplicaSets (by revision) that
 * are not being deleted, have 0 replicas in spec and status, and whose generation is observed.
 */
export function replicaSetsToCleanUp(d: Deployment, oldRSs: readonly ReplicaSet[]): ReplicaSet[] {
  if (!hasRevisionHistoryLimit(d)) return [];
  const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = alive.length - d.spec!.revisionHistoryLimit!;
  if (diff <= 0) return [];
  return [...alive]
    .sort(byRevision)
    .slice(0, diff)
    .filter((rs) => (rs.status?.replicas ?? 0) === 0 && rsReplicas(rs) === 0 && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0));
}

// ---- status (sync.go calculateStatus, progress.go) ----

function setOrDrop<K extends keyof DeploymentStatus>(s: DeploymentStatus, k: K, v: number): void {
  if (v) (s as Record<string, unknown>)[k] = v;
  else delete s[k];
}

/** calculateStatus: the counts summed over the ReplicaSets, observedGeneration, and Available. */
export function calculateStatus(allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment, now: Date): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const unavailable = Math.max(0, specReplicaCount(allRSs) - available);
  const s: DeploymentStatus = {};
  setOrDrop(s, 'observedGeneration', d.metadata.generation ?? 0);
  setOrDrop(s, 'replicas', actualReplicaCount(allRSs));
  setOrDrop(s, 'updatedReplicas', actualReplicaCount([newRS]));
  setOrDrop(s, 'readyReplicas', readyReplicaCount(allRSs));
  setOrDrop(s, 'availableReplicas', available);
  setOrDrop(s, 'unavailableReplicas', unavailable);
  if (d.status?.collisionCount !== undefined) s.collisionCount = d.status.collisionCount;
  if (d.status?.conditions) s.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setDeploymentCondition(s, newDeploymentCondition(conditionTypes.available, 'True', reasons.minimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setDeploymentCondition(s, newDeploymentCondition(conditionTypes.available, 'False', reasons.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return s;
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition first, then the old ones'. */
function replicaFailure(allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): AppsCondition | undefined {
  const from = (rs: ReplicaSet | undefined) => rs?.status?.conditions?.find((c) => c.type === conditionTypes.replicaFailure);
  const c = from(newRS) ?? allRSs.filter((rs) => rs && rs !== newRS).map(from).find((x) => x);
  if (!c) return undefined;
  return { type: c.type, status: c.status, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message };
}

export interface RolloutStatus {
  status: DeploymentStatus;
  /** Nothing differs from the stored status. */
  unchanged: boolean;
  /** Come back after this many ms to check the progress deadline (requeueStuckDeployment), when unchanged. */
  requeueAfterMs?: number;
}

/**
 * syncRolloutStatus: calculateStatus, then Progressing (with a deadline): NewReplicaSetAvailable
 * once complete, ReplicaSetUpdated (lastUpdateTime moved) on progress, ProgressDeadlineExceeded
 * once the deadline passes; ReplicaFailure carried over from the ReplicaSets.
 */
export function rolloutStatus(d: Deployment, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, now: Date): RolloutStatus {
  const s = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeDeploymentCondition(s, conditionTypes.progressing);
  const cur = getDeploymentCondition(d.status, conditionTypes.progressing);
  const complete = (s.replicas ?? 0) === (s.updatedReplicas ?? 0) && cur?.reason === reasons.newRSAvailable;
  const name = d.metadata.name;
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, s)) {
      const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" has successfully progressed.` : `Deployment "${name}" has successfully progressed.`;
      setDeploymentCondition(s, newDeploymentCondition(conditionTypes.progressing, 'True', reasons.newRSAvailable, msg, now));
    } else if (deploymentProgressing(d, s)) {
      const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" is progressing.` : `Deployment "${name}" is progressing.`;
      const c = newDeploymentCondition(conditionTypes.progressing, 'True', reasons.replicaSetUpdated, msg, now);
      // Progress moves lastUpdateTime even when the reason is the same; lastTransitionTime stays while True.
      if (cur) {
        if (cur.status === 'True') c.lastTransitionTime = cur.lastTransitionTime;
        removeDeploymentCondition(s, conditionTypes.progressing);
      }
      setDeploymentCondition(s, c);
    } else if (deploymentTimedOut(d, s, now)) {
      const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" has timed out progressing.` : `Deployment "${name}" has timed out progressing.`;
      setDeploymentCondition(s, newDeploymentCondition(conditionTypes.progressing, 'False', reasons.timedOut, msg, now));
    }
  }
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setDeploymentCondition(s, failure);
  else removeDeploymentCondition(s, conditionTypes.replicaFailure);
  const unchanged = statusEqual(d.status ?? {}, s);
  return { status: s, unchanged, requeueAfterMs: unchanged ? stuckRequeueMs(d, s, now) : undefined };
}

/** requeueStuckDeployment: when the Progressing condition's deadline falls, plus a second. */
function stuckRequeueMs(d: Deployment, s: DeploymentStatus, now: Date): number | undefined {
  const cur = getDeploymentCondition(d.status, conditionTypes.progressing);
  if (!hasProgressDeadline(d) || !cur) return undefined;
  if (deploymentComplete(d, s) || cur.reason === reasons.timedOut) return undefined;
  const after = (cur.lastUpdateTime ? Date.parse(cur.lastUpdateTime) : 0) + d.spec!.progressDeadlineSeconds! * 1000 - now.getTime();
  // Under a second: again soon (upstream: rate limited), so the timeout is noticed once it passes.
  return after < 1000 ? 250 : after + 1000;
}

/** reflect.DeepEqual over the status as JSON (key order aside). */
export function statusEqual(a: DeploymentStatus, b: DeploymentStatus): boolean {
  const norm = (s: DeploymentStatus) => JSON.stringify(Object.keys(s).sort().map((k) => [k, (s as Record<string, unknown>)[k]]));
  return norm(a) === norm(b);
}

/** checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed, unless it already timed out. Undefined: nothing to write. */
export function pausedConditionStatus(d: Deployment, now: Date): DeploymentStatus | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const cur = getDeploymentCondition(d.status, conditionTypes.progressing);
  if (cur?.reason === reasons.timedOut) return undefined;
  const pausedCond = cur?.reason === reasons.paused;
  const s: DeploymentStatus = deepCopyJSON(d.status ?? {});
  if (d.spec?.paused && !pausedCond) setDeploymentCondition(s, newDeploymentCondition(conditionTypes.progressing, 'Unknown', reasons.paused, 'Deployment is paused', now));
  else if (!d.spec?.paused && pausedCond) setDeploymentCondition(s, newDeploymentCondition(conditionTypes.progressing, 'Unknown', reasons.resumed, 'Deployment is resumed', now));
  else return undefined;
  return s;
}

/** Progressing True NewReplicaSetCreated "Created new replica set NAME" (set after the create, with a deadline). */
export function createdCondition(rsName: string, now: Date): AppsCondition {
  return newDeploymentCondition(conditionTypes.progressing, 'True', reasons.newReplicaSet, `Created new replica set "${rsName}"`, now);
}

/** Progressing True FoundNewReplicaSet (an existing new ReplicaSet, no Progressing condition yet). */
export function foundCondition(rsName: string, now: Date): AppsCondition {
  return newDeploymentCondition(conditionTypes.progressing, 'True', reasons.foundNewRS, `Found new replica set "${rsName}"`, now);
}

/** Progressing False ReplicaSetCreateError. */
export function failedCreateCondition(rsName: string, err: string, now: Date): { condition: AppsCondition; message: string } {
  const message = `Failed to create new replica set "${rsName}": ${err}`;
  return { condition: newDeploymentCondition(conditionTypes.progressing, 'False', reasons.failedRSCreate, message, now), message };
}
