// The DaemonSet controller's decisions, as pure functions (pkg/controller/daemon:
// daemon_controller.go podsShouldBeOnNode, manage, getUnscheduledPodsWithoutNode,
// updateDaemonSetStatus; update.go rollingUpdate, findUpdatedPodsOnNode, updatedDesiredNodeCounts,
// constructHistory, snapshot, cleanupHistory, getPatch; util/daemonset_util.go CreatePodTemplate,
// AddOrUpdateDaemonPodTolerations, ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName,
// IsPodUpdated, SurgeCount, UnavailableCount). Which nodes should run a daemon pod is the
// scheduler's predicates' business (src/scheduler/daemonsetnode.ts); the results arrive here as
// `NodeEligibility`. No I/O, no clock: the time is an argument.
//
// A daemon pod is not bound by the controller: its template gets a required node affinity on
// `metadata.name` for its node (matchFields), and the scheduler places it, as upstream does since
// ScheduleDaemonSetPods went GA.

import type { Affinity, ControllerRevision, DaemonSet, DaemonSetStatus, Pod, PodSpec, PodTemplateSpec, Toleration } from '../api/types.js';
import { isPodAvailable, isPodReady } from './activepods.js';
import { newControllerRef } from './controllerref.js';
import { goJSON } from './controllerrevision.js';
import { computeHash } from './hash.js';
import { scaledValue } from './intorpercent.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** apps.DefaultDaemonSetUniqueLabelKey: the revision hash on daemon pods and revisions. */
export const daemonSetRevisionLabel = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey (deprecated, still written). */
export const templateGenerationLabel = 'pod-template-generation';
/** The annotation the API server keeps the template generation in (apps.DeprecatedTemplateGeneration). */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';
export const daemonSetApiVersion = 'apps/v1';
export const daemonSetKind = 'DaemonSet';
/** kube-controller-manager's BurstReplicas for daemon sets: at most this many creations or deletions per sync. */
export const burstReplicas = 250;

/** What the scheduler's predicates say of one node for the set (NodeShouldRunDaemonPod). */
export interface NodeEligibility {
  name: string;
  /** A daemon pod should be created here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay (it tolerates the NoExecute taints). */
  shouldContinueRunning: boolean;
}

// ---------------------------------------------------------------- the pod

const taintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  unschedulable: 'node.kubernetes.io/unschedulable',
  networkUnavailable: 'node.kubernetes.io/network-unavailable',
};

/** The tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations), in upstream's order. */
export function daemonPodTolerations(hostNetwork: boolean): Toleration[] {
  const t = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  const out = [
    t(taintKeys.notReady, 'NoExecute'),
    t(taintKeys.unreachable, 'NoExecute'),
    t(taintKeys.diskPressure, 'NoSchedule'),
    t(taintKeys.memoryPressure, 'NoSchedule'),
    t(taintKeys.pidPressure, 'NoSchedule'),
    t(taintKeys.unschedulable, 'NoSchedule'),
  ];
  if (hostNetwork) out.push(t(taintKeys.networkUnavailable, 'NoSchedule'));
  return out;
}

const sameToleration = (a: Toleration, b: Toleration) => (a.key ?? '') === (b.key ?? '') && (a.effect ?? '') === (b.effect ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '');

/** AddOrUpdateTolerationInPodSpec for each default: one matching key/operator/value/effect is replaced, else appended. */
export function addDaemonPodTolerations(spec: PodSpec): void {
  let tolerations = [...(spec.tolerations ?? [])];
  for (const want of daemonPodTolerations(!!spec.hostNetwork)) {
    let found = false;
    tolerations = tolerations.map((t) => {
      if (!sameToleration(t, want)) return t;
      found = true;
      return { ...want };
    });
    if (!found) tolerations.push(want);
  }
  spec.tolerations = tolerations;
}

/** GetTemplateGeneration: the API server's annotation, when it parses. */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const v = ds.metadata.annotations?.[templateGenerationAnnotation];
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}

