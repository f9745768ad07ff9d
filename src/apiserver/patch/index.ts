// Patch support for the API server: the four PATCH content types and field ownership.
//
//   application/merge-patch+json          applyMergePatch(live, body)
//   application/json-patch+json           applyJSONPatch(live, body)  (+ resourceVersionConflicts)
//   application/strategic-merge-patch+json applyStrategicMergePatch(live, body, schema)
//   application/apply-patch+yaml          applyPatch(live, body, {manager, force, schema, ...})
//
// After a merge/json/strategic patch, create or update, record ownership with
// updateManagedFields(live, next, fieldManager, 'Update', {schema, apiVersion}). Every failure is
// a PatchError carrying the HTTP code, reason and message kube-apiserver answers with
// (err.toStatus()); apply conflicts come back as a result and become a 409 through
// applyConflictError(conflicts).

export {
  PatchError,
  PatchBadRequestError,
  MergePatchError,
  JSONPatchDecodeError,
  JSONPatchTooLargeError,
  JSONPatchApplyError,
  JSONPatchTestError,
  StrategicMergePatchError,
  ApplyBadRequestError,
  ApplyInternalError,
  ApplyConflictError,
  type ApplyConflict,
  type JSONPatchFailure,
} from './errors.js';
export { applyMergePatch } from './jsonmerge.js';
export {
  applyJSONPatch,
  decodeJSONPatch,
  decodePointerToken,
  encodePointerToken,
  jsonPointer,
  resourceVersionConflicts,
  MAX_JSON_PATCH_OPERATIONS,
  MAX_JSON_PATCH_COPY_BYTES,
  type JSONPatchOperation,
} from './jsonpatch.js';
export { applyStrategicMergePatch } from './strategicmerge.js';
export {
  FieldSet,
  fieldPE,
  keyPE,
  path,
  pathString,
  serializePE,
  deserializePE,
  type Path,
  type PathElement,
} from './fieldpath.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  fieldSetOf,
  formatTime,
  managerIdentifier,
  managerOrUserAgent,
  updateManagedFields,
  DEFAULT_ZERO_OBJECT,
  POD_ZERO_OBJECT,
  MAX_UPDATE_MANAGERS,
  ManagedFieldsDecodeError,
  type Managed,
  type ManagerFields,
  type ManagedFieldsOperation,
  type ResetFields,
  type UpdateOptions,
} from './managedfields.js';
export {
  applyPatch,
  applyConflictError,
  conflictCauses,
  conflictStatusMessage,
  ApplyTypedObjectError,
  LAST_APPLIED_ANNOTATION,
  type ApplyOptions,
  type ApplyResult,
  type ApplySuccess,
  type ApplyConflicts,
} from './apply.js';
export { compareTyped, mergeTyped, toFieldSet, validateTyped, type Comparison } from './typed.js';
export type { JSONObject, JSONValue } from './json.js';
export { MAX_PATCH_DEPTH, PatchDepthError, assertPatchDepth, valueDepthError } from './depth.js';
export { decodePatchBody, PatchBodyError, APPLY_PATCH, JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from './body.js';
export { checkPatchedTypes, PatchedObjectInvalidError, zeroNullMapValues } from './patched.js';
export { unstructuredConvertMessage } from './converter.js';
export { zeroObjects } from './zeroobjects.js';
