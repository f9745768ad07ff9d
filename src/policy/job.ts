// The Job controller's decisions for one sync, as pure functions (pkg/controller/job/
// job_controller.go syncJob, manageJob, getStatus, trackJobStatusAndRemoveFinalizers,
// pastBackoffLimitOnFailure, pastActiveDeadline, newFailureCondition/newCondition, and the pod
// template → pod of pkg/controller/controller_utils.go GetPodFromTemplate): given the Job, the
// pods it owns and the time, what to create, what to delete, which finished pods to count, and
// the status with its conditions, reasons and messages. Finished pods are counted once through
// the `batch.kubernetes.io/job-tracking` finalizer as upstream tracks them: a finished pod that
// still has it is not yet in status.succeeded/failed; the caller removes it after the status
// write. NonIndexed completion only (Indexed and backoffLimitPerIndex are left to a later
// change); no I/O, no clock.

import type { Job, JobCondition, JobStatus, OwnerReference, Pod } from '../api/types.js';
import { matchPodFailurePolicy } from './podfailurepolicy.js';

export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

/** Reasons and messages of batch/v1 types.go and job_controller.go. */
export const jobReasons = {
  backoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  podFailurePolicy: 'PodFailurePolicy',
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  suspended: { reason: 'JobSuspended', message: 'Job suspended' },
  resumed: { reason: 'JobResumed', message: 'Job resumed' },
} as const;

export interface JobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface JobSyncDecision {
  /** How many pods to create from the template (podFromTemplate). */
  create: number;
  /** Names of pods to delete (active pods beyond what is wanted, or all on finish/suspend). */
  delete: string[];
  /** Names of finished pods now counted in the status: remove their tracking finalizer after the status write. */
  counted: string[];
  /** The status to write (unchanged fields kept). */
  status: JobStatus;
  events: JobEvent[];
}

export interface JobSyncInput {
  job: Job;
  /** The pods the job owns (matching its selector, controlled by it). */
  pods: readonly Pod[];
  /** The sync's time, RFC 3339. */
  now: string;
}

const isTrue = (conds: JobCondition[] | undefined, type: string) => (conds ?? []).some((c) => c.type === type && c.status === 'True');

/** IsJobFinished: Complete or Failed is True. */
export function isJobFinished(job: Job): boolean {
  return isTrue(job.status?.conditions, 'Complete') || isTrue(job.status?.conditions, 'Failed');
}

const terminating = (p: Pod) => !!p.metadata?.deletionTimestamp;
const phase = (p: Pod) => p.status?.phase ?? '';
const finished = (p: Pod) => phase(p) === 'Succeeded' || phase(p) === 'Failed';

/** onlyReplaceFailedPods: podReplacementPolicy Failed (always so with a podFailurePolicy). */
function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;
}

/** isPodFailed: Failed, or (unless only Failed pods are replaced) deleted before it succeeded. */
function isPodFailed(p: Pod, job: Job): boolean {
  if (phase(p) === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return terminating(p) && phase(p) !== 'Succeeded';
}

const isReady = (p: Pod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts of active pods count as failures. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (phase(p) !== 'Running' && phase(p) !== 'Pending') continue;
    for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += cs.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** pastActiveDeadline: activeDeadlineSeconds have passed since status.startTime. */
export function pastActiveDeadline(job: Job, now: string): boolean {
  const deadline = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (deadline === undefined || !start) return false;
  return Date.parse(now) - Date.parse(start) >= deadline * 1000;
}

function condition(type: string, reason: string, message: string, now: string): JobCondition {
  return { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message };
}

/** Sets (or adds) a condition, keeping lastTransitionTime when the status does not change. */
function withCondition(conds: JobCondition[], c: JobCondition): JobCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conds, c];
  const prev = conds[i]!;
  if (prev.status === c.status && prev.reason === c.reason && prev.message === c.message) return conds;
  const next = [...conds];
  next[i] = { ...c, lastTransitionTime: prev.status === c.status ? prev.lastTransitionTime : c.lastTransitionTime };
  return next;
}

/**
 * Active pods to delete first when there are too many (controller.ActivePods ordering):
 * unscheduled before scheduled, pending before running, not ready before ready, newest first.
 */
function deletionOrder(a: Pod, b: Pod): number {
  const rank = (p: Pod) => [p.spec?.nodeName ? 1 : 0, phase(p) === 'Running' ? 1 : 0, isReady(p) ? 1 : 0];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  return Date.parse(b.metadata?.creationTimestamp ?? '') - Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
}

