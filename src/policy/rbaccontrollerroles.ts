// The kube-controller-manager controllers' roles (plugin/pkg/auth/authorizer/rbac/bootstrappolicy
// controller_policy.go buildControllerRoles, read at a v1.31 commit with v1.32's default feature
// gates: the DynamicResourceAllocation, MultiCIDRServiceAllocator, StorageVersionAPI and
// StorageVersionMigrator roles are off, StatefulSetAutoDeletePVC and ValidatingAdmissionPolicy on),
// each `system:controller:<name>` bound to the service account kube-system/<name> as
// addControllerRole binds it. Bulkhead's controllers run in the server as system:masters; the
// roles are created for what a Kubernetes user expects to find and ask about
// (`kubectl auth can-i --as=system:serviceaccount:kube-system:job-controller …`).

import type { ClusterRole, ClusterRoleBinding } from '../api/rbactypes.js';
import { clusterRole, clusterRoleBinding, eventsRule, read, rule, serviceAccounts } from './rbacpolicybuilders.js';

export const controllerRolePrefix = 'system:controller:';

const core = [''];
const apps = ['apps'];
const batch = ['batch'];
const storage = ['storage.k8s.io'];
const certificates = ['certificates.k8s.io'];
const appsAndExtensions = ['extensions', 'apps'];

