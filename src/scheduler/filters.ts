// The scheduler's filters, one small function per upstream kube-scheduler Filter plugin that
// Bulkhead needs, run in the default profile's order (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, NodeDeclaredFeatures). As upstream's
// framework does, the first filter that rejects a node decides its reasons.
//
// Each filter reads what PreFilter computed of the pod once per attempt (PodState, upstream's
// CycleState) and the node's NodeInfo (nodeinfo.ts), so a node costs a few comparisons, not a
// parse of its allocatable and a sum over its pods. fitsNode, over a node and a list of pods,
// builds both for the callers that have no cache.
//
// Reason texts are upstream's v1.32 ones (pkg/scheduler/framework/plugins/…):
//   nodeunschedulable/node_unschedulable.go   "node(s) were unschedulable"
//   nodename/node_name.go                     "node(s) didn't match the requested node name"
//   tainttoleration/taint_toleration.go       "node(s) had untolerated taint {key: value}", the
//     first untolerated NoSchedule/NoExecute taint (v1.25–v1.34; later versions print
//     "node(s) had untolerated taint(s)" without the key and value)
//   nodeaffinity/node_affinity.go             "node(s) didn't match Pod's node affinity/selector"
//   nodeports/node_ports.go                   "node(s) didn't have free ports for the requested pod ports"
//   noderesources/fit.go                      "Too many pods", "Insufficient cpu",
//                                             "Insufficient memory", "Insufficient <name>"
//   nodedeclaredfeatures/nodedeclaredfeatures.go "node(s) didn't match Pod's required features"

import type { FeatureGates } from '../api/featuregates.js';
import type { Node, Pod, Taint, Toleration } from '../api/types.js';
import { ReasonUlimitCeilings, ulimitCeilingsReason, ulimitsAboveCeilings } from '../policy/ulimitceilings.js';
import { computePodQOS } from '../policy/qos.js';
import { isQualifiedName, isValidLabelValue } from '../api/validation/names.js';
import { ResourceCPU, ResourceEphemeralStorage, ResourceMemory } from '../api/resourcelist.js';
import type { Amount } from './amount.js';
import { NodeInfo, podInfo, TaintNodeMemoryPressure, TaintNodeUnschedulable, type HostPort, type PodInfo } from './nodeinfo.js';

export {
  effectiveTaints,
  isActivePod,
  TaintNodeDiskPressure,
  TaintNodeMemoryPressure,
  TaintNodeNotReady,
  TaintNodePIDPressure,
  TaintNodeUnreachable,
  TaintNodeUnschedulable,
} from './nodeinfo.js';

export const ReasonUnschedulable = "node(s) were unschedulable";
export const ReasonNodeName = "node(s) didn't match the requested node name";
/** TaintToleration's reason: `{key: value}` of the first untolerated taint (an empty value prints as nothing). */
export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}
export const ReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
export const ReasonNodePorts = "node(s) didn't have free ports for the requested pod ports";
export const ReasonTooManyPods = 'Too many pods';
export const ReasonRequiredFeatures = "node(s) didn't match Pod's required features";

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

/** What the filters need of the pod, computed once per attempt (the PreFilter plugins' state). */
export interface PodState {
  pod: Pod;
  gates: SchedulerGates;
  info: PodInfo;
  /** Tolerations with the ones admission adds (effectiveTolerations). */
  tolerations: Toleration[];
  /** spec.unschedulable is tolerated (the pod's own tolerations tolerate the unschedulable taint). */
  toleratesUnschedulable: boolean;
  /** Has a nodeSelector or required node affinity. */
  selects: boolean;
  /** The host ports the pod asks for (NodePorts' PreFilter state); none: the filter is skipped. */
  hostPorts: readonly HostPort[];
  /** The fit filter's comparisons, in upstream's order (cpu, memory, ephemeral-storage, scalars by name); zero amounts left out. */
  checks: { name: string; want: Amount }[];
  features: string[];
  /** Some container sets ulimits and the gate is on: the ceilings filter has something to judge. */
  hasUlimits: boolean;
}

export function podState(pod: Pod, gates: SchedulerGates): PodState {
  const info = podInfo(pod, gates);
  const checks: { name: string; want: Amount }[] = [];
  for (const name of [ResourceCPU, ResourceMemory, ResourceEphemeralStorage]) {
    const want = info.fit.get(name) ?? 0;
    if (want > 0) checks.push({ name, want });
  }
  for (const name of [...info.fit.keys()].filter(isScalarResourceName).sort()) {
    const want = info.fit.get(name)!;
    if (want !== 0) checks.push({ name, want });
  }
  const features = requiredFeatures(pod, gates);
  return {
    pod,
    gates,
    info,
    tolerations: effectiveTolerations(pod, gates),
    toleratesUnschedulable: tolerationsTolerateTaint(pod.spec.tolerations, { key: TaintNodeUnschedulable, effect: 'NoSchedule' }),
    selects: Object.keys(pod.spec.nodeSelector ?? {}).length > 0 || requiredNodeAffinity(pod) !== undefined,
    hostPorts: info.hostPorts,
    checks,
    features,
    hasUlimits: gates.ContainerUlimits && features.includes(UlimitsFeature),
  };
}

