// autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscaler as Bulkhead reads and writes them
// (k8s.io/api/autoscaling/v2 and v1 types.go at 1.32; split from types.ts, which re-exports them).
// v2 is the stored form; v1 is served by conversion (autoscalingconversion.ts).

import type { KubeObject, LabelSelector } from './types.js';

export interface CrossVersionObjectReference {
  kind: string;
  name: string;
  apiVersion?: string;
}

export type MetricSourceType = 'Object' | 'Pods' | 'Resource' | 'ContainerResource' | 'External';
export type MetricTargetType = 'Utilization' | 'Value' | 'AverageValue';

export interface MetricTarget {
  type: string;
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricIdentifier {
  name: string;
  selector?: LabelSelector;
}

export interface ResourceMetricSource {
  name: string;
  target: MetricTarget;
}

export interface ContainerResourceMetricSource extends ResourceMetricSource {
  container: string;
}

export interface ObjectMetricSource {
  describedObject: CrossVersionObjectReference;
  target: MetricTarget;
  metric: MetricIdentifier;
}

export interface PodsMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface ExternalMetricSource {
  metric: MetricIdentifier;
  target: MetricTarget;
}

export interface MetricSpec {
  type: string;
  object?: ObjectMetricSource;
  pods?: PodsMetricSource;
  resource?: ResourceMetricSource;
  containerResource?: ContainerResourceMetricSource;
  external?: ExternalMetricSource;
}

export type ScalingPolicySelect = 'Max' | 'Min' | 'Disabled';
export type HPAScalingPolicyType = 'Pods' | 'Percent';

export interface HPAScalingPolicy {
  type: string;
  value: number;
  periodSeconds: number;
}

export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: HPAScalingPolicy[];
}

export interface HorizontalPodAutoscalerBehavior {
  scaleUp?: HPAScalingRules;
  scaleDown?: HPAScalingRules;
}

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface MetricValueStatus {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

export interface MetricStatus {
  type: string;
  object?: { metric: MetricIdentifier; current: MetricValueStatus; describedObject: CrossVersionObjectReference };
  pods?: { metric: MetricIdentifier; current: MetricValueStatus };
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; current: MetricValueStatus; container: string };
  external?: { metric: MetricIdentifier; current: MetricValueStatus };
}

export type HPAConditionType = 'ScalingActive' | 'AbleToScale' | 'ScalingLimited';

export interface HorizontalPodAutoscalerCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HorizontalPodAutoscalerCondition[];
}

/** autoscaling/v2 HorizontalPodAutoscaler: the stored form. */
export interface HorizontalPodAutoscaler extends KubeObject {
  spec?: HorizontalPodAutoscalerSpec;
  status?: HorizontalPodAutoscalerStatus;
}

/** autoscaling/v1 HorizontalPodAutoscaler (what `kubectl autoscale` 1.32 creates). */
export interface HorizontalPodAutoscalerV1 extends KubeObject {
  spec?: {
    scaleTargetRef: CrossVersionObjectReference;
    minReplicas?: number;
    maxReplicas: number;
    targetCPUUtilizationPercentage?: number;
  };
  status?: {
    observedGeneration?: number;
    lastScaleTime?: string;
    currentReplicas: number;
    desiredReplicas: number;
    currentCPUUtilizationPercentage?: number;
  };
}
