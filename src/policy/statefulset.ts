// The StatefulSet controller's decisions, as pure functions (pkg/controller/statefulset:
// stateful_set_utils.go for identities, revisions and status helpers; stateful_set_control.go
// getStatefulSetRevisions, updateStatefulSet, processReplica, processCondemned, truncateHistory;
// stateful_pod_control.go for the event wording). Given the set, its pods, its revisions and the
// time: which revision is current and which is the update, which pods to create, update or delete
// in which order, and the status. The controller (src/controllers/statefulset.ts) does the I/O
// and stops at the first write that fails, as upstream's sync returns at its first error.
//
// OrderedReady ("monotonic"): ordinals are created one at a time from the lowest, each only once
// every lower one is Running and Ready (and available for minReadySeconds); scale down removes
// the highest ordinal first, one per sync, and waits on unhealthy pods. Parallel: everything at
// once. RollingUpdate deletes the highest pod not at the update revision, down to the partition,
// one at a time, waiting for each replacement to be available; OnDelete waits for users to delete.
// Pods get `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` (PodIndexLabel,
// on by default since 1.32) and `controller-revision-hash` (the update or current revision's
// name); hostname and subdomain come from the pod name and spec.serviceName on creation only.
//
// volumeClaimTemplates: PersistentVolumeClaims are not served by Bulkhead. The pod still gets its
// claim volumes (updateStorage), and the controller creates each claim before its pod as upstream
// does; the API answers 404, so the create fails with upstream's FailedCreate events and no pod of
// such a set is ever created (the set is refused, visibly, rather than run without its storage).

import type { ControllerRevision, Pod, StatefulSet, StatefulSetStatus, Volume } from '../api/types.js';
import { controllerRevisionHashLabel, findEqualRevisions, equalRevision, hashRevisionData, nextRevision, revisionName, revisionsToPrune } from './controllerrevision.js';
import { isPodAvailable, isPodReady } from './activepods.js';
import { newControllerRef } from './controllerref.js';
import { podFromTemplate } from './podtemplate.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export const statefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';
/** apps.StatefulSetRevisionLabel (== ControllerRevisionHashLabelKey). */
export const statefulSetRevisionLabel = 'controller-revision-hash';
export const statefulSetApiVersion = 'apps/v1';
export const statefulSetKind = 'StatefulSet';

/** Defaults of apps/v1 (SetDefaults_StatefulSet) for a set read before they were applied. */
export const replicasOf = (set: StatefulSet) => set.spec?.replicas ?? 1;
export const startOrdinal = (set: StatefulSet) => set.spec?.ordinals?.start ?? 0;
export const endOrdinal = (set: StatefulSet) => startOrdinal(set) + replicasOf(set) - 1;
const updateStrategyType = (set: StatefulSet) => set.spec?.updateStrategy?.type ?? 'RollingUpdate';
const minReadySeconds = (set: StatefulSet) => set.spec?.minReadySeconds ?? 0;
/** allowsBurst: podManagementPolicy Parallel. */
export const allowsBurst = (set: StatefulSet) => set.spec?.podManagementPolicy === 'Parallel';

const statefulPodRegex = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: `web-3` → web, 3; ordinal -1 when the name has none (or it overflows int32). */
export function parentNameAndOrdinal(name: string | undefined): { parent: string; ordinal: number } {
  const m = statefulPodRegex.exec(name ?? '');
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return { parent: m[1]!, ordinal: Number.isSafeInteger(n) && n <= 0x7fffffff ? n : -1 };
}

export const ordinalOf = (pod: Pod) => parentNameAndOrdinal(pod.metadata.name).ordinal;
export const podName = (set: StatefulSet, ordinal: number) => `${set.metadata.name}-${ordinal}`;
export const podInOrdinalRange = (pod: Pod, set: StatefulSet) => ordinalOf(pod) >= startOrdinal(set) && ordinalOf(pod) <= endOrdinal(set);
/** isMemberOf: the pod's name says it belongs to the set (the ClaimPods filter). */
export const isMemberOf = (set: StatefulSet, pod: Pod) => parentNameAndOrdinal(pod.metadata.name).parent === set.metadata.name;
export const podRevision = (pod: Pod) => pod.metadata.labels?.[statefulSetRevisionLabel] ?? '';

