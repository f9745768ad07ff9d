// core/v1 Pod: the spec with its containers, probes, lifecycle, environment, resources,
// security contexts, scheduling constraints and DNS settings, and the status. Two fields come
// from Bulkhead's designs rather than upstream: `oomKillMode` on containers and
// `securityContext.ulimits`.

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const c = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.core, short, description, fields, opts);

/** Signal names accepted by lifecycle.stopSignal (the Linux set; upstream since 1.33). */
export const stopSignals: readonly string[] = (() => {
  const base = [
    'SIGABRT', 'SIGALRM', 'SIGBUS', 'SIGCHLD', 'SIGCLD', 'SIGCONT', 'SIGFPE', 'SIGHUP', 'SIGILL', 'SIGINT', 'SIGIO', 'SIGIOT',
    'SIGKILL', 'SIGPIPE', 'SIGPOLL', 'SIGPROF', 'SIGPWR', 'SIGQUIT', 'SIGRTMAX', 'SIGRTMIN', 'SIGSEGV', 'SIGSTKFLT', 'SIGSTOP',
    'SIGSYS', 'SIGTERM', 'SIGTRAP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM', 'SIGWINCH',
    'SIGXCPU', 'SIGXFSZ',
  ];
  for (let i = 1; i <= 15; i++) base.push(`SIGRTMIN+${i}`);
  for (let i = 1; i <= 14; i++) base.push(`SIGRTMAX-${i}`);
  return base.sort();
})();

const probe = (what: string) => `Probe | ${what} Cannot be changed.`;

/** Fields of Container; EphemeralContainer has the same set plus targetContainerName. */
function containerFields(ephemeral: boolean): Record<string, string> {
  const notForEphemeral = ephemeral ? ' Not allowed for ephemeral containers.' : '';
  return {
    name: `s! | Name of the container, a DNS label unique among all containers of the pod. Cannot be changed.`,
    image: 's | Container image to run. Workload controllers may leave it empty and fill it in later.',
    command: '[]s lt=atomic | Entrypoint, replacing the image\'s ENTRYPOINT; not run in a shell. $(VAR) expands container environment variables and $$ escapes. Cannot be changed.',
    args: '[]s lt=atomic | Arguments to the entrypoint, replacing the image\'s CMD. $(VAR) expands as for command. Cannot be changed.',
    workingDir: 's | Working directory; defaults to the image\'s. Cannot be changed.',
    ports: `[]ContainerPort ps=merge mk=containerPort lt=map lk=containerPort,protocol | Ports the container exposes. Informational: any port the process listens on is reachable.${notForEphemeral}`,
    envFrom: '[]EnvFromSource lt=atomic | Sources whose keys all become environment variables. A key in env wins over the same key here; among sources, the last one wins. Cannot be changed.',
    env: '[]EnvVar ps=merge mk=name lt=map lk=name | Environment variables to set. Cannot be changed.',
    resources: `ResourceRequirements | Compute resources (requests, limits, claims) of this container.${ephemeral ? ' Ephemeral containers use the pod\'s resources; not allowed.' : ''}`,
    resizePolicy: `[]ContainerResizePolicy gate=InPlacePodVerticalScaling lt=atomic | Per-resource policy for in-place resizing.${notForEphemeral}`,
    restartPolicy: `s go=ContainerRestartPolicy | Per-container restart policy. Only Always is allowed, and only on init containers, where it makes the container a sidecar that keeps running beside the regular containers.${notForEphemeral}`,
    volumeMounts: `[]VolumeMount ps=merge mk=mountPath lt=map lk=mountPath | Volumes of the pod to mount into the container's filesystem.${ephemeral ? ' Subpath mounts are not allowed for ephemeral containers.' : ''} Cannot be changed.`,
    volumeDevices: '[]VolumeDevice ps=merge mk=devicePath lt=map lk=devicePath | Block devices of the pod to expose to the container.',
    livenessProbe: probe(`Periodic check that the container is alive; it is restarted when the probe fails.${notForEphemeral}`),
    readinessProbe: probe(`Periodic check that the container can serve; it is removed from service endpoints when the probe fails.${notForEphemeral}`),
    startupProbe: probe(`Check that the container has started; the other probes wait for it to succeed, and the container is restarted when it fails.${notForEphemeral}`),
    lifecycle: `Lifecycle | Actions the system runs on container start and before container stop.${notForEphemeral} Cannot be changed.`,
    terminationMessagePath: 's | File whose content is written into the container status message when the container ends; defaults to /dev/termination-log. Cannot be changed.',
    terminationMessagePolicy: 's enum=FallbackToLogsOnError,File go=TerminationMessagePolicy | Where the termination message comes from: File (default) or FallbackToLogsOnError, which uses the end of the log when the file is empty and the container failed. Cannot be changed.',
    imagePullPolicy: 's enum=Always,IfNotPresent,Never go=PullPolicy | When to pull the image: Always, Never or IfNotPresent. Defaults to Always for :latest or untagged images, IfNotPresent otherwise. Cannot be changed.',
    securityContext: `SecurityContext | Security options of the container; they override the pod's securityContext where both are set.`,
    stdin: 'b | Keep a stdin buffer open for the container. Defaults to false.',
    stdinOnce: 'b | Close stdin after the first attach session ends. Defaults to false.',
    tty: 'b | Allocate a TTY; needs stdin. Defaults to false.',
    oomKillMode:
      's enum=Single,Group go=OOMKillMode gate=ContainerOOMKillMode bulkhead | What the OOM killer kills when the container exceeds its memory limit: Single kills only the process that triggered it, Group kills every process of the container (memory.oom.group). Unset uses the node\'s default (the kubelet\'s singleProcessOOMKill, else the cgroup default). Linux with cgroup v2 only; not allowed when spec.os.name is windows.',
  };
}

