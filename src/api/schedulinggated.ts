// A pod created with scheduling gates is marked PodScheduled=False/SchedulingGated by the API
// server (applySchedulingGatedCondition in pkg/registry/core/pod/strategy.go, v1.32), so clients
// see why it waits; the scheduler leaves it alone until the gates are gone (src/scheduler/schedulinggates.ts).
// v1.32 adds the condition with podutil.UpdatePodCondition, which stamps lastTransitionTime with
// the time of the create (upstream's TestSchedulingGatedCondition requires it); lastProbeTime stays
// unset (null).

import { metaTime } from './metatime.js';
import type { Pod, PodCondition } from './types.js';

/** v1.PodReasonSchedulingGated. */
export const PodReasonSchedulingGated = 'SchedulingGated';
export const schedulingGatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';

/** The new pod's conditions with the SchedulingGated one added, when it is gated and has no PodScheduled condition yet. */
export function applySchedulingGatedCondition(pod: Pod, now: Date): void {
  if (!pod.spec?.schedulingGates?.length) return;
  const status = (pod.status ??= {});
  const conditions = status.conditions ?? [];
  if (conditions.some((c) => c.type === 'PodScheduled')) return;
  const cond = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: metaTime(now), reason: PodReasonSchedulingGated, message: schedulingGatedMessage } as unknown as PodCondition;
  status.conditions = [...conditions, cond];
}
