// The zero object of each kind Bulkhead serves: what the field manager compares a create with
// (kube-apiserver's FieldManager.Update against `scope.Creater.New(kind)`, an empty Go struct
// that structured-merge-diff reads by reflection). A path already in the zero object gets no "."
// of its own in the creator's managedFields: a Deployment's `f:spec` and `f:template` have none,
// its `f:rollingUpdate` (a pointer) has one.
// Generated from k8s.io/api v0.33.9's Go types by scripts/zero-objects.py: regenerate, do not edit.

import type { JSONObject } from './json.js';

/** By `<apiVersion>/<kind>`, e.g. `apps/v1/Deployment`, `v1/Pod`. */
export const zeroObjects: Readonly<Record<string, JSONObject>> = {
  'v1/Pod': { metadata: { creationTimestamp: null }, spec: { containers: null }, status: {} },
  'v1/Namespace': { metadata: { creationTimestamp: null }, spec: {}, status: {} },
  'v1/Node': { metadata: { creationTimestamp: null }, spec: {}, status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' } } },
  'v1/ResourceQuota': { metadata: { creationTimestamp: null }, spec: {}, status: {} },
  'v1/LimitRange': { metadata: { creationTimestamp: null }, spec: { limits: null } },
  'v1/ConfigMap': { metadata: { creationTimestamp: null } },
  'v1/Secret': { metadata: { creationTimestamp: null } },
  'v1/Service': { metadata: { creationTimestamp: null }, spec: {}, status: { loadBalancer: {} } },
  'v1/ServiceAccount': { metadata: { creationTimestamp: null } },
  'v1/Event': { metadata: { creationTimestamp: null }, involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' },
  'batch/v1/Job': { metadata: { creationTimestamp: null }, spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: null } } }, status: {} },
  'batch/v1/CronJob': { metadata: { creationTimestamp: null }, spec: { schedule: '', jobTemplate: { metadata: { creationTimestamp: null }, spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: null } } } } }, status: {} },
  'apps/v1/Deployment': { metadata: { creationTimestamp: null }, spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} }, status: {} },
  'apps/v1/ReplicaSet': { metadata: { creationTimestamp: null }, spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } } }, status: { replicas: 0 } },
  'apps/v1/StatefulSet': { metadata: { creationTimestamp: null }, spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, serviceName: '', updateStrategy: {} }, status: { replicas: 0, availableReplicas: 0 } },
  'apps/v1/DaemonSet': { metadata: { creationTimestamp: null }, spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, updateStrategy: {} }, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } },
  'apps/v1/ControllerRevision': { metadata: { creationTimestamp: null }, data: null, revision: 0 },
  'coordination.k8s.io/v1/Lease': { metadata: { creationTimestamp: null }, spec: {} },
  'certificates.k8s.io/v1/CertificateSigningRequest': { metadata: { creationTimestamp: null }, spec: { request: null, signerName: '' }, status: {} },
  'scheduling.k8s.io/v1/PriorityClass': { metadata: { creationTimestamp: null }, value: 0 },
  'node.k8s.io/v1/RuntimeClass': { metadata: { creationTimestamp: null }, handler: '' },
  'policy/v1/PodDisruptionBudget': { metadata: { creationTimestamp: null }, spec: {}, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } },
  'autoscaling/v2/HorizontalPodAutoscaler': { metadata: { creationTimestamp: null }, spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 }, status: { desiredReplicas: 0, currentMetrics: null } },
  'v1/Endpoints': { metadata: { creationTimestamp: null } },
  'discovery.k8s.io/v1/EndpointSlice': { metadata: { creationTimestamp: null }, addressType: '', endpoints: null, ports: null },
  'rbac.authorization.k8s.io/v1/Role': { metadata: { creationTimestamp: null }, rules: null },
  'rbac.authorization.k8s.io/v1/ClusterRole': { metadata: { creationTimestamp: null }, rules: null },
  'rbac.authorization.k8s.io/v1/RoleBinding': { metadata: { creationTimestamp: null }, roleRef: { apiGroup: '', kind: '', name: '' } },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { metadata: { creationTimestamp: null }, roleRef: { apiGroup: '', kind: '', name: '' } },
};
