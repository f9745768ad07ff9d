// HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation validation.go at 1.32:
// ValidateHorizontalPodAutoscaler, ValidateHorizontalPodAutoscalerUpdate,
// ValidateHorizontalPodAutoscalerStatusUpdate). It runs on the stored (v2) form, as upstream
// validates the internal type, so a v1 request's errors name the v2 paths too. HPAScaleToZero
// (alpha, off) is not served: minReplicas is at least 1, unless an update keeps a stored 0.
// Upstream's paths and wording.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { Quantity } from '../quantity.js';
import type { CrossVersionObjectReference, HorizontalPodAutoscaler, HPAScalingRules, MetricIdentifier, MetricSpec, MetricTarget } from '../types.js';
import { isDNS1123Label, nameIsDNSSubdomain } from './names.js';
import { isNegativeErrorMsg, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { nameIsPathSegment } from './poddisruptionbudget.js';
import { isStandardContainerResourceName } from './resourcenames.js';

/** MaxPeriodSeconds and MaxStabilizationWindowSeconds. */
export const maxPeriodSeconds = 1800;
export const maxStabilizationWindowSeconds = 3600;

const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];
/** validMetricSourceTypes as sets.List() sorts them. */
export const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const num = (v: unknown) => (isInt(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = <T>(v: unknown): T | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : undefined);

/** A quantity's sign, or undefined when it does not parse (the decoder refuses those first). */
function sign(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  const q = typeof v === 'string' ? Quantity.tryParse(v) : undefined;
  return q?.sign();
}

/** ValidateCrossVersionObjectReference. */
export function validateCrossVersionObjectReference(ref: CrossVersionObjectReference | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = str(ref?.[f]);
    if (v.length === 0) errs.push(fieldError.required(path.child(f), ''));
    else for (const msg of nameIsPathSegment(v, false)) errs.push(fieldError.invalid(path.child(f), v, msg));
  }
  return errs;
}

