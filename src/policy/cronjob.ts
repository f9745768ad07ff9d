// The CronJob controller's schedule decisions as pure functions (pkg/controller/cronjob/
// utils.go mostRecentScheduleTime, nextScheduleTime, getJobFromTemplate2, getJobName, and
// cronjob_controllerv2.go syncCronJob's startingDeadlineSeconds, concurrencyPolicy and
// suspend handling, with their event reasons and messages). The schedule is parsed by
// api/cron.ts; time zones are read through Intl. No clock: the caller passes `now`.

import { nextCronTime, parseCronSchedule, type CronSchedule } from '../api/cron.js';
import type { CronJob, Job } from '../api/types.js';
import { isJobFinished } from './job.js';
import { metaTime } from '../api/metatime.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** The annotation the controller sets on each job: the scheduled time in the CronJob's zone. */
export const cronJobScheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** More missed start times than this gets a TooManyMissedTimes warning. */
const tooManyMissed = 100;

export interface MissedSchedules {
  /** The latest schedule time not after now, if any was missed since the earliest time. */
  mostRecent?: number;
  /** How many schedule times fell between the earliest time and now. */
  missed: number;
}

/**
 * mostRecentScheduleTime: the schedule times after max(lastScheduleTime or creation,
 * now - startingDeadlineSeconds) and not after now; the latest and how many. Counts by walking
 * the schedule, and for long outages jumps by the period between the first two times, as
 * upstream does; the count is then upstream's approximation (it only decides the
 * TooManyMissedTimes warning), the most recent time is exact.
 */
export function mostRecentScheduleTime(cj: CronJob, schedule: CronSchedule, now: number, zone = 'UTC'): MissedSchedules {
  const created = Date.parse(cj.metadata.creationTimestamp ?? '');
  let earliest = cj.status?.lastScheduleTime ? Date.parse(cj.status.lastScheduleTime) : created;
  const sds = cj.spec?.startingDeadlineSeconds;
  if (sds !== undefined && now - sds * 1000 > earliest) earliest = now - sds * 1000;
  const t1 = nextCronTime(schedule, earliest, zone);
  if (t1 === undefined || t1 > now) return { missed: 0 };
  const t2 = nextCronTime(schedule, t1, zone);
  if (t2 === undefined || t2 > now) return { mostRecent: t1, missed: 1 };
  // Uniform schedules (*/n, @every): arithmetic, then checked against the schedule itself.
  const period = t2 - t1;
  const n = Math.floor((now - t1) / period) + 1;
  const guess = t1 + (n - 1) * period;
  if (nextCronTime(schedule, guess - 1, zone) === guess) {
    const after = nextCronTime(schedule, guess, zone);
    if (after === undefined || after > now) return { mostRecent: guess, missed: n };
  }
  let missed = 0;
  let t: number | undefined = t1;
  let last = t1;
  while (t !== undefined && t <= now) {
    last = t;
    missed++;
    t = nextCronTime(schedule, t, zone);
  }
  return { mostRecent: last, missed };
}

/** nextScheduleTime: the first schedule time after now, for the requeue. */
export function nextScheduleTime(schedule: CronSchedule, now: number, zone = 'UTC'): number | undefined {
  return nextCronTime(schedule, now, zone);
}

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function cronJobJobName(cj: CronJob, scheduledMs: number): string {
  return `${cj.metadata.name ?? ''}-${Math.floor(scheduledMs / 60000)}`;
}

/** RFC 3339 of an instant as a wall clock in `zone` with its offset (Go's time.Format(time.RFC3339) in that location). */
export function rfc3339InZone(ms: number, zone: string): string {
  const parts: Record<string, string> = {};
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMin = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const off = offsetMin === 0 ? 'Z' : `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${off}`;
}

/** getJobFromTemplate2: the job for one schedule time, owned by the CronJob. */
export function jobFromCronJob(cj: CronJob, scheduledMs: number, zone = 'UTC'): Job {
  const t = cj.spec?.jobTemplate ?? {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: cronJobJobName(cj, scheduledMs),
      namespace: cj.metadata.namespace,
      labels: { ...(t.metadata?.labels ?? {}) },
      annotations: { ...(t.metadata?.annotations ?? {}), [cronJobScheduledTimestampAnnotation]: rfc3339InZone(scheduledMs, cj.spec?.timeZone ?? zone) },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name ?? '', uid: cj.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: deepCopyJSON(t.spec ?? {}),
  };
}

export interface CronJobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface CronJobSyncDecision {
  /** The job to create now, if a run is due. */
  create?: Job;
  /** Names of active jobs to delete first (concurrencyPolicy Replace). */
  deleteActive: string[];
  /** The new status.lastScheduleTime (RFC 3339), when a run was started. */
  lastScheduleTime?: string;
  /** When the next run is due (epoch ms), for the requeue. */
  nextRun?: number;
  events: CronJobEvent[];
}

