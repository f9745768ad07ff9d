// HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation at 1.32), one row per rule
// after upstream's validation_test.go cases, with its paths and wording; then the v2 defaults
// and the v1 ⇄ v2 conversion (pkg/apis/autoscaling/v2 defaults.go, v1 conversion.go).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultHorizontalPodAutoscaler, hpaV1ToV2, hpaV2ToV1 } from '../../../src/api/autoscalingdefaults.js';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, MetricSpec } from '../../../src/api/types.js';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (target: Record<string, unknown>): MetricSpec => ({ type: 'Resource', resource: { name: 'cpu', target: target as never } });
const hpa = (spec: Partial<HorizontalPodAutoscalerSpec>, name = 'web'): HorizontalPodAutoscaler => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, namespace: 'default' },
  spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })], ...spec },
});
const rules = (r: Record<string, unknown>) => ({ behavior: { scaleUp: r as never } });

describe('validateHorizontalPodAutoscaler', () => {
  const rows: { name: string; hpa: HorizontalPodAutoscaler; want: Want }[] = [
    { name: 'a valid autoscaler', hpa: hpa({}), want: [] },
    { name: 'the name must be a DNS subdomain', hpa: hpa({}, 'Web'), want: [['FieldValueInvalid', `metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]] },
    { name: 'minReplicas below 1 (HPAScaleToZero off)', hpa: hpa({ minReplicas: 0, metrics: [] }), want: [['FieldValueInvalid', 'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1'], ['FieldValueForbidden', 'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas']] },
    { name: 'maxReplicas below 1', hpa: hpa({ minReplicas: undefined, maxReplicas: 0 }), want: [['FieldValueInvalid', 'spec.maxReplicas: Invalid value: 0: must be greater than 0']] },
    { name: 'maxReplicas below minReplicas', hpa: hpa({ minReplicas: 7 }), want: [['FieldValueInvalid', 'spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`']] },
    { name: 'scaleTargetRef needs a kind and a name', hpa: hpa({ scaleTargetRef: { kind: '', name: '' } }), want: [['FieldValueRequired', 'spec.scaleTargetRef.kind: Required value'], ['FieldValueRequired', 'spec.scaleTargetRef.name: Required value']] },
    { name: 'scaleTargetRef names are path segments', hpa: hpa({ scaleTargetRef: { kind: '..', name: 'a/b' } }), want: [['FieldValueInvalid', `spec.scaleTargetRef.kind: Invalid value: "..": may not be '..'`], ['FieldValueInvalid', `spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`]] },
    // Upstream reports an unknown type twice (the set check and the switch's default).
    { name: 'a metric needs a type', hpa: hpa({ metrics: [{ type: '', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] }), want: [['FieldValueRequired', 'spec.metrics[0].type: Required value: must specify a metric source type'], ...Array.from({ length: 2 }, () => ['FieldValueNotSupported', 'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"'] as Want[number])] },
    { name: 'the source named by the type must be set', hpa: hpa({ metrics: [{ type: 'Pods' }] }), want: [['FieldValueRequired', 'spec.metrics[0].pods: Required value: must populate information for the given metric source']] },
    { name: 'only that source may be set', hpa: hpa({ metrics: [{ ...cpu({ type: 'Utilization', averageUtilization: 50 }), pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] }), want: [['FieldValueForbidden', 'spec.metrics[0].pods: Forbidden: must populate the given metric source only']] },
    { name: 'a resource metric needs a name', hpa: hpa({ metrics: [{ type: 'Resource', resource: { name: '', target: { type: 'Utilization', averageUtilization: 50 } } }] }), want: [['FieldValueRequired', 'spec.metrics[0].resource.name: Required value: must specify a resource name']] },
    { name: 'a resource target needs a utilization or an average value', hpa: hpa({ metrics: [cpu({ type: 'Utilization' })] }), want: [['FieldValueRequired', 'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization']] },
    { name: 'not both', hpa: hpa({ metrics: [cpu({ type: 'Utilization', averageUtilization: 50, averageValue: '100m' })] }), want: [['FieldValueForbidden', 'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization']] },
    { name: 'a target type is one of three', hpa: hpa({ metrics: [cpu({ type: 'Average', averageUtilization: 50 })] }), want: [['FieldValueInvalid', 'spec.metrics[0].resource.target.type: Invalid value: "Average": must be either Utilization, Value, or AverageValue']] },
    { name: 'averageUtilization above 0', hpa: hpa({ metrics: [cpu({ type: 'Utilization', averageUtilization: 0 })] }), want: [['FieldValueInvalid', 'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']] },
    { name: 'averageValue positive', hpa: hpa({ metrics: [cpu({ type: 'AverageValue', averageValue: '0' })] }), want: [['FieldValueInvalid', 'spec.metrics[0].resource.target.averageValue: Invalid value: "0": must be positive']] },
    { name: 'a pods metric needs an average value target', hpa: hpa({ metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value', value: '1' } } }] }), want: [['FieldValueRequired', 'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue']] },
    { name: 'an external metric needs a name', hpa: hpa({ metrics: [{ type: 'External', external: { metric: { name: '' }, target: { type: 'Value', value: '1' } } }] }), want: [['FieldValueRequired', 'spec.metrics[0].external.metric.name: Required value: must specify a metric name']] },
    { name: 'a container resource needs a container', hpa: hpa({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: '', target: { type: 'Utilization', averageUtilization: 50 } } }] }), want: [['FieldValueRequired', 'spec.metrics[0].containerResource.container: Required value: must specify a container']] },
    { name: 'behavior: at least one policy', hpa: hpa(rules({ policies: [] })), want: [['FieldValueRequired', 'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy']] },
    { name: 'behavior: stabilizationWindowSeconds within 0..3600', hpa: hpa(rules({ stabilizationWindowSeconds: 3601, policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] })), want: [['FieldValueInvalid', 'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600']] },
    { name: 'behavior: a negative window', hpa: hpa(rules({ stabilizationWindowSeconds: -1, policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] })), want: [['FieldValueInvalid', 'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero']] },
    { name: 'behavior: selectPolicy Max, Min or Disabled', hpa: hpa(rules({ selectPolicy: 'Most', policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] })), want: [['FieldValueNotSupported', 'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"']] },
    { name: 'behavior: a policy type, a positive value, a period of 1..1800 s', hpa: hpa(rules({ policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }] })), want: [['FieldValueNotSupported', 'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"'], ['FieldValueInvalid', 'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero'], ['FieldValueInvalid', 'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateHorizontalPodAutoscaler(r.hpa), r.want));

  test('an update may keep a stored minReplicas of 0', () => {
    const old = hpa({ minReplicas: 0, metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }] });
    assertErrors(validateHorizontalPodAutoscalerUpdate(structuredClone(old), old), []);
  });
  test('status: no negative replica count', () => {
    const h = { ...hpa({}), status: { desiredReplicas: -1 } };
    assertErrors(validateHorizontalPodAutoscalerStatusUpdate(h, hpa({})), [['FieldValueInvalid', 'status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0']]);
  });
});

describe('autoscaling/v2 defaults', () => {
  test('minReplicas 1 and 80% CPU when no metric is given; no behavior is invented', () => {
    const h = defaultHorizontalPodAutoscaler({ metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    assert.deepEqual(h.spec, { scaleTargetRef: ref, maxReplicas: 3, minReplicas: 1, metrics: [cpu({ type: 'Utilization', averageUtilization: 80 })] });
  });
  test('a behavior gets the rules it leaves out: scale-up 4 pods/100% per 15 s without a window, scale-down 100% per 15 s', () => {
    const h = defaultHorizontalPodAutoscaler(hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    assert.deepEqual(h.spec?.behavior, {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
});

describe('autoscaling v1 ⇄ v2', () => {
  test('v1 targetCPUUtilizationPercentage is a v2 CPU Utilization metric', () => {
    const v2 = hpaV1ToV2({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } });
    assert.deepEqual(v2.spec, { scaleTargetRef: ref, maxReplicas: 3, metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })] });
    assert.equal(v2.apiVersion, 'autoscaling/v2');
  });
  test('v1 without a target gets the 80% CPU metric on conversion', () => {
    const v2 = hpaV1ToV2({ metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    assert.deepEqual(v2.spec?.metrics, [cpu({ type: 'Utilization', averageUtilization: 80 })]);
  });
  test('what v1 cannot say rides in upstream\'s annotations, and comes back', () => {
    const memory: MetricSpec = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
    const stored: HorizontalPodAutoscaler = {
      ...hpa({ metrics: [cpu({ type: 'Utilization', averageUtilization: 50 }), memory], behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }),
      status: { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30, averageValue: '30m' } } }], conditions: [{ type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: 'm' }] },
    };
    const v1 = hpaV2ToV1(stored);
    assert.equal(v1.spec?.targetCPUUtilizationPercentage, 50);
    assert.equal(v1.status?.currentCPUUtilizationPercentage, 30);
    assert.deepEqual(Object.keys(v1.metadata?.annotations ?? {}).sort(), ['autoscaling.alpha.kubernetes.io/behavior', 'autoscaling.alpha.kubernetes.io/conditions', 'autoscaling.alpha.kubernetes.io/current-metrics', 'autoscaling.alpha.kubernetes.io/metrics']);
    const back = hpaV1ToV2(v1);
    assert.deepEqual(back.spec, stored.spec);
    assert.deepEqual(back.status, stored.status);
    assert.equal(back.metadata?.annotations, undefined);
  });
});
