// RFC 7386 JSON merge patch (`application/merge-patch+json`), with the behaviour of
// evanphx/json-patch's MergePatch, which kube-apiserver uses:
//   - a null member deletes the key; a missing or null target member takes the patch value with
//     its null members pruned; two objects merge recursively; anything else is replaced;
//   - a top-level array patch replaces the document; a top-level null or scalar patch is
//     "Invalid JSON Patch" (400), where RFC 7386 would replace the target with it;
//   - evanphx also prunes null members of objects nested in arrays that replace a non-object,
//     and keeps null array elements.
// Inputs are not modified.

import { assertPatchDepth } from './depth.js';
import { MergePatchError } from './errors.js';
import { clone, isObject, own, setKey, type JSONObject, type JSONValue } from './json.js';

function pruneNulls(v: JSONValue): JSONValue {
  if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else pruneNulls(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const item of v) if (item !== null) pruneNulls(item);
  }
  return v;
}

function mergeValue(cur: JSONValue, patch: JSONValue): JSONValue {
  if (!isObject(cur)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

function mergeDocs(doc: JSONObject, patch: JSONObject): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = own(doc, k);
    setKey(doc, k, cur === undefined || cur === null ? pruneNulls(v) : mergeValue(cur, v));
  }
}

/**
 * Applies an RFC 7386 merge patch to `target` and returns the result.
 * @throws MergePatchError (400 "Invalid JSON Patch") for a null or scalar patch; PatchDepthError
 *         (400) for inputs nested deeper than MAX_PATCH_DEPTH.
 */
export function applyMergePatch(target: unknown, patch: unknown): JSONValue {
  assertPatchDepth(target, patch);
  if (Array.isArray(patch)) return pruneNulls(clone(patch as JSONValue[]));
  if (!isObject(patch)) throw new MergePatchError('Invalid JSON Patch');
  const p = clone(patch);
  if (!isObject(target)) return pruneNulls(p);
  const doc = clone(target);
  mergeDocs(doc, p);
  return doc;
}