/** validateMetricTarget. */
function validateMetricTarget(mt: MetricTarget | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(mt?.type);
  if (type.length === 0) errs.push(fieldError.required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldError.invalid(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  for (const f of ['value', 'averageValue'] as const) {
    const s = sign(mt?.[f]);
    if (s !== undefined && s !== 1) errs.push(fieldError.invalid(path.child(f), mt![f], 'must be positive'));
  }
  if (isInt(mt?.averageUtilization) && mt.averageUtilization < 1) errs.push(fieldError.invalid(path.child('averageUtilization'), mt.averageUtilization, 'must be greater than 0'));
  return errs;
}

/** validateMetricIdentifier. */
function validateMetricIdentifier(id: MetricIdentifier | undefined, path: FieldPath): FieldError[] {
  const name = str(id?.name);
  if (name.length === 0) return [fieldError.required(path.child('name'), 'must specify a metric name')];
  return nameIsPathSegment(name, false).map((msg) => fieldError.invalid(path.child('name'), name, msg));
}

const has = (v: unknown) => v !== undefined && v !== null;

/** The source checks, by the field that holds the source. */
const sourceChecks: Record<string, (src: Record<string, unknown>, path: FieldPath) => FieldError[]> = {
  object: (src, path) => {
    const target = obj<MetricTarget>(src.target);
    const errs = [...validateCrossVersionObjectReference(obj(src.describedObject), path.child('describedObject')), ...validateMetricIdentifier(obj(src.metric), path.child('metric')), ...validateMetricTarget(target, path.child('target'))];
    if (!has(target?.value) && !has(target?.averageValue)) errs.push(fieldError.required(path.child('target', 'averageValue'), 'must set either a target value or averageValue'));
    return errs;
  },
  external: (src, path) => {
    const target = obj<MetricTarget>(src.target);
    const errs = [...validateMetricIdentifier(obj(src.metric), path.child('metric')), ...validateMetricTarget(target, path.child('target'))];
    if (!has(target?.value) && !has(target?.averageValue)) errs.push(fieldError.required(path.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
    if (has(target?.value) && has(target?.averageValue)) errs.push(fieldError.forbidden(path.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
    return errs;
  },
  pods: (src, path) => {
    const target = obj<MetricTarget>(src.target);
    const errs = [...validateMetricIdentifier(obj(src.metric), path.child('metric')), ...validateMetricTarget(target, path.child('target'))];
    if (!has(target?.averageValue)) errs.push(fieldError.required(path.child('target', 'averageValue'), 'must specify a positive target averageValue'));
    return errs;
  },
  resource: (src, path) => {
    const errs: FieldError[] = [];
    if (str(src.name).length === 0) errs.push(fieldError.required(path.child('name'), 'must specify a resource name'));
    return [...errs, ...utilizationOrValue(obj(src.target), path.child('target'))];
  },
  containerResource: (src, path) => {
    const errs: FieldError[] = [];
    const name = str(src.name);
    if (name.length === 0) errs.push(fieldError.required(path.child('name'), 'must specify a resource name'));
    else if (!isStandardContainerResourceName(name)) errs.push(fieldError.invalid(path.child('name'), name, 'must be a standard resource for containers'));
    const container = str(src.container);
    if (container.length === 0) errs.push(fieldError.required(path.child('container'), 'must specify a container'));
    else for (const msg of isDNS1123Label(container)) errs.push(fieldError.invalid(path.child('container'), container, msg));
    return [...errs, ...utilizationOrValue(obj(src.target), path.child('target'))];
  },
};

/** What validateResourceSource and validateContainerResourceSource ask of the target. */
function utilizationOrValue(target: MetricTarget | undefined, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(target, path);
  if (!has(target?.averageUtilization) && !has(target?.averageValue)) errs.push(fieldError.required(path.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (has(target?.averageUtilization) && has(target?.averageValue)) errs.push(fieldError.forbidden(path.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  return errs;
}

/** The field each metric type is read from. */
const fieldOfType: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const sourceOrder = ['object', 'external', 'pods', 'resource', 'containerResource'];

/** validateMetricSpec. */
function validateMetricSpec(spec: MetricSpec | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const s = (obj<Record<string, unknown>>(spec) ?? {}) as Record<string, unknown>;
  const type = str(s.type);
  if (type.length === 0) errs.push(fieldError.required(path.child('type'), 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errs.push(fieldError.notSupported(path.child('type'), type, metricSourceTypes));
  const present: string[] = [];
  for (const f of sourceOrder) {
    const src = obj<Record<string, unknown>>(s[f]);
    if (!src) continue;
    present.push(f);
    if (present.length === 1) errs.push(...sourceChecks[f]!(src, path.child(f)));
  }
  const expected = fieldOfType[type];
  if (expected === undefined) errs.push(fieldError.notSupported(path.child('type'), type, metricSourceTypes));
  else if (!present.includes(expected)) errs.push(fieldError.required(path.child(expected), 'must populate information for the given metric source'));
  if (present.length !== 1) {
    for (const f of present) if (f !== expected) errs.push(fieldError.forbidden(path.child(f), 'must populate the given metric source only'));
  }
  return errs;
}

/** validateScalingRules. */
function validateScalingRules(rules: HPAScalingRules | undefined, path: FieldPath): FieldError[] {
  const r = obj<HPAScalingRules>(rules);
  if (!r) return [];
  const errs: FieldError[] = [];
  const window = r.stabilizationWindowSeconds;
  if (isInt(window) && window < 0) errs.push(fieldError.invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (isInt(window) && window > maxStabilizationWindowSeconds) errs.push(fieldError.invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  if (has(r.selectPolicy) && !selectPolicies.includes(str(r.selectPolicy))) errs.push(fieldError.notSupported(path.child('selectPolicy'), r.selectPolicy, selectPolicies));
  const policies = Array.isArray(r.policies) ? r.policies : [];
  if (policies.length === 0) errs.push(fieldError.required(path.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const at = path.child('policies').index(i);
    const type = str(p?.type);
    if (!policyTypes.includes(type)) errs.push(fieldError.notSupported(at.child('type'), type, policyTypes));
    if (num(p?.value) <= 0) errs.push(fieldError.invalid(at.child('value'), num(p?.value), 'must be greater than zero'));
    const period = num(p?.periodSeconds);
    if (period <= 0) errs.push(fieldError.invalid(at.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errs.push(fieldError.invalid(at.child('periodSeconds'), period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec. */
export function validateHorizontalPodAutoscalerSpec(spec: HorizontalPodAutoscaler['spec'], minReplicasLowerBound = 1, path = FieldPath.root('spec')): FieldError[] {
  const s = obj<NonNullable<HorizontalPodAutoscaler['spec']>>(spec);
  const errs: FieldError[] = [];
  const min = s?.minReplicas;
  const max = num(s?.maxReplicas);
  if (isInt(min) && min < minReplicasLowerBound) errs.push(fieldError.invalid(path.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (max < 1) errs.push(fieldError.invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (isInt(min) && max < min) errs.push(fieldError.invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(obj(s?.scaleTargetRef), path.child('scaleTargetRef')));
  const metrics = Array.isArray(s?.metrics) ? s.metrics : [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, path.child('metrics').index(i))));
  if (min === 0 && !metrics.some((m) => m?.type === 'Object' || m?.type === 'External')) {
    errs.push(fieldError.forbidden(path.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  const behavior = obj<NonNullable<NonNullable<HorizontalPodAutoscaler['spec']>['behavior']>>(s?.behavior);
  if (behavior) {
    errs.push(...validateScalingRules(behavior.scaleUp, path.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(behavior.scaleDown, path.child('behavior', 'scaleDown')));
  }
  return errs;
}

const metaOptions = { namespaced: true, nameFn: nameIsDNSSubdomain };

/** ValidateHorizontalPodAutoscaler: the create path. */
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): FieldError[] {
  return [...validateObjectMeta(hpa?.metadata, metaOptions), ...validateHorizontalPodAutoscalerSpec(hpa?.spec)];
}

/** ValidateHorizontalPodAutoscalerUpdate: a stored minReplicas of 0 may stay. */
export function validateHorizontalPodAutoscalerUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  const bound = old?.spec?.minReplicas === 0 ? 0 : 1;
  return [...validateObjectMeta(hpa?.metadata, metaOptions), ...validateObjectMetaUpdate(hpa?.metadata, old?.metadata), ...validateHorizontalPodAutoscalerSpec(hpa?.spec, bound)];
}

/** ValidateHorizontalPodAutoscalerStatusUpdate: no negative replica count. */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  const errs = [...validateObjectMeta(hpa?.metadata, metaOptions), ...validateObjectMetaUpdate(hpa?.metadata, old?.metadata)];
  for (const f of ['currentReplicas', 'desiredReplicas'] as const) {
    const v = hpa?.status?.[f];
    if (isInt(v) && v < 0) errs.push(fieldError.invalid(FieldPath.root('status').child(f), v, isNegativeErrorMsg));
  }
  return errs;
}