/** The controllers' roles, in buildControllerRoles' order. */
function controllerRules(): [string, ReturnType<typeof rule>[]][] {
  return [
    ['attachdetach-controller', [
      rule(['list', 'watch'], core, ['persistentvolumes', 'persistentvolumeclaims']),
      rule(['get', 'list', 'watch'], core, ['nodes']),
      rule(['patch', 'update'], core, ['nodes/status']),
      rule(['list', 'watch'], core, ['pods']),
      eventsRule(),
      rule(['get', 'create', 'delete', 'list', 'watch'], storage, ['volumeattachments']),
      rule(['get', 'watch', 'list'], storage, ['csidrivers']),
      rule(['get', 'watch', 'list'], storage, ['csinodes']),
    ]],
    ['clusterrole-aggregation-controller', [
      // It must be able to write any rules into the roles it aggregates.
      rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], ['rbac.authorization.k8s.io'], ['clusterroles']),
    ]],
    ['cronjob-controller', [
      rule(['get', 'list', 'watch', 'update'], batch, ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], batch, ['jobs']),
      rule(['update'], batch, ['cronjobs/status']),
      rule(['update'], batch, ['cronjobs/finalizers']),
      rule(['list', 'delete'], core, ['pods']),
      eventsRule(),
    ]],
    ['daemon-set-controller', [
      rule(read, appsAndExtensions, ['daemonsets']),
      rule(['update'], appsAndExtensions, ['daemonsets/status']),
      rule(['update'], appsAndExtensions, ['daemonsets/finalizers']),
      rule(['list', 'watch'], core, ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], core, ['pods']),
      rule(['create'], core, ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], apps, ['controllerrevisions']),
      eventsRule(),
    ]],
    ['deployment-controller', [
      rule(['get', 'list', 'watch', 'update'], appsAndExtensions, ['deployments']),
      rule(['update'], appsAndExtensions, ['deployments/status']),
      rule(['update'], appsAndExtensions, ['deployments/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], appsAndExtensions, ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], core, ['pods']),
      eventsRule(),
    ]],
    ['disruption-controller', [
      rule(read, appsAndExtensions, ['deployments']),
      rule(read, appsAndExtensions, ['replicasets']),
      rule(read, core, ['replicationcontrollers']),
      rule(read, ['policy'], ['poddisruptionbudgets']),
      rule(read, apps, ['statefulsets']),
      rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
      rule(['patch', 'update'], core, ['pods/status']),
      rule(['get'], ['*'], ['*/scale']),
      eventsRule(),
    ]],
    ['endpoint-controller', [
      rule(read, core, ['services', 'pods']),
      rule(['get', 'list', 'create', 'update', 'delete'], core, ['endpoints']),
      rule(['create'], core, ['endpoints/restricted']),
      eventsRule(),
    ]],
    ['endpointslice-controller', [
      rule(read, core, ['services', 'pods', 'nodes']),
      rule(['update'], core, ['services/finalizers']),
      rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ]],
    ['endpointslicemirroring-controller', [
      rule(read, core, ['services', 'endpoints']),
      rule(['update'], core, ['services/finalizers']),
      rule(['update'], core, ['endpoints/finalizers']),
      rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
      eventsRule(),
    ]],
    ['expand-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], core, ['persistentvolumes']),
      rule(['update', 'patch'], core, ['persistentvolumeclaims/status']),
      rule(read, core, ['persistentvolumeclaims']),
      eventsRule(),
    ]],
    ['ephemeral-volume-controller', [
      rule(read, core, ['pods']),
      rule(['update'], core, ['pods/finalizers']),
      rule(['get', 'list', 'watch', 'create'], core, ['persistentvolumeclaims']),
      eventsRule(),
    ]],
    ['generic-garbage-collector', [
      rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']),
      eventsRule(),
    ]],
    ['horizontal-pod-autoscaler', [
      rule(read, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list'], core, ['pods']),
      rule(['list'], ['metrics.k8s.io'], ['pods']),
      rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
      rule(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
      eventsRule(),
    ]],
    ['job-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], batch, ['jobs']),
      rule(['update'], batch, ['jobs/status']),
      rule(['update'], batch, ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], core, ['pods']),
      eventsRule(),
    ]],
    ['namespace-controller', [
      rule(['get', 'list', 'watch', 'delete'], core, ['namespaces']),
      rule(['update'], core, ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
    ]],
    ['node-controller', [
      rule(['get', 'list', 'update', 'delete', 'patch'], core, ['nodes']),
      rule(['patch', 'update'], core, ['nodes/status']),
      rule(['patch', 'update'], core, ['pods/status']),
      rule(['list', 'get', 'delete'], core, ['pods']),
      eventsRule(),
    ]],
    ['persistent-volume-binder', [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], core, ['persistentvolumes']),
      rule(['update'], core, ['persistentvolumes/status']),
      rule(['get', 'list', 'watch', 'update'], core, ['persistentvolumeclaims']),
      rule(['update'], core, ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], core, ['pods']),
      rule(read, storage, ['storageclasses']),
      rule(['watch'], core, ['events']),
      eventsRule(),
    ]],
    ['pod-garbage-collector', [
      rule(['list', 'watch', 'delete'], core, ['pods']),
      rule(['get', 'list'], core, ['nodes']),
      rule(['patch'], core, ['pods/status']),
    ]],
    ['replicaset-controller', [
      rule(['get', 'list', 'watch', 'update'], appsAndExtensions, ['replicasets']),
      rule(['update'], appsAndExtensions, ['replicasets/status']),
      rule(['update'], appsAndExtensions, ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], core, ['pods']),
      eventsRule(),
    ]],
    ['replication-controller', [
      rule(['get', 'list', 'watch', 'update'], core, ['replicationcontrollers']),
      rule(['update'], core, ['replicationcontrollers/status']),
      rule(['update'], core, ['replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], core, ['pods']),
      eventsRule(),
    ]],
    ['resourcequota-controller', [
      // Quota counts anything, so it reads everything.
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['update'], core, ['resourcequotas/status']),
      eventsRule(),
    ]],
    ['route-controller', [
      rule(['list', 'watch'], core, ['nodes']),
      rule(['patch'], core, ['nodes/status']),
      eventsRule(),
    ]],
    ['service-account-controller', [
      rule(['create'], core, ['serviceaccounts']),
      eventsRule(),
    ]],
    ['service-controller', [
      rule(read, core, ['services']),
      rule(['patch', 'update'], core, ['services/status']),
      rule(['list', 'watch'], core, ['nodes']),
      eventsRule(),
    ]],
    ['statefulset-controller', [
      rule(['list', 'watch'], core, ['pods']),
      rule(read, apps, ['statefulsets']),
      rule(['update'], apps, ['statefulsets/status']),
      rule(['update'], apps, ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], core, ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], apps, ['controllerrevisions']),
      rule(['get', 'create'], core, ['persistentvolumeclaims']),
      eventsRule(),
      // StatefulSetAutoDeletePVC.
      rule(['update', 'delete'], core, ['persistentvolumeclaims']),
    ]],
    ['ttl-controller', [
      rule(['update', 'patch', 'list', 'watch'], core, ['nodes']),
      eventsRule(),
    ]],
    ['certificate-controller', [
      rule(['get', 'list', 'watch', 'delete'], certificates, ['certificatesigningrequests']),
      rule(['update'], certificates, ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      rule(['approve'], certificates, ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
      rule(['sign'], certificates, ['signers'], ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      eventsRule(),
    ]],
    ['pvc-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], core, ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], core, ['pods']),
      eventsRule(),
    ]],
    ['pv-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], core, ['persistentvolumes']),
      eventsRule(),
    ]],
    ['ttl-after-finished-controller', [
      rule(['get', 'list', 'watch', 'delete'], batch, ['jobs']),
      eventsRule(),
    ]],
    ['root-ca-cert-publisher', [
      rule(['create', 'update'], core, ['configmaps']),
      eventsRule(),
    ]],
    ['validatingadmissionpolicy-status-controller', [
      rule(read, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
      rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
      eventsRule(),
    ]],
    ['legacy-service-account-token-cleaner', [
      rule(['get'], core, ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
      rule(['patch', 'delete'], core, ['secrets']),
    ]],
  ];
}

/** ControllerRoles. */
export function controllerRoles(): ClusterRole[] {
  return controllerRules().map(([name, rules]) => clusterRole(`${controllerRolePrefix}${name}`, rules));
}

/** ControllerRoleBindings: each role to the service account kube-system/<name>. */
export function controllerRoleBindings(): ClusterRoleBinding[] {
  return controllerRules().map(([name]) => clusterRoleBinding(`${controllerRolePrefix}${name}`, serviceAccounts('kube-system', name)));
}
