// The scheduler's failure wording, shared by the scheduling pass (pick.ts) and the preemption
// dry run (preemption.ts): kube-scheduler's FitError message and the statuses its
// DefaultPreemption plugin gives nodes.
//
// Message format (pkg/scheduler/framework/types.go, FitError.Error, v1.32):
//   "0/%v nodes are available:" + " <count> <reason>, …." (sorted as strings) + " <postFilterMsg>",
//   or, when a PreFilter plugin rejected the pod, " <preFilterMsg>." in place of the counts
// No nodes at all: ErrNoNodesAvailable (pkg/scheduler/schedule_one.go),
// "no nodes available to schedule pods".
// Node statuses of the preemption dry run (pkg/scheduler/framework/preemption/preemption.go,
// plugins/defaultpreemption/default_preemption.go): a node preemption cannot help reads
// "Preemption is not helpful for scheduling", a node without lower-priority pods "No preemption
// victims found for incoming pod".

import type { Pod } from '../api/types.js';

export const NoNodesAvailableMsg = 'no nodes available to schedule pods';
export const PreemptionNotHelpful = 'Preemption is not helpful for scheduling';
export const NoPreemptionVictims = 'No preemption victims found for incoming pod';

export type PodsByNode = ReadonlyMap<string, readonly Pod[]> | Readonly<Record<string, readonly Pod[]>>;

const none: readonly Pod[] = Object.freeze([]);

export function podsOn(podsByNode: PodsByNode | undefined, node: string): readonly Pod[] {
  if (!podsByNode) return none;
  if (podsByNode instanceof Map) return podsByNode.get(node) ?? none;
  return (podsByNode as Readonly<Record<string, readonly Pod[]>>)[node] ?? none;
}

/**
 * FitError.Error(): `reasons` holds one entry per node and reason (a node rejected for cpu and
 * memory contributes two). The histogram is sorted as Go's sort.Strings sorts it. When a
 * PreFilter rejected the pod, its message stands alone (`preFilterMsg`) and the nodes' copies
 * of it are not counted.
 */
export function failedSchedulingMessage(nodeCount: number, reasons: readonly string[], postFilterMsg?: string, preFilterMsg?: string): string {
  let msg = `0/${nodeCount} nodes are available:`;
  if (preFilterMsg) return `${msg} ${preFilterMsg}.${postFilterMsg ? ` ${postFilterMsg}` : ''}`;
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (parts.length) msg += ` ${parts.join(', ')}.`;
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
}
