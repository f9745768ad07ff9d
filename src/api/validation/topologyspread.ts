// Pod topology spread constraints (pkg/apis/core/validation validateTopologySpreadConstraints,
// v1.32), per constraint in upstream's order: maxSkew, topologyKey, whenUnsatisfiable, the
// (topologyKey, whenUnsatisfiable) pair against the constraints after it, minDomains, the two
// node inclusion policies, matchLabelKeys, then the label selector with its values checked.
//
// As upstream, the topology key is only required, not checked as a label key. The feature gates
// behind minDomains (GA), the inclusion policies and matchLabelKeys (beta) are on, their v1.32
// defaults; v1.32 does not merge matchLabelKeys into the selector (that came in v1.34).

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { LabelSelector, TopologySpreadConstraint } from '../types.js';
import { validateLabelSelector } from './labelselector.js';
import { validateLabelName } from './objectmeta.js';

/** supportedScheduleActions, as sets.List orders them. */
export const unsatisfiableConstraintActions = ['DoNotSchedule', 'ScheduleAnyway'];
/** supportedPodTopologySpreadNodePolicies, as sets.List orders them. */
export const nodeInclusionPolicies = ['Honor', 'Ignore'];

const isNotPositiveErrorMsg = 'must be greater than zero';
/** Where errors that are only counted are reported. */
const anyPath = FieldPath.root('');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export interface TopologySpreadValidationOptions {
  /** PodValidationOptions.AllowInvalidTopologySpreadConstraintLabelSelector: the label selectors are not validated. */
  allowInvalidLabelSelector: boolean;
}

/** hasInvalidTopologySpreadConstraintLabelSelector (pkg/api/pod/util.go): a selector that fails the create rules. */
export function hasInvalidTopologySpreadSelector(constraints: readonly (TopologySpreadConstraint | null)[] | null | undefined): boolean {
  if (!Array.isArray(constraints)) return false;
  const strict = { allowInvalidLabelValueInSelector: false };
  return constraints.some((c) => isObject(c) && validateLabelSelector(c.labelSelector as LabelSelector | undefined, strict, anyPath).length > 0);
}

/** validateTopologySpreadConstraints. A null entry is Go's zero constraint. */
export function validateTopologySpreadConstraints(
  constraints: readonly (TopologySpreadConstraint | null)[] | null | undefined,
  opts: TopologySpreadValidationOptions,
  path: FieldPath,
  errs: FieldError[] = [],
): FieldError[] {
  if (!Array.isArray(constraints)) return errs;
  const all = constraints.map((c) => (isObject(c) ? c : {}) as Partial<TopologySpreadConstraint>);
  for (let i = 0; i < all.length; i++) {
    const c = all[i]!;
    const p = path.index(i);
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (maxSkew <= 0) errs.push(fieldError.invalid(p.child('maxSkew'), maxSkew, isNotPositiveErrorMsg));
    const topologyKey = str(c.topologyKey);
    if (topologyKey.length === 0) errs.push(fieldError.required(p.child('topologyKey'), 'can not be empty'));
    const when = str(c.whenUnsatisfiable);
    if (!unsatisfiableConstraintActions.includes(when)) errs.push(fieldError.notSupported(p.child('whenUnsatisfiable'), when, unsatisfiableConstraintActions));
    // The tuple {topologyKey, whenUnsatisfiable} denotes one kind of constraint: a later one like it is a duplicate.
    for (let j = i + 1; j < all.length; j++) {
      if (str(all[j]!.topologyKey) === topologyKey && str(all[j]!.whenUnsatisfiable) === when) {
        errs.push(fieldError.duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${when}}`));
        break;
      }
    }
    if (isSet(c.minDomains)) validateMinDomains(c.minDomains, when, p.child('minDomains'), errs);
    validateNodeInclusionPolicy(c.nodeAffinityPolicy, p.child('nodeAffinityPolicy'), errs);
    validateNodeInclusionPolicy(c.nodeTaintsPolicy, p.child('nodeTaintsPolicy'), errs);
    const selector = isObject(c.labelSelector) ? (c.labelSelector as LabelSelector) : undefined;
    validateMatchLabelKeys(Array.isArray(c.matchLabelKeys) ? c.matchLabelKeys.map(str) : [], selector, p.child('matchLabelKeys'), errs);
    if (!opts.allowInvalidLabelSelector) validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, p.child('labelSelector'), errs);
  }
  return errs;
}

/** validateMinDomains: positive, and only with DoNotSchedule (both can be reported). */
function validateMinDomains(minDomains: unknown, when: string, path: FieldPath, errs: FieldError[]): FieldError[] {
  const v = typeof minDomains === 'number' ? minDomains : 0;
  if (v <= 0) errs.push(fieldError.invalid(path, v, isNotPositiveErrorMsg));
  if (when !== 'DoNotSchedule') errs.push(fieldError.invalid(path, v, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`));
  return errs;
}

/** validateNodeInclusionPolicy: unset, Honor or Ignore. */
function validateNodeInclusionPolicy(policy: unknown, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!isSet(policy)) return errs;
  const v = str(policy);
  if (!nodeInclusionPolicies.includes(v)) errs.push(fieldError.notSupported(path, v, nodeInclusionPolicies));
  return errs;
}

/**
 * validateMatchLabelKeysInTopologySpread: without a label selector the list is forbidden (its
 * keys are still checked); each key is a label key not already in the selector.
 */
function validateMatchLabelKeys(keys: string[], selector: LabelSelector | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (keys.length === 0) return errs;
  const selectorKeys = new Set<string>();
  if (selector) {
    if (isObject(selector.matchLabels)) for (const k of Object.keys(selector.matchLabels)) selectorKeys.add(k);
    if (Array.isArray(selector.matchExpressions)) for (const e of selector.matchExpressions) selectorKeys.add(str(e?.key));
  } else {
    errs.push(fieldError.forbidden(path, 'must not be specified when labelSelector is not set'));
  }
  for (let i = 0; i < keys.length; i++) {
    validateLabelName(keys[i]!, path.index(i), errs);
    if (selectorKeys.has(keys[i]!)) errs.push(fieldError.invalid(path.index(i), keys[i]!, 'exists in both matchLabelKeys and labelSelector'));
  }
  return errs;
}
