// A pod's spec.activeDeadlineSeconds as the kubelet enforces it (pkg/kubelet/active_deadline.go):
// once that long has passed since the pod's status.startTime (the kubelet's latest status, else
// the API's), the pod is Failed with reason DeadlineExceeded and its containers are stopped. No
// deadline, or no start time yet, never expires. Pure: `now` in ms.

import type { Pod } from '../api/types.js';

export const activeDeadlineReason = 'DeadlineExceeded';
export const activeDeadlineMessage = 'Pod was active on the node longer than the specified deadline';

/** How long until the pod's active deadline (0 or less: past it); undefined when it has none or has not started. */
export function activeDeadlineRemainingMs(pod: Pod, startTime: string | undefined, now: number): number | undefined {
  const seconds = pod.spec?.activeDeadlineSeconds;
  if (seconds === undefined || seconds === null) return undefined;
  const start = startTime === undefined ? Number.NaN : Date.parse(startTime);
  // metav1.Time's IsZero: an absent or unparsable start time.
  if (!Number.isFinite(start)) return undefined;
  return start + seconds * 1000 - now;
}

/** pastActiveDeadline: the time since the start is at least the deadline. */
export function pastActiveDeadline(pod: Pod, startTime: string | undefined, now: number): boolean {
  const left = activeDeadlineRemainingMs(pod, startTime, now);
  return left !== undefined && left <= 0;
}
