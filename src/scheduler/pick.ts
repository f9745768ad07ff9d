// One scheduling decision: filter every node, score the ones that fit (LeastAllocated over cpu
// and memory with the scheduler's non-zero request defaults), pick the best (ties by name), or
// explain the failure as kube-scheduler's FitError does, with DefaultPreemption's PostFilter
// message appended ("preemption: …"), as kube-scheduler 1.27+ prints it.
//
// Message format (pkg/scheduler/framework/types.go, FitError.Error, master as stored):
//   "0/%v nodes are available:" + " <count> <reason>, …." (sorted as strings) + " <postFilterMsg>"
// Preemption (pkg/scheduler/framework/plugins/defaultpreemption, framework/preemption):
//   "preemption: " + the FitError of the preemption dry run, where a node rejected as
//   UnschedulableAndUnresolvable reads "Preemption is not helpful for scheduling" and a node
//   without lower-priority pods "No preemption victims found for incoming pod"; a pod with
//   preemptionPolicy Never gets "preemption: not eligible due to preemptionPolicy=Never.".
// No nodes at all: ErrNoNodesAvailable, "no nodes available to schedule pods".

import { defaultFeatureGates } from '../api/featuregates.js';
import { podRequests } from '../api/podresources.js';
import { addInto, parseResourceList, ResourceCPU, ResourceMemory, type Resources } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import type { Node, Pod } from '../api/types.js';
import { fitsNode, isActivePod, type FitResult, type SchedulerGates } from './filters.js';

export const NoNodesAvailableMsg = 'no nodes available to schedule pods';
export const PreemptionNotHelpful = 'Preemption is not helpful for scheduling';
export const NoPreemptionVictims = 'No preemption victims found for incoming pod';
export const PreemptionNeverMsg = 'preemption: not eligible due to preemptionPolicy=Never.';

/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what a container without requests counts as when scoring. */
export const nonZeroDefaults: Resources = new Map([
  [ResourceCPU, Quantity.fromMilli(100)],
  [ResourceMemory, Quantity.fromInt(200 * 1024 * 1024, 'BinarySI')],
]);

export type PodsByNode = ReadonlyMap<string, readonly Pod[]> | Readonly<Record<string, readonly Pod[]>>;

function podsOn(podsByNode: PodsByNode, node: string): readonly Pod[] {
  if (podsByNode instanceof Map) return podsByNode.get(node) ?? [];
  return (podsByNode as Readonly<Record<string, readonly Pod[]>>)[node] ?? [];
}

/**
 * FitError.Error(): `reasons` holds one entry per node and reason (a node rejected for cpu and
 * memory contributes two). The histogram is sorted as Go's sort.Strings sorts it.
 */
export function failedSchedulingMessage(nodeCount: number, reasons: readonly string[], postFilterMsg?: string): string {
  let msg = `0/${nodeCount} nodes are available:`;
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (parts.length) msg += ` ${parts.join(', ')}.`;
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
}

function priority(p: Pod): number {
  return p.spec.priority ?? 0;
}

/**
 * DefaultPreemption's message when preemption cannot help, or undefined when removing
 * lower-priority pods from some node would make the pod fit (upstream would then nominate that
 * node and print no preemption message; Bulkhead does not evict, see the report).
 */
export function preemptionMessage(pod: Pod, nodes: readonly Node[], verdicts: ReadonlyMap<string, FitResult>, podsByNode: PodsByNode, gates: SchedulerGates): string | undefined {
  if (pod.spec.preemptionPolicy === 'Never') return PreemptionNeverMsg;
  const reasons: string[] = [];
  for (const node of nodes) {
    const name = node.metadata.name!;
    const v = verdicts.get(name);
    if (!v || v.fits) continue;
    if (v.rejection?.code !== 'Unschedulable') {
      reasons.push(PreemptionNotHelpful);
      continue;
    }
    const all = podsOn(podsByNode, name).filter(isActivePod);
    const kept = all.filter((p) => priority(p) >= priority(pod));
    if (kept.length === all.length) {
      reasons.push(NoPreemptionVictims);
      continue;
    }
    const again = fitsNode(pod, node, kept, gates);
    if (again.fits) return undefined;
    reasons.push(...again.reasons);
  }
  return `preemption: ${failedSchedulingMessage(nodes.length, reasons)}`;
}

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
}

/** Filters, scores and picks; deterministic (highest score, then the smallest name). */
export function pickNode(pod: Pod, nodes: readonly Node[], podsByNode: PodsByNode, gates: SchedulerGates = defaultFeatureGates): ScheduleDecision {
  const verdicts = new Map<string, FitResult>();
  const scores = new Map<string, number>();
  if (nodes.length === 0) return { message: NoNodesAvailableMsg, verdicts, scores };
  const sorted = [...nodes].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  let best: string | undefined;
  let bestScore = -1;
  for (const node of sorted) {
    const name = node.metadata.name!;
    const on = podsOn(podsByNode, name);
    const v = fitsNode(pod, node, on, gates);
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
  const post = preemptionMessage(pod, sorted, verdicts, podsByNode, gates);
  return { message: failedSchedulingMessage(nodes.length, reasons, post), verdicts, scores };
}