/** CreatePodTemplate: the default tolerations, the generation label and the revision hash label. */
export function daemonPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const t = deepCopyJSON(ds.spec?.template ?? {}) as PodTemplateSpec;
  t.spec ??= { containers: [] };
  addDaemonPodTolerations(t.spec);
  t.metadata = { ...t.metadata, labels: { ...(t.metadata?.labels ?? {}) } };
  const gen = templateGeneration(ds);
  if (gen !== undefined) t.metadata.labels![templateGenerationLabel] = String(gen);
  if (hash) t.metadata.labels![daemonSetRevisionLabel] = hash;
  return t;
}

/** NewPod: the pod the predicates judge for a node (the template, the node's name, the default tolerations). */
export function daemonPodForNode(ds: DaemonSet, nodeName: string): Pod {
  const spec = deepCopyJSON(ds.spec?.template?.spec ?? { containers: [] }) as PodSpec;
  spec.nodeName = nodeName;
  addDaemonPodTolerations(spec);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { ...deepCopyJSON(ds.spec?.template?.metadata ?? {}), namespace: ds.metadata.namespace }, spec };
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term, `metadata.name In [node]`. */
export function nodeNameAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const a = deepCopyJSON(affinity ?? {}) as Affinity;
  const na = a.nodeAffinity ?? {};
  na.requiredDuringSchedulingIgnoredDuringExecution = { ...(na.requiredDuringSchedulingIgnoredDuringExecution ?? {}), nodeSelectorTerms: [term] };
  a.nodeAffinity = na;
  return a;
}

/** GetTargetNodeName: spec.nodeName, else the `metadata.name In [one]` of the required node affinity. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const na = pod.spec.affinity?.nodeAffinity;
  for (const term of na?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In') return f.values?.length === 1 ? f.values[0] : undefined;
    }
  }
  return undefined;
}

const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/**
 * getNodesToDaemonPods: the set's pods by the node they run on or are meant for; terminal pods
 * being deleted are left out unless asked for (cleanupHistory counts them).
 */
export function nodesToDaemonPods(pods: readonly Pod[], includeDeletedTerminal = false): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const p of pods) {
    if (!includeDeletedTerminal && isTerminal(p) && p.metadata.deletionTimestamp) continue;
    const node = targetNodeName(p);
    if (!node) continue;
    let list = out.get(node);
    if (!list) out.set(node, (list = []));
    list.push(p);
  }
  return out;
}

/** podByCreationTimestampAndPhase: bound pods first, then the oldest, then by name. */
export function byCreationTimestampAndPhase(a: Pod, b: Pod): number {
  const sa = !!a.spec.nodeName;
  const sb = !!b.spec.nodeName;
  if (sa !== sb) return sa ? -1 : 1;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta === tb) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
  return ta < tb ? -1 : 1;
}

/** IsPodUpdated: the pod carries the current hash (or, for old pods, the template generation). */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const templateMatches = generation !== undefined && pod.metadata.labels?.[templateGenerationLabel] === String(generation);
  const hashMatches = hash.length > 0 && pod.metadata.labels?.[daemonSetRevisionLabel] === hash;
  return hashMatches || templateMatches;
}

// ---------------------------------------------------------------- rollout arithmetic

