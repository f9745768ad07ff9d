// The scheduler's filters, one small function per upstream kube-scheduler Filter plugin that
// Bulkhead needs, run in the default profile's order (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodeResourcesFit, NodeDeclaredFeatures). As upstream's
// framework does, the first filter that rejects a node decides its reasons.
//
// Reason texts are upstream's (kubernetes/kubernetes master as stored, 1.35 era):
//   nodeunschedulable/node_unschedulable.go   "node(s) were unschedulable"
//   nodename/node_name.go                     "node(s) didn't match the requested node name"
//   tainttoleration/taint_toleration.go       "node(s) had untolerated taint(s)"
//     (1.25–1.34 printed "node(s) had untolerated taint {key: value}"; newer versions dropped
//     the key and value)
//   nodeaffinity/node_affinity.go             "node(s) didn't match Pod's node affinity/selector"
//   noderesources/fit.go                      "Too many pods", "Insufficient cpu",
//                                             "Insufficient memory", "Insufficient <name>"
//   nodedeclaredfeatures/nodedeclaredfeatures.go "node(s) didn't match Pod's required features"

import { decodeCapabilities, hardCeilingsAsBigInt } from '../policy/nodecapabilities.js';
import { ReasonUlimitCeilings, ulimitCeilingsReason, ulimitsAboveCeilings } from '../policy/ulimitceilings.js';
import type { FeatureGates } from '../api/featuregates.js';
import { podRequests } from '../api/podresources.js';
import { addInto, parseResourceList, ResourceCPU, ResourceEphemeralStorage, ResourceMemory, type Resources } from '../api/resourcelist.js';
import type { Node, Pod, Taint, Toleration } from '../api/types.js';
import { computePodQOS } from '../policy/qos.js';

export const ReasonUnschedulable = "node(s) were unschedulable";
export const ReasonNodeName = "node(s) didn't match the requested node name";
export const ReasonUntoleratedTaint = 'node(s) had untolerated taint(s)';
export const ReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
export const ReasonTooManyPods = 'Too many pods';
export const ReasonRequiredFeatures = "node(s) didn't match Pod's required features";

export const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';
export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';
export const TaintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';
export const TaintNodeDiskPressure = 'node.kubernetes.io/disk-pressure';
export const TaintNodePIDPressure = 'node.kubernetes.io/pid-pressure';

/** The node declared feature (status.declaredFeatures) a pod with ulimits needs. */
export const UlimitsFeature = 'ContainerUlimits';

/**
 * Upstream's two rejection codes: an `Unschedulable` node might take the pod after pods are
 * removed from it (preemption may help); an `UnschedulableAndUnresolvable` one cannot.
 */
export type RejectCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface Rejection {
  code: RejectCode;
  /** The filter (upstream plugin name) that rejected the node. */
  plugin: string;
  reasons: string[];
}

export type SchedulerGates = Pick<FeatureGates, 'PodLevelResources' | 'ContainerUlimits'>;

export interface FitResult {
  fits: boolean;
  reasons: string[];
  rejection?: Rejection;
}

type Filter = (pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates) => Rejection | undefined;

// ---------------------------------------------------------------- NodeUnschedulable

export function nodeUnschedulableFilter(pod: Pod, node: Node): Rejection | undefined {
  if (!node.spec?.unschedulable) return undefined;
  // A pod that tolerates the unschedulable taint also tolerates spec.unschedulable.
  if (tolerationsTolerateTaint(pod.spec.tolerations, { key: TaintNodeUnschedulable, effect: 'NoSchedule' })) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeUnschedulable', reasons: [ReasonUnschedulable] };
}

// ---------------------------------------------------------------- NodeName

export function nodeNameFilter(pod: Pod, node: Node): Rejection | undefined {
  const want = pod.spec.nodeName;
  if (!want || want === node.metadata.name) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeName', reasons: [ReasonNodeName] };
}

// ---------------------------------------------------------------- TaintToleration

/** ToleratesTaint (k8s.io/api/core/v1 toleration.go), without the alpha Lt/Gt operators. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      // An empty key with operator Equal is invalid and matches nothing.
      if (!t.key) return false;
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

function conditionStatus(node: Node, type: string): string | undefined {
  return node.status?.conditions?.find((c) => c.type === type)?.status;
}

/**
 * The node's taints as the node lifecycle controller would have set them: spec.taints plus the
 * condition taints (`TaintNodesByCondition`) that Bulkhead has no controller to write. A node
 * without a Ready condition yet counts as not ready, as upstream taints new nodes.
 */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const add = (key: string) => {
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  };
  const ready = conditionStatus(node, 'Ready');
  if (ready === 'Unknown') add(TaintNodeUnreachable);
  else if (ready !== 'True') add(TaintNodeNotReady);
  if (conditionStatus(node, 'MemoryPressure') === 'True') add(TaintNodeMemoryPressure);
  if (conditionStatus(node, 'DiskPressure') === 'True') add(TaintNodeDiskPressure);
  if (conditionStatus(node, 'PIDPressure') === 'True') add(TaintNodePIDPressure);
  if (node.spec?.unschedulable) add(TaintNodeUnschedulable);
  return taints;
}

