// Go's %#v of the values apps/v1 validation reports (field.Error prints a struct, map or
// intstr.IntOrString that is not a fmt.Stringer with %#v): `map[string]string{"app":"web"}`,
// `v1.LabelSelector{MatchLabels:…, MatchExpressions:…}`, `intstr.IntOrString{Type:1, …}`. Maps print
// with their keys sorted, as fmt does.

import { GoSyntax, goQuote } from '../fielderrors.js';
import type { IntOrString, LabelSelector } from '../types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `map[string]string{"a":"b", "c":"d"}`, or `map[string]string(nil)` for an absent map. */
export function goStringMap(m: Record<string, string> | undefined): string {
  if (!isObject(m)) return 'map[string]string(nil)';
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(String(m[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

export function goStrings(xs: readonly unknown[] | undefined): string {
  if (!Array.isArray(xs)) return '[]string(nil)';
  return `[]string{${xs.map((x) => goQuote(String(x))).join(', ')}}`;
}

/** metav1.LabelSelector (the value behind the pointer, as field errors dereference it). */
export function goLabelSelector(sel: LabelSelector | undefined): string {
  if (!isObject(sel)) return 'null';
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions
        .map((r) => `v1.LabelSelectorRequirement{Key:${goQuote(String(r?.key ?? ''))}, Operator:${goQuote(String(r?.operator ?? ''))}, Values:${goStrings(r?.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels as Record<string, string> | undefined)}, MatchExpressions:${exprs}}`;
}

/** intstr.IntOrString as decoded from JSON: a number is Type 0 (IntVal), a string Type 1 (StrVal). */
export function goIntOrString(v: IntOrString | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`;
}

/** A `*T` field inside a %#v struct: `(*pkg.T)(nil)` when absent; present pointers print as an address, which no client can rely on. */
export function goPointer(type: string, v: unknown): string {
  return v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`;
}

export const goValue = (text: string): GoSyntax => new GoSyntax(text);
