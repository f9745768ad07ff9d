// The Tables of HPAs, PDBs, role bindings and cluster role bindings against upstream's rows:
// pkg/printers/internalversion printers_test.go (kubernetes/kubernetes, stored file id 100530230)
// TestPrintHPA, TestPrintPodDisruptionBudget, TestPrintPodDisruptionBudgetList, TestPrintScale,
// TestPrintRoleBinding and TestPrintClusterRoleBinding, one row per upstream case (upstream's
// comment as the name). HPAs are given in autoscaling/v2, the form Bulkhead stores.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cells, SOON, wideCells } from './helpers.js';

interface Row {
  name: string;
  obj: Record<string, unknown>;
  want: unknown[];
  wide?: boolean;
}

const check = (resource: string, rows: Row[]) => rows.forEach((r) => test(r.name, () => assert.deepEqual(r.wide ? wideCells(resource, r.obj) : cells(resource, r.obj), r.want)));

const selector = { matchLabels: { label: 'value' } };
const hpa = (metrics?: unknown[], currentMetrics?: unknown[], minReplicas: number | null = 2) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'some-hpa' },
  spec: { scaleTargetRef: { name: 'some-rc', kind: 'ReplicationController' }, ...(minReplicas !== null ? { minReplicas } : {}), maxReplicas: 10, ...(metrics ? { metrics } : {}) },
  status: { currentReplicas: 4, desiredReplicas: 5, ...(currentMetrics ? { currentMetrics } : {}) },
});
const row = (targets: string, min = '2') => ['some-hpa', 'ReplicationController/some-rc', targets, min, 10, 4, '<unknown>'];
const external = (name: string, target: Record<string, string>, withSelector = true) => ({ type: 'External', external: { metric: { name, ...(withSelector ? { selector } : {}) }, target } });
const externalNow = (current: Record<string, string>, withSelector = true) => ({ type: 'External', external: { metric: { name: 'some-external-metric', ...(withSelector ? { selector } : {}) }, current } });
const podsMetric = (name: string, averageValue: string) => ({ type: 'Pods', pods: { metric: { name }, target: { type: 'AverageValue', averageValue } } });
const podsNow = { type: 'Pods', pods: { metric: { name: 'some-pods-metric' }, current: { averageValue: '50m' } } };
const object = { type: 'Object', object: { describedObject: { name: 'some-service', kind: 'Service' }, metric: { name: 'some-service-metric' }, target: { type: 'Value', value: '100m' } } };
const objectNow = { type: 'Object', object: { describedObject: { name: 'some-service', kind: 'Service' }, metric: { name: 'some-service-metric' }, current: { value: '50m' } } };
const cpuValue = { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '100m' } } };
const cpuUtil = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const cpuNow = (current: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', current } });
const ctrValue = (container?: string) => ({ type: 'ContainerResource', containerResource: { name: 'cpu', ...(container ? { container } : {}), target: { type: 'AverageValue', averageValue: '100m' } } });
const ctrUtil = (container?: string) => ({ type: 'ContainerResource', containerResource: { name: 'cpu', ...(container ? { container } : {}), target: { type: 'Utilization', averageUtilization: 80 } } });
const ctrNow = (current: Record<string, unknown>) => ({ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'application', current } });

