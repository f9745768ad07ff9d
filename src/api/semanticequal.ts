// apiequality.Semantic.DeepEqual (k8s.io/apimachinery pkg/api/equality/semantic.go) for decoded
// JSON objects: members compare by name (a Go struct or map has no member order, so a client that
// sends the same spec with its keys in another order changed nothing), lists in order, and an
// absent member, null and an empty list are the same (Go's nil and empty slices, which Semantic
// equates).
//
// Semantic's equality function for resource.Quantity is `a.Cmp(b) == 0`: `1` and `1000m`, `1Gi`
// and `1073741824` are one value. Which members are quantities is the type's to say, so a caller
// that knows the shape names it (a schema of src/api/schema, the description the decoder reads),
// and the quantities under it compare by value; without a shape they compare as written.
// What else needs the type stays as the text says: an empty object is not an absent one (a
// pointer to an empty struct differs from nil), and a zero scalar is not an absent one (a
// pointer field set to 0 differs from nil). Semantic's other functions (metav1.Time by instant,
// selectors) are not followed: no caller compares a shape that holds them.

import { Quantity } from './quantity.js';
import { mustSchema, reachableSchemas, type ResolvedType } from './schema/registry.js';

/** The shape of the compared values: a schema's full name (io.k8s.api.apps.v1.DeploymentSpec) or a field's type. */
export type Shape = string | ResolvedType;

/** Whether `v` is what Go would decode as nil or an empty slice. */
function unset(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

export function semanticEqual(a: unknown, b: unknown, shape?: Shape): boolean {
  return equal(a, b, typed(typeof shape === 'string' ? { t: 'ref', name: shape, go: '' } : shape));
}

/** The type of `field` of the schema `schema`, as a Shape (undefined for a field it does not have). */
export function fieldShape(schema: string, field: string): ResolvedType | undefined {
  return mustSchema(schema).fieldMap.get(field)?.type;
}

function equal(a: unknown, b: unknown, t: ResolvedType | undefined): boolean {
  if (a === b) return true;
  if (unset(a) || unset(b)) return unset(a) && unset(b);
  if (t?.t === 'ref' && mustSchema(t.name).special?.decoder === 'quantity') return sameQuantity(a, b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const items = t?.t === 'array' ? typed(t.items) : undefined;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i], items)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const member = memberShape(t);
  for (const k in x) if (!equal(x[k], y[k], member?.(k))) return false;
  for (const k in y) if (!(k in x) && !unset(y[k])) return false;
  return true;
}

/** The shape of an object's members: a map's value type, a struct's field types. */
function memberShape(t: ResolvedType | undefined): ((k: string) => ResolvedType | undefined) | undefined {
  if (t?.t === 'map') {
    const values = typed(t.values);
    return () => values;
  }
  if (t?.t !== 'ref') return undefined;
  const fields = mustSchema(t.name).fieldMap;
  return (k) => typed(fields.get(k)?.type);
}

/** Semantic's Quantity function; a text that does not parse (validation's to refuse) compares as written. */
function sameQuantity(a: unknown, b: unknown): boolean {
  const x = parsed(a);
  const y = parsed(b);
  return x !== undefined && y !== undefined ? x.cmp(y) === 0 : a === b;
}

function parsed(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return Quantity.fromJSON(v);
  } catch {
    return undefined;
  }
}

/** Schema name → whether a quantity can be found under it; a shape without one compares as written, untyped. */
const holdsQuantity = new Map<string, boolean>();

/** `t` where a quantity may lie under it, else undefined (the untyped walk, with no schema lookups). */
function typed(t: ResolvedType | undefined): ResolvedType | undefined {
  let leaf = t;
  while (leaf && (leaf.t === 'array' || leaf.t === 'map')) leaf = leaf.t === 'array' ? leaf.items : leaf.values;
  if (leaf?.t !== 'ref') return undefined;
  let holds = holdsQuantity.get(leaf.name);
  if (holds === undefined) {
    holds = reachableSchemas([leaf.name]).some((n) => mustSchema(n).special?.decoder === 'quantity');
    holdsQuantity.set(leaf.name, holds);
  }
  return holds ? t : undefined;
}
