// Shadow mode for test/apiserver/patch/managedfields-differential.test.ts: every call a test
// process makes to updateManagedFields or applyPatch is also made to the reference (this
// directory) and to the current code with the time fixed, and, for an update, again with the new
// object sharing every unchanged part of the old one. Differences and changed inputs are
// collected and written, with the counts, to $MF_SHADOW_REPORT when the process exits. The test
// it shadows gets the current code's own answer, as without the shadow.
//   node --import ./shadow-register.js <compiled test file>

import { appendFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { ApplyOptions, ApplyResult } from '../../../../src/apiserver/patch/apply.js';
import type { UpdateOptions } from '../../../../src/apiserver/patch/managedfields.js';
import type { JSONObject, JSONValue } from '../../../../src/apiserver/patch/json.js';
import { applyPatch as referenceApplyPatch } from './apply.js';
import { updateManagedFields as referenceUpdateManagedFields } from './managedfields.js';

/** A call's outcome as text: the JSON of what it returned, or the error's class and message. */
export function outcome(f: () => unknown): string {
  try {
    return 'returned ' + JSON.stringify(f());
  } catch (e) {
    return `threw ${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

/**
 * Equal as JSON text is: members in the same order (isDeepStrictEqual ignores their order, and two
 * list items alike but for it are not the same input), undefined members kept apart from absent.
 */
function sameInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameInOrder((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * `next` with every part that equals `base`'s at the same place replaced by `base`'s own object,
 * as the server's strategies and patch engines leave what a write does not touch. Members holding
 * undefined are kept as they are.
 */
export function shareWith(base: JSONValue | undefined, next: JSONValue | undefined): JSONValue | undefined {
  if (next === null || typeof next !== 'object' || base === null || typeof base !== 'object') return next;
  if (Array.isArray(next) !== Array.isArray(base)) return next;
  if (sameInOrder(base, next)) return base;
  if (Array.isArray(next)) return next.map((v, i) => shareWith((base as JSONValue[])[i], v) as JSONValue);
  const b = base as JSONObject;
  const out: JSONObject = {};
  for (const k of Object.keys(next)) {
    // defineProperty: a member named "__proto__" stays a member.
    Object.defineProperty(out, k, { value: shareWith(Object.prototype.hasOwnProperty.call(b, k) ? b[k] : undefined, next[k]), writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** The time a call without one is compared at: the reference and the current code read the clock apart. */
const fixedNow = '2024-05-01T09:30:00Z';

type Update = (old: JSONObject | undefined, next: JSONObject, manager: string, operation: 'Update', opts: UpdateOptions) => JSONObject;
type Apply = (live: JSONObject | undefined, applied: unknown, opts: ApplyOptions) => ApplyResult;

const seen = { updates: 0, applies: 0, mismatches: [] as string[] };

function compare(what: string, reference: () => unknown, current: () => unknown, inputs: unknown[]): void {
  const before = structuredClone(inputs);
  const want = outcome(reference);
  const got = outcome(current);
  if (got !== want) seen.mismatches.push(`${what}\n  inputs    ${JSON.stringify(inputs)}\n  reference ${want}\n  current   ${got}`);
  else if (!isDeepStrictEqual(inputs, before)) seen.mismatches.push(`${what} changed its inputs: ${JSON.stringify(before)}`);
}

export function shadowUpdate(current: Update): Update {
  return (old, next, manager, operation, opts) => {
    const fixed = { ...opts, now: opts.now ?? fixedNow };
    compare('updateManagedFields', () => referenceUpdateManagedFields(old, next, manager, operation, fixed), () => current(old, next, manager, operation, fixed), [old, next, manager]);
    if (old) {
      const shared = shareWith(old, next) as JSONObject;
      compare('updateManagedFields (parts shared)', () => referenceUpdateManagedFields(old, shared, manager, operation, fixed), () => current(old, shared, manager, operation, fixed), [old, shared, manager]);
    }
    seen.updates++;
    return current(old, next, manager, operation, opts);
  };
}

export function shadowApply(current: Apply): Apply {
  return (live, applied, opts) => {
    const fixed = { ...opts, now: opts.now ?? fixedNow };
    compare('applyPatch', () => referenceApplyPatch(live, applied, fixed), () => current(live, applied, fixed), [live, applied, opts.manager]);
    seen.applies++;
    return current(live, applied, opts);
  };
}

const report = process.env.MF_SHADOW_REPORT;
if (report) process.on('exit', () => appendFileSync(report, JSON.stringify(seen) + '\n'));
