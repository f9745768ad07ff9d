// One scheduling decision: filter every node (counting the pods nominated to it, as
// RunFilterPluginsWithNominatedPods does), score the ones that fit (LeastAllocated over cpu and
// memory with the scheduler's non-zero request defaults), pick the best (ties by name; a pod's
// nominated node first, when it fits, as schedule_one.go's evaluateNominatedNode), or explain
// the failure as kube-scheduler's FitError does (fiterror.ts) after running DefaultPreemption
// (preemption.ts): its PostFilter message ("preemption: …") is appended, empty when preemption
// found victims, whose node the pod is then nominated to.

import { defaultFeatureGates } from '../api/featuregates.js';
import { podRequests } from '../api/podresources.js';
import { addInto, parseResourceList, ResourceCPU, ResourceMemory, type Resources } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import type { Node, Pod } from '../api/types.js';
import { isActivePod, type FitResult, type SchedulerGates } from './filters.js';
import { failedSchedulingMessage, NoNodesAvailableMsg, podsOn, type PodsByNode } from './fiterror.js';
import { fitsNodeWithNominated, preempt, type Candidate } from './preemption.js';

export { failedSchedulingMessage, NoNodesAvailableMsg, NoPreemptionVictims, PreemptionNotHelpful, type PodsByNode } from './fiterror.js';
export { PreemptionNeverMsg } from './preemption.js';

/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what a container without requests counts as when scoring. */
export const nonZeroDefaults: Resources = new Map([
  [ResourceCPU, Quantity.fromMilli(100)],
  [ResourceMemory, Quantity.fromInt(200 * 1024 * 1024, 'BinarySI')],
]);

function nonZeroRequests(pod: Pod, gates: SchedulerGates): Resources {
  return podRequests(pod, { podLevelResources: gates.PodLevelResources, nonMissingContainerRequests: nonZeroDefaults });
}

function amount(name: string, r: Resources): bigint {
  const q = r.get(name);
  if (!q) return 0n;
  return name === ResourceCPU ? q.milliValue() : q.value();
}

/**
 * NodeResourcesFit's LeastAllocated score (0–100): per resource (cpu, memory; weight 1 each)
 * (allocatable − requested) × 100 / allocatable with the incoming pod's non-zero requests added
 * to the node's, then the weighted mean, all in integers as upstream computes it.
 */
export function leastAllocatedScore(pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates): number {
  const allocatable = parseResourceList(node.status?.allocatable);
  const requested: Resources = new Map();
  for (const p of podsOnNode) if (isActivePod(p)) for (const [k, q] of nonZeroRequests(p, gates)) addInto(requested, k, q);
  for (const [k, q] of nonZeroRequests(pod, gates)) addInto(requested, k, q);
  let total = 0n;
  let weights = 0n;
  for (const name of [ResourceCPU, ResourceMemory]) {
    const cap = amount(name, allocatable);
    const req = amount(name, requested);
    weights += 1n;
    if (cap === 0n || req > cap) continue;
    total += ((cap - req) * 100n) / cap;
  }
  return Number(total / weights);
}

export interface ScheduleDecision {
  /** The chosen node, when some node fits. */
  node?: string;
  /** The FailedScheduling message, when none does. */
  message?: string;
  /** Each node's filter result, by name. */
  verdicts: Map<string, FitResult>;
  /** Scores of the nodes that fit. */
  scores: Map<string, number>;
  /** When none fits: the nominatedNodeName to write (a node, '' to clear), or undefined to leave it. */
  nominatedNodeName?: string;
  /** When preemption found a node: the node and the pods to preempt there. */
  preemption?: Candidate;
}

function byNodeName(a: Node, b: Node): number {
  return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
}

/**
 * Filters, scores and picks; deterministic (highest score, then the smallest name). `nominated`
 * holds the pending pods nominated to each node (status.nominatedNodeName).
 */
export function pickNode(pod: Pod, nodes: readonly Node[], podsByNode: PodsByNode, gates: SchedulerGates = defaultFeatureGates, nominated?: PodsByNode): ScheduleDecision {
  const verdicts = new Map<string, FitResult>();
  const scores = new Map<string, number>();
  if (nodes.length === 0) return { message: NoNodesAvailableMsg, verdicts, scores, nominatedNodeName: '' };
  const sorted = [...nodes].sort(byNodeName);
  // evaluateNominatedNode: the node the pod was nominated to is tried alone first.
  const nom = pod.status?.nominatedNodeName;
  const nomNode = nom ? sorted.find((n) => n.metadata.name === nom) : undefined;
  if (nomNode && fitsNodeWithNominated(pod, nomNode, podsOn(podsByNode, nom!), podsOn(nominated, nom!), gates).fits) {
    return { node: nom, verdicts, scores };
  }
  let best: string | undefined;
  let bestScore = -1;
  for (const node of sorted) {
    const name = node.metadata.name!;
    const on = podsOn(podsByNode, name);
    const v = fitsNodeWithNominated(pod, node, on, podsOn(nominated, name), gates);
    verdicts.set(name, v);
    if (!v.fits) continue;
    const s = leastAllocatedScore(pod, node, on, gates);
    scores.set(name, s);
    if (s > bestScore) {
      best = name;
      bestScore = s;
    }
  }
  if (best !== undefined) return { node: best, verdicts, scores };
  const reasons = [...verdicts.values()].flatMap((v) => v.reasons);
  const post = preempt(pod, sorted, verdicts, podsByNode, gates, nominated);
  return {
    message: failedSchedulingMessage(nodes.length, reasons, post.message),
    verdicts,
    scores,
    ...(post.nominatedNodeName !== undefined ? { nominatedNodeName: post.nominatedNodeName } : {}),
    ...(post.candidate ? { preemption: post.candidate } : {}),
  };
}
