// The RBAC policy a server starts with (plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// policy.go ClusterRoles and ClusterRoleBindings, namespace_policy.go NamespaceRoles and
// NamespaceRoleBindings, and controller_policy.go's roles in rbaccontrollerroles.ts, as
// testdata/*.yaml writes them out with v1.32's default feature gates), written with upstream's
// builders (rbacpolicybuilders.ts); then kubeadm's node bootstrap bindings and the API server's
// kubelet-client binding, which Bulkhead's join and agents rely on. Every object carries the
// bootstrapping label and the autoupdate annotation the reconciler (rbacreconcile.ts) reads.

import { defaultNodeTokenGroup } from '../api/bootstraptoken.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/rbactypes.js';
import { controllerRoleBindings, controllerRoles } from './rbaccontrollerroles.js';
import {
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  groups,
  read,
  readUpdate,
  readWrite,
  role,
  roleBinding,
  rule,
  serviceAccounts,
  urlRule,
  users,
  write,
} from './rbacpolicybuilders.js';

export { autoUpdateAnnotation, bootstrappingLabel } from './rbacpolicybuilders.js';
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

const core = [''];
const authentication = ['authentication.k8s.io'];
const authorization = ['authorization.k8s.io'];
const certificates = ['certificates.k8s.io'];
const coordination = ['coordination.k8s.io'];
const storage = ['storage.k8s.io'];
const rbac = ['rbac.authorization.k8s.io'];

/** NodeRules (v1.32's default gates: no DRA or ClusterTrustBundle rules). */
function nodeRules() {
  return [
    rule(['create'], authentication, ['tokenreviews']),
    rule(['create'], authorization, ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(read, core, ['services']),
    rule(['create', 'get', 'list', 'watch'], core, ['nodes']),
    rule(['update', 'patch'], core, ['nodes/status']),
    rule(['update', 'patch'], core, ['nodes']),
    rule(['create', 'update', 'patch'], core, ['events']),
    rule(read, core, ['pods']),
    rule(['create', 'delete'], core, ['pods']),
    rule(['update', 'patch'], core, ['pods/status']),
    rule(['create'], core, ['pods/eviction']),
    rule(['get', 'list', 'watch'], core, ['secrets', 'configmaps']),
    rule(['get'], core, ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], core, ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], certificates, ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], coordination, ['leases']),
    rule(['get', 'watch'], storage, ['volumeattachments']),
    rule(['create'], core, ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], core, ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], storage, ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], storage, ['csinodes']),
    rule(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
  ];
}

const approver = (signer: string) => [rule(['approve'], certificates, ['signers'], [signer])];

