// batch/v1 Job and CronJob, their specs, statuses and lists, and core/v1 PodTemplateSpec which
// both embed (k8s.io/api/batch/v1 types.go, core/v1 PodTemplateSpec; the descriptions are our own).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const b = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.batch, short, description, fields, opts);

const kindOf = (kind: string) => ({ gvk: [gvk('batch', 'v1', kind)] });

export const batchSchemas: readonly SchemaDef[] = [
  struct(PKG.core, 'PodTemplateSpec', 'The pods a controller creates: their metadata and spec.', {
    metadata: 'ObjectMeta | Metadata of the pods created from this template.',
    spec: 'PodSpec | Spec of the pods created from this template.',
  }),
  b('Job', 'A run of pods to completion: the Job creates pods until enough of them succeed, or it fails.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    spec: 'JobSpec | What the job runs and how it counts success and failure.',
    status: 'JobStatus | What the job controller last observed. Read-only.',
  }, kindOf('Job')),
  b('JobList', 'A list of jobs.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]Job! | The jobs.' }, kindOf('JobList')),
  b('JobSpec', 'How a job runs its pods.', {
    parallelism: 'i32 | Most pods running at once. Defaults to 1; 0 pauses the job.',
    completions: 'i32 | Successful pods needed for the job to complete. Unset means any success completes it once all pods end.',
    activeDeadlineSeconds: 'i64 | Seconds from the job\'s start after which it is failed with reason DeadlineExceeded and its pods are terminated.',
    podFailurePolicy: 'PodFailurePolicy | Rules deciding what a failed pod means: fail the job, ignore the failure, or count it. Requires restartPolicy Never.',
    successPolicy: 'SuccessPolicy | When an Indexed job is declared succeeded before all its indexes complete.',
    backoffLimit: 'i32 | Failed pods allowed before the job is failed with reason BackoffLimitExceeded. Defaults to 6.',
    backoffLimitPerIndex: 'i32 | For Indexed jobs: failures allowed per index before that index is failed.',
    maxFailedIndexes: 'i32 | For Indexed jobs with backoffLimitPerIndex: failed indexes allowed before the job is failed.',
    selector: 'LabelSelector | Label query over the job\'s pods. Generated from the job\'s uid unless manualSelector is true.',
    manualSelector: 'b | When true, the selector is the user\'s own and the server generates none.',
    template: 'PodTemplateSpec! | The pods the job creates. restartPolicy must be OnFailure or Never.',
    ttlSecondsAfterFinished: 'i32 | Seconds after the job finishes when it may be deleted automatically.',
    completionMode: 's enum=Indexed,NonIndexed go=v1.CompletionMode | NonIndexed (default): any completions successes finish the job; Indexed: each index from 0 to completions-1 must succeed once.',
    suspend: 'b | When true, no pods are created and running ones are terminated. Defaults to false.',
    podReplacementPolicy: 's enum=Failed,TerminatingOrFailed go=v1.PodReplacementPolicy | When a replacement pod is created: once the old one is Failed, or already while it is terminating.',
    managedBy: 's | The controller that reconciles this job, when not the built-in one. Immutable.',
  }),
  b('JobStatus', 'What the job controller observed.', {
    conditions: '[]JobCondition ps=merge mk=type lt=atomic | The job\'s conditions: Complete or Failed when it has finished, Suspended, FailureTarget, SuccessCriteriaMet.',
    startTime: 'Time | When the controller started working on the job.',
    completionTime: 'Time | When the job completed; set only for a successful job.',
    active: 'i32 | Pods pending or running and not terminating.',
    succeeded: 'i32 | Pods that succeeded.',
    failed: 'i32 | Pods that failed.',
    terminating: 'i32 | Pods that are terminating.',
    completedIndexes: 's | For Indexed jobs, the completed indexes as ranges, e.g. 1,3-5.',
    failedIndexes: 's | For Indexed jobs with backoffLimitPerIndex, the failed indexes as ranges.',
    uncountedTerminatedPods: 'UncountedTerminatedPods | Finished pods the controller has not yet counted in the status.',
    ready: 'i32 | Active pods with the Ready condition.',
  }),
  b('JobCondition', 'One observation of a job\'s state.', {
    type: 's! | Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.',
    status: 's! | True, False or Unknown.',
    lastProbeTime: 'Time | Last time the condition was checked.',
    lastTransitionTime: 'Time | Last time the condition changed status.',
    reason: 's | One-word reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  }),
  b('UncountedTerminatedPods', 'UIDs of finished pods not yet counted in the job\'s status.', {
    succeeded: '[]s lt=set | UIDs of succeeded pods.',
    failed: '[]s lt=set | UIDs of failed pods.',
  }),
  b('PodFailurePolicy', 'Rules for failed pods, checked in order; the first that matches decides.', {
    rules: '[]PodFailurePolicyRule! lt=atomic | At most 20 rules.',
  }),
  b('PodFailurePolicyRule', 'One pod failure rule: exactly one of onExitCodes and onPodConditions, and the action taken when it matches.', {
    action: 's! enum=Count,FailIndex,FailJob,Ignore go=v1.PodFailurePolicyAction | FailJob: fail the job and terminate its pods; FailIndex: fail the pod\'s index; Ignore: do not count the failure against backoffLimit; Count: count it as usual.',
    onExitCodes: 'PodFailurePolicyOnExitCodesRequirement | Matches on a terminated container\'s exit code.',
    onPodConditions: '[]PodFailurePolicyOnPodConditionsPattern lt=atomic | Matches when the pod has any of these conditions. At most 20.',
  }),
  b('PodFailurePolicyOnExitCodesRequirement', 'Matches a pod by the exit codes of its terminated containers.', {
    containerName: 's | Only this container\'s exit code is checked; unset checks every container.',
    operator: 's! enum=In,NotIn go=v1.PodFailurePolicyOnExitCodesOperator | In: some exit code is in values; NotIn: some non-zero exit code is not in values.',
    values: '[]i32! lt=set | The exit codes, sorted without duplicates; at most 255; 0 is not allowed with In.',
  }),
  b('PodFailurePolicyOnPodConditionsPattern', 'Matches a pod condition by type and status.', {
    type: 's! | The condition type, e.g. DisruptionTarget.',
    status: 's | The condition status: True (default), False or Unknown.',
  }),
  b('SuccessPolicy', 'When an Indexed job is declared succeeded.', {
    rules: '[]SuccessPolicyRule! lt=atomic | The job succeeds when any rule is met. At most 20.',
  }),
  b('SuccessPolicyRule', 'One success rule over the succeeded indexes.', {
    succeededIndexes: 's | The indexes that must succeed, as ranges, e.g. 0,2-4.',
    succeededCount: 'i32 | How many of those indexes (or of all) must succeed.',
  }),
  b('JobTemplateSpec', 'The jobs a CronJob creates: their metadata and spec.', {
    metadata: 'ObjectMeta | Metadata of the jobs created from this template.',
    spec: 'JobSpec | Spec of the jobs created from this template.',
  }),
  b('CronJob', 'Creates jobs on a repeating schedule.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    spec: 'CronJobSpec | The schedule and the job to run.',
    status: 'CronJobStatus | What the cronjob controller last observed. Read-only.',
  }, kindOf('CronJob')),
  b('CronJobList', 'A list of cron jobs.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]CronJob! | The cron jobs.' }, kindOf('CronJobList')),
  b('CronJobSpec', 'When and how a cron job creates jobs.', {
    schedule: 's! | Standard five-field cron schedule, or a macro such as @hourly.',
    timeZone: 's | IANA time zone the schedule is read in; the controller\'s zone when unset.',
    startingDeadlineSeconds: 'i64 | Seconds after a missed schedule time during which the job may still start; later it counts as failed.',
    concurrencyPolicy: 's enum=Allow,Forbid,Replace go=v1.ConcurrencyPolicy | Allow (default): run jobs concurrently; Forbid: skip a run while one is active; Replace: replace the active run.',
    suspend: 'b | When true, no further runs start; running ones continue. Defaults to false.',
    jobTemplate: 'JobTemplateSpec! | The job created at each schedule time.',
    successfulJobsHistoryLimit: 'i32 | Finished successful jobs to keep. Defaults to 3.',
    failedJobsHistoryLimit: 'i32 | Finished failed jobs to keep. Defaults to 1.',
  }),
  b('CronJobStatus', 'What the cronjob controller observed.', {
    active: '[]ObjectReference lt=atomic | The jobs currently running.',
    lastScheduleTime: 'Time | When a job was last scheduled.',
    lastSuccessfulTime: 'Time | When a job last completed successfully.',
  }),
];
