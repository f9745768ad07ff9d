// Job and CronJob validation and defaulting, one row per rule of pkg/apis/batch/validation
// (ValidateJob, ValidateJobUpdate, ValidateJobUpdateStatus, ValidateCronJobCreate,
// ValidateCronJobUpdate) and pkg/apis/batch/v1/defaults.go, with Kubernetes' paths and wording.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultCronJob, defaultJob, generateJobSelector } from '../../../src/api/batchdefaults.js';
import type { CronJob, Job, JobSpec, JobStatus } from '../../../src/api/types.js';
import { validateCronJob, validateCronJobUpdate, validateJob, validateJobStatusUpdate, validateJobUpdate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, type Want } from './helpers.js';

const opts = { gates: allGates };
const uid = '1a2b3c';

/** A job as the server would validate it: defaulted, selector generated. */
function job(spec: Partial<JobSpec> = {}, name = 'pi'): Job {
  const j: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid },
    spec: { template: { spec: { containers: [container('main')], restartPolicy: 'Never' } }, ...spec },
  };
  return generateJobSelector(defaultJob(j, opts));
}

const exit137 = { action: 'FailJob', onExitCodes: { operator: 'In', values: [137] } };

describe('validateJob', () => {
  const rows: { name: string; job: Job; want: Want }[] = [
    { name: 'a defaulted job with a generated selector is valid', job: job(), want: [] },
    { name: 'parallelism must not be negative', job: job({ parallelism: -1 }), want: [['FieldValueInvalid', 'spec.parallelism: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'completions must not be negative', job: job({ completions: -1 }), want: [['FieldValueInvalid', 'spec.completions: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'activeDeadlineSeconds must not be negative', job: job({ activeDeadlineSeconds: -5 }), want: [['FieldValueInvalid', 'spec.activeDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0']] },
    { name: 'backoffLimit must not be negative', job: job({ backoffLimit: -1 }), want: [['FieldValueInvalid', 'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'backoffLimitPerIndex requires Indexed completion', job: job({ backoffLimitPerIndex: 1 }), want: [['FieldValueInvalid', 'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode']] },
    { name: 'maxFailedIndexes requires backoffLimitPerIndex', job: job({ maxFailedIndexes: 1, completionMode: 'Indexed', completions: 2 }), want: [['FieldValueRequired', 'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified']] },
    { name: 'backoffLimitPerIndex with maxFailedIndexes on an Indexed job is valid', job: job({ completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: 1, maxFailedIndexes: 2 }), want: [] },
    { name: 'backoffLimitPerIndex must not be negative', job: job({ completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: -1 }), want: [['FieldValueInvalid', 'spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'maxFailedIndexes at most completions', job: job({ completionMode: 'Indexed', completions: 4, backoffLimitPerIndex: 1, maxFailedIndexes: 5 }), want: [['FieldValueInvalid', 'spec.maxFailedIndexes: Invalid value: 5: must be less than or equal to completions']] },
    { name: 'above 100000 completions with backoffLimitPerIndex, maxFailedIndexes is required', job: job({ completionMode: 'Indexed', completions: 100_001, parallelism: 10, backoffLimitPerIndex: 1 }, 'p'), want: [['FieldValueRequired', 'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000']] },
    {
      name: 'above 100000 completions with backoffLimitPerIndex, parallelism and maxFailedIndexes at most 10000',
      job: job({ completionMode: 'Indexed', completions: 100_001, parallelism: 10_001, backoffLimitPerIndex: 1, maxFailedIndexes: 10_001 }, 'p'),
      want: [
        ['FieldValueInvalid', 'spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index'],
        ['FieldValueInvalid', 'spec.maxFailedIndexes: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index'],
      ],
    },
    { name: 'successPolicy with succeededIndexes and succeededCount on an Indexed job is valid', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '0-2,5', succeededCount: 3 }, { succeededCount: 10 }] } }), want: [] },
    { name: 'successPolicy requires Indexed completion', job: job({ successPolicy: { rules: [{ succeededCount: 1 }] } }), want: [['FieldValueInvalid', 'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode']] },
    { name: 'successPolicy needs a rule', job: job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [] } }), want: [['FieldValueRequired', 'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified']] },
    { name: 'successPolicy at most 20 rules', job: job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: Array.from({ length: 21 }, () => ({ succeededCount: 1 })) } }), want: [['FieldValueTooMany', 'spec.successPolicy.rules: Too many: 21: must have at most 20 items']] },
    { name: 'a successPolicy rule needs succeededCount or succeededIndexes', job: job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{}] } }), want: [['FieldValueRequired', 'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified']] },
    { name: 'succeededIndexes at most 64 KiB', job: job({ completionMode: 'Indexed', completions: 100_000, successPolicy: { rules: [{ succeededIndexes: Array.from({ length: 13_000 }, (_, i) => String(i * 2)).join(',') }] } }, 'p'), want: [['FieldValueTooLong', 'spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes']] },
    { name: 'succeededIndexes must be integers', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '1,a' }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1,a": error parsing succeededIndexes: cannot convert string to integer for index: "a"']] },
    { name: 'succeededIndexes below completions', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '3-10' }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3-10": error parsing succeededIndexes: too large index: "10"']] },
    { name: 'succeededIndexes in increasing order', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '3-5,4' }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3-5,4": error parsing succeededIndexes: non-increasing order, previous: 5, current: 4']] },
    { name: 'a succeededIndexes interval of at most two parts', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '1-2-3' }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1-2-3": error parsing succeededIndexes: the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by \'-\'']] },
    { name: 'succeededCount at most completions', job: job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededCount: 4 }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of specified completions)']] },
    { name: 'succeededCount at most the indexes of succeededIndexes', job: job({ completionMode: 'Indexed', completions: 10, successPolicy: { rules: [{ succeededIndexes: '0-1', succeededCount: 3 }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)']] },
    { name: 'succeededCount must not be negative', job: job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededCount: -1 }] } }), want: [['FieldValueInvalid', 'spec.successPolicy.rules[0].succeededCount: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'completionMode must be NonIndexed or Indexed', job: job({ completionMode: 'Sometimes' }), want: [['FieldValueNotSupported', 'spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']] },
    { name: 'Indexed completion with completions is valid', job: job({ completionMode: 'Indexed', completions: 3 }), want: [] },
    { name: 'Indexed completion needs a pod hostname that is a DNS label', job: job({ completionMode: 'Indexed', completions: 3 }, 'a'.repeat(62)), want: [['FieldValueInvalid', `metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-2`]] },
    {
      name: 'restartPolicy Always is refused as required OnFailure or Never',
      job: job({ template: { spec: { containers: [container('main')], restartPolicy: 'Always' } } }),
      want: [['FieldValueRequired', 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    },
    { name: 'an OOMKilled exit 137 FailJob rule with restartPolicy Never is valid', job: job({ podFailurePolicy: { rules: [exit137] } }), want: [] },
    {
      name: 'podFailurePolicy requires restartPolicy Never',
      job: job({ podFailurePolicy: { rules: [exit137] }, template: { spec: { containers: [container('main')], restartPolicy: 'OnFailure' } } }),
      want: [['FieldValueInvalid', 'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']],
    },
    { name: 'a rule needs an action', job: job({ podFailurePolicy: { rules: [{ onExitCodes: { operator: 'In', values: [1] } }] } }), want: [['FieldValueRequired', 'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]']] },
    { name: 'a rule action must be supported', job: job({ podFailurePolicy: { rules: [{ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } }] } }), want: [['FieldValueNotSupported', 'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"']] },
    { name: 'FailIndex requires backoffLimitPerIndex', job: job({ podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set']] },
    { name: 'onExitCodes needs an operator', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { values: [1] } }] } }), want: [['FieldValueRequired', 'spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]']] },
    { name: 'onExitCodes operator must be In or NotIn', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'Is', values: [1] } }] } }), want: [['FieldValueNotSupported', 'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"']] },
    { name: 'onExitCodes containerName must name a container', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { containerName: 'other', operator: 'In', values: [1] } }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template']] },
    { name: 'onExitCodes needs values', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [] } }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required']] },
    { name: 'In may not list 0', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [0, 1] } }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator']] },
    { name: 'values may not repeat', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 1] } }] } }), want: [['FieldValueDuplicate', 'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 1']] },
    { name: 'values must be ordered', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'NotIn', values: [2, 1] } }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [2,1]: must be ordered']] },
    { name: 'onPodConditions status must be supported', job: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'Maybe' }] }] } }), want: [['FieldValueNotSupported', 'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']] },
    { name: 'onPodConditions with status defaulted to True is valid', job: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }), want: [] },
    { name: 'a rule may not have both requirements', job: job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] }, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported']] },
    { name: 'a rule needs one requirement', job: job({ podFailurePolicy: { rules: [{ action: 'Count' }] } }), want: [['FieldValueInvalid', 'spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required']] },
    { name: 'at most 20 rules', job: job({ podFailurePolicy: { rules: Array.from({ length: 21 }, () => exit137) } }), want: [['FieldValueTooMany', 'spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items']] },
    { name: 'with a podFailurePolicy only podReplacementPolicy Failed', job: job({ podFailurePolicy: { rules: [exit137] }, podReplacementPolicy: 'TerminatingOrFailed' }), want: [['FieldValueNotSupported', 'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"']] },
    { name: 'podReplacementPolicy must be supported', job: job({ podReplacementPolicy: 'Never' }), want: [['FieldValueNotSupported', 'spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"']] },
    { name: 'a manual selector must match the template labels', job: job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'y' } }, spec: { containers: [container('main')], restartPolicy: 'Never' } } }), want: [['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`']] },
    { name: 'a manual selector matching the template is valid', job: job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [container('main')], restartPolicy: 'Never' } } }), want: [] },
    { name: 'a selector operator must be known', job: job({ manualSelector: true, selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [container('main')], restartPolicy: 'Never' } } }), want: [['FieldValueInvalid', 'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator']] },
    { name: 'a generated-selector label the user set otherwise', job: job({ template: { metadata: { labels: { 'job-name': 'other' } }, spec: { containers: [container('main')], restartPolicy: 'Never' } } }), want: [['FieldValueInvalid', "spec.template.metadata.labels[job-name]: Invalid value: {\"job-name\":\"other\",\"batch.kubernetes.io/controller-uid\":\"1a2b3c\",\"batch.kubernetes.io/job-name\":\"pi\",\"controller-uid\":\"1a2b3c\"}: must be 'pi'"]] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateJob(r.job, opts), r.want));
});

