// The RBAC policy a server starts with (plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// policy.go ClusterRoles and ClusterRoleBindings, as its testdata/cluster-roles.yaml writes them
// out), the part of it that matters to Bulkhead's users: cluster-admin, the aggregated admin,
// edit and view with their system:aggregate-to-* parts, the discovery and self-review roles every
// authenticated user has, system:monitoring, system:auth-delegator and the certificate roles;
// then kubeadm's node bootstrap bindings and the API server's kubelet-client binding, which
// Bulkhead's join and agents rely on. Each object carries the bootstrapping label and the
// autoupdate annotation the reconciler (rbacreconcile.ts) reads.

import { defaultNodeTokenGroup } from '../api/bootstraptoken.js';
import { rbacGroup, type ClusterRole, type ClusterRoleBinding, type PolicyRule, type Subject } from '../api/rbactypes.js';

export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
export const bootstrappingLabel = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
export const aggregateToAdmin = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const aggregateToEdit = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const aggregateToView = 'rbac.authorization.k8s.io/aggregate-to-view';

export const mastersGroup = 'system:masters';
export const authenticatedGroup = 'system:authenticated';
export const unauthenticatedGroup = 'system:unauthenticated';
export const nodesGroup = 'system:nodes';
/** kubeadm's group of the default bootstrap token. */
export const bootstrapTokenGroup = defaultNodeTokenGroup;
/** The API server's identity towards agents (its client certificate's CN; see apiserver/pki.ts). */
export const kubeletClientUser = 'kube-apiserver-kubelet-client';

const readWrite = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

function clusterRole(name: string, rules: PolicyRule[] | null, extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrappingLabel, ...extra.labels }, annotations: { [autoUpdateAnnotation]: 'true' } },
    ...(extra.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } } : {}),
    rules: rules as PolicyRule[],
  };
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroup, name });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbacGroup, name });

function clusterRoleBinding(name: string, role: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrappingLabel }, annotations: { [autoUpdateAnnotation]: 'true' } },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects,
  };
}

const approver = (signer: string) => [rule(['approve'], ['certificates.k8s.io'], ['signers'], [signer])];

/** The cluster roles, as bootstrappolicy.ClusterRoles gives them (sorted by name, as its testdata). */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    clusterRole('admin', null, { aggregateFrom: aggregateToAdmin }),
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('edit', null, { aggregateFrom: aggregateToEdit, labels: { [aggregateToAdmin]: 'true' } }),
    clusterRole('system:aggregate-to-admin', [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(readWrite, [rbacGroup], ['rolebindings', 'roles']),
    ], { labels: { [aggregateToAdmin]: 'true' } }),
    clusterRole('system:aggregate-to-edit', [
      rule(read, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(write, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(write, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(write, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
      rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(write, ['batch'], ['cronjobs', 'jobs']),
      rule(write, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
      rule(write, ['policy'], ['poddisruptionbudgets']),
      rule(write, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
    ], { labels: { [aggregateToEdit]: 'true' } }),
    clusterRole('system:aggregate-to-view', [
      rule(read, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
      rule(read, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
      rule(read, [''], ['namespaces']),
      rule(read, ['discovery.k8s.io'], ['endpointslices']),
      rule(read, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
      rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ], { labels: { [aggregateToView]: 'true' } }),
    clusterRole('system:auth-delegator', [rule(['create'], ['authentication.k8s.io'], ['tokenreviews']), rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])]),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])]),
    // Not upstream's: Bulkhead approves a node's serving certificate too (api/certificates.ts approvalRules).
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeserving', [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeserving'])]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', approver('kubernetes.io/kube-apiserver-client')),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', approver('kubernetes.io/kube-apiserver-client-kubelet')),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', approver('kubernetes.io/kubelet-serving')),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', approver('kubernetes.io/legacy-unknown')),
    clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
    // The agents ask for every part of the kubelet API Bulkhead's endpoint serves (with
    // KubeletFineGrainedAuthz's nodes/pods, nodes/healthz and nodes/configz, and nodes/spec).
    clusterRole('system:kubelet-api-admin', [
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['proxy'], [''], ['nodes']),
      rule(['*'], [''], ['nodes/proxy', 'nodes/metrics', 'nodes/spec', 'nodes/stats', 'nodes/log', 'nodes/pods', 'nodes/healthz', 'nodes/configz']),
    ]),
    clusterRole('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
    clusterRole('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])]),
    clusterRole('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
    clusterRole('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
    clusterRole('view', null, { aggregateFrom: aggregateToView, labels: { [aggregateToEdit]: 'true' } }),
  ];
}

/** The cluster role bindings: bootstrappolicy.ClusterRoleBindings' that bind the roles above, then kubeadm's and Bulkhead's. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group(mastersGroup)]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group(authenticatedGroup)]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group(authenticatedGroup)]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group(authenticatedGroup), group(unauthenticatedGroup)]),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    // kubeadm's bindings for nodes that join with a bootstrap token (phases/bootstraptoken/node):
    // the token's group may ask for a node client certificate and have it approved, and a node
    // may have its own client certificate renewed; Bulkhead adds the same for its serving one.
    clusterRoleBinding('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', [group(bootstrapTokenGroup)]),
    clusterRoleBinding('kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', [group(bootstrapTokenGroup)]),
    clusterRoleBinding('kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [group(nodesGroup)]),
    clusterRoleBinding('bulkhead:node-autoapprove-serving', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeserving', [group(nodesGroup)]),
    // kubeadm binds system:kubelet-api-admin to the API server's kubelet client identity.
    clusterRoleBinding('system:kube-apiserver-kubelet-client', 'system:kubelet-api-admin', [user(kubeletClientUser)]),
  ];
}
