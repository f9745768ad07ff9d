// apiequality.Semantic.DeepEqual for decoded JSON objects, as far as it can be told without the
// types: members compare by name (a Go struct or map has no member order, so a client that sends
// the same spec with its keys in another order changed nothing), lists in order, and an absent
// member, null and an empty list are the same (Go's nil and empty slices, which Semantic equates).
// What needs the type stays as the text says: an empty object is not an absent one (a pointer to
// an empty struct differs from nil), and a zero scalar is not an absent one (a pointer field set
// to 0 differs from nil); quantities compare as written, not by value.

/** Whether `v` is what Go would decode as nil or an empty slice. */
function unset(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (unset(a) || unset(b)) return unset(a) && unset(b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (!semanticEqual(x[k], y[k])) return false;
  for (const k in y) if (!(k in x) && !unset(y[k])) return false;
  return true;
}
