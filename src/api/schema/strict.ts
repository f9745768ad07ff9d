// Strict decoding of an already-parsed JSON object against a schema, reporting what
// kube-apiserver's decoder (sigs.k8s.io/json, case-sensitive, DisallowUnknownFields) reports:
//
//  - unknown fields, as `spec.containers[0].bogus` (strict errors: at most 100, deduplicated,
//    in document order). With fieldValidation=Strict they fail the request with
//    `strict decoding error: unknown field "…", …`; with Warn each becomes a warning.
//  - wrong JSON types, worded as Go's encoding/json does:
//    `json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`.
//    Go keeps the first such error and goes on decoding;
//  - errors from types with their own UnmarshalJSON (Quantity, IntOrString, Time, MicroTime),
//    which stop decoding at once (`fatal`), e.g.
//    `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`.
//
// The request fails with decodeError(problems) when that is defined (a type error wins
// over unknown fields, which are only reported for an otherwise decodable body).
//
// Limits, because the input is already parsed: duplicate keys are gone (Go reports
// `duplicate field "…"`), and numbers have lost their spelling (Go rejects 80.0 or 1e3 for an
// integer field; here 80.0 is 80 and accepted).

import { Quantity, QuantityError } from '../quantity.js';
import { RFC3339, RFC3339Micro, goTimeParseError } from './gotime.js';
import { mustSchema, type ResolvedType, type Schema } from './registry.js';

export interface TypeProblem {
  /** Field path in kube style, e.g. spec.containers[0].ports[1].containerPort or metadata.labels[app]. */
  readonly path: string;
  /** The decoder's message. */
  readonly message: string;
  /** True for errors that stop Go's decoder (custom UnmarshalJSON); nothing after it is reported. */
  readonly fatal?: boolean;
}

export interface StrictProblems {
  readonly unknownFields: string[];
  readonly typeErrors: TypeProblem[];
  /**
   * The quantities whose text the Go types would write back otherwise (ParseQuantity, then
   * String(): `1024Mi` → `1Gi`, `1000m` → `1`, a JSON number → its text), with their place.
   */
  readonly quantityRewrites: QuantityRewrite[];
}

/** A path segment: a field name, an array index, or a map key. */
export type Seg = string | number | { readonly key: string };

export interface QuantityRewrite {
  readonly segs: readonly Seg[];
  readonly text: string;
}

/** The problem kube-apiserver's decoder reports, if any (unknown fields aside): a fatal one, else the first. */
export function decodeError(p: StrictProblems): TypeProblem | undefined {
  if (p.typeErrors.length === 0) return undefined;
  const last = p.typeErrors[p.typeErrors.length - 1]!;
  return last.fatal ? last : p.typeErrors[0]!;
}

/** The message of decodeError(p). */
export function decodeErrorMessage(p: StrictProblems): string | undefined {
  return decodeError(p)?.message;
}

/** `strict decoding error: unknown field "a", unknown field "b"`, or undefined when there are none. */
export function strictDecodingMessage(unknownFields: readonly string[]): string | undefined {
  if (unknownFields.length === 0) return undefined;
  return `strict decoding error: ${unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`;
}

// ---------------------------------------------------------------------------------------------
// Decode plans: the schemas compiled into nodes with null-prototype property tables.

type Node =
  | { readonly k: 'struct'; readonly go: string; readonly goStruct: string; props: Record<string, Node> }
  | { readonly k: 'array'; readonly go: string; readonly items: Node }
  | { readonly k: 'map'; readonly go: string; readonly values: Node }
  | { readonly k: 'string' | 'int32' | 'int64' | 'double' | 'bool' | 'byte' | 'any'; readonly go: string }
  | { readonly k: 'quantity' | 'intorstring' | 'time' | 'microtime'; readonly go: string };

const structNodes = new Map<string, Node>();

function schemaNode(s: Schema): Node {
  const cached = structNodes.get(s.name);
  if (cached) return cached;
  if (s.special) {
    const node: Node = s.special.decoder === 'any' ? { k: 'any', go: s.goType } : { k: s.special.decoder, go: s.goType };
    structNodes.set(s.name, node);
    return node;
  }
  const node: Node = { k: 'struct', go: s.goType, goStruct: s.short, props: Object.create(null) as Record<string, Node> };
  structNodes.set(s.name, node); // before the fields: recursive types terminate
  for (const f of s.fields) node.props[f.name] = typeNode(f.type);
  return node;
}

function typeNode(t: ResolvedType): Node {
  switch (t.t) {
    case 'prim':
      switch (t.prim) {
        case 'string':
          return { k: 'string', go: t.go };
        case 'int32':
          return { k: 'int32', go: t.go };
        case 'int64':
          return { k: 'int64', go: t.go };
        case 'double':
          return { k: 'double', go: t.go };
        case 'boolean':
          return { k: 'bool', go: t.go };
        case 'byte':
          return { k: 'byte', go: t.go };
      }
      throw new Error('unreachable');
    case 'ref':
      return schemaNode(mustSchema(t.name));
    case 'array':
      return { k: 'array', go: t.go, items: typeNode(t.items) };
    case 'map':
      return { k: 'map', go: t.go, values: typeNode(t.values) };
  }
}

