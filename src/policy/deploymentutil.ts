// The Deployment controller's vocabulary (pkg/controller/deployment/util/deployment_util.go,
// intstr ValueOrDefault (the scaling itself is intorpercent.ts), and the ReplicaSet sorts
// and filters of pkg/controller/controller_utils.go): annotations and revisions, maxSurge and
// maxUnavailable, conditions, new and old ReplicaSets, proportions, and the tests of a complete,
// progressing or timed-out rollout. Pure; times are passed in.

import type { AppsCondition, Deployment, DeploymentStatus, IntOrString, PodTemplateSpec, ReplicaSet } from '../api/types.js';
import { stableJSON } from '../api/stablejson.js';
import { scaledValue } from './intorpercent.js';
import { metaTime } from '../api/metatime.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** apps.DefaultDeploymentUniqueLabelKey: the ComputeHash of the template on a Deployment's ReplicaSets and their pods. */
export const podTemplateHashLabel = 'pod-template-hash';
export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** extensions/v1beta1's rollback request, never copied (apps.DeprecatedRollbackTo). */
export const deprecatedRollbackTo = 'deprecated.deployment.rollback.to';
/** sync.go maxRevHistoryLengthInChars. */
export const maxRevHistoryLengthInChars = 2000;
const maxInt32 = 2147483647;

/** Condition reasons of deployment_util.go. */
export const reasons = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export const conditionTypes = { available: 'Available', progressing: 'Progressing', replicaFailure: 'ReplicaFailure' } as const;

export const replicasOf = (d: Deployment): number => d.spec?.replicas ?? 1;
export const rsReplicas = (rs: ReplicaSet | undefined): number => rs?.spec?.replicas ?? 0;

// ---- int-or-percent ----

/** ResolveFenceposts: surge rounds up, unavailable rounds down; both zero → unavailable 1 (surge might be blocked by quota). */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** The rollingUpdate parameters, defaulted to 25%/25% as SetDefaults_Deployment would have. */
function rollingParams(d: Deployment): { maxSurge?: IntOrString; maxUnavailable?: IntOrString } {
  return d.spec?.strategy?.rollingUpdate ?? { maxSurge: '25%', maxUnavailable: '25%' };
}

export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const p = rollingParams(d);
  return resolveFenceposts(p.maxSurge, p.maxUnavailable, replicasOf(d)).surge;
}

export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  const p = rollingParams(d);
  const u = resolveFenceposts(p.maxSurge, p.maxUnavailable, replicasOf(d)).unavailable;
  return Math.min(u, replicasOf(d));
}

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== maxInt32;
}

export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const s = d.spec?.revisionHistoryLimit;
  return s !== undefined && s !== null && s !== maxInt32;
}

// ---- conditions ----

export function getDeploymentCondition(status: DeploymentStatus | undefined, type: string): AppsCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function newDeploymentCondition(type: string, status: string, reason: string, message: string, now: Date): AppsCondition {
  const t = metaTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition: nothing when status and reason are unchanged; lastTransitionTime kept when the status is. */
export function setDeploymentCondition(status: DeploymentStatus, cond: AppsCondition): void {
  const cur = getDeploymentCondition(status, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return;
  const next = { ...cond };
  if (cur && cur.status === cond.status) next.lastTransitionTime = cur.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), next];
}

export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

// ---- revisions and annotations ----