export const isCreated = (pod: Pod) => !!pod.status?.phase;
const isFailed = (pod: Pod) => pod.status?.phase === 'Failed';
const isSucceeded = (pod: Pod) => pod.status?.phase === 'Succeeded';
export const isTerminating = (pod: Pod) => !!pod.metadata.deletionTimestamp;
/** isRunningAndReady: phase Running and the Ready condition True. */
export const isRunningAndReady = (pod: Pod) => pod.status?.phase === 'Running' && isPodReady(pod);
/** isUnavailable: not available for minReadySeconds, or terminating. */
export const isUnavailable = (pod: Pod, minReady: number, nowMs: number) => !isPodAvailable(pod, minReady, new Date(nowMs)) || isTerminating(pod);

/** identityMatches: name, namespace and the pod-name label agree with the set and ordinal. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentNameAndOrdinal(pod.metadata.name);
  return ordinal >= 0 && set.metadata.name === parent && pod.metadata.name === podName(set, ordinal) && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[statefulSetPodNameLabel] === pod.metadata.name;
}

/** getPersistentVolumeClaimName: `claim-set-ordinal`. */
export const claimName = (set: StatefulSet, template: string, ordinal: number) => `${template}-${set.metadata.name}-${ordinal}`;

/** The claims a pod of the set needs (getPersistentVolumeClaims): template name → the claim. */
export function podClaims(set: StatefulSet, ordinal: number): { template: string; claim: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: unknown } }[] {
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => {
    const tpl = deepCopyJSON(t) as { metadata?: { name?: string; labels?: Record<string, string> }; spec?: unknown };
    const name = claimName(set, tpl.metadata?.name ?? '', ordinal);
    const labels = { ...(tpl.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    return { template: tpl.metadata?.name ?? '', claim: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { ...tpl.metadata, name, namespace: set.metadata.namespace, labels }, spec: tpl.spec } };
  });
}

/** storageMatches: every claim template has its volume pointing at the pod's claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec.volumes ?? []).map((v) => [v.name, v]));
  for (const { template, claim } of podClaims(set, ordinal)) {
    const v = volumes.get(template) as { persistentVolumeClaim?: { claimName?: string } } | undefined;
    if (v?.persistentVolumeClaim?.claimName !== claim.metadata.name) return false;
  }
  return true;
}

/** updateStorage: the claim volumes first, then the pod's other volumes. */
function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = podClaims(set, ordinalOf(pod));
  if (claims.length === 0) return;
  const names = new Set(claims.map((c) => c.template));
  const vols: Volume[] = claims.map((c) => ({ name: c.template, persistentVolumeClaim: { claimName: c.claim.metadata.name } }));
  pod.spec.volumes = [...vols, ...(pod.spec.volumes ?? []).filter((v) => !names.has(v.name))];
}

/** updateIdentity: name, namespace, the pod-name and pod-index labels. */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [statefulSetPodNameLabel]: pod.metadata.name, [podIndexLabel]: String(ordinal) };
}

/** The pod of an ordinal (newStatefulSetPod): the template, the identity, hostname and subdomain, storage. */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const pod = podFromTemplate(set.spec?.template, set.metadata.name ?? '', newControllerRef(set, statefulSetApiVersion, statefulSetKind));
  pod.metadata.name = podName(set, ordinal);
  updateIdentity(set, pod);
  // initIdentity: hostname and subdomain are immutable, so set on creation only.
  pod.spec.hostname = pod.metadata.name;
  if (set.spec?.serviceName) pod.spec.subdomain = set.spec.serviceName;
  updateStorage(set, pod);
  return pod;
}

/**
 * newVersionedStatefulSetPod: an ordinal below the partition (or, without rollingUpdate, below
 * the current replicas) is made from the current revision, the others from the update revision.
 * The condition groups as upstream's Go does (`a && b || c`).
 */
