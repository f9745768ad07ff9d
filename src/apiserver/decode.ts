// Request bodies checked against the served schemas, as the apiserver's decoder and field
// validation do: wrong JSON types are a 400; unknown fields are a 400 under
// fieldValidation=Strict, a warning under Warn, and silently dropped under Ignore.

import { decodeErrorMessage, kindSchemaName, strictDecodingMessage, strictProblems } from '../api/schema/index.js';
import type { KubeObject } from '../api/types.js';
import type { RequestInfo } from './rest.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';

function pathTokens(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** Removes the field at a kube-style path (`spec.containers[0].bogus`). */
export function removeField(obj: unknown, path: string): void {
  const tokens = pathTokens(path);
  let cur: unknown = obj;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (cur === null || typeof cur !== 'object') return;
    cur = (cur as Record<string | number, unknown>)[tokens[i]!];
  }
  if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[String(tokens[tokens.length - 1])];
}

export function decodeRequestObject(def: ResourceDef, raw: unknown, req: RequestInfo): KubeObject {
  const schema = kindSchemaName({ group: def.group, version: def.version, kind: def.kind });
  if (!schema) return raw as KubeObject;
  const cannot = `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`;
  const problems = strictProblems(raw, schema);
  const typeError = decodeErrorMessage(problems);
  if (typeError) throw statusErrors.badRequest(`${cannot}: ${typeError}`);
  if (problems.unknownFields.length > 0) {
    if (req.fieldValidation === 'Strict') throw statusErrors.badRequest(`${cannot}: ${strictDecodingMessage(problems.unknownFields)}`);
    if (req.fieldValidation === 'Warn') for (const f of problems.unknownFields) req.warnings.push(`unknown field ${JSON.stringify(f)}`);
    for (const f of problems.unknownFields) removeField(raw, f);
  }
  return raw as KubeObject;
}