const isRollingUpdate = (ds: DaemonSet) => (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** SurgeCount: maxSurge of the number to schedule, rounded up; 0 unless RollingUpdate. */
export function surgeCount(ds: DaemonSet, numberToSchedule: number): number {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  if (!isRollingUpdate(ds) || !ru || ru.maxSurge === undefined) return 0;
  return scaledValue(ru.maxSurge, numberToSchedule, true);
}

/** UnavailableCount: maxUnavailable of the number to schedule, rounded up; 0 unless RollingUpdate. */
export function unavailableCount(ds: DaemonSet, numberToSchedule: number): number {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  if (!isRollingUpdate(ds) || !ru) return 0;
  // SetDefaults_DaemonSet's 1 for a set written before the default existed.
  return scaledValue(ru.maxUnavailable ?? 1, numberToSchedule, true);
}

/** AllowsSurge. */
export function allowsSurge(ds: DaemonSet): boolean {
  try {
    return surgeCount(ds, 1) !== 0;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- manage

export interface ManagePlan {
  /** Nodes that need a daemon pod created (syncNodes' nodesNeedingDaemonPods). */
  createOn: string[];
  /** Pods to delete. */
  delete: string[];
  /** Failed pods found (each becomes a FailedDaemonPod event and a deletion, unless its node is in back-off). */
  failed: { pod: Pod; node: string }[];
}

/** podsShouldBeOnNode for one node. */
export function podsShouldBeOnNode(node: NodeEligibility, daemonPods: readonly Pod[] | undefined, ds: DaemonSet, hash: string, nowMs: number): ManagePlan {
  const plan: ManagePlan = { createOn: [], delete: [], failed: [] };
  const exists = daemonPods !== undefined;
  const pods = daemonPods ?? [];
  if (node.shouldRun && !exists) {
    plan.createOn.push(node.name);
  } else if (node.shouldContinueRunning) {
    const running: Pod[] = [];
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      if (pod.status?.phase === 'Failed') plan.failed.push({ pod, node: node.name });
      else if (pod.status?.phase === 'Succeeded') plan.delete.push(pod.metadata.name!);
      else running.push(pod);
    }
    running.sort(byCreationTimestampAndPhase);
    if (!allowsSurge(ds)) {
      // One pod per node: all but the oldest go.
      for (const p of running.slice(1)) plan.delete.push(p.metadata.name!);
      return plan;
    }
    if (running.length <= 1) {
      if (running.length === 0 && node.shouldRun) plan.createOn.push(node.name);
      return plan;
    }
    // Surging: keep the oldest new and the oldest old pod; the old one goes once it is not
    // ready or the new one is available.
    let oldestNew: Pod | undefined;
    let oldestOld: Pod | undefined;
    for (const p of running) {
      if (p.metadata.labels?.[daemonSetRevisionLabel] === hash) {
        if (!oldestNew) { oldestNew = p; continue; }
      } else if (!oldestOld) { oldestOld = p; continue; }
      plan.delete.push(p.metadata.name!);
    }
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, new Date(nowMs)))) plan.delete.push(oldestOld.metadata.name!);
  } else if (exists) {
    for (const pod of pods) if (!pod.metadata.deletionTimestamp) plan.delete.push(pod.metadata.name!);
  }
  return plan;
}

/** manage: every node's plan, plus the unbound pods meant for nodes that no longer exist. */
export function manageDaemonSet(ds: DaemonSet, nodes: readonly NodeEligibility[], byNode: ReadonlyMap<string, Pod[]>, hash: string, nowMs: number): ManagePlan {
  const plan: ManagePlan = { createOn: [], delete: [], failed: [] };
  for (const n of nodes) {
    const p = podsShouldBeOnNode(n, byNode.get(n.name), ds, hash, nowMs);
    plan.createOn.push(...p.createOn);
    plan.delete.push(...p.delete);
    plan.failed.push(...p.failed);
  }
  const known = new Set(nodes.map((n) => n.name));
  for (const [node, pods] of byNode) {
    if (known.has(node)) continue;
    for (const p of pods) if (!p.spec.nodeName) plan.delete.push(p.metadata.name!);
  }
  return plan;
}

// ---------------------------------------------------------------- rolling update

/** findUpdatedPodsOnNode: the node's one new and one old pod; not ok when there are more. */
export function findUpdatedPodsOnNode(ds: DaemonSet, pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const gen = templateGeneration(ds);
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, gen)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { newPod, oldPod, ok: true };
}

/** updatedDesiredNodeCounts: maxSurge, maxUnavailable (1 when both come to 0) and the desired count. */
export function desiredNodeCounts(ds: DaemonSet, nodes: readonly NodeEligibility[], byNode: Map<string, Pod[]>): { maxSurge: number; maxUnavailable: number; desired: number } {
  let desired = 0;
  for (const n of nodes) {
    if (!n.shouldRun) continue;
    desired++;
    if (!byNode.has(n.name)) byNode.set(n.name, []);
  }
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired };
}

/**
 * rollingUpdate: without surge, delete just enough old pods to stay within maxUnavailable (the
 * manage loop then creates their replacements); with surge, create new pods beside old ones, up
 * to maxSurge, and delete each old pod once its replacement is available.
 */
