// Decoding of PATCH bodies as kube-apiserver's patch handler does it
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go): validateAndTranscodePatch runs first and
// refuses, with a 400, any apply body that is not YAML (`error encoding patch: <yaml error>`)
// and any other body that is not valid JSON (`invalid JSON patch`), before an engine sees it.
// Both go through the bounded decoders of src/api/boundedyaml.ts, so alias bombs and deep
// nesting are refused here with go-yaml's and encoding/json's wording.

import { BoundedDecodeError, loadYAML, parseJSONBounded } from '../../api/boundedyaml.js';
import { PatchBadRequestError } from './errors.js';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** 400 from a PATCH body that does not decode. */
export class PatchBodyError extends PatchBadRequestError {}

/** Parses a PATCH body of `type`; throws PatchBodyError (400) with upstream's wording. */
export function decodePatchBody(body: Buffer | string, type: string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (type !== APPLY_PATCH) {
    try {
      return parseJSONBounded(text);
    } catch {
      throw new PatchBodyError('invalid JSON patch');
    }
  }
  try {
    return loadYAML(text);
  } catch (e) {
    // A body that starts with '{' is JSON to the transcoder; the apply patcher's YAML decoder
    // then refuses it. Other YAML is refused by the transcoder.
    if (e instanceof BoundedDecodeError) {
      throw new PatchBodyError(text.trimStart().startsWith('{') ? `error decoding patch: error converting YAML to JSON: ${e.message}` : `error encoding patch: ${e.message}`);
    }
    throw new PatchBodyError(`error decoding patch: ${(e as Error).message}`);
  }
}
