// Nesting-depth bounds for patch bodies and the values the patch engines walk. kube-apiserver
// never recurses without bound: Go's encoding/json (and sigs.k8s.io/json, its fork) stops at
// 10000 levels with `invalid character '{' exceeded max depth` (scanner.go pushParseState).
// The patch engines here recurse on the JS stack, which holds fewer frames than Go's growable
// stacks, so the bound is lower (MAX_PATCH_DEPTH) but worded as Go's decoder words it; a body
// that passes it can be merged, tracked, validated and stored without a stack overflow.

import { maxNestingDepth } from '../../api/boundedyaml.js';
import { PatchBadRequestError } from './errors.js';

/** Nesting levels (objects and arrays) a patch body or a patched object may have. */
export const MAX_PATCH_DEPTH = maxNestingDepth;

/** 400 from a body nested deeper than MAX_PATCH_DEPTH. */
export class PatchDepthError extends PatchBadRequestError {}

/** Go's scanner error for the bracket that went one level too deep. */
export function exceededDepthMessage(bracket: '{' | '['): string {
  return `invalid character '${bracket}' exceeded max depth`;
}

/**
 * The first bracket beyond `max` levels in an already-parsed value (iterative, so it is safe
 * on any input), or undefined.
 */
export function valueDepthError(v: unknown, max = MAX_PATCH_DEPTH): string | undefined {
  return depthErrorBeside(v, undefined, max);
}

/**
 * Whether anything in `v` is nested deeper than `max`, skipping what is `checked`'s at the same
 * place: the common answer (no), found without allocating. It recurses at most `max` + 1 levels,
 * as deep as the patch engines themselves go, so it is used only up to MAX_PATCH_DEPTH.
 */
function tooDeep(v: unknown, checked: unknown, d: number, max: number): boolean {
  if (v === null || typeof v !== 'object' || v === checked) return false;
  if (d + 1 > max) return true;
  if (Array.isArray(v)) {
    const oldItems = Array.isArray(checked) ? checked : undefined;
    for (let i = 0; i < v.length; i++) if (tooDeep(v[i], oldItems && i < oldItems.length ? oldItems[i] : undefined, d + 1, max)) return true;
    return false;
  }
  const oldObj = checked !== null && typeof checked === 'object' && !Array.isArray(checked) ? (checked as Record<string, unknown>) : undefined;
  const obj = v as Record<string, unknown>;
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    if (tooDeep(obj[k], oldObj && Object.prototype.hasOwnProperty.call(oldObj, k) ? oldObj[k] : undefined, d + 1, max)) return true;
  }
  return false;
}

/** Throws PatchDepthError (400) when a value is nested deeper than MAX_PATCH_DEPTH. */
export function assertPatchDepth(...values: unknown[]): void {
  for (const v of values) {
    const message = valueDepthError(v);
    if (message) throw new PatchDepthError(message);
  }
}

/**
 * assertPatchDepth(old, next) for a write whose `next` keeps parts of `old` as they are (the
 * same objects at the same places, as a status write keeps the spec): those parts are checked
 * once, with `old`, and the first error found is the same.
 */
export function assertWriteDepth(old: unknown, next: unknown): void {
  assertPatchDepth(old);
  const message = depthErrorBeside(next, old);
  if (message) throw new PatchDepthError(message);
}

/**
 * valueDepthError(v), skipping what is `checked`'s (already found within the bound) at the same
 * place. Two stacks instead of one of pairs, for-in instead of Object.values (the same members in
 * the same order).
 */
function depthErrorBeside(v: unknown, checked: unknown, max = MAX_PATCH_DEPTH): string | undefined {
  // Which bracket is reported depends on the order of the walk below; whether one is, does not.
  if (max <= MAX_PATCH_DEPTH && !tooDeep(v, checked, 0, max)) return undefined;
  const values: unknown[] = [v];
  const olds: unknown[] = [checked];
  const depths: number[] = [0];
  while (values.length > 0) {
    const cur = values.pop();
    const old = olds.pop();
    const d = depths.pop()!;
    if (cur === null || typeof cur !== 'object' || cur === old) continue;
    if (d + 1 > max) return exceededDepthMessage(Array.isArray(cur) ? '[' : '{');
    if (Array.isArray(cur)) {
      const oldItems = Array.isArray(old) ? old : undefined;
      for (let i = 0; i < cur.length; i++) {
        const child: unknown = cur[i];
        if (child === null || typeof child !== 'object') continue;
        values.push(child);
        olds.push(oldItems && i < oldItems.length ? oldItems[i] : undefined);
        depths.push(d + 1);
      }
    } else {
      const oldObj = old !== null && typeof old === 'object' && !Array.isArray(old) ? (old as Record<string, unknown>) : undefined;
      const obj = cur as Record<string, unknown>;
      for (const k in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
        const child = obj[k];
        if (child === null || typeof child !== 'object') continue;
        values.push(child);
        olds.push(oldObj && Object.prototype.hasOwnProperty.call(oldObj, k) ? oldObj[k] : undefined);
        depths.push(d + 1);
      }
    }
  }
  return undefined;
}
