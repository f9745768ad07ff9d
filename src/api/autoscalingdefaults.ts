// HorizontalPodAutoscaler defaults (pkg/apis/autoscaling/v2 defaults.go at 1.32) and the
// conversion between autoscaling/v1 and the stored autoscaling/v2 (pkg/apis/autoscaling/v1
// conversion.go): v1 carries one CPU utilization target; everything else a v2 object has rides in
// upstream's annotations, so a v1 read-modify-write keeps it. One deviation: upstream writes the
// annotations' metrics in v1's own (v2beta1-shaped) metric types; Bulkhead writes v2's. Pure.

import type {
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerV1,
  HPAScalingRules,
  MetricSpec,
  MetricStatus,
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerBehavior,
} from './autoscalingtypes.js';

/** autoscaling.DefaultCPUUtilization: the target when no metric is given. */
export const defaultCPUUtilization = 80;

export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
export const behaviorSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';

/** The scale-up rules a behavior without them gets: the larger of 4 pods or 100% per 15 s, no window. */
export function defaultScaleUpRules(): HPAScalingRules {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** The scale-down rules: 100% per 15 s; the window stays unset (the controller's 300 s applies). */
export function defaultScaleDownRules(): HPAScalingRules {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** copyHPAScalingRules: the set fields of `from` over the defaults. */
function withDefaults(from: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  if (!from || typeof from !== 'object') return defaults;
  const out = { ...defaults };
  if (from.selectPolicy !== undefined && from.selectPolicy !== null) out.selectPolicy = from.selectPolicy;
  if (from.stabilizationWindowSeconds !== undefined && from.stabilizationWindowSeconds !== null) out.stabilizationWindowSeconds = from.stabilizationWindowSeconds;
  if (from.policies !== undefined && from.policies !== null) out.policies = from.policies;
  return out;
}

/** The default metric: 80% average CPU utilization. */
export function defaultCPUMetric(): MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } } };
}

/** SetDefaults_HorizontalPodAutoscaler (v2): minReplicas 1, the CPU metric, a behavior's rules filled. In place. */
export function defaultHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): HorizontalPodAutoscaler {
  if (!hpa.spec || typeof hpa.spec !== 'object') hpa.spec = {} as HorizontalPodAutoscaler['spec'];
  const spec = hpa.spec!;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) spec.metrics = [defaultCPUMetric()];
  if (spec.behavior && typeof spec.behavior === 'object') {
    spec.behavior = { scaleUp: withDefaults(spec.behavior.scaleUp, defaultScaleUpRules()), scaleDown: withDefaults(spec.behavior.scaleDown, defaultScaleDownRules()) };
  }
  return hpa;
}

const isCPUUtilization = (m: MetricSpec) => m?.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization' && typeof m.resource.target.averageUtilization === 'number';

/** An annotation's JSON; what does not parse (or is not of the shape expected) is left out. */
function parseAnnotation<T>(text: string | undefined, want: 'list' | 'object'): T | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isObject = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (want === 'list') return Array.isArray(v) ? (v.filter(isObject) as T) : undefined;
  return isObject(v) ? (v as T) : undefined;
}

/** Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler: the v1 view of a stored object. */
export function hpaV2ToV1(hpa: HorizontalPodAutoscaler): HorizontalPodAutoscalerV1 {
  const spec = hpa.spec;
  const status = hpa.status;
  const metrics = Array.isArray(spec?.metrics) ? spec.metrics : [];
  const current = Array.isArray(status?.currentMetrics) ? status.currentMetrics : [];
  const conditions = Array.isArray(status?.conditions) ? status.conditions : [];
  const cpu = metrics.find(isCPUUtilization);
  const others = metrics.filter((m) => !isCPUUtilization(m));
  const annotations: Record<string, string> = { ...(hpa.metadata?.annotations ?? {}) };
  if (others.length) annotations[metricSpecsAnnotation] = JSON.stringify(others);
  if (current.length) annotations[metricStatusesAnnotation] = JSON.stringify(current);
  if (spec?.behavior) annotations[behaviorSpecsAnnotation] = JSON.stringify(spec.behavior);
  if (conditions.length) annotations[conditionsAnnotation] = JSON.stringify(conditions);
  const metadata = { ...(hpa.metadata ?? {}) };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  const cpuNow = current.find((m) => m?.type === 'Resource' && m.resource?.name === 'cpu' && typeof m.resource.current?.averageUtilization === 'number');
  const out: HorizontalPodAutoscalerV1 = { ...hpa, apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata } as HorizontalPodAutoscalerV1;
  if (spec) {
    out.spec = { scaleTargetRef: spec.scaleTargetRef, ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}), maxReplicas: spec.maxReplicas };
    if (cpu) out.spec.targetCPUUtilizationPercentage = cpu.resource!.target.averageUtilization!;
  }
  if (status) {
    out.status = {
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
      ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      ...(cpuNow ? { currentCPUUtilizationPercentage: cpuNow.resource!.current.averageUtilization! } : {}),
    };
  }
  return out;
}

/** Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: the annotations come back as fields. */
export function hpaV1ToV2(hpa: HorizontalPodAutoscalerV1): HorizontalPodAutoscaler {
  const annotations = { ...(hpa.metadata?.annotations ?? {}) };
  const others = parseAnnotation<MetricSpec[]>(annotations[metricSpecsAnnotation], 'list');
  const current = parseAnnotation<MetricStatus[]>(annotations[metricStatusesAnnotation], 'list');
  const behavior = parseAnnotation<HorizontalPodAutoscalerBehavior>(annotations[behaviorSpecsAnnotation], 'object');
  const conditions = parseAnnotation<HorizontalPodAutoscalerCondition[]>(annotations[conditionsAnnotation], 'list');
  for (const k of [metricSpecsAnnotation, metricStatusesAnnotation, behaviorSpecsAnnotation, conditionsAnnotation]) delete annotations[k];
  const metadata = { ...(hpa.metadata ?? {}) };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  const out: HorizontalPodAutoscaler = { ...hpa, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata } as HorizontalPodAutoscaler;
  const spec = hpa.spec;
  if (spec && typeof spec === 'object') {
    const metrics: MetricSpec[] = [];
    if (typeof spec.targetCPUUtilizationPercentage === 'number') {
      metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
    }
    if (Array.isArray(others)) metrics.push(...others);
    // autoscaling/v1 formerly had an implicit default applied in the controller; conversion makes it explicit.
    if (metrics.length === 0) metrics.push(defaultCPUMetric());
    out.spec = { scaleTargetRef: spec.scaleTargetRef, ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}), maxReplicas: spec.maxReplicas, metrics };
    if (behavior) out.spec.behavior = behavior;
  }
  const status = hpa.status;
  if (status && typeof status === 'object') {
    out.status = {
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
      ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
      ...(status.currentReplicas ? { currentReplicas: status.currentReplicas } : {}),
      desiredReplicas: status.desiredReplicas ?? 0,
    };
    if (Array.isArray(current)) out.status.currentMetrics = current;
    else if (typeof status.currentCPUUtilizationPercentage === 'number') {
      out.status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
    }
    if (Array.isArray(conditions)) out.status.conditions = conditions;
  }
  return out;
}
