// Which pods a quota's scopes and scope selector match (pods.go podMatchesScopeFunc,
// MatchingScopes), and the errors upstream's matching meets on a PriorityClass selector it cannot
// make into a label selector.

import type { FeatureGates } from '../api/featuregates.js';
import { aggregateFieldErrors, fieldError, FieldPath, GoSyntax, goQuote, type FieldError } from '../api/fielderrors.js';
import { isValidLabelValue } from '../api/validation/names.js';
import type { Pod, PodAffinityLike, ResourceQuota, ScopedResourceSelectorRequirement } from '../api/types.js';
import { getPodQOS } from '../policy/qos.js';

export const quotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'] as const;

/** spec.scopes as Exists selectors, then spec.scopeSelector.matchExpressions. */
export function quotaSelectors(q: ResourceQuota): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = (q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' }));
  out.push(...(q.spec?.scopeSelector?.matchExpressions ?? []));
  return out;
}

export function isTerminating(pod: Pod): boolean {
  return typeof pod.spec.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;
}

function hasCrossNamespaceTerm(a: PodAffinityLike | undefined): boolean {
  if (!a) return false;
  const terms = [
    ...(a.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(a.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
  ];
  return terms.some((t) => !!t && ((t.namespaces?.length ?? 0) > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null)));
}

export function usesCrossNamespacePodAffinity(pod: Pod): boolean {
  return hasCrossNamespaceTerm(pod.spec.affinity?.podAffinity) || hasCrossNamespaceTerm(pod.spec.affinity?.podAntiAffinity);
}

/** Label-selector semantics over the one-key set {PriorityClass: <class>} (empty without a class). */
function priorityClassMatches(pod: Pod, sel: ScopedResourceSelectorRequirement): boolean {
  const cls = pod.spec.priorityClassName ?? '';
  const present = cls !== '';
  const values = sel.values ?? [];
  switch (sel.operator) {
    case 'In':
      return present && values.includes(cls);
    case 'NotIn':
      return !present || !values.includes(cls);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      return false;
  }
}

export function podMatchesScope(pod: Pod, sel: ScopedResourceSelectorRequirement, gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  switch (sel.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return getPodQOS(pod, gates) === 'BestEffort';
    case 'NotBestEffort':
      return getPodQOS(pod, gates) !== 'BestEffort';
    case 'PriorityClass':
      return sel.operator === 'Exists' ? (pod.spec.priorityClassName ?? '') !== '' : priorityClassMatches(pod, sel);
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

export function podMatchesAllScopes(pod: Pod, selectors: readonly ScopedResourceSelectorRequirement[], gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  return selectors.every((s) => podMatchesScope(pod, s, gates));
}

/** spec.scopes entries as the Exists selectors quotaSelectors makes of them, made once. */
const existsSelectors = new Map<string, ScopedResourceSelectorRequirement>(quotaScopes.map((s) => [s, Object.freeze({ scopeName: s, operator: 'Exists' })]));

/**
 * podMatchesAllScopes(pod, quotaSelectors(q), gates) in the same order, without building the
 * selector list: admission asks it of every quota for every pod.
 */
export function podMatchesQuotaScopes(pod: Pod, q: ResourceQuota, gates: Pick<FeatureGates, 'PodLevelResources'>): boolean {
  for (const s of q.spec?.scopes ?? []) {
    if (!podMatchesScope(pod, existsSelectors.get(s) ?? { scopeName: s, operator: 'Exists' }, gates)) return false;
  }
  for (const sel of q.spec?.scopeSelector?.matchExpressions ?? []) if (!podMatchesScope(pod, sel, gates)) return false;
  return true;
}

/** Go's %v of a ScopedResourceSelectorRequirement: `{PriorityClass In [a b]}`. */
export function formatScopeSelector(sel: ScopedResourceSelectorRequirement): string {
  return `{${sel.scopeName} ${sel.operator} [${(sel.values ?? []).join(' ')}]}`;
}

/** Go's %v of a list of them: `[{BestEffort Exists []} {PriorityClass In [a]}]`. */
export function formatScopeSelectors(sels: readonly ScopedResourceSelectorRequirement[]): string {
  return `[${sels.map(formatScopeSelector).join(' ')}]`;
}

/** Go's %#v of a []string: `[]string(nil)`, `[]string{}`, `[]string{"a", "b"}`. */
function goStringSliceSyntax(values: readonly string[] | undefined): GoSyntax {
  return new GoSyntax(values === undefined ? '[]string(nil)' : `[]string{${values.map(goQuote).join(', ')}}`);
}

const labelSelectorOperators = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/**
 * The error podMatchesScopeFunc returns for this selector, whatever the pod, as MatchingScopes
 * words it; undefined when it has none. Only a PriorityClass selector other than Exists is made
 * into a label selector (helper.ScopedResourceSelectorRequirementsAsSelector, then
 * labels.NewRequirement), and that fails for an operator other than In, NotIn, Exists and
 * DoesNotExist, for In or NotIn without values, for DoesNotExist with some, and for a value that
 * is no label value. Quota validation rules out all but the last in a quota; the admission
 * configuration's matchScopes are not validated at all.
 */
export function scopeSelectorError(sel: ScopedResourceSelectorRequirement): string | undefined {
  if (sel.scopeName !== 'PriorityClass' || sel.operator === 'Exists') return undefined;
  let problem: string | undefined;
  if (!labelSelectorOperators.has(sel.operator)) {
    problem = `${goQuote(sel.operator)} is not a valid scope selector operator`;
  } else {
    const values = sel.values ?? [];
    const path = FieldPath.root('values');
    const errs: FieldError[] = [];
    if ((sel.operator === 'In' || sel.operator === 'NotIn') && values.length === 0) {
      errs.push(fieldError.invalid(path, goStringSliceSyntax(sel.values), "for 'in', 'notin' operators, values set can't be empty"));
    }
    if (sel.operator === 'DoesNotExist' && values.length !== 0) {
      errs.push(fieldError.invalid(path, goStringSliceSyntax(sel.values), 'values set must be empty for exists and does not exist'));
    }
    values.forEach((v, i) => {
      const problems = isValidLabelValue(v);
      if (problems.length > 0) errs.push(fieldError.invalid(path.index(i).key('PriorityClass'), v, problems.join('; ')));
    });
    if (errs.length > 0) problem = aggregateFieldErrors(errs);
  }
  return problem === undefined ? undefined : `error on matching scope ${formatScopeSelector(sel)}: failed to parse and convert selector: ${problem}`;
}

/**
 * The pod evaluator's MatchingScopes: the selectors the pod matches, in their order, or the
 * error of the first selector that cannot be matched (scopeSelectorError).
 */
export function podMatchingScopes(
  pod: Pod,
  selectors: readonly ScopedResourceSelectorRequirement[],
  gates: Pick<FeatureGates, 'PodLevelResources'>,
): { matched: ScopedResourceSelectorRequirement[] } | { error: string } {
  const matched: ScopedResourceSelectorRequirement[] = [];
  for (const sel of selectors) {
    const error = scopeSelectorError(sel);
    if (error !== undefined) return { error };
    if (podMatchesScope(pod, sel, gates)) matched.push(sel);
  }
  return { matched };
}
