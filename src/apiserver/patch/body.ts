// Decoding of PATCH bodies with kube-apiserver's error wording per patch type
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go): every failure is a 400 BadRequest, and a
// body nested deeper than MAX_PATCH_DEPTH fails before any engine recurses into it.
//   - merge patch: `error decoding patch: <json error>` when fieldValidation is Strict or Warn
//     (kjson.UnmarshalStrict runs first), else evanphx's `Invalid JSON Patch`;
//   - JSON patch: `error decoding patch: <json error>` (Strict/Warn), else the bare json error
//     (jsonpatch.DecodePatch);
//   - strategic merge patch: the bare json error (strategicPatchObject);
//   - apply: `error decoding YAML: <yaml error>` (applyPatcher); too deep a body is go-yaml's
//     `yaml: exceeded max depth of N` as sigs.k8s.io/yaml reports it (js-yaml's own syntax
//     errors keep js-yaml's wording).

import { load as loadYAML } from 'js-yaml';
import { jsonTextDepthError, MAX_PATCH_DEPTH, valueDepthError } from './depth.js';
import { PatchBadRequestError } from './errors.js';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** 400 from a PATCH body that does not decode. */
export class PatchBodyError extends PatchBadRequestError {}

function jsonDecodeError(type: string, detail: string, fieldValidation: string): PatchBodyError {
  const strict = fieldValidation === 'Strict' || fieldValidation === 'Warn';
  if (type === MERGE_PATCH) return new PatchBodyError(strict ? `error decoding patch: ${detail}` : 'Invalid JSON Patch');
  if (type === JSON_PATCH && strict) return new PatchBodyError(`error decoding patch: ${detail}`);
  return new PatchBodyError(detail);
}

// sigs.k8s.io/yaml wraps go-yaml's error twice (yamlToJSONTarget, then unmarshal).
const yamlTooDeep = `error decoding YAML: error converting YAML to JSON: error converting YAML to JSON: yaml: exceeded max depth of ${MAX_PATCH_DEPTH}`;

/** Parses a PATCH body of `type`; throws PatchBodyError (400) with upstream's wording. */
export function decodePatchBody(body: Buffer | string, type: string, fieldValidation: string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (type === APPLY_PATCH) {
    let v: unknown;
    try {
      // js-yaml counts two levels more than Go for the same document; valueDepthError below is exact.
      v = loadYAML(text, { maxDepth: MAX_PATCH_DEPTH + 2 });
    } catch (e) {
      const message = (e as Error).message;
      if (message.startsWith('nesting exceeded maxDepth')) throw new PatchBodyError(yamlTooDeep);
      throw new PatchBodyError(`error decoding YAML: ${message}`);
    }
    if (valueDepthError(v)) throw new PatchBodyError(yamlTooDeep);
    return v;
  }
  const deep = jsonTextDepthError(text);
  if (deep) throw jsonDecodeError(type, deep, fieldValidation);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw jsonDecodeError(type, (e as Error).message, fieldValidation);
  }
}
