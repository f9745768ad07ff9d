// One reconciliation of a HorizontalPodAutoscaler (pkg/controller/podautoscaler/horizontal.go
// reconcileAutoscaler, computeReplicasForMetrics, computeReplicasForMetric,
// computeStatusForResourceMetricGeneric, validateAndParseSelector, setCondition, setStatus, at
// 1.32), given the target's scale, the namespace's pods and the metrics reader: the conditions
// (AbleToScale, ScalingActive, ScalingLimited), status.currentMetrics and the events with
// upstream's reasons and words, and the replica count to set. Resource and ContainerResource
// metrics are computed (hpareplicas.ts); Pods and Object metrics find no custom metrics API and
// External ones no external metrics API, and say so as upstream's clients do. The controller
// (src/controllers/horizontalpodautoscaler.ts) does the reads and writes. Pure.

import { metaTime } from '../api/metatime.js';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from '../api/selectors.js';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus, LabelSelector, MetricSpec, MetricStatus, Pod } from '../api/types.js';
import { quantity } from '../api/resourcelist.js';
import { Quantity } from '../api/quantity.js';
import { normalizeDesiredReplicas, normalizeWithBehaviors, recordInitialRecommendation, storeScaleEvent, type AutoscalerMemory } from './hpabehavior.js';
import { defaultCalculatorOptions, rawResourceReplicas, resourceReplicas, type CalculatorOptions, type PodMetricsReading } from './hpareplicas.js';
import { deepCopyJSON } from '../api/deepcopy.js';

export interface HPAEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** The target's autoscaling/v1 Scale as the controller read it. */
export interface ScaleView {
  specReplicas: number;
  statusReplicas: number;
  selector: string;
}

export interface ReconcileOptions extends CalculatorOptions {
  downscaleStabilizationMs: number;
}

/**
 * hpaSelectors: the last selector each autoscaler of the controller used, by namespace/name
 * (undefined, selecting nothing, until its first reconciliation parses one). Kept by the caller
 * across reconciliations; an autoscaler's entry exists from its add to its delete.
 */
export type AutoscalerSelectors = Map<string, LabelRequirement[] | undefined>;

/** hpasControllingPodsUnderSelector: the autoscalers whose selectors pick any of the pods, sorted. */
export function autoscalersSelecting(pods: readonly Pod[], selectors: AutoscalerSelectors): string[] {
  const out = new Set<string>();
  for (const [key, reqs] of selectors) {
    if (!reqs) continue;
    const ns = key.slice(0, key.indexOf('/'));
    if (pods.some((p) => (p.metadata.namespace ?? '') === ns && matchesLabels(reqs, p.metadata.labels ?? {}))) out.add(key);
  }
  return [...out].sort();
}

export const defaultReconcileOptions: ReconcileOptions = { ...defaultCalculatorOptions, downscaleStabilizationMs: 300_000 };

/** setConditionInList: the condition set in place; its transition time moves only with its status. */
export function setCondition(status: HorizontalPodAutoscalerStatus, type: string, value: string, reason: string, message: string, nowMs: number): void {
  const list = (status.conditions ??= []);
  let c = list.find((x) => x.type === type);
  if (!c) {
    c = { type, status: '' } as HorizontalPodAutoscalerCondition;
    list.push(c);
  }
  if (c.status !== value) c.lastTransitionTime = metaTime(nowMs);
  c.status = value;
  c.reason = reason;
  c.message = message;
}

/** The working state of one reconciliation. */
export interface Reconciliation {
  hpa: HorizontalPodAutoscaler;
  events: HPAEvent[];
  /** The size to write to the target's scale, and why (the SuccessfulRescale reason). */
  rescale?: { replicas: number; reason: string };
  currentReplicas: number;
  statuses: MetricStatus[];
  /** The error reconcileAutoscaler returns (logged; the key is synced again next period). */
  error?: string;
}

const warn = (r: Reconciliation, reason: string, message: string) => r.events.push({ type: 'Warning', reason, message });
const unableCondition = (r: Reconciliation, reason: string, err: string) => {
  warn(r, reason, err);
  return { type: 'ScalingActive', status: 'False', reason, message: `the HPA was unable to compute the replica count: ${err}` };
};