export function rollingUpdateDaemonSet(ds: DaemonSet, nodes: readonly NodeEligibility[], pods: readonly Pod[], hash: string, nowMs: number): { delete: string[]; createOn: string[] } {
  const byNode = nodesToDaemonPods(pods);
  const { maxSurge, maxUnavailable, desired } = desiredNodeCounts(ds, nodes, byNode);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(p, minReady, new Date(nowMs));
  const eligibility = new Map(nodes.map((n) => [n.name, n]));
  // Upstream ranges over a Go map (random order); node name order makes the choice reproducible.
  const entries = [...byNode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  if (maxSurge === 0) {
    let numUnavailable = 0;
    const allowed: string[] = [];
    const candidates: string[] = [];
    for (const [, nodePods] of entries) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, nodePods, hash);
      if (!ok) { numUnavailable++; continue; }
      if ((!oldPod && !newPod) || (oldPod && newPod)) numUnavailable++;
      else if (newPod) { if (!available(newPod)) numUnavailable++; }
      else if (!available(oldPod!)) { allowed.push(oldPod!.metadata.name!); numUnavailable++; }
      else if (numUnavailable >= maxUnavailable) continue;
      else candidates.push(oldPod!.metadata.name!);
    }
    const remaining = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidates.length);
    return { delete: [...allowed, ...candidates.slice(0, remaining)], createOn: [] };
  }

  const oldToDelete: string[] = [];
  const shouldNotRunToDelete: string[] = [];
  const candidateNew: string[] = [];
  const allowedNew: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, nodePods] of entries) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, nodePods, hash);
    if (!ok) { numSurge++; continue; }
    if (oldPod) { if (available(oldPod)) numAvailable++; }
    else if (newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      const shouldRun = eligibility.get(nodeName)?.shouldRun ?? false;
      if (!available(oldPod)) {
        if (!shouldRun) oldToDelete.push(oldPod.metadata.name!);
        else allowedNew.push(nodeName);
      } else {
        if (!shouldRun) { shouldNotRunToDelete.push(oldPod.metadata.name!); continue; }
        if (numSurge >= maxSurge) continue;
        candidateNew.push(nodeName);
      }
      continue;
    }
    if (!available(newPod)) { numSurge++; continue; }
    oldToDelete.push(oldPod.metadata.name!);
  }
  // With surge the owner expects full availability: a pod on a node that should no longer run it
  // goes only once as many pods are available elsewhere.
  const deletable = Math.min(numAvailable - desired, shouldNotRunToDelete.length);
  if (deletable > 0) oldToDelete.push(...shouldNotRunToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(maxSurge - numSurge, 0), candidateNew.length);
  return { delete: oldToDelete, createOn: [...allowedNew, ...candidateNew.slice(0, remainingSurge)] };
}

// ---------------------------------------------------------------- status

/** updateDaemonSetStatus's counts (observedGeneration is the caller's: only when expectations were met). */
export function daemonSetStatus(ds: DaemonSet, nodes: readonly NodeEligibility[], pods: readonly Pod[], hash: string, nowMs: number): Required<Pick<DaemonSetStatus, 'desiredNumberScheduled' | 'currentNumberScheduled' | 'numberMisscheduled' | 'numberReady' | 'updatedNumberScheduled' | 'numberAvailable' | 'numberUnavailable'>> {
  const byNode = nodesToDaemonPods(pods);
  const gen = templateGeneration(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const s = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0, numberUnavailable: 0 };
  for (const n of nodes) {
    const daemonPods = byNode.get(n.name) ?? [];
    const scheduled = daemonPods.length > 0;
    if (n.shouldRun) {
      s.desiredNumberScheduled++;
      if (!scheduled) continue;
      s.currentNumberScheduled++;
      const pod = [...daemonPods].sort(byCreationTimestampAndPhase)[0]!;
      if (isPodReady(pod)) {
        s.numberReady++;
        if (isPodAvailable(pod, minReady, new Date(nowMs))) s.numberAvailable++;
      }
      if (isPodUpdated(pod, hash, gen)) s.updatedNumberScheduled++;
    } else if (scheduled) {
      s.numberMisscheduled++;
    }
  }
  s.numberUnavailable = s.desiredNumberScheduled - s.numberAvailable;
  return s;
}

/** storeDaemonSetStatus's test: nothing changed and the generation was observed. */
export function daemonSetStatusUnchanged(ds: DaemonSet, s: ReturnType<typeof daemonSetStatus>): boolean {
  const cur = ds.status ?? {};
  return (Object.keys(s) as (keyof typeof s)[]).every((k) => (cur[k] ?? 0) === s[k]) && (cur.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
}

// ---------------------------------------------------------------- history

/** getPatch: what a revision stores, the template to put back (`$patch: replace`). */
export function daemonSetPatch(ds: DaemonSet): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...(deepCopyJSON(ds.spec?.template ?? {}) as Record<string, unknown>), $patch: 'replace' } } };
}