// ---------------------------------------------------------------------------------------------
// The walk

const MAX_STRICT_ERRORS = 100;
const MAX_TYPE_ERRORS = 100;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_LIMIT = 9223372036854775808; // 2^63 as a double

class Walk {
  readonly segs: Seg[] = [];
  readonly quantityRewrites: QuantityRewrite[] = [];
  readonly unknownFields: string[] = [];
  readonly typeErrors: TypeProblem[] = [];
  private seenUnknown: Set<string> | undefined;
  stopped = false;

  /** Kube-style path of the current position (indices and map keys in brackets). */
  path(extra?: string): string {
    let out = '';
    for (const s of this.segs) {
      if (typeof s === 'string') out += out.length === 0 ? s : `.${s}`;
      else if (typeof s === 'number') out += `[${s}]`;
      else out += `[${s.key}]`;
    }
    if (extra !== undefined) out += out.length === 0 ? extra : `.${extra}`;
    return out;
  }

  /** The strict decoder's path: like path(), but map keys are written as fields. */
  strictPath(extra: string): string {
    let out = '';
    for (const s of this.segs) {
      if (typeof s === 'string') out += out.length === 0 ? s : `.${s}`;
      else if (typeof s === 'number') out += `[${s}]`;
      else out += out.length === 0 ? s.key : `.${s.key}`;
    }
    return out.length === 0 ? extra : `${out}.${extra}`;
  }

  /** Go's errorContext.FieldStack: the struct field names only. */
  goFieldPath(): string {
    let out = '';
    for (const s of this.segs) if (typeof s === 'string') out += out.length === 0 ? s : `.${s}`;
    return out;
  }

  unknown(key: string): void {
    if (this.unknownFields.length >= MAX_STRICT_ERRORS) return;
    const p = this.strictPath(key);
    this.seenUnknown ??= new Set();
    if (this.seenUnknown.has(p)) return;
    this.seenUnknown.add(p);
    this.unknownFields.push(p);
  }

  /** An UnmarshalTypeError with the decoder's context (the struct owning the current field). */
  typeError(jsonKind: string, goType: string, struct: string | undefined, fatal = false): void {
    const field = this.goFieldPath();
    const message =
      struct !== undefined || field.length > 0
        ? `json: cannot unmarshal ${jsonKind} into Go struct field ${struct ?? ''}.${field} of type ${goType}`
        : `json: cannot unmarshal ${jsonKind} into Go value of type ${goType}`;
    this.problem(message, fatal);
  }

  problem(message: string, fatal: boolean): void {
    if (fatal) {
      this.typeErrors.push({ path: this.path(), message, fatal: true });
      this.stopped = true;
    } else if (this.typeErrors.length < MAX_TYPE_ERRORS) {
      this.typeErrors.push({ path: this.path(), message });
    }
  }

