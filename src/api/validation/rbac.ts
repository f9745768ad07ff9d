// RBAC validation (pkg/apis/rbac/validation ValidateRole, ValidateClusterRole,
// ValidateRoleBinding, ValidateClusterRoleBinding and their updates, v1.32): names are path
// segments only (ValidateRBACName), rules need verbs and either resources (with API groups) or
// non-resource URLs (cluster roles only), bindings name a role of this API group, and a binding's
// roleRef never changes. Objects are validated after the v1 defaults (rbacdefaults.ts).

import { FieldPath, GoSyntax, fieldError, goQuote, type FieldError } from '../fielderrors.js';
import { labelSelectorRequirements } from '../selectors.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../types.js';
import { rbacGroup } from '../rbactypes.js';
import { validateLabelSelector } from './labelselector.js';
import { nameIsDNSSubdomain, type NameValidator } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : []);

/** path.IsValidPathSegmentName, which ValidateRBACName is (the prefix flag is ignored). */
export const validateRBACName: NameValidator = (name) => {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const out: string[] = [];
  for (const c of ['/', '%']) if (name.includes(c)) out.push(`may not contain '${c}'`);
  return out;
};

/** Go's %#v of a []string, as field.Invalid prints the nonResourceURLs. */
const goStrings = (v: string[]) => new GoSyntax(`[]string{${v.map(goQuote).join(', ')}}`);

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const r = (rule && typeof rule === 'object' ? rule : {}) as Partial<PolicyRule>;
  if (strs(r.verbs).length === 0) errs.push(fieldError.required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = strs(r.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(path.child('nonResourceURLs'), goStrings(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (strs(r.apiGroups).length > 0 || strs(r.resources).length > 0 || strs(r.resourceNames).length > 0) {
      errs.push(fieldError.invalid(path.child('nonResourceURLs'), goStrings(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (strs(r.apiGroups).length === 0) errs.push(fieldError.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (strs(r.resources).length === 0) errs.push(fieldError.required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(rules: unknown, namespaced: boolean, errs: FieldError[]): void {
  const list = Array.isArray(rules) ? rules : [];
  for (let i = 0; i < list.length; i++) validatePolicyRule(list[i] as PolicyRule, namespaced, FieldPath.root('rules').index(i), errs);
}

export function validateRole(role: Role): FieldError[] {
  const errs = validateObjectMeta(role?.metadata, { namespaced: true, nameFn: validateRBACName });
  validateRules(role?.rules, true, errs);
  return errs;
}

export function validateRoleUpdate(role: Role, old: Role): FieldError[] {
  return [...validateRole(role), ...validateObjectMetaUpdate(role?.metadata, old?.metadata)];
}

export interface ClusterRoleValidationOptions {
  /** Kept as upstream's update keeps it: true when the old object already had invalid selector values. */
  allowInvalidLabelValueInSelector: boolean;
}

export function validateClusterRole(role: ClusterRole, opts: ClusterRoleValidationOptions = { allowInvalidLabelValueInSelector: false }): FieldError[] {
  const errs = validateObjectMeta(role?.metadata, { namespaced: false, nameFn: validateRBACName });
  validateRules(role?.rules, false, errs);
  const agg = role?.aggregationRule;
  if (agg !== undefined && agg !== null) {
    const path = FieldPath.root('aggregationRule').child('clusterRoleSelectors');
    const selectors = Array.isArray(agg.clusterRoleSelectors) ? agg.clusterRoleSelectors : [];
    if (selectors.length === 0) errs.push(fieldError.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    for (let i = 0; i < selectors.length; i++) {
      validateLabelSelector(selectors[i], opts, path.index(i), errs);
      // LabelSelectorAsSelector's failure leaves a nil selector, which field.Invalid prints as "null".
      try {
        labelSelectorRequirements(selectors[i]);
      } catch {
        errs.push(fieldError.invalid(path.index(i), 'null', 'invalid label selector.'));
      }
    }
  }
  return errs;
}

export function validateClusterRoleUpdate(role: ClusterRole, old: ClusterRole, opts?: ClusterRoleValidationOptions): FieldError[] {
  return [...validateClusterRole(role, opts), ...validateObjectMetaUpdate(role?.metadata, old?.metadata)];
}

/** ValidateRoleBindingSubject. */
export function validateRoleBindingSubject(subject: Subject, namespaced: boolean, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const s = (subject && typeof subject === 'object' ? subject : {}) as Partial<Subject>;
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  if (name.length === 0) errs.push(fieldError.required(path.child('name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name.length > 0) for (const m of nameIsDNSSubdomain(name, false)) errs.push(fieldError.invalid(path.child('name'), name, m));
      if (apiGroup.length > 0) errs.push(fieldError.notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(s.namespace).length === 0) errs.push(fieldError.required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(fieldError.notSupported(path.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(fieldError.notSupported(path.child('kind'), str(s.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: RoleBinding, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(b?.metadata, { namespaced, nameFn: validateRBACName });
  const ref = (b?.roleRef && typeof b.roleRef === 'object' ? b.roleRef : {}) as Partial<RoleRef>;
  const refPath = FieldPath.root('roleRef');
  if (str(ref.apiGroup) !== rbacGroup) errs.push(fieldError.notSupported(refPath.child('apiGroup'), str(ref.apiGroup), [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref.kind))) errs.push(fieldError.notSupported(refPath.child('kind'), str(ref.kind), kinds));
  const name = str(ref.name);
  if (name.length === 0) errs.push(fieldError.required(refPath.child('name')));
  else for (const m of validateRBACName(name, false)) errs.push(fieldError.invalid(refPath.child('name'), name, m));
  const subjects = Array.isArray(b?.subjects) ? b.subjects : [];
  for (let i = 0; i < subjects.length; i++) validateRoleBindingSubject(subjects[i]!, namespaced, FieldPath.root('subjects').index(i), errs);
  return errs;
}

export const validateRoleBinding = (b: RoleBinding): FieldError[] => validateBinding(b, true);
export const validateClusterRoleBinding = (b: ClusterRoleBinding): FieldError[] => validateBinding(b, false);

/** Go's %#v of the internal rbac.RoleRef, as field.Invalid prints it. */
function goRoleRef(r: Partial<RoleRef> | undefined): GoSyntax {
  return new GoSyntax(`rbac.RoleRef{APIGroup:${goQuote(str(r?.apiGroup))}, Kind:${goQuote(str(r?.kind))}, Name:${goQuote(str(r?.name))}}`);
}

function sameRoleRef(a: Partial<RoleRef> | undefined, b: Partial<RoleRef> | undefined): boolean {
  return str(a?.apiGroup) === str(b?.apiGroup) && str(a?.kind) === str(b?.kind) && str(a?.name) === str(b?.name);
}

function validateBindingUpdate(b: RoleBinding, old: RoleBinding, namespaced: boolean): FieldError[] {
  const errs = [...validateBinding(b, namespaced), ...validateObjectMetaUpdate(b?.metadata, old?.metadata)];
  if (!sameRoleRef(b?.roleRef, old?.roleRef)) errs.push(fieldError.invalid(FieldPath.root('roleRef'), goRoleRef(b?.roleRef), 'cannot change roleRef'));
  return errs;
}

export const validateRoleBindingUpdate = (b: RoleBinding, old: RoleBinding): FieldError[] => validateBindingUpdate(b, old, true);
export const validateClusterRoleBindingUpdate = (b: ClusterRoleBinding, old: ClusterRoleBinding): FieldError[] => validateBindingUpdate(b, old, false);
