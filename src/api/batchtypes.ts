// batch/v1 objects as Bulkhead reads and writes them (split from types.ts, which re-exports them).

import type { KubeObject, LabelSelector, ObjectMeta, PodSpec } from './types.js';

/** batch/v1 (k8s.io/api/batch/v1 types.go). */
export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface PodFailurePolicyOnExitCodesRequirement {
  containerName?: string;
  operator?: string;
  values?: number[];
}

export interface PodFailurePolicyOnPodConditionsPattern {
  type?: string;
  status?: string;
}

export interface PodFailurePolicyRule {
  action?: string;
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: { rules?: PodFailurePolicyRule[] };
  successPolicy?: { rules?: { succeededIndexes?: string; succeededCount?: number }[] };
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template?: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
  podReplacementPolicy?: string;
  managedBy?: string;
}

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  ready?: number;
}

export interface Job extends KubeObject {
  metadata: ObjectMeta;
  spec?: JobSpec;
  status?: JobStatus;
}

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  suspend?: boolean;
  jobTemplate?: { metadata?: ObjectMeta; spec?: JobSpec };
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJob extends KubeObject {
  metadata: ObjectMeta;
  spec?: CronJobSpec;
  status?: {
    active?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string }[];
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}