export function newVersionedStatefulSetPod(currentSet: StatefulSet, updateSet: StatefulSet, currentRevision: string, updateRevision: string, ordinal: number): Pod {
  const ru = currentSet.spec?.updateStrategy?.rollingUpdate;
  const start = startOrdinal(currentSet);
  const useCurrent = (updateStrategyType(currentSet) === 'RollingUpdate' && !ru && ordinal < start + (currentSet.status?.currentReplicas ?? 0)) || (!!ru && ordinal < start + (ru.partition ?? 0));
  const pod = newStatefulSetPod(useCurrent ? currentSet : updateSet, ordinal);
  pod.metadata.labels = { ...pod.metadata.labels, [statefulSetRevisionLabel]: useCurrent ? currentRevision : updateRevision };
  return pod;
}

// ---------------------------------------------------------------- revisions

/** getPatch: what a revision stores, the template to put back (`$patch: replace`). */
export function statefulSetPatch(set: StatefulSet): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...(deepCopyJSON(set.spec?.template ?? {}) as Record<string, unknown>), $patch: 'replace' } } };
}

/**
 * newRevision (history.NewControllerRevision): the patch as data, the template's labels plus the
 * hash, the set's annotations (so `kubernetes.io/change-cause` shows in `kubectl rollout
 * history`), the controller reference, named `<set>-<hash>`.
 */
export function newStatefulSetRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const data = statefulSetPatch(set);
  const hash = hashRevisionData(data, collisionCount);
  const metadata: ControllerRevision['metadata'] = {
    name: revisionName(set.metadata.name ?? '', hash),
    namespace: set.metadata.namespace,
    labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [controllerRevisionHashLabel]: hash },
    ownerReferences: [newControllerRef(set, statefulSetApiVersion, statefulSetKind)],
  };
  if (set.metadata.annotations && Object.keys(set.metadata.annotations).length) metadata.annotations = { ...set.metadata.annotations };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data, revision };
}

/** ApplyRevision: the set with the revision's template (the strategic merge patch's `$patch: replace`). */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const clone = deepCopyJSON(set);
  const tpl = (revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template;
  if (tpl) {
    const { $patch: _ignored, ...template } = deepCopyJSON(tpl);
    clone.spec = { ...clone.spec, template };
  }
  return clone;
}

/** What getStatefulSetRevisions does about the update revision. */
export type UpdateRevisionStep =
  | { kind: 'unchanged'; revision: ControllerRevision }
  | { kind: 'rollback'; revision: ControllerRevision; to: number }
  | { kind: 'create'; revision: ControllerRevision };

/**
 * getStatefulSetRevisions, decided: the newest revision equal to the set's template is the update
 * revision (kept if it is the newest, renumbered to the next revision if older: a rollback);
 * otherwise a new one is created. The current revision is status.currentRevision when it still
 * exists, else the update revision.
 */
export function decideRevisions(set: StatefulSet, sorted: readonly ControllerRevision[]): { update: UpdateRevisionStep; currentName?: string; collisionCount: number } {
  const collisionCount = set.status?.collisionCount ?? 0;
  const candidate = newStatefulSetRevision(set, nextRevision(sorted), collisionCount);
  const equal = findEqualRevisions(sorted, candidate);
  let update: UpdateRevisionStep;
  if (equal.length > 0 && equalRevision(sorted[sorted.length - 1], equal[equal.length - 1])) update = { kind: 'unchanged', revision: sorted[sorted.length - 1]! };
  else if (equal.length > 0) update = { kind: 'rollback', revision: equal[equal.length - 1]!, to: candidate.revision! };
  else update = { kind: 'create', revision: candidate };
  const current = sorted.find((r) => r.metadata.name === set.status?.currentRevision);
  return { update, currentName: current?.metadata.name, collisionCount };
}

