// batch/v1 Job and CronJob in the API server (pkg/registry/batch/job/strategy.go and
// pkg/registry/batch/cronjob/strategy.go): defaulting and the generated selector on create,
// status cleared on create and kept by spec writes, the spec kept by status writes, generation
// bumped when the spec changes, validation from api/validation/job.ts, the warnings of
// api/workloadwarnings.ts, and the object-count
// quota charge (`count/jobs.batch`, `count/cronjobs.batch`) committed with the create.

import { defaultCronJob, defaultJob, generateJobSelector } from '../api/batchdefaults.js';
import type { CronJob, Job, KubeObject } from '../api/types.js';
import { validateCronJob, validateCronJobUpdate, validateJob, validateJobStatusUpdate, validateJobUpdate } from '../api/validation/index.js';
import type { Api, Strategy } from './rest.js';
import { statusErrors } from './status.js';
import { semanticEqual } from '../api/semanticequal.js';
import { cronJobCreateWarnings, cronJobUpdateWarnings, jobCreateWarnings, jobUpdateWarnings } from '../api/workloadwarnings.js';

const group = 'batch';

/** The generation after an update: bumped when the spec changed, as both strategies do. */
function nextGeneration(obj: KubeObject & { spec?: unknown }, old: KubeObject & { spec?: unknown }, spec: string): number {
  const prev = old.metadata?.generation ?? 1;
  return semanticEqual(obj.spec, old.spec, spec) ? prev : prev + 1;
}

const opts = (api: Api) => ({ gates: api.gates });

export const jobStrategy: Strategy = {
  setsGeneration: true,
  async create(obj, req, api, _batch, track) {
    const defaulted = defaultJob(obj as Job, opts(api));
    track?.(defaulted);
    const job = generateJobSelector(defaulted);
    job.status = {};
    const errs = validateJob(job, opts(api));
    if (errs.length) throw statusErrors.invalid('Job', group, job.metadata?.name ?? '', errs);
    req.warnings.push(...jobCreateWarnings(job));
    return { obj: job };
  },
  async update(obj, old, req, api, subresource) {
    const prev = old as Job;
    const name = prev.metadata?.name ?? '';
    if (subresource === 'status') {
      const job: Job = { ...prev, metadata: { ...prev.metadata, ...pickLabelsAnnotations(obj) }, status: (obj as Job).status ?? {} };
      const errs = validateJobStatusUpdate(job, prev);
      if (errs.length) throw statusErrors.invalid('Job', group, name, errs);
      return { obj: job };
    }
    const job = defaultJob(obj as Job, opts(api));
    job.status = prev.status;
    job.metadata = { ...job.metadata, generation: nextGeneration(job, prev, 'io.k8s.api.batch.v1.JobSpec') };
    const errs = validateJobUpdate(job, prev, opts(api));
    if (errs.length) throw statusErrors.invalid('Job', group, name, errs);
    req.warnings.push(...jobUpdateWarnings(job, prev));
    return { obj: job };
  },
};

export const cronJobStrategy: Strategy = {
  setsGeneration: true,
  async create(obj, req, api) {
    const cj = defaultCronJob(obj as CronJob, opts(api));
    cj.status = {};
    const errs = validateCronJob(cj, opts(api));
    if (errs.length) throw statusErrors.invalid('CronJob', group, cj.metadata?.name ?? '', errs);
    req.warnings.push(...cronJobCreateWarnings(cj));
    return { obj: cj };
  },
  async update(obj, old, req, api, subresource) {
    const prev = old as CronJob;
    if (subresource === 'status') return { obj: { ...prev, status: (obj as CronJob).status ?? {} } };
    const cj = defaultCronJob(obj as CronJob, opts(api));
    cj.status = prev.status;
    cj.metadata = { ...cj.metadata, generation: nextGeneration(cj, prev, 'io.k8s.api.batch.v1.CronJobSpec') };
    const errs = validateCronJobUpdate(cj, prev, opts(api));
    if (errs.length) throw statusErrors.invalid('CronJob', group, prev.metadata?.name ?? '', errs);
    req.warnings.push(...cronJobUpdateWarnings(cj, prev));
    return { obj: cj };
  },
};

/** A status write may carry metadata changes the main resource allows (labels, annotations). */
function pickLabelsAnnotations(obj: KubeObject): Partial<KubeObject['metadata']> {
  const m = obj.metadata ?? {};
  const out: Record<string, unknown> = {};
  if (m.labels !== undefined) out.labels = m.labels;
  if (m.annotations !== undefined) out.annotations = m.annotations;
  return out;
}

export function installBatchStrategies(api: Api): void {
  api.strategies.set('jobs', jobStrategy);
  api.strategies.set('cronjobs', cronJobStrategy);
}
