// The rbac/bootstrap-roles post-start hook (pkg/registry/rbac/rest/storage_rbac.go
// EnsureRBACPolicy): each bootstrap cluster role and cluster role binding is created when
// missing and reconciled when present (policy/rbacreconcile.ts: union, never removing what an
// administrator added; autoupdate=false objects left alone). Reads the server's RBAC caches, so
// a restart whose objects are all current writes nothing and reads no store.

import type { ClusterRole, ClusterRoleBinding, KubeObject } from '../api/types.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../policy/rbacbootstrap.js';
import { reconcileClusterRole, reconcileClusterRoleBinding, type Reconciled } from '../policy/rbacreconcile.js';
import type { Api, RequestInfo } from './rest.js';
import { StatusError } from './status.js';

async function ensure<T extends KubeObject>(api: Api, resource: string, req: RequestInfo, expected: T, reconcile: (existing: T, expected: T) => Reconciled<T>): Promise<void> {
  const def = api.def(resource);
  const name = expected.metadata!.name!;
  const existing = (api.caches.get(resource)?.get(undefined, name)?.obj as T | undefined) ?? (await api.tryGet<T>(def, undefined, name));
  try {
    if (!existing) {
      await api.create(def, undefined, structuredClone(expected), { ...req, warnings: [] });
      return;
    }
    const r = reconcile(existing, expected);
    if (r.op === 'update') await api.update(def, undefined, name, structuredClone(r.obj), { ...req, warnings: [] });
    else if (r.op === 'recreate') {
      await api.delete(def, undefined, name, {}, { ...req, warnings: [] });
      await api.create(def, undefined, structuredClone(r.obj), { ...req, warnings: [] });
    }
  } catch (e) {
    // Another server sharing the store wrote it first: its next start (or ours) reconciles again.
    if (!(e instanceof StatusError && (e.code === 409 || e.code === 404))) throw e;
  }
}

/** EnsureRBACPolicy for the cluster-wide bootstrap policy; `between` runs between writes (start turns). */
export async function ensureBootstrapRBAC(api: Api, req: RequestInfo, between: () => Promise<void> = async () => {}): Promise<void> {
  // Upstream's hook writes through the loopback client, so the manager is kube-apiserver.
  const as: RequestInfo = { ...req, userAgent: 'kube-apiserver' };
  for (const role of bootstrapClusterRoles()) {
    await ensure<ClusterRole>(api, 'clusterroles', as, role, reconcileClusterRole);
    await between();
  }
  for (const binding of bootstrapClusterRoleBindings()) {
    await ensure<ClusterRoleBinding>(api, 'clusterrolebindings', as, binding, reconcileClusterRoleBinding);
    await between();
  }
}
