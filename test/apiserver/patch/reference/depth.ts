// The field manager as it was before compareForUpdate (src/apiserver/patch/depth.ts at f21bc55),
// frozen, for test/apiserver/patch/managedfields-differential.test.ts only: do not edit or import elsewhere.

// Nesting-depth bounds for patch bodies and the values the patch engines walk. kube-apiserver
// never recurses without bound: Go's encoding/json (and sigs.k8s.io/json, its fork) stops at
// 10000 levels with `invalid character '{' exceeded max depth` (scanner.go pushParseState).
// The patch engines here recurse on the JS stack, which holds fewer frames than Go's growable
// stacks, so the bound is lower (MAX_PATCH_DEPTH) but worded as Go's decoder words it; a body
// that passes it can be merged, tracked, validated and stored without a stack overflow.

import { maxNestingDepth } from '../../../../src/api/boundedyaml.js';
import { PatchBadRequestError } from '../../../../src/apiserver/patch/errors.js';

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
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [cur, d] = stack.pop()!;
    if (cur === null || typeof cur !== 'object') continue;
    if (d + 1 > max) return exceededDepthMessage(Array.isArray(cur) ? '[' : '{');
    for (const child of Array.isArray(cur) ? cur : Object.values(cur)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return undefined;
}

/** Throws PatchDepthError (400) when a value is nested deeper than MAX_PATCH_DEPTH. */
export function assertPatchDepth(...values: unknown[]): void {
  for (const v of values) {
    const message = valueDepthError(v);
    if (message) throw new PatchDepthError(message);
  }
}
