// Go's strconv.Quote (fmt %q), once: field errors, patch and apply messages, Pod Security
// messages and the downward API's label/annotation files all print strings the way Go does
// (strconv/quote.go: appendQuotedWith with ASCII escapes off, IsPrint for what stays verbatim).

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
