// The resources the API server serves: names kubectl discovers (plural, singular, short
// names, categories), scope, verbs, subresources, and the fields each one can be selected by.

import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerV1, KubeObject } from '../api/types.js';
import { hpaV1ToV2, hpaV2ToV1 } from '../api/autoscalingdefaults.js';

export interface SubresourceDef {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

export interface ResourceDef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  verbs: string[];
  subresources: SubresourceDef[];
  /** Field selector values of an object (metadata.name and metadata.namespace always). */
  fields(obj: KubeObject): Record<string, string>;
  /**
   * The kind's field label conversion (scheme.AddFieldLabelConversionFunc): the labels a field
   * selector may name, each mapped to the field it selects, and the error for any other. Absent:
   * DefaultMetaV1FieldSelectorConversion (metadata.name and metadata.namespace only).
   */
  fieldLabels?: FieldLabelConversion;
  /**
   * A version served by conversion from the one stored (autoscaling/v1 HorizontalPodAutoscaler
   * from autoscaling/v2): the Api converts each object read and each body written.
   */
  convert?: ResourceConversion;
}

export interface ResourceConversion {
  storageVersion: string;
  toStorage(obj: KubeObject): KubeObject;
  fromStorage(obj: KubeObject): KubeObject;
}

export interface FieldLabelConversion {
  labels: Record<string, string>;
  unsupported(label: string): string;
}

/** A conversion func that accepts `labels` as they are and refuses the rest with `field label not supported: <label>`. */
function fieldLabelsNotSupported(labels: string[], aliases: Record<string, string> = {}): FieldLabelConversion {
  return {
    labels: { ...Object.fromEntries(labels.map((l) => [l, l])), ...aliases },
    unsupported: (label) => `field label not supported: ${label}`,
  };
}

/**
 * ConvertFieldLabel for a kind: the field a selector's label stands for, or the error text the
 * API server answers 400 with.
 */
