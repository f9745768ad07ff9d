// Pod affinity validation (pkg/apis/core/validation validateAffinity and the functions under it,
// v1.32): node affinity's node selector terms, pod (anti-)affinity terms with their label and
// namespace selectors, namespaces and matchLabelKeys/mismatchLabelKeys, and the weights of
// preferred terms. Paths and wording are upstream's, including two of its slips that clients
// see: a bad namespace is reported at `…podAffinityTerm.namespace` (singular), and a key found in
// both matchLabelKeys and labelSelector at `<term>[<index in matchLabelKeys>]`.
//
// v1.32 does not check the values of node selector requirements (that came with
// AllowInvalidLabelValueInRequiredNodeAffinity in v1.33). MatchLabelKeysInPodAffinity is on (its
// v1.32 default): matchLabelKeys and mismatchLabelKeys are kept and validated. On create the API
// server first merges them into the label selector (../podaffinitylabelkeys.ts), which is how a
// key "exists in both matchLabelKeys and labelSelector": it then appears twice in the selector.
// Null list entries are Go's zero values, as a JSON null decodes into a struct.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import type { Affinity, LabelSelector, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityLike, PodAffinityTerm } from '../types.js';
import { validateLabelSelector } from './labelselector.js';
import { nameIsDNSLabel, nameIsDNSSubdomain, type NameValidator } from './names.js';
import { validateLabelName } from './objectmeta.js';

export interface AffinityValidationOptions {
  /** PodValidationOptions.AllowInvalidLabelValueInSelector: false on create. */
  allowInvalidLabelValueInSelector: boolean;
}

const weightRangeMsg = 'must be in the range 1-100';
/** Where errors that are only counted are reported. */
const anyPath = FieldPath.root('');

/** nodeFieldSelectorValidators: the one node field a node selector may name. */
const nodeFieldSelectorValidators: Record<string, NameValidator> = { 'metadata.name': nameIsDNSSubdomain };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = <T>(v: unknown): (T | null | undefined)[] => (Array.isArray(v) ? v : []);
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * hasInvalidLabelValueInAffinitySelector (pkg/api/pod/util.go): any pod (anti-)affinity term
 * whose label or namespace selector fails the create rules.
 */
export function hasInvalidAffinityTermSelector(affinity: Affinity | null | undefined): boolean {
  if (!isObject(affinity)) return false;
  const strict = { allowInvalidLabelValueInSelector: false };
  const bad = (t: PodAffinityTerm | null | undefined, p: FieldPath) =>
    isObject(t) && (validateLabelSelector(t.labelSelector, strict, p).length > 0 || validateLabelSelector(t.namespaceSelector, strict, p).length > 0);
  for (const pa of [affinity.podAffinity, affinity.podAntiAffinity]) {
    if (!isObject(pa)) continue;
    if (list<PodAffinityTerm>(pa.requiredDuringSchedulingIgnoredDuringExecution).some((t) => bad(t, anyPath))) return true;
    if (list<{ podAffinityTerm?: PodAffinityTerm }>(pa.preferredDuringSchedulingIgnoredDuringExecution).some((t) => bad(t?.podAffinityTerm, anyPath))) return true;
  }
  return false;
}

/** validateAffinity: nodeAffinity, podAffinity, podAntiAffinity, each when set. */
export function validateAffinity(affinity: Affinity | null | undefined, opts: AffinityValidationOptions, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isObject(affinity)) return errs;
  if (isObject(affinity.nodeAffinity)) validateNodeAffinity(affinity.nodeAffinity, path.child('nodeAffinity'), errs);
  if (isObject(affinity.podAffinity)) validatePodAffinityLike(affinity.podAffinity, opts, path.child('podAffinity'), errs);
  if (isObject(affinity.podAntiAffinity)) validatePodAffinityLike(affinity.podAntiAffinity, opts, path.child('podAntiAffinity'), errs);
  return errs;
}

