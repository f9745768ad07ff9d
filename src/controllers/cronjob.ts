// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go): informers over
// CronJobs and Jobs; one sync per CronJob key deletes the finished jobs beyond the history limits
// (cleanupFinishedJobs), reconciles status.active with the jobs it owns (SawCompletedJob,
// UnexpectedJob, MissingJob, lastSuccessfulTime), then asks src/policy/cronjob.ts whether a run is
// due (suspend, startingDeadlineSeconds, concurrencyPolicy) and creates its Job, then writes the
// status once and comes back 100 ms after the next schedule time (KeyedQueue.addAfter). The time
// is the server's (client.now()) unless a clock is injected, as tests do.

import type { CronJob, Job } from '../api/types.js';
import { parseCronSchedule } from '../api/cron.js';
import { decideCronJobSync, finishedJobsToDelete, jobReference, nextScheduleTime, reconcileActiveJobs, type JobReference } from '../policy/cronjob.js';
import { isStatus } from '../client/errors.js';
import type { SharedInformerFactory } from '../client/factory.js';
import type { SharedIndexInformer } from '../client/informer.js';
import { objectKey } from '../client/indexer.js';
import type { KubeClient } from '../client/interface.js';
import { EventRecorder } from '../client/recorder.js';
import { cronJobsRef, jobsRef } from '../client/resources.js';
import { splitKey } from './job.js';
import { errorText, isNamespaceTerminating } from './errors.js';
import { KeyedQueue } from './queue.js';
import { FailureBackoff } from './retry.js';
import { WorkQueueController } from './workqueuecontroller.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface CronJobControllerOptions {
  /** The controller's clock (default: the client's, i.e. the server's). */
  now?: () => Date;
  /** The zone of schedules without spec.timeZone (the controller manager's local zone upstream; UTC here). */
  zone?: string;
}

/** nextScheduleDelta: the requeue lands just after the schedule time. */
const nextScheduleDeltaMs = 100;

