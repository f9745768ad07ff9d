// One scheduling decision: NodeAffinity's PreFilter (a pod whose required terms all name nodes
// by metadata.name is only tried on those; the others read "node(s) didn't satisfy plugin(s)
// [NodeAffinity]"; conflicting names reject the pod outright), then filter the nodes (counting
// the pods nominated to each, as RunFilterPluginsWithNominatedPods does), score the ones that fit
// with the default profile's score plugins that Bulkhead runs (score.ts: TaintToleration ×3,
// NodeAffinity ×2, NodeResourcesFit's LeastAllocated ×1, NodeResourcesBalancedAllocation ×1, each
// normalized over all the feasible nodes as RunScorePlugins does; ImageLocality,
// InterPodAffinity and PodTopologySpread are not scored, see score.ts), pick the highest total
// (a pod's nominated node first, when it fits, as schedule_one.go's evaluateNominatedNode), or
// explain the failure as kube-scheduler's FitError does (fiterror.ts) after running
// DefaultPreemption (preemption.ts): its PostFilter message ("preemption: …") is appended, empty
// when preemption found victims, whose node the pod is then nominated to. Preemption weighs the
// PodDisruptionBudgets the caller hands it (PickOptions.budgets).
//
// As findNodesThatPassFilters does, the walk stops once numFeasibleNodesToFind nodes fit
// (percentageOfNodesToScore; adaptive by default: 50% minus one point per 125 nodes, at least
// 5% and at least 100 nodes, all of them below 100) and starts where the last walk stopped, so
// that successive pods look at different nodes. Scoring needs every feasible node's raw scores
// before normalizing, so the feasible nodes are collected first and scored after the walk; a
// single feasible node is taken unscored (schedulePod's shortcut). The nodes are walked in name
// order from that start; ties of the total go to the first node walked (upstream's selectHost
// picks one of them at random). With fewer nodes than the search needs, every walk covers all of
// them and starts at the first name.

import { defaultFeatureGates } from '../api/featuregates.js';
import type { Node, Pod, PodDisruptionBudget } from '../api/types.js';
import { fitsNodeInfo, nodeAffinityPreFilterNames, podState, ReasonAffinityConflict, ReasonPreFilterNodeAffinity, type FitResult, type PodState, type SchedulerGates } from './filters.js';
import { failedSchedulingMessage, NoNodesAvailableMsg, podsOn, type PodsByNode } from './fiterror.js';
import { NodeInfo } from './nodeinfo.js';
import { nominatedPodsFor, preempt, type Candidate } from './preemption.js';
import { scoreNodes } from './score.js';

export { failedSchedulingMessage, NoNodesAvailableMsg, NoPreemptionVictims, PreemptionNotHelpful, type PodsByNode } from './fiterror.js';
export { PreemptionNeverMsg } from './preemption.js';
export { nonZeroDefaults } from './nodeinfo.js';

/** schedule_one.go minFeasibleNodesToFind and minFeasibleNodesPercentageToFind. */
export const minFeasibleNodesToFind = 100;
export const minFeasibleNodesPercentageToFind = 5;

/**
 * numFeasibleNodesToFind: how many fitting nodes end the search. `percentage` is
 * percentageOfNodesToScore, 0 (the default) for the adaptive value.
 */
export function numFeasibleNodesToFind(numAllNodes: number, percentage = 0): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let p = percentage;
  if (p === 0) {
    p = 50 - Math.trunc(numAllNodes / 125);
    if (p < minFeasibleNodesPercentageToFind) p = minFeasibleNodesPercentageToFind;
  }
  const n = Math.trunc((numAllNodes * p) / 100);
  return n < minFeasibleNodesToFind ? minFeasibleNodesToFind : n;
}

export interface ScheduleDecision {
  /** The chosen node, when some node fits. */
  node?: string;
  /** The FailedScheduling message, when none does. */
  message?: string;
  /** The filter result of each node walked that the pod does not fit, by name (on failure: every node). */
  verdicts: Map<string, FitResult>;
  /** The chosen node's total score (score.ts); absent when it was the only feasible node (not scored, as upstream). */
  score?: number;
  /** How many nodes the walk looked at: where the next one starts (nextStartNodeIndex). */
  processed: number;
  /** When none fits: the nominatedNodeName to write (a node, '' to clear), or undefined to leave it. */
  nominatedNodeName?: string;
  /** When preemption found a node: the node and the pods to preempt there. */
  preemption?: Candidate;
}

export interface PickOptions {
  /** percentageOfNodesToScore; 0 or absent: adaptive. */
  percentageOfNodesToScore?: number;
  /** Where in the name-ordered nodes the walk starts (taken modulo their number). */
  startIndex?: number;
  /**
   * Every PodDisruptionBudget, read only when the pod fits nowhere and preemption runs (as
   * upstream's Evaluator lists its PDB lister in findCandidates); none when absent.
   */
  budgets?: () => readonly PodDisruptionBudget[];
}

