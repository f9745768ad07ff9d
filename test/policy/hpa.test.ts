// One reconciliation of a HorizontalPodAutoscaler (src/policy/hpa.ts), one row per rule of
// horizontal.go's reconcileAutoscaler at 1.32: the target's size first (zero disables, above max
// or below min is corrected), then the metrics: conditions with upstream's reasons and words,
// currentMetrics, the events, the rescale reason, and what Pods, Object and External metrics
// say without their APIs. Fixed clock; the metrics reader is a table.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HorizontalPodAutoscaler, MetricSpec, Pod } from '../../src/api/types.js';
import { emptyMemory } from '../../src/policy/hpabehavior.js';
import { finishRescale, planReconcile, scaleUnavailable, type ScaleView } from '../../src/policy/hpa.js';
import type { PodMetricsReading } from '../../src/policy/hpareplicas.js';

const now = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

const cpu50: MetricSpec = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };

function hpa(o: { metrics?: MetricSpec[]; min?: number; max?: number } = {}): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: o.min ?? 1, maxReplicas: o.max ?? 10, metrics: o.metrics ?? [cpu50] },
    status: { desiredReplicas: 0 },
  };
}

function pod(name: string, app = 'web'): Pod {
  return {
    metadata: { name, namespace: 'default', labels: { app } },
    spec: { containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m' } } }] },
    status: { phase: 'Running', startTime: ago(3600), conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(3500) }] },
  } as unknown as Pod;
}

const usage = (table: Record<string, string>) => (pods: readonly Pod[]): PodMetricsReading[] =>
  pods.filter((p) => p.metadata.name! in table).map((p) => ({ namespace: 'default', name: p.metadata.name!, containers: [{ name: 'app', usage: { cpu: table[p.metadata.name!]!, memory: '1Mi' } }], time: { timestamp: now - 10_000, windowMs: 15_000 } }));

const scale = (replicas: number, selector = 'app=web'): ScaleView => ({ specReplicas: replicas, statusReplicas: replicas, selector });
const cond = (h: HorizontalPodAutoscaler, type: string) => {
  const c = h.status?.conditions?.find((x) => x.type === type);
  return c ? [c.status, c.reason, c.message] : undefined;
};

