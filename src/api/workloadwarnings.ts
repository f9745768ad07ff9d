// The strategies' WarningsOnCreate and WarningsOnUpdate (v1.32) for pods and the workload kinds
// Bulkhead serves, around podwarnings.ts: pkg/registry/core/pod, apps/{deployment,replicaset,
// statefulset,daemonset} and batch/{job,cronjob} strategy.go, with pkg/api/job/warnings.go. The
// API server adds them once validation has passed, before the validating admission plugins
// (Pod Security) add theirs; `bulkhead plan` shows the same.
//
// On update a kind warns about its template only when the write moves its generation (a
// DaemonSet: its template generation); a pod update never warns. Upstream's quirks kept: a
// StatefulSet update names its claim templates `spec.volumeClaimTemplates[i].Spec`, and the
// CronJob TZ warning names `spec.spec.schedule`.

import { FieldPath } from './fielderrors.js';
import { claimSpecWarnings, podTemplateWarnings, podWarnings, type PodTemplate } from './podwarnings.js';
import type { CronJob, DaemonSet, Deployment, Job, JobSpec, KubeObject, Pod, ReplicaSet, StatefulSet } from './types.js';
import { isDNS1123Label } from './validation/names.js';

/** Go's %v of a []string. */
const goList = (msgs: readonly string[]): string => `[${msgs.join(' ')}]`;

/** podStrategy.WarningsOnCreate: a name that is not a DNS label, then GetWarningsForPod. */
export function podCreateWarnings(pod: Pod): string[] {
  const out: string[] = [];
  const name = pod.metadata?.name ?? '';
  // A plan's pod may have only a generateName; upstream has generated the name by now.
  const msgs = name === '' ? [] : isDNS1123Label(name);
  if (msgs.length) out.push(`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: ${goList(msgs)}`);
  out.push(...podWarnings(pod));
  return out;
}

/** The name warning of the kinds whose names become pod names and hostnames. */
function workloadNameWarnings(obj: KubeObject): string[] {
  const name = obj.metadata?.name ?? '';
  const msgs = name === '' ? [] : isDNS1123Label(name);
  return msgs.length ? [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: ${goList(msgs)}`] : [];
}

const specTemplate = FieldPath.root('spec').child('template');

const generationMoved = (obj: KubeObject, old: KubeObject): boolean => (obj.metadata?.generation ?? 0) !== (old.metadata?.generation ?? 0);

const templateOf = (o: { spec?: { template?: PodTemplate } }): PodTemplate | undefined => o.spec?.template;

export function deploymentCreateWarnings(d: Deployment): string[] {
  return [...workloadNameWarnings(d), ...podTemplateWarnings(specTemplate, templateOf(d))];
}

export function deploymentUpdateWarnings(d: Deployment, old: Deployment): string[] {
  return generationMoved(d, old) ? podTemplateWarnings(specTemplate, templateOf(d)) : [];
}

export function replicaSetCreateWarnings(rs: ReplicaSet): string[] {
  return [...workloadNameWarnings(rs), ...podTemplateWarnings(specTemplate, templateOf(rs))];
}

export function replicaSetUpdateWarnings(rs: ReplicaSet, old: ReplicaSet): string[] {
  return generationMoved(rs, old) ? podTemplateWarnings(specTemplate, templateOf(rs)) : [];
}

type Claim = Parameters<typeof claimSpecWarnings>[1];

function claimTemplateWarnings(ss: StatefulSet, suffix: string): string[] {
  const out: string[] = [];
  const claims = ss.spec?.volumeClaimTemplates;
  if (!Array.isArray(claims)) return out;
  for (let i = 0; i < claims.length; i++) out.push(...claimSpecWarnings(`spec.volumeClaimTemplates[${i}]${suffix}`, (claims[i] as { spec?: Claim } | undefined)?.spec));
  return out;
}

export function statefulSetCreateWarnings(ss: StatefulSet): string[] {
  return [...podTemplateWarnings(specTemplate, templateOf(ss)), ...claimTemplateWarnings(ss, '')];
}

export function statefulSetUpdateWarnings(ss: StatefulSet, old: StatefulSet): string[] {
  const out = generationMoved(ss, old) ? podTemplateWarnings(specTemplate, templateOf(ss)) : [];
  out.push(...claimTemplateWarnings(ss, '.Spec'));
  return out;
}

export function daemonSetCreateWarnings(ds: DaemonSet): string[] {
  return podTemplateWarnings(specTemplate, templateOf(ds));
}

/** `templateGeneration`: the internal spec.templateGeneration (apps/v1 carries it in an annotation). */
export function daemonSetUpdateWarnings(ds: DaemonSet, old: DaemonSet, templateGeneration: (ds: DaemonSet) => number): string[] {
  return templateGeneration(ds) !== templateGeneration(old) ? podTemplateWarnings(specTemplate, templateOf(ds)) : [];
}

const completionsSoftLimit = 100_000;
const parallelismSoftLimitForUnlimitedCompletions = 10_000;

/** job.WarningsForJobSpec: a very wide Indexed Job, then the template's warnings. */
function jobSpecWarnings(path: FieldPath, spec: JobSpec | undefined): string[] {
  const out: string[] = [];
  if (spec?.completionMode === 'Indexed' && (spec.completions ?? 0) > completionsSoftLimit && (spec.parallelism ?? 0) > parallelismSoftLimitForUnlimitedCompletions) {
    out.push(`${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`);
  }
  out.push(...podTemplateWarnings(path.child('template'), spec?.template));
  return out;
}

const jobSpecPath = FieldPath.root('spec');
const cronJobSpecPath = FieldPath.root('spec').child('jobTemplate', 'spec');

export function jobCreateWarnings(job: Job): string[] {
  return [...workloadNameWarnings(job), ...jobSpecWarnings(jobSpecPath, job.spec)];
}

export function jobUpdateWarnings(job: Job, old: Job): string[] {
  return generationMoved(job, old) ? jobSpecWarnings(jobSpecPath, job.spec) : [];
}

export function cronJobCreateWarnings(cj: CronJob): string[] {
  return [...workloadNameWarnings(cj), ...jobSpecWarnings(cronJobSpecPath, cj.spec?.jobTemplate?.spec)];
}

/** A TZ in the schedule is refused on create and only warned of on update (it may have been stored before). */
export function cronJobUpdateWarnings(cj: CronJob, old: CronJob): string[] {
  const out = generationMoved(cj, old) ? jobSpecWarnings(cronJobSpecPath, cj.spec?.jobTemplate?.spec) : [];
  if ((cj.spec?.schedule ?? '').includes('TZ')) {
    out.push('cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details');
  }
  return out;
}
