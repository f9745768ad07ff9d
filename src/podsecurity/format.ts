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

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `%q` for strings (strconv.Quote): printable runes verbatim, `\"` and `\\`, the C escapes
 * \a \b \f \n \r \t \v, `\xNN` for other ASCII controls, `\uNNNN` / `\UNNNNNNNN` for other
 * non-printable runes. A lone UTF-16 surrogate (which a Go string cannot hold) is rendered as
 * U+FFFD, as a Go decoder would have produced.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    const c = String.fromCodePoint(cp);
    switch (cp) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
      case 0x07: out += '\\a'; continue;
      case 0x08: out += '\\b'; continue;
      case 0x0c: out += '\\f'; continue;
      case 0x0a: out += '\\n'; continue;
      case 0x0d: out += '\\r'; continue;
      case 0x09: out += '\\t'; continue;
      case 0x0b: out += '\\v'; continue;
    }
    if (printable.test(c)) out += c;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}

/** `container "a"` / `containers "a", "b"`. */
export function containerPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}
