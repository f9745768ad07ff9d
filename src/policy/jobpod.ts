// What the Job controller asks of one of its pods (pkg/controller/job/job_controller.go
// isPodFailed, onlyReplaceFailedPods, hasJobTrackingFinalizer; controller.FilterActivePods and
// CountTerminatingPods): shared by the sync steps (job.ts), the counting (jobstatus.ts) and the
// per-index rules (jobperindex.ts). Pure.

import type { Job, Pod } from '../api/types.js';

export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

export const podPhase = (p: Pod) => p.status?.phase ?? '';
const terminal = (p: Pod) => podPhase(p) === 'Succeeded' || podPhase(p) === 'Failed';
export const hasTrackingFinalizer = (p: Pod) => (p.metadata?.finalizers ?? []).includes(jobTrackingFinalizer);

/** onlyReplaceFailedPods: podReplacementPolicy Failed, always so with a podFailurePolicy. */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;
}

/** isPodFailed: Failed, or (unless only Failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (podPhase(p) === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!p.metadata?.deletionTimestamp && podPhase(p) !== 'Succeeded';
}

/** controller.FilterActivePods: not terminal and not being deleted. */
export const isActivePod = (p: Pod) => !terminal(p) && !p.metadata?.deletionTimestamp;
/** controller.FilterTerminatingPods / CountTerminatingPods: being deleted and not terminal. */
export const isTerminatingPod = (p: Pod) => !!p.metadata?.deletionTimestamp && !terminal(p);
