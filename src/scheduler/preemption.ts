// Preemption: what kube-scheduler's DefaultPreemption PostFilter plugin decides when a pod fits
// on no node. Pure: the scheduler controller (src/controllers/scheduler.ts) carries it out.
//
// Follows (kubernetes/kubernetes master as stored, read, not copied):
//   pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
//     PodEligibleToPreemptOthers, SelectVictimsOnNode, filterPodsWithPDBViolation,
//     calculateNumCandidates / GetOffsetAndNumCandidates,
//     isPreemptionAllowed, podTerminatingByPreemption
//   pkg/scheduler/framework/preemption/preemption.go
//     Evaluator.Preempt, findCandidates (getPodDisruptionBudgets: every budget),
//     nodesWherePreemptionMightHelp, DryRunPreemption (candidateList), pickOneNodeForPreemption,
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
// - Only nodes rejected as `Unschedulable` are tried (the others, and a node without a verdict,
//   read "Preemption is not helpful for scheduling"). The dry run walks them in name order from an
//   offset (0 here; upstream draws it at random) and stops once it holds a candidate whose victims
//   violate no budget and numCandidates candidates in all (DefaultPreemptionArgs: 10% of the nodes
//   tried, at least 100, at most all of them; so below 100 nodes every node is tried); each of its
//   two lists, without and with violations, has room for numCandidates, and a candidate past that
//   is dropped. On each node, every pod of lower priority is removed ("No preemption victims found
//   for incoming pod" when there is none); if the pod still does not fit, the node's filter
//   reasons are its status; otherwise the removed pods are added back one by one, and a pod whose
//   return makes the pod unfit again is a victim. The order of return: first the pods whose
//   eviction would violate a PodDisruptionBudget, then the others, each most important first
//   (higher priority, then earlier start); the violating pods that stay victims are the node's
//   count of PDB violations.
// - A pod would violate a budget (filterPodsWithPDBViolation) when, walking the lower-priority
//   pods most important first with a copy of each budget's status.disruptionsAllowed, a budget
//   that selects it is exhausted: each pod a budget selects takes one disruption from the copy,
//   and the pod violates when any such copy goes below 0. A budget selects a pod when it is in
//   the pod's namespace, the pod has labels, and its selector is non-empty and matches them; a
//   pod already in the budget's status.disruptedPods (an eviction the API server let go) neither
//   takes a disruption from it nor violates it. Unlike policy/v1's eviction and the disruption
//   controller, where an empty selector selects every pod of the namespace, here an empty (or
//   null, or unparsable) selector selects nothing, as upstream's preemption reads it.
// - Budgets are best effort: a node whose victims violate budgets is still chosen when no
//   candidate violates fewer, and its victims are deleted like any others.
// - Among the nodes with victims: fewest PDB violations, then the lowest highest-victim
//   priority, then the smallest sum of victim priorities (each shifted by 2^31), then the fewest
//   victims, then the latest start of the highest-priority victims, then the first candidate found
//   (the dry run's order here; upstream's is a map's, so random).
// - No candidate: the PostFilter message is "preemption: " + the dry run's FitError, and the
//   pod's nominatedNodeName is cleared. A candidate: the victims get DisruptionTarget
//   (PreemptionByScheduler, "<schedulerName>: preempting to accommodate a higher priority pod")
//   and a graceful delete, an event `Preempted` ("Preempted by pod <uid> on node <node>"), and
//   the preemptor is nominated to the node; the PostFilter message is empty, so the preemptor's
//   FailedScheduling message is the bare FitError.

import { labelSelectorRequirements, matchesLabels } from '../api/selectors.js';
import type { Node, Pod, PodDisruptionBudget } from '../api/types.js';
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

/**
 * Whether a budget selects a pod for preemption (filterPodsWithPDBViolation's matching): same
 * namespace, the pod has labels, and a non-empty selector that parses and matches them. An
 * empty or null selector selects nothing here (policy/disruption.ts budgetSelects, which the
 * eviction subresource and the disruption controller read, lets an empty one select everything).
 */
export function budgetSelectsForPreemption(pdb: PodDisruptionBudget, pod: Pod): boolean {
  if ((pdb.metadata?.namespace ?? '') !== (pod.metadata.namespace ?? '')) return false;
  const labels = pod.metadata.labels;
  if (!labels || Object.keys(labels).length === 0) return false;
  const sel = pdb.spec?.selector;
  if (!sel) return false;
  try {
    const reqs = labelSelectorRequirements(sel);
    return reqs.length > 0 && matchesLabels(reqs, labels);
  } catch {
    return false;
  }
}

