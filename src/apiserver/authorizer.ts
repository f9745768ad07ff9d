// The one authorizer: what the handler enforces and what the access-review APIs report. It
// chains as kube-apiserver does for --authorization-mode=Node,RBAC: the system:masters group
// first (the privileged-group authorizer), then the node authorizer
// (plugin/pkg/auth/authorizer/node/node_authorizer.go, AuthorizeNodeWithSelectors on as in
// 1.32), then RBAC over the RBAC objects it is given (the server's stored roles and bindings,
// read through rbacindex.ts; the bootstrap policy where none are given), so that a rules review
// reads the very rules that decide. Decisions and reasons as union.go combines them. Pure.

import type { UserInfo } from './rest.js';
import { nodeIdentity, nodeLeaseNamespace, nodesGroup } from '../admission/noderestriction.js';
import { podsReference } from '../api/podreferences.js';
import { authorizationFieldTerms } from '../api/selectors.js';
import type { Pod } from '../api/types.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles, mastersGroup } from '../policy/rbacbootstrap.js';
import { aggregateErrors, authorizeRBAC, rulesFor as resolveRules, staticRBACObjects, type RBACObjects } from '../policy/rbacresolver.js';

/** The pods bound to a node, as the node authorizer's graph knows them (the server's pod cache). */
export type PodsOnNode = (node: string) => Iterable<Pod>;

export { mastersGroup, authenticatedGroup, unauthenticatedGroup } from '../policy/rbacbootstrap.js';

/** authorizer.Attributes. */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path?: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** The raw fieldSelector of a list or watch. */
  fieldSelector?: string;
}

export type DecisionKind = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationDecision {
  decision: DecisionKind;
  reason: string;
}

export type { PolicyRule } from '../api/rbactypes.js';
export { ruleAllows } from '../policy/rbacrules.js';

/** The API server's identity towards agents (its client certificate's CN; see pki.ts). */
export { kubeletClientUser } from '../policy/rbacbootstrap.js';

/**
 * The bootstrap policy as RBAC objects, aggregated: what RBAC decides from where no server's
 * objects are given (a server reads its stored objects through rbacindex.ts).
 */
export const bootstrapRBAC: RBACObjects = staticRBACObjects(bootstrapClusterRoles(), bootstrapClusterRoleBindings(), bootstrapNamespaceRoles(), bootstrapNamespaceRoleBindings());

const allow: AuthorizationDecision = { decision: 'Allow', reason: '' };
const noOpinion = (reason = ''): AuthorizationDecision => ({ decision: 'NoOpinion', reason });

/**
 * The pods list/watch rule: some `spec.nodeName=<node>` (or `==`) term among the field
 * selector's parsed requirements; a selector that does not parse has none.
 */
export function selectsNode(fieldSelector: string | undefined, node: string): boolean {
  return authorizationFieldTerms(fieldSelector).some((r) => r.field === 'spec.nodeName' && r.op === '=' && r.value === node);
}

/** The graph's pod → node edge: the named pod is bound to this node. */
function podOnNode(pods: Iterable<Pod>, namespace: string, name: string): boolean {
  for (const pod of pods) if ((pod.metadata.namespace ?? '') === namespace && pod.metadata.name === name) return true;
  return false;
}

/** The graph's serviceaccount → pod edge: some pod on the node runs as this account. */
function podsRunAs(pods: Iterable<Pod>, namespace: string, account: string): boolean {
  for (const pod of pods) {
    if ((pod.metadata.namespace ?? '') !== namespace) continue;
    if ((pod.spec?.serviceAccountName || pod.spec?.serviceAccount || '') === account) return true;
  }
  return false;
}

/**
 * The node authorizer. Pods keep Bulkhead's rules: a node reads, deletes and writes the status
 * of the pods bound to it (the object check is NodeAwareAuthorizer.checkObject); it creates no
 * pods (upstream admits only mirror pods, which Bulkhead does not have). Events may also be
 * read, as the agent reads an event back before counting a repeat.
 */
