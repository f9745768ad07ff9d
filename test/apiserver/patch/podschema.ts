// A small hand-made SchemaView for Pod-like objects, carrying the same patch metadata as the
// real core/v1 OpenAPI (x-kubernetes-patch-strategy/-merge-key, list types, map types), for
// the patch tests. The real one is schemaView('io.k8s.api.core.v1.Pod') in src/api/schema.

import type { SchemaView } from '../../../src/api/schema/view.js';

export type Extra = {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: readonly string[];
  mapType?: 'atomic' | 'granular';
  /** OpenAPI default (read for list-map keys, e.g. ContainerPort.protocol "TCP"). */
  default?: unknown;
};

type Lazy = SchemaView | (() => SchemaView);

const force = (l: Lazy | undefined): SchemaView | undefined => (typeof l === 'function' ? l() : l);

export function obj(props: Record<string, Lazy>, extra: Extra = {}): SchemaView {
  return {
    type: 'object',
    property: (n) => (Object.prototype.hasOwnProperty.call(props, n) ? force(props[n]) : undefined),
    elements: () => undefined,
    ...extra,
  };
}

export function arr(elem: Lazy, extra: Extra = {}): SchemaView {
  return { type: 'array', property: () => undefined, elements: () => force(elem), ...extra };
}

export function map(elem: Lazy, extra: Extra = {}): SchemaView {
  return { type: 'map', property: () => undefined, elements: () => force(elem), ...extra };
}

export function scalar(type: 'string' | 'integer' | 'number' | 'boolean', extra: Extra = {}): SchemaView {
  return { type, property: () => undefined, elements: () => undefined, ...extra };
}

export const any: SchemaView = { type: 'any', property: () => undefined, elements: () => undefined };
export const str = scalar('string');
export const int = scalar('integer');
export const bool = scalar('boolean');

/** A merging list keyed by `key` (patchStrategy merge + listType map), as core/v1 declares most. */
const mergeList = (elem: Lazy, key: string, extra: Extra = {}): SchemaView =>
  arr(elem, { patchStrategy: 'merge', patchMergeKey: key, listType: 'map', listMapKeys: [key], ...extra });

const ownerReference = obj({ apiVersion: str, kind: str, name: str, uid: str, controller: bool, blockOwnerDeletion: bool });

const managedFieldsEntry = obj({ manager: str, operation: str, apiVersion: str, time: str, fieldsType: str, fieldsV1: any, subresource: str });

export const objectMeta = obj({
  name: str,
  generateName: str,
  namespace: str,
  uid: str,
  resourceVersion: str,
  generation: int,
  creationTimestamp: str,
  deletionTimestamp: str,
  deletionGracePeriodSeconds: int,
  labels: map(str),
  annotations: map(str),
  finalizers: arr(str, { patchStrategy: 'merge', listType: 'set' }),
  ownerReferences: mergeList(ownerReference, 'uid'),
  managedFields: arr(managedFieldsEntry, { listType: 'atomic' }),
});

const containerPort = obj({ name: str, hostPort: int, containerPort: int, protocol: scalar('string', { default: 'TCP' }), hostIP: str });
const envVar = obj({ name: str, value: str, valueFrom: any });
const volumeMount = obj({ name: str, readOnly: bool, mountPath: str, subPath: str, mountPropagation: str });
const ulimit = obj({ name: str, soft: int, hard: int });

const securityContext = obj({
  capabilities: obj({ add: arr(str, { listType: 'atomic' }), drop: arr(str, { listType: 'atomic' }) }),
  privileged: bool,
  runAsUser: int,
  runAsGroup: int,
  runAsNonRoot: bool,
  readOnlyRootFilesystem: bool,
  allowPrivilegeEscalation: bool,
  seccompProfile: obj({ type: str, localhostProfile: str }),
  ulimits: arr(ulimit, { listType: 'map', listMapKeys: ['name'] }),
});

export const container = obj({
  name: str,
  image: str,
  command: arr(str, { listType: 'atomic' }),
  args: arr(str, { listType: 'atomic' }),
  workingDir: str,
  ports: arr(containerPort, { patchStrategy: 'merge', patchMergeKey: 'containerPort', listType: 'map', listMapKeys: ['containerPort', 'protocol'] }),
  envFrom: arr(any, { listType: 'atomic' }),
  env: mergeList(envVar, 'name'),
  resources: obj({ limits: map(any), requests: map(any), claims: arr(obj({ name: str, request: str }), { listType: 'map', listMapKeys: ['name'] }) }),
  volumeMounts: mergeList(volumeMount, 'mountPath'),
  livenessProbe: any,
  readinessProbe: any,
  startupProbe: any,
  terminationMessagePath: str,
  terminationMessagePolicy: str,
  imagePullPolicy: str,
  securityContext,
  stdin: bool,
  tty: bool,
});

const volume = obj({ name: str, hostPath: any, emptyDir: any, secret: any, configMap: any, persistentVolumeClaim: any, projected: any });

const toleration = obj({ key: str, operator: str, value: str, effect: str, tolerationSeconds: int });

export const podSpec = obj({
  volumes: arr(volume, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }),
  initContainers: mergeList(container, 'name'),
  containers: mergeList(container, 'name'),
  ephemeralContainers: mergeList(container, 'name'),
  restartPolicy: str,
  terminationGracePeriodSeconds: int,
  activeDeadlineSeconds: int,
  dnsPolicy: str,
  nodeSelector: map(str, { mapType: 'atomic' }),
  serviceAccountName: str,
  serviceAccount: str,
  nodeName: str,
  hostNetwork: bool,
  securityContext: obj({ runAsUser: int, runAsNonRoot: bool, fsGroup: int, supplementalGroups: arr(int, { listType: 'atomic' }), sysctls: arr(obj({ name: str, value: str }), { listType: 'atomic' }) }),
  imagePullSecrets: mergeList(obj({ name: str }), 'name'),
  hostname: str,
  subdomain: str,
  affinity: any,
  schedulerName: str,
  tolerations: arr(toleration, { listType: 'atomic' }),
  priorityClassName: str,
  priority: int,
  enableServiceLinks: bool,
  preemptionPolicy: str,
});

const podCondition = obj({ type: str, status: str, lastProbeTime: str, lastTransitionTime: str, reason: str, message: str });

export const podStatus = obj({
  phase: str,
  conditions: mergeList(podCondition, 'type'),
  message: str,
  reason: str,
  hostIP: str,
  podIP: str,
  podIPs: mergeList(obj({ ip: str }), 'ip'),
  startTime: str,
  containerStatuses: arr(any, { listType: 'atomic' }),
  qosClass: str,
});

export const podSchema: SchemaView = obj({ apiVersion: str, kind: str, metadata: objectMeta, spec: podSpec, status: podStatus });