describe('validateJobUpdate and validateJobStatusUpdate', () => {
  const old = job({ template: { spec: { containers: [container('main', { resources: { limits: { memory: '1Gi' } } })], restartPolicy: 'Never' } } });
  const rows: { name: string; update: (j: Job) => void; want: Want }[] = [
    { name: 'parallelism may change', update: (j) => (j.spec!.parallelism = 3), want: [] },
    { name: 'completions are immutable', update: (j) => (j.spec!.completions = 2), want: [['FieldValueInvalid', 'spec.completions: Invalid value: 2: field is immutable']] },
    { name: 'the selector is immutable', update: (j) => (j.spec!.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid, x: 'y' } }), want: [
      ['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: {"batch.kubernetes.io/controller-uid":"1a2b3c","batch.kubernetes.io/job-name":"pi","controller-uid":"1a2b3c","job-name":"pi"}: `selector` does not match template `labels`'],
      ['FieldValueInvalid', 'spec.selector: Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"1a2b3c","x":"y"}}: field is immutable'],
    ] },
    { name: 'the template is immutable', update: (j) => (j.spec!.template!.spec!.containers[0]!.image = 'other'), want: [['FieldValueInvalid', `spec.template: Invalid value: ${JSON.stringify(structuredClone(old.spec!.template)).replace('busybox:1.36', 'other')}: field is immutable`]] },
    // ValidateImmutableField is Semantic.DeepEqual: a quantity written another way is the same template.
    { name: "a template quantity written another way is no change (Semantic's Quantity equality)", update: (j) => (j.spec!.template!.spec!.containers[0]!.resources = { limits: { memory: '1073741824' } }), want: [] },
    {
      name: 'a template quantity of another value is a change',
      update: (j) => (j.spec!.template!.spec!.containers[0]!.resources = { limits: { memory: '1G' } }),
      want: [['FieldValueInvalid', `spec.template: Invalid value: ${JSON.stringify(structuredClone(old.spec!.template)).replace('"resources":{"limits":{"memory":"1Gi"}}', '"resources":{"limits":{"memory":"1G"}}')}: field is immutable`]],
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const next = structuredClone(old);
      r.update(next);
      assertErrors(validateJobUpdate(next, old, opts), r.want);
    });
  }
  test('status counters may not be negative nor decrease; ready ≤ active', () => {
    const prev = { ...old, status: { failed: 2, active: 1 } };
    const next = { ...old, status: { failed: 1, active: 1, ready: 2, succeeded: -1 } };
    assertErrors(validateJobStatusUpdate(next, prev), [
      ['FieldValueInvalid', 'status.succeeded: Invalid value: -1: must be greater than or equal to 0'],
      ['FieldValueInvalid', 'status.ready: Invalid value: 2: cannot set more ready pods than active'],
      ['FieldValueInvalid', 'status.failed: Invalid value: 1: cannot decrease the failed counter'],
      ['FieldValueInvalid', 'status.succeeded: Invalid value: -1: cannot decrease the succeeded counter'],
    ]);
  });
});

