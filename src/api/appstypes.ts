// apps/v1 objects as Bulkhead reads and writes them (split from types.ts, which re-exports them).

import type { KubeObject, LabelSelector, ObjectMeta } from './types.js';
import type { PodTemplateSpec } from './batchtypes.js';

/** apps/v1 (k8s.io/api/apps/v1 types.go). An int-or-string: `maxSurge: 1` or `maxSurge: 25%`. */
export type IntOrString = number | string;

/** A condition of a Deployment, ReplicaSet, StatefulSet or DaemonSet. */
export interface AppsCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: AppsCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  metadata: ObjectMeta;
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: AppsCondition[];
}

export interface ReplicaSet extends KubeObject {
  metadata: ObjectMeta;
  spec?: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  volumeClaimTemplates?: KubeObject[];
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: AppsCondition[];
  availableReplicas?: number;
}

export interface StatefulSet extends KubeObject {
  metadata: ObjectMeta;
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
}

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template?: PodTemplateSpec;
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: AppsCondition[];
}

export interface DaemonSet extends KubeObject {
  metadata: ObjectMeta;
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}

/** An immutable snapshot of a StatefulSet's or DaemonSet's template, for rollout history. */
export interface ControllerRevision extends KubeObject {
  metadata: ObjectMeta;
  data?: unknown;
  revision?: number;
}

/** autoscaling/v1 Scale, the `scale` subresource of deployments, replicasets and statefulsets. */
export interface Scale extends KubeObject {
  metadata: ObjectMeta;
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

