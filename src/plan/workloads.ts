// The objects `bulkhead plan` takes besides pods, namespaces, quotas, LimitRanges and
// PriorityClasses: each is defaulted and validated as the API server's strategy does on create,
// charged against its namespace's object-count quotas (count/jobs.batch, configmaps, …), and a
// workload is expanded into the pods its controller would create first — a Job's `parallelism`
// pods (at most `completions`), the Job of a CronJob's next run. Those pods then go through pod
// admission like any other, in document order. Pure: the plan engine owns the quota state.

import { defaultCronJob, defaultJob, generateJobSelector } from '../api/batchdefaults.js';
import { parseCronSchedule } from '../api/cron.js';
import type { FeatureGates } from '../api/featuregates.js';
import type { FieldError } from '../api/fielderrors.js';
import { defaultSecret } from '../api/secretdefaults.js';
import type { ConfigMap, CronJob, Job, KubeObject, Pod, Secret, ServiceAccount } from '../api/types.js';
import { validateConfigMap, validateCronJob, validateJob, validateSecret, validateServiceAccount } from '../api/validation/index.js';
import { jobFromCronJob, nextScheduleTime } from '../policy/cronjob.js';
import { podFromJobTemplate } from '../policy/job.js';

export interface WorkloadContext {
  gates: FeatureGates;
  now: Date;
  /** The uid the API server would give the object (derived, so plans are reproducible). */
  uid(kind: string, namespace: string, name: string): string;
}

/** A pod a controller would create, with who creates it, for the plan's rows. */
export interface OwnedPod {
  pod: Pod;
  /** `Job report`, `CronJob nightly → Job nightly-29383920`. */
  owner: string;
}

/** A further object created with this one and charged like it (a CronJob run's Job). */
export interface ChargedChild {
  group: string;
  resource: string;
  kind: string;
  name: string;
}

export type Admitted = { ok: true; object: KubeObject; pods: OwnedPod[]; children: ChargedChild[] } | { ok: false; errors: FieldError[] };

export interface PlannedKind {
  apiVersion: string;
  group: string;
  /** The quota's resource name (count/<resource>.<group>). */
  resource: string;
  /** Defaults, validates and expands one object of the kind (its namespace already set). */
  admit(obj: KubeObject, ctx: WorkloadContext): Admitted;
}

const none = { pods: [] as OwnedPod[], children: [] as ChargedChild[] };

function checked(object: KubeObject, errors: FieldError[], more: () => { pods: OwnedPod[]; children: ChargedChild[] } = () => none): Admitted {
  return errors.length ? { ok: false, errors } : { ok: true, object, ...more() };
}

/** The pods a Job's controller creates on its first sync: parallelism, at most completions; none while suspended. */
function jobPods(job: Job, owner: string): OwnedPod[] {
  const spec = job.spec ?? {};
  if (spec.suspend) return [];
  const parallelism = spec.parallelism ?? 1;
  const n = spec.completions === undefined ? parallelism : Math.min(parallelism, spec.completions);
  return Array.from({ length: n }, () => ({ pod: podFromJobTemplate(job), owner }));
}

/** The Job as the API server stores it on create: defaulted, given its uid and generated selector. */
function storedJob(obj: Job, ctx: WorkloadContext): Job {
  const job = defaultJob(obj, { gates: ctx.gates });
  job.metadata = { ...job.metadata, uid: ctx.uid('Job', job.metadata.namespace ?? '', job.metadata.name ?? '') };
  generateJobSelector(job);
  job.status = {};
  return job;
}

export const plannedKinds: Record<string, PlannedKind> = {
  ConfigMap: {
    apiVersion: 'v1',
    group: '',
    resource: 'configmaps',
    admit: (obj) => checked(obj, validateConfigMap(obj as ConfigMap)),
  },
  Secret: {
    apiVersion: 'v1',
    group: '',
    resource: 'secrets',
    admit: (obj) => {
      const secret = defaultSecret(obj as Secret);
      return checked(secret, validateSecret(secret));
    },
  },
  ServiceAccount: {
    apiVersion: 'v1',
    group: '',
    resource: 'serviceaccounts',
    admit: (obj) => checked(obj, validateServiceAccount(obj as ServiceAccount)),
  },
  Job: {
    apiVersion: 'batch/v1',
    group: 'batch',
    resource: 'jobs',
    admit: (obj, ctx) => {
      const job = storedJob(obj as Job, ctx);
      return checked(job, validateJob(job, { gates: ctx.gates }), () => ({ pods: jobPods(job, `Job ${job.metadata.name}`), children: [] }));
    },
  },
  CronJob: {
    apiVersion: 'batch/v1',
    group: 'batch',
    resource: 'cronjobs',
    admit: (obj, ctx) => {
      const cj = defaultCronJob(obj as CronJob, { gates: ctx.gates });
      cj.metadata = { ...cj.metadata, uid: ctx.uid('CronJob', cj.metadata.namespace ?? '', cj.metadata.name ?? '') };
      cj.status = {};
      return checked(cj, validateCronJob(cj, { gates: ctx.gates }), () => {
        // The next run: the Job the controller creates at the first schedule time after now.
        if (cj.spec?.suspend) return none;
        const at = nextScheduleTime(parseCronSchedule(cj.spec?.schedule ?? ''), ctx.now.getTime(), cj.spec?.timeZone ?? 'UTC');
        if (at === undefined) return none;
        const job = storedJob(jobFromCronJob(cj, at), ctx);
        const name = job.metadata.name ?? '';
        return { pods: jobPods(job, `CronJob ${cj.metadata.name} → Job ${name}`), children: [{ group: 'batch', resource: 'jobs', kind: 'Job', name }] };
      });
    },
  },
};