/** truncateHistory: the non-live revisions beyond revisionHistoryLimit, oldest first. */
export function statefulSetHistoryToPrune(set: StatefulSet, pods: readonly Pod[], sorted: readonly ControllerRevision[], current: string, update: string): ControllerRevision[] {
  const live = new Set([current, update, ...pods.map(podRevision)]);
  return revisionsToPrune(sorted, live, set.spec?.revisionHistoryLimit ?? 10);
}

// ---------------------------------------------------------------- the sync

export type StatefulSetAction =
  | { type: 'create'; pod: Pod }
  | { type: 'update'; pod: Pod }
  | { type: 'delete'; pod: Pod; why: 'failed' | 'scaleDown' | 'update' };

export interface StatefulSetPlan {
  /** In order; the controller stops at the first that fails. */
  actions: StatefulSetAction[];
  status: StatefulSetStatus;
  /** Why the sync stopped short (a pod it waits on), for logs and tests. */
  waitingOn?: string;
}

function countStatus(status: StatefulSetStatus, pods: readonly Pod[], minReady: number, current: string, update: string, nowMs: number): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const pod of pods) {
    if (isCreated(pod)) status.replicas++;
    if (isRunningAndReady(pod)) {
      status.readyReplicas++;
      if (isPodAvailable(pod, minReady, new Date(nowMs))) status.availableReplicas++;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      const rev = podRevision(pod);
      if (rev === current) status.currentReplicas++;
      if (rev === update) status.updatedReplicas++;
    }
  }
}

/**
 * updateStatefulSet: the actions of one sync and the status it reports. `currentRevision` and
 * `updateRevision` are the revisions decideRevisions settled on (created or renumbered first).
 */
export function planStatefulSet(set: StatefulSet, pods: readonly Pod[], currentRevision: ControllerRevision, updateRevision: ControllerRevision, collisionCount: number, nowMs: number): StatefulSetPlan {
  const currentSet = applyRevision(set, currentRevision);
  const updateSet = applyRevision(set, updateRevision);
  const cur = currentRevision.metadata.name ?? '';
  const upd = updateRevision.metadata.name ?? '';
  const minReady = minReadySeconds(set);
  const status: StatefulSetStatus = { observedGeneration: set.metadata.generation, currentRevision: cur, updateRevision: upd, collisionCount };
  countStatus(status, pods, minReady, cur, upd, nowMs);

  const start = startOrdinal(set);
  const replicas: Pod[] = new Array(replicasOf(set));
  const condemned: Pod[] = [];
  for (const pod of pods) {
    if (podInOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
    else if (ordinalOf(pod) >= 0) condemned.push(pod);
  }
  const created = new Set<Pod>();
  for (let i = 0; i < replicas.length; i++) {
    if (!replicas[i]) {
      replicas[i] = newVersionedStatefulSetPod(currentSet, updateSet, cur, upd, start + i);
      created.add(replicas[i]!);
    }
  }
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  let firstUnavailable: Pod | undefined = replicas.find((p) => isUnavailable(p, minReady, nowMs));
  if (!firstUnavailable) for (let i = condemned.length - 1; i >= 0; i--) if (isUnavailable(condemned[i]!, minReady, nowMs)) { firstUnavailable = condemned[i]; break; }

  if (set.metadata.deletionTimestamp) return { actions: [], status };

  const monotonic = !allowsBurst(set);
  const actions: StatefulSetAction[] = [];
  const done = (waitingOn?: string): StatefulSetPlan => {
    countStatus(status, [...replicas, ...condemned], minReady, cur, upd, nowMs);
    return { actions, status, waitingOn };
  };

  // The replicas in ordinal order (processReplica).
  for (const pod of replicas) {
    if (!created.has(pod) && (isFailed(pod) || isSucceeded(pod))) {
      if (!isTerminating(pod)) actions.push({ type: 'delete', pod, why: 'failed' });
      // The replacement comes on a sync after the old pod is gone.
      if (monotonic) return done(pod.metadata.name);
      continue;
    }
    if (created.has(pod)) {
      actions.push({ type: 'create', pod });
      if (monotonic) return done(pod.metadata.name);
      continue;
    }
    if (monotonic && isTerminating(pod)) return done(pod.metadata.name);
    if (monotonic && !isRunningAndReady(pod)) return done(pod.metadata.name);
    if (monotonic && !isPodAvailable(pod, minReady, new Date(nowMs))) return done(pod.metadata.name);
    if (identityMatches(set, pod) && storageMatches(set, pod)) continue;
    const fixed = deepCopyJSON(pod) as Pod;
    updateIdentity(updateSet, fixed);
    updateStorage(updateSet, fixed);
    actions.push({ type: 'update', pod: fixed });
  }

  // Scale down from the highest ordinal (processCondemned).
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return done(pod.metadata.name);
      continue;
    }
    if (monotonic && pod !== firstUnavailable && (!isRunningAndReady(pod) || !isPodAvailable(pod, minReady, new Date(nowMs)))) return done(firstUnavailable?.metadata.name);
    actions.push({ type: 'delete', pod, why: 'scaleDown' });
    if (monotonic) return done();
  }

  countStatus(status, [...replicas, ...condemned], minReady, cur, upd, nowMs);
  if (updateStrategyType(set) === 'OnDelete') return { actions, status };

  // RollingUpdate: the highest ordinal not at the update revision, down to the partition.
  const updateMin = set.spec?.updateStrategy?.rollingUpdate ? (set.spec.updateStrategy.rollingUpdate.partition ?? 0) : 0;
  for (let target = replicas.length - 1; target >= updateMin; target--) {
    const pod = replicas[target]!;
    if (podRevision(pod) !== upd && !isTerminating(pod)) {
      actions.push({ type: 'delete', pod, why: 'update' });
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
      return { actions, status };
    }
    if (isUnavailable(pod, minReady, nowMs)) return { actions, status, waitingOn: pod.metadata.name };
  }
  return { actions, status };
}