function controllerOf(j: Job) {
  return (j.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

export class CronJobController extends WorkQueueController {
  private readonly cronJobs: SharedIndexInformer<CronJob>;
  private readonly jobs: SharedIndexInformer<Job>;
  protected readonly queue: KeyedQueue;
  protected readonly events: EventRecorder;
  /** 1 s doubling to a minute, as the Job controller's API back-off. */
  private readonly backoff = new FailureBackoff(1000, 60_000);
  private readonly now: () => Date;

  constructor(private readonly client: KubeClient, informers: SharedInformerFactory, private readonly opts: CronJobControllerOptions = {}) {
    super();
    this.now = opts.now ?? (() => client.now());
    this.events = new EventRecorder(client, { component: 'cronjob-controller' }, { now: this.now });
    this.cronJobs = informers.informerFor<CronJob>(cronJobsRef);
    this.jobs = informers.informerFor<Job>(jobsRef);
    this.queue = new KeyedQueue(
      async (key) => {
        await this.sync(key);
        this.backoff.forget(key);
      },
      this.backoff.requeue(() => this.queue, 'cronjob-controller'),
    );
  }

  async start(): Promise<void> {
    const owner = (j: Job) => {
      const ref = controllerOf(j);
      if (!ref || ref.kind !== 'CronJob') return;
      const cj = this.cronJobs.lister.get(j.metadata.namespace, ref.name);
      if (cj && cj.metadata.uid === ref.uid) this.queue.add(objectKey(cj));
    };
    this.unsubscribe.push(
      this.cronJobs.addEventHandler({
        add: (cj) => this.queue.add(objectKey(cj)),
        update: (old, cur) => this.updateCronJob(old, cur),
      }),
      this.jobs.addEventHandler({
        add: owner,
        update: (old, cur) => {
          if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
          const o = controllerOf(old);
          if (o && o.uid !== controllerOf(cur)?.uid) owner(old);
          owner(cur);
        },
        delete: owner,
      }),
    );
    await Promise.all([this.cronJobs.start(), this.jobs.start()]);
  }

  /** A new schedule or zone: come back at its next time; anything else: now. */
  private updateCronJob(old: CronJob, cur: CronJob): void {
    const key = objectKey(cur);
    if (old.spec?.schedule !== cur.spec?.schedule || old.spec?.timeZone !== cur.spec?.timeZone) {
      let next: number | undefined;
      try {
        next = nextScheduleTime(parseCronSchedule(cur.spec?.schedule ?? ''), this.now().getTime(), cur.spec?.timeZone ?? this.opts.zone ?? 'UTC');
      } catch {
        this.events.record(cur, 'Warning', 'UnParseableCronJobSchedule', '', `unparseable schedule for cronjob: ${cur.spec?.schedule ?? ''}`);
        return;
      }
      if (next !== undefined) this.queue.addAfter(key, next + nextScheduleDeltaMs - this.now().getTime());
      return;
    }
    this.queue.add(key);
  }

  /** getJobsToBeReconciled: the jobs this CronJob controls, whatever their labels. */
  private jobsOf(cj: CronJob): Job[] {
    return this.jobs.lister.list(cj.metadata.namespace).filter((j) => {
      const ref = controllerOf(j);
      return ref?.kind === 'CronJob' && ref.name === cj.metadata.name;
    });
  }

  async sync(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const shared = this.cronJobs.lister.get(ns, name);
    if (!shared) return;
    const cj: CronJob = deepCopyJSON(shared);
    cj.status ??= {};
    let jobs = this.jobsOf(cj);
    let update = false;

    // cleanupFinishedJobs.
    for (const j of finishedJobsToDelete(cj, jobs)) {
      if (await this.deleteJob(cj, j)) {
        update = true;
        jobs = jobs.filter((x) => x.metadata.uid !== j.metadata.uid);
      }
    }

    // syncCronJob: the active list against the jobs.
    const r = reconcileActiveJobs(cj, jobs);
    for (const e of r.events) this.events.record(cj, e.type, e.reason, '', e.message);
    let active: JobReference[] = r.active;
    if (r.lastSuccessfulTime) cj.status.lastSuccessfulTime = r.lastSuccessfulTime;
    update ||= r.changed;
    for (const j of r.unexpected) {
      // A fresh read may show the job added by a status write the cache has not seen.
      const fresh = await this.client.get<CronJob>(cronJobsRef, ns, name);
      if ((fresh.status?.active ?? []).some((a) => a.uid === j.metadata.uid)) {
        active = [...active.filter((a) => a.uid !== j.metadata.uid), ...(fresh.status?.active ?? []).filter((a) => a.uid === j.metadata.uid)];
        continue;
      }
      this.events.record(cj, 'Warning', 'UnexpectedJob', '', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
    }
    for (const ref of r.unseen) {
      try {
        await this.client.get<Job>(jobsRef, ref.namespace, ref.name ?? '');
      } catch (e) {
        if (!isStatus(e, 404)) throw e;
        this.events.record(cj, 'Normal', 'MissingJob', '', `Active job went missing: ${ref.name}`);
        active = active.filter((a) => a.uid !== ref.uid);
        update = true;
      }
    }
    cj.status.active = active;

    const now = this.now().getTime();
    const activeNames = active.map((a) => a.name ?? '');
    const d = cj.metadata.deletionTimestamp ? undefined : decideCronJobSync(cj, activeNames, now, this.opts.zone ?? 'UTC');
    for (const e of d?.events ?? []) if (e.reason !== 'SuccessfulCreate') this.events.record(cj, e.type, e.reason, '', e.message);
    let err: unknown;
    if (d?.create) {
      // Replace: the running jobs go first.
      let replaced = true;
      for (const a of d.deleteActive) {
        const job = jobs.find((j) => j.metadata.name === a) ?? (await this.getJob(cj, a));
        if (!job || !(await this.deleteJob(cj, job))) {
          replaced = false;
          err = new Error(`could not replace job ${ns}/${a}`);
          break;
        }
        update = true;
      }
      if (replaced) {
        const created = await this.createJob(cj, d.create);
        if (created.job) {
          if (!(cj.status.active ?? []).some((a) => a.uid === created.job!.metadata.uid)) {
            cj.status.active = [...(cj.status.active ?? []), jobReference(created.job)];
            cj.status.lastScheduleTime = d.lastScheduleTime;
            update = true;
          }
        }
        err = created.err;
      }
    }
    if (cj.status.active?.length === 0) delete cj.status.active;
    if (update) await this.client.update(cronJobsRef, ns, cj, { subresource: 'status' });
    if (d?.nextRun !== undefined && !(cj.spec?.suspend === true)) this.queue.addAfter(key, d.nextRun + nextScheduleDeltaMs - this.now().getTime());
    if (err) throw err;
  }

  private async getJob(cj: CronJob, name: string): Promise<Job | undefined> {
    try {
      return await this.client.get<Job>(jobsRef, cj.metadata.namespace, name);
    } catch (e) {
      this.events.record(cj, 'Warning', 'FailedGet', '', `Get job: ${errorText(e)}`);
      return undefined;
    }
  }

  /** CreateJob with upstream's handling of a name already taken (a run created before a lost status write). */
  private async createJob(cj: CronJob, job: Job): Promise<{ job?: Job; err?: unknown }> {
    try {
      const created = await this.client.create<Job>(jobsRef, cj.metadata.namespace, job);
      this.events.record(cj, 'Normal', 'SuccessfulCreate', '', `Created job ${created.metadata.name}`);
      return { job: created };
    } catch (e) {
      if (isNamespaceTerminating(e)) return { err: e };
      if (isStatus(e, 409)) {
        const existing = await this.client.get<Job>(jobsRef, cj.metadata.namespace, job.metadata.name ?? '');
        const ref = controllerOf(existing);
        // Another writer's job: assume it keeps the status itself.
        if (!ref || ref.uid !== cj.metadata.uid) return {};
        return { job: existing };
      }
      this.events.record(cj, 'Warning', 'FailedCreate', '', `Error creating job: ${errorText(e)}`);
      return { err: e };
    }
  }

  /** deleteJob: the job (its pods with it, in the background) and its active reference. */
  private async deleteJob(cj: CronJob, job: Job): Promise<boolean> {
    try {
      await this.client.delete(jobsRef, job.metadata.namespace, job.metadata.name ?? '', { propagationPolicy: 'Background' });
    } catch (e) {
      if (!isStatus(e, 404)) {
        this.events.record(cj, 'Warning', 'FailedDelete', '', `Deleted job: ${errorText(e)}`);
        return false;
      }
    }
    cj.status = { ...cj.status, active: (cj.status?.active ?? []).filter((a) => a.uid !== job.metadata.uid) };
    this.events.record(cj, 'Normal', 'SuccessfulDelete', '', `Deleted job ${job.metadata.name}`);
    return true;
  }

  /** Resolves when nothing is queued or running (scheduled comebacks are not waited for). */
  override async idle(): Promise<void> {
    await super.idle();
    await this.events.flush();
  }
}
