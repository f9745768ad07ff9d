// autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscaler (k8s.io/api/autoscaling/v2 and v1
// types.go at 1.32; the descriptions are our own). v1's Scale is in apps.ts beside the kinds it
// scales.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const v2 = PKG.autoscalingV2;
const v1 = PKG.autoscaling;
const kindOf = (version: string, kind: string) => ({ gvk: [gvk('autoscaling', version, kind)] });
const crossRef = (pkg: string) =>
  struct(pkg, 'CrossVersionObjectReference', 'Names an object of any kind and version.', {
    kind: 's! | Kind of the referent, e.g. Deployment.',
    name: 's! | Name of the referent.',
    apiVersion: 's | API version of the referent, e.g. apps/v1.',
  });

export const autoscalingSchemas: readonly SchemaDef[] = [
  struct(
    v2,
    'HorizontalPodAutoscaler',
    'Scales a workload that has a scale subresource between a minimum and a maximum replica count, from the metrics given.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'HorizontalPodAutoscalerSpec | The autoscaler\'s behaviour.',
      status: 'HorizontalPodAutoscalerStatus | What the autoscaler last observed. Read-only.',
    },
    kindOf('v2', 'HorizontalPodAutoscaler'),
  ),
  struct(v2, 'HorizontalPodAutoscalerList', 'A list of horizontal pod autoscalers.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]HorizontalPodAutoscaler! | The autoscalers.' }, kindOf('v2', 'HorizontalPodAutoscalerList')),
  struct(v2, 'HorizontalPodAutoscalerSpec', 'What an autoscaler scales, within which bounds, on which metrics.', {
    scaleTargetRef: 'CrossVersionObjectReference! | The object scaled; it must have a scale subresource.',
    minReplicas: 'i32 | The fewest replicas the autoscaler scales down to. Defaults to 1.',
    maxReplicas: 'i32! | The most replicas the autoscaler scales up to; at least minReplicas.',
    metrics: '[]MetricSpec lt=atomic | The metrics whose proposals are compared; the largest replica count wins. Defaults to 80% average CPU utilization.',
    behavior: 'HorizontalPodAutoscalerBehavior | How fast it scales up and down. Defaults to the controller\'s rules.',
  }),
  crossRef(v2),
  struct(v2, 'MetricSpec', 'One metric to scale on: its type and the source of that type.', {
    type: 's! go=v2.MetricSourceType | ContainerResource, External, Object, Pods or Resource.',
    object: 'ObjectMetricSource | A metric of one Kubernetes object.',
    pods: 'PodsMetricSource | A metric of each pod, averaged.',
    resource: 'ResourceMetricSource | A resource (cpu, memory) of each pod, as the metrics API reports it.',
    containerResource: 'ContainerResourceMetricSource | A resource of one container of each pod.',
    external: 'ExternalMetricSource | A metric of nothing in the cluster.',
  }),
  struct(v2, 'ObjectMetricSource', 'A metric of one object.', {
    describedObject: 'CrossVersionObjectReference! | The object the metric describes.',
    target: 'MetricTarget! | The target value.',
    metric: 'MetricIdentifier! | The metric.',
  }),
  struct(v2, 'PodsMetricSource', 'A metric of each pod of the target.', {
    metric: 'MetricIdentifier! | The metric.',
    target: 'MetricTarget! | The target average value.',
  }),
  struct(v2, 'ResourceMetricSource', 'A resource metric of each pod of the target.', {
    name: 's! go=v1.ResourceName | The resource: cpu or memory.',
    target: 'MetricTarget! | The target utilization or average value.',
  }),
  struct(v2, 'ContainerResourceMetricSource', 'A resource metric of one container of each pod of the target.', {
    name: 's! go=v1.ResourceName | The resource: cpu or memory.',
    target: 'MetricTarget! | The target utilization or average value.',
    container: 's! | The container\'s name.',
  }),
  struct(v2, 'ExternalMetricSource', 'A metric from outside the cluster.', {
    metric: 'MetricIdentifier! | The metric.',
    target: 'MetricTarget! | The target value or average value.',
  }),
  struct(v2, 'MetricIdentifier', 'Names a metric, optionally narrowed by a selector.', {
    name: 's! | The metric\'s name.',
    selector: 'LabelSelector | Narrows the metric\'s series.',
  }),
  struct(v2, 'MetricTarget', 'A metric\'s target: a value, an average value, or an average utilization.', {
    type: 's! go=v2.MetricTargetType | Utilization, Value or AverageValue.',
    value: 'Quantity | The target value of the metric.',
    averageValue: 'Quantity | The target value of the metric averaged over the pods.',
    averageUtilization: 'i32 | The target average over the pods, in percent of the resource\'s request (Resource metrics only).',
  }),
  struct(v2, 'HorizontalPodAutoscalerBehavior', 'How the autoscaler scales up and down.', {
    scaleUp: 'HPAScalingRules | Rules for scaling up: by default the larger of 4 pods or 100% per 15 s, no stabilization.',
    scaleDown: 'HPAScalingRules | Rules for scaling down: by default 100% per 15 s after a 300 s stabilization window.',
  }),
  struct(v2, 'HPAScalingRules', 'The rules of one direction of scaling.', {
    stabilizationWindowSeconds: 'i32 | Seconds of past recommendations considered (0–3600).',
    selectPolicy: 's go=v2.ScalingPolicySelect | Which policy applies: Max (default), Min or Disabled.',
    policies: '[]HPAScalingPolicy lt=atomic | The policies, each bounding the change over a period.',
  }),
  struct(v2, 'HPAScalingPolicy', 'A bound on the change of replicas over a period.', {
    type: 's! go=v2.HPAScalingPolicyType | Pods or Percent.',
    value: 'i32! | How many pods, or what percent of the current replicas, may be changed; positive.',
    periodSeconds: 'i32! | The period the bound holds over (1–1800 s).',
  }),
  struct(v2, 'HorizontalPodAutoscalerStatus', 'What the autoscaler last observed.', {
    observedGeneration: 'i64 | The generation of the autoscaler last observed.',
    lastScaleTime: 'Time | When the autoscaler last changed the replica count.',
    currentReplicas: 'i32 | Replicas of the target as last seen.',
    desiredReplicas: 'i32! | Replicas the autoscaler last computed.',
    currentMetrics: '[]MetricStatus lt=atomic | The metrics as last read.',
    conditions: '[]HorizontalPodAutoscalerCondition ps=merge mk=type lt=map lk=type | AbleToScale, ScalingActive and ScalingLimited.',
  }),
  struct(v2, 'HorizontalPodAutoscalerCondition', 'One aspect of an autoscaler\'s state.', {
    type: 's! go=v2.HorizontalPodAutoscalerConditionType | AbleToScale, ScalingActive or ScalingLimited.',
    status: 's! go=v1.ConditionStatus | True, False or Unknown.',
    lastTransitionTime: 'Time | When the condition last changed status.',
    reason: 's | Why, in CamelCase.',
    message: 's | Why, for humans.',
  }),
  struct(v2, 'MetricStatus', 'The last reading of one metric.', {
    type: 's! go=v2.MetricSourceType | ContainerResource, External, Object, Pods or Resource.',
    object: 'ObjectMetricStatus | An object metric.',
    pods: 'PodsMetricStatus | A pods metric.',
    resource: 'ResourceMetricStatus | A resource metric.',
    containerResource: 'ContainerResourceMetricStatus | A container resource metric.',
    external: 'ExternalMetricStatus | An external metric.',
  }),
  struct(v2, 'ObjectMetricStatus', 'The last reading of an object metric.', {
    metric: 'MetricIdentifier! | The metric.',
    current: 'MetricValueStatus! | Its value.',
    describedObject: 'CrossVersionObjectReference! | The object it describes.',
  }),
  struct(v2, 'PodsMetricStatus', 'The last reading of a pods metric.', {
    metric: 'MetricIdentifier! | The metric.',
    current: 'MetricValueStatus! | Its average value.',
  }),
  struct(v2, 'ResourceMetricStatus', 'The last reading of a resource metric.', {
    name: 's! go=v1.ResourceName | The resource.',
    current: 'MetricValueStatus! | Its average value and utilization.',
  }),
  struct(v2, 'ContainerResourceMetricStatus', 'The last reading of a container resource metric.', {
    name: 's! go=v1.ResourceName | The resource.',
    current: 'MetricValueStatus! | Its average value and utilization.',
    container: 's! | The container.',
  }),
  struct(v2, 'ExternalMetricStatus', 'The last reading of an external metric.', {
    metric: 'MetricIdentifier! | The metric.',
    current: 'MetricValueStatus! | Its value.',
  }),
  struct(v2, 'MetricValueStatus', 'A metric\'s value as read.', {
    value: 'Quantity | The value.',
    averageValue: 'Quantity | The value averaged over the pods.',
    averageUtilization: 'i32 | The average over the pods in percent of the request.',
  }),

  struct(
    v1,
    'HorizontalPodAutoscaler',
    'Scales a workload on its pods\' average CPU utilization (autoscaling/v2 has every metric type).',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'HorizontalPodAutoscalerSpec | The autoscaler\'s behaviour.',
      status: 'HorizontalPodAutoscalerStatus | What the autoscaler last observed. Read-only.',
    },
    kindOf('v1', 'HorizontalPodAutoscaler'),
  ),
  struct(v1, 'HorizontalPodAutoscalerList', 'A list of horizontal pod autoscalers.', { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: '[]HorizontalPodAutoscaler! | The autoscalers.' }, kindOf('v1', 'HorizontalPodAutoscalerList')),
  struct(v1, 'HorizontalPodAutoscalerSpec', 'What an autoscaler scales, within which bounds.', {
    scaleTargetRef: 'CrossVersionObjectReference! | The object scaled; it must have a scale subresource.',
    minReplicas: 'i32 | The fewest replicas. Defaults to 1.',
    maxReplicas: 'i32! | The most replicas; at least minReplicas.',
    targetCPUUtilizationPercentage: 'i32 | Target average CPU utilization in percent of the request. Defaults to 80.',
  }),
  crossRef(v1),
  struct(v1, 'HorizontalPodAutoscalerStatus', 'What the autoscaler last observed.', {
    observedGeneration: 'i64 | The generation last observed.',
    lastScaleTime: 'Time | When the replica count last changed.',
    currentReplicas: 'i32! | Replicas as last seen.',
    desiredReplicas: 'i32! | Replicas last computed.',
    currentCPUUtilizationPercentage: 'i32 | The pods\' average CPU utilization in percent of the request.',
  }),
];
