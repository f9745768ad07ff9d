// Preemption: what kube-scheduler's DefaultPreemption PostFilter plugin decides when a pod fits
// on no node. Pure: the scheduler controller (src/controllers/scheduler.ts) carries it out.
//
// Follows (kubernetes/kubernetes master as stored, read, not copied):
//   pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
//     PodEligibleToPreemptOthers, SelectVictimsOnNode, isPreemptionAllowed,
//     podTerminatingByPreemption
//   pkg/scheduler/framework/preemption/preemption.go
//     Evaluator.Preempt, findCandidates, DryRunPreemption, pickOneNodeForPreemption,
//     getLowerPriorityNominatedPods, and PreemptPod's condition and event wording
//   pkg/scheduler/util/utils.go    MoreImportantPod, GetPodStartTime, GetEarliestPodStartTime
//   pkg/scheduler/framework/runtime/framework.go  RunFilterPluginsWithNominatedPods /
//     addGENominatedPods (pods nominated to a node, of equal or higher priority, count there)
//
// The rules:
// - A pod with preemptionPolicy Never does not preempt: "not eligible due to
//   preemptionPolicy=Never.". A pod whose nominated node still has a lower-priority pod
//   terminating because of a preemption waits for it: "not eligible due to a terminating pod on
//   the nominated node." (unless its nominated node is now UnschedulableAndUnresolvable). Both
//   leave the pod's nominatedNodeName as it is.
// - Only nodes rejected as `Unschedulable` are tried (the others read "Preemption is not helpful
//   for scheduling"); on each, every pod of lower priority is removed ("No preemption victims
//   found for incoming pod" when there is none); if the pod still does not fit, the node's filter
//   reasons are its status; otherwise the removed pods are added back one by one, most important
//   first (higher priority, then earlier start), and a pod whose return makes the pod unfit
//   again is a victim. PodDisruptionBudgets are not weighed yet: no victim counts as violating one.
// - Among the nodes with victims: fewest PDB violations, then the lowest highest-victim
//   priority, then the smallest sum of victim priorities (each shifted by 2^31), then the fewest
//   victims, then the latest start of the highest-priority victims, then the first node (in name
//   order here; upstream starts from a random offset).
// - No candidate: the PostFilter message is "preemption: " + the dry run's FitError, and the
//   pod's nominatedNodeName is cleared. A candidate: the victims get DisruptionTarget
//   (PreemptionByScheduler, "<schedulerName>: preempting to accommodate a higher priority pod")
//   and a graceful delete, an event `Preempted` ("Preempted by pod <uid> on node <node>"), and
//   the preemptor is nominated to the node; the PostFilter message is empty, so the preemptor's
//   FailedScheduling message is the bare FitError.

import type { Node, Pod } from '../api/types.js';
import { fitsNode, isActivePod, type FitResult, type SchedulerGates } from './filters.js';
import { failedSchedulingMessage, NoPreemptionVictims, PreemptionNotHelpful, podsOn, type PodsByNode } from './fiterror.js';

export const NotEligibleNever = 'not eligible due to preemptionPolicy=Never.';
export const NotEligibleTerminating = 'not eligible due to a terminating pod on the nominated node.';
export const PreemptionNeverMsg = `preemption: ${NotEligibleNever}`;

/** v1.PodReasonPreemptionByScheduler, the DisruptionTarget reason of a preempted pod. */
export const ReasonPreemptionByScheduler = 'PreemptionByScheduler';
export const DisruptionTarget = 'DisruptionTarget';

/** The DisruptionTarget message PreemptPod gives a victim. */
export function preemptionConditionMessage(schedulerName: string): string {
  return `${schedulerName}: preempting to accommodate a higher priority pod`;
}

/** The `Preempted` event on a victim (reason Preempted, action Preempting, type Normal). */
export function preemptedEventMessage(preemptorUID: string, node: string): string {
  return `Preempted by pod ${preemptorUID} on node ${node}`;
}

/** corev1helpers.PodPriority: spec.priority, 0 when unset. */
export function podPriority(p: Pod): number {
  return p.spec.priority ?? 0;
}