function validateNodeAffinity(na: NodeAffinity, path: FieldPath, errs: FieldError[]): FieldError[] {
  const required = na.requiredDuringSchedulingIgnoredDuringExecution;
  if (isObject(required)) validateNodeSelector(required, path.child('requiredDuringSchedulingIgnoredDuringExecution'), errs);
  const preferred = list<{ weight?: unknown; preference?: NodeSelectorTerm }>(na.preferredDuringSchedulingIgnoredDuringExecution);
  const pp = path.child('preferredDuringSchedulingIgnoredDuringExecution');
  for (let i = 0; i < preferred.length; i++) {
    const term = preferred[i] ?? {};
    const weight = int(term.weight);
    if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(pp.index(i).child('weight'), weight, weightRangeMsg));
    validateNodeSelectorTerm(term.preference, pp.index(i).child('preference'), errs);
  }
  return errs;
}

/** ValidateNodeSelector: at least one term, each validated. */
export function validateNodeSelector(ns: NodeSelector, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const terms = list<NodeSelectorTerm>(ns.nodeSelectorTerms);
  const tp = path.child('nodeSelectorTerms');
  if (terms.length === 0) {
    errs.push(fieldError.required(tp, 'must have at least one node selector term'));
    return errs;
  }
  for (let i = 0; i < terms.length; i++) validateNodeSelectorTerm(terms[i], tp.index(i), errs);
  return errs;
}

/** ValidateNodeSelectorTerm: label requirements (matchExpressions), then field requirements (matchFields). */
export function validateNodeSelectorTerm(term: NodeSelectorTerm | null | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isObject(term)) return errs;
  const exprs = list<NodeSelectorRequirement>(term.matchExpressions);
  for (let j = 0; j < exprs.length; j++) validateNodeSelectorRequirement(exprs[j] ?? {}, path.child('matchExpressions').index(j), errs);
  const fields = list<NodeSelectorRequirement>(term.matchFields);
  for (let j = 0; j < fields.length; j++) validateNodeFieldSelectorRequirement(fields[j] ?? {}, path.child('matchFields').index(j), errs);
  return errs;
}

/** ValidateNodeSelectorRequirement (v1.32: the values' format is not checked). */
function validateNodeSelectorRequirement(rq: Partial<NodeSelectorRequirement>, path: FieldPath, errs: FieldError[]): FieldError[] {
  const operator = str(rq.operator);
  const values = list<string>(rq.values);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldError.forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldError.required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  validateLabelName(str(rq.key), path.child('key'), errs);
  return errs;
}

/** ValidateNodeFieldSelectorRequirement: In or NotIn with exactly one value, on metadata.name only. */
function validateNodeFieldSelectorRequirement(rq: Partial<NodeSelectorRequirement>, path: FieldPath, errs: FieldError[]): FieldError[] {
  const operator = str(rq.operator);
  const values = list<string>(rq.values);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errs.push(fieldError.required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldError.invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  const key = str(rq.key);
  const vf = Object.hasOwn(nodeFieldSelectorValidators, key) ? nodeFieldSelectorValidators[key] : undefined;
  if (!vf) {
    errs.push(fieldError.invalid(path.child('key'), key, 'not a valid field selector key'));
  } else {
    for (let i = 0; i < values.length; i++) {
      const v = str(values[i]);
      for (const m of vf(v, false)) errs.push(fieldError.invalid(path.child('values').index(i), v, m));
    }
  }
  return errs;
}

/** validatePodAffinity and validatePodAntiAffinity (the same rules): required terms, then weighted preferred terms. */
function validatePodAffinityLike(pa: PodAffinityLike, opts: AffinityValidationOptions, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (Array.isArray(pa.requiredDuringSchedulingIgnoredDuringExecution)) {
    const terms = list<PodAffinityTerm>(pa.requiredDuringSchedulingIgnoredDuringExecution);
    const rp = path.child('requiredDuringSchedulingIgnoredDuringExecution');
    for (let i = 0; i < terms.length; i++) validatePodAffinityTerm(terms[i] ?? {}, opts, rp.index(i), errs);
  }
  if (Array.isArray(pa.preferredDuringSchedulingIgnoredDuringExecution)) {
    const terms = list<{ weight?: unknown; podAffinityTerm?: PodAffinityTerm }>(pa.preferredDuringSchedulingIgnoredDuringExecution);
    const pp = path.child('preferredDuringSchedulingIgnoredDuringExecution');
    for (let j = 0; j < terms.length; j++) {
      const term = terms[j] ?? {};
      const weight = int(term.weight);
      if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(pp.index(j).child('weight'), weight, weightRangeMsg));
      validatePodAffinityTerm(isObject(term.podAffinityTerm) ? term.podAffinityTerm : {}, opts, pp.index(j).child('podAffinityTerm'), errs);
    }
  }
  return errs;
}