/** Match: the revision holds this set's template. */
export function revisionMatches(ds: DaemonSet, rev: ControllerRevision): boolean {
  return goJSON(daemonSetPatch(ds)) === goJSON(rev.data);
}

/** snapshot: the revision for the set's template, `<ds>-<hash>`, the hash label on it. */
export function daemonSetSnapshot(ds: DaemonSet, revision: number): ControllerRevision {
  const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
  const metadata: ControllerRevision['metadata'] = {
    name: `${ds.metadata.name}-${hash}`,
    namespace: ds.metadata.namespace,
    labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [daemonSetRevisionLabel]: hash },
    ownerReferences: [newControllerRef(ds, daemonSetApiVersion, daemonSetKind)],
  };
  if (ds.metadata.annotations && Object.keys(ds.metadata.annotations).length) metadata.annotations = { ...ds.metadata.annotations };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data: daemonSetPatch(ds), revision };
}

/** What constructHistory does: label old revisions, then find, create or renumber the current one. */
export interface HistoryPlan {
  /** Revisions without the hash label: the label is their name (so no hash has to be recomputed). */
  relabel: ControllerRevision[];
  /** The revision holding the template (when one exists). */
  current?: ControllerRevision;
  /** Duplicates of the current revision to delete (dedupCurHistories). */
  duplicates: ControllerRevision[];
  /** The number the current revision must have (create it with this, or renumber it). */
  revision: number;
  old: ControllerRevision[];
}

export function planDaemonSetHistory(ds: DaemonSet, histories: readonly ControllerRevision[]): HistoryPlan {
  const relabel = histories.filter((h) => !h.metadata.labels?.[daemonSetRevisionLabel]);
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (const h of histories) (revisionMatches(ds, h) ? current : old).push(h);
  const revision = old.reduce((m, h) => Math.max(m, h.revision ?? 0), 0) + 1;
  let keep: ControllerRevision | undefined;
  for (const h of current) if (!keep || (h.revision ?? 0) >= (keep.revision ?? 0)) keep = h;
  return { relabel, current: keep, duplicates: current.filter((h) => h !== keep), revision, old };
}

/** cleanupHistory: the oldest old revisions beyond revisionHistoryLimit whose hash no pod carries. */
export function daemonSetHistoryToPrune(ds: DaemonSet, old: readonly ControllerRevision[], pods: readonly Pod[]): ControllerRevision[] {
  let toKill = old.length - (ds.spec?.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return [];
  const live = new Set(pods.map((p) => p.metadata.labels?.[daemonSetRevisionLabel]).filter((h): h is string => !!h));
  const out: ControllerRevision[] = [];
  for (const h of [...old].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))) {
    if (toKill <= 0) break;
    if (live.has(h.metadata.labels?.[daemonSetRevisionLabel] ?? '')) continue;
    out.push(h);
    toKill--;
  }
  return out;
}

// ---------------------------------------------------------------- events

/** The events of daemon_controller.go and controller_utils.go's RealPodControl, in their words. */
export const daemonSetEvents = {
  selectingAll: { type: 'Warning' as const, reason: 'SelectingAll', message: 'This daemon set is selecting all pods. A non-empty selector is required.' },
  failedDaemonPod: (pod: Pod, node: string) => ({ type: 'Warning' as const, reason: 'FailedDaemonPod', message: `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${node}, will try to kill it` }),
  created: (name: string) => ({ type: 'Normal' as const, reason: 'SuccessfulCreate', message: `Created pod: ${name}` }),
  createFailed: (err: string) => ({ type: 'Warning' as const, reason: 'FailedCreate', message: `Error creating: ${err}` }),
  deleted: (name: string) => ({ type: 'Normal' as const, reason: 'SuccessfulDelete', message: `Deleted pod: ${name}` }),
  deleteFailed: (err: string) => ({ type: 'Warning' as const, reason: 'FailedDelete', message: `Error deleting: ${err}` }),
};
