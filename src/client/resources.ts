// The kinds the controllers and the node agent read and write, as ResourceRefs (client-go's
// schema.GroupVersionResource with the kind and scope beside it), and the REST path of each.

import type { ResourceRef } from './interface.js';

const core = (resource: string, kind: string, namespaced = true): ResourceRef => ({ group: '', version: 'v1', resource, kind, namespaced });

export const podsRef = core('pods', 'Pod');
export const nodesRef = core('nodes', 'Node', false);
export const namespacesRef = core('namespaces', 'Namespace', false);
export const serviceAccountsRef = core('serviceaccounts', 'ServiceAccount');
export const resourceQuotasRef = core('resourcequotas', 'ResourceQuota');
export const eventsRef = core('events', 'Event');
export const replicaSetsRef: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true };
export const deploymentsRef: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
export const configMapsRef = core('configmaps', 'ConfigMap');
export const secretsRef = core('secrets', 'Secret');
/** The node agent's runtime handlers by class name (the kubelet's RuntimeClass manager). */
export const runtimeClassesRef: ResourceRef = { group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false };
/** The node agent's heartbeat (kube-node-lease). */
export const servicesRef: ResourceRef = { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true };
export const leasesRef: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true };

/** `/api/v1` or `/apis/GROUP/VERSION`. */
export function groupVersionPath(ref: { group: string; version: string }): string {
  return ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`;
}

/** The path of a collection, an object, or one of its subresources. */
export function resourcePath(ref: ResourceRef, namespace: string | undefined, name?: string, subresource?: string): string {
  let p = groupVersionPath(ref);
  if (ref.namespaced && namespace !== undefined) p += `/namespaces/${encodeURIComponent(namespace)}`;
  p += `/${ref.resource}`;
  if (name !== undefined) p += `/${encodeURIComponent(name)}`;
  if (subresource) p += `/${subresource}`;
  return p;
}

/** `apiVersion` of a kind's objects. */
export function apiVersionOf(ref: { group: string; version: string }): string {
  return ref.group ? `${ref.group}/${ref.version}` : ref.version;
}

const apps = (resource: string, kind: string): ResourceRef => ({ group: 'apps', version: 'v1', resource, kind, namespaced: true });
export const statefulSetsRef = apps('statefulsets', 'StatefulSet');
export const daemonSetsRef = apps('daemonsets', 'DaemonSet');
export const controllerRevisionsRef = apps('controllerrevisions', 'ControllerRevision');
export const persistentVolumeClaimsRef = core('persistentvolumeclaims', 'PersistentVolumeClaim');
export const jobsRef: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true };
export const cronJobsRef: ResourceRef = { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true };
/** What a delegating server asks the API server (the agent's endpoint, as the kubelet's webhook authn/authz). */
export const tokenReviewsRef: ResourceRef = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false };
export const subjectAccessReviewsRef: ResourceRef = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false };
/** How a joining node asks for its certificates (certificates.k8s.io/v1). */
export const certificateSigningRequestsRef: ResourceRef = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false };
export const podDisruptionBudgetsRef: ResourceRef = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true };
export const endpointsRef = core('endpoints', 'Endpoints');
export const endpointSlicesRef: ResourceRef = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true };
/** The cluster roles the aggregation controller reads and writes. */
export const clusterRolesRef: ResourceRef = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false };
