// The RBAC objects as the authorizer reads them on every request: the four resources' caches
// (ObjectCache, kept current by store watches, as upstream's RBAC authorizer reads informers'
// listers), with the bindings indexed by subject so that a request looks up the bindings that
// name its user, its groups and (for a service account) its account, never all of them. A
// RoleBinding's ServiceAccount subject without a namespace is indexed under the binding's.

import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../api/rbactypes.js';
import { serviceAccountOf, type RBACObjects, type RBACUser } from '../policy/rbacresolver.js';
import type { ObjectCache } from './cache.js';
import type { Api } from './rest.js';

export const rbacResources = ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'] as const;

/** The index keys a subject is found under; `namespace`: the binding's ('' for a cluster binding). */
function subjectKey(s: Subject, namespace: string): string | undefined {
  if (!s || typeof s !== 'object' || typeof s.name !== 'string') return undefined;
  switch (s.kind) {
    case 'User':
      return `u:${s.name}`;
    case 'Group':
      return `g:${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      return ns ? `sa:${ns}/${s.name}` : undefined;
    }
    default:
      return undefined;
  }
}

/** The keys a user's bindings are indexed under. */
function userKeys(user: RBACUser): string[] {
  const keys = [`u:${user.name}`];
  for (const g of user.groups) keys.push(`g:${g}`);
  const sa = serviceAccountOf(user.name);
  if (sa) keys.push(`sa:${sa.namespace}/${sa.name}`);
  return keys;
}

const byName = (a: RoleBinding, b: RoleBinding) => {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Bindings by subject key (and, for RoleBindings, namespace), kept from a cache's events. */
class SubjectIndex {
  private readonly buckets = new Map<string, Set<RoleBinding>>();

  constructor(cache: ObjectCache<RoleBinding>, private readonly namespaced: boolean) {
    cache.subscribe((type, obj, old) => {
      if (old) this.remove(old);
      if (type !== 'DELETED') this.add(obj);
    });
    for (const c of cache.values()) this.add(c.obj);
  }

  private keys(b: RoleBinding): Set<string> {
    const ns = this.namespaced ? (b.metadata?.namespace ?? '') : '';
    const out = new Set<string>();
    for (const s of Array.isArray(b.subjects) ? b.subjects : []) {
      const k = subjectKey(s, ns);
      if (k) out.add(this.namespaced ? `${ns}|${k}` : k);
    }
    return out;
  }

  private add(b: RoleBinding): void {
    for (const k of this.keys(b)) {
      let set = this.buckets.get(k);
      if (!set) this.buckets.set(k, (set = new Set()));
      set.add(b);
    }
  }

  private remove(b: RoleBinding): void {
    for (const k of this.keys(b)) {
      const set = this.buckets.get(k);
      if (!set) continue;
      set.delete(b);
      if (set.size === 0) this.buckets.delete(k);
    }
  }

  /** The bindings naming any of the user's keys, once each, by name (the order reasons are found in). */
  find(user: RBACUser, namespace?: string): RoleBinding[] {
    let found: Set<RoleBinding> | undefined;
    let only: Set<RoleBinding> | undefined;
    for (const k of userKeys(user)) {
      const set = this.buckets.get(namespace === undefined ? k : `${namespace}|${k}`);
      if (!set) continue;
      if (!only) only = set;
      else {
        found ??= new Set(only);
        for (const b of set) found.add(b);
      }
    }
    const all = found ?? only;
    if (!all) return [];
    return [...all].sort(byName);
  }
}

/** RBACObjects over the server's caches. */
export class RBACIndex implements RBACObjects {
  private readonly clusterBindings: SubjectIndex;
  private readonly bindings: SubjectIndex;

  constructor(
    private readonly clusterRoles: ObjectCache<ClusterRole>,
    clusterRoleBindings: ObjectCache<ClusterRoleBinding>,
    private readonly roles: ObjectCache<Role>,
    roleBindings: ObjectCache<RoleBinding>,
  ) {
    this.clusterBindings = new SubjectIndex(clusterRoleBindings, false);
    this.bindings = new SubjectIndex(roleBindings, true);
  }

  clusterRoleBindingsFor(user: RBACUser): readonly ClusterRoleBinding[] {
    return this.clusterBindings.find(user);
  }

  roleBindingsFor(user: RBACUser, namespace: string): readonly RoleBinding[] {
    return this.bindings.find(user, namespace);
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(undefined, name)?.obj;
  }

  role(namespace: string, name: string): Role | undefined {
    return this.roles.get(namespace, name)?.obj;
  }
}

const indexes = new WeakMap<Api, RBACIndex>();

/** Makes `index` the one the RBAC strategies of `api` read. */
export function setRBACIndex(api: Api, index: RBACIndex): void {
  indexes.set(api, index);
}

/** The index the server keeps for `api`, when it keeps one. */
export function rbacIndexOf(api: Api): RBACIndex | undefined {
  return indexes.get(api);
}

/** The RBAC objects of `api`: its index, or (an Api without the server's caches) a list of each resource now. */
export async function rbacObjectsOf(api: Api): Promise<RBACObjects> {
  const index = indexes.get(api);
  if (index) return index;
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = await Promise.all(rbacResources.map((r) => api.list(api.def(r), undefined)));
  const find = <T extends { metadata?: { namespace?: string; name?: string } }>(items: unknown[], ns: string | undefined, name: string) =>
    (items as T[]).find((o) => o.metadata?.name === name && (ns === undefined || o.metadata?.namespace === ns));
  return {
    clusterRoleBindingsFor: () => [...(clusterRoleBindings!.items as ClusterRoleBinding[])].sort(byName),
    roleBindingsFor: (_u, ns) => (roleBindings!.items as RoleBinding[]).filter((b) => b.metadata?.namespace === ns).sort(byName),
    clusterRole: (name) => find<ClusterRole>(clusterRoles!.items, undefined, name),
    role: (ns, name) => find<Role>(roles!.items, ns, name),
  };
}
