// The rbac/v1 defaults the decoder applies (pkg/apis/rbac/v1/defaults.go): roleRef.apiGroup and
// User and Group subjects' apiGroup become rbac.authorization.k8s.io when empty.

import { rbacGroup, type RoleBinding, type Subject } from './rbactypes.js';

function defaultSubject(s: Subject): Subject {
  if (!s || typeof s !== 'object' || (typeof s.apiGroup === 'string' && s.apiGroup.length > 0)) return s;
  if (s.kind === 'User' || s.kind === 'Group') return { ...s, apiGroup: rbacGroup };
  return s;
}

/** SetDefaults_RoleBinding / ClusterRoleBinding with SetDefaults_Subject and SetDefaults_RoleRef: a copy. */
export function defaultBinding<T extends RoleBinding>(b: T): T {
  const out = { ...b };
  // A missing roleRef is Go's zero RoleRef, defaulted like any other.
  const ref = out.roleRef && typeof out.roleRef === 'object' ? out.roleRef : { apiGroup: '', kind: '', name: '' };
  if (!ref.apiGroup) out.roleRef = { ...ref, apiGroup: rbacGroup };
  if (Array.isArray(out.subjects)) out.subjects = out.subjects.map(defaultSubject);
  return out;
}