export function authorizeNode(node: string, a: AuthorizationAttributes, podsOnNode: PodsOnNode = () => []): AuthorizationDecision {
  if (!a.resourceRequest) return noOpinion();
  const group = a.apiGroup ?? '';
  const sub = a.subresource ?? '';
  const verb = a.verb;
  if (group === '' && a.resource === 'nodes') {
    if (sub === '') {
      if (verb === 'create' || verb === 'update' || verb === 'patch') return allow;
      if (verb === 'get' || verb === 'list' || verb === 'watch') {
        if (a.name === node) return allow;
        if (!a.name) return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (sub === 'status' && (verb === 'update' || verb === 'patch')) return allow;
    return noOpinion();
  }
  if (group === '' && a.resource === 'pods') {
    if (sub === '') {
      if (verb === 'get') return a.name ? allow : noOpinion('No Object name found');
      if (verb === 'list' || verb === 'watch') {
        if (selectsNode(a.fieldSelector, node)) return allow;
        // A list or watch of one pod by metadata.name: allowed for a pod bound to this node.
        if (a.name) return podOnNode(podsOnNode(node), a.namespace ?? '', a.name) ? allow : noOpinion(`no relationship found between node '${node}' and this object`);
        return noOpinion('can only list/watch pods with spec.nodeName field selector');
      }
      if (verb === 'delete') return allow;
    } else if (sub === 'status' && (verb === 'update' || verb === 'patch')) return allow;
    return noOpinion();
  }
  if (group === '' && (a.resource === 'secrets' || a.resource === 'configmaps')) {
    // authorizeReadNamespacedObject: one object at a time (a list or watch names it by
    // metadata.name), only those a pod bound to this node refers to.
    if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return noOpinion('can only read resources of this type');
    if (sub !== '') return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    if (!a.name) return noOpinion('No Object name found');
    return podsReference(podsOnNode(node), a.resource, a.namespace, a.name) ? allow : noOpinion(`no relationship found between node '${node}' and this object`);
  }
  if (group === '' && a.resource === 'serviceaccounts') {
    // authorizeCreateToken: a token of a service account that a pod bound to this node runs as
    // (the graph's serviceaccount → pod → node path); NodeRestriction then asks that the token
    // be bound to such a pod.
    if (verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
    if (sub !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return podsRunAs(podsOnNode(node), a.namespace ?? '', a.name) ? allow : noOpinion(`no relationship found between node '${node}' and this object`);
  }
  if (group === '' && a.resource === 'events') {
    return sub === '' && ['create', 'update', 'patch', 'get', 'list', 'watch'].includes(verb) ? allow : noOpinion();
  }
  // NodeRules: the kubelet's webhook authentication and authorization ask the API server.
  if (verb === 'create' && sub === '' && ((group === 'authentication.k8s.io' && a.resource === 'tokenreviews') || (group === 'authorization.k8s.io' && (a.resource === 'subjectaccessreviews' || a.resource === 'localsubjectaccessreviews')))) {
    return allow;
  }
  // NodeRules: the kubelet reads every Service (its service variables for containers).
  if (group === '' && a.resource === 'services' && sub === '' && ['get', 'list', 'watch'].includes(verb)) return allow;
  // NodeRules: the kubelet's RuntimeClass manager lists and watches every class.
  if (group === 'node.k8s.io' && a.resource === 'runtimeclasses' && sub === '' && ['get', 'list', 'watch'].includes(verb)) return allow;
  // NodeRules: a kubelet asks for (and renews) its certificates.
  if (group === 'certificates.k8s.io' && a.resource === 'certificatesigningrequests' && sub === '' && ['create', 'get', 'list', 'watch'].includes(verb)) return allow;
  if (group === 'coordination.k8s.io' && a.resource === 'leases') {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== nodeLeaseNamespace) return noOpinion(`can only access leases in the "${nodeLeaseNamespace}" system namespace`);
    // On create the name is the object's: NodeRestriction admission checks it.
    if (verb !== 'create' && a.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return allow;
  }
  return noOpinion();
}

/** The union of the chain: the first Allow or Deny, else NoOpinion with every reason given. */
export function authorize(a: AuthorizationAttributes, podsOnNode?: PodsOnNode, rbac: RBACObjects = bootstrapRBAC): AuthorizationDecision {
  if (a.user.groups.includes(mastersGroup)) return allow;
  const reasons: string[] = [];
  const node = nodeIdentity(a.user);
  if (node !== undefined) {
    const d = node === '' ? noOpinion(`unknown node for user "${a.user.name}"`) : authorizeNode(node, a, podsOnNode);
    if (d.decision !== 'NoOpinion') return d;
    if (d.reason) reasons.push(d.reason);
  }
  const r = authorizeRBAC(rbac, a.user, a);
  if (r.allowed) return { decision: 'Allow', reason: r.reason };
  if (r.reason) reasons.push(r.reason);
  return noOpinion(reasons.join('\n'));
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface RulesReview {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

/**
 * RulesFor over the chain: RBAC's rules for the user's bindings in the namespace (a rule with
 * both resources and URLs in both lists, as upstream's); the node authorizer does not enumerate
 * its rules, so a node's list is incomplete, with upstream's error.
 */
export function rulesFor(user: UserInfo, namespace = '', rbac: RBACObjects = bootstrapRBAC): RulesReview {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  const resolved = resolveRules(rbac, user, namespace);
  for (const r of resolved.rules) {
    if (r.resources?.length) resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...r.resources], ...(r.resourceNames?.length ? { resourceNames: [...r.resourceNames] } : {}) });
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
  }
  // The union's aggregate: the node authorizer's error first, then RBAC's (flattened, as Aggregate prints nested ones).
  const incomplete = nodeIdentity(user) !== undefined;
  const errors = [...(incomplete ? ['node authorizer does not support user rule resolution'] : []), ...resolved.errors];
  return { resourceRules, nonResourceRules, incomplete, ...(errors.length ? { evaluationError: aggregateErrors(errors) } : {}) };
}