export function convertFieldLabel(def: ResourceDef, label: string): { field: string } | { error: string } {
  if (def.fieldLabels) {
    const field = Object.hasOwn(def.fieldLabels.labels, label) ? def.fieldLabels.labels[label] : undefined;
    return field !== undefined ? { field } : { error: def.fieldLabels.unsupported(label) };
  }
  if (label === 'metadata.name' || label === 'metadata.namespace') return { field: label };
  return { error: `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"` };
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function metaFields(o: KubeObject): Record<string, string> {
  return { 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export const resources: ResourceDef[] = [
  {
    group: '', version: 'v1', resource: 'pods', kind: 'Pod', listKind: 'PodList', singular: 'pod', shortNames: ['po'], categories: ['all'],
    namespaced: true, verbs: allVerbs,
    subresources: [
      { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
      { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
    ],
    fields: (o: any) => ({
      ...metaFields(o),
      'spec.nodeName': o.spec?.nodeName ?? '',
      'spec.restartPolicy': o.spec?.restartPolicy ?? '',
      'spec.schedulerName': o.spec?.schedulerName ?? '',
      'spec.serviceAccountName': o.spec?.serviceAccountName ?? '',
      'spec.hostNetwork': String(!!o.spec?.hostNetwork),
      'status.phase': o.status?.phase ?? '',
      // The internal object's PodIPs[0] (ToSelectableFields): v1's podIPs[0], or podIP when a client sent only that.
      'status.podIP': o.status?.podIPs?.[0]?.ip ?? o.status?.podIP ?? '',
      'status.nominatedNodeName': o.status?.nominatedNodeName ?? '',
    }),
    // pkg/apis/core/v1/conversion.go; spec.host is what old v1 clients send for spec.nodeName.
    fieldLabels: fieldLabelsNotSupported(
      ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
      { 'spec.host': 'spec.nodeName' },
    ),
  },
  {
    group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', listKind: 'NamespaceList', singular: 'namespace', shortNames: ['ns'], categories: [],
    namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [
      { name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
      { name: 'finalize', kind: 'Namespace', verbs: ['update'] },
    ],
    fields: (o: any) => ({ ...metaFields(o), 'status.phase': o.status?.phase ?? '' }),
    fieldLabels: fieldLabelsNotSupported(['status.phase', 'metadata.name']),
  },
  {
    group: '', version: 'v1', resource: 'nodes', kind: 'Node', listKind: 'NodeList', singular: 'node', shortNames: ['no'], categories: [],
    namespaced: false, verbs: allVerbs,
    subresources: [{ name: 'proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] }, { name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
    fields: (o: any) => ({ ...metaFields(o), 'spec.unschedulable': String(!!o.spec?.unschedulable) }),
    fieldLabels: fieldLabelsNotSupported(['metadata.name', 'spec.unschedulable']),
  },
  {
    group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', listKind: 'ResourceQuotaList', singular: 'resourcequota', shortNames: ['quota'], categories: [],
    namespaced: true, verbs: allVerbs,
    subresources: [{ name: 'status', kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] }],
    fields: metaFields,
  },
  {
    group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', listKind: 'LimitRangeList', singular: 'limitrange', shortNames: ['limits'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', listKind: 'ConfigMapList', singular: 'configmap', shortNames: ['cm'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: '', version: 'v1', resource: 'secrets', kind: 'Secret', listKind: 'SecretList', singular: 'secret', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [],
    fields: (o: any) => ({ ...metaFields(o), type: o.type ?? '' }),
    fieldLabels: fieldLabelsNotSupported(['type', 'metadata.namespace', 'metadata.name']),
  },
  {
    group: '', version: 'v1', resource: 'services', kind: 'Service', listKind: 'ServiceList', singular: 'service', shortNames: ['svc'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'] }],
    fields: (o: any) => ({ ...metaFields(o), 'spec.clusterIP': o.spec?.clusterIP ?? '', 'spec.type': o.spec?.type ?? '' }),
    fieldLabels: fieldLabelsNotSupported(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type']),
  },
  {
    group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', listKind: 'EndpointsList', singular: 'endpoints', shortNames: ['ep'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', listKind: 'ServiceAccountList', singular: 'serviceaccount', shortNames: ['sa'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }], fields: metaFields,
  },
  {
    group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', listKind: 'JobList', singular: 'job', shortNames: [], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'Job', verbs: ['get', 'patch', 'update'] }],
    fields: (o: any) => ({ ...metaFields(o), 'status.successful': String(o.status?.succeeded ?? 0) }),
    // pkg/apis/batch/v1/conversion.go
    fieldLabels: {
      labels: { 'metadata.name': 'metadata.name', 'metadata.namespace': 'metadata.namespace', 'status.successful': 'status.successful' },
      unsupported: (label) => `field label ${JSON.stringify(label)} not supported for batchv1.Job`,
    },
  },
  {
    group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', listKind: 'CronJobList', singular: 'cronjob', shortNames: ['cj'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'CronJob', verbs: ['get', 'patch', 'update'] }], fields: metaFields,
  },
  {
    group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', listKind: 'DeploymentList', singular: 'deployment', shortNames: ['deploy'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] }, { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'] }],
    fields: metaFields,
  },
  {
    group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', listKind: 'ReplicaSetList', singular: 'replicaset', shortNames: ['rs'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] }, { name: 'status', kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] }],
    fields: (o: any) => ({ ...metaFields(o), 'status.replicas': String(o.status?.replicas ?? 0) }),
  },
  {
    group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', listKind: 'StatefulSetList', singular: 'statefulset', shortNames: ['sts'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] }, { name: 'status', kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] }],
    fields: metaFields,
  },
  {
    group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', listKind: 'DaemonSetList', singular: 'daemonset', shortNames: ['ds'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'DaemonSet', verbs: ['get', 'patch', 'update'] }], fields: metaFields,
  },
  {
    group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision', listKind: 'ControllerRevisionList', singular: 'controllerrevision', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: '', version: 'v1', resource: 'events', kind: 'Event', listKind: 'EventList', singular: 'event', shortNames: ['ev'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [],
    fields: (o: any) => ({
      ...metaFields(o),
      'involvedObject.kind': o.involvedObject?.kind ?? '',
      'involvedObject.namespace': o.involvedObject?.namespace ?? '',
      'involvedObject.name': o.involvedObject?.name ?? '',
      'involvedObject.uid': o.involvedObject?.uid ?? '',
      'involvedObject.apiVersion': o.involvedObject?.apiVersion ?? '',
      'involvedObject.resourceVersion': o.involvedObject?.resourceVersion ?? '',
      'involvedObject.fieldPath': o.involvedObject?.fieldPath ?? '',
      reason: o.reason ?? '',
      reportingComponent: o.reportingComponent ?? '',
      source: o.source?.component ?? '',
      type: o.type ?? '',
    }),
    fieldLabels: fieldLabelsNotSupported([
      'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
      'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type', 'metadata.namespace', 'metadata.name',
    ]),
  },
  {
    group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', listKind: 'LeaseList', singular: 'lease', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', listKind: 'CertificateSigningRequestList', singular: 'certificatesigningrequest', shortNames: ['csr'], categories: [],
    namespaced: false, verbs: allVerbs,
    subresources: [
      { name: 'approval', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
    ],
    fields: (o: any) => ({ ...metaFields(o), 'spec.signerName': o.spec?.signerName ?? '' }),
    fieldLabels: fieldLabelsNotSupported(['metadata.name', 'spec.signerName']),
  },
  {
    group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', listKind: 'PriorityClassList', singular: 'priorityclass', shortNames: ['pc'], categories: [],
    namespaced: false, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses', kind: 'RuntimeClass', listKind: 'RuntimeClassList', singular: 'runtimeclass', shortNames: [], categories: [],
    namespaced: false, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  // rbac.authorization.k8s.io/v1 (rbacstrategies.ts): what the RBAC authorizer decides from.
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', listKind: 'ClusterRoleBindingList', singular: 'clusterrolebinding', shortNames: [], categories: [],
    namespaced: false, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', listKind: 'ClusterRoleList', singular: 'clusterrole', shortNames: [], categories: [],
    namespaced: false, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', listKind: 'RoleBindingList', singular: 'rolebinding', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', listKind: 'RoleList', singular: 'role', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', listKind: 'EndpointSliceList', singular: 'endpointslice', shortNames: [], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [], fields: metaFields,
  },
  {
    group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', listKind: 'PodDisruptionBudgetList', singular: 'poddisruptionbudget', shortNames: ['pdb'], categories: [],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'PodDisruptionBudget', verbs: ['get', 'patch', 'update'] }], fields: metaFields,
  },
  // autoscaling/v2 is stored and preferred (listed first: discovery's preferred version, and
  // what Api.def finds); v1 is served by conversion, as kube-apiserver serves both.
  {
    group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', listKind: 'HorizontalPodAutoscalerList', singular: 'horizontalpodautoscaler', shortNames: ['hpa'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }], fields: metaFields,
  },
  {
    group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', listKind: 'HorizontalPodAutoscalerList', singular: 'horizontalpodautoscaler', shortNames: ['hpa'], categories: ['all'],
    namespaced: true, verbs: allVerbs, subresources: [{ name: 'status', kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }], fields: metaFields,
    convert: {
      storageVersion: 'v2',
      toStorage: (o) => hpaV1ToV2(o as HorizontalPodAutoscalerV1),
      fromStorage: (o) => hpaV2ToV1(o as HorizontalPodAutoscaler),
    },
  },
  // Create-only and never stored (accessreviews.ts answers them), as upstream's review REST.
  {
    group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', listKind: 'LocalSubjectAccessReviewList', singular: 'localsubjectaccessreview', shortNames: [], categories: [],
    namespaced: true, verbs: ['create'], subresources: [], fields: metaFields,
  },
  {
    group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', listKind: 'SelfSubjectAccessReviewList', singular: 'selfsubjectaccessreview', shortNames: [], categories: [],
    namespaced: false, verbs: ['create'], subresources: [], fields: metaFields,
  },
  {
    group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', listKind: 'SelfSubjectRulesReviewList', singular: 'selfsubjectrulesreview', shortNames: [], categories: [],
    namespaced: false, verbs: ['create'], subresources: [], fields: metaFields,
  },
  {
    group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', listKind: 'SelfSubjectReviewList', singular: 'selfsubjectreview', shortNames: [], categories: [],
    namespaced: false, verbs: ['create'], subresources: [], fields: metaFields,
  },
  {
    group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', listKind: 'SubjectAccessReviewList', singular: 'subjectaccessreview', shortNames: [], categories: [],
    namespaced: false, verbs: ['create'], subresources: [], fields: metaFields,
  },
  {
    group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', listKind: 'TokenReviewList', singular: 'tokenreview', shortNames: [], categories: [],
    namespaced: false, verbs: ['create'], subresources: [], fields: metaFields,
  },
  // Served from the agents' readings, never stored (metricsapi.ts), as metrics-server's aggregated API.
  {
    group: 'metrics.k8s.io', version: 'v1beta1', resource: 'nodes', kind: 'NodeMetrics', listKind: 'NodeMetricsList', singular: '', shortNames: [], categories: [],
    namespaced: false, verbs: ['get', 'list'], subresources: [], fields: metaFields,
  },
  {
    group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', kind: 'PodMetrics', listKind: 'PodMetricsList', singular: '', shortNames: [], categories: [],
    namespaced: true, verbs: ['get', 'list'], subresources: [], fields: metaFields,
  },
];

export function groupVersion(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function findResource(group: string, version: string, resource: string): ResourceDef | undefined {
  return resources.find((r) => r.group === group && r.version === version && r.resource === resource);
}

/** Storage key of an object; the collection prefix when `name` is omitted. */
export function storageKey(r: ResourceDef, namespace: string | undefined, name?: string): string {
  const base = `/registry/${r.group ? `${r.group}/` : ''}${r.resource}/`;
  if (r.namespaced) {
    if (namespace === undefined) return base;
    return name === undefined ? `${base}${namespace}/` : `${base}${namespace}/${name}`;
  }
  return name === undefined ? base : `${base}${name}`;
}