/** GetPodStartTime: status.startTime, or "now" (later than any real start) when the pod has none. */
function startTime(p: Pod): number {
  const t = p.status?.startTime ? Date.parse(p.status.startTime) : NaN;
  return Number.isNaN(t) ? Number.MAX_SAFE_INTEGER : t;
}

function byName(a: Pod, b: Pod): number {
  const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * MoreImportantPod as a sort order, most important first: higher priority, then the earlier
 * start; ties by name, so the order does not depend on the input's (upstream's sort is not stable).
 */
export function moreImportantFirst(a: Pod, b: Pod): number {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pb - pa;
  const sa = startTime(a);
  const sb = startTime(b);
  if (sa !== sb) return sa - sb;
  return byName(a, b);
}

/** podTerminatingByPreemption: being deleted, and its first DisruptionTarget condition says the scheduler preempted it. */
export function podTerminatingByPreemption(p: Pod): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  const c = p.status?.conditions?.find((x) => x.type === DisruptionTarget);
  return c !== undefined && c.status === 'True' && c.reason === ReasonPreemptionByScheduler;
}

/**
 * The pods nominated to a node that count against `pod` there (addGENominatedPods): pending
 * (not bound), not the pod itself, of equal or higher priority.
 */
export function nominatedPodsFor(pod: Pod, nominatedOnNode: readonly Pod[]): Pod[] {
  const prio = podPriority(pod);
  const uid = pod.metadata.uid;
  return nominatedOnNode.filter((p) => !p.spec.nodeName && isActivePod(p) && (uid === undefined || p.metadata.uid !== uid) && !(p.metadata.namespace === pod.metadata.namespace && p.metadata.name === pod.metadata.name) && podPriority(p) >= prio);
}

/** RunFilterPluginsWithNominatedPods over Bulkhead's filters: the node's pods plus the nominated pods that count. */
export function fitsNodeWithNominated(pod: Pod, node: Node, podsOnNode: readonly Pod[], nominatedOnNode: readonly Pod[], gates: SchedulerGates): FitResult {
  const nominated = nominatedPodsFor(pod, nominatedOnNode);
  return fitsNode(pod, node, nominated.length ? [...podsOnNode, ...nominated] : podsOnNode, gates);
}

/** getLowerPriorityNominatedPods: pods nominated to the node whose nomination the preemptor takes away. */
export function lowerPriorityNominatedPods(pod: Pod, nominatedOnNode: readonly Pod[]): Pod[] {
  const prio = podPriority(pod);
  return nominatedOnNode.filter((p) => !p.spec.nodeName && p.metadata.uid !== pod.metadata.uid && podPriority(p) < prio);
}

/** PodEligibleToPreemptOthers: undefined when eligible, else the reason (without the "preemption: " prefix). */
export function ineligibleToPreempt(pod: Pod, verdicts: ReadonlyMap<string, FitResult>, podsByNode: PodsByNode): string | undefined {
  if (pod.spec.preemptionPolicy === 'Never') return NotEligibleNever;
  const nominated = pod.status?.nominatedNodeName;
  if (!nominated) return undefined;
  // A nominated node the filters now reject for good is given up: preempt elsewhere.
  if (verdicts.get(nominated)?.rejection?.code === 'UnschedulableAndUnresolvable') return undefined;
  const prio = podPriority(pod);
  for (const p of podsOn(podsByNode, nominated)) {
    if (podPriority(p) < prio && podTerminatingByPreemption(p)) return NotEligibleTerminating;
  }
  return undefined;
}

export type VictimSelection =
  | { ok: true; victims: Pod[] }
  /** The node's status in the dry run: the reasons the FitError counts. */
  | { ok: false; reasons: string[] };

/**
 * SelectVictimsOnNode: the fewest lower-priority pods whose removal lets `pod` fit on `node`,
 * most important first; or why no removal helps.
 */
