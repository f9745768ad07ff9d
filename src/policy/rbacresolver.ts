// Which rules a user holds (pkg/registry/rbac/validation/rule.go DefaultRuleResolver): every
// ClusterRoleBinding whose subjects name the user, then the RoleBindings of the namespace asked
// about, each resolved to its role's rules. The RBAC authorizer's decision and reason
// (plugin/pkg/auth/authorizer/rbac/rbac.go), the rules review's list and the escalation check
// (ConfirmNoEscalation) all read it. Where the bindings come from is the caller's: an
// RBACObjects that finds the bindings naming a user without visiting all of them.

import { goQuote } from '../api/goquote.js';
import { aggregateAll } from './rbacaggregation.js';
import { compactRules, compactString, covers, goStringList, ruleAllows, type RuleRequest } from './rbacrules.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../api/rbactypes.js';

/** user.Info as the resolver reads it. */
export interface RBACUser {
  name: string;
  groups: readonly string[];
}

/** The RBAC objects the resolver reads. The binding lookups may return more than apply (it checks each). */
export interface RBACObjects {
  /** ClusterRoleBindings that may name this user (by name, group or service account), in the order to visit them. */
  clusterRoleBindingsFor(user: RBACUser): readonly ClusterRoleBinding[];
  /** RoleBindings of `namespace` that may name this user, in the order to visit them. */
  roleBindingsFor(user: RBACUser, namespace: string): readonly RoleBinding[];
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
}

/**
 * How a missing role is reported: the authorizer's listers name the singular resource
 * (`clusterrole.rbac.authorization.k8s.io "x" not found`), the registry's getters the plural.
 */
export type NotFoundStyle = 'lister' | 'registry';

export const serviceAccountUserPrefix = 'system:serviceaccount:';

/** serviceaccount.MatchesUsername: `system:serviceaccount:<namespace>:<name>`. */
export function matchesServiceAccount(namespace: string, name: string, user: string): boolean {
  return user === `${serviceAccountUserPrefix}${namespace}:${name}`;
}

/** The service account a user name stands for, if it is one. */
export function serviceAccountOf(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(serviceAccountUserPrefix)) return undefined;
  const parts = user.slice(serviceAccountUserPrefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** appliesToUser: a ServiceAccount subject without a namespace is the binding's namespace's. */
export function subjectAppliesTo(user: RBACUser, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      return ns.length > 0 && matchesServiceAccount(ns, s.name, user.name);
    }
    default:
      return false;
  }
}