/** bootstrappolicy.ClusterRoles, in its order, with Bulkhead's one addition. */
function upstreamClusterRoles(): ClusterRole[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
    clusterRole('system:discovery', [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
    clusterRole('system:monitoring', [urlRule(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    clusterRole('system:basic-user', [
      rule(['create'], authorization, ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], authentication, ['selfsubjectreviews']),
    ]),
    clusterRole('system:public-info-viewer', [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    clusterRole('admin', null, { aggregateFrom: aggregateToAdmin }),
    clusterRole('edit', null, { aggregateFrom: aggregateToEdit, labels: { [aggregateToAdmin]: 'true' } }),
    clusterRole('view', null, { aggregateFrom: aggregateToView, labels: { [aggregateToEdit]: 'true' } }),
    clusterRole('system:aggregate-to-admin', [
      rule(['create'], authorization, ['localsubjectaccessreviews']),
      rule(readWrite, rbac, ['roles', 'rolebindings']),
    ], { labels: { [aggregateToAdmin]: 'true' } }),
    clusterRole('system:aggregate-to-edit', [
      rule(read, core, ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
      rule(['impersonate'], core, ['serviceaccounts']),
      rule(write, core, ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
      rule(['create'], core, ['pods/eviction']),
      rule(write, core, ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
      rule(['create'], core, ['serviceaccounts/token']),
      rule(write, ['apps'], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
      rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(write, ['batch'], ['jobs', 'cronjobs']),
      rule(write, ['extensions'], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(write, ['policy'], ['poddisruptionbudgets']),
      rule(write, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
      rule(readWrite, coordination, ['leases']),
    ], { labels: { [aggregateToEdit]: 'true' } }),
    clusterRole('system:aggregate-to-view', [
      rule(read, core, ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
      rule(read, core, ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
      rule(read, core, ['namespaces']),
      rule(read, ['discovery.k8s.io'], ['endpointslices']),
      rule(read, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
      rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(read, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
      rule(read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(read, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
    ], { labels: { [aggregateToView]: 'true' } }),
    clusterRole('system:heapster', [
      rule(read, core, ['events', 'pods', 'nodes', 'namespaces']),
      rule(read, ['extensions'], ['deployments']),
    ]),
    clusterRole('system:node', nodeRules()),
    clusterRole('system:node-problem-detector', [
      rule(['get'], core, ['nodes']),
      rule(['patch'], core, ['nodes/status']),
      eventsRule(),
    ]),
    // Not upstream's last rule alone: the agents also ask for nodes/spec and, as with
    // KubeletFineGrainedAuthz, nodes/pods, nodes/healthz and nodes/configz (the kubelet API
    // Bulkhead's endpoint serves).
    clusterRole('system:kubelet-api-admin', [
      rule(['get', 'list', 'watch'], core, ['nodes']),
      rule(['proxy'], core, ['nodes']),
      rule(['*'], core, ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log', 'nodes/spec', 'nodes/pods', 'nodes/healthz', 'nodes/configz']),
    ]),
    clusterRole('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], certificates, ['certificatesigningrequests'])]),
    clusterRole('system:auth-delegator', [
      rule(['create'], authentication, ['tokenreviews']),
      rule(['create'], authorization, ['subjectaccessreviews']),
    ]),
    clusterRole('system:kube-aggregator', [rule(read, core, ['services', 'endpoints'])]),
    clusterRole('system:kube-controller-manager', [
      eventsRule(),
      rule(['create'], coordination, ['leases']),
      rule(['get', 'update'], coordination, ['leases'], ['kube-controller-manager']),
      rule(['create'], core, ['secrets', 'serviceaccounts']),
      rule(['delete'], core, ['secrets']),
      rule(['get'], core, ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      rule(['update'], core, ['secrets', 'serviceaccounts']),
      rule(['create'], authentication, ['tokenreviews']),
      rule(['create'], authorization, ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], core, ['serviceaccounts/token']),
    ]),
    clusterRole('system:kube-dns', [rule(['list', 'watch'], core, ['endpoints', 'services'])]),
    clusterRole('system:persistent-volume-provisioner', [
      rule(['get', 'list', 'watch', 'create', 'delete'], core, ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], core, ['persistentvolumeclaims']),
      rule(read, storage, ['storageclasses']),
      rule(['watch'], core, ['events']),
      eventsRule(),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule(['create'], certificates, ['certificatesigningrequests/nodeclient'])]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule(['create'], certificates, ['certificatesigningrequests/selfnodeclient'])]),
    // Not upstream's: Bulkhead approves a node's serving certificate too (api/certificates.ts approvalRules).
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeserving', [rule(['create'], certificates, ['certificatesigningrequests/selfnodeserving'])]),
    clusterRole('system:volume-scheduler', [
      rule(readUpdate, core, ['persistentvolumes']),
      rule(read, storage, ['storageclasses']),
      rule(readUpdate, core, ['persistentvolumeclaims']),
    ]),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', approver('kubernetes.io/legacy-unknown')),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', approver('kubernetes.io/kubelet-serving')),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', approver('kubernetes.io/kube-apiserver-client')),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', approver('kubernetes.io/kube-apiserver-client-kubelet')),
    // The slash-ended URLs too, for clients generated from OpenAPI documents that had them.
    clusterRole('system:service-account-issuer-discovery', [urlRule(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])]),
    clusterRole('system:node-proxier', [
      rule(['list', 'watch'], core, ['services', 'endpoints']),
      rule(['get', 'list', 'watch'], core, ['nodes']),
      eventsRule(),
      rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ]),
    clusterRole('system:kube-scheduler', [
      eventsRule(),
      rule(['create'], coordination, ['leases']),
      rule(['get', 'update', 'list', 'watch'], coordination, ['leases'], ['kube-scheduler']),
      rule(readWrite, coordination, ['leasecandidates']),
      rule(read, core, ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], core, ['pods']),
      rule(['create'], core, ['pods/binding', 'bindings']),
      rule(['patch', 'update'], core, ['pods/status']),
      rule(read, core, ['services', 'replicationcontrollers']),
      rule(read, ['apps', 'extensions'], ['replicasets']),
      rule(read, ['apps'], ['statefulsets']),
      rule(read, ['policy'], ['poddisruptionbudgets']),
      rule(read, core, ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], authentication, ['tokenreviews']),
      rule(['create'], authorization, ['subjectaccessreviews']),
      rule(read, storage, ['csinodes']),
      rule(read, core, ['namespaces']),
      rule(read, storage, ['csidrivers']),
      rule(read, storage, ['csistoragecapacities']),
    ]),
  ];
}

/** EnsureRBACPolicy's cluster roles: bootstrappolicy.ClusterRoles, then ControllerRoles. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [...upstreamClusterRoles(), ...controllerRoles()];
}

/**
 * EnsureRBACPolicy's cluster role bindings: bootstrappolicy.ClusterRoleBindings, ControllerRoleBindings,
 * then kubeadm's and Bulkhead's.
 */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterRoleBinding('cluster-admin', groups(mastersGroup)),
    clusterRoleBinding('system:monitoring', groups('system:monitoring')),
    clusterRoleBinding('system:discovery', groups(authenticatedGroup)),
    clusterRoleBinding('system:basic-user', groups(authenticatedGroup)),
    clusterRoleBinding('system:public-info-viewer', groups(authenticatedGroup, unauthenticatedGroup)),
    clusterRoleBinding('system:node-proxier', users('system:kube-proxy')),
    clusterRoleBinding('system:kube-controller-manager', users('system:kube-controller-manager')),
    clusterRoleBinding('system:kube-dns', serviceAccounts('kube-system', 'kube-dns')),
    clusterRoleBinding('system:kube-scheduler', users('system:kube-scheduler')),
    clusterRoleBinding('system:volume-scheduler', users('system:kube-scheduler')),
    // Deprecated since the Node authorizer: kept without subjects, so that reconciling removes none.
    clusterRoleBinding('system:node', []),
    clusterRoleBinding('system:service-account-issuer-discovery', groups('system:serviceaccounts')),
    ...controllerRoleBindings(),
    // kubeadm's bindings for nodes that join with a bootstrap token (phases/bootstraptoken/node):
    // the token's group may ask for a node client certificate and have it approved, and a node
    // may have its own client certificate renewed; Bulkhead adds the same for its serving one.
    clusterRoleBinding('system:node-bootstrapper', groups(bootstrapTokenGroup), 'kubeadm:kubelet-bootstrap'),
    clusterRoleBinding('system:certificates.k8s.io:certificatesigningrequests:nodeclient', groups(bootstrapTokenGroup), 'kubeadm:node-autoapprove-bootstrap'),
    clusterRoleBinding('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', groups(nodesGroup), 'kubeadm:node-autoapprove-certificate-rotation'),
    clusterRoleBinding('system:certificates.k8s.io:certificatesigningrequests:selfnodeserving', groups(nodesGroup), 'bulkhead:node-autoapprove-serving'),
    // kubeadm binds system:kubelet-api-admin to the API server's kubelet client identity.
    clusterRoleBinding('system:kubelet-api-admin', users(kubeletClientUser), 'system:kube-apiserver-kubelet-client'),
  ];
}

/** NamespaceRoles (namespace_policy.go): the kube-system and kube-public roles. */
export function bootstrapNamespaceRoles(): Role[] {
  return [
    role('kube-system', 'extension-apiserver-authentication-reader', [rule(['get', 'list', 'watch'], core, ['configmaps'], ['extension-apiserver-authentication'])]),
    role('kube-system', 'system:controller:bootstrap-signer', [rule(['get', 'list', 'watch'], core, ['secrets'])]),
    role('kube-system', 'system:controller:cloud-provider', [rule(['create', 'get', 'list', 'watch'], core, ['configmaps'])]),
    role('kube-system', 'system:controller:token-cleaner', [rule(['get', 'list', 'watch', 'delete'], core, ['secrets']), eventsRule()]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', [
      rule(['watch'], core, ['configmaps']),
      rule(['get', 'update'], core, ['configmaps'], ['kube-controller-manager']),
      rule(['get', 'watch', 'list', 'create', 'update'], coordination, ['leases']),
    ]),
    role('kube-system', 'system::leader-locking-kube-scheduler', [
      rule(['watch'], core, ['configmaps']),
      rule(['get', 'update'], core, ['configmaps'], ['kube-scheduler']),
    ]),
    role('kube-public', 'system:controller:bootstrap-signer', [
      rule(['get', 'list', 'watch'], core, ['configmaps']),
      rule(['update'], core, ['configmaps'], ['cluster-info']),
      eventsRule(),
    ]),
  ];
}

/** NamespaceRoleBindings (namespace_policy.go). */
export function bootstrapNamespaceRoleBindings(): RoleBinding[] {
  return [
    roleBinding('kube-system', 'extension-apiserver-authentication-reader', users('system:kube-controller-manager', 'system:kube-scheduler'), 'system::extension-apiserver-authentication-reader'),
    roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', [...users('system:kube-controller-manager'), ...serviceAccounts('kube-system', 'kube-controller-manager', 'leader-election-controller')]),
    roleBinding('kube-system', 'system::leader-locking-kube-scheduler', [...users('system:kube-scheduler'), ...serviceAccounts('kube-system', 'kube-scheduler')]),
    roleBinding('kube-system', 'system:controller:bootstrap-signer', serviceAccounts('kube-system', 'bootstrap-signer')),
    roleBinding('kube-system', 'system:controller:cloud-provider', serviceAccounts('kube-system', 'cloud-provider')),
    roleBinding('kube-system', 'system:controller:token-cleaner', serviceAccounts('kube-system', 'token-cleaner')),
    roleBinding('kube-public', 'system:controller:bootstrap-signer', serviceAccounts('kube-system', 'bootstrap-signer')),
  ];
}
