// PodDisruptionBudget arithmetic, pure: what the disruption controller writes in a budget's
// status (pkg/controller/disruption/disruption.go getExpectedPodCount, getExpectedScale,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus, failSafe; the DisruptionAllowed
// condition of k8s.io/component-helpers/apps/poddisruptionbudget) and what the eviction
// subresource decides from it (pkg/registry/core/pod/storage/eviction.go canIgnorePDB,
// checkAndDecrement, getPodDisruptionBudgets). The controller and the API server do the I/O.

import { metaTime } from '../api/metatime.js';
import { labelSelectorRequirements, matchesLabels } from '../api/selectors.js';
import type { MetaCondition, OwnerReference, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus } from '../api/types.js';
import { isPodReady } from './activepods.js';
import { controllerOf } from './controllerref.js';
import { scaledValue } from './intorpercent.js';

/** DeletionTimeout: how long a pod the eviction subresource let go may take to be deleted. */
export const deletionTimeoutMs = 2 * 60 * 1000;
/** MaxDisruptedPodSize: evictions not yet confirmed by the controller that a budget tolerates. */
export const maxDisruptedPodSize = 2000;

export const disruptionAllowedCondition = 'DisruptionAllowed';
export const sufficientPodsReason = 'SufficientPods';
export const insufficientPodsReason = 'InsufficientPods';
export const syncFailedReason = 'SyncFailed';
/** policyv1.DisruptionBudgetCause: the cause type of an eviction refused by a budget. */
export const disruptionBudgetCause = 'DisruptionBudget';

/**
 * metav1.LabelSelectorAsSelector(pdb.spec.selector).Matches(pod's labels): a null selector
 * matches nothing, an empty one everything (policy/v1), an unparsable one nothing.
 */
export function budgetSelects(pdb: PodDisruptionBudget, pod: Pod): boolean {
  const sel = pdb.spec?.selector;
  if (!sel) return false;
  try {
    return matchesLabels(labelSelectorRequirements(sel), pod.metadata?.labels ?? {});
  } catch {
    return false;
  }
}

/** A controller's identity and scale (spec.replicas), as the controller finders report it. */
export interface ControllerScale {
  uid: string;
  scale: number;
}

/**
 * The finders, in upstream's order, as one function: the pod's controller and its scale;
 * undefined when no finder knows it (upstream's "found no controllers"); throws an Error with
 * upstream's message when the controller cannot have a scale.
 */
export type ScaleFinder = (ref: OwnerReference, namespace: string) => ControllerScale | undefined;

export interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  /** Pods without a controller (counted for an event only). */
  unmanagedPods: string[];
}

/** getExpectedScale: the sum of the scales of the selected pods' controllers. Throws on a pod whose controller is not found. */
function expectedScale(pods: readonly Pod[], find: ScaleFinder): { expectedCount: number; unmanagedPods: string[] } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = find(ref, pod.metadata.namespace ?? '');
    if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name ?? ''}"`);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const s of scales.values()) expectedCount += s;
  return { expectedCount, unmanagedPods };
}

/**
 * getExpectedPodCount: maxUnavailable (int or percent) and a percent minAvailable are resolved
 * against the controllers' scale, rounding up; an int minAvailable counts the selected pods.
 */
