// PodDisruptionBudget validation (pkg/apis/policy/validation ValidatePodDisruptionBudget and
// ValidatePodDisruptionBudgetStatusUpdate, the status conditions through apimachinery's
// metav1 ValidateConditions), and the object metadata the generic registry checks around them
// (rest.BeforeCreate / BeforeUpdate: a PodDisruptionBudget's name only has to be a valid path
// segment). Upstream's paths and wording; structs print as Go's %#v (gosyntax.ts).

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { MetaCondition, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../types.js';
import { notMoreThan100Percent, validatePositiveIntOrPercent, validateSelectorStrict } from './apps.js';
import { validateLabelSelector } from './job.js';
import { goPointer, goValue } from './gosyntax.js';
import { regexError, type NameValidator } from './names.js';
import { isNegativeErrorMsg, validateLabelName, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

/** supportedUnhealthyPodEvictionPolicies, as sets.List() sorts them. */
export const unhealthyPodEvictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

export interface PodDisruptionBudgetValidationOptions {
  /** On update, a stored selector with an invalid label value may keep it (hasInvalidLabelValueInLabelSelector). */
  allowInvalidLabelValueInSelector?: boolean;
}

/** path.ValidatePathSegmentName: what the generic registry asks of every name. */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The spec as field.Invalid prints it (%#v of the internal type: pointers print as addresses). */
function goSpec(s: PodDisruptionBudgetSpec): string {
  return (
    `policy.PodDisruptionBudgetSpec{MinAvailable:${goPointer('intstr.IntOrString', s.minAvailable)}, Selector:${goPointer('v1.LabelSelector', s.selector)}, ` +
    `MaxUnavailable:${goPointer('intstr.IntOrString', s.maxUnavailable)}, UnhealthyPodEvictionPolicy:${goPointer('policy.UnhealthyPodEvictionPolicyType', s.unhealthyPodEvictionPolicy)}}`
  );
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec | undefined, opts: PodDisruptionBudgetValidationOptions = {}, path = FieldPath.root('spec')): FieldError[] {
  const s: PodDisruptionBudgetSpec = spec && typeof spec === 'object' ? spec : {};
  const errs: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(s.minAvailable) && has(s.maxUnavailable)) errs.push(fieldError.invalid(path, goValue(goSpec(s)), 'minAvailable and maxUnavailable cannot be both set'));
  for (const f of ['minAvailable', 'maxUnavailable'] as const) {
    if (!has(s[f])) continue;
    errs.push(...validatePositiveIntOrPercent(s[f], path.child(f)));
    errs.push(...notMoreThan100Percent(s[f], path.child(f)));
  }
  if (s.selector) {
    const p = path.child('selector');
    errs.push(...(opts.allowInvalidLabelValueInSelector ? validateLabelSelector(s.selector, p) : validateSelectorStrict(s.selector, p)));
  }
  if (has(s.unhealthyPodEvictionPolicy) && !unhealthyPodEvictionPolicies.includes(String(s.unhealthyPodEvictionPolicy))) {
    errs.push(fieldError.notSupported(path.child('unhealthyPodEvictionPolicy'), s.unhealthyPodEvictionPolicy, unhealthyPodEvictionPolicies));
  }
  return errs;
}

/**
 * The create path: the strategy's Validate, then (only when it passed, as rest.BeforeCreate)
 * the object metadata with a path-segment name.
 */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const errs = validatePodDisruptionBudgetSpec(pdb?.spec);
  if (errs.length) return errs;
  return validateObjectMeta(pdb?.metadata, { namespaced: true, nameFn: nameIsPathSegment });
}

/** hasInvalidLabelValueInLabelSelector: whether the stored selector keeps the relaxed rule. */
function hasInvalidLabelValueInSelector(pdb: PodDisruptionBudget | undefined): boolean {
  const sel = pdb?.spec?.selector;
  return !!sel && validateSelectorStrict(sel, FieldPath.root('spec').child('selector')).length > validateLabelSelector(sel, FieldPath.root('spec').child('selector')).length;
}

/** The update path (rest.BeforeUpdate): the common metadata rules, then ValidatePodDisruptionBudget. */
export function validatePodDisruptionBudgetUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  return [
    ...validateObjectMeta(pdb?.metadata, { namespaced: true, nameFn: nameIsPathSegment }),
    ...validateObjectMetaUpdate(pdb?.metadata, old?.metadata),
    ...validatePodDisruptionBudgetSpec(pdb?.spec, { allowInvalidLabelValueInSelector: hasInvalidLabelValueInSelector(old) }),
  ];
}

// metav1 ValidateConditions (apimachinery pkg/apis/meta/v1/validation).
const conditionStatuses = ['False', 'True', 'Unknown'];
const conditionReasonRE = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const conditionReasonMsg = regexError(
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?',
  'my_name',
  'MY_NAME',
  'MyName',
  'ReasonA,ReasonB',
  'ReasonA:ReasonB',
);
const maxReasonLen = 1024;
const maxMessageLen = 32 * 1024;

/** ValidateCondition. */
function validateCondition(c: MetaCondition, path: FieldPath): FieldError[] {
  const errs = validateLabelName(String(c?.type ?? ''), path.child('type'));
  if (!conditionStatuses.includes(String(c?.status ?? ''))) errs.push(fieldError.notSupported(path.child('status'), c?.status ?? '', conditionStatuses));
  if (isInt(c?.observedGeneration) && c.observedGeneration < 0) errs.push(fieldError.invalid(path.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  if (!c?.lastTransitionTime) errs.push(fieldError.required(path.child('lastTransitionTime'), 'must be set'));
  const reason = String(c?.reason ?? '');
  if (reason.length === 0) errs.push(fieldError.required(path.child('reason'), 'must be set'));
  else {
    if (!conditionReasonRE.test(reason)) errs.push(fieldError.invalid(path.child('reason'), reason, conditionReasonMsg));
    if (reason.length > maxReasonLen) errs.push(fieldError.tooLong(path.child('reason'), maxReasonLen));
  }
  if (String(c?.message ?? '').length > maxMessageLen) errs.push(fieldError.tooLong(path.child('message'), maxMessageLen));
  return errs;
}

/** ValidateConditions: each condition, and a type at most once. */
export function validateConditions(conditions: readonly MetaCondition[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(conditions) ? conditions : []).forEach((c, i) => {
    const type = String(c?.type ?? '');
    if (seen.has(type)) errs.push(fieldError.duplicate(path.index(i).child('type'), type));
    else seen.add(type);
    errs.push(...validateCondition(c, path.index(i)));
  });
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1: conditions, and no negative count. */
export function validatePodDisruptionBudgetStatus(status: PodDisruptionBudgetStatus | undefined, path = FieldPath.root('status')): FieldError[] {
  const errs = validateConditions(status?.conditions, path.child('conditions'));
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const v = status?.[f];
    if (isInt(v) && v < 0) errs.push(fieldError.invalid(path.child(f), v, isNegativeErrorMsg));
  }
  return errs;
}

/** The status subresource's update path: the common metadata rules, then the status. */
export function validatePodDisruptionBudgetStatusUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  return [
    ...validateObjectMeta(pdb?.metadata, { namespaced: true, nameFn: nameIsPathSegment }),
    ...validateObjectMetaUpdate(pdb?.metadata, old?.metadata),
    ...validatePodDisruptionBudgetStatus(pdb?.status),
  ];
}
