// apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet and ControllerRevision, autoscaling/v1
// Scale (the `scale` subresource of the first three), core/v1 PersistentVolumeClaim (a
// StatefulSet's volumeClaimTemplates) and runtime.RawExtension (a ControllerRevision's data).
// Field names, types, required lists, list types and patch strategies follow k8s.io/api
// apps/v1 and autoscaling/v1 types.go at v1.33; the descriptions are our own. The pod template
// is core/v1 PodTemplateSpec (batch.ts), so containers merge by name as in a pod.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const a = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.apps, short, description, fields, opts);

const kindOf = (kind: string) => ({ gvk: [gvk('apps', 'v1', kind)] });

/** The metadata/spec/status triple of a workload kind and its list. */
function kindAndList(kind: string, what: string, plural: string): SchemaDef[] {
  return [
    a(kind, what, {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: `${kind}Spec | The desired state.`,
      status: `${kind}Status | What the controller last observed. Read-only.`,
    }, kindOf(kind)),
    a(`${kind}List`, `A list of ${plural}.`, { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: `[]${kind}! | The ${plural}.` }, kindOf(`${kind}List`)),
  ];
}

const conditions = (kind: string) => `[]${kind}Condition ps=merge mk=type lt=map lk=type | The latest observations of the object's state.`;