export const podSchemas: readonly SchemaDef[] = [
  c(
    'Pod',
    'A group of containers scheduled together onto one node, sharing network and volumes.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      spec: 'PodSpec | Desired state of the pod.',
      status: 'PodStatus | Most recently observed state of the pod; written by the system and possibly stale.',
    },
    { gvk: [gvk('', 'v1', 'Pod')] },
  ),
  c(
    'PodList',
    'A list of pods.',
    {
      ...typeMeta,
      metadata: 'ListMeta | Standard list metadata.',
      items: '[]Pod! | The pods.',
    },
    { gvk: [gvk('', 'v1', 'PodList')] },
  ),
  c('PodSpec', 'Desired state of a pod.', {
    volumes: '[]Volume ps=merge,retainKeys mk=name lt=map lk=name | Volumes that containers of the pod can mount.',
    initContainers:
      '[]Container ps=merge mk=name lt=map lk=name | Containers run one after the other, each to completion, before the regular containers start. An init container with restartPolicy Always is a sidecar: it starts in order and then keeps running. Cannot be changed.',
    containers: '[]Container! ps=merge mk=name lt=map lk=name | The regular containers of the pod; at least one. Cannot be changed.',
    ephemeralContainers:
      '[]EphemeralContainer ps=merge mk=name lt=map lk=name | Temporary containers added to a running pod for debugging, through the ephemeralcontainers subresource. Cannot be changed by updating the pod.',
    restartPolicy: 's enum=Always,Never,OnFailure go=RestartPolicy | Restart policy for the containers: Always (default), OnFailure or Never.',
    terminationGracePeriodSeconds: 'i64 | Seconds between the stop signal and the kill signal when the pod is deleted. Defaults to 30; 0 kills at once.',
    activeDeadlineSeconds: 'i64 | Seconds the pod may be active, counted from its start time, before the system fails it. Positive.',
    dnsPolicy: 's enum=ClusterFirst,ClusterFirstWithHostNet,Default,None go=DNSPolicy | How DNS is configured: ClusterFirst (default), ClusterFirstWithHostNet, Default (the node\'s) or None (only dnsConfig).',
    nodeSelector: '{}s mt=atomic | Labels a node must have for the pod to be scheduled on it.',
    serviceAccountName: 's | Service account the pod runs as.',
    serviceAccount: 's | Deprecated alias of serviceAccountName.',
    automountServiceAccountToken: 'b | Whether a service account token is mounted automatically.',
    nodeName: 's | Node the pod is bound to. Setting it bypasses the scheduler; once set it cannot change.',
    hostNetwork: 'b | Use the node\'s network namespace; the ports in use must then be declared. Defaults to false.',
    hostPID: 'b | Use the node\'s PID namespace. Defaults to false.',
    hostIPC: 'b | Use the node\'s IPC namespace. Defaults to false.',
    shareProcessNamespace: 'b | One PID namespace for all containers of the pod, so they can see and signal each other\'s processes. Excludes hostPID. Defaults to false.',
    securityContext: 'PodSecurityContext | Pod-wide security attributes and defaults for the containers\' security contexts.',
    imagePullSecrets: '[]LocalObjectReference ps=merge mk=name lt=map lk=name | Secrets in the pod\'s namespace used to pull the images.',
    hostname: 's | Host name of the pod; defaults to a value chosen by the system.',
    subdomain: 's | Makes the pod\'s FQDN <hostname>.<subdomain>.<namespace>.svc.<cluster domain>.',
    affinity: 'Affinity | Scheduling constraints based on node labels and on other pods.',
    schedulerName: 's | Scheduler responsible for the pod; defaults to the default scheduler.',
    tolerations: '[]Toleration lt=atomic | Taints the pod tolerates.',
    hostAliases: '[]HostAlias ps=merge mk=ip lt=map lk=ip | Extra entries for the pod\'s /etc/hosts.',
    priorityClassName: 's | PriorityClass whose value becomes the pod\'s priority. system-node-critical and system-cluster-critical are the highest built-in ones.',
    priority: 'i32 | Priority of the pod, filled in from priorityClassName by admission. Higher is more important.',
    dnsConfig: 'PodDNSConfig | DNS settings merged into the ones generated from dnsPolicy.',
    readinessGates: '[]PodReadinessGate lt=atomic | Extra conditions that must be True, besides all containers being ready, for the pod to be ready.',
    runtimeClassName: 's | RuntimeClass (container runtime configuration) to run the pod with.',
    enableServiceLinks: 'b | Inject environment variables describing services, Docker-links style. Defaults to true.',
    preemptionPolicy: 's enum=Never,PreemptLowerPriority go=PreemptionPolicy | Whether the pod may preempt lower-priority pods: PreemptLowerPriority (default) or Never.',
    overhead: 'rl | Resources consumed by the pod sandbox on top of the containers\' requests and limits; set from the RuntimeClass by admission.',
    topologySpreadConstraints:
      '[]TopologySpreadConstraint ps=merge mk=topologyKey lt=map lk=topologyKey,whenUnsatisfiable | How matching pods are to be spread across topology domains. All constraints are ANDed.',
    setHostnameAsFQDN: 'b | Set the kernel host name to the pod\'s FQDN instead of its short name. Defaults to false.',
    os: 'PodOS | Operating system the containers need (linux or windows); used by validation and, for windows, limits which fields may be set.',
    hostUsers: 'b | Use the host\'s user namespace. false gives the pod its own user namespace. Defaults to true.',
    schedulingGates: '[]PodSchedulingGate ps=merge mk=name lt=map lk=name | Gates that keep the pod out of scheduling while any remains; they can only be removed.',
    resourceClaims: '[]PodResourceClaim ps=merge,retainKeys mk=name lt=map lk=name gate=DynamicResourceAllocation | Dynamic resource claims the pod needs, by name for containers to refer to. Cannot be changed.',
    resources: 'ResourceRequirements gate=PodLevelResources | Pod-level requests and limits (cpu, memory, hugepages) shared by all containers. Claims are not allowed here.',
  }),
  c('Container', 'A container to run in a pod.', containerFields(false)),
  c('EphemeralContainer', 'A temporary container added to a running pod, e.g. for debugging. It is never restarted and may not have ports, probes or resources.', {
    ...containerFields(true),
    targetContainerName: 's | Container of the pod whose namespaces (IPC, PID, ...) this one joins; the runtime must support it. Unset uses the pod\'s shared namespaces.',
  }),
  c('ContainerPort', 'A network port of a container.', {
    name: 's | IANA_SVC_NAME for the port, unique within the pod; services can refer to it.',
    hostPort: 'i32 | Port to open on the node (1-65535). Must equal containerPort with hostNetwork. Usually unnecessary.',
    containerPort: 'i32! | Port on the pod\'s IP address (1-65535).',
    protocol: 's enum=SCTP,TCP,UDP go=Protocol | TCP (default), UDP or SCTP.',
    hostIP: 's | Node IP address to bind hostPort to.',
  }),
  c('EnvFromSource', 'A source of a set of environment variables.', {
    prefix: 's | Prefix added to every key of the source.',
    configMapRef: 'ConfigMapEnvSource | ConfigMap to read the variables from.',
    secretRef: 'SecretEnvSource | Secret to read the variables from.',
  }),
  c('ConfigMapEnvSource', 'A ConfigMap whose keys become environment variables.', {
    name: 's | Name of the ConfigMap.',
    optional: 'b | Whether the ConfigMap may be missing.',
  }),
  c('SecretEnvSource', 'A Secret whose keys become environment variables.', {
    name: 's | Name of the Secret.',
    optional: 'b | Whether the Secret may be missing.',
  }),
  c('EnvVar', 'An environment variable of a container.', {
    name: 's! | Name of the variable.',
    value: 's | Value; $(VAR) references to earlier variables are expanded and $$ escapes. Defaults to "".',
    valueFrom: 'EnvVarSource | Where the value comes from; not allowed together with value.',
  }),
  c('EnvVarSource', 'Where an environment variable\'s value comes from; set exactly one field.', {
    fieldRef: 'ObjectFieldSelector | A pod field: metadata.name, metadata.namespace, metadata.labels[\'<key>\'], metadata.annotations[\'<key>\'], spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP or status.podIPs.',
    resourceFieldRef: 'ResourceFieldSelector | A limit or request of a container: limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory or requests.ephemeral-storage.',
    configMapKeyRef: 'ConfigMapKeySelector | A key of a ConfigMap.',
    secretKeyRef: 'SecretKeySelector | A key of a Secret in the pod\'s namespace.',
  }),
  c(
    'ConfigMapKeySelector',
    'Selects a key of a ConfigMap.',
    {
      name: 's | Name of the ConfigMap.',
      key: 's! | The key.',
      optional: 'b | Whether the ConfigMap or the key may be missing.',
    },
    { mapType: 'atomic' },
  ),
  c(
    'SecretKeySelector',
    'Selects a key of a Secret.',
    {
      name: 's | Name of the Secret.',
      key: 's! | The key; must be a valid secret key.',
      optional: 'b | Whether the Secret or the key may be missing.',
    },
    { mapType: 'atomic' },
  ),
  c('ResourceRequirements', 'Compute resource requirements.', {
    limits: 'rl | Most of each resource the container (or pod) may use.',
    requests: 'rl | Least of each resource the container (or pod) needs; scheduling uses it. Defaults to limits when only those are set, else to an implementation-defined value; may not exceed limits.',
    claims: '[]ResourceClaim lt=map lk=name gate=DynamicResourceAllocation | Names of entries in spec.resourceClaims that this container uses. Only for containers; cannot be changed.',
  }),
  c('ResourceClaim', 'A reference to one entry of the pod\'s resourceClaims.', {
    name: 's! | Name of an entry in spec.resourceClaims.',
    request: 's | Only this request of the claim; empty means the whole claim.',
  }),
  c('ContainerResizePolicy', 'Resize policy of a container for one resource.', {
    resourceName: 's! go=ResourceName | Resource the policy applies to: cpu or memory.',
    restartPolicy: 's! go=ResourceResizeRestartPolicy | What resizing the resource needs: NotRequired (default) or RestartContainer.',
  }),
  c('VolumeMount', 'Mounts a volume of the pod into a container.', {
    name: 's! | Name of a volume of the pod.',
    readOnly: 'b | Mount read-only. Defaults to false.',
    recursiveReadOnly: 's go=RecursiveReadOnlyMode gate=RecursiveReadOnlyMounts | Whether read-only mounts are also read-only for their submounts: Disabled (default), IfPossible or Enabled. Needs readOnly and mountPropagation None.',
    mountPath: 's! | Path in the container to mount at; may not contain ":".',
    subPath: 's | Path within the volume to mount instead of its root. Defaults to "".',
    mountPropagation: 's enum=Bidirectional,HostToContainer,None go=MountPropagationMode | How mounts propagate between host and container: None (default), HostToContainer or Bidirectional (privileged only).',
    subPathExpr: 's | Like subPath, with $(VAR) expanded from the container environment. Excludes subPath. Defaults to "".',
  }),
  c('VolumeDevice', 'Maps a raw block volume into a container.', {
    name: 's! | Name of a persistentVolumeClaim volume of the pod.',
    devicePath: 's! | Device path in the container.',
  }),
  c('Probe', 'A health check run against a container. Exactly one handler (exec, httpGet, tcpSocket, grpc) must be set.', {
    exec: 'ExecAction | Run a command in the container.',
    httpGet: 'HTTPGetAction | Send an HTTP GET request.',
    tcpSocket: 'TCPSocketAction | Open a TCP connection.',
    grpc: 'GRPCAction | Call the gRPC health checking protocol.',
    initialDelaySeconds: 'i32 | Seconds after the container starts before the first probe.',
    timeoutSeconds: 'i32 | Seconds before a probe attempt times out. Defaults to 1, minimum 1.',
    periodSeconds: 'i32 | Seconds between probes. Defaults to 10, minimum 1.',
    successThreshold: 'i32 | Consecutive successes that count as success after a failure. Defaults to 1; must be 1 for liveness and startup probes.',
    failureThreshold: 'i32 | Consecutive failures that count as failure. Defaults to 3, minimum 1.',
    terminationGracePeriodSeconds: 'i64 | Grace period used when a failed probe kills the container, instead of the pod\'s. Minimum 1; not allowed on readiness probes.',
  }),
  c('ExecAction', 'Runs a command in the container.', {
    command: '[]s lt=atomic | Command line, run directly rather than in a shell, from the container\'s working directory. Exit status 0 means healthy.',
  }),
  c('HTTPGetAction', 'An HTTP GET request against the container.', {
    path: 's | Path of the request.',
    port: 'IntOrString! | Port number (1-65535) or name of a container port.',
    host: 's | Host name to connect to; defaults to the pod IP. Set the Host header through httpHeaders instead.',
    scheme: 's enum=HTTP,HTTPS go=URIScheme | HTTP (default) or HTTPS.',
    httpHeaders: '[]HTTPHeader lt=atomic | Extra request headers; repeated headers are allowed.',
  }),
  c('HTTPHeader', 'An HTTP header.', {
    name: 's! | Header name; normalized when written, so differing case means the same header.',
    value: 's! | Header value.',
  }),
  c('TCPSocketAction', 'Opens a TCP connection to the container.', {
    port: 'IntOrString! | Port number (1-65535) or name of a container port.',
    host: 's | Host name to connect to; defaults to the pod IP.',
  }),
  c('GRPCAction', 'A gRPC health check.', {
    port: 'i32! | Port of the gRPC service (1-65535).',
    service: 's | Service name passed in the HealthCheckRequest; empty uses gRPC\'s default.',
  }),
  c('Lifecycle', 'Actions the system runs for container lifecycle events; the container blocks until they finish.', {
    postStart: 'LifecycleHandler | Runs right after the container is created; on failure the container is restarted per its policy.',
    preStop: 'LifecycleHandler | Runs before the container is terminated by an API request or a management event (not when it exits by itself). The grace period covers it.',
    stopSignal: `s enum=${stopSignals.join(',')} go=Signal since=1.33 | Signal sent to stop the container; defaults to the image's STOPSIGNAL, else the runtime's default (SIGTERM). Needs spec.os.name.`,
  }),
  c('LifecycleHandler', 'An action run by a lifecycle hook. Exactly one field must be set.', {
    exec: 'ExecAction | Run a command in the container.',
    httpGet: 'HTTPGetAction | Send an HTTP GET request.',
    tcpSocket: 'TCPSocketAction | Deprecated and not supported as a lifecycle handler; kept for compatibility.',
    sleep: 'SleepAction gate=PodLifecycleSleepAction | Wait before continuing.',
  }),
  c('SleepAction', 'Waits for a while.', {
    seconds: 'i64! | Seconds to sleep.',
  }),
  c('SecurityContext', 'Security options of one container. Where a field is also set in the pod\'s securityContext, this one wins.', {
    capabilities: 'Capabilities | Linux capabilities to add and drop; defaults to the runtime\'s set. Not allowed when spec.os.name is windows.',
    privileged: 'b | Run as privileged, like root on the host. Defaults to false. Not allowed when spec.os.name is windows.',
    seLinuxOptions: 'SELinuxOptions | SELinux context for the container; random when unset. Not allowed when spec.os.name is windows.',
    windowsOptions: 'WindowsSecurityContextOptions | Windows-specific options; not allowed when spec.os.name is linux.',
    runAsUser: 'i64 | UID the entrypoint runs as; defaults to the image\'s user. Not allowed when spec.os.name is windows.',
    runAsGroup: 'i64 | GID the entrypoint runs as; defaults to the runtime\'s. Not allowed when spec.os.name is windows.',
    runAsNonRoot: 'b | Require a non-root user: the kubelet refuses to start the container if it would run as UID 0.',
    readOnlyRootFilesystem: 'b | Mount the root filesystem read-only. Defaults to false. Not allowed when spec.os.name is windows.',
    allowPrivilegeEscalation: 'b | Whether a process can gain more privileges than its parent (no_new_privs). Always true when privileged or with CAP_SYS_ADMIN. Not allowed when spec.os.name is windows.',
    procMount: 's enum=Default,Unmasked go=ProcMountType | Proc mount type: Default masks and makes read-only some /proc paths; Unmasked does not (needs hostUsers false). Not allowed when spec.os.name is windows.',
    seccompProfile: 'SeccompProfile | Seccomp profile; overrides the pod\'s. Not allowed when spec.os.name is windows.',
    appArmorProfile: 'AppArmorProfile | AppArmor profile; overrides the pod\'s. Not allowed when spec.os.name is windows.',
    ulimits:
      '[]Ulimit lt=map lk=name gate=ContainerUlimits bulkhead | Resource limits (rlimits) for the container\'s processes, one entry per name; unset keeps the runtime\'s defaults. Allowed names: nofile, memlock, core, nice, rtprio, stack. Not allowed when spec.os.name is windows.',
  }),
  c(
    'Ulimit',
    'One rlimit of a container (ulimits design, feature gate ContainerUlimits).',
    {
      name: 's! | Name of the limit: nofile, memlock, core, nice, rtprio or stack.',
      hard: 'i64! | Hard limit: the ceiling for the soft limit. -1 means unlimited.',
      soft: 'i64! | Soft limit: the value the kernel enforces; at most hard. -1 means unlimited.',
    },
    { bulkhead: true },
  ),
  c('Capabilities', 'Linux capabilities to add to and drop from a container.', {
    add: '[]s go=Capability lt=atomic | Capabilities to add.',
    drop: '[]s go=Capability lt=atomic | Capabilities to remove.',
  }),
  c('SELinuxOptions', 'SELinux labels for a container.', {
    user: 's | SELinux user.',
    role: 's | SELinux role.',
    type: 's | SELinux type.',
    level: 's | SELinux level.',
  }),
  c('WindowsSecurityContextOptions', 'Windows-specific security options.', {
    gmsaCredentialSpecName: 's | Name of the GMSACredentialSpec to use.',
    gmsaCredentialSpec: 's | Inlined content of the GMSA credential spec named by gmsaCredentialSpecName.',
    runAsUserName: 's | User name the entrypoint runs as; defaults to the image\'s.',
    hostProcess: 'b | Run as a Windows host process container. All containers of the pod must agree, and hostNetwork must be true.',
  }),
  c('SeccompProfile', 'A seccomp profile. Only one profile source may be set.', {
    type: 's! enum=Localhost,RuntimeDefault,Unconfined go=SeccompProfileType | Kind of profile: Localhost (a file on the node), RuntimeDefault or Unconfined.',
    localhostProfile: 's | Path of the profile relative to the kubelet\'s seccomp directory; required for Localhost and only allowed there.',
  }),
  c('AppArmorProfile', 'An AppArmor profile.', {
    type: 's! enum=Localhost,RuntimeDefault,Unconfined go=AppArmorProfileType | Kind of profile: Localhost (loaded on the node), RuntimeDefault or Unconfined.',
    localhostProfile: 's | Name of a profile loaded on the node; required for Localhost and only allowed there.',
  }),
  c('PodSecurityContext', 'Pod-wide security attributes; some are defaults for the containers\' security contexts, which win when both are set.', {
    seLinuxOptions: 'SELinuxOptions | SELinux context for all containers; random when unset. Not allowed when spec.os.name is windows.',
    windowsOptions: 'WindowsSecurityContextOptions | Windows-specific options for all containers; not allowed when spec.os.name is linux.',
    runAsUser: 'i64 | UID the entrypoints run as; defaults to the image\'s user. Not allowed when spec.os.name is windows.',
    runAsGroup: 'i64 | GID the entrypoints run as; defaults to the runtime\'s. Not allowed when spec.os.name is windows.',
    runAsNonRoot: 'b | Require a non-root user for every container.',
    supplementalGroups: '[]i64 lt=atomic | Extra GIDs for the first process of each container, added to its primary GID and fsGroup. Not allowed when spec.os.name is windows.',
    supplementalGroupsPolicy: 's enum=Merge,Strict go=SupplementalGroupsPolicy gate=SupplementalGroupsPolicy | How supplemental groups are computed: Merge (default) also adds the groups of the image\'s /etc/group, Strict uses only the listed ones. Not allowed when spec.os.name is windows.',
    fsGroup: 'i64 | GID owning supported volumes, added to every container: files created there belong to it and are group-writable (setgid). Not allowed when spec.os.name is windows.',
    sysctls: '[]Sysctl lt=atomic | Namespaced sysctls for the pod; unsupported ones make the pod fail to start. Not allowed when spec.os.name is windows.',
    fsGroupChangePolicy: 's enum=Always,OnRootMismatch go=PodFSGroupChangePolicy | When volume ownership and permissions are changed: Always (default) or OnRootMismatch. Not allowed when spec.os.name is windows.',
    seccompProfile: 'SeccompProfile | Seccomp profile for all containers. Not allowed when spec.os.name is windows.',
    appArmorProfile: 'AppArmorProfile | AppArmor profile for all containers. Not allowed when spec.os.name is windows.',
    seLinuxChangePolicy: 's go=PodSELinuxChangePolicy gate=SELinuxChangePolicy | How SELinux labels reach volumes: MountOption (mount with -o context) or Recursive (relabel every file). Not allowed when spec.os.name is windows.',
  }),
  c('Sysctl', 'A kernel parameter to set.', {
    name: 's! | Name of the parameter.',
    value: 's! | Value to set.',
  }),
  c('Affinity', 'Scheduling constraints of a pod.', {
    nodeAffinity: 'NodeAffinity | Constraints on the node\'s labels.',
    podAffinity: 'PodAffinity | Schedule near pods matching these terms (same node, zone, ...).',
    podAntiAffinity: 'PodAntiAffinity | Keep away from pods matching these terms.',
  }),
  c('NodeAffinity', 'Node affinity rules of a pod.', {
    requiredDuringSchedulingIgnoredDuringExecution: 'NodeSelector | Rules a node must satisfy for the pod to be scheduled there; not re-checked later.',
    preferredDuringSchedulingIgnoredDuringExecution: '[]PreferredSchedulingTerm lt=atomic | Weighted preferences: the scheduler favours nodes with the highest sum of matching weights.',
  }),
  c(
    'NodeSelector',
    'Node selector terms, ORed.',
    { nodeSelectorTerms: '[]NodeSelectorTerm! lt=atomic | The terms; a node must match at least one.' },
    { mapType: 'atomic' },
  ),
  c(
    'NodeSelectorTerm',
    'Requirements on a node, ANDed. An empty term matches no node.',
    {
      matchExpressions: '[]NodeSelectorRequirement lt=atomic | Requirements on the node\'s labels.',
      matchFields: '[]NodeSelectorRequirement lt=atomic | Requirements on the node\'s fields.',
    },
    { mapType: 'atomic' },
  ),
  c('NodeSelectorRequirement', 'A requirement on one node label or field.', {
    key: 's! | Label key or field name.',
    operator: 's! enum=DoesNotExist,Exists,Gt,In,Lt,NotIn go=NodeSelectorOperator | In, NotIn, Exists, DoesNotExist, Gt or Lt.',
    values: '[]s lt=atomic | Values: non-empty for In and NotIn, empty for Exists and DoesNotExist, one integer for Gt and Lt.',
  }),
  c('PreferredSchedulingTerm', 'A weighted node selector term.', {
    weight: 'i32! | Weight of the term, 1-100.',
    preference: 'NodeSelectorTerm! | The term.',
  }),
  c('PodAffinity', 'Pod affinity rules.', {
    requiredDuringSchedulingIgnoredDuringExecution: '[]PodAffinityTerm lt=atomic | Terms that must all hold for the pod to be scheduled on a node; not re-checked later.',
    preferredDuringSchedulingIgnoredDuringExecution: '[]WeightedPodAffinityTerm lt=atomic | Weighted preferences: the scheduler favours nodes with the highest sum of matching weights.',
  }),
  c('PodAntiAffinity', 'Pod anti-affinity rules.', {
    requiredDuringSchedulingIgnoredDuringExecution: '[]PodAffinityTerm lt=atomic | Terms whose matching pods must not be in the same topology domain; not re-checked later.',
    preferredDuringSchedulingIgnoredDuringExecution: '[]WeightedPodAffinityTerm lt=atomic | Weighted preferences: the scheduler avoids nodes with the highest sum of matching weights.',
  }),
  c('PodAffinityTerm', 'Pods (selected by labels in some namespaces) that this pod should or should not share a topology domain with.', {
    labelSelector: 'LabelSelector | Label query over pods; null matches none.',
    namespaces: '[]s lt=atomic | Namespaces to look in, added to those matched by namespaceSelector. Both empty means the pod\'s namespace.',
    topologyKey: 's! | Node label whose value defines the topology domain. Not empty.',
    namespaceSelector: 'LabelSelector | Label query over namespaces to look in; {} matches all.',
    matchLabelKeys: '[]s lt=atomic | Label keys whose values, taken from this pod, are ANDed into labelSelector as In requirements.',
    mismatchLabelKeys: '[]s lt=atomic | Label keys whose values, taken from this pod, are ANDed into labelSelector as NotIn requirements.',
  }),
  c('WeightedPodAffinityTerm', 'A pod affinity term with a weight.', {
    weight: 'i32! | Weight of the term, 1-100.',
    podAffinityTerm: 'PodAffinityTerm! | The term.',
  }),
  c('Toleration', 'Lets the pod tolerate taints matching <key,value,effect> with the given operator.', {
    key: 's | Taint key; empty matches every key and needs operator Exists.',
    operator: 's enum=Equal,Exists go=TolerationOperator | Equal (default) or Exists, a wildcard for the value.',
    value: 's | Taint value; must be empty with Exists.',
    effect: 's enum=NoExecute,NoSchedule,PreferNoSchedule go=TaintEffect | Effect to match; empty matches every effect.',
    tolerationSeconds: 'i64 | For NoExecute: how long the pod stays bound after the taint appears. Unset means forever; zero or less means evict at once.',
  }),
  c('HostAlias', 'Host names for one IP address in the pod\'s /etc/hosts.', {
    ip: 's! | IP address.',
    hostnames: '[]s lt=atomic | Host names for the address.',
  }),
  c('PodDNSConfig', 'DNS settings of a pod, beyond those from dnsPolicy.', {
    nameservers: '[]s lt=atomic | Name server IP addresses, appended without duplicates.',
    searches: '[]s lt=atomic | DNS search domains, appended without duplicates.',
    options: '[]PodDNSConfigOption lt=atomic | Resolver options; they override options of the same name.',
  }),
  c('PodDNSConfigOption', 'A resolver option.', {
    name: 's | Option name.',
    value: 's | Option value.',
  }),
  c('PodReadinessGate', 'A pod condition that must be True for the pod to be ready.', {
    conditionType: 's! go=PodConditionType | Condition type in the pod\'s conditions.',
  }),
  c('TopologySpreadConstraint', 'How to spread matching pods over a topology.', {
    maxSkew: 'i32! | Largest allowed difference between the number of matching pods in a domain and the global minimum. At least 1.',
    topologyKey: 's! | Node label whose value defines the domain. Nodes without it are ignored.',
    whenUnsatisfiable: 's! enum=DoNotSchedule,ScheduleAnyway go=UnsatisfiableConstraintAction | DoNotSchedule keeps the pod pending; ScheduleAnyway only ranks nodes.',
    labelSelector: 'LabelSelector | Selects the pods counted in each domain.',
    minDomains: 'i32 | Minimum number of eligible domains; fewer are treated as having zero matching pods. Only with DoNotSchedule.',
    nodeAffinityPolicy: 's enum=Honor,Ignore go=NodeInclusionPolicy | Whether the pod\'s nodeAffinity and nodeSelector limit the nodes counted: Honor (default) or Ignore.',
    nodeTaintsPolicy: 's enum=Honor,Ignore go=NodeInclusionPolicy | Whether node taints limit the nodes counted: Honor (only tolerated or untainted nodes) or Ignore (default).',
    matchLabelKeys: '[]s lt=atomic | Label keys whose values, taken from the incoming pod, are ANDed into labelSelector.',
  }),
  c('PodOS', 'The operating system of a pod.', {
    name: 's! go=OSName | linux or windows.',
  }),
  c('PodSchedulingGate', 'A gate that keeps a pod from being scheduled.', {
    name: 's! | Name of the gate, unique among the pod\'s gates.',
  }),
  c('PodResourceClaim', 'A dynamic resource claim of a pod: a ResourceClaim or a template to create one from. Set exactly one source.', {
    name: 's! | Name of the entry, unique within the pod; containers refer to it.',
    resourceClaimName: 's | Name of a ResourceClaim in the pod\'s namespace.',
    resourceClaimTemplateName: 's | Name of a ResourceClaimTemplate; a claim is created from it for the pod and deleted with it.',
  }),
  c('PodStatus', 'Observed state of a pod; may lag behind reality.', {
    observedGeneration: 'i64 gate=PodObservedGenerationTracking since=1.33 | metadata.generation the status was computed from.',
    phase: 's enum=Failed,Pending,Running,Succeeded,Unknown go=PodPhase | High-level summary of where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.',
    conditions: '[]PodCondition ps=merge mk=type lt=map lk=type | Current service state of the pod.',
    message: 's | Human-readable reason for the pod\'s state.',
    reason: 's | Brief CamelCase reason for the pod\'s state, e.g. Evicted.',
    nominatedNodeName: 's | Node where the pod is expected to run once the preemption it triggered completes.',
    hostIP: 's | IP address of the node the pod runs on.',
    hostIPs: '[]HostIP ps=merge mk=ip lt=atomic | IP addresses of the node; the first equals hostIP.',
    podIP: 's | IP address of the pod.',
    podIPs: '[]PodIP ps=merge mk=ip lt=map lk=ip | IP addresses of the pod, at most one per address family; the first equals podIP.',
    startTime: 'Time | When the kubelet acknowledged the pod, before pulling images.',
    initContainerStatuses: '[]ContainerStatus lt=atomic | Status of each init container.',
    containerStatuses: '[]ContainerStatus lt=atomic | Status of each regular container.',
    qosClass: 's enum=BestEffort,Burstable,Guaranteed go=PodQOSClass | QoS class assigned from the resource requirements: Guaranteed, Burstable or BestEffort.',
    ephemeralContainerStatuses: '[]ContainerStatus lt=atomic | Status of each ephemeral container.',
    resize: 's go=PodResizeStatus gate=InPlacePodVerticalScaling | State of a requested in-place resize: Proposed, InProgress, Deferred or Infeasible.',
    resourceClaimStatuses: '[]PodResourceClaimStatus ps=merge,retainKeys mk=name lt=map lk=name gate=DynamicResourceAllocation | Names of the ResourceClaims generated for the pod\'s claim templates.',
  }),
  c('PodCondition', 'One aspect of a pod\'s state.', {
    type: 's! go=PodConditionType | Type of the condition, e.g. Ready or PodScheduled.',
    observedGeneration: 'i64 gate=PodObservedGenerationTracking since=1.33 | metadata.generation the condition was set from.',
    status: 's! go=ConditionStatus | True, False or Unknown.',
    lastProbeTime: 'Time | Last time the condition was probed.',
    lastTransitionTime: 'Time | Last time the status changed.',
    reason: 's | CamelCase reason for the last transition.',
    message: 's | Human-readable details of the last transition.',
  }),
  c('HostIP', 'An IP address of the pod\'s node.', {
    ip: 's! | The address.',
  }),
  c('PodIP', 'An IP address of the pod.', {
    ip: 's! | The address.',
  }),
  c('ContainerStatus', 'Observed state of one container.', {
    name: 's! | Name of the container, as in the spec.',
    state: 'ContainerState | Current state.',
    lastState: 'ContainerState | State of the previous termination, if any.',
    ready: 'b! | Whether the container passes its readiness probe (true when it has none).',
    restartCount: 'i32! | Number of restarts, based on the dead containers not yet garbage-collected.',
    image: 's! | Image the container runs.',
    imageID: 's! | ID of that image, usually a digest.',
    containerID: 's | ID of the container, as <type>://<id>.',
    started: 'b | Whether the container passed its startup probe (true when it has none); false after a restart.',
    allocatedResources: 'rl gate=InPlacePodVerticalScalingAllocatedStatus | Resources the node allocated to the container.',
    resources: 'ResourceRequirements gate=InPlacePodVerticalScaling | Requests and limits actually applied to the running container.',
    volumeMounts: '[]VolumeMountStatus ps=merge mk=mountPath lt=map lk=mountPath gate=RecursiveReadOnlyMounts | State of the container\'s volume mounts.',
    user: 'ContainerUser gate=SupplementalGroupsPolicy | Identity of the container\'s first process, as reported by the runtime.',
    allocatedResourcesStatus: '[]ResourceStatus ps=merge mk=name lt=map lk=name gate=ResourceHealthStatus | Health of the resources allocated to the container.',
    stopSignal: `s enum=${stopSignals.join(',')} go=Signal gate=ContainerStopSignals since=1.33 | Stop signal in effect for the container.`,
  }),
  c('ContainerState', 'State of a container; at most one field is set, and none means waiting.', {
    waiting: 'ContainerStateWaiting | The container is waiting to start.',
    running: 'ContainerStateRunning | The container is running.',
    terminated: 'ContainerStateTerminated | The container has ended.',
  }),
  c('ContainerStateWaiting', 'A container waiting to start.', {
    reason: 's | Brief reason, e.g. ContainerCreating or CrashLoopBackOff.',
    message: 's | Details of the reason.',
  }),
  c('ContainerStateRunning', 'A running container.', {
    startedAt: 'Time | When the container last (re)started.',
  }),
  c('ContainerStateTerminated', 'A container that has ended.', {
    exitCode: 'i32! | Exit status of the last termination.',
    signal: 'i32 | Signal of the last termination.',
    reason: 's | Brief reason, e.g. Completed, Error or OOMKilled.',
    message: 's | Details of the termination.',
    startedAt: 'Time | When the container started.',
    finishedAt: 'Time | When the container ended.',
    containerID: 's | ID of the container, as <type>://<id>.',
  }),
  c('VolumeMountStatus', 'State of one volume mount.', {
    name: 's! | Name of the volume mount.',
    mountPath: 's! | Path of the mount.',
    readOnly: 'b | Whether the mount is read-only.',
    recursiveReadOnly: 's go=RecursiveReadOnlyMode gate=RecursiveReadOnlyMounts | Disabled, Enabled or unset (not read-only).',
  }),
  c('ContainerUser', 'Identity of a container\'s first process.', {
    linux: 'LinuxContainerUser | Linux identity; unset on Windows.',
  }),
  c('LinuxContainerUser', 'Linux identity of a container\'s first process.', {
    uid: 'i64! | Primary UID.',
    gid: 'i64! | Primary GID.',
    supplementalGroups: '[]i64 lt=atomic | Supplemental GIDs.',
  }),
  c('ResourceStatus', 'Health of the devices behind one resource of a container.', {
    name: 's! go=ResourceName | Resource name: claim:<claim>/<request> for dynamic resources, otherwise the extended resource name.',
    resources: '[]ResourceHealth lt=map lk=resourceID | Health of each allocated device.',
  }),
  c('ResourceHealth', 'Health of one device.', {
    resourceID: 's! go=ResourceID | Unique ID of the device.',
    health: 's go=ResourceHealthStatus | Healthy, Unhealthy or Unknown.',
  }),
  c('PodResourceClaimStatus', 'The ResourceClaim generated for one of the pod\'s claim entries.', {
    name: 's! | Name of the entry in spec.resourceClaims.',
    resourceClaimName: 's | Name of the generated ResourceClaim; unset when none was needed.',
  }),
];
