// The pod strategy's mutatePodAffinity (pkg/registry/core/pod/strategy.go PrepareForCreate, v1.32,
// MatchLabelKeysInPodAffinity on by default): each pod (anti-)affinity term's matchLabelKeys and
// mismatchLabelKeys become requirements of its label selector, `key In (value)` and
// `key NotIn (value)` with the value of the new pod's own label, so that the stored pod says what
// the scheduler will match. Keys the pod has no label for, and terms without a label selector (it
// matches nothing), are left alone. Runs after defaulting and before validation, which is why a
// key in both matchLabelKeys and the selector is refused: the merged selector names it twice.

import type { LabelSelectorRequirement, Pod, PodAffinityLike, PodAffinityTerm } from './types.js';

/** A decoded JSON object (not null, not a list), its declared type kept. */
const isObject = <T>(v: T | null | undefined): v is T => typeof v === 'object' && v !== null && !Array.isArray(v);

function applyLabelKeys(term: PodAffinityTerm, keys: unknown, operator: 'In' | 'NotIn', labels: Record<string, string>): void {
  if (!Array.isArray(keys)) return;
  for (const key of keys) {
    if (typeof key !== 'string' || !Object.hasOwn(labels, key)) continue;
    const req: LabelSelectorRequirement = { key, operator, values: [labels[key]!] };
    const sel = term.labelSelector!;
    if (Array.isArray(sel.matchExpressions)) sel.matchExpressions.push(req);
    else sel.matchExpressions = [req];
  }
}

function applyToTerm(term: PodAffinityTerm | null | undefined, labels: Record<string, string>): void {
  if (!isObject(term) || !isObject(term.labelSelector)) return;
  applyLabelKeys(term, term.matchLabelKeys, 'In', labels);
  applyLabelKeys(term, term.mismatchLabelKeys, 'NotIn', labels);
}

function applyToAffinity(pa: PodAffinityLike | undefined, labels: Record<string, string>): void {
  if (!isObject(pa)) return;
  if (Array.isArray(pa.preferredDuringSchedulingIgnoredDuringExecution)) {
    for (const w of pa.preferredDuringSchedulingIgnoredDuringExecution) applyToTerm(isObject(w) ? w.podAffinityTerm : undefined, labels);
  }
  if (Array.isArray(pa.requiredDuringSchedulingIgnoredDuringExecution)) {
    for (const t of pa.requiredDuringSchedulingIgnoredDuringExecution) applyToTerm(t, labels);
  }
}

/** Merges the label keys into the selectors of `pod`, in place (the caller owns the pod). */
export function mergePodAffinityLabelKeys(pod: Pod): void {
  const affinity = pod?.spec?.affinity;
  if (!isObject(affinity)) return;
  const labels = isObject(pod.metadata?.labels) ? (pod.metadata.labels as Record<string, string>) : {};
  applyToAffinity(affinity.podAffinity, labels);
  applyToAffinity(affinity.podAntiAffinity, labels);
}