describe('validateJobStatusUpdate: status.failedIndexes', () => {
  const perIndex = job({ completionMode: 'Indexed', completions: 10, backoffLimitPerIndex: 1 });
  const rows: { name: string; job: Job; old?: JobStatus; status: JobStatus; want: Want }[] = [
    { name: 'failed and completed indexes apart are valid', job: perIndex, status: { completedIndexes: '0-2', failedIndexes: '3,5-7' }, want: [] },
    { name: 'failedIndexes "" is valid', job: perIndex, status: { failedIndexes: '' }, want: [] },
    { name: 'failedIndexes must parse', job: perIndex, status: { failedIndexes: '1,x' }, want: [['FieldValueInvalid', 'status.failedIndexes: Invalid value: "1,x": error parsing failedIndexes: cannot convert string to integer for index: "x"']] },
    { name: 'failedIndexes below completions', job: perIndex, status: { failedIndexes: '10' }, want: [['FieldValueInvalid', 'status.failedIndexes: Invalid value: "10": error parsing failedIndexes: too large index: "10"']] },
    { name: 'failedIndexes only with backoffLimitPerIndex', job: job({ completionMode: 'Indexed', completions: 10 }), status: { failedIndexes: '1' }, want: [['FieldValueInvalid', 'status.failedIndexes: Invalid value: "1": cannot set non-null failedIndexes when backoffLimitPerIndex is null']] },
    { name: 'an index may not be both completed and failed', job: perIndex, status: { completedIndexes: '0-4', failedIndexes: '4-6' }, want: [['FieldValueInvalid', 'status.failedIndexes: Invalid value: "4-6": failedIndexes and completedIndexes overlap at index: 4']] },
    { name: 'a value that did not change is not checked again', job: perIndex, old: { failedIndexes: '1,x' }, status: { failedIndexes: '1,x' }, want: [] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateJobStatusUpdate({ ...r.job, status: r.status }, { ...r.job, status: r.old ?? {} }), r.want));
});

