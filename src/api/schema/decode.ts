// Decoding one object of a served kind, the single decoder of the API server's create, update
// and patch paths and of `bulkhead plan`. Follows kube-apiserver: the strict JSON decoder
// (strict.ts) against the kind's schema, its error wrapped as the handlers' transformDecodeError
// does (`Pod in version "v1" cannot be handled as a Pod: …`, a 400), and the fieldValidation
// directive (handlers/rest.go): Strict refuses unknown fields, Warn drops each with a warning
// `unknown field "spec.foo"`, Ignore drops them silently.

import type { KubeObject } from '../types.js';
import type { GroupVersionKind } from './dsl.js';
import { kindSchemaName } from './registry.js';
import { applyQuantityRewrites, decodeError, strictDecodingMessage, strictProblems, type TypeProblem } from './strict.js';
import { deepCopyJSON } from '../deepcopy.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export type Decoded<T extends KubeObject> =
  | { readonly ok: true; readonly object: T; readonly warnings: string[] }
  /** `message` is the whole Status message; `problem` the decoder error in it, with its field path (none for unknown fields). */
  | { readonly ok: false; readonly message: string; readonly problem?: TypeProblem };

/** `Pod in version "v1" cannot be handled as a Pod` (transformDecodeError's prefix). */
export function cannotBeHandled(g: GroupVersionKind): string {
  return `${g.kind} in version "${g.version}" cannot be handled as a ${g.kind}`;
}

/** The group/version/kind an object names (`apps/v1` → group apps, `v1` → the core group). */
export function objectGVK(obj: { apiVersion?: string; kind?: string }): GroupVersionKind {
  const av = obj.apiVersion ?? '';
  const slash = av.indexOf('/');
  return { group: slash < 0 ? '' : av.slice(0, slash), version: slash < 0 ? av : av.slice(slash + 1), kind: obj.kind ?? '' };
}

/**
 * Decodes `raw` as the kind `g`. Unknown fields are dropped from a copy, so `raw` is never
 * changed. A kind without a schema decodes as it is.
 */
export function decodeObject<T extends KubeObject = KubeObject>(raw: unknown, g: GroupVersionKind, fieldValidation: FieldValidation): Decoded<T> {
  const schema = kindSchemaName(g);
  if (!schema) return { ok: true, object: raw as T, warnings: [] };
  const problems = strictProblems(raw, schema);
  const typeError = decodeError(problems);
  if (typeError) return { ok: false, message: `${cannotBeHandled(g)}: ${typeError.message}`, problem: typeError };
  const unknown = problems.unknownFields;
  // Quantities are written back as the Go types write them (strict.ts quantityRewrites), in a copy.
  const rewrites = problems.quantityRewrites;
  if (unknown.length === 0) {
    if (rewrites.length === 0) return { ok: true, object: raw as T, warnings: [] };
    const object = deepCopyJSON(raw);
    applyQuantityRewrites(object, rewrites);
    return { ok: true, object: object as T, warnings: [] };
  }
  if (fieldValidation === 'Strict') return { ok: false, message: `${cannotBeHandled(g)}: ${strictDecodingMessage(unknown)}` };
  const object = deepCopyJSON(raw);
  applyQuantityRewrites(object, rewrites);
  for (const f of unknown) removeField(object, f);
  return { ok: true, object: object as T, warnings: fieldValidation === 'Warn' ? unknown.map((f) => `unknown field ${JSON.stringify(f)}`) : [] };
}

function pathTokens(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** Removes the field at a strict-decoding path (`spec.containers[0].bogus`, map keys as fields). */
export function removeField(obj: unknown, path: string): void {
  const tokens = pathTokens(path);
  let cur: unknown = obj;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (cur === null || typeof cur !== 'object') return;
    cur = (cur as Record<string | number, unknown>)[tokens[i]!];
  }
  if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[String(tokens[tokens.length - 1])];
}
