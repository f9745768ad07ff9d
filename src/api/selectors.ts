// Label and field selectors in apimachinery's string syntax, with its error wording.
//   labels: `app=web,tier!=db,env in (a,b),env notin (c),has-key,!no-key`, `==` as `=`
//   fields: `metadata.name=web,status.phase!=Running`, only =, == and !=

import type { LabelSelector } from './types.js';

export type LabelRequirement =
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!' };

export class SelectorParseError extends Error {}

export type Labels = Record<string, string> | undefined;

export function matchesRequirement(r: LabelRequirement, labels: Labels): boolean {
  const has = !!labels && Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = has ? labels![r.key] : undefined;
  switch (r.op) {
    case '=':
      return has && v === r.value;
    case '!=':
      return !has || v !== r.value;
    case 'in':
      return has && r.values.includes(v!);
    case 'notin':
      return !has || !r.values.includes(v!);
    case 'exists':
      return has;
    case '!':
      return !has;
  }
}

export function matchesLabels(reqs: readonly LabelRequirement[], labels: Labels): boolean {
  return reqs.every((r) => matchesRequirement(r, labels));
}

/** Splits on commas outside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const keyRe = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const valueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(k: string): string {
  if (!keyRe.test(k)) throw new SelectorParseError(`unable to parse requirement: invalid label key "${k}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  return k;
}

function checkValue(v: string): string {
  if (v.length > 63 || !valueRe.test(v)) throw new SelectorParseError(`unable to parse requirement: invalid label value: "${v}": at key: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  return v;
}

export function parseLabelSelector(s: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  if (s.trim() === '') return out;
  for (const raw of splitTerms(s)) {
    const t = raw.trim();
    if (t === '') throw new SelectorParseError(`found '', expected: !, identifier, or 'end of string'`);
    let m: RegExpExecArray | null;
    if ((m = /^(\S+?)\s+(in|notin)\s*\((.*)\)$/.exec(t))) {
      const values = m[3]!.split(',').map((v) => checkValue(v.trim()));
      if (values.length === 1 && values[0] === '' && m[3]!.trim() === '') throw new SelectorParseError(`for 'in', 'notin' operators, values set can't be empty`);
      out.push({ key: checkKey(m[1]!), op: m[2] as 'in' | 'notin', values });
    } else if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(t))) {
      out.push({ key: checkKey(m[1]!), op: m[2] === '!=' ? '!=' : '=', value: checkValue(m[3]!.trim()) });
    } else if ((m = /^!\s*(\S+)$/.exec(t))) {
      out.push({ key: checkKey(m[1]!), op: '!' });
    } else if (/^\S+$/.test(t)) {
      out.push({ key: checkKey(t), op: 'exists' });
    } else {
      throw new SelectorParseError(`unable to parse requirement: found '${t}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }
  return out;
}

/** metav1.LabelSelector (matchLabels, matchExpressions) as requirements. */
export function labelSelectorRequirements(sel: LabelSelector | undefined): LabelRequirement[] {
  if (!sel) return [];
  const out: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) out.push({ key: k, op: '=', value: v });
  for (const e of sel.matchExpressions ?? []) {
    switch (e.operator) {
      case 'In':
        out.push({ key: e.key, op: 'in', values: e.values ?? [] });
        break;
      case 'NotIn':
        out.push({ key: e.key, op: 'notin', values: e.values ?? [] });
        break;
      case 'Exists':
        out.push({ key: e.key, op: 'exists' });
        break;
      case 'DoesNotExist':
        out.push({ key: e.key, op: '!' });
        break;
      default:
        throw new SelectorParseError(`"${e.operator}" is not a valid label selector operator`);
    }
  }
  return out;
}

/**
 * metav1.LabelSelectorAsSelector as a predicate, the way the controllers use it: a missing
 * selector is labels.Nothing() (matches nothing), one with no requirements labels.Everything(),
 * and one that does not convert (a bad operator) matches nothing (the controller logs and skips it).
 */
export function labelSelectorMatcher(sel: LabelSelector | undefined): (labels: Labels) => boolean {
  if (!sel) return () => false;
  try {
    const reqs = labelSelectorRequirements(sel);
    return (labels) => matchesLabels(reqs, labels);
  } catch {
    return () => false;
  }
}

/** selector.Empty() of LabelSelectorAsSelector: present and without requirements (it selects everything). */
export function selectsEverything(sel: LabelSelector | undefined): boolean {
  return !!sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
}

/**
 * How a controller finds the owners of an orphan (GetPodReplicaSets, GetPodStatefulSets,
 * getDaemonSetsForPod, getDeploymentsForReplicaSet): a selector that converts, is not empty, and
 * matches the labels.
 */
export function selectsOrphan(sel: LabelSelector | undefined, labels: Labels): boolean {
  return !selectsEverything(sel) && labelSelectorMatcher(sel)(labels);
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export function parseFieldSelector(s: string): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (s.trim() === '') return out;
  for (const raw of s.split(',')) {
    const t = raw.trim();
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(t);
    if (!m) throw new SelectorParseError(`invalid selector: '${s}'; can't understand '${t}'`);
    out.push({ field: m[1]!.trim(), op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() });
  }
  return out;
}

export function matchesFields(reqs: readonly FieldRequirement[], fields: Record<string, string>): boolean {
  return reqs.every((r) => (r.op === '=' ? fields[r.field] === r.value : fields[r.field] !== r.value));
}