function cronJob(spec: Partial<NonNullable<CronJob['spec']>> = {}, name = 'hello'): CronJob {
  const cj: CronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { containers: [container('main')], restartPolicy: 'OnFailure' } } } }, ...spec },
  };
  return defaultCronJob(cj, opts);
}

describe('validateCronJob', () => {
  const rows: { name: string; cj: CronJob; want: Want }[] = [
    { name: 'a defaulted cronjob is valid', cj: cronJob(), want: [] },
    { name: 'the @hourly macro is valid', cj: cronJob({ schedule: '@hourly' }), want: [] },
    { name: 'a schedule is required', cj: cronJob({ schedule: '' }), want: [['FieldValueRequired', 'spec.schedule: Required value']] },
    { name: 'four fields are not a schedule', cj: cronJob({ schedule: '* * * *' }), want: [['FieldValueInvalid', 'spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']] },
    { name: 'a minute beyond 59', cj: cronJob({ schedule: '60 * * * *' }), want: [['FieldValueInvalid', 'spec.schedule: Invalid value: "60 * * * *": end of range (60) above maximum (59): 60']] },
    { name: 'an unknown macro', cj: cronJob({ schedule: '@often' }), want: [['FieldValueInvalid', 'spec.schedule: Invalid value: "@often": unrecognized descriptor: @often']] },
    { name: 'TZ in the schedule is refused on create', cj: cronJob({ schedule: 'TZ=UTC 0 * * * *' }), want: [['FieldValueInvalid', 'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']] },
    { name: 'a known time zone is valid', cj: cronJob({ timeZone: 'Europe/Berlin' }), want: [] },
    { name: 'an unknown time zone', cj: cronJob({ timeZone: 'Mars/Olympus' }), want: [['FieldValueInvalid', 'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']] },
    { name: 'Local is not an explicit zone', cj: cronJob({ timeZone: 'Local' }), want: [['FieldValueInvalid', 'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']] },
    { name: 'an empty time zone', cj: cronJob({ timeZone: '' }), want: [['FieldValueInvalid', 'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']] },
    { name: 'startingDeadlineSeconds must not be negative', cj: cronJob({ startingDeadlineSeconds: -1 }), want: [['FieldValueInvalid', 'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'concurrencyPolicy must be supported', cj: cronJob({ concurrencyPolicy: 'Sometimes' }), want: [['FieldValueNotSupported', 'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']] },
    { name: 'the name may have at most 52 characters', cj: cronJob({}, 'c'.repeat(53)), want: [['FieldValueInvalid', `metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`]] },
    { name: 'the job template may not set a selector', cj: cronJob({ jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [container('main')], restartPolicy: 'Never' } } } } }), want: [['FieldValueInvalid', 'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated']] },
    { name: 'the job template may not use a manual selector', cj: cronJob({ jobTemplate: { spec: { manualSelector: true, template: { spec: { containers: [container('main')], restartPolicy: 'Never' } } } } }), want: [['FieldValueNotSupported', 'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"']] },
    { name: 'the job template\'s restartPolicy rule applies', cj: cronJob({ jobTemplate: { spec: { template: { spec: { containers: [container('main')], restartPolicy: 'Always' } } } } }), want: [['FieldValueRequired', 'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateCronJob(r.cj, opts), r.want));
  test('an update keeps a TZ schedule that was there and skips the name length', () => {
    const old = cronJob({ schedule: 'TZ=UTC 0 * * * *' }, 'c'.repeat(53));
    assertErrors(validateCronJobUpdate(structuredClone(old), old, opts), []);
  });
});

describe('defaulting', () => {
  test('SetDefaults_Job: completions and parallelism 1, backoffLimit 6, NonIndexed, not suspended, TerminatingOrFailed, manualSelector false', () => {
    const j = job();
    const s = j.spec!;
    assert.deepEqual([s.completions, s.parallelism, s.backoffLimit, s.completionMode, s.suspend, s.podReplacementPolicy, s.manualSelector], [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed', false]);
  });
  test('parallelism alone leaves completions unset', () => {
    const s = job({ parallelism: 3 }).spec!;
    assert.deepEqual([s.completions, s.parallelism], [undefined, 3]);
  });
  test('a podFailurePolicy defaults podReplacementPolicy to Failed', () => assert.equal(job({ podFailurePolicy: { rules: [exit137] } }).spec!.podReplacementPolicy, 'Failed'));
  test('backoffLimitPerIndex defaults backoffLimit to MaxInt32', () => assert.equal(job({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 }).spec!.backoffLimit, 2147483647));
  test('the generated selector and the four template labels', () => {
    const s = job().spec!;
    assert.deepEqual(s.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(s.template!.metadata!.labels, { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
  });
  test('the template gets pod spec defaults but no pod-only ones', () => {
    const t = job().spec!.template!.spec!;
    assert.deepEqual([t.dnsPolicy, t.schedulerName, t.terminationGracePeriodSeconds, t.enableServiceLinks, t.tolerations], ['ClusterFirst', 'default-scheduler', 30, undefined, undefined]);
  });
  test('SetDefaults_CronJob: Allow, not suspended, history 3 and 1; the job template spec is not job-defaulted', () => {
    const cj = cronJob();
    const s = cj.spec!;
    assert.deepEqual([s.concurrencyPolicy, s.suspend, s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit, s.jobTemplate!.spec!.backoffLimit], ['Allow', false, 3, 1, undefined]);
  });
});
