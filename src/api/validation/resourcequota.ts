// ResourceQuota (ValidateResourceQuota, ValidateResourceQuotaUpdate): resource names and
// values in spec.hard / status.hard / status.used, scopes, the scope selector, and immutable
// scopes on update.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { ResourceList, ResourceQuota, ScopedResourceSelectorRequirement } from '../types.js';
import { nameIsDNSSubdomain } from './names.js';
import { fieldImmutableErrorMsg, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { parseQuantityAt, sortedKeys, validateResourceQuantityValue } from './quantities.js';
import { isStandardQuotaResourceName, validateResourceQuotaResourceName } from './resourcenames.js';

/** The scopes upstream accepts (IsStandardResourceQuotaScope). */
export const standardQuotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];

const podComputeQuotaResources = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** IsResourceQuotaScopeValidForResource. */
export function isScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || podComputeQuotaResources.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}

const conflictingScopePairs: [string, string][] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

const existsOnlyMsg =
  "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

/** A resource list's names and values (spec.hard, status.hard, status.used). */
function validateQuotaResourceList(rl: ResourceList | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of sortedKeys(rl)) {
    const p = path.key(k);
    errs.push(...validateResourceQuotaResourceName(k, p));
    const r = parseQuantityAt((rl as Record<string, unknown>)[k], p);
    if (r.ok) errs.push(...validateResourceQuantityValue(k, r.q, p));
    else errs.push(r.error);
  }
  return errs;
}

/** The scopes as upstream's field errors print them: a JSON list, `null` when absent. */
function scopesValue(scopes: string[] | undefined): unknown {
  return Array.isArray(scopes) ? scopes : null;
}

/**
 * The scope selector as upstream's field error prints it: the internal Go type JSON-encoded,
 * which has no json tags, e.g. `{"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}`.
 */
function scopeSelectorValue(sel: { matchExpressions?: ScopedResourceSelectorRequirement[] }): { toJSON(): unknown } {
  return {
    toJSON: () => ({
      MatchExpressions: Array.isArray(sel.matchExpressions)
        ? sel.matchExpressions.map((e) => ({ ScopeName: e?.scopeName ?? '', Operator: e?.operator ?? '', Values: Array.isArray(e?.values) ? e.values : null }))
        : null,
    }),
  };
}

function validateScopes(spec: NonNullable<ResourceQuota['spec']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const scopes = Array.isArray(spec.scopes) ? spec.scopes : [];
  if (scopes.length === 0) return errs;
  const p = path.child('scopes');
  const hard = sortedKeys(spec.hard);
  const seen = new Set<string>();
  for (const scope of scopes) {
    if (!standardQuotaScopes.includes(scope)) errs.push(fieldError.invalid(p, scopesValue(spec.scopes), 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k)) {
        errs.push(fieldError.invalid(p, scopesValue(spec.scopes), 'unsupported scope applied to resource'));
      }
    }
    seen.add(scope);
  }
  for (const [a, b] of conflictingScopePairs) {
    if (seen.has(a) && seen.has(b)) errs.push(fieldError.invalid(p, scopesValue(spec.scopes), 'conflicting scopes'));
  }
  return errs;
}

/** validateScopedResourceSelectorRequirement: paths carry no index (`spec.scopeSelector.matchExpressions.operator`). */
function validateScopeSelector(spec: NonNullable<ResourceQuota['spec']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.scopeSelector;
  if (sel === undefined || sel === null) return errs;
  const p = path.child('scopeSelector').child('matchExpressions');
  const hard = sortedKeys(spec.hard);
  const seen = new Set<string>();
  for (const req of Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []) {
    const scope = typeof req?.scopeName === 'string' ? req.scopeName : '';
    const op = typeof req?.operator === 'string' ? req.operator : '';
    const values = Array.isArray(req?.values) ? req.values : [];
    if (!standardQuotaScopes.includes(scope)) errs.push(fieldError.invalid(p.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k)) {
        errs.push(fieldError.invalid(p, scopeSelectorValue(sel), 'unsupported scope applied to resource'));
      }
    }
    if (['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(scope) && op !== 'Exists') {
      errs.push(fieldError.invalid(p.child('operator'), op, existsOnlyMsg));
    }
    switch (op) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(fieldError.required(p.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) {
          errs.push(fieldError.invalid(p.child('values'), req.values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        }
        break;
      default:
        errs.push(fieldError.invalid(p.child('operator'), op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const [a, b] of conflictingScopePairs) {
    if (seen.has(a) && seen.has(b)) errs.push(fieldError.invalid(p, scopesValue(spec.scopes), 'conflicting scopes'));
  }
  return errs;
}

/** ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(spec: ResourceQuota['spec'], path = FieldPath.root('spec')): FieldError[] {
  const s = spec && typeof spec === 'object' ? spec : {};
  return [...validateQuotaResourceList(s.hard, path.child('hard')), ...validateScopes(s, path), ...validateScopeSelector(s, path)];
}

/** ValidateResourceQuotaStatus. */
export function validateResourceQuotaStatus(status: ResourceQuota['status'], path = FieldPath.root('status')): FieldError[] {
  const s = status && typeof status === 'object' ? status : {};
  return [...validateQuotaResourceList(s.hard, path.child('hard')), ...validateQuotaResourceList(s.used, path.child('used'))];
}

/** ValidateResourceQuota (create). */
export function validateResourceQuota(q: ResourceQuota): FieldError[] {
  return [
    ...validateObjectMeta(q?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validateResourceQuotaSpec(q?.spec),
    ...validateResourceQuotaStatus(q?.status),
  ];
}

/** ValidateResourceQuotaUpdate: metadata update rules, the spec, and `spec.scopes` may not change (as a set). */
export function validateResourceQuotaUpdate(newQ: ResourceQuota, oldQ: ResourceQuota): FieldError[] {
  const errs = [...validateObjectMetaUpdate(newQ?.metadata, oldQ?.metadata), ...validateResourceQuotaSpec(newQ?.spec)];
  const newScopes = new Set(Array.isArray(newQ?.spec?.scopes) ? newQ.spec!.scopes : []);
  const oldScopes = new Set(Array.isArray(oldQ?.spec?.scopes) ? oldQ.spec!.scopes : []);
  const same = newScopes.size === oldScopes.size && [...newScopes].every((s) => oldScopes.has(s));
  if (!same) errs.push(fieldError.invalid(FieldPath.root('spec').child('scopes'), scopesValue(newQ?.spec?.scopes), fieldImmutableErrorMsg));
  return errs;
}

/**
 * ValidateResourceQuotaStatusUpdate (the status subresource): metadata update rules, a
 * resourceVersion (`resourceVersion: Required value`, at the root as upstream reports it), and
 * status.hard / status.used names and values.
 */
export function validateResourceQuotaStatusUpdate(newQ: ResourceQuota, oldQ: ResourceQuota): FieldError[] {
  const errs = validateObjectMetaUpdate(newQ?.metadata, oldQ?.metadata);
  if (!newQ?.metadata?.resourceVersion) errs.push(fieldError.required(FieldPath.root('resourceVersion')));
  errs.push(...validateResourceQuotaStatus(newQ?.status));
  return errs;
}