/**
 * filterPodsWithPDBViolation: `pods` split into those whose eviction would violate a budget and
 * the others, each in the order given. Every budget that selects a pod (and has not already let
 * it go: status.disruptedPods) takes one disruption from a copy of its disruptionsAllowed; the
 * pod violates when one of them goes below 0. Given most important first, as upstream's caller
 * does, the more important pods use a budget's disruptions first.
 */
export function splitByBudgetViolation(pods: readonly Pod[], pdbs: readonly PodDisruptionBudget[]): { violating: Pod[]; nonViolating: Pod[] } {
  const allowed = pdbs.map((b) => b.status?.disruptionsAllowed ?? 0);
  const violating: Pod[] = [];
  const nonViolating: Pod[] = [];
  for (const pod of pods) {
    let violates = false;
    for (let i = 0; i < pdbs.length; i++) {
      const pdb = pdbs[i]!;
      if (!budgetSelectsForPreemption(pdb, pod)) continue;
      if (Object.prototype.hasOwnProperty.call(pdb.status?.disruptedPods ?? {}, pod.metadata.name ?? '')) continue;
      allowed[i]!--;
      if (allowed[i]! < 0) violates = true;
    }
    (violates ? violating : nonViolating).push(pod);
  }
  return { violating, nonViolating };
}

export type VictimSelection =
  | { ok: true; victims: Pod[]; numPDBViolations: number }
  /** The node's status in the dry run: the reasons the FitError counts. */
  | { ok: false; reasons: string[] };

/**
 * SelectVictimsOnNode: the fewest lower-priority pods whose removal lets `pod` fit on `node`,
 * most important first, sparing first the pods a budget protects, and how many of the victims
 * violate a budget; or why no removal helps.
 */
