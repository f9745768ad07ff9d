// How one RBAC rule is read: whether it allows a request (plugin/pkg/auth/authorizer/rbac
// rbac.go RuleAllows with the rbacv1helpers matchers), whether a set of rules covers another
// (component-helpers auth/rbac/validation policy_comparator.go Covers, the escalation check's
// question), and how uncovered rules are printed (rule.go CompactRules, rbacv1helpers.CompactString).

import { goQuote } from '../api/goquote.js';
import type { PolicyRule } from '../api/rbactypes.js';

/** What a rule is matched against: authorizer.Attributes' fields that RuleAllows reads. */
export interface RuleRequest {
  verb: string;
  resourceRequest: boolean;
  path?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

const list = (v: readonly string[] | undefined): readonly string[] => (Array.isArray(v) ? v : []);

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of list(rule.verbs)) if (v === '*' || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of list(rule.apiGroups)) if (g === '*' || g === group) return true;
  return false;
}

/** A rule resource matches `resource/subresource` exactly, or `*`, or `*` + `/subresource` for a subresource. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of list(rule.resources)) {
    if (r === '*' || r === combined) return true;
    if (subresource.length === 0) continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = list(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/** strings.TrimRight(s, "*"). */
const trimStars = (s: string) => s.replace(/\*+$/, '');

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of list(rule.nonResourceURLs)) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(trimStars(u))) return true;
  }
  return false;
}

/** RuleAllows. */
export function ruleAllows(a: RuleRequest, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const sub = a.subresource ?? '';
    const combined = sub ? `${a.resource ?? ''}/${sub}` : (a.resource ?? '');
    return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup ?? '') && resourceMatches(rule, combined, sub) && resourceNameMatches(rule, a.name ?? '');
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path ?? '');
}

/** BreakdownRule: one rule per group × resource × verb (× name), and per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = list(rule.resourceNames);
  for (const group of list(rule.apiGroups)) {
    for (const resource of list(rule.resources)) {
      for (const verb of list(rule.verbs)) {
        if (names.length > 0) for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of list(rule.nonResourceURLs)) for (const verb of list(rule.verbs)) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const has = (set: readonly string[], v: string) => set.includes(v);
const hasAll = (set: readonly string[], want: readonly string[]) => want.every((v) => set.includes(v));

function resourceCoversAll(owner: readonly string[], wanted: readonly string[]): boolean {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (has(owner, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owner, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(trimStars(owner)));
}

function nonResourceURLsCoverAll(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((p) => owner.some((o) => nonResourceURLCovers(o, p)));
}

/** ruleCovers: whether the owner rule covers a broken-down subrule (at most one verb, resource and name). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = list(owner.verbs);
  const groups = list(owner.apiGroups);
  const ownerNames = list(owner.resourceNames);
  const subNames = list(sub.resourceNames);
  const verbOK = has(verbs, '*') || hasAll(verbs, list(sub.verbs));
  const groupOK = has(groups, '*') || hasAll(groups, list(sub.apiGroups));
  const resourceOK = resourceCoversAll(list(owner.resources), list(sub.resources));
  const urlOK = nonResourceURLsCoverAll(list(owner.nonResourceURLs), list(sub.nonResourceURLs));
  const nameOK = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbOK && groupOK && resourceOK && nameOK && urlOK;
}

/** Covers: whether `owner` grants everything `servant` does, and the broken-down rules it does not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/**
 * CompactRules: rules of one API group and one resource (at most one name, nothing else) merged
 * into one rule with all their verbs; the rest kept as they are.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = list(r.resourceNames);
    const isSimple = names.length <= 1 && list(r.nonResourceURLs).length === 0 && list(r.apiGroups).length === 1 && list(r.resources).length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], names.length ? names[0] : null]);
    const prev = simple.get(key);
    if (prev) prev.verbs = [...prev.verbs, ...list(r.verbs)];
    else simple.set(key, { ...r, verbs: [...list(r.verbs)] });
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
export const goStringList = (v: readonly string[]) => `[${v.map(goQuote).join(' ')}]`;

/** rbacv1helpers.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty parts left out. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => {
    if (list(v).length > 0) parts.push(`${label}:${goStringList(list(v))}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}