/** Revision: the annotation as an integer; absent is 0, unparseable is undefined (skipped by MaxRevision). */
export function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } }): number | undefined {
  const v = obj.metadata?.annotations?.[revisionAnnotation];
  if (v === undefined) return 0;
  return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

const annotationsToSkip = new Set([lastAppliedAnnotation, revisionAnnotation, revisionHistoryAnnotation, desiredReplicasAnnotation, maxReplicasAnnotation, deprecatedRollbackTo]);

export function skipCopyAnnotation(key: string): boolean {
  return annotationsToSkip.has(key);
}

/** copyDeploymentAnnotationsToReplicaSet: every annotation but the skipped ones; true when one changed. */
function copyDeploymentAnnotations(d: Deployment, annotations: Record<string, string>): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (skipCopyAnnotation(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when one changed. */
export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let changed = false;
  if (annotations[desiredReplicasAnnotation] !== String(desired)) {
    annotations[desiredReplicasAnnotation] = String(desired);
    changed = true;
  }
  if (annotations[maxReplicasAnnotation] !== String(max)) {
    annotations[maxReplicasAnnotation] = String(max);
    changed = true;
  }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations;
  return !a || a[desiredReplicasAnnotation] !== String(desired) || a[maxReplicasAnnotation] !== String(max);
}

/**
 * SetNewReplicaSetAnnotations: the Deployment's annotations copied; the revision raised to
 * `newRevision` when lower, the old one appended to revision-history when there was one (the
 * template came back: a rollback, or undo), the history trimmed from the front to 2000 chars;
 * and for a ReplicaSet about to be created, the replicas annotations. Mutates `annotations`;
 * true when something changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, annotations: Record<string, string>, newRevision: number, exists: boolean, limit = maxRevHistoryLengthInChars): boolean {
  let changed = copyDeploymentAnnotations(d, annotations);
  const had = Object.prototype.hasOwnProperty.call(annotations, revisionAnnotation);
  const oldRevision = annotations[revisionAnnotation] ?? '';
  let oldInt = 0;
  if (oldRevision !== '') {
    if (!/^[+-]?\d+$/.test(oldRevision)) return false;
    oldInt = Number(oldRevision);
  }
  if (oldInt < newRevision) {
    annotations[revisionAnnotation] = String(newRevision);
    changed = true;
  }
  if (had && oldInt < newRevision) {
    const history = annotations[revisionHistoryAnnotation] ?? '';
    const olds = history.split(',');
    if (olds[0]!.length === 0) annotations[revisionHistoryAnnotation] = oldRevision;
    else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > limit && start < olds.length) {
        total -= olds[start]!.length + 1;
        start++;
      }
      if (total <= limit) annotations[revisionHistoryAnnotation] = [...olds.slice(start), oldRevision].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(annotations, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

// ---- ReplicaSet selection ----

const created = (rs: ReplicaSet) => (rs.metadata.creationTimestamp ? Date.parse(rs.metadata.creationTimestamp) : 0);

/** ReplicaSetsByCreationTimestamp: older first, name as the tie breaker. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = created(a) - created(b);
  if (d !== 0) return d;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** ReplicaSetsBySizeNewer: larger first, then newer first. */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(a) !== rsReplicas(b) ? rsReplicas(b) - rsReplicas(a) : byCreation(b, a);
}

/** ReplicaSetsBySizeOlder: larger first, then older first. */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(a) !== rsReplicas(b) ? rsReplicas(b) - rsReplicas(a) : byCreation(a, b);
}

/** ReplicaSetsByRevision: lower revision first; creation time when equal or unparseable. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b);
  return ra - rb;
}

/** EqualIgnoreHash: the templates equal once the pod-template-hash label is dropped from both. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined) => {
    const c = deepCopyJSON(t ?? {});
    if (c.metadata?.labels) delete c.metadata.labels[podTemplateHashLabel];
    return stableJSON(dropEmptyCollections(c));
  };
  return strip(a) === strip(b);
}

/**
 * Semantic.DeepEqual holds an empty slice or map equal to an absent one: empty arrays, and the
 * empty label and annotation maps, are dropped before comparing. (An empty struct is not a nil
 * pointer in Go, so other empty objects stay.)
 */
