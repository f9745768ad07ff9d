// The rbac/bootstrap-roles post-start hook (pkg/registry/rbac/rest/storage_rbac.go
// EnsureRBACPolicy): each bootstrap cluster role, cluster role binding, and kube-system and
// kube-public role and role binding is created when missing and reconciled when present
// (policy/rbacreconcile.ts: union, never removing what an administrator added; autoupdate=false
// objects left alone). Reads the server's RBAC caches, so a restart whose objects are all current
// writes nothing and reads no store. The namespaces are the server's own (created before, and
// never deleted: see strategies.ts protectedNamespaces), so RoleModifier's tryEnsureNamespace has
// nothing to do.

import type { ClusterRole, ClusterRoleBinding, KubeObject, Role, RoleBinding } from '../api/types.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles } from '../policy/rbacbootstrap.js';
import { reconcileClusterRole, reconcileClusterRoleBinding, type Reconciled } from '../policy/rbacreconcile.js';
import type { Api, RequestInfo } from './rest.js';
import { StatusError } from './status.js';
import { deepCopyJSON } from '../api/deepcopy.js';

/** Creates or reconciles one object; true when it wrote. */
async function ensure<T extends KubeObject>(api: Api, resource: string, req: RequestInfo, expected: T, reconcile: (existing: T, expected: T) => Reconciled<T>): Promise<boolean> {
  const def = api.def(resource);
  const name = expected.metadata!.name!;
  const ns = expected.metadata?.namespace;
  const existing = (api.caches.get(resource)?.get(ns, name)?.obj as T | undefined) ?? (await api.tryGet<T>(def, ns, name));
  try {
    if (!existing) {
      await api.create(def, ns, deepCopyJSON(expected), { ...req, warnings: [] });
      return true;
    }
    const r = reconcile(existing, expected);
    if (r.op === 'none') return false;
    if (r.op === 'update') await api.update(def, ns, name, deepCopyJSON(r.obj), { ...req, warnings: [] });
    else {
      await api.delete(def, ns, name, {}, { ...req, warnings: [] });
      await api.create(def, ns, deepCopyJSON(r.obj), { ...req, warnings: [] });
    }
  } catch (e) {
    // Another server sharing the store wrote it first: its next start (or ours) reconciles again.
    if (!(e instanceof StatusError && (e.code === 409 || e.code === 404))) throw e;
  }
  return true;
}

/**
 * EnsureRBACPolicy for the cluster-wide bootstrap policy; `between` runs after each write (start
 * turns), so that a restart with nothing to write keeps the thread to itself for the few ms it takes.
 */
export async function ensureBootstrapRBAC(api: Api, req: RequestInfo, between: () => Promise<void> = async () => {}): Promise<void> {
  // Upstream's hook writes through the loopback client, so the manager is kube-apiserver.
  const as: RequestInfo = { ...req, userAgent: 'kube-apiserver' };
  for (const role of bootstrapClusterRoles()) {
    if (await ensure<ClusterRole>(api, 'clusterroles', as, role, reconcileClusterRole)) await between();
  }
  for (const binding of bootstrapClusterRoleBindings()) {
    if (await ensure<ClusterRoleBinding>(api, 'clusterrolebindings', as, binding, reconcileClusterRoleBinding)) await between();
  }
  for (const role of bootstrapNamespaceRoles()) {
    if (await ensure<Role>(api, 'roles', as, role, reconcileClusterRole)) await between();
  }
  for (const binding of bootstrapNamespaceRoleBindings()) {
    if (await ensure<RoleBinding>(api, 'rolebindings', as, binding, reconcileClusterRoleBinding)) await between();
  }
}