describe('TestPrintHPA', () => {
  check('horizontalpodautoscalers', [
    { name: 'minReplicas unset', obj: hpa(undefined, undefined, null), want: row('<none>', '<unset>') },
    { name: 'external source type, target average value (no current)', obj: hpa([external('some-external-metric', { type: 'AverageValue', averageValue: '100m' })]), want: row('<unknown>/100m (avg)') },
    { name: 'external source type, target average value', obj: hpa([external('some-external-metric', { type: 'AverageValue', averageValue: '100m' })], [externalNow({ averageValue: '50m' })]), want: row('50m/100m (avg)') },
    { name: 'external source type, target value (no current)', obj: hpa([external('some-service-metric', { type: 'Value', value: '100m' })]), want: row('<unknown>/100m') },
    { name: 'external source type, target value', obj: hpa([external('some-external-metric', { type: 'Value', value: '100m' })], [externalNow({ value: '50m' }, false)]), want: row('50m/100m') },
    { name: 'pods source type (no current)', obj: hpa([podsMetric('some-pods-metric', '100m')]), want: row('<unknown>/100m') },
    { name: 'pods source type', obj: hpa([podsMetric('some-pods-metric', '100m')], [podsNow]), want: row('50m/100m') },
    { name: 'object source type (no current)', obj: hpa([object]), want: row('<unknown>/100m') },
    { name: 'object source type', obj: hpa([object], [objectNow]), want: row('50m/100m') },
    { name: 'resource source type, targetVal (no current)', obj: hpa([cpuValue]), want: row('cpu: <unknown>/100m') },
    { name: 'resource source type, targetVal', obj: hpa([cpuValue], [cpuNow({ averageValue: '50m' })]), want: row('cpu: 50m/100m') },
    { name: 'resource source type, targetUtil (no current)', obj: hpa([cpuUtil]), want: row('cpu: <unknown>/80%') },
    { name: 'resource source type, targetUtil', obj: hpa([cpuUtil], [cpuNow({ averageUtilization: 50, averageValue: '40m' })]), want: row('cpu: 50%/80%') },
    { name: 'container resource source type, targetVal (no current)', obj: hpa([ctrValue('application')]), want: row('cpu: <unknown>/100m') },
    { name: 'container resource source type, targetVal', obj: hpa([ctrValue()], [ctrNow({ averageValue: '50m' })]), want: row('cpu: 50m/100m') },
    { name: 'container resource source type, targetUtil (no current)', obj: hpa([ctrUtil('application')]), want: row('cpu: <unknown>/80%') },
    { name: 'container resource source type, targetUtil', obj: hpa([ctrUtil()], [ctrNow({ averageUtilization: 50, averageValue: '40m' })]), want: row('cpu: 50%/80%') },
    {
      name: 'multiple specs',
      obj: hpa([podsMetric('some-pods-metric', '100m'), cpuUtil, podsMetric('other-pods-metric', '400m')], [podsNow, cpuNow({ averageUtilization: 50, averageValue: '40m' })]),
      want: row('50m/100m, cpu: 50%/80% + 1 more...'),
    },
  ]);
});

const pdb = (name: string, spec: Record<string, unknown>, disruptionsAllowed: number) => ({ metadata: { namespace: 'ns', name, creationTimestamp: SOON }, spec, status: { disruptionsAllowed } });

describe('TestPrintPodDisruptionBudget', () => {
  check('poddisruptionbudgets', [
    { name: 'Min Available set, no Max Available.', obj: pdb('pdb1', { minAvailable: 22 }, 5), want: ['pdb1', '22', 'N/A', 5, '0s'] },
    { name: 'Max Available set, no Min Available.', obj: pdb('pdb2', { maxUnavailable: 11 }, 5), want: ['pdb2', 'N/A', '11', 5, '0s'] },
  ]);
});

describe('TestPrintPodDisruptionBudgetList', () => {
  check('poddisruptionbudgets', [
    { name: 'pdb1', obj: pdb('pdb1', { maxUnavailable: 11 }, 5), want: ['pdb1', 'N/A', '11', 5, '0s'] },
    { name: 'pdb2', obj: pdb('pdb2', { minAvailable: 22 }, 3), want: ['pdb2', '22', 'N/A', 3, '0s'] },
  ]);
});

describe('TestPrintScale', () => {
  check('scale', [
    { name: 'test-autoscaling: desired 2, available 1', obj: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'test-autoscaling', creationTimestamp: SOON }, spec: { replicas: 2 }, status: { replicas: 1 } }, want: ['test-autoscaling', 2, 1, '0s'] },
  ]);
});

for (const [fn, resource] of [
  ['TestPrintRoleBinding', 'rolebindings'],
  ['TestPrintClusterRoleBinding', 'clusterrolebindings'],
] as const) {
  describe(fn, () => {
    check(resource, [
      {
        name: 'Basic role binding',
        obj: { metadata: { name: 'binding1', creationTimestamp: SOON }, subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }], roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' } },
        want: ['binding1', 'Role/extension-apiserver-authentication-reader', '0s'],
      },
      {
        name: 'Generate options=Wide; print subject and roles.',
        obj: {
          metadata: { name: 'binding2', creationTimestamp: SOON },
          subjects: [
            { kind: 'User', name: 'user-name' },
            { kind: 'Group', name: 'group-name' },
            { kind: 'ServiceAccount', name: 'service-account-name', namespace: 'service-account-namespace' },
          ],
          roleRef: { kind: 'Role', name: 'role-name' },
        },
        want: ['binding2', 'Role/role-name', '0s', 'user-name', 'group-name', 'service-account-namespace/service-account-name'],
        wide: true,
      },
    ]);
  });
}
