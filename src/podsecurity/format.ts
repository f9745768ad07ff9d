// Text helpers shared by the checks, reproducing the Go formatting the upstream messages are
// built with: joinQuote, pluralize, `%q` (strconv.Quote) and sort.Strings / sets.List order.

/** `"a", "b"` (items wrapped in double quotes, not escaped); empty string for no items. */
export function joinQuote(items: readonly string[]): string {
  if (items.length === 0) return '';
  return `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/**
 * Go string order (byte-wise UTF-8, which is code point order). JS's default sort compares UTF-16
 * code units, which differs for characters above U+FFFF, so compare code points explicitly.
 */
export function goCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++; // both are the same surrogate pair
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** sets.NewString(items...).List(): de-duplicated and sorted in Go string order. */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort(goCompare);
}

export { goQuote } from '../api/goquote.js';
/** `container "a"` / `containers "a", "b"`. */
export function containerPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}