/** One sync of a NonIndexed Job. */
export function decideJobSync({ job, pods, now }: JobSyncInput): JobSyncDecision {
  const prev = job.status ?? {};
  const spec = job.spec ?? {};
  const events: JobEvent[] = [];
  const none: JobSyncDecision = { create: 0, delete: [], counted: [], status: prev, events };
  if (isJobFinished(job)) return none;

  const status: JobStatus = { ...prev, conditions: [...(prev.conditions ?? [])] };
  const suspended = spec.suspend === true;
  if (!status.startTime && !suspended) status.startTime = now;

  // Count the finished pods that still carry the tracking finalizer, once.
  const tracked = (p: Pod) => (p.metadata?.finalizers ?? []).includes(jobTrackingFinalizer);
  const counted: string[] = [];
  let newSucceeded = 0;
  let newFailed = 0;
  let failJobMessage: string | undefined;
  for (const p of pods) {
    if (!tracked(p)) continue;
    if (phase(p) === 'Succeeded') {
      newSucceeded++;
      counted.push(p.metadata.name ?? '');
    } else if (isPodFailed(p, job) && (finished(p) || terminating(p))) {
      // A failed pod that is still terminating is counted once it has stopped (Failed phase).
      if (!finished(p) && onlyReplaceFailedPods(job)) continue;
      const match = matchPodFailurePolicy(job, p);
      if (match.countFailed) newFailed++;
      if (match.action === 'FailJob' && failJobMessage === undefined) failJobMessage = match.message;
      counted.push(p.metadata.name ?? '');
    }
  }
  const succeeded = (prev.succeeded ?? 0) + newSucceeded;
  const failed = (prev.failed ?? 0) + newFailed;
  const active = pods.filter((p) => !finished(p) && !terminating(p));
  const terminatingCount = pods.filter((p) => terminating(p) && !finished(p)).length;
  status.succeeded = succeeded;
  status.failed = failed;
  status.terminating = terminatingCount;

  // The interim conditions already set: the job is finishing, only waiting for its pods to stop.
  let finishing = status.conditions!.find((c) => (c.type === 'FailureTarget' || c.type === 'SuccessCriteriaMet') && c.status === 'True');
  if (!finishing) {
    let failure: { reason: string; message: string } | undefined;
    if (failJobMessage !== undefined) failure = { reason: jobReasons.podFailurePolicy, message: failJobMessage };
    else if (failed > (spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) failure = jobReasons.backoffLimitExceeded;
    else if (pastActiveDeadline(job, now)) failure = jobReasons.deadlineExceeded;
    if (failure) {
      finishing = condition('FailureTarget', failure.reason, failure.message, now);
    } else {
      const complete = spec.completions !== undefined ? succeeded >= spec.completions : succeeded > 0 && active.length === 0;
      if (complete) finishing = condition('SuccessCriteriaMet', jobReasons.completionsReached.reason, jobReasons.completionsReached.message, now);
    }
    if (finishing) status.conditions = withCondition(status.conditions!, finishing);
  }

  let create = 0;
  let toDelete: Pod[] = [];
  if (finishing) {
    // Finishing: every active pod goes; the terminal condition waits until none is left.
    toDelete = active;
    const stillRunning = active.length + terminatingCount;
    if (stillRunning === 0) {
      if (finishing.type === 'FailureTarget') {
        status.conditions = withCondition(status.conditions!, condition('Failed', finishing.reason ?? '', finishing.message ?? '', now));
        events.push({ type: 'Warning', reason: finishing.reason ?? '', message: finishing.message ?? '' });
      } else {
        status.conditions = withCondition(status.conditions!, condition('Complete', finishing.reason ?? '', finishing.message ?? '', now));
        status.completionTime = now;
        events.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
      }
    }
  } else if (suspended) {
    toDelete = active;
    status.conditions = withCondition(status.conditions!, condition('Suspended', jobReasons.suspended.reason, jobReasons.suspended.message, now));
    if (!isTrue(prev.conditions, 'Suspended')) events.push({ type: 'Normal', reason: 'Suspended', message: jobReasons.suspended.message });
  } else {
    if (isTrue(prev.conditions, 'Suspended')) {
      status.conditions = withCondition(status.conditions!, { ...condition('Suspended', jobReasons.resumed.reason, jobReasons.resumed.message, now), status: 'False' });
      events.push({ type: 'Normal', reason: 'Resumed', message: jobReasons.resumed.message });
    }
    // manageJob: how many should be active now.
    const parallelism = spec.parallelism ?? 1;
    let wantActive: number;
    if (spec.completions === undefined) wantActive = succeeded > 0 ? active.length : parallelism;
    else wantActive = Math.max(0, Math.min(spec.completions - succeeded, parallelism));
    const excess = active.length - wantActive;
    if (excess > 0) toDelete = [...active].sort(deletionOrder).slice(0, excess);
    else {
      let diff = wantActive - active.length;
      if (onlyReplaceFailedPods(job)) diff -= terminatingCount;
      create = Math.max(0, diff);
    }
  }

  const remainingActive = active.length - toDelete.length;
  status.active = remainingActive + create;
  status.ready = active.filter((p) => isReady(p) && !toDelete.includes(p)).length;
  // The pods being deleted now are terminating from the next observation on.
  status.terminating = terminatingCount + toDelete.length;
  if (isTrue(status.conditions, 'Complete') || isTrue(status.conditions, 'Failed')) {
    status.active = 0;
    status.ready = 0;
    status.terminating = 0;
  }
  if (status.conditions!.length === 0) delete status.conditions;
  return { create, delete: toDelete.map((p) => p.metadata.name ?? ''), counted, status, events };
}

/**
 * GetPodFromTemplate for a job's pod: `generateName: <job>-`, the template's labels and
 * annotations, the job as controlling owner (blockOwnerDeletion), the tracking finalizer, and
 * the template's spec.
 */
export function podFromJobTemplate(job: Job): Pod {
  const t = job.spec?.template ?? {};
  const owner: OwnerReference = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name ?? '',
    uid: job.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const meta: Pod['metadata'] = {
    generateName: `${job.metadata.name ?? ''}-`,
    namespace: job.metadata.namespace,
    labels: { ...(t.metadata?.labels ?? {}) },
    ownerReferences: [owner],
    finalizers: [...(t.metadata?.finalizers ?? []), jobTrackingFinalizer],
  };
  if (t.metadata?.annotations) meta.annotations = { ...t.metadata.annotations };
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: structuredClone(t.spec ?? { containers: [] }) };
}
