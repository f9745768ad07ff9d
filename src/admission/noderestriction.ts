// NodeRestriction admission for Nodes and Leases, after upstream's
// plugin/pkg/admission/noderestriction/admission.go (admitNode, getForbiddenLabels, admitLease)
// and k8s.io/kubelet/pkg/apis IsKubeletLabel. A node identity may create, update and delete
// only its own Node and only its own Lease in kube-node-lease; it may not register with a
// configSource, change configSource or taints, nor set or change node-restriction.kubernetes.io
// labels or kubernetes.io / k8s.io labels outside the kubelet's own set; nor relabel a pod
// through its status (admitPodStatus); nor ask for a service account token that is not bound to a
// pod running on it (admitServiceAccount). Which pods a node may touch is the node authorizer's
// rule (src/apiserver/authorizer.ts). Pure: returns the reason, which the caller
// wraps as `<resource> "<name>" is forbidden: <reason>`; undefined when admitted.

import { stableJSON } from '../api/stablejson.js';
import type { KubeObject, Node, Taint } from '../api/types.js';
import { nodesGroup } from '../policy/rbacbootstrap.js';

export const nodeLeaseNamespace = 'kube-node-lease';
export const nodeRestrictionLabelNamespace = 'node-restriction.kubernetes.io';

export const nodeUserPrefix = 'system:node:';
/** The group of every node identity (its definition is with the bootstrap policy's names). */
export { nodesGroup };

/** nodeidentifier.NodeIdentity: the node name of a node identity, undefined for anyone else. */
export function nodeIdentity(user: { name: string; groups: readonly string[] }): string | undefined {
  if (!user.name.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserPrefix.length);
}

/** The labels a kubelet sets on its own Node (well_known_labels.go kubeletLabels). */
const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inNamespace(ns: string, domain: string): boolean {
  return ns === domain || ns.endsWith(`.${domain}`);
}

export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const ns = labelNamespace(key);
  return kubeletLabelNamespaces.some((d) => inNamespace(ns, d));
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
}

/** getModifiedLabels: keys added, removed or changed between the two maps. */
export function modifiedLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): string[] {
  const out = new Set<string>();
  const x = a ?? {};
  const y = b ?? {};
  for (const k of Object.keys(x)) if (!(k in y) || x[k] !== y[k]) out.add(k);
  for (const k of Object.keys(y)) if (!(k in x) || x[k] !== y[k]) out.add(k);
  return [...out];
}

/** getForbiddenLabels, sorted as sets.String.List() returns them. */
export function forbiddenLabels(keys: readonly string[]): string[] {
  return keys
    .filter((k) => inNamespace(labelNamespace(k), nodeRestrictionLabelNamespace) || (isKubernetesLabel(k) && !isKubeletLabel(k)))
    .sort();
}

/** Semantic.DeepEqual: a missing list and an empty one are the same. */
function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? undefined : v);
  return stableJSON(norm(a) ?? null) === stableJSON(norm(b) ?? null);
}

export type AdmissionOperation = 'create' | 'update' | 'delete';

export interface NodeRestrictionRequest {
  operation: AdmissionOperation;
  /** The name the request is about: the URL's, or the new object's on create. */
  name: string;
  /** The new object (create, update). */
  object?: KubeObject;
  /** The stored object (update). */
  oldObject?: KubeObject;
}

/** admitNode: undefined when `node` may make this request on a Node. */
export function admitNode(node: string, r: NodeRestrictionRequest): string | undefined {
  if (r.name !== node) return `node "${node}" is not allowed to modify node "${r.name}"`;
  const obj = r.object as (Node & { spec?: { configSource?: unknown } }) | undefined;
  if (r.operation === 'create' && obj) {
    if (obj.spec?.configSource != null) return `node "${node}" is not allowed to create pods with a non-nil configSource`;
    const forbidden = forbiddenLabels(modifiedLabels(obj.metadata?.labels, undefined));
    if (forbidden.length) return `node "${node}" is not allowed to set the following labels: ${forbidden.join(', ')}`;
  }
  if (r.operation === 'update' && obj) {
    const old = (r.oldObject ?? {}) as Node & { spec?: { configSource?: unknown } };
    if (obj.spec?.configSource != null && !sameValue(obj.spec.configSource, old.spec?.configSource)) {
      return `node "${node}" is not allowed to update configSource to a new non-nil configSource`;
    }
    if (!sameValue(obj.spec?.taints as Taint[] | undefined, old.spec?.taints)) return `node "${node}" is not allowed to modify taints`;
    const forbidden = forbiddenLabels(modifiedLabels(obj.metadata?.labels, old.metadata?.labels));
    // Upstream's update wording has no node prefix.
    if (forbidden.length) return `is not allowed to modify labels: ${forbidden.join(', ')}`;
  }
  return undefined;
}

/** admitLease: only the node's own lease, only in kube-node-lease. */
export function admitLease(node: string, namespace: string | undefined, r: NodeRestrictionRequest): string | undefined {
  if (namespace !== nodeLeaseNamespace) return `can only access leases in the "${nodeLeaseNamespace}" system namespace`;
  if (r.name !== node) return 'can only access node lease with the same name as the requesting node';
  return undefined;
}

/** admitPodStatus's label rule: a node may not relabel a pod through its status. */
export function admitPodStatusLabels(node: string, labels: Record<string, string> | undefined, oldLabels: Record<string, string> | undefined): string | undefined {
  return modifiedLabels(labels, oldLabels).length ? `node "${node}" cannot update labels through pod status` : undefined;
}

/** A TokenRequest's boundObjectRef, as admitServiceAccount reads it. */
export interface TokenBinding {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
}

/**
 * admitServiceAccount: a node's TokenRequest must be bound to a pod, by uid, that is scheduled
 * on that node. `pod` is the bound pod as stored (undefined: not found, which the caller answers
 * with the pods 404 before asking here). `notFound` when the pod is missing.
 */
export function admitServiceAccountToken(node: string, ref: TokenBinding | undefined, pod: { metadata?: { uid?: string }; spec?: { nodeName?: string } } | undefined): string | 'notFound' | undefined {
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) return 'node requested token not bound to a pod';
  if (!ref.uid) return 'node requested token with a pod binding without a uid';
  if (!pod) return 'notFound';
  if (ref.uid !== (pod.metadata?.uid ?? '')) return `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`;
  if ((pod.spec?.nodeName ?? '') !== node) return 'node requested token bound to a pod scheduled on a different node';
  return undefined;
}