  value(v: unknown, node: Node, struct: string | undefined): void {
    if (v === null || v === undefined) return; // null decodes into anything
    switch (node.k) {
      case 'struct': {
        if (typeof v !== 'object' || Array.isArray(v)) return this.typeError(jsonKind(v), node.go, struct);
        const props = node.props;
        const obj = v as Record<string, unknown>;
        for (const key in obj) {
          const child = props[key];
          if (child === undefined) {
            this.unknown(key);
            continue;
          }
          this.segs.push(key);
          this.value(obj[key], child, node.goStruct);
          this.segs.pop();
          if (this.stopped) return;
        }
        return;
      }
      case 'array': {
        if (!Array.isArray(v)) return this.typeError(jsonKind(v), node.go, struct);
        const items = node.items;
        if (isLeafOk(items)) {
          // Fast path for lists of plain strings, the common case (command, args, finalizers).
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            if (typeof x === 'string' || x === null) continue;
            this.segs.push(i);
            this.value(x, items, struct);
            this.segs.pop();
          }
          return;
        }
        for (let i = 0; i < v.length; i++) {
          this.segs.push(i);
          this.value(v[i], items, struct);
          this.segs.pop();
          if (this.stopped) return;
        }
        return;
      }
      case 'map': {
        if (typeof v !== 'object' || Array.isArray(v)) return this.typeError(jsonKind(v), node.go, struct);
        const values = node.values;
        const obj = v as Record<string, unknown>;
        for (const key in obj) {
          const x = obj[key];
          if (values.k === 'string' && (typeof x === 'string' || x === null)) continue;
          // A map keeps its entry for null: a Quantity's UnmarshalJSON makes it zero (a
          // ResourceList's `cpu: null` is stored as "0"); other values keep their null.
          if (x === null && values.k === 'quantity') {
            this.quantityRewrites.push({ segs: [...this.segs, { key }], text: '0' });
            continue;
          }
          this.segs.push({ key });
          this.value(x, values, struct);
          this.segs.pop();
          if (this.stopped) return;
        }
        return;
      }
      case 'string':
        if (typeof v !== 'string') this.typeError(jsonKind(v), node.go, struct);
        return;
      case 'byte':
        if (typeof v !== 'string') this.typeError(jsonKind(v), node.go, struct);
        else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) this.problem(`illegal base64 data at input byte ${base64ErrorOffset(v)}`, false);
        return;
      case 'bool':
        if (typeof v !== 'boolean') this.typeError(jsonKind(v), node.go, struct);
        return;
      case 'double':
        if (typeof v !== 'number') this.typeError(jsonKind(v), node.go, struct);
        return;
      case 'int32':
      case 'int64':
        if (typeof v !== 'number') return this.typeError(jsonKind(v), node.go, struct);
        if (!intFits(v, node.k)) this.typeError(`number ${String(v)}`, node.go, struct);
        return;
      case 'any':
        return;
      case 'quantity':
        return this.quantity(v);
      case 'intorstring':
        // IntOrString.UnmarshalJSON: strings as such, anything else through json.Unmarshal into an int32.
        if (typeof v === 'string') return;
        if (typeof v === 'number') {
          if (!intFits(v, 'int32')) this.typeError(`number ${String(v)}`, 'int32', struct, true);
          return;
        }
        return this.typeError(jsonKind(v), 'int32', struct, true);
      case 'time':
      case 'microtime': {
        // Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse.
        if (typeof v !== 'string') return this.typeError(jsonKind(v), 'string', struct, true);
        const err = goTimeParseError(node.k === 'time' ? RFC3339 : RFC3339Micro, v);
        if (err !== undefined) this.problem(err, true);
        return;
      }
    }
  }

  quantity(v: unknown): void {
    let key: string;
    if (typeof v === 'string') key = v;
    else if (typeof v === 'number') key = `#${String(v)}`;
    else return this.problem(parseQuantityValue(v).error!, true); // booleans, objects and arrays never parse
    let parsed = quantityCache.get(key);
    if (parsed === undefined) {
      parsed = parseQuantityValue(v);
      if (quantityCache.size >= QUANTITY_CACHE_MAX) quantityCache.clear();
      quantityCache.set(key, parsed);
    }
    if (parsed.error !== undefined) return this.problem(parsed.error, true);
    if (parsed.text !== v) this.quantityRewrites.push({ segs: [...this.segs], text: parsed.text });
  }
}

const QUANTITY_CACHE_MAX = 4096;
/** Quantity text → its parse error, or the text Go writes it back as. Pods repeat the same few quantities. */
const quantityCache = new Map<string, { error?: string; text: string }>();

function parseQuantityValue(v: unknown): { error?: string; text: string } {
  try {
    // value() forces the exact magnitude. Upstream accepts 1e999999999 and then cannot compute
    // with it; Bulkhead refuses it here (DESIGN: validation caps what could exhaust a node).
    const q = Quantity.fromJSON(v);
    q.value();
    return { text: q.toString() };
  } catch (e) {
    if (e instanceof QuantityError) return { error: e.message, text: '' };
    if (e instanceof RangeError) return { error: `quantity ${JSON.stringify(v)} is too large`, text: '' };
    throw e;
  }
}

function isLeafOk(n: Node): boolean {
  return n.k === 'string';
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function intFits(v: number, k: 'int32' | 'int64'): boolean {
  if (!Number.isInteger(v)) return false;
  return k === 'int32' ? v >= INT32_MIN && v <= INT32_MAX : v >= -INT64_LIMIT && v < INT64_LIMIT;
}

function base64ErrorOffset(s: string): number {
  const m = /[^A-Za-z0-9+/=]/.exec(s);
  return m ? m.index : s.length - (s.length % 4);
}

/**
 * Strict-decoding problems of `obj` (already parsed JSON) as the schema `schemaName`
 * (e.g. io.k8s.api.core.v1.Pod): unknown field paths and type errors, in document order.
 */
export function strictProblems(obj: unknown, schemaName: string): StrictProblems {
  const node = schemaNode(mustSchema(schemaName));
  const w = new Walk();
  w.value(obj, node, undefined);
  return { unknownFields: w.unknownFields, typeErrors: w.typeErrors, quantityRewrites: w.quantityRewrites };
}

/** Writes each rewrite's text at its place in `obj` (a copy the caller owns). */
export function applyQuantityRewrites(obj: unknown, rewrites: readonly QuantityRewrite[]): void {
  for (const r of rewrites) {
    let holder = obj as Record<string | number, unknown>;
    for (let i = 0; i < r.segs.length - 1; i++) holder = holder[segKey(r.segs[i]!)] as Record<string | number, unknown>;
    holder[segKey(r.segs[r.segs.length - 1]!)] = r.text;
  }
}

function segKey(s: Seg): string | number {
  return typeof s === 'object' ? s.key : s;
}