describe('planReconcile', () => {
  test('a target at zero replicas is not autoscaled: ScalingActive False, ScalingDisabled', () => {
    const r = planReconcile(hpa(), scale(0), [], usage({}), emptyMemory(), now);
    assert.equal(r.rescale, undefined);
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero']);
    assert.deepEqual(cond(r.hpa, 'AbleToScale'), ['True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale"]);
  });
  test('above maxReplicas: brought down to it, whatever the metrics', () => {
    const r = planReconcile(hpa({ max: 3 }), scale(5), [], usage({}), emptyMemory(), now);
    assert.deepEqual(r.rescale, { replicas: 3, reason: 'Current number of replicas above Spec.MaxReplicas' });
  });
  test('below minReplicas: brought up to it', () => {
    const r = planReconcile(hpa({ min: 2 }), scale(1), [], usage({}), emptyMemory(), now);
    assert.deepEqual(r.rescale, { replicas: 2, reason: 'Current number of replicas below Spec.MinReplicas' });
  });
  test('above target: the rescale names the metric, ScalingActive True ValidMetricFound, currentMetrics', () => {
    const r = planReconcile(hpa(), scale(2), [pod('a'), pod('b'), pod('other', 'db')], usage({ a: '90m', b: '90m', other: '900m' }), emptyMemory(), now);
    assert.deepEqual(r.rescale, { replicas: 4, reason: 'cpu resource utilization (percentage of request) above target' });
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)']);
    assert.deepEqual(r.statuses, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90, averageValue: '90m' } } }]);
    const mem = emptyMemory();
    finishRescale(r, mem, undefined, now);
    assert.deepEqual(r.events, [{ type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 4; reason: cpu resource utilization (percentage of request) above target' }]);
    assert.deepEqual(cond(r.hpa, 'AbleToScale'), ['True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 4']);
    assert.deepEqual({ ...r.hpa.status, conditions: undefined }, { currentReplicas: 2, desiredReplicas: 4, lastScaleTime: ago(0), currentMetrics: r.statuses, conditions: undefined });
  });
  test('below target: held by the first recommendation (the size found) for the 300 s window', () => {
    const r = planReconcile(hpa(), scale(4), [pod('a'), pod('b'), pod('c'), pod('d')], usage({ a: '10m', b: '10m', c: '10m', d: '10m' }), emptyMemory(), now);
    assert.equal(r.rescale, undefined);
    assert.deepEqual(cond(r.hpa, 'AbleToScale')?.slice(0, 2), ['True', 'ScaleDownStabilized']);
  });
  test('below target once the window has passed: All metrics below target', () => {
    const mem = { ...emptyMemory(), recommendations: [{ replicas: 4, atMs: now - 301_000 }] };
    const r = planReconcile(hpa(), scale(4), [pod('a'), pod('b'), pod('c'), pod('d')], usage({ a: '10m', b: '10m', c: '10m', d: '10m' }), mem, now);
    assert.deepEqual(r.rescale, { replicas: 1, reason: 'All metrics below target' });
  });
  test('a failed scale write: FailedRescale and AbleToScale False FailedUpdateScale', () => {
    const r = planReconcile(hpa(), scale(2), [pod('a'), pod('b')], usage({ a: '90m', b: '90m' }), emptyMemory(), now);
    finishRescale(r, emptyMemory(), 'the object has been modified', now);
    assert.deepEqual(r.events, [{ type: 'Warning', reason: 'FailedRescale', message: 'New size: 4; reason: cpu resource utilization (percentage of request) above target; error: the object has been modified' }]);
    assert.deepEqual(cond(r.hpa, 'AbleToScale'), ['False', 'FailedUpdateScale', 'the HPA controller was unable to update the target scale: the object has been modified']);
    assert.equal(r.hpa.status?.lastScaleTime, undefined);
  });
  test('within tolerance: no rescale, desiredReplicas the current count', () => {
    const r = planReconcile(hpa(), scale(2), [pod('a'), pod('b')], usage({ a: '52m', b: '52m' }), emptyMemory(), now);
    assert.equal(r.rescale, undefined);
    assert.equal(r.hpa.status?.desiredReplicas, 2);
  });
  test('no metrics: FailedGetResourceMetric, FailedComputeMetricsReplicas, an empty currentMetrics entry', () => {
    const r = planReconcile(hpa(), scale(2), [pod('a')], usage({}), emptyMemory(), now);
    const inner = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    assert.deepEqual(r.events, [
      { type: 'Warning', reason: 'FailedGetResourceMetric', message: inner },
      { type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}` },
    ]);
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${inner}`]);
    assert.deepEqual(r.hpa.status?.currentMetrics, [{ type: '' }]);
    assert.equal(r.rescale, undefined);
  });
  test('a scale without a selector: SelectorRequired, ScalingActive False InvalidSelector', () => {
    const r = planReconcile(hpa(), scale(2, ''), [pod('a')], usage({ a: '10m' }), emptyMemory(), now);
    assert.equal(r.events[0]!.reason, 'SelectorRequired');
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['False', 'InvalidSelector', "the HPA target's scale is missing a selector"]);
  });
  test('a Pods metric: no custom metrics API, FailedGetPodsMetric', () => {
    const r = planReconcile(hpa({ metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] }), scale(2), [pod('a')], usage({}), emptyMemory(), now);
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['False', 'FailedGetPodsMetric', 'the HPA was unable to compute the replica count: unable to get metric qps: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered']);
  });
  test('an Object metric: upstream\'s message, arguments out of order as it prints them', () => {
    const r = planReconcile(hpa({ metrics: [{ type: 'Object', object: { metric: { name: 'hits' }, describedObject: { kind: 'Ingress', name: 'main' }, target: { type: 'Value', value: '10' } } }] }), scale(2), [pod('a')], usage({}), emptyMemory(), now);
    assert.deepEqual(cond(r.hpa, 'ScalingActive')?.slice(0, 2), ['False', 'FailedGetObjectMetric']);
    assert.equal(r.events[0]!.message, 'unable to get metric hits: Ingress on default main/unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered');
  });
  test('an External metric: FailedGetExternalMetric', () => {
    const r = planReconcile(hpa({ metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '10' } } }] }), scale(2), [pod('a')], usage({}), emptyMemory(), now);
    assert.deepEqual(cond(r.hpa, 'ScalingActive')?.slice(0, 2), ['False', 'FailedGetExternalMetric']);
    assert.match(r.events[0]!.message, /^unable to get external metric default\/queue\/nil: /);
  });
  test('one metric failing does not stop a scale-up the others ask for', () => {
    const r = planReconcile(hpa({ metrics: [cpu50, { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] }), scale(2), [pod('a'), pod('b')], usage({ a: '90m', b: '90m' }), emptyMemory(), now);
    assert.equal(r.rescale?.replicas, 4);
    assert.equal(cond(r.hpa, 'ScalingActive')?.[1], 'ValidMetricFound');
    assert.match(r.error ?? '', /^invalid metrics \(1 invalid out of 2\)/);
  });
  test('one metric failing stops a scale-down', () => {
    const r = planReconcile(hpa({ metrics: [cpu50, { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] }), scale(4), [pod('a'), pod('b'), pod('c'), pod('d')], usage({ a: '10m', b: '10m', c: '10m', d: '10m' }), emptyMemory(), now);
    assert.equal(r.rescale, undefined);
    assert.equal(cond(r.hpa, 'ScalingActive')?.[1], 'FailedGetPodsMetric');
  });
  test('the target\'s scale cannot be read: FailedGetScale', () => {
    const r = scaleUnavailable(hpa(), 'deployments.apps "web" not found', now);
    assert.deepEqual(r.events, [{ type: 'Warning', reason: 'FailedGetScale', message: 'deployments.apps "web" not found' }]);
    assert.deepEqual(cond(r.hpa, 'AbleToScale'), ['False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: deployments.apps "web" not found`]);
  });
  test('pods another autoscaler selects too: AmbiguousSelector, nothing scaled', () => {
    const selectors = new Map([['default/web', undefined], ['default/other', [{ key: 'app', op: '=' as const, value: 'web' }]], ['elsewhere/x', [{ key: 'app', op: '=' as const, value: 'web' }]]]);
    const r = planReconcile(hpa(), scale(2), [pod('a'), pod('b')], usage({ a: '90m', b: '90m' }), emptyMemory(), now, undefined, selectors);
    const msg = 'pods by selector app=web are controlled by multiple HPAs: [default/other default/web]';
    assert.deepEqual(cond(r.hpa, 'ScalingActive'), ['False', 'AmbiguousSelector', msg]);
    assert.deepEqual(r.events[0], { type: 'Warning', reason: 'AmbiguousSelector', message: msg });
    assert.equal(r.rescale, undefined);
    assert.deepEqual(selectors.get('default/web'), [{ key: 'app', op: '=', value: 'web' }]);
  });
  test('an autoscaler not yet reconciled selects nothing', () => {
    const selectors = new Map([['default/web', undefined], ['default/other', undefined]]);
    const r = planReconcile(hpa(), scale(2), [pod('a'), pod('b')], usage({ a: '90m', b: '90m' }), emptyMemory(), now, undefined, selectors);
    assert.equal(r.rescale?.replicas, 4);
  });
  test('a condition keeps its transition time while its status holds', () => {
    const first = planReconcile(hpa(), scale(2), [pod('a')], usage({}), emptyMemory(), now - 60_000);
    const again = planReconcile(first.hpa, scale(2), [pod('a')], usage({}), emptyMemory(), now);
    assert.equal(again.hpa.status?.conditions?.find((c) => c.type === 'ScalingActive')?.lastTransitionTime, ago(60));
  });
});
