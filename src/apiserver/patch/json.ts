// JSON value helpers shared by the patch code: cloning and equality of parsed JSON, and the
// Go spellings the upstream error texts and annotations use (encoding/json output with sorted
// keys, fmt's %v and %q), so that messages and byte-compared annotations match kube-apiserver.

import { deepCopyJSON } from '../../api/deepcopy.js';

export type JSONValue = null | boolean | number | string | JSONValue[] | JSONObject;
export interface JSONObject {
  [key: string]: JSONValue;
}

export function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/**
 * Sets a member, including one named "__proto__" (which JSON.parse creates as an ordinary member
 * but plain assignment would turn into a prototype change).
 */
export function setKey(o: JSONObject, k: string, v: JSONValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** An own member's value, undefined when absent (never an inherited property like __proto__). */
export function own(o: JSONObject, k: string): JSONValue | undefined {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** Deep copy of a parsed JSON value (undefined stays undefined): the API's one deep copy. */
export const clone: <T>(v: T) => T = deepCopyJSON;

/** Structural equality of parsed JSON values; object key order is irrelevant. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!deepEqual(a[k], b[k])) return false;
    }
    return true;
  }
  return false;
}

/** Compares strings the way Go does (by UTF-8 bytes, i.e. by code point). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (U+D800-DFFF) encode code points above U+FFFF, which sort after U+E000-FFFF.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca < cb ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const goEscapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function goJSONString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return '"' + s.replace(/["\\\u0000-\u001f<>&\u2028\u2029]/g, (c) => goEscapes[c] ?? '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
}

/**
 * JSON as Go's encoding/json writes a map[string]interface{}: object keys sorted, `<`, `>` and
 * `&` escaped. Used where kube-apiserver's bytes are compared (the last-applied annotation,
 * managedFields keys).
 */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goJSON).join(',') + ']';
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return '{' + keys.map((k) => goJSONString(k) + ':' + goJSON(v[k])).join(',') + '}';
  }
  return 'null';
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), which fmt uses for %v of a float64. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expStr] = f.toExponential().split('e');
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
  }
  return String(f);
}

/** A JSON number as Go prints it after k8s decoding: integers as int64, others as float64. */
export function goNumber(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  return goFloat(n);
}

export { goQuote } from '../../api/goquote.js';

/** fmt's %v of a value decoded into interface{} (map[...] with sorted keys, [a b], <nil>). */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValue).join(' ') + ']';
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return 'map[' + keys.map((k) => `${k}:${goValue(v[k])}`).join(' ') + ']';
  }
  return String(v);
}

/** The Go type name reflect prints for a value decoded into interface{}. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