/** The target's scale could not be read: AbleToScale False, FailedGetScale. */
export function scaleUnavailable(hpa: HorizontalPodAutoscaler, err: string, nowMs: number): Reconciliation {
  const r: Reconciliation = { hpa: deepCopyJSON(hpa), events: [], currentReplicas: 0, statuses: [] };
  r.hpa.status ??= { desiredReplicas: 0 };
  warn(r, 'FailedGetScale', err);
  setCondition(r.hpa.status, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${err}`, nowMs);
  return r;
}

/** validateAndParseSelector's parse (its check for pods several autoscalers select is in replicasForMetrics). */
function parseSelector(r: Reconciliation, selector: string, nowMs: number): LabelRequirement[] | undefined {
  if (selector === '') {
    warn(r, 'SelectorRequired', 'selector is required');
    setCondition(r.hpa.status!, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", nowMs);
    r.error = 'selector is required';
    return undefined;
  }
  try {
    return parseLabelSelector(selector);
  } catch (e) {
    const msg = `couldn't convert selector into a corresponding internal selector object: ${(e as Error).message}`;
    warn(r, 'InvalidSelector', msg);
    setCondition(r.hpa.status!, 'ScalingActive', 'False', 'InvalidSelector', msg, nowMs);
    r.error = msg;
    return undefined;
  }
}

/** %+v of a *metav1.LabelSelector, as the external metric error prints it. */
function goSelector(sel: LabelSelector | undefined): string {
  if (!sel) return 'nil';
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}: ${sel.matchLabels![k]},`).join('');
  const exprs = (sel.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],}`).join(',');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

const noCustomMetricsAPI = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';

interface Proposal {
  replicas: number;
  metricName: string;
  timestampMs: number;
  status: MetricStatus;
}

/** computeReplicasForMetric: one metric's proposal, or its error and the ScalingActive condition it sets. */
function proposalFor(r: Reconciliation, spec: MetricSpec, specReplicas: number, namespace: string, pods: readonly Pod[], metricsFor: (pods: readonly Pod[]) => PodMetricsReading[], nowMs: number, opts: ReconcileOptions): Proposal | { error: string; condition: ReturnType<typeof unableCondition> } {
  const resourceLike = spec.type === 'Resource' ? spec.resource : spec.type === 'ContainerResource' ? spec.containerResource : undefined;
  if (resourceLike) {
    const name = resourceLike.name;
    const container = spec.type === 'ContainerResource' ? spec.containerResource!.container : '';
    const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
    const outer = spec.type === 'Resource' ? `failed to get ${name} resource metric value` : `failed to get ${name} container resource metric value`;
    const target = resourceLike.target;
    let inner: string;
    try {
      if (target.averageValue !== undefined) {
        const got = rawResourceReplicas(specReplicas, quantity(target.averageValue).milliValueNumber(), name, pods, metricsFor(pods), nowMs, opts, container);
        const current = { averageValue: Quantity.fromMilli(got.rawAverage, 'DecimalSI').toString() };
        const status: MetricStatus = spec.type === 'Resource' ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, current, container } };
        return { replicas: got.replicas, metricName: `${name} resource`, timestampMs: got.timestampMs, status };
      }
      if (target.averageUtilization === undefined) throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
      const got = resourceReplicas(specReplicas, target.averageUtilization, name, pods, metricsFor(pods), nowMs, opts, container);
      const current = { averageUtilization: got.utilization, averageValue: Quantity.fromMilli(got.rawAverage, 'DecimalSI').toString() };
      const status: MetricStatus = spec.type === 'Resource' ? { type: 'Resource', resource: { name, current } } : { type: 'ContainerResource', containerResource: { name, current, container } };
      const metricName = spec.type === 'Resource' ? `${name} resource utilization (percentage of request)` : `${name} container resource utilization (percentage of request)`;
      return { replicas: got.replicas, metricName, timestampMs: got.timestampMs, status };
    } catch (e) {
      const msg = (e as Error).message;
      inner = msg.startsWith('invalid resource metric source') ? msg : `failed to get ${name} ${target.averageValue !== undefined ? 'usage' : 'utilization'}: ${msg}`;
    }
    return { error: `${outer}: ${inner}`, condition: unableCondition(r, reason, inner) };
  }
  switch (spec.type) {
    case 'Pods': {
      const inner = `unable to get metric ${spec.pods?.metric?.name ?? ''}: ${noCustomMetricsAPI}`;
      return { error: `failed to get pods metric value: ${inner}`, condition: unableCondition(r, 'FailedGetPodsMetric', inner) };
    }
    case 'Object': {
      // Upstream's format string takes its arguments out of order; this is what it prints.
      const o = spec.object;
      const inner = `unable to get metric ${o?.metric?.name ?? ''}: ${o?.describedObject?.kind ?? ''} on ${namespace} ${o?.describedObject?.name ?? ''}/${noCustomMetricsAPI}`;
      return { error: `failed to get object metric value: ${inner}`, condition: unableCondition(r, 'FailedGetObjectMetric', inner) };
    }
    case 'External': {
      const x = spec.external;
      const inner = `unable to get external metric ${namespace}/${x?.metric?.name ?? ''}/${goSelector(x?.metric?.selector)}: unable to fetch metrics from external metrics API: the server could not find the requested resource`;
      return { error: `failed to get external metric value: ${inner}`, condition: unableCondition(r, 'FailedGetExternalMetric', inner) };
    }
    default: {
      const err = `unknown metric source type "${spec.type}"`;
      return { error: err, condition: unableCondition(r, 'InvalidMetricSourceType', err) };
    }
  }
}

