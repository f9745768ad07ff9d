// core/v1 kinds besides Pod: Namespace, Node, ResourceQuota, LimitRange, Event, Binding, and
// their lists.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const c = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.core, short, description, fields, opts);

const kindOf = (kind: string) => ({ gvk: [gvk('', 'v1', kind)] });

const list = (item: string, what: string) =>
  c(`${item}List`, `A list of ${what}.`, { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: `[]${item}! | The ${what}.` }, kindOf(`${item}List`));

export const otherCoreSchemas: readonly SchemaDef[] = [
  // The options of nodes/proxy, a connect subresource (the path is the URL's, below proxy/).
  c('NodeProxyOptions', 'The query options of a proxy call to a node.', { ...typeMeta, path: 's | The URL path to use for the current proxy request to the node.' }, kindOf('NodeProxyOptions')),
  // The options of pods/exec, attach and portforward, connect subresources (read from the query).
  c(
    'PodExecOptions',
    'The query options of a pod exec call.',
    {
      ...typeMeta,
      stdin: 'b | Redirect the standard input stream of the pod for this call. Defaults to false.',
      stdout: 'b | Redirect the standard output stream of the pod for this call.',
      stderr: 'b | Redirect the standard error stream of the pod for this call.',
      tty: 'b | TTY if true indicates that a tty will be allocated for the exec call. Defaults to false.',
      container: 's | Container in which to execute the command. Defaults to only container if there is only one container in the pod.',
      command: '[]s! lt=atomic | Command is the remote command to execute. argv array. Not executed within a shell.',
    },
    kindOf('PodExecOptions'),
  ),
  c(
    'PodAttachOptions',
    'The query options of a pod attach call.',
    {
      ...typeMeta,
      stdin: 'b | Stdin if true, redirects the standard input stream of the pod for this call. Defaults to false.',
      stdout: 'b | Stdout if true indicates that stdout is to be redirected for the attach call. Defaults to true.',
      stderr: 'b | Stderr if true indicates that stderr is to be redirected for the attach call. Defaults to true.',
      tty: 'b | TTY if true indicates that a tty will be allocated for the attach call.',
      container: 's | The container in which to execute the command. Defaults to only container if there is only one container in the pod.',
    },
    kindOf('PodAttachOptions'),
  ),
  c('PodPortForwardOptions', 'The query options of a pod port-forward call.', { ...typeMeta, ports: '[]i32 lt=atomic | List of ports to forward. Required when using WebSockets.' }, kindOf('PodPortForwardOptions')),
  // Namespace
  c(
    'Namespace',
    'A scope for names: most objects live in exactly one namespace.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'NamespaceSpec | Desired state of the namespace.',
      status: 'NamespaceStatus | Observed state of the namespace.',
    },
    kindOf('Namespace'),
  ),
  list('Namespace', 'namespaces'),
  c('NamespaceSpec', 'Desired state of a namespace.', {
    finalizers: '[]s go=FinalizerName lt=atomic | Tokens that must be removed (through the finalize subresource) before the namespace is deleted from storage.',
  }),
  c('NamespaceStatus', 'Observed state of a namespace.', {
    phase: 's enum=Active,Terminating go=NamespacePhase | Active, or Terminating once deletion has started.',
    conditions: '[]NamespaceCondition ps=merge mk=type lt=map lk=type | Latest observations of the namespace\'s state.',
  }),
  c('NamespaceCondition', 'One aspect of a namespace\'s state.', {
    type: 's! go=NamespaceConditionType | Type of the condition, e.g. NamespaceDeletionContentFailure.',
    status: 's! go=ConditionStatus | True, False or Unknown.',
    lastTransitionTime: 'Time | Last time the status changed.',
    reason: 's | CamelCase reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  }),

  // Node
  c(
    'Node',
    'A worker machine that runs pods.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'NodeSpec | Desired configuration of the node.',
      status: 'NodeStatus | Most recently observed state of the node, reported by its kubelet.',
    },
    kindOf('Node'),
  ),
  list('Node', 'nodes'),
  c('NodeSpec', 'Desired configuration of a node.', {
    podCIDR: 's | Pod IP range assigned to the node.',
    podCIDRs: '[]s ps=merge lt=set | Pod IP ranges assigned to the node, at most one per address family; the first equals podCIDR.',
    providerID: 's | ID of the node in the cloud provider: <provider>://<id>.',
    unschedulable: 'b | Keep new pods off the node (cordon). Defaults to false.',
    taints: '[]Taint lt=atomic | Taints of the node; pods must tolerate them.',
    configSource: 'NodeConfigSource | Deprecated: dynamic kubelet configuration is no longer supported.',
    externalID: 's | Deprecated; not used.',
  }),
  c('Taint', 'A mark on a node that repels pods not tolerating it.', {
    key: 's! | Key of the taint.',
    value: 's | Value of the taint.',
    effect: 's! enum=NoExecute,NoSchedule,PreferNoSchedule go=TaintEffect | What happens to pods that do not tolerate it: NoSchedule, PreferNoSchedule or NoExecute.',
    timeAdded: 'Time | When the taint was added; only for NoExecute taints.',
  }),
  c('NodeConfigSource', 'Deprecated source of a node\'s configuration.', {
    configMap: 'ConfigMapNodeConfigSource | ConfigMap holding the configuration.',
  }),
  c('ConfigMapNodeConfigSource', 'Deprecated: a ConfigMap holding a node\'s configuration.', {
    namespace: 's! | Namespace of the ConfigMap.',
    name: 's! | Name of the ConfigMap.',
    uid: 's go=types.UID | UID of the ConfigMap.',
    resourceVersion: 's | resourceVersion of the ConfigMap.',
    kubeletConfigKey: 's! | Key of the ConfigMap holding the KubeletConfiguration.',
  }),
  c('NodeStatus', 'Observed state of a node.', {
    capacity: 'rl | Total resources of the node.',
    allocatable: 'rl | Resources available to pods; capacity minus what is reserved for the system.',
    phase: 's enum=Pending,Running,Terminated go=NodePhase | Deprecated: lifecycle phase of the node; no longer set.',
    conditions: '[]NodeCondition ps=merge mk=type lt=map lk=type | Current conditions of the node, e.g. Ready or MemoryPressure.',
    addresses: '[]NodeAddress ps=merge mk=type lt=map lk=type | Addresses of the node (InternalIP, ExternalIP, Hostname, ...).',
    daemonEndpoints: 'NodeDaemonEndpoints | Ports the node\'s daemons listen on.',
    nodeInfo: 'NodeSystemInfo | Identity and versions of the node\'s software.',
    images: '[]ContainerImage lt=atomic | Container images present on the node.',
    volumesInUse: '[]s go=UniqueVolumeName lt=atomic | Attachable volumes the node has in use (mounted).',
    volumesAttached: '[]AttachedVolume lt=atomic | Volumes attached to the node.',
    config: 'NodeConfigStatus | Deprecated: status of dynamic kubelet configuration.',
    runtimeHandlers: '[]NodeRuntimeHandler lt=atomic | Runtime handlers the container runtime offers, with their features.',
    features: 'NodeFeatures gate=SupplementalGroupsPolicy | Features the container runtime implements.',
    declaredFeatures:
      '[]s lt=atomic gate=NodeDeclaredFeatures since=1.35 | Features, named after feature gates, that the node declares it supports (e.g. ContainerUlimits); the scheduler keeps pods needing other features off the node.',
  }),
  c('NodeCondition', 'One aspect of a node\'s state.', {
    type: 's! go=NodeConditionType | Type of the condition: Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable.',
    status: 's! go=ConditionStatus | True, False or Unknown.',
    lastHeartbeatTime: 'Time | Last time the condition was reported.',
    lastTransitionTime: 'Time | Last time the status changed.',
    reason: 's | CamelCase reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  }),
  c('NodeAddress', 'An address of a node.', {
    type: 's! go=NodeAddressType | Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS.',
    address: 's! | The address.',
  }),
  c('NodeDaemonEndpoints', 'Ports of the daemons running on a node.', {
    kubeletEndpoint: 'DaemonEndpoint | Endpoint of the kubelet.',
  }),
  c('DaemonEndpoint', 'A port a daemon listens on.', {
    Port: 'i32! | Port number.',
  }),
  c('NodeSystemInfo', 'Identity and software versions of a node.', {
    machineID: 's! | Machine ID (/etc/machine-id).',
    systemUUID: 's! | System UUID from the hardware.',
    bootID: 's! | ID of the current boot.',
    kernelVersion: 's! | Kernel version (uname -r).',
    osImage: 's! | Operating system image (/etc/os-release).',
    containerRuntimeVersion: 's! | Container runtime and version, as <runtime>://<version>.',
    kubeletVersion: 's! | Kubelet version.',
    kubeProxyVersion: 's! | Deprecated: kube-proxy version; not reliable.',
    operatingSystem: 's! | Operating system (GOOS), e.g. linux.',
    architecture: 's! | Architecture (GOARCH), e.g. amd64.',
    swap: 'NodeSwapStatus since=1.33 | Swap memory of the node.',
  }),
  c('NodeSwapStatus', 'Swap memory of a node.', {
    capacity: 'i64 | Total swap in bytes.',
  }),
  c('ContainerImage', 'A container image on a node.', {
    names: '[]s lt=atomic | Names the image is known by, e.g. registry.k8s.io/pause:3.9 or a digest reference.',
    sizeBytes: 'i64 | Size of the image in bytes.',
  }),
  c('AttachedVolume', 'A volume attached to a node.', {
    name: 's! go=UniqueVolumeName | Name of the volume.',
    devicePath: 's! | Where the volume should be available on the node.',
  }),
  c('NodeConfigStatus', 'Deprecated: status of a node\'s dynamic configuration.', {
    assigned: 'NodeConfigSource | Configuration the node will try to use.',
    active: 'NodeConfigSource | Configuration the node is using.',
    lastKnownGood: 'NodeConfigSource | Configuration the node falls back to on errors.',
    error: 's | Problem reconciling the configuration.',
  }),
  c('NodeRuntimeHandler', 'A runtime handler of the container runtime.', {
    name: 's | Name of the handler; empty for the default one.',
    features: 'NodeRuntimeHandlerFeatures | Features the handler supports.',
  }),
  c('NodeRuntimeHandlerFeatures', 'Features a runtime handler supports.', {
    recursiveReadOnlyMounts: 'b gate=RecursiveReadOnlyMounts | Supports recursive read-only mounts.',
    userNamespaces: 'b gate=UserNamespacesSupport | Supports user namespaces, volumes included.',
  }),
  c('NodeFeatures', 'Features the node\'s container runtime implements.', {
    supplementalGroupsPolicy: 'b | Supports the supplementalGroupsPolicy field and its Strict value.',
  }),

  // ResourceQuota
  c(
    'ResourceQuota',
    'Limits on the total resources and object counts of a namespace.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'ResourceQuotaSpec | Desired quota.',
      status: 'ResourceQuotaStatus | Quota actually enforced and current usage.',
    },
    kindOf('ResourceQuota'),
  ),
  list('ResourceQuota', 'resource quotas'),
  c('ResourceQuotaSpec', 'Desired quota.', {
    hard: 'rl | Hard limit for each named resource (requests.cpu, limits.memory, pods, count/<resource>, ...).',
    scopes:
      '[]s enum=BestEffort,CrossNamespacePodAffinity,NotBestEffort,NotTerminating,PriorityClass,Terminating,VolumeAttributesClass go=ResourceQuotaScope lt=atomic | Filters that all must match an object for the quota to count it.',
    scopeSelector: 'ScopeSelector | Scope filters written as expressions; they must all match, together with scopes.',
  }),
  c(
    'ScopeSelector',
    'Scope requirements, ANDed.',
    { matchExpressions: '[]ScopedResourceSelectorRequirement lt=atomic | Requirements on the scopes.' },
    { mapType: 'atomic' },
  ),
  c('ScopedResourceSelectorRequirement', 'A requirement on one quota scope.', {
    scopeName: 's! enum=BestEffort,CrossNamespacePodAffinity,NotBestEffort,NotTerminating,PriorityClass,Terminating,VolumeAttributesClass go=ResourceQuotaScope | The scope.',
    operator: 's! enum=DoesNotExist,Exists,In,NotIn go=ScopeSelectorOperator | In, NotIn, Exists or DoesNotExist.',
    values: '[]s lt=atomic | Values for In and NotIn; must be empty for Exists and DoesNotExist.',
  }),
  c('ResourceQuotaStatus', 'Enforced quota and usage.', {
    hard: 'rl | Hard limits being enforced.',
    used: 'rl | Current usage of each resource in the namespace.',
  }),

  // LimitRange
  c(
    'LimitRange',
    'Per-object minimums, maximums and defaults for resources in a namespace.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'LimitRangeSpec | The limits.',
    },
    kindOf('LimitRange'),
  ),
  list('LimitRange', 'limit ranges'),
  c('LimitRangeSpec', 'The limits of a LimitRange.', {
    limits: '[]LimitRangeItem! lt=atomic | The limits, one item per object type.',
  }),
  c('LimitRangeItem', 'Limits for one type of object.', {
    type: 's! go=LimitType | Object type the item applies to: Container, Pod or PersistentVolumeClaim.',
    max: 'rl | Most of each resource an object may use.',
    min: 'rl | Least of each resource an object may use.',
    default: 'rl | Limits filled in when a container sets none.',
    defaultRequest: 'rl | Requests filled in when a container sets none.',
    maxLimitRequestRatio: 'rl | Largest allowed ratio of limit to request for each resource.',
  }),

  // Event
  c(
    'Event',
    'A report of something that happened to an object. Events are kept for a limited time.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta! | Standard object metadata.',
      involvedObject: 'ObjectReference! | Object the event is about.',
      reason: 's | Short, machine-understandable CamelCase reason, e.g. Scheduled.',
      message: 's | Human-readable description.',
      source: 'EventSource | Component (and host) that reported the event; prefer reportingComponent.',
      firstTimestamp: 'Time | When the event was first recorded.',
      lastTimestamp: 'Time | When the event was last recorded.',
      count: 'i32 | How many times the event happened.',
      type: 's | Normal or Warning; more types may come.',
      eventTime: 'MicroTime | When the event first happened, with microseconds.',
      series: 'EventSeries | Data about the series the event belongs to, if any.',
      action: 's | What was done (or failed) about the object.',
      related: 'ObjectReference | A second object involved, if any.',
      reportingComponent: 's | Controller that emitted the event, e.g. kubernetes.io/kubelet.',
      reportingInstance: 's | Instance of that controller, e.g. the kubelet\'s node name.',
    },
    kindOf('Event'),
  ),
  list('Event', 'events'),
  c(
    'ObjectReference',
    'A reference to an object, or to a field of one.',
    {
      kind: 's | Kind of the referent.',
      namespace: 's | Namespace of the referent.',
      name: 's | Name of the referent.',
      uid: 's go=types.UID | UID of the referent.',
      apiVersion: 's | API version of the referent.',
      resourceVersion: 's | Specific resourceVersion of the referent, if any.',
      fieldPath: 's | Field within the referent, e.g. spec.containers{name} for one container of a pod.',
    },
    { mapType: 'atomic' },
  ),
  c('EventSource', 'Where an event came from.', {
    component: 's | Reporting component.',
    host: 's | Node name where the event was produced.',
  }),
  c('EventSeries', 'Information about a series of repeated events.', {
    count: 'i32 | Number of occurrences so far in the series.',
    lastObservedTime: 'MicroTime | When the last occurrence was seen.',
  }),

  // Binding
  c(
    'Binding',
    'Binds a pod to a node; used by schedulers through the pods/binding subresource.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata; the name is the pod\'s.',
      target: 'ObjectReference! | The node to bind to.',
    },
    kindOf('Binding'),
  ),
];
