// The subset of Kubernetes core/v1 (and a few other groups) that Bulkhead serves and reasons
// about. Objects travel as plain JSON exactly as Kubernetes writes them: quantities are strings,
// optional fields are absent rather than null. Two fields come from the designs rather than
// upstream: `oomKillMode` on containers and `securityContext.ulimits`.

export type ResourceList = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

export interface KubeObject extends TypeMeta {
  metadata?: ObjectMeta;
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: { name: string; request?: string }[];
}

export type OOMKillMode = 'Single' | 'Group';

/** One rlimit of the ulimits design: `{name, soft, hard}`, -1 meaning unlimited. */
export interface Ulimit {
  name: string;
  soft: number;
  hard: number;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface SeccompProfile {
  type: string;
  localhostProfile?: string;
}

export interface AppArmorProfile {
  type: string;
  localhostProfile?: string;
}

export interface WindowsSecurityContextOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}

export interface SecurityContext {
  capabilities?: Capabilities;
  privileged?: boolean;
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  procMount?: string;
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
  /** Per-container rlimits (ulimits design, feature gate ContainerUlimits). */
  ulimits?: Ulimit[];
}

export interface Sysctl {
  name: string;
  value: string;
}

export interface PodSecurityContext {
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  fsGroup?: number;
  sysctls?: Sysctl[];
  /** Always (default) or OnRootMismatch. */
  fsGroupChangePolicy?: string;
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
}

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: string;
  hostIP?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

export interface HTTPGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: string;
  httpHeaders?: { name: string; value: string }[];
}

export interface TCPSocketAction {
  port: number | string;
  host?: string;
}

export interface ExecAction {
  command?: string[];
}

export interface ProbeHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  grpc?: { port: number; service?: string };
}

export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface LifecycleHandler extends ProbeHandler {
  sleep?: { seconds: number };
}

export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
  stopSignal?: string;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  /** Disabled, IfPossible or Enabled (RecursiveReadOnlyMounts, beta and on in v1.32). */
  recursiveReadOnly?: string;
  subPath?: string;
  subPathExpr?: string;
  /** None, HostToContainer or Bidirectional. */
  mountPropagation?: string;
}

export interface VolumeDevice {
  name: string;
  devicePath: string;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  /** In-place resize policy per resource (InPlacePodVerticalScaling). */
  resizePolicy?: ContainerResizePolicy[];
  /** Init containers only: `Always` makes the init container a sidecar. */
  restartPolicy?: string;
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  /** OOM kill mode design, feature gate ContainerOOMKillMode. */
  oomKillMode?: OOMKillMode | string;
}

export interface ContainerResizePolicy {
  /** cpu or memory. */
  resourceName: string;
  /** NotRequired or RestartContainer. */
  restartPolicy: string;
}

export interface EphemeralContainer extends Container {
  targetContainerName?: string;
}

export interface Volume {
  name: string;
  [source: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinityLike {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinityLike;
  podAntiAffinity?: PodAffinityLike;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  matchLabelKeys?: string[];
}

export interface HostAlias {
  ip: string;
  hostnames?: string[];
}

export interface PodDNSConfigOption {
  name?: string;
  value?: string;
}

export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: PodDNSConfigOption[];
}

export interface PodOS {
  name: string;
}

/** A reference to an object in the same namespace, by name (imagePullSecrets). */
export interface LocalObjectReference {
  name?: string;
}

export interface PodReadinessGate {
  conditionType: string;
}

export interface PodSchedulingGate {
  name: string;
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: EphemeralContainer[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  overhead?: ResourceList;
  hostAliases?: HostAlias[];
  dnsConfig?: PodDNSConfig;
  readinessGates?: PodReadinessGate[];
  os?: PodOS;
  hostUsers?: boolean;
  schedulingGates?: PodSchedulingGate[];
  /** Pod-level resources (PodLevelResources). */
  resources?: ResourceRequirements;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
}

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  /** Set by the scheduler when this pod preempted pods on that node. */
  nominatedNodeName?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: QOSClass;
}

export interface Pod extends KubeObject {
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ResourceQuota extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    hard?: ResourceList;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
  };
  status?: { hard?: ResourceList; used?: ResourceList };
}

export interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange extends KubeObject {
  metadata: ObjectMeta;
  spec: { limits: LimitRangeItem[] };
}

export interface Namespace extends KubeObject {
  metadata: ObjectMeta;
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: unknown[] };
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Node extends KubeObject {
  metadata: ObjectMeta;
  spec?: { podCIDR?: string; unschedulable?: boolean; taints?: Taint[]; providerID?: string };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    conditions?: NodeCondition[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: Record<string, string>;
    daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
    declaredFeatures?: string[];
    /** The runtime handlers the node runs pods with (RuntimeClass handlers), the default one under the empty name. */
    runtimeHandlers?: { name: string; features?: { recursiveReadOnlyMounts?: boolean; userNamespaces?: boolean } }[];
  };
}

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface Event extends KubeObject {
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  reportingComponent?: string;
  reportingInstance?: string;
  action?: string;
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status extends KubeObject {
  metadata: { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

export interface List<T extends KubeObject = KubeObject> extends KubeObject {
  metadata?: { resourceVersion?: string; continue?: string };
  items: T[];
}

/** Kinds of container in a pod, as the plan output names them. */
export type ContainerKind = 'container' | 'init' | 'sidecar' | 'ephemeral';

export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/** scheduling.k8s.io/v1 PriorityClass. */
export interface PriorityClass extends KubeObject {
  metadata: ObjectMeta;
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

export interface Lease extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export interface ConfigMap extends KubeObject {
  metadata: ObjectMeta;
  immutable?: boolean;
  data?: Record<string, string>;
  /** Base64 in JSON, as stored and served. */
  binaryData?: Record<string, string>;
}

export interface Secret extends KubeObject {
  metadata: ObjectMeta;
  immutable?: boolean;
  /** Base64 in JSON, as stored and served. */
  data?: Record<string, string>;
  /** Write-only: merged into data on create and update, never stored. */
  stringData?: Record<string, string>;
  type?: string;
}

export interface ServiceAccount extends KubeObject {
  metadata: ObjectMeta;
  secrets?: { name?: string; namespace?: string; kind?: string; apiVersion?: string; uid?: string; resourceVersion?: string; fieldPath?: string }[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

export type * from './batchtypes.js';
export type * from './appstypes.js';
export type * from './certificatestypes.js';
export type * from './policytypes.js';
export type * from './nodetypes.js';
export type * from './servicetypes.js';
export type * from './autoscalingtypes.js';
export type * from './endpointstypes.js';
export type * from './rbactypes.js';
