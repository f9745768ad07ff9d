// upstream's UpdatePodCondition (pkg/api/pod): a condition replaces the one of its type, keeping
// that one's lastTransitionTime when the status is unchanged. One rule for the binding (which
// sets PodScheduled=True) and the scheduler (which sets it False/Unschedulable).

import type { PodCondition } from './types.js';

export interface ConditionUpdate {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** The conditions with `cond` set (lastProbeTime null, as the callers upstream leave it); `changed` when status, reason or message differ. */
export function updatePodCondition(conditions: readonly PodCondition[], cond: ConditionUpdate, now: string): { conditions: PodCondition[]; changed: boolean } {
  const out = [...conditions];
  const i = out.findIndex((c) => c.type === cond.type);
  const old = i >= 0 ? out[i] : undefined;
  const changed = !(old && old.status === cond.status && old.reason === cond.reason && old.message === cond.message);
  const next: PodCondition = {
    type: cond.type,
    status: cond.status,
    lastProbeTime: null,
    lastTransitionTime: old && old.status === cond.status && old.lastTransitionTime ? old.lastTransitionTime : now,
    ...(cond.reason ? { reason: cond.reason } : {}),
    ...(cond.message ? { message: cond.message } : {}),
  };
  if (i >= 0) out[i] = next;
  else out.push(next);
  return { conditions: out, changed };
}