/**
 * The pod's tolerations as admission leaves them: a pod that is not BestEffort tolerates the
 * memory-pressure taint (the PodTolerationRestriction admission plugin adds that toleration
 * upstream; see /work/shared/reference/quota-validation-eviction.md §5.6).
 */
export function effectiveTolerations(pod: Pod, gates: SchedulerGates): Toleration[] {
  const own = pod.spec.tolerations ?? [];
  if (computePodQOS(pod, gates) === 'BestEffort') return own;
  return [...own, { key: TaintNodeMemoryPressure, operator: 'Exists', effect: 'NoSchedule' }];
}

export function taintTolerationFilter(pod: Pod, node: Node, _pods: readonly Pod[], gates: SchedulerGates): Rejection | undefined {
  const tolerations = effectiveTolerations(pod, gates);
  const untolerated = effectiveTaints(node).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerationsTolerateTaint(tolerations, t));
  if (!untolerated) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration', reasons: [ReasonUntoleratedTaint] };
}

// ---------------------------------------------------------------- NodeAffinity

interface NodeSelectorLike {
  nodeSelectorTerms?: unknown[];
}

interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

function parseIntStrict(s: string): bigint | undefined {
  return /^-?\d+$/.test(s) ? BigInt(s) : undefined;
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const have = parseIntStrict(value);
      const want = parseIntStrict(values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // An empty term matches no objects.
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const e of exprs) if (!requirementMatches(e, Object.prototype.hasOwnProperty.call(labels, e.key) ? labels[e.key] : undefined)) return false;
  for (const f of fields) {
    // metadata.name is the only supported field.
    if (f.key !== 'metadata.name') return false;
    if (!requirementMatches(f, node.metadata.name)) return false;
  }
  return true;
}

function requiredNodeAffinity(pod: Pod): NodeSelectorTerm[] | undefined {
  const na = pod.spec.affinity?.nodeAffinity as { requiredDuringSchedulingIgnoredDuringExecution?: NodeSelectorLike } | undefined;
  const req = na?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!req) return undefined;
  return (req.nodeSelectorTerms ?? []) as NodeSelectorTerm[];
}

/** nodeSelector (every label equal) and required node affinity (any term matches). */
export function podMatchesNodeSelectorAndAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) {
    if (!Object.prototype.hasOwnProperty.call(labels, k) || labels[k] !== v) return false;
  }
  const terms = requiredNodeAffinity(pod);
  if (terms !== undefined && !terms.some((t) => termMatches(t, node))) return false;
  return true;
}

export function nodeAffinityFilter(pod: Pod, node: Node): Rejection | undefined {
  if (podMatchesNodeSelectorAndAffinity(pod, node)) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeAffinity', reasons: [ReasonNodeAffinity] };
}

// ---------------------------------------------------------------- NodeResourcesFit

/** Pods that hold resources on a node: everything bound there that has not finished. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** What the fit filter counts for a pod: its real requests (no non-zero defaults), overhead included. */
export function fitRequests(pod: Pod, gates: SchedulerGates): Resources {
  return podRequests(pod, { podLevelResources: gates.PodLevelResources });
}

/** Integer amount of a resource as the scheduler's Resource holds it: millicores for cpu, units otherwise. */
function amount(name: string, r: Resources): bigint {
  const q = r.get(name);
  if (!q) return 0n;
  return name === ResourceCPU ? q.milliValue() : q.value();
}

/** Resource names the fit filter compares beyond cpu/memory/ephemeral-storage (upstream's scalar resources). */
function isScalarResourceName(name: string): boolean {
  if (name === ResourceCPU || name === ResourceMemory || name === ResourceEphemeralStorage || name === 'pods') return false;
  return name.startsWith('hugepages-') || name.startsWith('attachable-volumes-') || name.includes('/');
}