export function expectedPodCount(pdb: PodDisruptionBudget, pods: readonly Pod[], find: ScaleFinder): ExpectedCount {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { expectedCount, unmanagedPods } = expectedScale(pods, find);
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const { expectedCount, unmanagedPods } = expectedScale(pods, find);
    return { expectedCount, desiredHealthy: scaledValue(spec.minAvailable, expectedCount, true), unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/** The UnmanagedPods warning's message. */
export function unmanagedPodsMessage(pdb: PodDisruptionBudget): string {
  return (
    `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(pdb.spec?.selector ?? null)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ` +
    'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.'
  );
}

/**
 * buildDisruptedPodMap: the entries of status.disruptedPods still waited for (the pod exists, is
 * not being deleted, and its two minutes are not over), the earliest time one runs out (to sync
 * again then), and the pods whose time ran out without a deletion (a NotDeleted event each).
 */
export function disruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, nowMs: number): { disruptedPods: Record<string, string>; recheckAtMs?: number; notDeleted: Pod[] } {
  const known = pdb.status?.disruptedPods ?? {};
  const disruptedPods: Record<string, string> = {};
  const notDeleted: Pod[] = [];
  let recheckAtMs: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const name = pod.metadata.name ?? '';
    const at = known[name];
    if (at === undefined) continue;
    const expected = Date.parse(at) + deletionTimeoutMs;
    if (expected < nowMs) notDeleted.push(pod);
    else {
      if (recheckAtMs === undefined || expected < recheckAtMs) recheckAtMs = expected;
      disruptedPods[name] = at;
    }
  }
  return { disruptedPods, recheckAtMs, notDeleted };
}

/** countHealthyPods: Ready pods that are neither being deleted nor just let go by an eviction. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Record<string, string>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata.name ?? ''];
    if (at !== undefined && Date.parse(at) + deletionTimeoutMs > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** apimeta.SetStatusCondition: a new transition time only when the status changes. */
function setCondition(conditions: readonly MetaCondition[] | undefined, c: Omit<MetaCondition, 'lastTransitionTime'>, now: string): MetaCondition[] {
  const out = (conditions ?? []).map((x) => ({ ...x }));
  const existing = out.find((x) => x.type === c.type);
  if (!existing) {
    out.push({ type: c.type, status: c.status, ...(c.observedGeneration ? { observedGeneration: c.observedGeneration } : {}), lastTransitionTime: now, reason: c.reason, message: c.message });
    return out;
  }
  if (existing.status !== c.status) {
    existing.status = c.status;
    existing.lastTransitionTime = now;
  }
  existing.reason = c.reason;
  existing.message = c.message;
  if (c.observedGeneration) existing.observedGeneration = c.observedGeneration;
  else delete existing.observedGeneration;
  return out;
}

/** UpdateDisruptionAllowedCondition: True/SufficientPods while disruptions are allowed, else False/InsufficientPods. */
export function withDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: string): PodDisruptionBudgetStatus {
  const allowed = status.disruptionsAllowed > 0;
  const conditions = setCondition(
    status.conditions,
    { type: disruptionAllowedCondition, status: allowed ? 'True' : 'False', reason: allowed ? sufficientPodsReason : insufficientPodsReason, message: '', observedGeneration: status.observedGeneration },
    now,
  );
  return { ...status, conditions };
}

/** ConditionsAreUpToDate. */
function conditionsUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = pdb.status?.conditions?.find((c) => c.type === disruptionAllowedCondition);
  if (!cond) return false;
  if ((pdb.status?.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0) return cond.status === 'True' && cond.reason === sufficientPodsReason;
  return cond.status === 'False' && cond.reason === insufficientPodsReason;
}

/** Two string maps with the same keys and values, in any order (absent counts as empty). */
export function sameStringMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a![k] === b![k]);
}

/**
 * updatePdbStatus: the status to write, or undefined when the stored one already says it.
 * No disruption is allowed while no pod is expected (a budget whose first pods just appeared is safe).
 */