function condition(kind: string, extra: Record<string, string> = {}): SchemaDef {
  return a(`${kind}Condition`, `One observation of a ${kind}'s state.`, {
    type: `s! go=${kind}ConditionType | Type of the condition.`,
    status: 's! go=v1.ConditionStatus | True, False or Unknown.',
    ...extra,
    lastTransitionTime: 'Time | Last time the condition changed status.',
    reason: 's | One-word reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  });
}

export const appsSchemas: readonly SchemaDef[] = [
  ...kindAndList('Deployment', 'Declarative updates for pods and replica sets: the deployment controller moves the current state toward spec at a controlled rate.', 'deployments'),
  a('DeploymentSpec', 'The desired behaviour of a Deployment.', {
    replicas: 'i32 | Desired number of pods. Defaults to 1.',
    selector: 'LabelSelector! | Label query over the pods; must match the template\'s labels. Immutable in apps/v1.',
    template: 'PodTemplateSpec! | The pods to create. restartPolicy must be Always.',
    strategy: 'DeploymentStrategy ps=retainKeys | How existing pods are replaced with new ones.',
    minReadySeconds: 'i32 | Seconds a new pod must be ready, without a container crashing, to count as available. Defaults to 0.',
    revisionHistoryLimit: 'i32 | Old ReplicaSets kept for rollback. Defaults to 10.',
    paused: 'b | When true, the deployment controller does not act on template changes.',
    progressDeadlineSeconds: 'i32 | Seconds without progress after which the deployment is reported failed (ProgressDeadlineExceeded). Defaults to 600.',
  }),
  a('DeploymentStrategy', 'How a Deployment replaces its pods.', {
    type: 's enum=Recreate,RollingUpdate go=DeploymentStrategyType | Recreate (kill all old pods first) or RollingUpdate (default).',
    rollingUpdate: 'RollingUpdateDeployment | Rolling update parameters; only with type RollingUpdate.',
  }),
  a('RollingUpdateDeployment', 'The bounds of a rolling update.', {
    maxUnavailable: 'IntOrString | Pods (or percent of desired, rounded down) that may be unavailable during the update. Defaults to 25%.',
    maxSurge: 'IntOrString | Pods (or percent of desired, rounded up) that may be created above the desired count. Defaults to 25%.',
  }),
  a('DeploymentStatus', 'What the deployment controller observed.', {
    observedGeneration: 'i64 | The generation the controller acted on.',
    replicas: 'i32 | Non-terminating pods targeted by this deployment.',
    updatedReplicas: 'i32 | Non-terminating pods with the desired template.',
    readyReplicas: 'i32 | Non-terminating pods with a Ready condition.',
    availableReplicas: 'i32 | Pods ready for at least minReadySeconds.',
    unavailableReplicas: 'i32 | Pods still needed for 100% available capacity.',
    terminatingReplicas: 'i32 gate=DeploymentReplicaSetTerminatingReplicas since=1.33 | Terminating pods targeted by this deployment.',
    conditions: conditions('Deployment'),
    collisionCount: 'i32 | Hash collisions seen when naming the newest ReplicaSet.',
  }),
  condition('Deployment', { lastUpdateTime: 'Time | Last time the condition was updated.' }),

  ...kindAndList('ReplicaSet', 'Keeps a stable number of pod replicas running.', 'replica sets'),
  a('ReplicaSetSpec', 'The desired behaviour of a ReplicaSet.', {
    replicas: 'i32 | Desired number of pods. Defaults to 1.',
    minReadySeconds: 'i32 | Seconds a new pod must be ready to count as available. Defaults to 0.',
    selector: 'LabelSelector! | Label query over the pods; must match the template\'s labels.',
    template: 'PodTemplateSpec | The pods created when too few are found.',
  }),
  a('ReplicaSetStatus', 'What the replica set controller observed.', {
    replicas: 'i32! | Non-terminating pods most recently observed.',
    fullyLabeledReplicas: 'i32 | Pods whose labels match the template\'s.',
    readyReplicas: 'i32 | Non-terminating pods with a Ready condition.',
    availableReplicas: 'i32 | Pods ready for at least minReadySeconds.',
    terminatingReplicas: 'i32 gate=DeploymentReplicaSetTerminatingReplicas since=1.33 | Terminating pods of this replica set.',
    observedGeneration: 'i64 | The generation the controller acted on.',
    conditions: conditions('ReplicaSet'),
  }),
  condition('ReplicaSet'),

  ...kindAndList('StatefulSet', 'Pods with stable identities and, optionally, their own volume claims.', 'stateful sets'),
  a('StatefulSetSpec', 'The desired behaviour of a StatefulSet.', {
    replicas: 'i32 | Desired number of pods. Defaults to 1.',
    selector: 'LabelSelector! | Label query over the pods; must match the template\'s labels.',
    template: 'PodTemplateSpec! | The pods to create, each named <set>-<ordinal>. restartPolicy must be Always.',
    volumeClaimTemplates: '[]PersistentVolumeClaim lt=atomic | Claims each pod gets, named <claim>-<pod>.',
    serviceName: 's | Governing headless service; pods get <pod>.<service> DNS names.',
    podManagementPolicy: 's enum=OrderedReady,Parallel go=PodManagementPolicyType | OrderedReady (default): one pod at a time, in order; Parallel: all at once.',
    updateStrategy: 'StatefulSetUpdateStrategy | How pods are updated when the template changes.',
    revisionHistoryLimit: 'i32 | Revisions kept in the history. Defaults to 10.',
    minReadySeconds: 'i32 | Seconds a new pod must be ready to count as available. Defaults to 0.',
    persistentVolumeClaimRetentionPolicy: 'StatefulSetPersistentVolumeClaimRetentionPolicy | Whether claims are deleted with the set or on scale-down.',
    ordinals: 'StatefulSetOrdinals | The first ordinal of the pods.',
  }),
  a('StatefulSetUpdateStrategy', 'How a StatefulSet updates its pods.', {
    type: 's enum=OnDelete,RollingUpdate go=StatefulSetUpdateStrategyType | RollingUpdate (default) or OnDelete.',
    rollingUpdate: 'RollingUpdateStatefulSetStrategy | Rolling update parameters; only with type RollingUpdate.',
  }),
  a('RollingUpdateStatefulSetStrategy', 'The bounds of a StatefulSet rolling update.', {
    partition: 'i32 | Pods with an ordinal at or above this are updated. Defaults to 0.',
    maxUnavailable: 'IntOrString gate=MaxUnavailableStatefulSet | Pods (or percent) that may be unavailable during the update. Defaults to 1.',
  }),
  a('StatefulSetPersistentVolumeClaimRetentionPolicy', 'What happens to the claims of volumeClaimTemplates.', {
    whenDeleted: 's go=PersistentVolumeClaimRetentionPolicyType | Retain (default) or Delete the claims when the set is deleted.',
    whenScaled: 's go=PersistentVolumeClaimRetentionPolicyType | Retain (default) or Delete the claims of pods removed by a scale-down.',
  }),
  a('StatefulSetOrdinals', 'The ordinals of a StatefulSet\'s pods.', {
    start: 'i32 | The first ordinal; pods are numbered start to start+replicas-1. Defaults to 0.',
  }),
  a('StatefulSetStatus', 'What the statefulset controller observed.', {
    observedGeneration: 'i64 | The generation the controller acted on.',
    replicas: 'i32! | Pods created by the controller.',
    readyReplicas: 'i32 | Pods with a Ready condition.',
    currentReplicas: 'i32 | Pods at currentRevision.',
    updatedReplicas: 'i32 | Pods at updateRevision.',
    currentRevision: 's | The revision that made the pods 0 to currentReplicas-1.',
    updateRevision: 's | The revision that makes the pods from replicas-updatedReplicas to replicas-1.',
    collisionCount: 'i32 | Hash collisions seen when naming the newest ControllerRevision.',
    conditions: conditions('StatefulSet'),
    availableReplicas: 'i32 | Pods ready for at least minReadySeconds.',
  }),
  condition('StatefulSet'),

  ...kindAndList('DaemonSet', 'Runs a copy of a pod on every node (or every matching node).', 'daemon sets'),
  a('DaemonSetSpec', 'The desired behaviour of a DaemonSet.', {
    selector: 'LabelSelector! | Label query over the pods; must match the template\'s labels.',
    template: 'PodTemplateSpec! | The pod run on each eligible node. restartPolicy must be Always.',
    updateStrategy: 'DaemonSetUpdateStrategy | How pods are replaced when the template changes.',
    minReadySeconds: 'i32 | Seconds a new pod must be ready to count as available. Defaults to 0.',
    revisionHistoryLimit: 'i32 | Revisions kept in the history. Defaults to 10.',
  }),
  a('DaemonSetUpdateStrategy', 'How a DaemonSet updates its pods.', {
    type: 's enum=OnDelete,RollingUpdate go=DaemonSetUpdateStrategyType | RollingUpdate (default) or OnDelete.',
    rollingUpdate: 'RollingUpdateDaemonSet | Rolling update parameters; only with type RollingUpdate.',
  }),
  a('RollingUpdateDaemonSet', 'The bounds of a DaemonSet rolling update.', {
    maxUnavailable: 'IntOrString | Nodes (or percent, rounded up) whose pod may be unavailable during the update. Defaults to 1.',
    maxSurge: 'IntOrString | Nodes (or percent, rounded up) that may run an extra new pod during the update. Defaults to 0.',
  }),
  a('DaemonSetStatus', 'What the daemonset controller observed.', {
    currentNumberScheduled: 'i32! | Nodes running at least one daemon pod that should.',
    numberMisscheduled: 'i32! | Nodes running the daemon pod that should not.',
    desiredNumberScheduled: 'i32! | Nodes that should run the daemon pod.',
    numberReady: 'i32! | Nodes whose daemon pod is running and ready.',
    observedGeneration: 'i64 | The generation the controller acted on.',
    updatedNumberScheduled: 'i32 | Nodes running the updated daemon pod.',
    numberAvailable: 'i32 | Nodes whose daemon pod is available (ready for minReadySeconds).',
    numberUnavailable: 'i32 | Nodes whose daemon pod should be but is not available.',
    collisionCount: 'i32 | Hash collisions seen when naming the newest ControllerRevision.',
    conditions: conditions('DaemonSet'),
  }),
  condition('DaemonSet'),

  a('ControllerRevision', 'An immutable snapshot of state data, kept by the DaemonSet and StatefulSet controllers for updates and rollbacks.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    data: 'RawExtension | The serialized state.',
    revision: 'i64! | The revision this object represents.',
  }, kindOf('ControllerRevision')),
  a('ControllerRevisionList', 'A list of controller revisions.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]ControllerRevision! | The controller revisions.' }, kindOf('ControllerRevisionList')),
  {
    short: 'RawExtension',
    pkg: PKG.runtime,
    description: 'An embedded object of any kind, stored as given.',
    fields: [],
    goPkg: 'runtime',
    special: { type: 'object', decoder: 'any' },
  },

  struct(PKG.autoscaling, 'Scale', 'The scale subresource of a resource: its desired replicas, and the replicas and selector observed.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata (that of the scaled object).',
    spec: 'ScaleSpec | The desired scale.',
    status: 'ScaleStatus | The current scale. Read-only.',
  }, { gvk: [gvk('autoscaling', 'v1', 'Scale')] }),
  struct(PKG.autoscaling, 'ScaleSpec', 'The desired scale.', {
    replicas: 'i32 | Desired number of instances.',
  }),
  struct(PKG.autoscaling, 'ScaleStatus', 'The observed scale.', {
    replicas: 'i32! | Observed number of instances.',
    selector: 's | The pods\' label selector, in the string form of a label query.',
  }),

  struct(PKG.core, 'PersistentVolumeClaim', 'A request for storage by a user.', {
    ...typeMeta,
    metadata: 'ObjectMeta | Standard object metadata.',
    spec: 'PersistentVolumeClaimSpec | The storage wanted.',
    status: 'PersistentVolumeClaimStatus | The current state of the claim. Read-only.',
  }),
  struct(PKG.core, 'PersistentVolumeClaimStatus', 'The current state of a volume claim.', {
    phase: 's enum=Bound,Lost,Pending go=PersistentVolumeClaimPhase | Pending, Bound or Lost.',
    accessModes: '[]s enum=ReadOnlyMany,ReadWriteMany,ReadWriteOnce,ReadWriteOncePod go=PersistentVolumeAccessMode lt=atomic | Access modes the bound volume has.',
    capacity: 'rl | Resources of the bound volume.',
    conditions: '[]PersistentVolumeClaimCondition ps=merge mk=type lt=map lk=type | Current conditions, e.g. Resizing.',
    allocatedResources: 'rl | Resources allocated to the claim, for resizing.',
    allocatedResourceStatuses: '{}s mt=granular | Status of resize operations, by resource.',
    currentVolumeAttributesClassName: 's | The VolumeAttributesClass in effect.',
    modifyVolumeStatus: 'ModifyVolumeStatus | State of a modification to the volume\'s attributes class.',
  }),
  struct(PKG.core, 'PersistentVolumeClaimCondition', 'One observation of a claim\'s state.', {
    type: 's! go=PersistentVolumeClaimConditionType | Type of the condition.',
    status: 's! go=ConditionStatus | True, False or Unknown.',
    lastProbeTime: 'Time | Last time the condition was probed.',
    lastTransitionTime: 'Time | Last time the condition changed status.',
    reason: 's | One-word reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  }),
  struct(PKG.core, 'ModifyVolumeStatus', 'State of a ControllerModifyVolume operation.', {
    targetVolumeAttributesClassName: 's | The class being reconciled to.',
    status: 's! go=PersistentVolumeClaimModifyVolumeStatus | Pending, InProgress or Infeasible.',
  }),
];