/** computeReplicasForMetrics: the largest proposal; -1 when every metric failed, or some failed and the rest would scale down. */
function replicasForMetrics(r: Reconciliation, scale: ScaleView, allPods: readonly Pod[], metricsFor: (pods: readonly Pod[]) => PodMetricsReading[], nowMs: number, opts: ReconcileOptions, selectors?: AutoscalerSelectors): { replicas: number; metric: string; error?: string } {
  const hpa = r.hpa;
  const reqs = parseSelector(r, scale.selector, nowMs);
  if (!reqs) return { replicas: -1, metric: '', error: r.error };
  const pods = allPods.filter((p) => matchesLabels(reqs, p.metadata.labels ?? {}));
  if (selectors) {
    const key = `${hpa.metadata?.namespace ?? ''}/${hpa.metadata?.name ?? ''}`;
    if (selectors.has(key)) selectors.set(key, reqs);
    const selecting = autoscalersSelecting(pods, selectors);
    if (selecting.length > 1) {
      const msg = `pods by selector ${scale.selector} are controlled by multiple HPAs: [${selecting.join(' ')}]`;
      warn(r, 'AmbiguousSelector', msg);
      setCondition(hpa.status!, 'ScalingActive', 'False', 'AmbiguousSelector', msg, nowMs);
      r.error = msg;
      return { replicas: -1, metric: '', error: msg };
    }
  }
  const specs = hpa.spec?.metrics ?? [];
  // A metric that fails leaves its entry empty, as upstream's make([]MetricStatus, n) does.
  r.statuses = specs.map(() => ({ type: '' }));
  let replicas = 0;
  let metric = '';
  let invalid = 0;
  let first: { error: string; condition: ReturnType<typeof unableCondition> } | undefined;
  specs.forEach((spec, i) => {
    const p = proposalFor(r, spec, scale.specReplicas, hpa.metadata?.namespace ?? '', pods, metricsFor, nowMs, opts);
    if ('error' in p) {
      if (invalid === 0) first = p;
      invalid++;
      return;
    }
    r.statuses[i] = p.status;
    if (replicas === 0 || p.replicas > replicas) {
      replicas = p.replicas;
      metric = p.metricName;
    }
  });
  const error = first ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${first.error}` : undefined;
  if (first && (invalid >= specs.length || replicas < scale.specReplicas)) {
    setCondition(hpa.status!, first.condition.type, first.condition.status, first.condition.reason, first.condition.message, nowMs);
    return { replicas: -1, metric: '', error };
  }
  setCondition(hpa.status!, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`, nowMs);
  return { replicas, metric, error };
}

/** setStatus: the counts and metrics; lastScaleTime when this reconciliation rescaled. */
export function setStatus(hpa: HorizontalPodAutoscaler, current: number, desired: number, statuses: MetricStatus[], rescaled: boolean, nowMs: number): void {
  const prev = hpa.status ?? { desiredReplicas: 0 };
  const next: HorizontalPodAutoscalerStatus = { ...(current ? { currentReplicas: current } : {}), desiredReplicas: desired };
  if (rescaled) next.lastScaleTime = metaTime(nowMs);
  else if (prev.lastScaleTime) next.lastScaleTime = prev.lastScaleTime;
  if (statuses.length) next.currentMetrics = statuses;
  if (prev.conditions) next.conditions = prev.conditions;
  hpa.status = next;
}

