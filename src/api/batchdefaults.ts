// Defaulting of batch/v1 Job and CronJob as the API server stores them on create
// (pkg/apis/batch/v1/defaults.go SetDefaults_Job and SetDefaults_CronJob, the pod template's
// SetDefaults_PodSpec and container defaults, and pkg/registry/batch/job/strategy.go
// PrepareForCreate's generateSelector). Pure: the uid comes from the caller.

import { defaultPodTemplateSpec, type PodDefaultingOptions } from './defaults.js';
import type { CronJob, Job, JobSpec, PodTemplateSpec } from './types.js';
import { jobLabels } from './validation/job.js';

const maxInt32 = 2147483647;

/** The pod template's spec with the pod defaults a template gets (not the pod-only admission ones); apps/v1 templates share it. */
export function defaultTemplate(t: PodTemplateSpec | undefined, opts: PodDefaultingOptions): PodTemplateSpec {
  const template: PodTemplateSpec = t && typeof t === 'object' ? t : {};
  if (!template.spec || typeof template.spec !== 'object') return template;
  return { ...template, spec: defaultPodTemplateSpec(template.spec, opts) };
}

/** SetDefaults_Job's JobSpec part (the counts, backoff, completion mode, suspend, replacement). */
function defaultJobSpec(spec: JobSpec): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? maxInt32 : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  for (const r of spec.podFailurePolicy?.rules ?? []) for (const c of r.onPodConditions ?? []) c.status ??= 'True';
}

/** The Job as stored on create, before validation. */
export function defaultJob(job: Job, opts: PodDefaultingOptions): Job {
  const spec: JobSpec = job.spec && typeof job.spec === 'object' ? job.spec : {};
  job.spec = spec;
  defaultJobSpec(spec);
  spec.template = defaultTemplate(spec.template, opts);
  return job;
}

/**
 * generateSelector: unless manualSelector, the template is labelled with the job's uid and name
 * (the batch.kubernetes.io/ labels and the legacy ones) and the selector is the uid label.
 */
export function generateJobSelector(job: Job): Job {
  const spec = job.spec ?? {};
  if (spec.manualSelector === true) return job;
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const template: PodTemplateSpec = spec.template ?? {};
  const labels = { ...(template.metadata?.labels ?? {}) };
  labels[jobLabels.controllerUid] ??= uid;
  labels[jobLabels.jobName] ??= name;
  labels[jobLabels.legacyControllerUid] ??= uid;
  labels[jobLabels.legacyJobName] ??= name;
  spec.template = { ...template, metadata: { ...(template.metadata ?? {}), labels } };
  // A selector the user gave without manualSelector gets the uid label added; validation then
  // refuses it if it selects anything else.
  const selector = spec.selector && typeof spec.selector === 'object' ? spec.selector : {};
  selector.matchLabels = { ...(selector.matchLabels ?? {}) };
  selector.matchLabels[jobLabels.controllerUid] ??= uid;
  spec.selector = selector;
  job.spec = spec;
  return job;
}

/** SetDefaults_CronJob, and the pod defaults of its job template. */
export function defaultCronJob(cj: CronJob, opts: PodDefaultingOptions): CronJob {
  const spec = cj.spec && typeof cj.spec === 'object' ? cj.spec : {};
  cj.spec = spec;
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jt = spec.jobTemplate && typeof spec.jobTemplate === 'object' ? spec.jobTemplate : {};
  spec.jobTemplate = jt;
  if (jt.spec && typeof jt.spec === 'object') jt.spec.template = defaultTemplate(jt.spec.template, opts);
  return cj;
}
