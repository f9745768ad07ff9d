// The score plugins of kube-scheduler v1.32's default profile that Bulkhead runs, and the
// framework's way of adding them up (RunScorePlugins, pkg/scheduler/framework/runtime/framework.go):
// every plugin scores every feasible node with an integer, a plugin with NormalizeScore rescales
// its list to 0–100, and a node's total is Σ weight × score, with the weights of
// pkg/scheduler/apis/config/v1/default_plugins.go:
//
//   TaintToleration                  3  taint_toleration.go: the node's PreferNoSchedule taints
//                                       (spec.taints) the pod does not tolerate, counted, then
//                                       DefaultNormalizeScore reversed (fewest → 100)
//   NodeAffinity                     2  node_affinity.go: the weights of the pod's preferred terms
//                                       that match the node, summed, then DefaultNormalizeScore
//                                       (largest → 100); skipped for a pod without preferred terms
//   NodeResourcesFit                 1  least_allocated.go: LeastAllocated over cpu and memory with
//                                       the non-zero request defaults (NonZeroRequested)
//   NodeResourcesBalancedAllocation  1  balanced_allocation.go + resource_allocation.go: cpu and
//                                       memory with the real requests (useRequested: true, no
//                                       non-zero defaults), score (1 − std) × 100 truncated
//
// Left out of the default profile's scoring, so their weights are missing from every total:
//   ImageLocality (weight 1)     nodes do not report status.images here.
//   InterPodAffinity (weight 2)  preferred pod (anti-)affinity of the incoming pod and of the
//                                pods already bound; neither is scored (required pod affinity is
//                                not filtered either).
//   PodTopologySpread (weight 2) neither the pod's ScheduleAnyway constraints nor the default
//                                system constraints (hostname weight 3 / zone weight 1 skew for
//                                pods of a Service, ReplicaSet, ReplicationController or
//                                StatefulSet) are scored.
// NodeAffinityArgs.addedAffinity has no counterpart: Bulkhead runs the default profile only.
//
// Departures: a pod whose preferred terms do not parse (a matchExpressions value that is no
// label value, a Gt/Lt value that is no integer; v1.32 validation lets both through) fails its
// scheduling cycle upstream (NodeAffinity PreScore returns the parse error); here NodeAffinity
// scores such a pod as it does one without preferred terms. BalancedAllocation scores
// BestEffort pods (all nodes equal while nothing else changes), as v1.32 does; the PreScore Skip
// for them came with v1.33 (kubernetes#130260).

import type { Node, Pod, Toleration } from '../api/types.js';
import { ResourceCPU, ResourceMemory } from '../api/resourcelist.js';
import { addAmount, mulDivAmount, subAmount, type Amount } from './amount.js';
import { nodeSelectorTermMatches, nodeSelectorTermParses, tolerationsTolerateTaint, type NodeSelectorTerm, type PodState } from './filters.js';
import type { NodeInfo } from './nodeinfo.js';

/** framework.MaxNodeScore. */
export const MaxNodeScore = 100;

/** The weights of the score plugins Bulkhead runs (default_plugins.go, v1.32). */
export const scoreWeights = { TaintToleration: 3, NodeAffinity: 2, NodeResourcesFit: 1, NodeResourcesBalancedAllocation: 1 } as const;

// ---------------------------------------------------------------- NodeResourcesFit (LeastAllocated)

/**
 * NodeResourcesFit's LeastAllocated score (0–100): per resource (cpu, memory; weight 1 each)
 * (allocatable − requested) × 100 / allocatable with the incoming pod's non-zero requests added
 * to the node's, then the weighted mean, all in integers as upstream computes it. A resource the
 * node has no allocatable of is left out of the mean (resource_allocation.go's score skips
 * alloc 0 and leastResourceScorer counts no weight for it); none at all scores 0.
 */
export function leastAllocatedScore(s: PodState, n: NodeInfo): number {
  let sum = 0;
  let weights = 0;
  if (n.allocatableCPU !== 0) {
    sum += leastAllocated(n.allocatableCPU, addAmount(n.nonZeroCPU, s.info.nonZeroCPU));
    weights++;
  }
  if (n.allocatableMemory !== 0) {
    sum += leastAllocated(n.allocatableMemory, addAmount(n.nonZeroMemory, s.info.nonZeroMemory));
    weights++;
  }
  // Each is at most 100: the weighted mean, truncated.
  return weights === 0 ? 0 : Math.trunc(sum / weights);
}

/** leastRequestedScore of one resource: (capacity − requested) × 100 / capacity, 0 when nothing is left. */
function leastAllocated(cap: Amount, req: Amount): number {
  if (req > cap) return 0;
  return Number(mulDivAmount(subAmount(cap, req), MaxNodeScore, cap));
}

// ---------------------------------------------------------------- NodeResourcesBalancedAllocation

/**
 * balancedResourceScorer over cpu and memory: each resource's fraction requested (the node's
 * real requests plus the pod's, over allocatable, at most 1; a resource the node has none of is
 * left out), the standard deviation of the fractions (two: |a − b| / 2; fewer: 0), and
 * int64((1 − std) × 100). Float64 arithmetic in the same order as upstream's, so the
 * truncation lands where Go's does.
 */
