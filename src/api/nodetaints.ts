// The NoSchedule taints a node's conditions imply, as kube-controller-manager's node lifecycle
// controller keeps them (pkg/controller/nodelifecycle doNoScheduleTaintingPass,
// nodeConditionToTaintKeyStatusMap). Since NodeRestriction forbids a node to change its own
// taints, the server applies this on every Node update instead of the agent.

import type { Node, Taint } from './types.js';

const conditionTaints: Record<string, Record<string, string>> = {
  Ready: { False: 'node.kubernetes.io/not-ready', Unknown: 'node.kubernetes.io/unreachable' },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const unschedulableTaint = 'node.kubernetes.io/unschedulable';
const managedKeys = new Set([...Object.values(conditionTaints).flatMap((m) => Object.values(m)), unschedulableTaint]);

/**
 * The node's taints with the condition and unschedulable NoSchedule taints brought up to date.
 * It runs before validation: a null condition or taint (a client's mistake) is left in place for
 * validation to name, not read.
 */
export function reconcileConditionTaints(node: Node): Taint[] {
  const want: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    if (!c) continue;
    const key = conditionTaints[c.type]?.[c.status];
    if (key) want.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) want.push({ key: unschedulableTaint, effect: 'NoSchedule' });
  const current = node.spec?.taints ?? [];
  const managed = (t: Taint | null) => t?.effect === 'NoSchedule' && managedKeys.has(t.key);
  // Existing managed taints that are still wanted stay as they are (with their timeAdded).
  const kept = current.filter((t) => !managed(t) || want.some((w) => w.key === t.key));
  const added = want.filter((w) => !kept.some((t) => managed(t) && t.key === w.key));
  return [...kept, ...added];
}