// Each filter: the node's rejection, or undefined when it passes. The walk only sees nodes that
// exist (NodeInfo.node is set).

// ---------------------------------------------------------------- NodeUnschedulable

export function nodeUnschedulableFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  if (!n.node!.spec?.unschedulable) return undefined;
  // A pod that tolerates the unschedulable taint also tolerates spec.unschedulable.
  if (s.toleratesUnschedulable) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeUnschedulable', reasons: [ReasonUnschedulable] };
}

// ---------------------------------------------------------------- NodeName

export function nodeNameFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  const want = s.pod.spec.nodeName;
  if (!want || want === n.name) return undefined;
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

export function taintTolerationFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  if (n.hardTaints.length === 0) return undefined;
  const untolerated = n.hardTaints.find((t) => !tolerationsTolerateTaint(s.tolerations, t));
  if (!untolerated) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration', reasons: [untoleratedTaintReason(untolerated)] };
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

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

/** strconv.ParseInt(s, 10, 64): an optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
}

// A node selector term is parsed as component-helpers' nodeaffinity parses it: matchExpressions
// become a label selector (labels.NewRequirement's checks), matchFields a field selector on
// metadata.name. A term with any requirement that does not parse matches no node
// (nodeSelectorTerm.match returns its parse errors), e.g. an In value that is no valid label
// value (TestNodeAffinity "Pod with an invalid value in Affinity term won't be scheduled onto
// the node").

/** labels.NewRequirement's checks of one matchExpressions entry. */
function labelRequirementParses(r: NodeSelectorRequirement): boolean {
  if (isQualifiedName(r.key).length > 0) return false;
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) return false;
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) return false;
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1 || parseInt64(values[0]!) === undefined) return false;
      break;
    default:
      return false;
  }
  return values.every((v) => isValidLabelValue(v).length === 0);
}

/** nodeSelectorRequirementsAsFieldSelector's checks of one matchFields entry: metadata.name, one value, In or NotIn. */
function fieldRequirementParses(r: NodeSelectorRequirement): boolean {
  return r.key === 'metadata.name' && (r.values ?? []).length === 1 && (r.operator === 'In' || r.operator === 'NotIn');
}

const termParses = new WeakMap<NodeSelectorTerm, boolean>();

/** Whether every requirement of the term parses (labels.NewRequirement's and the field selector's checks). */
export function nodeSelectorTermParses(term: NodeSelectorTerm): boolean {
  let ok = termParses.get(term);
  if (ok === undefined) {
    ok = (term.matchExpressions ?? []).every(labelRequirementParses) && (term.matchFields ?? []).every(fieldRequirementParses);
    termParses.set(term, ok);
  }
  return ok;
}

/** A parsed requirement against a label (or field) value, undefined when absent. */
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
      if (value === undefined) return false;
      const have = parseInt64(value);
      if (have === undefined) return false;
      const want = parseInt64(values[0]!)!;
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** nodeSelectorTerm.match: every requirement holds for the node's labels and metadata.name; an empty or unparsable term matches nothing. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // An empty term matches no objects.
  if (exprs.length === 0 && fields.length === 0) return false;
  if (!nodeSelectorTermParses(term)) return false;
  const labels = node.metadata.labels ?? {};
  for (const e of exprs) if (!requirementMatches(e, Object.prototype.hasOwnProperty.call(labels, e.key) ? labels[e.key] : undefined)) return false;
  for (const f of fields) if (!requirementMatches(f, node.metadata.name)) return false;
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
  if (terms !== undefined && !terms.some((t) => nodeSelectorTermMatches(t, node))) return false;
  return true;
}

/** NodeAffinity PreFilter's errReasonConflict: every term names nodes, and no node is named by all requirements of a term. */
export const ReasonAffinityConflict = 'pod affinity terms conflict';

/** The status framework.findNodesThatFitPod gives the nodes a PreFilterResult leaves out (v1.32 schedule_one.go). */
export const ReasonPreFilterNodeAffinity = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

/**
 * NodeAffinity's PreFilterResult (node_affinity.go PreFilter): when every required term names
 * nodes (matchFields metadata.name In; the names of one term's requirements intersected), the
 * union of those names, the only nodes the filters then look at; an empty set when the terms
 * conflict (the PreFilter rejects the pod); undefined when any node may do.
 */
