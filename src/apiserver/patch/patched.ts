// The patched object must still decode into the kind's type, as kube-apiserver checks after a
// merge, JSON or strategic merge patch (handlers/patch.go: jsonPatcher runtime.DecodeInto,
// applyPatchToObject FromUnstructuredWithValidation). A field left with the wrong JSON type
// (`spec.containers: 5`) is a 422 Invalid for GroupKind{} and name "" on field `patch`:
//   ` "" is invalid: patch: Invalid value: "<patched JSON>": json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container`
// and for a strategic merge patch, with the patch as Go prints it and the converter's text:
//   ` "" is invalid: patch: Invalid value: "map[spec:map[containers:5]]": cannot convert int64 to slice`
// Unknown fields the patch leaves are dropped, as decoding drops them; with fieldValidation=Strict
// they are the same 422 with `strict decoding error: unknown field "spec.x"`, with Warn a warning.
// (Server-side apply never gets here with one: its typed conversion refuses them first,
// `.spec.x: field not declared in schema`.)
// A null left as the value of a map of scalars (a JSON patch `add` without a value, which
// evanphx/json-patch v4 applies as null) decodes to the type's zero value: labels.x = "".

import { errorBody, fieldError, invalidMessage } from '../../api/fielderrors.js';
import { applyQuantityRewrites, decodeErrorMessage, strictDecodingMessage, strictProblems } from '../../api/schema/index.js';
import type { Status } from '../../api/types.js';
import { removeField } from '../../api/schema/decode.js';
import { APPLY_PATCH, STRATEGIC_MERGE_PATCH } from './body.js';
import { unstructuredConvertMessage } from './converter.js';
import { PatchError } from './errors.js';
import type { SchemaView } from '../../api/schema/view.js';
import { goValue, isObject, setKey, type JSONValue } from './json.js';

/** 422 from a patch whose result does not decode into the kind's type. */
export class PatchedObjectInvalidError extends PatchError {
  readonly code = 422;
  readonly reason = 'Invalid';
  constructor(
    readonly badValue: string,
    readonly detail: string,
  ) {
    super(invalidMessage('', '', [fieldError.invalid('patch', badValue, detail)]));
  }
  override toStatus(): Status {
    const s = super.toStatus();
    s.details = { causes: [{ reason: 'FieldValueInvalid', message: errorBody(fieldError.invalid('patch', this.badValue, this.detail)), field: 'patch' }] };
    return s;
  }
}

const scalarZero: Partial<Record<SchemaView['type'], JSONValue>> = { string: '', integer: 0, number: 0, boolean: false };

/** Replaces nulls in maps of scalars (labels, annotations, nodeSelector...) with Go's zero value. */
export function zeroNullMapValues(v: JSONValue, schema: SchemaView | undefined): void {
  if (!schema) return;
  if (Array.isArray(v)) {
    if (schema.type === 'array') for (const item of v) zeroNullMapValues(item, schema.elements());
    return;
  }
  if (!isObject(v)) return;
  const elem = schema.type === 'map' ? schema.elements() : undefined;
  const zero = elem ? scalarZero[elem.type] : undefined;
  for (const k of Object.keys(v)) {
    if (v[k] === null && zero !== undefined) setKey(v, k, zero);
    else zeroNullMapValues(v[k], schema.type === 'object' ? schema.property(k) : elem);
  }
}

function badValue(patched: unknown, patch: unknown, type: string): string {
  return type === STRATEGIC_MERGE_PATCH ? goValue(patch) : JSON.stringify(patched);
}

/**
 * Throws PatchedObjectInvalidError when `patched` (the result of `patch` of `type`) has a field
 * whose JSON type the kind's Go type cannot hold, or (Strict) an unknown field. Otherwise removes
 * unknown fields from `patched` and returns the warnings to send (Warn).
 */
export function checkPatchedTypes(patched: unknown, patch: unknown, type: string, schemaName: string, fieldValidation = 'Ignore'): string[] {
  const problems = strictProblems(patched, schemaName);
  const message = decodeErrorMessage(problems);
  if (message) {
    throw new PatchedObjectInvalidError(badValue(patched, patch, type), type === STRATEGIC_MERGE_PATCH ? (unstructuredConvertMessage(message) ?? message) : message);
  }
  // The patched object is decoded into the Go types: its quantities are written back as they write them.
  applyQuantityRewrites(patched, problems.quantityRewrites);
  if (problems.unknownFields.length === 0) return [];
  if (fieldValidation === 'Strict' && type !== APPLY_PATCH) throw new PatchedObjectInvalidError(badValue(patched, patch, type), strictDecodingMessage(problems.unknownFields)!);
  for (const f of problems.unknownFields) removeField(patched, f);
  return fieldValidation === 'Ignore' ? [] : problems.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
}
