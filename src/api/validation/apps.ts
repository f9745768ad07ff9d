// apps/v1 validation (pkg/apis/apps/validation/validation.go, with the selector immutability
// the apps strategies add on update): Deployment, ReplicaSet, StatefulSet, DaemonSet and
// ControllerRevision, their status updates, and the Scale a scale subresource write carries.
// The pod template reuses the pod spec validation (job.ts validatePodTemplateSpec), except for
// StatefulSets, whose template upstream checks for labels and annotations only. Structs, maps
// and intstr values print as Go's %#v does (gosyntax.ts). Upstream's paths and wording.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { labelSelectorRequirements, matchesLabels } from '../selectors.js';
import type {
  ControllerRevision,
  DaemonSet,
  DaemonSetSpec,
  Deployment,
  DeploymentSpec,
  IntOrString,
  LabelSelector,
  PodTemplateSpec,
  ReplicaSet,
  ReplicaSetSpec,
  Scale,
  StatefulSet,
  StatefulSetSpec,
} from '../types.js';
import { validatePodTemplateSpec } from './job.js';
import { validateLabelSelector } from './labelselector.js';
import { nameIsDNSLabel, nameIsDNSSubdomain, regexError } from './names.js';
import { fieldImmutableErrorMsg, isNegativeErrorMsg, validateAnnotations, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { podSelectorOptionsForUpdate, type PodValidationOptions } from './pod.js';
import { goIntOrString, goLabelSelector, goPointer, goStringMap, goValue } from './gosyntax.js';
import { semanticEqual } from '../semanticequal.js';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const spec = (p = 'spec') => FieldPath.root(p);

function nonNegative(v: unknown, path: FieldPath): FieldError[] {
  return isInt(v) && v < 0 ? [fieldError.invalid(path, v, isNegativeErrorMsg)] : [];
}

// ---------------------------------------------------------------------------------------------
// Selectors and templates

/** ValidateLabelSelector without AllowInvalidLabelValueInSelector: expression values are label values too. */
export function validateSelectorStrict(sel: LabelSelector, path: FieldPath): FieldError[] {
  return validateLabelSelector(sel, { allowInvalidLabelValueInSelector: false }, path);
}

/**
 * metav1.LabelSelectorAsSelector: undefined when it fails (a bad operator, key or value);
 * otherwise whether the selector is empty (selects everything) and whether it matches `labels`.
 * A nil selector is labels.Nothing(): not empty, and it matches nothing.
 */
function asSelector(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): { empty: boolean; matches: boolean } | undefined {
  if (!sel || typeof sel !== 'object') return { empty: false, matches: false };
  try {
    const reqs = labelSelectorRequirements(sel);
    if (validateSelectorStrict(sel, FieldPath.root('selector')).length > 0) return undefined;
    return { empty: reqs.length === 0, matches: matchesLabels(reqs, labels ?? {}) };
  } catch {
    return undefined;
  }
}

const emptySelector = (sel: LabelSelector) => Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;

function selectorMismatch(t: PodTemplateSpec | undefined, path: FieldPath): FieldError {
  return fieldError.invalid(path.child('metadata', 'labels'), goValue(goStringMap(t?.metadata?.labels)), '`selector` does not match template `labels`');
}

/** The selector rules Deployment, ReplicaSet and StatefulSet share: required, strict, non-empty. */
function validateRequiredSelector(sel: LabelSelector | undefined, kind: string, path: FieldPath): FieldError[] {
  if (!sel) return [fieldError.required(path)];
  const errs = validateSelectorStrict(sel, path);
  if (emptySelector(sel)) errs.push(fieldError.invalid(path, goValue(goLabelSelector(sel)), `empty selector is invalid for ${kind}`));
  return errs;
}

/** The template rules a pod-owning controller adds: restartPolicy Always, no activeDeadlineSeconds. */
function validateControllerTemplate(t: PodTemplateSpec | undefined, kind: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const restart = t?.spec?.restartPolicy ?? '';
  if (restart !== 'Always') errs.push(fieldError.notSupported(path.child('spec', 'restartPolicy'), restart, ['Always']));
  if (t?.spec?.activeDeadlineSeconds !== undefined) errs.push(fieldError.forbidden(path.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet: the selector matches the labels, then the template as a pod's. */
function validateTemplateForReplicaSet(t: PodTemplateSpec | undefined, sel: { empty: boolean; matches: boolean }, kind: string, opts: PodValidationOptions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!sel.empty && !sel.matches) errs.push(selectorMismatch(t, path));
  errs.push(...validatePodTemplateSpec(t, opts, path));
  errs.push(...validateControllerTemplate(t, kind, path));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// intstr rules

const percentRE = /^[0-9]+%$/;
const percentMsg = regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%');

function percentValue(v: IntOrString | undefined): number | undefined {
  return typeof v === 'string' && percentRE.test(v) ? parseInt(v.slice(0, -1), 10) : undefined;
}

/** getIntOrPercentValue: the percent, else IntValue() (a non-percent string is Atoi'd, 0 when not a number). */
function intOrPercentValue(v: IntOrString | undefined): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[+-]?[0-9]+$/.test(v)) return parseInt(v, 10);
  return 0;
}

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return percentRE.test(v) ? [] : [fieldError.invalid(path, goValue(goIntOrString(v)), percentMsg)];
  return nonNegative(v ?? 0, path);
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100Percent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  const p = percentValue(v);
  return p !== undefined && p > 100 ? [fieldError.invalid(path, goValue(goIntOrString(v)), 'must not be greater than 100%')] : [];
}

// ---------------------------------------------------------------------------------------------
// Deployment

function validateDeploymentStrategy(s: DeploymentSpec['strategy'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = s?.type ?? '';
  if (type === 'Recreate') {
    if (s?.rollingUpdate) errs.push(fieldError.forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
  } else if (type === 'RollingUpdate') {
    const ru = s?.rollingUpdate;
    if (!ru) errs.push(fieldError.required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
    else {
      const rp = path.child('rollingUpdate');
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, rp.child('maxSurge')));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(fieldError.invalid(rp.child('maxUnavailable'), goValue(goIntOrString(ru.maxUnavailable)), 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')));
    }
  } else {
    const v = `apps.DeploymentStrategy{Type:${JSON.stringify(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDeployment', s?.rollingUpdate)}}`;
    errs.push(fieldError.notSupported(path, goValue(v), ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(s: DeploymentSpec | undefined, opts: PodValidationOptions, path = spec()): FieldError[] {
  const d: DeploymentSpec = s ?? {};
  const errs = nonNegative(d.replicas ?? 0, path.child('replicas'));
  errs.push(...validateRequiredSelector(d.selector, 'deployment', path.child('selector')));
  const sel = asSelector(d.selector, d.template?.metadata?.labels);
  if (!sel) errs.push(fieldError.invalid(path.child('selector'), goValue(goLabelSelector(d.selector)), 'invalid label selector'));
  else errs.push(...validateTemplateForReplicaSet(d.template, sel, 'ReplicaSet', opts, path.child('template')));
  errs.push(...validateDeploymentStrategy(d.strategy, path.child('strategy')));
  errs.push(...nonNegative(d.minReadySeconds ?? 0, path.child('minReadySeconds')));
  if (d.revisionHistoryLimit !== undefined) errs.push(...nonNegative(d.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  if (d.progressDeadlineSeconds !== undefined) {
    errs.push(...nonNegative(d.progressDeadlineSeconds, path.child('progressDeadlineSeconds')));
    if (isInt(d.progressDeadlineSeconds) && d.progressDeadlineSeconds <= (d.minReadySeconds ?? 0)) {
      errs.push(fieldError.invalid(path.child('progressDeadlineSeconds'), d.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** ValidateDeployment, for create. */
export function validateDeployment(d: Deployment, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(d?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateDeploymentSpec(d?.spec, opts));
  return errs;
}

/** The selector of apps/v1 objects cannot change (ValidateImmutableField in each strategy's ValidateUpdate). */
function immutableSelector(sel: LabelSelector | undefined, old: LabelSelector | undefined): FieldError[] {
  return semanticEqual(sel, old) ? [] : [fieldError.invalid(spec().child('selector'), goValue(goLabelSelector(sel)), fieldImmutableErrorMsg)];
}

/** ValidateDeploymentUpdate and the strategy's selector immutability. */
export function validateDeploymentUpdate(d: Deployment, old: Deployment, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMetaUpdate(d?.metadata, old?.metadata);
  errs.push(...validateDeploymentSpec(d?.spec, podSelectorOptionsForUpdate(opts, old?.spec?.template?.spec)));
  errs.push(...immutableSelector(d?.spec?.selector, old?.spec?.selector));
  return errs;
}

/** Counters that may not exceed status.replicas, and available ≤ ready. */
function replicaCounters(st: Record<string, unknown>, path: FieldPath, capped: readonly string[], readyMsg: string, readyField = 'readyReplicas'): FieldError[] {
  const errs: FieldError[] = [];
  const n = (k: string) => (isInt(st[k]) ? (st[k] as number) : 0);
  for (const k of capped) if (n(k) > n('replicas')) errs.push(fieldError.invalid(path.child(k), n(k), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n(readyField)) errs.push(fieldError.invalid(path.child('availableReplicas'), n('availableReplicas'), readyMsg));
  return errs;
}

function collisionCountDecrement(st: { collisionCount?: number } | undefined, old: { collisionCount?: number } | undefined): FieldError[] {
  const now = st?.collisionCount;
  const before = old?.collisionCount;
  // apivalidation.IsDecremented: a set count may not go down or away.
  if (before === undefined || (now !== undefined && now >= before)) return [];
  return [fieldError.invalid(FieldPath.root('status').child('collisionCount'), now ?? 0, 'cannot be decremented')];
}

/** ValidateDeploymentStatusUpdate. */
export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs = validateObjectMetaUpdate(d?.metadata, old?.metadata);
  const st = (d?.status ?? {}) as Record<string, unknown>;
  const path = FieldPath.root('status');
  for (const k of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount']) errs.push(...nonNegative(st[k], path.child(k)));
  errs.push(...replicaCounters(st, path, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'));
  errs.push(...collisionCountDecrement(d?.status, old?.status));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// ReplicaSet

/** ValidateReplicaSetSpec (its empty-selector message says "deployment", as upstream's does). */
export function validateReplicaSetSpec(s: ReplicaSetSpec | undefined, opts: PodValidationOptions, path = spec()): FieldError[] {
  const r: ReplicaSetSpec = s ?? {};
  const errs = nonNegative(r.replicas ?? 0, path.child('replicas'));
  errs.push(...nonNegative(r.minReadySeconds ?? 0, path.child('minReadySeconds')));
  errs.push(...validateRequiredSelector(r.selector, 'deployment', path.child('selector')));
  const sel = asSelector(r.selector, r.template?.metadata?.labels);
  if (!sel) errs.push(fieldError.invalid(path.child('selector'), goValue(goLabelSelector(r.selector)), 'invalid label selector'));
  else errs.push(...validateTemplateForReplicaSet(r.template, sel, 'ReplicaSet', opts, path.child('template')));
  return errs;
}

export function validateReplicaSet(rs: ReplicaSet, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(rs?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateReplicaSetSpec(rs?.spec, opts));
  return errs;
}

export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMetaUpdate(rs?.metadata, old?.metadata);
  errs.push(...validateReplicaSetSpec(rs?.spec, podSelectorOptionsForUpdate(opts, old?.spec?.template?.spec)));
  errs.push(...immutableSelector(rs?.spec?.selector, old?.spec?.selector));
  return errs;
}

/** ValidateReplicaSetStatusUpdate. */
export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  const errs = validateObjectMetaUpdate(rs?.metadata, old?.metadata);
  const st = (rs?.status ?? {}) as Record<string, unknown>;
  const path = FieldPath.root('status');
  for (const k of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) errs.push(...nonNegative(st[k], path.child(k)));
  errs.push(...replicaCounters(st, path, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// StatefulSet

function validateRetentionPolicy(p: StatefulSetSpec['persistentVolumeClaimRetentionPolicy'], path: FieldPath): FieldError[] {
  if (!p) return [];
  const errs: FieldError[] = [];
  for (const k of ['whenDeleted', 'whenScaled'] as const) {
    const v = p[k] ?? '';
    if (v !== 'Retain' && v !== 'Delete') errs.push(fieldError.notSupported(path.child(k), v, ['Retain', 'Delete']));
  }
  return errs;
}

function validateStatefulSetUpdateStrategy(us: StatefulSetSpec['updateStrategy'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = us?.type ?? '';
  const ru = us?.rollingUpdate;
  const goRU = () => `apps.RollingUpdateStatefulSetStrategy{Partition:${ru?.partition ?? 0}, MaxUnavailable:${goPointer('intstr.IntOrString', ru?.maxUnavailable)}}`;
  if (type === '') errs.push(fieldError.required(path));
  else if (type === 'OnDelete') {
    if (ru) errs.push(fieldError.invalid(path.child('rollingUpdate'), goValue(goRU()), "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (type === 'RollingUpdate') {
    if (ru) {
      const rp = path.child('rollingUpdate');
      errs.push(...nonNegative(ru.partition ?? 0, rp.child('partition')));
      if (ru.maxUnavailable !== undefined) {
        const mp = rp.child('maxUnavailable');
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, mp));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(fieldError.invalid(mp, goValue(goIntOrString(ru.maxUnavailable)), 'cannot be 0'));
        errs.push(...notMoreThan100Percent(ru.maxUnavailable, mp));
      }
    }
  } else {
    const v = `apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(type)}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', ru)}}`;
    errs.push(fieldError.invalid(path, goValue(v), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  return errs;
}

/** ValidateStatefulSetSpec. */
export function validateStatefulSetSpec(s: StatefulSetSpec | undefined, path = spec()): FieldError[] {
  const ss: StatefulSetSpec = s ?? {};
  const errs: FieldError[] = [];
  const pmp = ss.podManagementPolicy ?? '';
  if (pmp === '') errs.push(fieldError.required(path.child('podManagementPolicy')));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldError.invalid(path.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateStatefulSetUpdateStrategy(ss.updateStrategy, path.child('updateStrategy')));
  errs.push(...validateRetentionPolicy(ss.persistentVolumeClaimRetentionPolicy, path.child('persistentVolumeClaimRetentionPolicy')));
  errs.push(...nonNegative(ss.replicas ?? 0, path.child('replicas')));
  errs.push(...nonNegative(ss.minReadySeconds ?? 0, path.child('minReadySeconds')));
  if (ss.ordinals) errs.push(...nonNegative(ss.ordinals.start ?? 0, path.child('ordinals.start')));
  errs.push(...validateRequiredSelector(ss.selector, 'statefulset', path.child('selector')));
  const sel = asSelector(ss.selector, ss.template?.metadata?.labels);
  const tp = path.child('template');
  if (!sel) errs.push(fieldError.invalid(path.child('selector'), goValue(goLabelSelector(ss.selector)), ''));
  else {
    // ValidatePodTemplateSpecForStatefulSet: upstream leaves the pod spec itself unvalidated.
    if (!sel.empty && !sel.matches) errs.push(selectorMismatch(ss.template, tp));
    errs.push(...validateLabels(ss.template?.metadata?.labels, tp.child('labels')));
    errs.push(...validateAnnotations(ss.template?.metadata?.annotations, tp.child('annotations')));
  }
  errs.push(...validateControllerTemplate(ss.template, 'StatefulSet', tp));
  return errs;
}

/** ValidateStatefulSet: the name is a DNS label (it becomes the pods' hostnames). */
export function validateStatefulSet(ss: StatefulSet): FieldError[] {
  const errs = validateObjectMeta(ss?.metadata, { namespaced: true, nameFn: nameIsDNSLabel });
  errs.push(...validateStatefulSetSpec(ss?.spec));
  return errs;
}

const statefulSetUpdatable = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy'] as const;

/** ValidateStatefulSetUpdate: only the listed spec fields may change. */
export function validateStatefulSetUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = validateObjectMetaUpdate(ss?.metadata, old?.metadata);
  errs.push(...validateStatefulSetSpec(ss?.spec));
  const rest = (s: StatefulSetSpec | undefined) => {
    const copy: Record<string, unknown> = { ...(s ?? {}) };
    for (const k of statefulSetUpdatable) delete copy[k];
    return copy;
  };
  if (!semanticEqual(rest(ss?.spec), rest(old?.spec), 'io.k8s.api.apps.v1.StatefulSetSpec')) {
    errs.push(
      fieldError.forbidden(
        spec(),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

/** ValidateStatefulSetStatusUpdate. */
export function validateStatefulSetStatusUpdate(ss: StatefulSet, old: StatefulSet): FieldError[] {
  const st = (ss?.status ?? {}) as Record<string, unknown>;
  const path = FieldPath.root('status');
  const errs: FieldError[] = [];
  for (const k of ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount']) errs.push(...nonNegative(st[k], path.child(k)));
  errs.push(...replicaCounters(st, path, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], 'cannot be greater than status.readyReplicas'));
  errs.push(...validateObjectMetaUpdate(ss?.metadata, old?.metadata));
  errs.push(...collisionCountDecrement(ss?.status, old?.status));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// DaemonSet

function validateDaemonSetUpdateStrategy(us: DaemonSetSpec['updateStrategy'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = us?.type ?? '';
  if (type === 'OnDelete') return errs;
  if (type === 'RollingUpdate') {
    const ru = us?.rollingUpdate;
    if (!ru) return [fieldError.required(path.child('rollingUpdate'))];
    const rp = path.child('rollingUpdate');
    errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, rp.child('maxUnavailable')));
    errs.push(...validatePositiveIntOrPercent(ru.maxSurge, rp.child('maxSurge')));
    errs.push(...notMoreThan100Percent(ru.maxUnavailable, rp.child('maxUnavailable')));
    errs.push(...notMoreThan100Percent(ru.maxSurge, rp.child('maxSurge')));
    const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
    const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
    if (hasUnavailable && hasSurge) errs.push(fieldError.invalid(rp.child('maxSurge'), goValue(goIntOrString(ru.maxSurge)), 'may not be set when maxUnavailable is non-zero'));
    else if (!hasUnavailable && !hasSurge) errs.push(fieldError.required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
    return errs;
  }
  const v = `apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', us?.rollingUpdate)}}`;
  return [fieldError.notSupported(path, goValue(v), ['RollingUpdate', 'OnDelete'])];
}

/** ValidateDaemonSetSpec: a missing selector is reported only as not matching the template. */
export function validateDaemonSetSpec(s: DaemonSetSpec | undefined, opts: PodValidationOptions, path = spec()): FieldError[] {
  const d: DaemonSetSpec = s ?? {};
  const errs = d.selector ? validateSelectorStrict(d.selector, path.child('selector')) : [];
  const sel = asSelector(d.selector, d.template?.metadata?.labels);
  if (sel && !sel.matches) errs.push(selectorMismatch(d.template, path.child('template')));
  if (d.selector && emptySelector(d.selector)) errs.push(fieldError.invalid(path.child('selector'), goValue(goLabelSelector(d.selector)), 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(d.template, opts, path.child('template')));
  errs.push(...validateControllerTemplate(d.template, 'DaemonSet', path.child('template')));
  errs.push(...nonNegative(d.minReadySeconds ?? 0, path.child('minReadySeconds')));
  errs.push(...validateDaemonSetUpdateStrategy(d.updateStrategy, path.child('updateStrategy')));
  if (d.revisionHistoryLimit !== undefined) errs.push(...nonNegative(d.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  return errs;
}

export function validateDaemonSet(ds: DaemonSet, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMeta(ds?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateDaemonSetSpec(ds?.spec, opts));
  return errs;
}

export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet, opts: PodValidationOptions): FieldError[] {
  const errs = validateObjectMetaUpdate(ds?.metadata, old?.metadata);
  errs.push(...validateDaemonSetSpec(ds?.spec, podSelectorOptionsForUpdate(opts, old?.spec?.template?.spec)));
  errs.push(...immutableSelector(ds?.spec?.selector, old?.spec?.selector));
  return errs;
}

/** ValidateDaemonSetStatusUpdate. */
export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const errs = validateObjectMetaUpdate(ds?.metadata, old?.metadata);
  const st = (ds?.status ?? {}) as Record<string, unknown>;
  const path = FieldPath.root('status');
  for (const k of ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount']) {
    errs.push(...nonNegative(st[k], path.child(k)));
  }
  errs.push(...collisionCountDecrement(ds?.status, old?.status));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// ControllerRevision and Scale

/** ValidateControllerRevision. */
export function validateControllerRevision(cr: ControllerRevision): FieldError[] {
  const errs = validateObjectMeta(cr?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  if (cr?.data === undefined || cr.data === null) errs.push(fieldError.required(FieldPath.root('data'), 'data is mandatory'));
  errs.push(...nonNegative(cr?.revision ?? 0, FieldPath.root('revision')));
  return errs;
}

/** ValidateControllerRevisionUpdate: data is immutable (its bad value prints as JSON, not as Go's RawExtension bytes). */
export function validateControllerRevisionUpdate(cr: ControllerRevision, old: ControllerRevision): FieldError[] {
  const errs = validateObjectMetaUpdate(cr?.metadata, old?.metadata);
  errs.push(...validateControllerRevision(cr));
  if (!semanticEqual(cr?.data, old?.data)) errs.push(fieldError.invalid(FieldPath.root('data'), cr?.data ?? null, fieldImmutableErrorMsg));
  return errs;
}

/** autoscaling ValidateScale: metadata as for a namespaced object, replicas ≥ 0. */
export function validateScale(scale: Scale): FieldError[] {
  const errs = validateObjectMeta(scale?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...nonNegative(scale?.spec?.replicas ?? 0, spec().child('replicas')));
  return errs;
}