/**
 * reconcileAutoscaler up to the scale write: the target's size decides first (a target at zero
 * is not autoscaled; one above maxReplicas or below minReplicas is brought within them), else
 * the metrics' proposal normalized by the behavior (or the default rules). `memory` is changed.
 */
export function planReconcile(
  hpa: HorizontalPodAutoscaler,
  scale: ScaleView,
  pods: readonly Pod[],
  metricsFor: (pods: readonly Pod[]) => PodMetricsReading[],
  memory: AutoscalerMemory,
  nowMs: number,
  opts: ReconcileOptions = defaultReconcileOptions,
  selectors?: AutoscalerSelectors,
): Reconciliation {
  const r: Reconciliation = { hpa: deepCopyJSON(hpa), events: [], currentReplicas: scale.specReplicas, statuses: [] };
  const status = (r.hpa.status ??= { desiredReplicas: 0 });
  setCondition(status, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", nowMs);
  const current = scale.specReplicas;
  recordInitialRecommendation(memory, current, nowMs);
  const min = r.hpa.spec?.minReplicas ?? 1;
  const max = r.hpa.spec?.maxReplicas ?? 0;
  let desired = 0;
  let reason = '';
  if (current === 0 && min !== 0) {
    setCondition(status, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', nowMs);
    setStatus(r.hpa, current, 0, r.statuses, false, nowMs);
    return r;
  } else if (current > max) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = max;
  } else if (current < min) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = min;
  } else {
    const m = replicasForMetrics(r, scale, pods, metricsFor, nowMs, opts, selectors);
    if (m.error !== undefined && m.replicas === -1) {
      // setCurrentReplicasAndMetricsInStatus: the desired count stays what it was.
      setStatus(r.hpa, current, status.desiredReplicas ?? 0, r.statuses, false, nowMs);
      const err = m.error;
      warn(r, 'FailedComputeMetricsReplicas', err);
      r.error = `failed to compute desired number of replicas based on listed metrics for ${r.hpa.spec?.scaleTargetRef?.kind}/${r.hpa.metadata?.namespace}/${r.hpa.spec?.scaleTargetRef?.name}: ${err}`;
      return r;
    }
    if (m.error !== undefined) r.error = m.error;
    let metric = '';
    if (m.replicas > desired) {
      desired = m.replicas;
      metric = m.metric;
    }
    if (desired > current) reason = `${metric} above target`;
    if (desired < current) reason = 'All metrics below target';
    const n = r.hpa.spec?.behavior
      ? normalizeWithBehaviors(memory, r.hpa.spec.behavior, current, desired, min, max, nowMs, opts.downscaleStabilizationMs)
      : normalizeDesiredReplicas(memory, current, desired, min, max, nowMs, opts.downscaleStabilizationMs);
    for (const c of n.conditions) setCondition(status, c.type, c.status, c.reason, c.message, nowMs);
    desired = n.replicas;
  }
  if (desired !== current) r.rescale = { replicas: desired, reason };
  else setStatus(r.hpa, current, current, r.statuses, false, nowMs);
  return r;
}

/** After the scale write: SucceededRescale and SuccessfulRescale, or FailedUpdateScale and FailedRescale. */
export function finishRescale(r: Reconciliation, memory: AutoscalerMemory, writeError: string | undefined, nowMs: number): void {
  const { replicas, reason } = r.rescale!;
  const status = r.hpa.status!;
  if (writeError !== undefined) {
    warn(r, 'FailedRescale', `New size: ${replicas}; reason: ${reason}; error: ${writeError}`);
    setCondition(status, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${writeError}`, nowMs);
    setStatus(r.hpa, r.currentReplicas, status.desiredReplicas ?? 0, r.statuses, false, nowMs);
    r.error = `failed to rescale ${r.hpa.spec?.scaleTargetRef?.kind}/${r.hpa.metadata?.namespace}/${r.hpa.spec?.scaleTargetRef?.name}: ${writeError}`;
    return;
  }
  setCondition(status, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${replicas}`, nowMs);
  r.events.push({ type: 'Normal', reason: 'SuccessfulRescale', message: `New size: ${replicas}; reason: ${reason}` });
  storeScaleEvent(memory, r.hpa.spec?.behavior, r.currentReplicas, replicas, nowMs);
  setStatus(r.hpa, r.currentReplicas, replicas, r.statuses, true, nowMs);
}