/** completeRollingUpdate: once every replica is updated and ready, the update revision is current. */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  const n = replicasOf(set);
  if (updateStrategyType(set) === 'RollingUpdate' && status.updatedReplicas === n && status.readyReplicas === n && status.replicas === n) {
    return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
  }
  return status;
}

/** inconsistentStatus: whether the status must be written. */
export function statusChanged(set: StatefulSet, status: StatefulSetStatus): boolean {
  const s = set.status ?? {};
  return (status.observedGeneration ?? 0) > (s.observedGeneration ?? 0) ||
    (status.replicas ?? 0) !== (s.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (s.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (s.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (s.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (s.currentRevision ?? '') ||
    (status.availableReplicas ?? 0) !== (s.availableReplicas ?? 0) ||
    (status.updateRevision ?? '') !== (s.updateRevision ?? '');
}

/** stateful_pod_control.go recordPodEvent: `create Pod web-0 in StatefulSet web successful`. */
export function podEvent(verb: 'create' | 'update' | 'delete', set: StatefulSet, pod: string, err?: string): { type: 'Normal' | 'Warning'; reason: string; message: string } {
  const title = verb[0]!.toUpperCase() + verb.slice(1);
  if (err === undefined) return { type: 'Normal', reason: `Successful${title}`, message: `${verb} Pod ${pod} in StatefulSet ${set.metadata.name} successful` };
  return { type: 'Warning', reason: `Failed${title}`, message: `${verb} Pod ${pod} in StatefulSet ${set.metadata.name} failed error: ${err}` };
}

/** recordClaimEvent: `create Claim data-web-0 Pod web-0 in StatefulSet web success`. */
export function claimEvent(set: StatefulSet, pod: string, claim: string, err?: string): { type: 'Normal' | 'Warning'; reason: string; message: string } {
  if (err === undefined) return { type: 'Normal', reason: 'SuccessfulCreate', message: `create Claim ${claim} Pod ${pod} in StatefulSet ${set.metadata.name} success` };
  return { type: 'Warning', reason: 'FailedCreate', message: `create Claim ${claim} for Pod ${pod} in StatefulSet ${set.metadata.name} failed error: ${err}` };
}
