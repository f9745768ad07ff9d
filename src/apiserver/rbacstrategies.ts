// rbac.authorization.k8s.io/v1 in the API server: the strategies of pkg/registry/rbac/{role,
// clusterrole,rolebinding,clusterrolebinding} (the v1 defaults, Validate* on create and update)
// behind their policybased storage's escalation check (policybased/storage.go, v1.32): a write
// by anyone outside system:masters may grant only rules its writer holds, unless the writer may
// `escalate` the role resource, or `bind` the role a binding names; an aggregationRule (set, or
// on the old object of an update) takes every right (cluster-admin's). A binding to a role that
// does not exist is the registry's NotFound. The check runs before validation, as upstream's
// storage checks before its Create/Update validates. The rules are pure
// (policy/rbacresolver.ts, api/validation/rbac.ts).

import { rbacGroup, type ClusterRole, type PolicyRule, type RoleBinding, type RoleRef } from '../api/rbactypes.js';
import { goQuote } from '../api/goquote.js';
import { validateRBACName } from '../api/validation/rbac.js';
import { defaultBinding } from '../api/rbacdefaults.js';
import type { KubeObject } from '../api/types.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateClusterRoleUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
  validateRoleUpdate,
} from '../api/validation/index.js';
import { validateLabelSelector } from '../api/validation/labelselector.js';
import { FieldPath, type FieldError } from '../api/fielderrors.js';
import { authorizeRBAC, confirmNoEscalation, roleReferenceRules, type RBACObjects } from '../policy/rbacresolver.js';
import { mastersGroup } from './authorizer.js';
import { rbacObjectsOf } from './rbacindex.js';
import type { Api, RequestInfo, Strategy } from './rest.js';
import { StatusError, statusErrors } from './status.js';

/** EscalationAllowed: system:masters, whom the server trusts with anything. */
const escalationAllowed = (req: RequestInfo) => req.user.groups.includes(mastersGroup);

/** RoleEscalationAuthorized: the `escalate` verb on the role resource, for this name and namespace. */
function escalateAuthorized(objects: RBACObjects, req: RequestInfo, resource: string, name: string): boolean {
  return authorizeRBAC(objects, req.user, { verb: 'escalate', resourceRequest: true, apiGroup: rbacGroup, resource, name, namespace: req.namespace ?? '' }).allowed;
}

/** BindingAuthorized: the `bind` verb on the role named, in the binding's namespace ('' for a cluster binding). */
function bindAuthorized(objects: RBACObjects, req: RequestInfo, b: RoleBinding, namespace: string): boolean {
  const resource = b.roleRef?.kind === 'ClusterRole' ? 'clusterroles' : b.roleRef?.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return false;
  return authorizeRBAC(objects, req.user, { verb: 'bind', resourceRequest: true, apiGroup: b.roleRef.apiGroup, resource, name: b.roleRef.name, namespace }).allowed;
}

/** rbacregistry.IsOnlyMutatingGCFields: nothing but ownerReferences and finalizers (and managedFields) changed. */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, generation: _g, ...meta } = (o.metadata ?? {}) as Record<string, unknown>;
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}

interface Kind<T extends KubeObject> {
  kind: string;
  resource: string;
  namespaced: boolean;
  prepare(obj: T): T;
  validate(obj: T): FieldError[];
  validateUpdate(obj: T, old: T): FieldError[];
  /** Throws the StatusError that refuses the write; `old` on an update, `name` the request's. */
  escalation(obj: T, req: RequestInfo, objects: RBACObjects, name: string, old?: T): void;
}

/** clusterrole/policybased storage.go fullAuthority: `*` on `*.*` and on every URL. */
const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** hasAggregationRule: a rule with at least one selector. */
function hasAggregationRule(role: ClusterRole | undefined): boolean {
  const selectors = role?.aggregationRule?.clusterRoleSelectors;
  return Array.isArray(selectors) && selectors.length > 0;
}

