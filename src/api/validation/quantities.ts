// Quantity values inside resource lists. Objects carry quantities as they came over the wire;
// a value that does not parse becomes a field error at its key instead of an exception.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { Quantity } from '../quantity.js';
import { quantity } from '../resourcelist.js';
import { isNegativeErrorMsg } from './objectmeta.js';
import { isIntegerResourceName } from './resourcenames.js';

export const isNotIntegerErrorMsg = 'must be an integer';

export type ParsedQuantity = { ok: true; q: Quantity } | { ok: false; error: FieldError };

/**
 * Parses a resource-list value the way JSON decoding would (strings trimmed, JSON numbers
 * accepted). Failure: `Invalid value: "<raw>": <QuantityError message>` at `path`.
 */
export function parseQuantityAt(raw: unknown, path: FieldPath): ParsedQuantity {
  try {
    // Strings go through the shared memo (the same few spellings recur in every pod).
    return { ok: true, q: typeof raw === 'string' ? quantity(raw) : Quantity.fromJSON(raw) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, error: fieldError.invalid(path, raw === undefined ? null : raw, msg) };
  }
}

/** The keys of a resource list in a stable (sorted) order; anything but a plain object has none. */
export function sortedKeys(rl: unknown): string[] {
  if (!rl || typeof rl !== 'object' || Array.isArray(rl)) return [];
  return Object.keys(rl).sort();
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

/** ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, path: FieldPath): FieldError[] {
  return q.sign() < 0 ? [fieldError.invalid(path, q.toString(), isNegativeErrorMsg)] : [];
}

/** ValidateResourceQuantityValue: non-negative, and integral for integer resources (milli-value % 1000). */
export function validateResourceQuantityValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs = validateNonnegativeQuantity(q, path);
  if (isIntegerResourceName(name) && q.milliValue() % 1000n !== 0n) {
    errs.push(fieldError.invalid(path, q.toString(), isNotIntegerErrorMsg));
  }
  return errs;
}
