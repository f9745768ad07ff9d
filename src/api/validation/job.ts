// batch/v1 Job and CronJob validation (pkg/apis/batch/validation/validation.go): the generated
// selector and its labels, the JobSpec counts, completion modes, backoffLimitPerIndex and
// maxFailedIndexes, podFailurePolicy rules, successPolicy rules, podReplacementPolicy, the template's restartPolicy, immutability on update, the status
// counters, and the CronJob's schedule, time zone, concurrencyPolicy, job template and name
// length. One function per object, composed; upstream's paths and wording.

import { cronScheduleError, isTimeZone } from '../cron.js';
import { fieldError, FieldPath, omitValue, type FieldError } from '../fielderrors.js';
import { labelSelectorRequirements, matchesLabels } from '../selectors.js';
import type { CronJob, Job, JobSpec, LabelSelector, PodFailurePolicyRule, PodSpec, PodTemplateSpec } from '../types.js';
import { validateAppArmorAnnotationsAndFieldsMatchOnCreate } from './apparmor.js';
import { validateLabelSelector as validateLabelSelectorWith } from './labelselector.js';
import { isDNS1123Label, isQualifiedName, nameIsDNSSubdomain } from './names.js';
import { fieldImmutableErrorMsg, isNegativeErrorMsg, validateAnnotations, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { podSelectorOptionsForUpdate, validatePodSpec, type PodValidationOptions } from './pod.js';
import { validatePodSpecificAnnotations } from './podannotations.js';
import { validateSeccompAnnotationsAndFields } from './seccomp.js';
import { fieldShape, semanticEqual } from '../semanticequal.js';

/** Label keys of batch/v1 types.go. */
export const jobLabels = {
  controllerUid: 'batch.kubernetes.io/controller-uid',
  jobName: 'batch.kubernetes.io/job-name',
  legacyControllerUid: 'controller-uid',
  legacyJobName: 'job-name',
} as const;

const maxParallelismForIndexedJob = 100000;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;
const maxJobSuccessPolicySucceededIndexesLimit = 64 * 1024;
const maxSuccessPolicyRule = 20;
const maxPodFailurePolicyRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;
const maxManagedByLength = 63;
const podFailurePolicyActions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const onExitCodesOperators = ['In', 'NotIn'];
const conditionStatuses = ['False', 'True', 'Unknown'];
const podReplacementPolicies = ['Failed', 'TerminatingOrFailed'];
const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
/** The cronjob controller appends `-<minutes>` (11 characters) to name a job, and job names stay DNS labels. */
const maxCronJobNameLength = 52;
/** The immutable fields compare as Semantic.DeepEqual does: a template's quantities by value. */
const jobSpecSchema = 'io.k8s.api.batch.v1.JobSpec';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** %q of a list, as fmt prints a []string: `["a" "b"]`. */
const quotedList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

function nonNegative(v: unknown, path: FieldPath): FieldError[] {
  return isInt(v) && v < 0 ? [fieldError.invalid(path, v, isNegativeErrorMsg)] : [];
}

/** unversioned ValidateLabelSelector with AllowInvalidLabelValueInSelector: expression values are not checked. */
export function validateLabelSelector(sel: LabelSelector | undefined, path: FieldPath): FieldError[] {
  return validateLabelSelectorWith(sel, { allowInvalidLabelValueInSelector: true }, path);
}

function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel) return false;
  try {
    return matchesLabels(labelSelectorRequirements(sel), labels ?? {});
  } catch {
    return true; // an unparsable selector is reported by validateLabelSelector
  }
}

/**
 * ValidatePodTemplateSpec: the template's labels and annotations, the pod-specific annotations,
 * its pod spec, and the seccomp and AppArmor annotations agreeing with the fields. Upstream
 * reports the template's metadata without `metadata`: `spec.template.labels`,
 * `spec.template.annotations` (the selector mismatch, elsewhere, does name it).
 */
