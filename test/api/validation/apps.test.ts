// apps/v1 defaulting and validation, one row per rule of pkg/apis/apps/v1/defaults.go and
// pkg/apis/apps/validation (ValidateDeployment, ValidateReplicaSet, ValidateStatefulSet,
// ValidateDaemonSet, ValidateControllerRevision, their updates and status updates, and the
// strategies' selector immutability), with Kubernetes' paths, wording and Go-printed values.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet, defaultStatefulSet } from '../../../src/api/appsdefaults.js';
import type { DaemonSet, DaemonSetSpec, Deployment, DeploymentSpec, ReplicaSet, StatefulSet, StatefulSetSpec } from '../../../src/api/types.js';
import {
  validateControllerRevision,
  validateDaemonSet,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
  validateDeployment,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetStatusUpdate,
  validateScale,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, type Want } from './helpers.js';

const opts = { gates: allGates };
const labels = { app: 'web' };
const tpl = (l: Record<string, string> | null = labels, spec: Record<string, unknown> = {}) => ({ metadata: l ? { labels: l } : {}, spec: { containers: [container()], ...spec } });
const meta = (name = 'web') => ({ name, namespace: 'default' });

/** A Deployment as the server validates it: defaulted. */
function deployment(spec: Partial<DeploymentSpec> = {}, name = 'web'): Deployment {
  return defaultDeployment({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name), spec: { selector: { matchLabels: labels }, template: tpl(), ...spec } as DeploymentSpec }, opts);
}
function replicaSet(spec: Record<string, unknown> = {}): ReplicaSet {
  return defaultReplicaSet({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta(), spec: { selector: { matchLabels: labels }, template: tpl(), ...spec } }, opts);
}
function statefulSet(spec: Partial<StatefulSetSpec> = {}, name = 'db'): StatefulSet {
  return defaultStatefulSet({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta(name), spec: { selector: { matchLabels: labels }, template: tpl(), ...spec } as StatefulSetSpec }, opts);
}
function daemonSet(spec: Partial<DaemonSetSpec> = {}): DaemonSet {
  return defaultDaemonSet({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent'), spec: { selector: { matchLabels: labels }, template: tpl(), ...spec } as DaemonSetSpec }, opts);
}
const noSelector = <T extends { spec?: { selector?: unknown } }>(o: T): T => {
  delete o.spec!.selector;
  return o;
};

describe('apps/v1 defaults', () => {
  const rows: { name: string; got: () => unknown; want: unknown }[] = [
    { name: 'Deployment: replicas 1', got: () => deployment().spec!.replicas, want: 1 },
    { name: 'Deployment: RollingUpdate 25%/25%', got: () => deployment().spec!.strategy, want: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } } },
    { name: 'Deployment: a given rollingUpdate bound is kept, the other defaulted', got: () => deployment({ strategy: { rollingUpdate: { maxSurge: 1 } } }).spec!.strategy, want: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } } },
    { name: 'Deployment: Recreate gets no rollingUpdate', got: () => deployment({ strategy: { type: 'Recreate' } }).spec!.strategy, want: { type: 'Recreate' } },
    { name: 'Deployment: revisionHistoryLimit 10, progressDeadlineSeconds 600', got: () => [deployment().spec!.revisionHistoryLimit, deployment().spec!.progressDeadlineSeconds], want: [10, 600] },
    { name: 'Deployment: an explicit replicas 0 stays 0', got: () => deployment({ replicas: 0 }).spec!.replicas, want: 0 },
    {
      name: 'the template gets the pod spec defaults but not the pod-only ones',
      got: () => {
        const s = deployment().spec!.template!.spec!;
        return [s.restartPolicy, s.dnsPolicy, s.schedulerName, s.terminationGracePeriodSeconds, s.enableServiceLinks, s.tolerations];
      },
      want: ['Always', 'ClusterFirst', 'default-scheduler', 30, undefined, undefined],
    },
    { name: 'ReplicaSet: replicas 1', got: () => replicaSet().spec!.replicas, want: 1 },
    {
      name: 'StatefulSet: OrderedReady, RollingUpdate partition 0, Retain/Retain, replicas 1, revisionHistoryLimit 10',
      got: () => {
        const s = statefulSet().spec!;
        return [s.podManagementPolicy, s.updateStrategy, s.persistentVolumeClaimRetentionPolicy, s.replicas, s.revisionHistoryLimit];
      },
      want: ['OrderedReady', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, { whenDeleted: 'Retain', whenScaled: 'Retain' }, 1, 10],
    },
    { name: 'StatefulSet: an explicit RollingUpdate without rollingUpdate gets no partition', got: () => statefulSet({ updateStrategy: { type: 'RollingUpdate' } }).spec!.updateStrategy, want: { type: 'RollingUpdate' } },
    { name: 'StatefulSet: OnDelete stays as given', got: () => statefulSet({ updateStrategy: { type: 'OnDelete' } }).spec!.updateStrategy, want: { type: 'OnDelete' } },
    {
      name: 'StatefulSet: a volume claim template gets its type, volumeMode Filesystem and phase Pending',
      got: () => statefulSet({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} } as never] }).spec!.volumeClaimTemplates,
      want: [{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    },
    { name: 'DaemonSet: RollingUpdate maxUnavailable 1 maxSurge 0, revisionHistoryLimit 10', got: () => [daemonSet().spec!.updateStrategy, daemonSet().spec!.revisionHistoryLimit], want: [{ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, 10] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(r.got(), r.want));
});

