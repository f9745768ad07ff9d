// SchemaView (./view.ts) over the registry: what strategic merge patch and server-side apply
// need to know at each position of an object. A property's view carries that field's list/patch
// extensions; elements() of a list or map is the plain view of the element type.

import type { SchemaView } from './view.js';
import { mustSchema, type Field, type ResolvedType, type Schema } from './registry.js';

type ViewType = SchemaView['type'];

interface Extras {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: readonly string[];
  mapType?: 'atomic' | 'granular';
  default?: unknown;
}

class View implements SchemaView {
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  readonly mapType?: 'atomic' | 'granular';
  readonly default?: unknown;
  private propCache: Map<string, SchemaView | undefined> | undefined;

  constructor(
    readonly type: ViewType,
    private readonly schema: Schema | undefined,
    private readonly elementType: ResolvedType | undefined,
    extras: Extras,
  ) {
    if (extras.patchStrategy !== undefined) this.patchStrategy = extras.patchStrategy;
    if (extras.patchMergeKey !== undefined) this.patchMergeKey = extras.patchMergeKey;
    if (extras.listType !== undefined) this.listType = extras.listType;
    if (extras.listMapKeys !== undefined) this.listMapKeys = extras.listMapKeys;
    if (extras.mapType !== undefined) this.mapType = extras.mapType;
    if (extras.default !== undefined) this.default = extras.default;
  }

  property(name: string): SchemaView | undefined {
    if (this.type !== 'object' || !this.schema) return undefined;
    this.propCache ??= new Map();
    if (this.propCache.has(name)) return this.propCache.get(name);
    const f = this.schema.fieldMap.get(name);
    const v = f ? fieldView(f) : undefined;
    this.propCache.set(name, v);
    return v;
  }

  elements(): SchemaView | undefined {
    return this.elementType ? typeView(this.elementType) : undefined;
  }
}

const PRIM_VIEW: Record<string, ViewType> = { string: 'string', int32: 'integer', int64: 'integer', double: 'number', boolean: 'boolean', byte: 'string' };

function viewFor(t: ResolvedType, extras: Extras): View {
  switch (t.t) {
    case 'prim':
      return new View(PRIM_VIEW[t.prim]!, undefined, undefined, extras);
    case 'array':
      return new View('array', undefined, t.items, extras);
    case 'map':
      return new View('map', undefined, t.values, extras);
    case 'ref': {
      const s = mustSchema(t.name);
      if (s.special) return new View(s.special.type === 'object' ? 'any' : 'string', undefined, undefined, extras);
      return new View('object', s, undefined, { ...extras, ...(extras.mapType === undefined && s.mapType ? { mapType: s.mapType } : {}) });
    }
  }
}

const typeViews = new Map<ResolvedType | string, View>();

/** The plain view of a type; schema references share one view per schema. */
function typeView(t: ResolvedType): View {
  const key = t.t === 'ref' ? t.name : t;
  let v = typeViews.get(key);
  if (!v) {
    v = viewFor(t, {});
    typeViews.set(key, v);
  }
  return v;
}

const fieldViews = new Map<Field, View>();

function fieldView(f: Field): View {
  let v = fieldViews.get(f);
  if (!v) {
    const extras: Extras = {};
    if (f.patchStrategy) extras.patchStrategy = f.patchStrategy;
    if (f.patchMergeKey) extras.patchMergeKey = f.patchMergeKey;
    if (f.listType) extras.listType = f.listType;
    if (f.listMapKeys) extras.listMapKeys = f.listMapKeys;
    if (f.mapType) extras.mapType = f.mapType;
    if (f.default !== undefined) extras.default = f.default;
    v = viewFor(f.type, extras);
    fieldViews.set(f, v);
  }
  return v;
}

/** The view of a whole object of schema `schemaName` (e.g. io.k8s.api.core.v1.Pod). */
export function schemaView(schemaName: string): SchemaView {
  mustSchema(schemaName); // throws for an unknown name
  return typeView({ t: 'ref', name: schemaName, go: '' });
}