function fitsWithNominated(s: PodState, n: NodeInfo, nominatedOnNode: readonly Pod[]): FitResult {
  if (nominatedOnNode.length === 0) return fitsNodeInfo(s, n);
  const extra = nominatedPodsFor(s.pod, nominatedOnNode);
  return fitsNodeInfo(s, extra.length ? n.withPods(extra, s.gates) : n);
}

/**
 * Filters, scores and picks over NodeInfos in name order (the scheduler cache's snapshot).
 * `nominated` holds the pending pods nominated to each node (status.nominatedNodeName).
 */
export function pickNodeInfo(pod: Pod, infos: readonly NodeInfo[], gates: SchedulerGates = defaultFeatureGates, nominated?: PodsByNode, opts: PickOptions = {}): ScheduleDecision {
  const verdicts = new Map<string, FitResult>();
  const all = infos.length;
  if (all === 0) return { message: NoNodesAvailableMsg, verdicts, processed: 0, nominatedNodeName: '' };
  const s = podState(pod, gates);
  // evaluateNominatedNode: the node the pod was nominated to is tried alone first.
  const nom = pod.status?.nominatedNodeName;
  const nomInfo = nom ? infos.find((n) => n.name === nom) : undefined;
  if (nomInfo && fitsWithNominated(s, nomInfo, podsOn(nominated, nom!)).fits) return { node: nom, verdicts, processed: 0 };
  // NodeAffinity's PreFilter: a pod whose required terms all name nodes is only tried there.
  const named = nodeAffinityPreFilterNames(pod);
  if (named?.size === 0) return preFilterRejects(pod, infos, gates, nominated, opts);
  const walk = named ? infos.filter((n) => named.has(n.name)) : infos;
  const count = walk.length;
  const want = numFeasibleNodesToFind(count, opts.percentageOfNodesToScore);
  const start = count ? (opts.startIndex ?? 0) % count : 0;
  const feasible: NodeInfo[] = [];
  let processed = 0;
  while (processed < count && feasible.length < want) {
    const n = walk[(start + processed) % count]!;
    processed++;
    const v = nominated ? fitsWithNominated(s, n, podsOn(nominated, n.name)) : fitsNodeInfo(s, n);
    if (!v.fits) {
      verdicts.set(n.name, v);
      continue;
    }
    feasible.push(n);
  }
  if (feasible.length === 1) return { node: feasible[0]!.name, verdicts, processed };
  if (feasible.length > 1) {
    const scores = scoreNodes(s, feasible);
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
    return { node: feasible[best]!.name, score: scores[best]!, verdicts, processed };
  }
  // The nodes the PreFilterResult left out share one status (SetAbsentNodesStatus).
  if (named) for (const n of infos) if (!named.has(n.name)) verdicts.set(n.name, rejected(ReasonPreFilterNodeAffinity));
  const reasons = [...verdicts.values()].flatMap((v) => v.reasons);
  const nodes = infos.map((n) => n.node!);
  const podsByNode = new Map(infos.map((n) => [n.name, n.podList()]));
  const post = preempt(pod, nodes, verdicts, podsByNode, gates, nominated, opts.budgets?.() ?? []);
  return {
    message: failedSchedulingMessage(all, reasons, post.message),
    verdicts,
    processed,
    ...(post.nominatedNodeName !== undefined ? { nominatedNodeName: post.nominatedNodeName } : {}),
    ...(post.candidate ? { preemption: post.candidate } : {}),
  };
}

function rejected(reason: string): FitResult {
  return { fits: false, reasons: [reason], rejection: { code: 'UnschedulableAndUnresolvable', plugin: 'NodeAffinity', reasons: [reason] } };
}

/** The NodeAffinity PreFilter rejected the pod: every node carries its status, the message is the PreFilter's, and preemption cannot help. */
function preFilterRejects(pod: Pod, infos: readonly NodeInfo[], gates: SchedulerGates, nominated: PodsByNode | undefined, opts: PickOptions): ScheduleDecision {
  const verdicts = new Map<string, FitResult>(infos.map((n) => [n.name, rejected(ReasonAffinityConflict)]));
  const post = preempt(pod, infos.map((n) => n.node!), verdicts, new Map(infos.map((n) => [n.name, n.podList()])), gates, nominated, opts.budgets?.() ?? []);
  return {
    message: failedSchedulingMessage(infos.length, [], post.message, ReasonAffinityConflict),
    verdicts,
    processed: 0,
    ...(post.nominatedNodeName !== undefined ? { nominatedNodeName: post.nominatedNodeName } : {}),
    ...(post.candidate ? { preemption: post.candidate } : {}),
  };
}

function byNodeName(a: Node, b: Node): number {
  return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
}

/** pickNodeInfo over nodes and the pods bound to each, for callers without a scheduler cache. */
export function pickNode(pod: Pod, nodes: readonly Node[], podsByNode: PodsByNode, gates: SchedulerGates = defaultFeatureGates, nominated?: PodsByNode, opts: PickOptions = {}): ScheduleDecision {
  const infos = [...nodes].sort(byNodeName).map((n) => NodeInfo.of(n, podsOn(podsByNode, n.metadata.name!), gates));
  return pickNodeInfo(pod, infos, gates, nominated, opts);
}