export function budgetStatus(pdb: PodDisruptionBudget, counts: { currentHealthy: number; desiredHealthy: number; expectedCount: number; disruptedPods: Record<string, string> }, nowMs: number): PodDisruptionBudgetStatus | undefined {
  const { currentHealthy, desiredHealthy, expectedCount, disruptedPods } = counts;
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const s = pdb.status;
  const generation = pdb.metadata?.generation ?? 0;
  if (
    s &&
    s.currentHealthy === currentHealthy &&
    s.desiredHealthy === desiredHealthy &&
    s.expectedPods === expectedCount &&
    s.disruptionsAllowed === disruptionsAllowed &&
    sameStringMap(s.disruptedPods, disruptedPods) &&
    (s.observedGeneration ?? 0) === generation &&
    conditionsUpToDate(pdb)
  ) {
    return undefined;
  }
  const next: PodDisruptionBudgetStatus = {
    ...(generation ? { observedGeneration: generation } : {}),
    ...(Object.keys(disruptedPods).length ? { disruptedPods } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    ...(s?.conditions ? { conditions: s.conditions } : {}),
  };
  return withDisruptionAllowedCondition(next, metaTime(nowMs));
}

/** failSafe: a sync that failed allows no disruption and says why (observedGeneration unchanged). */
export function failSafeStatus(pdb: PodDisruptionBudget, message: string, nowMs: number): PodDisruptionBudgetStatus {
  const s: PodDisruptionBudgetStatus = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...(pdb.status ?? {}) };
  const conditions = setCondition(s.conditions, { type: disruptionAllowedCondition, status: 'False', reason: syncFailedReason, message, observedGeneration: s.observedGeneration }, metaTime(nowMs));
  return { ...s, disruptionsAllowed: 0, conditions };
}

// ---------------------------------------------------------------------------------------------
// The eviction subresource

/** canIgnorePDB: a pod not yet running, already terminal, or already being deleted is deleted without a budget check. */
export function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/** shouldEnforceResourceVersion: a pod that could still become Ready is deleted only as it was read. */
export function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || !!pod.metadata.deletionTimestamp);
}

export const evictionRefusedMessage = "Cannot evict pod as it would violate the pod's disruption budget.";
export const multipleBudgetsMessage = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** What an eviction does about the one budget that selects its pod. */
export type BudgetDecision =
  /** Delete the pod; `preconditionResourceVersion`: only as read (an unhealthy pod deleted without using the budget). */
  | { kind: 'skip' }
  /** Use one disruption: write `status` (compare-and-swap), then delete the pod. */
  | { kind: 'decrement'; status: PodDisruptionBudgetStatus }
  /** 429 TooManyRequests with the DisruptionBudget cause. */
  | { kind: 'tooManyRequests'; retryAfterSeconds: number; cause: string }
  /** 403 Forbidden on the budget. */
  | { kind: 'forbidden'; message: string };

/**
 * The eviction's decision for a Running pod and its budget: an unready pod goes without using
 * the budget under AlwaysAllow, or under IfHealthyBudget (the default) while the budget is met;
 * otherwise checkAndDecrement. A dry run decides alike but records no disrupted pod.
 */
export function evictionDecision(pdb: PodDisruptionBudget, pod: Pod, nowMs: number, dryRun: boolean): BudgetDecision {
  const status: PodDisruptionBudgetStatus = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...(pdb.status ?? {}) };
  const name = pdb.metadata?.name ?? '';
  if (!isPodReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { kind: 'skip' };
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return { kind: 'skip' };
  }
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) {
    return { kind: 'tooManyRequests', retryAfterSeconds: 10, cause: `The disruption budget ${name} is still being processed by the server.` };
  }
  if (status.disruptionsAllowed < 0) return { kind: 'forbidden', message: 'pdb disruptions allowed is negative' };
  if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPodSize) return { kind: 'forbidden', message: 'DisruptedPods map too big - too many evictions not confirmed by PDB controller' };
  if (status.disruptionsAllowed === 0) {
    return { kind: 'tooManyRequests', retryAfterSeconds: 0, cause: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently` };
  }
  let next: PodDisruptionBudgetStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) next = withDisruptionAllowedCondition(next, metaTime(nowMs));
  if (!dryRun) next.disruptedPods = { ...(next.disruptedPods ?? {}), [pod.metadata.name ?? '']: metaTime(nowMs) };
  return { kind: 'decrement', status: next };
}
