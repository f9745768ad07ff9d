// A read-only view of one position in an object's schema: what patching (strategic merge,
// server-side apply) and strict decoding need to know about a field. Implemented over the
// schema definitions in this directory; patch code depends only on this interface.

export interface SchemaView {
  /** 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'map' (additionalProperties) | 'any' */
  readonly type: 'object' | 'array' | 'map' | 'string' | 'integer' | 'number' | 'boolean' | 'any';
  /** For objects: the schema of a named property, undefined when the property is unknown. */
  property(name: string): SchemaView | undefined;
  /** For arrays: the element schema; for maps: the value schema. */
  elements(): SchemaView | undefined;
  /** x-kubernetes-patch-strategy, e.g. "merge", "retainKeys", "merge,retainKeys", "replace". */
  readonly patchStrategy?: string;
  /** x-kubernetes-patch-merge-key, e.g. "name", "containerPort", "mountPath". */
  readonly patchMergeKey?: string;
  /** x-kubernetes-list-type: "atomic" | "set" | "map". */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** x-kubernetes-list-map-keys for listType map. */
  readonly listMapKeys?: readonly string[];
  /** x-kubernetes-map-type: "atomic" | "granular". */
  readonly mapType?: 'atomic' | 'granular';
  /** The field's OpenAPI default, if it has one (a list map key's value when an item omits it). */
  readonly default?: unknown;
}