function dropEmptyCollections(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => dropEmptyCollections(x));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = dropEmptyCollections(x, k);
      if (Array.isArray(y) && y.length === 0) continue;
      if ((k === 'labels' || k === 'annotations' || k === 'nodeSelector') && y && typeof y === 'object' && Object.keys(y).length === 0) continue;
      if (y === null && key === 'metadata' && k === 'creationTimestamp') continue;
      out[k] = y;
    }
    return out;
  }
  return v;
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** FindOldReplicaSets: every ReplicaSet but the new one. */
export function findOldReplicaSets(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet[] {
  const n = findNewReplicaSet(d, rss);
  return rss.filter((rs) => !n || rs.metadata.uid !== n.metadata.uid);
}

export function filterActive(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => !!rs && rsReplicas(rs) > 0);
}

const sum = (rss: readonly (ReplicaSet | undefined)[], f: (rs: ReplicaSet) => number) => rss.reduce((n, rs) => n + (rs ? f(rs) : 0), 0);
export const specReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) => sum(rss, rsReplicas);
export const actualReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.replicas ?? 0);
export const readyReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.readyReplicas ?? 0);
export const availableReplicaCount = (rss: readonly (ReplicaSet | undefined)[]) => sum(rss, (rs) => rs.status?.availableReplicas ?? 0);

/** FindActiveOrLatest: the one active ReplicaSet, or the newest when none is; undefined when several are. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const olds = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = filterActive([...olds, newRS]);
  if (active.length === 0) return newRS ?? olds[0];
  if (active.length === 1) return active[0];
  return undefined;
}

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

export const desiredReplicasOf = (rs: ReplicaSet) => intAnnotation(rs, desiredReplicasAnnotation);

/** IsSaturated: the new ReplicaSet holds all the Deployment's replicas, and all are available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasOf(rs);
  if (desired === undefined) return false;
  return rsReplicas(rs) === replicasOf(d) && desired === replicasOf(d) && (rs.status?.availableReplicas ?? 0) === replicasOf(d);
}

/** NewRSNewReplicas: how large the new ReplicaSet may be now (surge-bounded for rolling, all at once for Recreate). */
export function newRSNewReplicas(d: Deployment, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const current = specReplicaCount(allRSs);
  const maxTotal = replicasOf(d) + maxSurge(d);
  if (current >= maxTotal) return rsReplicas(newRS);
  const up = Math.min(maxTotal - current, replicasOf(d) - rsReplicas(newRS));
  return rsReplicas(newRS) + up;
}

/** getReplicaSetFraction: this ReplicaSet's share of a resize, from its max-replicas annotation. */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (replicasOf(d) === 0) return -rsReplicas(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const annotated = intAnnotation(rs, maxReplicasAnnotation) ?? d.status?.replicas ?? 0;
  // integer.RoundToInt32: half away from zero.
  const size = (rsReplicas(rs) * deploymentReplicas) / annotated;
  return (size < 0 ? -Math.round(-size) : Math.round(size)) - rsReplicas(rs);
}

/** GetProportion: the fraction, bounded by what is left to add (or remove). */
export function getProportion(rs: ReplicaSet | undefined, d: Deployment, toAdd: number, added: number): number {
  if (!rs || rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---- rollout state ----

/** DeploymentComplete: every desired replica updated and available, no old ones, this generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const r = replicasOf(d);
  return (s.updatedReplicas ?? 0) === r && (s.replicas ?? 0) === r && (s.availableReplicas ?? 0) === r && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** DeploymentProgressing: more updated, ready or available replicas than before, or fewer old ones. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = d.status ?? {};
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}

/** DeploymentTimedOut: the Progressing condition's lastUpdateTime + progressDeadlineSeconds is before now. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: Date): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(s, conditionTypes.progressing);
  if (!c) return false;
  if (c.reason === reasons.newRSAvailable) return false;
  if (c.reason === reasons.timedOut) return true;
  const from = c.lastUpdateTime ? Date.parse(c.lastUpdateTime) : 0;
  return from + d.spec!.progressDeadlineSeconds! * 1000 < now.getTime();
}