export function selectVictimsOnNode(pod: Pod, node: Node, podsOnNode: readonly Pod[], nominatedOnNode: readonly Pod[], gates: SchedulerGates): VictimSelection {
  const prio = podPriority(pod);
  const active = podsOnNode.filter(isActivePod);
  const potential = active.filter((p) => podPriority(p) < prio);
  if (potential.length === 0) return { ok: false, reasons: [NoPreemptionVictims] };
  const kept = active.filter((p) => podPriority(p) >= prio);
  const without = fitsNodeWithNominated(pod, node, kept, nominatedOnNode, gates);
  if (!without.fits) return { ok: false, reasons: without.reasons };
  const victims: Pod[] = [];
  // Reprieve as many as possible, most important first (no PDBs: every pod is "non-violating").
  for (const p of [...potential].sort(moreImportantFirst)) {
    kept.push(p);
    if (!fitsNodeWithNominated(pod, node, kept, nominatedOnNode, gates).fits) {
      kept.pop();
      victims.push(p);
    }
  }
  // The filters rejected the node with all these pods on it, so at least one stays a victim;
  // upstream treats none as an error ("expected at least one victim pod on node").
  if (victims.length === 0) return { ok: false, reasons: [] };
  return { ok: true, victims };
}

export interface Candidate {
  node: string;
  /** Most important first. */
  victims: Pod[];
  numPDBViolations: number;
}

const int32Shift = 2 ** 31;

/** pickOneNodeForPreemption with the default score functions, in order; the first candidate wins ties. */
export function pickOneNodeForPreemption(candidates: readonly Candidate[]): Candidate | undefined {
  if (candidates.length === 0) return undefined;
  const scores: ((c: Candidate) => number)[] = [
    // Fewest PodDisruptionBudget violations.
    (c) => -c.numPDBViolations,
    // The lowest priority among the highest-priority victims.
    (c) => -podPriority(c.victims[0]!),
    // The smallest sum of victim priorities (each made non-negative first).
    (c) => -c.victims.reduce((s, p) => s + podPriority(p) + int32Shift, 0),
    // The fewest victims.
    (c) => -c.victims.length,
    // The latest earliest-start among the victims of the highest priority.
    (c) => {
      const top = podPriority(c.victims[0]!);
      return Math.min(...c.victims.filter((p) => podPriority(p) === top).map(startTime));
    },
  ];
  let left = [...candidates];
  for (const score of scores) {
    const values = left.map(score);
    const best = Math.max(...values);
    left = left.filter((_, i) => values[i] === best);
    if (left.length === 1) break;
  }
  return left[0];
}

export interface PreemptionOutcome {
  /** The PostFilter message appended to the FitError: "preemption: …", or '' when preemption succeeded. */
  message: string;
  /** The nominatedNodeName to give the pod: the chosen node, '' to clear it, undefined to leave it. */
  nominatedNodeName?: string;
  /** On success: the node and its victims, most important first. */
  candidate?: Candidate;
}

/**
 * Evaluator.Preempt for a pod that fits nowhere: `verdicts` are the scheduling pass's filter
 * results by node name, `nominated` the pending pods nominated to each node.
 */
export function preempt(pod: Pod, nodes: readonly Node[], verdicts: ReadonlyMap<string, FitResult>, podsByNode: PodsByNode, gates: SchedulerGates, nominated?: PodsByNode): PreemptionOutcome {
  const why = ineligibleToPreempt(pod, verdicts, podsByNode);
  if (why) return { message: `preemption: ${why}` };
  const sorted = [...nodes].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  const reasons: string[] = [];
  const candidates: Candidate[] = [];
  for (const node of sorted) {
    const name = node.metadata.name!;
    const v = verdicts.get(name);
    if (v?.fits) continue;
    if (v?.rejection?.code !== 'Unschedulable') {
      reasons.push(PreemptionNotHelpful);
      continue;
    }
    const sel = selectVictimsOnNode(pod, node, podsOn(podsByNode, name), podsOn(nominated, name), gates);
    if (sel.ok) candidates.push({ node: name, victims: sel.victims, numPDBViolations: 0 });
    else reasons.push(...sel.reasons);
  }
  const best = pickOneNodeForPreemption(candidates);
  if (!best) return { message: `preemption: ${failedSchedulingMessage(nodes.length, reasons)}`, nominatedNodeName: '' };
  return { message: '', nominatedNodeName: best.node, candidate: best };
}