export function selectVictimsOnNode(pod: Pod, node: Node, podsOnNode: readonly Pod[], nominatedOnNode: readonly Pod[], gates: SchedulerGates, pdbs: readonly PodDisruptionBudget[] = []): VictimSelection {
  const prio = podPriority(pod);
  const active = podsOnNode.filter(isActivePod);
  const potential = active.filter((p) => podPriority(p) < prio);
  if (potential.length === 0) return { ok: false, reasons: [NoPreemptionVictims] };
  const kept = active.filter((p) => podPriority(p) >= prio);
  const without = fitsNodeWithNominated(pod, node, kept, nominatedOnNode, gates);
  if (!without.fits) return { ok: false, reasons: without.reasons };
  const victims: Pod[] = [];
  /** Adds `p` back; false, and `p` is a victim, when the pod no longer fits. */
  const reprieve = (p: Pod): boolean => {
    kept.push(p);
    if (fitsNodeWithNominated(pod, node, kept, nominatedOnNode, gates).fits) return true;
    kept.pop();
    victims.push(p);
    return false;
  };
  // Reprieve as many as possible: the budget-violating ones first, then the others, each most
  // important first.
  const { violating, nonViolating } = splitByBudgetViolation([...potential].sort(moreImportantFirst), pdbs);
  let numPDBViolations = 0;
  for (const p of violating) if (!reprieve(p)) numPDBViolations++;
  for (const p of nonViolating) reprieve(p);
  // The filters rejected the node with all these pods on it, so at least one stays a victim;
  // upstream treats none as an error ("expected at least one victim pod on node").
  if (victims.length === 0) return { ok: false, reasons: [] };
  if (violating.length && nonViolating.length) victims.sort(moreImportantFirst);
  return { ok: true, victims, numPDBViolations };
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

/** DefaultPreemptionArgs: how many candidate nodes the dry run looks for (v1 defaults 10% and 100). */
export interface PreemptionArgs {
  minCandidateNodesPercentage: number;
  minCandidateNodesAbsolute: number;
}
export const defaultPreemptionArgs: PreemptionArgs = Object.freeze({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 });

/** calculateNumCandidates: a percentage of the potential nodes, at least the absolute minimum, at most all of them. */
export function numCandidatesFor(numNodes: number, args: PreemptionArgs = defaultPreemptionArgs): number {
  let n = Math.trunc((numNodes * args.minCandidateNodesPercentage) / 100);
  if (n < args.minCandidateNodesAbsolute) n = args.minCandidateNodesAbsolute;
  if (n > numNodes) n = numNodes;
  return n;
}

/**
 * nodesWherePreemptionMightHelp: the nodes the filters rejected as Unschedulable, in the order
 * given; every other node (UnschedulableAndUnresolvable, or absent from `verdicts`, which
 * upstream's NodeToStatus reads as UnschedulableAndUnresolvable) reads "Preemption is not helpful
 * for scheduling".
 */
export function nodesWherePreemptionMightHelp(nodes: readonly Node[], verdicts: ReadonlyMap<string, FitResult>): { potential: Node[]; reasons: string[] } {
  const potential: Node[] = [];
  const reasons: string[] = [];
  for (const node of nodes) {
    if (verdicts.get(node.metadata.name!)?.rejection?.code === 'Unschedulable') potential.push(node);
    else reasons.push(PreemptionNotHelpful);
  }
  return { potential, reasons };
}

export interface DryRunResult {
  /** The nodes without budget violations first, then the others, each in the order walked. */
  candidates: Candidate[];
  /** The reasons of the nodes walked that are no candidate (the dry run's FitError). */
  reasons: string[];
}

/**
 * DryRunPreemption: SelectVictimsOnNode on the potential nodes from `offset` on (wrapping
 * around), keeping at most `numCandidates` candidates without budget violations and as many with;
 * the walk ends once there is one without and the two lists hold `numCandidates` together. So a
 * walk goes past `numCandidates` nodes only to find one whose victims violate no budget.
 */
export function dryRunPreemption(pod: Pod, potential: readonly Node[], podsByNode: PodsByNode, nominated: PodsByNode | undefined, gates: SchedulerGates, pdbs: readonly PodDisruptionBudget[], offset: number, numCandidates: number): DryRunResult {
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const reasons: string[] = [];
  const count = potential.length;
  for (let i = 0; i < count; i++) {
    const node = potential[(offset + i) % count]!;
    const name = node.metadata.name!;
    const sel = selectVictimsOnNode(pod, node, podsOn(podsByNode, name), podsOn(nominated, name), gates, pdbs);
    if (!sel.ok) {
      reasons.push(...sel.reasons);
      continue;
    }
    const list = sel.numPDBViolations === 0 ? nonViolating : violating;
    // Upstream's candidateList has room for numCandidates; a candidate past that is dropped.
    if (list.length < numCandidates) list.push({ node: name, victims: sel.victims, numPDBViolations: sel.numPDBViolations });
    if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
  }
  return { candidates: [...nonViolating, ...violating], reasons };
}

export interface PreemptOptions {
  /** Where the dry run starts among the potential nodes (name order), taken modulo their number; upstream picks it at random. */
  offset?: number;
  args?: PreemptionArgs;
}

/**
 * Evaluator.Preempt for a pod that fits nowhere: `verdicts` are the scheduling pass's filter
 * results by node name, `nominated` the pending pods nominated to each node, `pdbs` every
 * PodDisruptionBudget (of every namespace).
 */
export function preempt(pod: Pod, nodes: readonly Node[], verdicts: ReadonlyMap<string, FitResult>, podsByNode: PodsByNode, gates: SchedulerGates, nominated?: PodsByNode, pdbs: readonly PodDisruptionBudget[] = [], opts: PreemptOptions = {}): PreemptionOutcome {
  const why = ineligibleToPreempt(pod, verdicts, podsByNode);
  if (why) return { message: `preemption: ${why}` };
  const sorted = [...nodes].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  const { potential, reasons: unhelpful } = nodesWherePreemptionMightHelp(sorted, verdicts);
  const offset = potential.length ? (opts.offset ?? 0) % potential.length : 0;
  const dry = dryRunPreemption(pod, potential, podsByNode, nominated, gates, pdbs, offset, numCandidatesFor(potential.length, opts.args));
  const best = pickOneNodeForPreemption(dry.candidates);
  if (!best) return { message: `preemption: ${failedSchedulingMessage(nodes.length, [...unhelpful, ...dry.reasons])}`, nominatedNodeName: '' };
  return { message: '', nominatedNodeName: best.node, candidate: best };
}