describe('validateDeployment', () => {
  const rows: { name: string; d: Deployment; want: Want }[] = [
    { name: 'a defaulted deployment is valid', d: deployment(), want: [] },
    { name: 'replicas must not be negative', d: deployment({ replicas: -1 }), want: [['FieldValueInvalid', 'spec.replicas: Invalid value: -1: must be greater than or equal to 0']] },
    {
      name: 'the selector is required, and then nothing matches the template labels',
      d: noSelector(deployment()),
      want: [
        ['FieldValueRequired', 'spec.selector: Required value'],
        ['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
      ],
    },
    {
      name: 'the selector must match the template labels',
      d: deployment({ template: tpl({ app: 'other', tier: 'x' }) }),
      want: [['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"x"}: `selector` does not match template `labels`']],
    },
    {
      name: 'template labels absent print as a nil map',
      d: deployment({ template: tpl(null) }),
      want: [['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`']],
    },
    {
      name: 'an empty selector is invalid for a deployment',
      d: deployment({ selector: {} }),
      want: [['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']],
    },
    {
      name: 'a bad selector operator is reported, and the template is not matched against it',
      d: deployment({ selector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['web'] }] } }),
      want: [
        ['FieldValueInvalid', 'spec.selector.matchExpressions[0].operator: Invalid value: "Like": not a valid selector operator'],
        ['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Like", Values:[]string{"web"}}}}: invalid label selector'],
      ],
    },
    { name: 'a matchExpressions In selector that matches is valid', d: deployment({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }), want: [] },
    {
      name: 'the template restartPolicy must be Always',
      d: deployment({ template: tpl(labels, { restartPolicy: 'OnFailure' }) }),
      want: [['FieldValueNotSupported', 'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']],
    },
    {
      name: 'the template may not set activeDeadlineSeconds',
      d: deployment({ template: tpl(labels, { activeDeadlineSeconds: 5 }) }),
      want: [['FieldValueForbidden', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported']],
    },
    { name: 'the pod spec rules apply to the template', d: deployment({ template: tpl(labels, { containers: [{ name: 'c' }] }) }), want: [['FieldValueRequired', 'spec.template.spec.containers[0].image: Required value']] },
    {
      name: 'maxUnavailable and maxSurge may not both be 0',
      d: deployment({ strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } }),
      want: [['FieldValueInvalid', 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']],
    },
    {
      name: 'a percentage must be a number followed by %',
      d: deployment({ strategy: { rollingUpdate: { maxSurge: 'x%' } } }),
      want: [['FieldValueInvalid', `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x%"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`]],
    },
    {
      name: 'maxUnavailable may not be over 100%',
      d: deployment({ strategy: { rollingUpdate: { maxUnavailable: '101%' } } }),
      want: [['FieldValueInvalid', 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']],
    },
    { name: 'maxSurge may be over 100%', d: deployment({ strategy: { rollingUpdate: { maxSurge: '200%' } } }), want: [] },
    { name: 'an int bound must not be negative', d: deployment({ strategy: { rollingUpdate: { maxSurge: -1 } } }), want: [['FieldValueInvalid', 'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0']] },
    {
      name: 'Recreate may not have rollingUpdate',
      d: deployment({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }),
      want: [['FieldValueForbidden', "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]],
    },
    {
      name: 'the strategy type must be Recreate or RollingUpdate',
      d: deployment({ strategy: { type: 'BlueGreen' } }),
      want: [['FieldValueNotSupported', 'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"']],
    },
    { name: 'minReadySeconds must not be negative', d: deployment({ minReadySeconds: -1 }), want: [['FieldValueInvalid', 'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'revisionHistoryLimit 0 is valid', d: deployment({ revisionHistoryLimit: 0 }), want: [] },
    { name: 'revisionHistoryLimit must not be negative', d: deployment({ revisionHistoryLimit: -1 }), want: [['FieldValueInvalid', 'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0']] },
    {
      name: 'progressDeadlineSeconds must exceed minReadySeconds',
      d: deployment({ minReadySeconds: 10, progressDeadlineSeconds: 10 }),
      want: [['FieldValueInvalid', 'spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds']],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateDeployment(r.d, opts), r.want));

  test('update: the selector is immutable', () => {
    const old = deployment();
    const next = deployment({ selector: { matchLabels: { app: 'web', v: '2' } }, template: tpl({ app: 'web', v: '2' }) });
    assertErrors(validateDeploymentUpdate(next, old, opts), [
      ['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable'],
    ]);
  });
  test('update: replicas and the template may change', () => assertErrors(validateDeploymentUpdate(deployment({ replicas: 5, template: tpl(labels, { containers: [container('c', { image: 'nginx' })] }) }), deployment(), opts), []));

  const status: { name: string; status: Deployment['status']; old?: Deployment['status']; want: Want }[] = [
    { name: 'consistent counters are valid', status: { replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2 }, want: [] },
    { name: 'counters must not be negative', status: { observedGeneration: -1 }, want: [['FieldValueInvalid', 'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'updated may not exceed replicas', status: { replicas: 1, updatedReplicas: 2 }, want: [['FieldValueInvalid', 'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas']] },
    { name: 'available may not exceed ready', status: { replicas: 3, readyReplicas: 1, availableReplicas: 2 }, want: [['FieldValueInvalid', 'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas']] },
    { name: 'collisionCount may not decrease', status: { collisionCount: 1 }, old: { collisionCount: 2 }, want: [['FieldValueInvalid', 'status.collisionCount: Invalid value: 1: cannot be decremented']] },
  ];
  for (const r of status) {
    test(`status: ${r.name}`, () => {
      const old = { ...deployment(), status: r.old ?? {} };
      assertErrors(validateDeploymentStatusUpdate({ ...old, status: r.status }, old), r.want);
    });
  }
});

describe('validateReplicaSet', () => {
  const rows: { name: string; rs: ReplicaSet; want: Want }[] = [
    { name: 'a defaulted replica set is valid', rs: replicaSet(), want: [] },
    { name: 'the selector is required', rs: noSelector(replicaSet()), want: [['FieldValueRequired', 'spec.selector: Required value'], ['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']] },
    {
      name: 'an empty selector is invalid (upstream\'s message says deployment)',
      rs: replicaSet({ selector: {} }),
      want: [['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']],
    },
    { name: 'minReadySeconds must not be negative', rs: replicaSet({ minReadySeconds: -2 }), want: [['FieldValueInvalid', 'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateReplicaSet(r.rs, opts), r.want));
  test('status: fullyLabeled may not exceed replicas', () => {
    const old = replicaSet();
    assertErrors(validateReplicaSetStatusUpdate({ ...old, status: { replicas: 1, fullyLabeledReplicas: 2 } }, old), [['FieldValueInvalid', 'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas']]);
  });
});

describe('validateStatefulSet', () => {
  const rows: { name: string; ss: StatefulSet; want: Want }[] = [
    { name: 'a defaulted stateful set is valid', ss: statefulSet(), want: [] },
    { name: 'the name must be a DNS label', ss: statefulSet({}, 'db.x'), want: [['FieldValueInvalid', 'metadata.name: Invalid value: "db.x": must not contain dots']] },
    {
      name: 'podManagementPolicy must be OrderedReady or Parallel',
      ss: statefulSet({ podManagementPolicy: 'Random' }),
      want: [['FieldValueInvalid', "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"]],
    },
    {
      name: 'the update strategy must be RollingUpdate or OnDelete',
      ss: statefulSet({ updateStrategy: { type: 'Canary' } }),
      want: [['FieldValueInvalid', "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Canary\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'"]],
    },
    {
      name: 'OnDelete may not have rollingUpdate',
      ss: statefulSet({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } } }),
      want: [['FieldValueInvalid', "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"]],
    },
    { name: 'partition must not be negative', ss: statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }), want: [['FieldValueInvalid', 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']] },
    {
      name: 'the claim retention policy is Retain or Delete',
      ss: statefulSet({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' } }),
      want: [['FieldValueNotSupported', 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"']],
    },
    { name: 'ordinals.start must not be negative', ss: statefulSet({ ordinals: { start: -1 } }), want: [['FieldValueInvalid', 'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0']] },
    {
      name: 'an empty selector is invalid for a statefulset',
      ss: statefulSet({ selector: {} }),
      want: [['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset']],
    },
    { name: 'the selector must match the template labels', ss: statefulSet({ template: tpl({ app: 'x' }) }), want: [['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`']] },
    { name: 'the template pod spec itself is not validated, as upstream', ss: statefulSet({ template: tpl(labels, { containers: [{ name: 'c' }] }) }), want: [] },
    {
      name: 'activeDeadlineSeconds is forbidden in the template',
      ss: statefulSet({ template: tpl(labels, { activeDeadlineSeconds: 5 }) }),
      want: [['FieldValueForbidden', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported']],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateStatefulSet(r.ss), r.want));

  test('update: serviceName may not change', () => {
    assertErrors(validateStatefulSetUpdate(statefulSet({ serviceName: 'b' }), statefulSet({ serviceName: 'a' })), [
      ['FieldValueForbidden', "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"],
    ]);
  });
  test("update: a claim template's quantity written another way is no change (Semantic's Quantity equality); another value is", () => {
    const claims = (storage: string) => ({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }] }) as unknown as Partial<StatefulSetSpec>;
    assertErrors(validateStatefulSetUpdate(statefulSet(claims('1073741824')), statefulSet(claims('1Gi'))), []);
    assertErrors(validateStatefulSetUpdate(statefulSet(claims('1G')), statefulSet(claims('1Gi'))), [
      ['FieldValueForbidden', "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"],
    ]);
  });
  test('update: replicas, template, updateStrategy, minReadySeconds, ordinals and the retention policy may change', () => {
    const next = statefulSet({ replicas: 3, template: tpl(labels, { containers: [container('c', { image: 'x' })] }), updateStrategy: { type: 'OnDelete' }, minReadySeconds: 5, ordinals: { start: 1 }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } });
    assertErrors(validateStatefulSetUpdate(next, statefulSet()), []);
  });
  test('status: available may not exceed ready', () => {
    const old = statefulSet();
    assertErrors(validateStatefulSetStatusUpdate({ ...old, status: { replicas: 2, readyReplicas: 1, availableReplicas: 2 } }, old), [['FieldValueInvalid', 'status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas']]);
  });
});

describe('validateDaemonSet', () => {
  const rows: { name: string; ds: DaemonSet; want: Want }[] = [
    { name: 'a defaulted daemon set is valid', ds: daemonSet(), want: [] },
    { name: 'a missing selector is reported only as not matching the labels', ds: noSelector(daemonSet()), want: [['FieldValueInvalid', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']] },
    {
      name: 'an empty selector is invalid for a daemonset',
      ds: daemonSet({ selector: {} }),
      want: [['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset']],
    },
    {
      name: 'maxSurge may not be set with a non-zero maxUnavailable',
      ds: daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 1 } } }),
      want: [['FieldValueInvalid', 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero']],
    },
    { name: 'maxSurge alone is valid', ds: daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } } }), want: [] },
    {
      name: 'both 0 is refused',
      ds: daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      want: [['FieldValueRequired', 'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']],
    },
    {
      name: 'maxSurge may not be over 100%',
      ds: daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '150%' } } }),
      want: [['FieldValueInvalid', 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%']],
    },
    {
      name: 'the update strategy must be RollingUpdate or OnDelete',
      ds: daemonSet({ updateStrategy: { type: 'Surge' } }),
      want: [['FieldValueNotSupported', 'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"']],
    },
    {
      name: 'the template restartPolicy must be Always',
      ds: daemonSet({ template: tpl(labels, { restartPolicy: 'Never' }) }),
      want: [['FieldValueNotSupported', 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateDaemonSet(r.ds, opts), r.want));
  test('update: the selector is immutable', () => {
    const next = daemonSet({ selector: { matchLabels: { app: 'web', v: '2' } }, template: tpl({ app: 'web', v: '2' }) });
    assertErrors(validateDaemonSetUpdate(next, daemonSet(), opts), [
      ['FieldValueInvalid', 'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable'],
    ]);
  });
  test('status: counters must not be negative', () => {
    const old = daemonSet();
    assertErrors(validateDaemonSetStatusUpdate({ ...old, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: -1, numberReady: 0 } }, old), [
      ['FieldValueInvalid', 'status.desiredNumberScheduled: Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });
});

describe('validateControllerRevision and validateScale', () => {
  test('a revision needs data', () => assertErrors(validateControllerRevision({ metadata: meta('r'), revision: 1 }), [['FieldValueRequired', 'data: Required value: data is mandatory']]));
  test('revision must not be negative', () => assertErrors(validateControllerRevision({ metadata: meta('r'), data: {}, revision: -1 }), [['FieldValueInvalid', 'revision: Invalid value: -1: must be greater than or equal to 0']]));
  test('scale replicas must not be negative', () => assertErrors(validateScale({ metadata: meta('d'), spec: { replicas: -3 } }), [['FieldValueInvalid', 'spec.replicas: Invalid value: -3: must be greater than or equal to 0']]));
});
