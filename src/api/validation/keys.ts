// The keys of a map in the order Go's validation visits them (sorted), as cheaply as the usual
// small maps allow: labels, resource lists and the like hold one or two keys.

/** Own enumerable keys of `m` in ascending UTF-16 order (Array.prototype.sort's default order). */
export function sortedKeysOf(m: object): string[] {
  const keys = Object.keys(m);
  if (keys.length === 2) {
    // The default comparator orders by UTF-16 code units, as `<` does.
    if (keys[1]! < keys[0]!) return [keys[1]!, keys[0]!];
    return keys;
  }
  return keys.length > 2 ? keys.sort() : keys;
}
