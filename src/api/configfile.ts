// Component configuration files (an AdmissionConfiguration, a plugin's configuration) decoded as
// apimachinery's UniversalDecoder decodes them: the type meta first (json serializer Decode with
// meta.SimpleMetaFactory.Interpret), the kind and apiVersion required, the group/version/kind
// looked up in the file's scheme, then the object into its Go struct, with encoding/json's type
// errors and, for a strict codec factory, the unknown fields (sigs.k8s.io/json). Pure: the
// caller reads and parses the file (YAML becomes the same values JSON would).
//
// Deliberate deviations, both for one-line messages: `Object 'Kind' is missing in '<data>'`
// shows the data as compact JSON where upstream repeats the file's text, and a not-registered
// error leaves out Go's ` in scheme "<source file:line>"`.

import { goQuote } from './goquote.js';

/** What kind of decoding error: the AdmissionConfiguration reader tolerates the first three for legacy files. */
export type ConfigDecodeErrorKind = 'missingKind' | 'missingVersion' | 'notRegistered' | 'other';

export class ConfigDecodeError extends Error {
  constructor(message: string, readonly kind: ConfigDecodeErrorKind = 'other') {
    super(message);
  }
}

/** A type meta as schema.ParseGroupVersion splits it. */
export interface TypeMeta {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** encoding/json's name for a decoded value's JSON type (UnmarshalTypeError.Value). */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': case 'bigint': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const findKindType = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The type meta of a decoded document: meta.Interpret (the document must be a JSON object whose
 * apiVersion and kind are strings or absent; apiVersion parses as `group/version` or `version`),
 * then the json serializer's checks: a kind, then a version, are required.
 */
export function interpretTypeMeta(doc: unknown): TypeMeta {
  const parseError = (what: string) => new ConfigDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${what}`);
  // An empty document is JSON null, which decodes into the type meta as nothing: no kind.
  if (doc === null || doc === undefined) throw new ConfigDecodeError("Object 'Kind' is missing in 'null'", 'missingKind');
  if (!isObject(doc)) throw parseError(`${jsonType(doc)} into Go value of type ${findKindType}`);
  for (const field of ['apiVersion', 'kind']) {
    const v = doc[field];
    if (v !== undefined && v !== null && typeof v !== 'string') throw parseError(`${jsonType(v)} into Go struct field .${field} of type string`);
  }
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  // schema.ParseGroupVersion: "", "v", "g/v"; more than one slash is an error.
  const parts = apiVersion.split('/');
  if (parts.length > 2) throw new ConfigDecodeError(`unexpected GroupVersion string: ${apiVersion}`);
  const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
  if (kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`, 'missingKind');
  if (version === '') throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${JSON.stringify(doc)}'`, 'missingVersion');
  return { group, version, kind };
}

/** runtime.notRegisteredErr for a group/version/kind the scheme does not know. */
export function notRegisteredError(meta: TypeMeta): ConfigDecodeError {
  const gv = meta.group === '' ? meta.version : `${meta.group}/${meta.version}`;
  return new ConfigDecodeError(`no kind ${goQuote(meta.kind)} is registered for version ${goQuote(gv)}`, 'notRegistered');
}

/**
 * The Go type of a struct field, as far as these files need: strings (named ones, such as
 * `v1.ResourceQuotaScope`, print their name in type errors), string slices, structs, and raw
 * JSON (runtime.Unknown).
 */
export type GoType =
  | { readonly type: 'string'; readonly name?: string }
  | { readonly type: 'stringSlice' }
  | { readonly type: 'raw' }
  | { readonly type: 'slice'; readonly of: GoStruct }
  | GoStruct;

/** A Go struct: its name as reflect prints it (`v1.PodSecurityDefaults`) and its JSON fields. */
export interface GoStruct {
  readonly type: 'struct';
  readonly name: string;
  readonly fields: Readonly<Record<string, GoType>>;
}

export const goString: GoType = { type: 'string' };
export const goStringSlice: GoType = { type: 'stringSlice' };
export const goRaw: GoType = { type: 'raw' };
/** A Go type whose underlying type is string, by its reflect name (`v1.ScopeSelectorOperator`). */
export const goNamedString = (name: string): GoType => ({ type: 'string', name });

