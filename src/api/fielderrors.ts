// Field errors with Kubernetes' paths, type strings and value formatting
// (apimachinery pkg/util/validation/field). A validator returns a list of these; the API
// server turns them into a 422 Status and `bulkhead plan` prints them.

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const typeStrings: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks a bad value that is omitted from the message (field.Required, Forbidden, TooLong). */
export const omitValue = Symbol('omitValue');

/**
 * A field path, rendered only when an error is reported: each step is its parent plus one part.
 * Steps are built on every call of a validator, error or not, so they are kept to one small
 * allocation (no rest array, no field initializers).
 */
export class FieldPath {
  declare private readonly parent: FieldPath | undefined;
  declare private readonly part: string;
  declare private readonly kind: 'root' | 'child' | 'index' | 'key';

  private constructor(parent: FieldPath | undefined, part: string, kind: 'root' | 'child' | 'index' | 'key') {
    this.parent = parent;
    this.part = part;
    this.kind = kind;
  }

  static root(name: string): FieldPath {
    return new FieldPath(undefined, name, 'root');
  }

  child(name: string, ...more: string[]): FieldPath;
  child(name: string): FieldPath {
    let p: FieldPath = new FieldPath(this, name, 'child');
    // Further names are read from `arguments`: a rest parameter would allocate an array per call.
    for (let i = 1; i < arguments.length; i++) p = new FieldPath(p, arguments[i] as string, 'child');
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, String(i), 'index');
  }

  key(k: string): FieldPath {
    return new FieldPath(this, k, 'key');
  }

  toString(): string {
    const parts: FieldPath[] = [];
    for (let p: FieldPath | undefined = this; p; p = p.parent) parts.push(p);
    let s = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i]!;
      if (p.kind === 'index' || p.kind === 'key') s += `[${p.part}]`;
      else s += s === '' ? p.part : `.${p.part}`;
    }
    return s;
  }
}

export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue: unknown;
  detail: string;
}

export { goQuote } from './goquote.js';
import { goQuote } from './goquote.js';

/** A bad value already written as Go's %#v prints it (a struct, a map, an intstr), printed verbatim. */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/** Go's %v-ish rendering of a bad value, as field.Error.Error() does it (strings as %q). */
export function formatBadValue(v: unknown): string {
  if (v instanceof GoSyntax) return v.text;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(v);
  }
  return JSON.stringify(v);
}

/** The part after `<field>: `, e.g. `Invalid value: "6": must be less than or equal to cpu limit of 5`. */
export function errorBody(e: FieldError): string {
  let s = typeStrings[e.type];
  const valueless = e.badValue === omitValue;
  if (!valueless) {
    if (e.type === 'FieldValueInvalid' || e.type === 'FieldValueNotSupported' || e.type === 'FieldValueDuplicate' ||
        e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotFound' || e.type === 'FieldValueTooMany') {
      s += `: ${formatBadValue(e.badValue)}`;
    }
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

function make(type: FieldErrorType, path: FieldPath | string, badValue: unknown, detail: string): FieldError {
  return { type, field: String(path), badValue, detail };
}

export const fieldError = {
  invalid: (p: FieldPath | string, v: unknown, detail: string) => make('FieldValueInvalid', p, v, detail),
  required: (p: FieldPath | string, detail = '') => make('FieldValueRequired', p, omitValue, detail),
  forbidden: (p: FieldPath | string, detail: string) => make('FieldValueForbidden', p, omitValue, detail),
  duplicate: (p: FieldPath | string, v: unknown) => make('FieldValueDuplicate', p, v, ''),
  notFound: (p: FieldPath | string, v: unknown) => make('FieldValueNotFound', p, v, ''),
  tooLong: (p: FieldPath | string, max: number) =>
    make('FieldValueTooLong', p, omitValue, max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long'),
  tooMany: (p: FieldPath | string, actual: number, max: number) =>
    make('FieldValueTooMany', p, actual, `must have at most ${max} items`),
  internal: (p: FieldPath | string, detail: string) => make('InternalError', p, omitValue, detail),
  /** field.NotSupported: detail lists the supported values quoted, in the order given. */
  notSupported: (p: FieldPath | string, v: unknown, supported: readonly string[]) =>
    make('FieldValueNotSupported', p, v, supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : ''),
};

/**
 * A field error list as Go's ErrorList.ToAggregate().Error() prints it: duplicates dropped, one
 * error as is, several as `[e1, e2]`; empty string for none.
 */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const msgs = [...new Set(errors.map(errorString))];
  if (msgs.length === 0) return '';
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/** The Status message of a 422: `<Kind> "<name>" is invalid: <e>` or `[e1, e2]` for several. */
export function invalidMessage(kind: string, name: string, errs: FieldError[]): string {
  const agg = aggregateFieldErrors(errs);
  return agg === '' ? `${kind} "${name}" is invalid` : `${kind} "${name}" is invalid: ${agg}`;
}