/** The sum of the fit requests of the active pods on a node. */
export function requestedOnNode(podsOnNode: readonly Pod[], gates: SchedulerGates): Resources {
  const total: Resources = new Map();
  for (const p of podsOnNode) {
    if (!isActivePod(p)) continue;
    for (const [k, q] of fitRequests(p, gates)) addInto(total, k, q);
  }
  return total;
}

/** fitsRequest of noderesources/fit.go: reasons in upstream's order (pods, cpu, memory, ephemeral-storage, scalars). */
export function insufficientResources(pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates): string[] {
  const reasons: string[] = [];
  const allocatable = parseResourceList(node.status?.allocatable);
  const allowedPods = amount('pods', allocatable);
  const active = podsOnNode.filter(isActivePod);
  if (BigInt(active.length) + 1n > allowedPods) reasons.push(ReasonTooManyPods);

  const want = fitRequests(pod, gates);
  const scalars = [...want.keys()].filter(isScalarResourceName).sort();
  const cpu = amount(ResourceCPU, want);
  const mem = amount(ResourceMemory, want);
  const eph = amount(ResourceEphemeralStorage, want);
  if (cpu === 0n && mem === 0n && eph === 0n && scalars.length === 0) return reasons;

  const used = requestedOnNode(active, gates);
  for (const name of [ResourceCPU, ResourceMemory, ResourceEphemeralStorage]) {
    const w = amount(name, want);
    if (w > 0n && w > amount(name, allocatable) - amount(name, used)) reasons.push(`Insufficient ${name}`);
  }
  for (const name of scalars) {
    const w = amount(name, want);
    if (w === 0n) continue;
    if (w > amount(name, allocatable) - amount(name, used)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

export function nodeResourcesFitFilter(pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates): Rejection | undefined {
  const reasons = insufficientResources(pod, node, podsOnNode, gates);
  return reasons.length ? { code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons } : undefined;
}

// ---------------------------------------------------------------- NodeDeclaredFeatures

/** The node features a pod needs: `ContainerUlimits` when any container sets securityContext.ulimits. */
export function requiredFeatures(pod: Pod, gates: SchedulerGates): string[] {
  const out: string[] = [];
  if (gates.ContainerUlimits) {
    const all = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? []), ...(pod.spec.ephemeralContainers ?? [])];
    if (all.some((c) => (c.securityContext?.ulimits?.length ?? 0) > 0)) out.push(UlimitsFeature);
  }
  return out;
}

export function nodeDeclaredFeaturesFilter(pod: Pod, node: Node, _pods: readonly Pod[], gates: SchedulerGates): Rejection | undefined {
  const need = requiredFeatures(pod, gates);
  if (need.length === 0) return undefined;
  const declared = new Set(node.status?.declaredFeatures ?? []);
  if (need.every((f) => declared.has(f))) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeDeclaredFeatures', reasons: [ReasonRequiredFeatures] };
}

// ---------------------------------------------------------------- Bulkhead: ulimit ceilings

/**
 * Bulkhead's own filter (the ulimits design and DESIGN "Hosts that cannot grant a value"): a
 * node whose agent cannot raise hard rlimits as high as a container asks (no
 * CAP_SYS_RESOURCE) declares its ceilings, and such pods are not scheduled there. The reason
 * names each limit and the node's ceiling (src/policy/ulimitceilings.ts, shared with plan), so
 * nodes with the same ceilings are counted together and others apart.
 */
export { ReasonUlimitCeilings };

export function nodeUlimitCeilingsFilter(pod: Pod, node: Node, _pods: readonly Pod[], gates: SchedulerGates): Rejection | undefined {
  if (!gates.ContainerUlimits) return undefined;
  const caps = decodeCapabilities(node.metadata?.annotations);
  if (!caps) return undefined;
  const above = ulimitsAboveCeilings(pod, hardCeilingsAsBigInt(caps));
  if (above.length === 0) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeUlimitCeilings', reasons: [ulimitCeilingsReason(above)] };
}

// ---------------------------------------------------------------- all together

/** The filters in the order of upstream's default profile. */
export const filters: readonly Filter[] = [
  nodeUnschedulableFilter,
  nodeNameFilter,
  taintTolerationFilter,
  nodeAffinityFilter,
  nodeResourcesFitFilter,
  nodeDeclaredFeaturesFilter,
  nodeUlimitCeilingsFilter,
];

/** Runs the filters on one node; the first rejection decides the reasons. */
export function fitsNode(pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates): FitResult {
  for (const f of filters) {
    const r = f(pod, node, podsOnNode, gates);
    if (r) return { fits: false, reasons: r.reasons, rejection: r };
  }
  return { fits: true, reasons: [] };
}
