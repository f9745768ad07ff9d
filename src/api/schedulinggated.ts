// A pod created with scheduling gates is marked PodScheduled=False/SchedulingGated by the API
// server (applySchedulingGatedCondition in pkg/registry/core/pod/strategy.go, v1.32), so clients
// see why it waits; the scheduler leaves it alone until the gates are gone (src/scheduler/schedulinggates.ts).

import type { Pod, PodCondition } from './types.js';

/** v1.PodReasonSchedulingGated. */
export const PodReasonSchedulingGated = 'SchedulingGated';
export const schedulingGatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';

/** The new pod's conditions with the SchedulingGated one added, when it is gated and has no PodScheduled condition yet. */
export function applySchedulingGatedCondition(pod: Pod): void {
  if (!pod.spec?.schedulingGates?.length) return;
  const status = (pod.status ??= {});
  const conditions = status.conditions ?? [];
  if (conditions.some((c) => c.type === 'PodScheduled')) return;
  // Upstream sets neither time: both serialize as null.
  const cond = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: null, reason: PodReasonSchedulingGated, message: schedulingGatedMessage } as unknown as PodCondition;
  status.conditions = [...conditions, cond];
}