function roleEscalation(resource: 'roles' | 'clusterroles') {
  const gr = { group: rbacGroup, resource };
  return (obj: ClusterRole, req: RequestInfo, objects: RBACObjects, name: string, old?: ClusterRole): void => {
    if (escalateAuthorized(objects, req, resource, name)) return;
    const namespace = req.namespace ?? '';
    const why = confirmNoEscalation(objects, req.user, namespace, (obj.rules ?? []) as PolicyRule[]);
    if (why !== undefined) throw statusErrors.forbidden(gr, obj.metadata?.name ?? name, why);
    // It can gather anything (and on an update, keep a role from being tightened).
    if (resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old))) {
      if (confirmNoEscalation(objects, req.user, namespace, fullAuthority) !== undefined) {
        throw statusErrors.forbidden(gr, obj.metadata?.name ?? name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  };
}

/**
 * The registry's key functions (NamespaceKeyFunc, NoNamespaceKeyFunc) as GetRoleReferenceRules
 * reaches them: a role looked up without a namespace or with an unusable name is a 400.
 */
function roleKeyError(ref: RoleRef, namespace: string): StatusError | undefined {
  if (ref.kind === 'Role' && !namespace) return statusErrors.badRequest('Namespace parameter required.');
  if (!ref.name) return statusErrors.badRequest('Name parameter required.');
  const msgs = validateRBACName(ref.name, false);
  return msgs.length ? statusErrors.badRequest(`Name parameter invalid: ${goQuote(ref.name)}: ${msgs.join(';')}`) : undefined;
}

function bindingEscalation(namespaced: boolean) {
  const gr = { group: rbacGroup, resource: namespaced ? 'rolebindings' : 'clusterrolebindings' };
  return (obj: RoleBinding, req: RequestInfo, objects: RBACObjects, name: string): void => {
    const namespace = namespaced ? (req.namespace ?? '') : '';
    if (bindAuthorized(objects, req, obj, namespace)) return;
    const ref = (obj.roleRef && typeof obj.roleRef === 'object' ? obj.roleRef : {}) as RoleRef;
    // Upstream's resolver fails with a plain error (a 500) for any other kind; validation's 422 says it instead.
    if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') return;
    const keyError = roleKeyError(ref, namespace);
    if (keyError) throw keyError;
    const r = roleReferenceRules(objects, ref, namespace, 'registry');
    if ('error' in r) throw statusErrors.notFound({ group: rbacGroup, resource: r.notFound! }, ref.name);
    const why = confirmNoEscalation(objects, req.user, namespace, r.rules);
    if (why !== undefined) throw statusErrors.forbidden(gr, obj.metadata?.name ?? name, why);
  };
}

/** hasInvalidLabelValueInLabelSelector: an old aggregation selector the strict check refuses. */
function hasInvalidSelectorValue(role: ClusterRole): boolean {
  const selectors = Array.isArray(role?.aggregationRule?.clusterRoleSelectors) ? role.aggregationRule!.clusterRoleSelectors! : [];
  return selectors.some((s) => validateLabelSelector(s, { allowInvalidLabelValueInSelector: false }, FieldPath.root('s')).length > 0);
}

/** rules has no omitempty: a role without rules is written with `"rules": null`, as Go marshals it. */
function withRules<T extends ClusterRole>(o: T): T {
  return o.rules === undefined ? { ...o, rules: null as unknown as PolicyRule[] } : o;
}

const kinds = {
  roles: {
    kind: 'Role', resource: 'roles', namespaced: true, prepare: withRules,
    validate: validateRole, validateUpdate: validateRoleUpdate, escalation: roleEscalation('roles'),
  } satisfies Kind<ClusterRole>,
  clusterroles: {
    kind: 'ClusterRole', resource: 'clusterroles', namespaced: false, prepare: withRules,
    validate: (o: ClusterRole) => validateClusterRole(o),
    validateUpdate: (o: ClusterRole, old: ClusterRole) => validateClusterRoleUpdate(o, old, { allowInvalidLabelValueInSelector: hasInvalidSelectorValue(old) }),
    escalation: roleEscalation('clusterroles'),
  } satisfies Kind<ClusterRole>,
  rolebindings: {
    kind: 'RoleBinding', resource: 'rolebindings', namespaced: true, prepare: defaultBinding,
    validate: validateRoleBinding, validateUpdate: validateRoleBindingUpdate, escalation: bindingEscalation(true),
  } satisfies Kind<RoleBinding>,
  clusterrolebindings: {
    kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', namespaced: false, prepare: defaultBinding,
    validate: validateClusterRoleBinding, validateUpdate: validateClusterRoleBindingUpdate, escalation: bindingEscalation(false),
  } satisfies Kind<RoleBinding>,
};

function strategyOf<T extends KubeObject>(k: Kind<T>): Strategy {
  return {
    // The four strategies' AllowCreateOnUpdate: `kubectl replace` of a role that is not there creates it.
    allowCreateOnUpdate: true,
    async create(body, req, api: Api) {
      const obj = k.prepare(body as T);
      const name = obj.metadata?.name ?? '';
      // The request's name: a create names none in its path.
      if (!escalationAllowed(req)) k.escalation(obj, req, await rbacObjectsOf(api), '');
      const errs = k.validate(obj);
      if (errs.length) throw statusErrors.invalid(k.kind, rbacGroup, name, errs);
      return { obj };
    },
    async update(body, old, req, api: Api) {
      const obj = k.prepare(body as T);
      const name = old.metadata?.name ?? '';
      if (!escalationAllowed(req) && !onlyGCFields(obj, old)) k.escalation(obj, req, await rbacObjectsOf(api), name, old as T);
      const errs = k.validateUpdate(obj, old as T);
      if (errs.length) throw statusErrors.invalid(k.kind, rbacGroup, name, errs);
      return { obj };
    },
  };
}

export function installRBACStrategies(api: Api): void {
  for (const [resource, k] of Object.entries(kinds)) api.strategies.set(resource, strategyOf(k as Kind<KubeObject>));
}