/** Go's time.RFC1123Z of the UTC instant: `Tue, 19 May 2026 10:00:00 +0000`. */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  return `${day}, ${pad(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/**
 * syncCronJob's decision: whether a job starts now. `activeJobs` are the names of the
 * unfinished jobs the CronJob owns. `zone` is the controller's own zone when spec.timeZone is unset.
 */
export function decideCronJobSync(cj: CronJob, activeJobs: readonly string[], now: number, zone = 'UTC'): CronJobSyncDecision {
  const events: CronJobEvent[] = [];
  const out: CronJobSyncDecision = { deleteActive: [], events };
  if (cj.metadata.deletionTimestamp) return out;
  let schedule: CronSchedule;
  try {
    schedule = parseCronSchedule(cj.spec?.schedule ?? '');
  } catch (e) {
    events.push({ type: 'Warning', reason: 'UnparseableSchedule', message: `unparseable schedule: ${JSON.stringify(cj.spec?.schedule ?? '')} : ${(e as Error).message}` });
    return out;
  }
  const tz = cj.spec?.timeZone ?? zone;
  out.nextRun = nextScheduleTime(schedule, now, tz);
  if (cj.spec?.suspend === true) return out;
  const { mostRecent, missed } = mostRecentScheduleTime(cj, schedule, now, tz);
  if (missed > tooManyMissed) {
    events.push({ type: 'Warning', reason: 'TooManyMissedTimes', message: 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew' });
  }
  if (mostRecent === undefined) return out;
  const sds = cj.spec?.startingDeadlineSeconds;
  if (sds !== undefined && mostRecent + sds * 1000 < now) {
    events.push({ type: 'Warning', reason: 'MissSchedule', message: `Missed scheduled time to start a job: ${rfc1123z(mostRecent)}` });
    return out;
  }
  const name = cronJobJobName(cj, mostRecent);
  // This run was already started (its job is active, or it is the last schedule time recorded).
  if (activeJobs.includes(name) || (cj.status?.lastScheduleTime !== undefined && Date.parse(cj.status.lastScheduleTime) === mostRecent)) return out;
  const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && activeJobs.length > 0) {
    events.push({ type: 'Normal', reason: 'JobAlreadyActive', message: 'Not starting job because prior execution is running and concurrency policy is Forbid' });
    return out;
  }
  if (policy === 'Replace') out.deleteActive = [...activeJobs];
  out.create = jobFromCronJob(cj, mostRecent, tz);
  out.lastScheduleTime = metaTime(mostRecent);
  events.push({ type: 'Normal', reason: 'SuccessfulCreate', message: `Created job ${name}` });
  return out;
}

export type JobReference = NonNullable<NonNullable<CronJob['status']>['active']>[number];

/** getRef: the ObjectReference status.active holds. */
export function jobReference(job: Job): JobReference {
  return { kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion };
}

/** FinishedCondition: the type of the Complete or Failed condition that is True. */
function finishedConditionType(job: Job): string | undefined {
  return (job.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
}

export interface ActiveReconcile {
  active: JobReference[];
  lastSuccessfulTime?: string;
  /** Active references whose job is not among the CronJob's jobs: the caller reads each (MissingJob if gone). */
  unseen: JobReference[];
  /** Unfinished jobs of this CronJob not in status.active (UnexpectedJob, unless a fresh read has them). */
  unexpected: Job[];
  events: CronJobEvent[];
  changed: boolean;
}

/**
 * syncCronJob's first part: finished jobs leave status.active (SawCompletedJob), the latest
 * completionTime of a succeeded job becomes lastSuccessfulTime.
 */
export function reconcileActiveJobs(cj: CronJob, jobs: readonly Job[]): ActiveReconcile {
  const out: ActiveReconcile = { active: [...(cj.status?.active ?? [])], lastSuccessfulTime: cj.status?.lastSuccessfulTime, unseen: [], unexpected: [], events: [], changed: false };
  const uids = new Set(jobs.map((j) => j.metadata.uid));
  for (const j of jobs) {
    const found = out.active.some((r) => r.uid === j.metadata.uid);
    if (!found && !isJobFinished(j)) {
      out.unexpected.push(j);
    } else if (isJobFinished(j)) {
      if (found) {
        out.active = out.active.filter((r) => r.uid !== j.metadata.uid);
        out.events.push({ type: 'Normal', reason: 'SawCompletedJob', message: `Saw completed job: ${j.metadata.name}, condition: ${finishedConditionType(j)}` });
        out.changed = true;
      }
      const done = j.status?.completionTime;
      if (finishedConditionType(j) === 'Complete' && done && (!out.lastSuccessfulTime || Date.parse(done) > Date.parse(out.lastSuccessfulTime))) {
        out.lastSuccessfulTime = done;
        out.changed = true;
      }
    }
  }
  out.unseen = out.active.filter((r) => !uids.has(r.uid));
  return out;
}

/**
 * cleanupFinishedJobs: the finished jobs beyond successfulJobsHistoryLimit and
 * failedJobsHistoryLimit, oldest first (byJobStartTime: by status.startTime, jobs without one
 * last, then by name). Nothing when neither limit is set.
 */
export function finishedJobsToDelete(cj: CronJob, jobs: readonly Job[]): Job[] {
  const limitS = cj.spec?.successfulJobsHistoryLimit;
  const limitF = cj.spec?.failedJobsHistoryLimit;
  const pick = (type: string, limit: number | undefined) => {
    if (limit === undefined) return [];
    const js = jobs.filter((j) => finishedConditionType(j) === type).sort(byJobStartTime);
    return js.slice(0, Math.max(0, js.length - limit));
  };
  return [...pick('Complete', limitS), ...pick('Failed', limitF)];
}

function byJobStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (!sa && sb) return 1;
  if (sa && !sb) return -1;
  if (sa && sb && sa !== sb) return Date.parse(sa) - Date.parse(sb);
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}