/** appliesTo: the index of the first subject naming the user, or -1. */
export function appliesTo(user: RBACUser, subjects: readonly Subject[] | undefined, namespace: string): number {
  const list = subjects ?? [];
  for (let i = 0; i < list.length; i++) if (subjectAppliesTo(user, list[i]!, namespace)) return i;
  return -1;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** clusterRoleBindingDescriber / roleBindingDescriber: what an RBAC reason says allowed a request. */
export function describeBinding(b: RoleBinding, subject: Subject, namespaced: boolean): string {
  const ns = b.metadata?.namespace ?? '';
  const name = b.metadata?.name ?? '';
  const ref = `${b.roleRef.kind} ${goQuote(b.roleRef.name)}`;
  return namespaced
    ? `RoleBinding ${goQuote(`${name}/${ns}`)} of ${ref} to ${describeSubject(subject, ns)}`
    : `ClusterRoleBinding ${goQuote(name)} of ${ref} to ${describeSubject(subject, '')}`;
}

/**
 * GetRoleReferenceRules: the rules of the role a binding names, or why there are none; a missing
 * role also names the resource (`roles`, `clusterroles`) the registry's getter answers NotFound for.
 */
export function roleReferenceRules(
  objects: RBACObjects,
  ref: RoleRef,
  namespace: string,
  style: NotFoundStyle,
): { rules: readonly PolicyRule[] } | { error: string; notFound?: 'roles' | 'clusterroles' } {
  const gr = (singular: string) => `${style === 'lister' ? singular : `${singular}s`}.rbac.authorization.k8s.io`;
  switch (ref.kind) {
    case 'Role': {
      const r = objects.role(namespace, ref.name);
      return r ? { rules: r.rules ?? [] } : { error: `${gr('role')} ${goQuote(ref.name)} not found`, notFound: 'roles' };
    }
    case 'ClusterRole': {
      const r = objects.clusterRole(ref.name);
      return r ? { rules: r.rules ?? [] } : { error: `${gr('clusterrole')} ${goQuote(ref.name)} not found`, notFound: 'clusterroles' };
    }
    default:
      return { error: `unsupported role reference kind: ${goQuote(ref.kind)}` };
  }
}

/** A visitor of VisitRulesFor: `source` describes the binding; return false to stop. */
export type RuleVisitor = (source: (() => string) | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

/** VisitRulesFor: the cluster role bindings, then (for a namespace) the role bindings there. */
export function visitRulesFor(objects: RBACObjects, user: RBACUser, namespace: string, visit: RuleVisitor, style: NotFoundStyle = 'lister'): void {
  const walk = (bindings: readonly RoleBinding[], ns: string, namespaced: boolean): boolean => {
    for (const b of bindings) {
      const i = appliesTo(user, b.subjects, ns);
      if (i < 0) continue;
      const r = roleReferenceRules(objects, b.roleRef, ns, style);
      if ('error' in r) {
        if (!visit(undefined, undefined, r.error)) return false;
        continue;
      }
      const source = () => describeBinding(b, b.subjects![i]!, namespaced);
      for (const rule of r.rules) if (!visit(source, rule, undefined)) return false;
    }
    return true;
  };
  if (!walk(objects.clusterRoleBindingsFor(user), '', false)) return;
  if (namespace.length > 0) walk(objects.roleBindingsFor(user, namespace), namespace, true);
}

/** utilerrors.NewAggregate(errs).Error(): one as it is, several as `[a, b]`, duplicates once. */
export function aggregateErrors(errors: readonly string[]): string {
  const msgs = [...new Set(errors)];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

export interface RBACDecision {
  allowed: boolean;
  reason: string;
}

/** RBACAuthorizer.Authorize: allowed by the first rule that allows, else no opinion with the resolution errors. */
export function authorizeRBAC(objects: RBACObjects, user: RBACUser, a: RuleRequest & { namespace?: string }): RBACDecision {
  let reason = '';
  const errors: string[] = [];
  let allowed = false;
  visitRulesFor(objects, user, a.namespace ?? '', (source, rule, error) => {
    if (rule && ruleAllows(a, rule)) {
      allowed = true;
      reason = `RBAC: allowed by ${source!()}`;
      return false;
    }
    if (error !== undefined) errors.push(error);
    return true;
  });
  if (allowed) return { allowed, reason };
  return { allowed: false, reason: errors.length ? `RBAC: ${aggregateErrors(errors)}` : '' };
}

/** RulesFor: every rule the user holds in the namespace (cluster-wide ones included), and the resolution errors. */
export function rulesFor(objects: RBACObjects, user: RBACUser, namespace: string, style: NotFoundStyle = 'lister'): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(objects, user, namespace, (_s, rule, error) => {
    if (rule) rules.push(rule);
    if (error !== undefined) errors.push(error);
    return true;
  }, style);
  return { rules, errors };
}

/**
 * ConfirmNoEscalation: undefined when the user holds every rule being granted; else the error
 * text (the missing rules compacted, described and sorted; the resolution errors after them).
 */
export function confirmNoEscalation(objects: RBACObjects, user: RBACUser, namespace: string, granted: readonly PolicyRule[]): string | undefined {
  const owned = rulesFor(objects, user, namespace, 'registry');
  const { covered, missing } = covers(owned.rules, granted);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goStringList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  // fmt's %v of the []error the resolver gave: `[e1 e2]`.
  if (owned.errors.length > 0) msg += `; resolution errors: [${aggregateErrors(owned.errors)}]`;
  return msg;
}

/** RBACObjects over fixed lists (the bootstrap policy; tests): every binding is a candidate, by name. */
export function staticRBACObjects(clusterRoles: readonly ClusterRole[], clusterRoleBindings: readonly ClusterRoleBinding[], roles: readonly Role[] = [], roleBindings: readonly RoleBinding[] = []): RBACObjects {
  const byName = (a: RoleBinding, b: RoleBinding) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0);
  const crbs = [...clusterRoleBindings].sort(byName);
  const aggregated = aggregateAll(clusterRoles);
  return {
    clusterRoleBindingsFor: () => crbs,
    roleBindingsFor: (_u, ns) => roleBindings.filter((b) => b.metadata?.namespace === ns).sort(byName),
    clusterRole: (name) => aggregated.find((r) => r.metadata?.name === name),
    role: (ns, name) => roles.find((r) => r.metadata?.namespace === ns && r.metadata?.name === name),
  };
}
