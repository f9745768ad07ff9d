// The taint eviction controller's decision for one pod on a node with NoExecute taints
// (pkg/controller/tainteviction taint_eviction.go processPodOnNode and getMinTolerationTime,
// v1helper.GetMatchingTolerations): a taint the pod does not tolerate evicts it now; otherwise
// it goes after the shortest tolerationSeconds among the tolerations used (zero or less: now;
// none set: never), counted from when the controller first saw it tainted; an eviction already
// pending stands as scheduled whatever later updates say, until cancelled. No taints: any scheduled eviction is cancelled.

import type { Taint, Toleration } from '../api/types.js';
import { toleratesTaint } from './filters.js';

/** An eviction already scheduled for the pod. */
export interface ScheduledEviction {
  createdAt: number;
  fireAt: number;
}

export type EvictionDecision =
  | { action: 'cancel' }
  | { action: 'keep' }
  | { action: 'schedule'; createdAt: number; fireAt: number };

/** The NoExecute taints of a node. */
export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** GetMatchingTolerations: whether every taint is tolerated, and the tolerations that do. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[] | undefined): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = (tolerations ?? []).find((x) => toleratesTaint(x, taint));
    if (!t) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}

/** getMinTolerationTime in ms: -1 when no toleration bounds it. */
export function minTolerationMs(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export function evictionDecision(taints: readonly Taint[], tolerations: readonly Toleration[] | undefined, now: number, scheduled: ScheduledEviction | undefined): EvictionDecision {
  if (taints.length === 0) return { action: 'cancel' };
  const { all, used } = matchingTolerations(taints, tolerations);
  if (!all) return { action: 'schedule', createdAt: now, fireAt: now };
  const min = minTolerationMs(used);
  if (min < 0) return { action: 'cancel' };
  if (scheduled) {
    // A pending eviction stands as scheduled (upstream compares start+min with now+min).
    if (scheduled.createdAt + min < now + min) return { action: 'keep' };
    return { action: 'schedule', createdAt: scheduled.createdAt, fireAt: now + min };
  }
  return { action: 'schedule', createdAt: now, fireAt: now + min };
}
