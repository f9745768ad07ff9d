// Bulkhead's API schemas: one definition per type (see dsl.ts), from which come the OpenAPI v3
// documents kubectl reads, decoding (strict.ts, decode.ts: the server's and plan's), and
// SchemaViews for patch code.

export type { GroupVersionKind } from './dsl.js';
export type { Field, ResolvedType, Schema } from './registry.js';
export { kindSchemaName, kindSchemaNames, mustSchema, reachableSchemas, schemaFor, schemaNames } from './registry.js';
export type { ServedResource } from './openapi.js';
export {
  canonicalJSON,
  documentHash,
  groupVersionPath,
  openAPIBundle,
  openAPIDocument,
  openAPIIndex,
  openAPISchema,
  patchContentTypes,
  servedGroupVersions,
} from './openapi.js';
export { swaggerDocument, swaggerSchema } from './openapiv2.js';
export type { StrictProblems, TypeProblem } from './strict.js';
export { applyQuantityRewrites, decodeError, decodeErrorMessage, strictDecodingMessage, strictProblems } from './strict.js';
export type { Decoded, FieldValidation } from './decode.js';
export { cannotBeHandled, decodeObject, objectGVK, removeField } from './decode.js';
export type { SchemaView } from './view.js';
export { schemaView } from './views.js';