export function balancedAllocationScore(s: PodState, n: NodeInfo): number {
  const cpu = fraction(n.allocatableCPU, n.requested.get(ResourceCPU) ?? 0, s.info.fit.get(ResourceCPU) ?? 0);
  const memory = fraction(n.allocatableMemory, n.requested.get(ResourceMemory) ?? 0, s.info.fit.get(ResourceMemory) ?? 0);
  const std = cpu !== undefined && memory !== undefined ? Math.abs((cpu - memory) / 2) : 0;
  return Math.trunc((1 - std) * MaxNodeScore);
}

function fraction(allocatable: Amount, onNode: Amount, pod: Amount): number | undefined {
  if (allocatable === 0) return undefined;
  const f = Number(addAmount(onNode, pod)) / Number(allocatable);
  return f > 1 ? 1 : f;
}

// ---------------------------------------------------------------- TaintToleration

/** getAllTolerationPreferNoSchedule: the pod's tolerations with effect PreferNoSchedule or none (every effect). */
export function preferNoScheduleTolerations(pod: Pod): Toleration[] {
  return (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

/** countIntolerableTaintsPreferNoSchedule: the node's PreferNoSchedule taints none of these tolerate. */
export function taintTolerationRawScore(tolerations: readonly Toleration[], n: NodeInfo): number {
  const taints = n.preferNoScheduleTaints;
  let count = 0;
  for (let i = 0; i < taints.length; i++) if (!tolerationsTolerateTaint(tolerations, taints[i]!)) count++;
  return count;
}

// ---------------------------------------------------------------- NodeAffinity

export interface PreferredTerm {
  weight: number;
  term: NodeSelectorTerm;
}

/**
 * NodeAffinity's PreScore state (getPodPreferredNodeAffinity, NewPreferredSchedulingTerms): the
 * pod's preferred terms without the ones of weight 0 or with no requirement; undefined when the
 * pod has none (PreScore returns Skip), null when a term does not parse (upstream's PreScore
 * error, see the header).
 */
export function preferredSchedulingTerms(pod: Pod): PreferredTerm[] | undefined | null {
  const na = pod.spec.affinity?.nodeAffinity as { preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: NodeSelectorTerm }[] } | undefined;
  const list = na?.preferredDuringSchedulingIgnoredDuringExecution;
  if (!list) return undefined;
  const out: PreferredTerm[] = [];
  for (const t of list) {
    const term = t?.preference ?? {};
    if (!t?.weight || ((term.matchExpressions ?? []).length === 0 && (term.matchFields ?? []).length === 0)) continue;
    if (!nodeSelectorTermParses(term)) return null;
    out.push({ weight: t.weight, term });
  }
  return out;
}

/** PreferredSchedulingTerms.Score: the sum of the weights of the terms that match the node. */
export function nodeAffinityRawScore(terms: readonly PreferredTerm[], node: Node): number {
  let score = 0;
  for (const t of terms) if (nodeSelectorTermMatches(t.term, node)) score += t.weight;
  return score;
}

// ---------------------------------------------------------------- normalizing and adding up

/**
 * helper.DefaultNormalizeScore: rescales [0, max] to [0, 100] in integers (100 × score / max),
 * reversed (100 − that) when asked; all zero stays 0, or becomes 100 when reversed. In place.
 */
export function defaultNormalizeScore(scores: number[], reverse: boolean): void {
  let max = 0;
  for (const v of scores) if (v > max) max = v;
  if (max === 0) {
    if (reverse) scores.fill(MaxNodeScore);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const v = Math.trunc((MaxNodeScore * scores[i]!) / max);
    scores[i] = reverse ? MaxNodeScore - v : v;
  }
}

/**
 * RunScorePlugins over the feasible nodes: the total of each node, in their order. The pod's
 * PreScore state (its PreferNoSchedule tolerations and preferred terms) is computed once; the
 * resource plugins read the sums NodeInfo keeps, so a node costs a few arithmetic operations.
 */
export function scoreNodes(s: PodState, nodes: readonly NodeInfo[]): number[] {
  const k = nodes.length;
  const totals = new Array<number>(k);
  const taints = new Array<number>(k);
  const tolerations = preferNoScheduleTolerations(s.pod);
  const preferred = preferredSchedulingTerms(s.pod);
  const affinity = preferred ? new Array<number>(k) : undefined;
  for (let i = 0; i < k; i++) {
    const n = nodes[i]!;
    totals[i] = scoreWeights.NodeResourcesFit * leastAllocatedScore(s, n) + scoreWeights.NodeResourcesBalancedAllocation * balancedAllocationScore(s, n);
    taints[i] = taintTolerationRawScore(tolerations, n);
    if (affinity) affinity[i] = nodeAffinityRawScore(preferred!, n.node!);
  }
  defaultNormalizeScore(taints, true);
  if (affinity) defaultNormalizeScore(affinity, false);
  for (let i = 0; i < k; i++) {
    totals[i] = totals[i]! + scoreWeights.TaintToleration * taints[i]! + (affinity ? scoreWeights.NodeAffinity * affinity[i]! : 0);
  }
  return totals;
}