export function nodeAffinityPreFilterNames(pod: Pod): Set<string> | undefined {
  const terms = requiredNodeAffinity(pod);
  if (!terms || terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const t of terms) {
    let termNames: Set<string> | undefined;
    for (const r of t.matchFields ?? []) {
      if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
      const s = new Set(r.values ?? []);
      termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
    }
    // A term without node names lets every node through: the terms are ORed.
    if (!termNames) return undefined;
    for (const n of termNames) names.add(n);
  }
  return names;
}

export function nodeAffinityFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  if (!s.selects || podMatchesNodeSelectorAndAffinity(s.pod, n.node!)) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeAffinity', reasons: [ReasonNodeAffinity] };
}

// ---------------------------------------------------------------- NodePorts

/**
 * NodePorts (nodeports/node_ports.go): the node must hold none of the host ports the pod asks
 * for (HostPortInfo.conflicts, nodeinfo.ts). Unschedulable, not unresolvable: removing the pods
 * that hold the ports frees them, so preemption may help. A pod that asks for no host port skips
 * the filter (its PreFilter returns Skip).
 */
export function nodePortsFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  const want = s.hostPorts;
  if (want.length === 0) return undefined;
  for (let i = 0; i < want.length; i++) {
    const p = want[i]!;
    if (n.usedPorts.conflicts(p.ip, p.protocol, p.port)) return { code: 'Unschedulable', plugin: 'NodePorts', reasons: [ReasonNodePorts] };
  }
  return undefined;
}

// ---------------------------------------------------------------- NodeResourcesFit

/** Resource names the fit filter compares beyond cpu/memory/ephemeral-storage (upstream's scalar resources). */
function isScalarResourceName(name: string): boolean {
  if (name === ResourceCPU || name === ResourceMemory || name === ResourceEphemeralStorage || name === 'pods') return false;
  return name.startsWith('hugepages-') || name.startsWith('attachable-volumes-') || name.includes('/');
}

/** fitsRequest of noderesources/fit.go: reasons in upstream's order (pods, cpu, memory, ephemeral-storage, scalars). */
export function insufficientResources(s: PodState, n: NodeInfo): string[] | undefined {
  let reasons: string[] | undefined;
  if (n.pods.size + 1 > n.allowedPods) reasons = [ReasonTooManyPods];
  const checks = s.checks;
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i]!;
    if (c.want > (n.free.get(c.name) ?? 0)) (reasons ??= []).push(`Insufficient ${c.name}`);
  }
  return reasons;
}

export function nodeResourcesFitFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  const reasons = insufficientResources(s, n);
  return reasons ? { code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons } : undefined;
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

export function nodeDeclaredFeaturesFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  if (s.features.length === 0) return undefined;
  if (s.features.every((f) => n.declaredFeatures.has(f))) return undefined;
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

export function nodeUlimitCeilingsFilter(s: PodState, n: NodeInfo): Rejection | undefined {
  if (!s.hasUlimits || !n.ulimitCeilings) return undefined;
  const above = ulimitsAboveCeilings(s.pod, n.ulimitCeilings);
  if (above.length === 0) return undefined;
  return { code: 'UnschedulableAndUnresolvable', plugin: 'NodeUlimitCeilings', reasons: [ulimitCeilingsReason(above)] };
}

// ---------------------------------------------------------------- all together

const fits: FitResult = Object.freeze({ fits: true, reasons: Object.freeze([]) as unknown as string[] });

/** Runs the filters on one node in the order of upstream's default profile; the first rejection decides the reasons. */
export function fitsNodeInfo(s: PodState, n: NodeInfo): FitResult {
  // Called for hundreds of nodes per pod: each filter is called by name, so that it can be inlined.
  const r =
    nodeUnschedulableFilter(s, n) ??
    nodeNameFilter(s, n) ??
    taintTolerationFilter(s, n) ??
    nodeAffinityFilter(s, n) ??
    nodePortsFilter(s, n) ??
    nodeResourcesFitFilter(s, n) ??
    nodeDeclaredFeaturesFilter(s, n) ??
    nodeUlimitCeilingsFilter(s, n);
  return r ? { fits: false, reasons: r.reasons, rejection: r } : fits;
}

/** The filters on a node with these pods bound to it (the inactive ones are not counted). */
export function fitsNode(pod: Pod, node: Node, podsOnNode: readonly Pod[], gates: SchedulerGates): FitResult {
  return fitsNodeInfo(podState(pod, gates), NodeInfo.of(node, podsOnNode, gates));
}