export function validatePodTemplateSpec(t: PodTemplateSpec | undefined, opts: PodValidationOptions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabels(t?.metadata?.labels, path.child('labels')));
  errs.push(...validateAnnotations(t?.metadata?.annotations, path.child('annotations')));
  const spec = t?.spec && typeof t.spec === 'object' ? t.spec : ({ containers: [] } as PodSpec);
  validatePodSpecificAnnotations(t?.metadata?.annotations, spec, path.child('annotations'), opts.allowInvalidPodDeletionCost === true, errs);
  errs.push(...validatePodSpec(t?.spec, opts, path.child('spec')));
  validateSeccompAnnotationsAndFields(t?.metadata?.annotations, spec, path.child('spec'), errs);
  validateAppArmorAnnotationsAndFieldsMatchOnCreate(t?.metadata?.annotations, spec, path.child('spec'), errs);
  if ((t?.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldError.forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** validatePodFailurePolicyRule with its onExitCodes and onPodConditions requirements. */
function validatePodFailurePolicyRule(spec: JobSpec, rule: PodFailurePolicyRule, path: FieldPath, containerNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = rule?.action ?? '';
  if (action === '') errs.push(fieldError.required(path.child('action'), `valid values: ${quotedList(podFailurePolicyActions)}`));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) errs.push(fieldError.invalid(path.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!podFailurePolicyActions.includes(action)) errs.push(fieldError.notSupported(path.child('action'), action, podFailurePolicyActions));
  const onExit = rule?.onExitCodes;
  const onConds = rule?.onPodConditions ?? [];
  if (onExit) {
    const p = path.child('onExitCodes');
    const op = onExit.operator ?? '';
    if (op === '') errs.push(fieldError.required(p.child('operator'), `valid values: ${quotedList(onExitCodesOperators)}`));
    else if (!onExitCodesOperators.includes(op)) errs.push(fieldError.notSupported(p.child('operator'), op, onExitCodesOperators));
    if (onExit.containerName !== undefined && !containerNames.has(onExit.containerName)) {
      errs.push(fieldError.invalid(p.child('containerName'), onExit.containerName, 'must be one of the container or initContainer names in the pod template'));
    }
    const values = onExit.values ?? [];
    const vp = p.child('values');
    if (values.length === 0) errs.push(fieldError.invalid(vp, values, 'at least one value is required'));
    else if (values.length > maxOnExitCodesValues) errs.push(fieldError.tooMany(vp, values.length, maxOnExitCodesValues));
    const seen = new Set<number>();
    let ordered = true;
    values.forEach((v, j) => {
      if (op === 'In' && v === 0) errs.push(fieldError.invalid(vp.index(j), v, 'must not be 0 for the In operator'));
      if (seen.has(v)) errs.push(fieldError.duplicate(vp.index(j), v));
      else seen.add(v);
      if (j > 0 && values[j - 1]! > v) ordered = false;
    });
    if (!ordered) errs.push(fieldError.invalid(vp, values, 'must be ordered'));
  }
  if (onConds.length > 0) {
    const p = path.child('onPodConditions');
    if (onConds.length > maxOnPodConditionsPatterns) errs.push(fieldError.tooMany(p, onConds.length, maxOnPodConditionsPatterns));
    onConds.forEach((c, j) => {
      errs.push(...isQualifiedName(String(c?.type ?? '')).map((m) => fieldError.invalid(p.index(j).child('type'), c?.type ?? '', m)));
      const status = c?.status ?? '';
      if (status === '') errs.push(fieldError.required(p.index(j).child('status'), `valid values: ${quotedList(conditionStatuses)}`));
      else if (!conditionStatuses.includes(status)) errs.push(fieldError.notSupported(p.index(j).child('status'), status, conditionStatuses));
    });
  }
  if (onExit && onConds.length > 0) errs.push(fieldError.invalid(path, omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!onExit && onConds.length === 0) errs.push(fieldError.invalid(path, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

/** validateSuccessPolicy and validateSuccessPolicyRule (an Indexed job's: completions is required). */
function validateSuccessPolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.successPolicy?.rules ?? [];
  const rp = path.child('rules');
  if (rules.length === 0) errs.push(fieldError.required(rp, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > maxSuccessPolicyRule) errs.push(fieldError.tooMany(rp, rules.length, maxSuccessPolicyRule));
  const completions = isInt(spec.completions) ? spec.completions : 0;
  rules.forEach((rule, i) => {
    const p = rp.index(i);
    if (rule?.succeededCount === undefined && rule?.succeededIndexes === undefined) errs.push(fieldError.required(p, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (rule?.succeededIndexes !== undefined) {
      const ip = p.child('succeededIndexes');
      if (rule.succeededIndexes.length > maxJobSuccessPolicySucceededIndexesLimit) errs.push(fieldError.tooLong(ip, maxJobSuccessPolicySucceededIndexesLimit));
      const parsed = indexesFormat(rule.succeededIndexes, completions);
      if (typeof parsed === 'string') errs.push(fieldError.invalid(ip, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`));
      else total = parsed;
    }
    if (rule?.succeededCount !== undefined) {
      const cp = p.child('succeededCount');
      errs.push(...nonNegative(rule.succeededCount, cp));
      if (rule.succeededCount > completions) errs.push(fieldError.invalid(cp, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (rule.succeededIndexes !== undefined && rule.succeededCount > total) {
        errs.push(fieldError.invalid(cp, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
      }
    }
  });
  return errs;
}

/** validateIndexesFormat: the number of indexes in "1,3-5" form, or why it is not that form below `completions`. */
export function indexesFormat(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const part of text.split(',')) {
    const iv = indexInterval(part, completions);
    if (typeof iv === 'string') return iv;
    if (last !== undefined && last >= iv[0]) return `non-increasing order, previous: ${last}, current: ${iv[0]}`;
    total += iv[1] - iv[0] + 1;
    last = iv[1];
  }
  return total;
}

/** parseIndexInterval: "x" or "x-y" with x < y < completions. */
function indexInterval(part: string, completions: number): [number, number] | string {
  const limits = part.split('-');
  if (limits.length > 2) return `the fragment ${JSON.stringify(part)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const atoi = (v: string) => (/^[+-]?\d+$/.test(v) ? Number(v) : undefined);
  const x = atoi(limits[0]!);
  if (x === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[0])}`;
  if (x >= completions) return `too large index: ${JSON.stringify(limits[0])}`;
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]!);
  if (y === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[1])}`;
  if (y >= completions) return `too large index: ${JSON.stringify(limits[1])}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** validateJobSpec: the part shared by a Job and a CronJob's job template. */
function validateJobSpecCommon(spec: JobSpec, opts: PodValidationOptions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(spec.parallelism, path.child('parallelism')));
  errs.push(...nonNegative(spec.completions, path.child('completions')));
  errs.push(...nonNegative(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds')));
  errs.push(...nonNegative(spec.backoffLimit, path.child('backoffLimit')));
  errs.push(...nonNegative(spec.ttlSecondsAfterFinished, path.child('ttlSecondsAfterFinished')));
  errs.push(...nonNegative(spec.backoffLimitPerIndex, path.child('backoffLimitPerIndex')));
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...nonNegative(spec.maxFailedIndexes, path.child('maxFailedIndexes')));
    if (spec.backoffLimitPerIndex === undefined) errs.push(fieldError.required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (spec.managedBy !== undefined && spec.managedBy.length > maxManagedByLength) {
    errs.push({ ...fieldError.tooLong(path.child('managedBy'), maxManagedByLength), detail: `must have at most ${maxManagedByLength} bytes` });
  }
  const mode = spec.completionMode;
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldError.notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (spec.completions === undefined) errs.push(fieldError.required(path.child('completions'), 'when completion mode is Indexed'));
      if (isInt(spec.parallelism) && spec.parallelism > maxParallelismForIndexedJob) {
        errs.push(fieldError.invalid(path.child('parallelism'), spec.parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
      if (isInt(spec.completions) && isInt(spec.maxFailedIndexes) && spec.maxFailedIndexes > spec.completions) {
        errs.push(fieldError.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, 'must be less than or equal to completions'));
      }
      if (isInt(spec.maxFailedIndexes) && spec.maxFailedIndexes > maxFailedIndexesForIndexedJob) {
        errs.push(fieldError.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`));
      }
      if (isInt(spec.completions) && spec.completions > completionsSoftLimit && spec.backoffLimitPerIndex !== undefined) {
        const high = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
        if (spec.maxFailedIndexes === undefined) errs.push(fieldError.required(path.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
        if (isInt(spec.parallelism) && spec.parallelism > parallelismLimitForHighCompletions) {
          errs.push(fieldError.invalid(path.child('parallelism'), spec.parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} ${high}`));
        }
        if (isInt(spec.maxFailedIndexes) && spec.maxFailedIndexes > maxFailedIndexesLimitForHighCompletions) {
          errs.push(fieldError.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${high}`));
        }
      }
    }
  }
  if (mode === undefined || mode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex !== undefined) errs.push(fieldError.invalid(path.child('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec.maxFailedIndexes !== undefined) errs.push(fieldError.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  const template = spec.template;
  if (spec.podFailurePolicy) {
    const rules = spec.podFailurePolicy.rules ?? [];
    const rp = path.child('podFailurePolicy', 'rules');
    if (rules.length > maxPodFailurePolicyRules) errs.push(fieldError.tooMany(rp, rules.length, maxPodFailurePolicyRules));
    const names = new Set<string>([...(template?.spec?.containers ?? []), ...(template?.spec?.initContainers ?? [])].map((c) => c?.name ?? ''));
    rules.forEach((r, i) => errs.push(...validatePodFailurePolicyRule(spec, r, rp.index(i), names)));
  }
  if (spec.successPolicy) {
    if (mode !== 'Indexed') errs.push(fieldError.invalid(path.child('successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, path.child('successPolicy')));
  }
  if (spec.podReplacementPolicy !== undefined) {
    const p = path.child('podReplacementPolicy');
    if (spec.podFailurePolicy) {
      if (spec.podReplacementPolicy !== 'Failed') errs.push(fieldError.notSupported(p, spec.podReplacementPolicy, ['Failed']));
    } else if (!podReplacementPolicies.includes(spec.podReplacementPolicy)) errs.push(fieldError.notSupported(p, spec.podReplacementPolicy, podReplacementPolicies));
  }
  errs.push(...validatePodTemplateSpec(template, opts, path.child('template')));
  const restart = template?.spec?.restartPolicy ?? '';
  const rpPath = path.child('template', 'spec', 'restartPolicy');
  // The template's restartPolicy defaults to Always, which a job cannot use.
  if (restart === 'Always' || restart === '') errs.push(fieldError.required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (restart !== 'OnFailure' && restart !== 'Never') errs.push(fieldError.notSupported(rpPath, restart, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy && restart !== 'Never') errs.push(fieldError.invalid(rpPath, restart, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** ValidateJobSpec: the common rules, then the selector, which the template's labels must match. */
export function validateJobSpec(spec: JobSpec | undefined, opts: PodValidationOptions, path = FieldPath.root('spec')): FieldError[] {
  const s: JobSpec = spec && typeof spec === 'object' ? spec : {};
  const errs = validateJobSpecCommon(s, opts, path);
  if (!s.selector) errs.push(fieldError.required(path.child('selector')));
  else errs.push(...validateLabelSelector(s.selector, path.child('selector')));
  if (s.selector && !selectorMatches(s.selector, s.template?.metadata?.labels)) {
    errs.push(fieldError.invalid(path.child('template', 'metadata', 'labels'), s.template?.metadata?.labels ?? {}, '`selector` does not match template `labels`'));
  }
  return errs;
}

/** validateGeneratedSelector: with a generated selector, the template carries the job's uid and name. */
function validateGeneratedSelector(job: Job): FieldError[] {
  const errs: FieldError[] = [];
  const spec = job.spec ?? {};
  if (spec.manualSelector === true || !spec.selector) return errs;
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  if (uid === '') errs.push(fieldError.required(FieldPath.root('metadata').child('uid')));
  const labels = spec.template?.metadata?.labels ?? {};
  const lp = FieldPath.root('spec').child('template', 'metadata', 'labels');
  const hasLabel = (key: string, want: string) => {
    if (!(key in labels)) errs.push(fieldError.required(lp.key(key), `must be '${want}'`));
    else if (labels[key] !== want) errs.push(fieldError.invalid(lp.key(key), labels, `must be '${want}'`));
  };
  hasLabel(jobLabels.legacyControllerUid, uid);
  hasLabel(jobLabels.legacyJobName, name);
  hasLabel(jobLabels.controllerUid, uid);
  hasLabel(jobLabels.jobName, name);
  const expected = { [jobLabels.controllerUid]: uid, [jobLabels.jobName]: name, [jobLabels.legacyControllerUid]: uid, [jobLabels.legacyJobName]: name };
  if (!selectorMatches(spec.selector, expected)) errs.push(fieldError.invalid(FieldPath.root('spec').child('selector'), spec.selector, '`selector` not auto-generated'));
  return errs;
}

/** ValidateJob, for create. */
export function validateJob(job: Job, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(job?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateGeneratedSelector(job));
  errs.push(...validateJobSpec(job?.spec, opts));
  const spec = job?.spec;
  if (spec?.completionMode === 'Indexed' && isInt(spec.completions) && spec.completions > 0) {
    const hostname = `${job.metadata?.name ?? ''}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(fieldError.invalid(FieldPath.root('metadata').child('name'), job.metadata?.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** ValidateJobUpdate: the spec again, with completions, selector, template and the policies immutable. */
export function validateJobUpdate(job: Job, old: Job, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMetaUpdate(job?.metadata, old?.metadata);
  const spec = job?.spec ?? {};
  const prev = old?.spec ?? {};
  const path = FieldPath.root('spec');
  errs.push(...validateJobSpec(spec, podSelectorOptionsForUpdate(opts, prev.template?.spec), path));
  const immutable = (field: keyof JobSpec) => {
    if (!semanticEqual(spec[field], prev[field], fieldShape(jobSpecSchema, field))) errs.push(fieldError.invalid(path.child(field), spec[field] ?? null, fieldImmutableErrorMsg));
  };
  for (const f of ['completions', 'selector', 'template', 'completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'] as const) immutable(f);
  return errs;
}

/**
 * The status.failedIndexes rules of validateJobStatus, each checked (as strategy.go's options
 * say) only when the value it looks at changed: the "1,3-5" form below completions, only with
 * backoffLimitPerIndex, and no index both completed and failed.
 */
function validateFailedIndexesStatus(job: Job, old: Job, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const st = job?.status ?? {};
  const failed = st.failedIndexes;
  const failedChanged = failed !== old?.status?.failedIndexes;
  const completedChanged = (st.completedIndexes ?? '') !== (old?.status?.completedIndexes ?? '');
  const completions = job?.spec?.completions;
  const fp = path.child('failedIndexes');
  if (failedChanged && isInt(completions) && job.spec?.backoffLimitPerIndex !== undefined && failed !== undefined) {
    const parsed = indexesFormat(failed, completions);
    if (typeof parsed === 'string') errs.push(fieldError.invalid(fp, failed, `error parsing failedIndexes: ${parsed}`));
  }
  if (failedChanged && job?.spec?.backoffLimitPerIndex === undefined && failed !== undefined) {
    errs.push(fieldError.invalid(fp, failed, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if ((failedChanged || completedChanged) && isInt(completions) && failed !== undefined) {
    const at = overlapIndex(st.completedIndexes ?? '', failed, completions);
    if (at !== undefined) errs.push(fieldError.invalid(fp, failed, `failedIndexes and completedIndexes overlap at index: ${at}`));
  }
  return errs;
}

/** validateFailedIndexesNotOverlapCompleted: the first index in both lists (intervals that do not parse are passed over). */
function overlapIndex(completed: string, failed: string, completions: number): number | undefined {
  if (completed === '' || failed === '') return undefined;
  const parse = (text: string) => text.split(',').map((part) => indexInterval(part, completions)).filter((iv): iv is [number, number] => typeof iv !== 'string');
  const cs = parse(completed);
  const fs = parse(failed);
  let i = 0;
  let j = 0;
  while (i < cs.length && j < fs.length) {
    const [cx, cy] = cs[i]!;
    const [fx, fy] = fs[j]!;
    if (cx <= fy && fx <= cy) return Math.max(cx, fx);
    if (cx <= fx) i++;
    else j++;
  }
  return undefined;
}

/** ValidateJobUpdateStatus: the counters stay non-negative and ready ≤ active, the failed indexes well formed. */
export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  const errs = validateObjectMetaUpdate(job?.metadata, old?.metadata);
  const st = job?.status ?? {};
  const path = FieldPath.root('status');
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating'] as const) errs.push(...nonNegative(st[f], path.child(f)));
  errs.push(...validateFailedIndexesStatus(job, old, path));
  if (isInt(st.ready) && st.ready > (st.active ?? 0)) errs.push(fieldError.invalid(path.child('ready'), st.ready, 'cannot set more ready pods than active'));
  const oldSt = old?.status ?? {};
  if ((st.failed ?? 0) < (oldSt.failed ?? 0)) errs.push(fieldError.invalid(path.child('failed'), st.failed ?? 0, 'cannot decrease the failed counter'));
  if ((st.succeeded ?? 0) < (oldSt.succeeded ?? 0)) errs.push(fieldError.invalid(path.child('succeeded'), st.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  return errs;
}

/** ValidateJobTemplateSpec: a CronJob's job template, whose selector is always generated. */
function validateJobTemplateSpec(t: { spec?: JobSpec } | undefined, opts: PodValidationOptions, path: FieldPath): FieldError[] {
  const spec: JobSpec = t?.spec ?? {};
  const errs = validateJobSpecCommon(spec, opts, path.child('spec'));
  if (spec.selector) errs.push(fieldError.invalid(path.child('spec', 'selector'), spec.selector, '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(fieldError.notSupported(path.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec; `old` is the stored spec on update (TZ in the schedule stays allowed if it was there). */
function validateCronJobSpec(cj: CronJob, old: CronJob | undefined, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = cj?.spec ?? {};
  const path = FieldPath.root('spec');
  const schedule = spec.schedule ?? '';
  if (schedule === '') errs.push(fieldError.required(path.child('schedule')));
  else {
    const why = cronScheduleError(schedule);
    if (why) errs.push(fieldError.invalid(path.child('schedule'), schedule, why));
    const allowTZ = (old?.spec?.schedule ?? '').includes('TZ');
    if (allowTZ && schedule.includes('TZ') && spec.timeZone !== undefined) {
      errs.push(fieldError.invalid(path.child('schedule'), schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTZ && schedule.includes('TZ')) {
      errs.push(fieldError.invalid(path.child('schedule'), schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  errs.push(...nonNegative(spec.startingDeadlineSeconds, path.child('startingDeadlineSeconds')));
  if (!old || old.spec?.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, path.child('timeZone')));
  const cp = spec.concurrencyPolicy ?? '';
  if (cp === '') errs.push(fieldError.required(path.child('concurrencyPolicy')));
  else if (!concurrencyPolicies.includes(cp)) errs.push(fieldError.notSupported(path.child('concurrencyPolicy'), cp, concurrencyPolicies));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate, opts, path.child('jobTemplate')));
  errs.push(...nonNegative(spec.successfulJobsHistoryLimit, path.child('successfulJobsHistoryLimit')));
  errs.push(...nonNegative(spec.failedJobsHistoryLimit, path.child('failedJobsHistoryLimit')));
  return errs;
}

const timeZonePart = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone: an explicit IANA name the runtime knows. */
export function validateTimeZone(tz: string | undefined, path: FieldPath): FieldError[] {
  if (tz === undefined) return [];
  if (tz === '') return [fieldError.invalid(path, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !timeZonePart.test(part)) return [fieldError.invalid(path, tz, `unknown time zone ${tz}`)];
  }
  if (tz.toLowerCase() === 'local') return [fieldError.invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  if (!isTimeZone(tz)) return [fieldError.invalid(path, tz, `unknown time zone ${tz}`)];
  return [];
}

/** ValidateCronJobCreate: the name must leave room for the jobs' `-<minutes>` suffix. */
export function validateCronJob(cj: CronJob, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(cj?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateCronJobSpec(cj, undefined, opts));
  const name = cj?.metadata?.name ?? '';
  if (name.length > maxCronJobNameLength) errs.push(fieldError.invalid(FieldPath.root('metadata').child('name'), name, `must be no more than ${maxCronJobNameLength} characters`));
  return errs;
}

/** ValidateCronJobUpdate: no name-length rule, so older long names can still be updated. */
export function validateCronJobUpdate(cj: CronJob, old: CronJob, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMetaUpdate(cj?.metadata, old?.metadata);
  errs.push(...validateCronJobSpec(cj, old, podSelectorOptionsForUpdate(opts, old?.spec?.jobTemplate?.spec?.template?.spec)));
  return errs;
}
