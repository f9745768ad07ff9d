// rbac.authorization.k8s.io/v1 in the API server: the strategies of pkg/registry/rbac/{role,
// clusterrole,rolebinding,clusterrolebinding} (the v1 defaults, Validate* on create and update)
// behind their policybased storage's escalation check (policybased/storage.go, v1.32): a write
// by anyone outside system:masters may grant only rules its writer holds, unless the writer may
// `escalate` the role resource, or `bind` the role a binding names. The check runs before
// validation, as upstream's storage checks before its Create/Update validates. The rules are
// pure (policy/rbacresolver.ts, api/validation/rbac.ts).

import { rbacGroup, type ClusterRole, type PolicyRule, type Role, type RoleBinding } from '../api/rbactypes.js';
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
import { statusErrors } from './status.js';

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
  /** Undefined when the write may go on; else why it is forbidden. */
  escalation(obj: T, req: RequestInfo, objects: RBACObjects, name: string): string | undefined;
}

function roleEscalation(resource: string) {
  return (obj: Role, req: RequestInfo, objects: RBACObjects, name: string): string | undefined => {
    if (escalateAuthorized(objects, req, resource, name)) return undefined;
    return confirmNoEscalation(objects, req.user, req.namespace ?? '', (obj.rules ?? []) as PolicyRule[]);
  };
}

function bindingEscalation(namespaced: boolean) {
  return (obj: RoleBinding, req: RequestInfo, objects: RBACObjects): string | undefined => {
    const namespace = namespaced ? (req.namespace ?? '') : '';
    if (bindAuthorized(objects, req, obj, namespace)) return undefined;
    const r = roleReferenceRules(objects, obj.roleRef ?? { apiGroup: '', kind: '', name: '' }, namespace, 'registry');
    if ('error' in r) return r.error;
    return confirmNoEscalation(objects, req.user, namespace, r.rules);
  };
}

/** hasInvalidLabelValueInLabelSelector: an old aggregation selector the strict check refuses. */
function hasInvalidSelectorValue(role: ClusterRole): boolean {
  const selectors = Array.isArray(role?.aggregationRule?.clusterRoleSelectors) ? role.aggregationRule!.clusterRoleSelectors! : [];
  return selectors.some((s) => validateLabelSelector(s, { allowInvalidLabelValueInSelector: false }, FieldPath.root('s')).length > 0);
}

/** rules has no omitempty: a role without rules is written with `"rules": null`, as Go marshals it. */
function withRules<T extends Role>(o: T): T {
  return o.rules === undefined ? { ...o, rules: null as unknown as PolicyRule[] } : o;
}

const kinds = {
  roles: {
    kind: 'Role', resource: 'roles', namespaced: true, prepare: withRules,
    validate: validateRole, validateUpdate: validateRoleUpdate, escalation: roleEscalation('roles'),
  } satisfies Kind<Role>,
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
  const gr = { group: rbacGroup, resource: k.resource };
  return {
    async create(body, req, api: Api) {
      const obj = k.prepare(body as T);
      const name = obj.metadata?.name ?? '';
      if (!escalationAllowed(req)) {
        // The request's name: a create names none in its path.
        const why = k.escalation(obj, req, await rbacObjectsOf(api), '');
        if (why !== undefined) throw statusErrors.forbidden(gr, name, why);
      }
      const errs = k.validate(obj);
      if (errs.length) throw statusErrors.invalid(k.kind, rbacGroup, name, errs);
      return { obj };
    },
    async update(body, old, req, api: Api) {
      const obj = k.prepare(body as T);
      const name = old.metadata?.name ?? '';
      if (!escalationAllowed(req) && !onlyGCFields(obj, old)) {
        const why = k.escalation(obj, req, await rbacObjectsOf(api), name);
        if (why !== undefined) throw statusErrors.forbidden(gr, obj.metadata?.name ?? name, why);
      }
      const errs = k.validateUpdate(obj, old as T);
      if (errs.length) throw statusErrors.invalid(k.kind, rbacGroup, name, errs);
      return { obj };
    },
  };
}

export function installRBACStrategies(api: Api): void {
  for (const [resource, k] of Object.entries(kinds)) api.strategies.set(resource, strategyOf(k as Kind<KubeObject>));
}
