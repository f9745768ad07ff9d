// Quantity values inside resource lists. Objects carry quantities as they came over the wire;
// a value that does not parse becomes a field error at its key instead of an exception.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { Quantity } from '../quantity.js';
import { quantity } from '../resourcelist.js';
import { isNegativeErrorMsg } from './objectmeta.js';
import { sortedKeysOf } from './keys.js';
import { isIntegerResourceName } from './resourcenames.js';

export const isNotIntegerErrorMsg = 'must be an integer';

export type ParsedQuantity = { ok: true; q: Quantity } | { ok: false; error: FieldError };

/**
 * Parses a resource-list value the way JSON decoding would (strings trimmed, JSON numbers
 * accepted). Failure: `Invalid value: "<raw>": <QuantityError message>` at `path`.
 */
export function parseQuantityAt(raw: unknown, path: FieldPath): ParsedQuantity {
  const errs: FieldError[] = [];
  const q = quantityAt(raw, path, errs);
  return q !== undefined ? { ok: true, q } : { ok: false, error: errs[0]! };
}

/** parseQuantityAt without the result object: the quantity, or undefined with its error appended to `errs`. */
export function quantityAt(raw: unknown, path: FieldPath, errs: FieldError[]): Quantity | undefined {
  try {
    // Strings go through the shared memo (the same few spellings recur in every pod).
    return typeof raw === 'string' ? quantity(raw) : Quantity.fromJSON(raw);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    errs.push(fieldError.invalid(path, raw === undefined ? null : raw, msg));
    return undefined;
  }
}

/** The keys of a resource list in a stable (sorted) order; anything but a plain object has none. */
export function sortedKeys(rl: unknown): string[] {
  if (!rl || typeof rl !== 'object' || Array.isArray(rl)) return [];
  return sortedKeysOf(rl);
}

export interface ParsedList {
  /** Entries whose value parsed, in sorted key order. */
  values: Map<string, Quantity>;
  /** One error per value that did not parse. */
  errors: FieldError[];
}

/** Parses every value of a list; `keyPath(k)` gives the path reported for a bad value. */
export function parseList(rl: unknown, keyPath: (k: string) => FieldPath): ParsedList {
  const values = new Map<string, Quantity>();
  const errors: FieldError[] = [];
  for (const k of sortedKeys(rl)) {
    const r = parseQuantityAt((rl as Record<string, unknown>)[k], keyPath(k));
    if (r.ok) values.set(k, r.q);
    else errors.push(r.error);
  }
  return { values, errors };
}

// The validators below append to the list they are given (a new one when none is) and return it.

/** ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (q.sign() < 0) errs.push(fieldError.invalid(path, q.toString(), isNegativeErrorMsg));
  return errs;
}

/** ValidateResourceQuantityValue: non-negative, and integral for integer resources (milli-value % 1000). */
export function validateResourceQuantityValue(name: string, q: Quantity, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  validateNonnegativeQuantity(q, path, errs);
  if (isIntegerResourceName(name) && q.milliValue() % 1000n !== 0n) {
    errs.push(fieldError.invalid(path, q.toString(), isNotIntegerErrorMsg));
  }
  return errs;
}