function goTypeName(t: GoType): string {
  switch (t.type) {
    case 'string': return t.name ?? 'string';
    case 'stringSlice': return '[]string';
    case 'raw': return 'runtime.Unknown';
    case 'slice': return `[]${t.of.name}`;
    case 'struct': return t.name;
  }
}

/** The struct's name without its package (UnmarshalTypeError.Struct). */
function bareName(s: GoStruct): string {
  return s.name.slice(s.name.lastIndexOf('.') + 1);
}

/**
 * A document decoded into `root` as encoding/json decodes into a Go struct: absent and null
 * members keep the zero value ('' for strings, [] for slices, the zero struct), raw members stay
 * as they are (undefined when absent or null, a nil pointer). The first type mismatch is the
 * error (`json: cannot unmarshal number into Go struct field PodSecurityDefaults.defaults.enforce
 * of type string`); with `strict`, members no field names are then the error
 * (`strict decoding error: unknown field "deflaults"`, each with its path from the root).
 * Field names match case-sensitively (sigs.k8s.io/json). `apiVersion` and `kind` (the inlined
 * TypeMeta) are known fields of the root.
 */
export function decodeGoStruct(doc: Record<string, unknown>, root: GoStruct, strict: boolean): Record<string, unknown> {
  let typeError: string | undefined;
  const unknown: string[] = [];
  const mismatch = (value: unknown, parent: GoStruct, path: string, t: GoType) => {
    typeError ??= `json: cannot unmarshal ${jsonType(value)} into Go struct field ${bareName(parent)}.${path} of type ${goTypeName(t)}`;
  };
  const zero = (t: GoType): unknown => {
    switch (t.type) {
      case 'string': return '';
      case 'stringSlice': case 'slice': return [];
      case 'raw': return undefined;
      case 'struct': return Object.fromEntries(Object.entries(t.fields).map(([k, f]) => [k, zero(f)]));
    }
  };
  // `path` names the field as encoding/json's type errors do (field names only); `at`, as the
  // strict errors do (with slice indices).
  const value = (v: unknown, t: GoType, parent: GoStruct, path: string, at: string): unknown => {
    if (t.type === 'raw') return v ?? undefined;
    if (v === null || v === undefined) return zero(t);
    switch (t.type) {
      case 'string':
        if (typeof v === 'string') return v;
        mismatch(v, parent, path, t);
        return '';
      case 'stringSlice':
        if (!Array.isArray(v)) {
          mismatch(v, parent, path, t);
          return [];
        }
        // An element's mismatch names the slice's field and the element's type; null is "".
        return v.map((e) => {
          if (e === null || e === undefined) return '';
          if (typeof e === 'string') return e;
          mismatch(e, parent, path, goString);
          return '';
        });
      case 'slice':
        if (!Array.isArray(v)) {
          mismatch(v, parent, path, t);
          return [];
        }
        return v.map((e, i) => (e === null || e === undefined ? zero(t.of) : isObject(e) ? struct(e, t.of, path, `${at}[${i}]`) : (mismatch(e, parent, path, t.of), zero(t.of))));
      case 'struct':
        if (!isObject(v)) {
          mismatch(v, parent, path, t);
          return zero(t);
        }
        return struct(v, t, path, at);
    }
  };
  const struct = (o: Record<string, unknown>, t: GoStruct, path: string, at: string): Record<string, unknown> => {
    const out = zero(t) as Record<string, unknown>;
    for (const [k, v] of Object.entries(o)) {
      const f = t.fields[k];
      const p = path === '' ? k : `${path}.${k}`;
      const a = at === '' ? k : `${at}.${k}`;
      if (!f) {
        if (!(t === root && (k === 'apiVersion' || k === 'kind'))) unknown.push(a);
        continue;
      }
      out[k] = value(v, f, t, p, a);
    }
    return out;
  };
  const out = struct(doc, root, '', '');
  if (typeError) throw new ConfigDecodeError(typeError);
  if (strict && unknown.length > 0) throw new ConfigDecodeError(`strict decoding error: ${unknown.map((p) => `unknown field ${goQuote(p)}`).join(', ')}`);
  return out;
}
