// Bulkhead's API schemas: one definition per type (see dsl.ts), from which come the OpenAPI v3
// documents kubectl reads, strict decoding, and SchemaViews for patch code.

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
export { decodeErrorMessage, strictDecodingMessage, strictProblems } from './strict.js';
export type { SchemaView } from './view.js';
export { schemaView } from './views.js';