/**
 * validatePodAffinityTerm: the label and namespace selectors, the namespaces (DNS labels),
 * matchLabelKeys/mismatchLabelKeys, then the topology key (required, and a qualified name, so an
 * empty one is reported three times).
 */
function validatePodAffinityTerm(term: Partial<PodAffinityTerm>, opts: AffinityValidationOptions, path: FieldPath, errs: FieldError[]): FieldError[] {
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  validateLabelSelector(term.labelSelector, selectorOpts, path.child('labelSelector'), errs);
  validateLabelSelector(term.namespaceSelector, selectorOpts, path.child('namespaceSelector'), errs);
  for (const ns of list<string>(term.namespaces)) {
    const name = str(ns);
    for (const m of nameIsDNSLabel(name, false)) errs.push(fieldError.invalid(path.child('namespace'), name, m));
  }
  validateMatchLabelKeysAndMismatchLabelKeys(path, list<string>(term.matchLabelKeys).map(str), list<string>(term.mismatchLabelKeys).map(str), term.labelSelector, errs);
  const topologyKey = str(term.topologyKey);
  if (topologyKey.length === 0) errs.push(fieldError.required(path.child('topologyKey'), 'can not be empty'));
  validateLabelName(topologyKey, path.child('topologyKey'), errs);
  return errs;
}

/**
 * validateMatchLabelKeysAndMismatchLabelKeys: both lists are label keys and need a label
 * selector; a matchLabelKeys key may not also be in the selector (the merged selector then holds
 * it twice) nor in mismatchLabelKeys.
 */
function validateMatchLabelKeysAndMismatchLabelKeys(
  path: FieldPath,
  matchLabelKeys: string[],
  mismatchLabelKeys: string[],
  selector: LabelSelector | null | undefined,
  errs: FieldError[],
): FieldError[] {
  const sel = isObject(selector) ? selector : undefined;
  validateLabelKeys(path.child('matchLabelKeys'), matchLabelKeys, sel, errs);
  validateLabelKeys(path.child('mismatchLabelKeys'), mismatchLabelKeys, sel, errs);
  if (sel) {
    // The last index of a repeated key wins, as upstream's map does.
    const indexOf = new Map<string, number>();
    matchLabelKeys.forEach((k, i) => indexOf.set(k, i));
    const selectorKeys = new Set<string>(isObject(sel.matchLabels) ? Object.keys(sel.matchLabels) : []);
    for (const expr of list<{ key?: unknown }>(sel.matchExpressions)) {
      const key = str(expr?.key);
      const i = indexOf.get(key);
      if (i !== undefined && selectorKeys.has(key)) errs.push(fieldError.invalid(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(key);
    }
  }
  const mismatch = new Set(mismatchLabelKeys);
  matchLabelKeys.forEach((k, i) => {
    if (mismatch.has(k)) errs.push(fieldError.invalid(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

/** validateLabelKeys: without a label selector the list as a whole is forbidden (and its keys not checked). */
function validateLabelKeys(path: FieldPath, keys: string[], selector: LabelSelector | undefined, errs: FieldError[]): FieldError[] {
  if (keys.length === 0) return errs;
  if (!selector) {
    errs.push(fieldError.forbidden(path, 'must not be specified when labelSelector is not set'));
    return errs;
  }
  for (let i = 0; i < keys.length; i++) validateLabelName(keys[i]!, path.index(i), errs);
  return errs;
}
