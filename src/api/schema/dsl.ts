// A compact notation for Bulkhead's API schemas. Each struct is written as a map from JSON
// field name to a one-line spec:
//
//     'TYPE[!] [attr=value ...] | description'
//
// TYPE     s (string) · i32 · i64 · f64 · b (boolean) · bytes (base64 string) · rl (ResourceList:
//          map of Quantity) · a schema name (PodSpec, Quantity, Time, …) · []TYPE (list) ·
//          {}TYPE (map with string keys)
// !        the field is required (listed in the schema's `required`)
// attrs    enum=A,B,C        allowed values (a leading comma adds the empty string)
//          go=Name           Go type of the leaf, for decoder messages (v1.Name unless qualified)
//          ps=merge[,retainKeys]   x-kubernetes-patch-strategy
//          mk=name           x-kubernetes-patch-merge-key
//          lt=atomic|set|map x-kubernetes-list-type
//          lk=a,b            x-kubernetes-list-map-keys
//          mt=atomic         x-kubernetes-map-type on this field
//          gate=Name         feature gate guarding the field
//          since=1.33        upstream added the field after 1.32
//          bulkhead          the field comes from a Bulkhead design, not from upstream
//          default=V         the OpenAPI default of a string field (+default=); server-side apply
//                            reads it for a list map key the applied item leaves out
//
// Schema names in TYPE are short names; the registry resolves them (same package first).

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export type Primitive = 'string' | 'int32' | 'int64' | 'double' | 'boolean' | 'byte';

export type TypeExpr =
  | { readonly t: 'prim'; readonly prim: Primitive }
  | { readonly t: 'ref'; readonly name: string }
  | { readonly t: 'array'; readonly items: TypeExpr }
  | { readonly t: 'map'; readonly values: TypeExpr; readonly goName?: string };

export interface FieldDef {
  readonly name: string;
  readonly type: TypeExpr;
  readonly required: boolean;
  readonly description: string;
  readonly enum?: readonly string[];
  /** Go type of the innermost value (e.g. `v1.RestartPolicy`), when it is a named type. */
  readonly goLeaf?: string;
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys?: readonly string[];
  readonly mapType?: 'atomic' | 'granular';
  readonly featureGate?: string;
  readonly since?: string;
  readonly bulkhead?: boolean;
  readonly default?: string;
}

/** How a special (non-struct) schema decodes: mirrors the Go type's UnmarshalJSON. */
export type SpecialDecoder = 'quantity' | 'intorstring' | 'time' | 'microtime' | 'any';

export interface SchemaDef {
  /** Short name, e.g. `PodSpec`; the full name is `pkg + '.' + short`. */
  readonly short: string;
  readonly pkg: string;
  readonly description: string;
  readonly fields: readonly FieldDef[];
  readonly gvk?: readonly GroupVersionKind[];
  /** Struct-level x-kubernetes-map-type (`+structType=atomic`). */
  readonly mapType?: 'atomic';
  /** Go package alias used in decoder messages (`v1`, `resource`, `intstr`). */
  readonly goPkg: string;
  /** For non-struct schemas: the OpenAPI type/format and the decoder. */
  readonly special?: { readonly type: string; readonly format?: string; readonly decoder: SpecialDecoder };
  readonly bulkhead?: boolean;
}

export const PKG = {
  core: 'io.k8s.api.core.v1',
  coordination: 'io.k8s.api.coordination.v1',
  certificates: 'io.k8s.api.certificates.v1',
  policy: 'io.k8s.api.policy.v1',
  scheduling: 'io.k8s.api.scheduling.v1',
  node: 'io.k8s.api.node.v1',
  rbac: 'io.k8s.api.rbac.v1',
  batch: 'io.k8s.api.batch.v1',
  apps: 'io.k8s.api.apps.v1',
  autoscaling: 'io.k8s.api.autoscaling.v1',
  autoscalingV2: 'io.k8s.api.autoscaling.v2',
  discovery: 'io.k8s.api.discovery.v1',
  runtime: 'io.k8s.apimachinery.pkg.runtime',
  authorization: 'io.k8s.api.authorization.v1',
  authentication: 'io.k8s.api.authentication.v1',
  meta: 'io.k8s.apimachinery.pkg.apis.meta.v1',
  resource: 'io.k8s.apimachinery.pkg.api.resource',
  intstr: 'io.k8s.apimachinery.pkg.util.intstr',
} as const;

const PRIMS: Record<string, Primitive> = { s: 'string', i32: 'int32', i64: 'int64', f64: 'double', b: 'boolean', bytes: 'byte' };

export function parseType(src: string): TypeExpr {
  if (src.startsWith('[]')) return { t: 'array', items: parseType(src.slice(2)) };
  if (src.startsWith('{}')) return { t: 'map', values: parseType(src.slice(2)) };
  if (src === 'rl') return { t: 'map', values: { t: 'ref', name: 'Quantity' }, goName: 'v1.ResourceList' };
  const prim = PRIMS[src];
  if (prim) return { t: 'prim', prim };
  if (!/^[A-Z][A-Za-z0-9]*$/.test(src)) throw new Error(`schema dsl: bad type ${JSON.stringify(src)}`);
  return { t: 'ref', name: src };
}

/** Parses one field spec (see the header of this file). */
export function parseField(name: string, spec: string): FieldDef {
  const bar = spec.indexOf(' | ');
  if (bar < 0) throw new Error(`schema dsl: field ${name} has no description`);
  const description = spec.slice(bar + 3).trim();
  const words = spec.slice(0, bar).trim().split(/\s+/);
  let typeSrc = words[0]!;
  let required = false;
  if (typeSrc.endsWith('!')) {
    required = true;
    typeSrc = typeSrc.slice(0, -1);
  }
  const f: {
    -readonly [K in keyof FieldDef]: FieldDef[K];
  } = { name, type: parseType(typeSrc), required, description };
  for (const w of words.slice(1)) {
    const eq = w.indexOf('=');
    const key = eq < 0 ? w : w.slice(0, eq);
    const val = eq < 0 ? '' : w.slice(eq + 1);
    switch (key) {
      case 'enum':
        f.enum = val.split(',');
        break;
      case 'go':
        f.goLeaf = val.includes('.') ? val : `v1.${val}`;
        break;
      case 'ps':
        f.patchStrategy = val;
        break;
      case 'mk':
        f.patchMergeKey = val;
        break;
      case 'lt':
        if (val !== 'atomic' && val !== 'set' && val !== 'map') throw new Error(`schema dsl: ${name}: lt=${val}`);
        f.listType = val;
        break;
      case 'lk':
        f.listMapKeys = val.split(',');
        break;
      case 'mt':
        if (val !== 'atomic' && val !== 'granular') throw new Error(`schema dsl: ${name}: mt=${val}`);
        f.mapType = val;
        break;
      case 'gate':
        f.featureGate = val;
        break;
      case 'since':
        f.since = val;
        break;
      case 'bulkhead':
        f.bulkhead = true;
        break;
      case 'default':
        f.default = val;
        break;
      default:
        throw new Error(`schema dsl: field ${name}: unknown attribute ${w}`);
    }
  }
  if (f.listType === 'map' && !f.listMapKeys) throw new Error(`schema dsl: ${name}: lt=map needs lk=`);
  return f;
}

export interface StructOptions {
  gvk?: readonly GroupVersionKind[];
  mapType?: 'atomic';
  bulkhead?: boolean;
}

/**
 * A struct schema in package `pkg` written in the field notation above. Its fields are parsed
 * when first read (the registry's build): the server declares every schema when its modules
 * load, and a restart that decodes nothing before it is ready need not parse them first.
 */
export function struct(pkg: string, short: string, description: string, fields: Record<string, string>, opts: StructOptions = {}): SchemaDef {
  let parsed: readonly FieldDef[] | undefined;
  return {
    short,
    pkg,
    description,
    get fields() {
      return (parsed ??= Object.entries(fields).map(([n, s]) => parseField(n, s)));
    },
    goPkg: 'v1',
    ...(opts.gvk ? { gvk: opts.gvk } : {}),
    ...(opts.mapType ? { mapType: opts.mapType } : {}),
    ...(opts.bulkhead ? { bulkhead: true } : {}),
  };
}

export function gvk(group: string, version: string, kind: string): GroupVersionKind {
  return { group, version, kind };
}

/** The `apiVersion` and `kind` fields every top-level object carries. */
export const typeMeta: Record<string, string> = {
  apiVersion: 's | Versioned schema of this object, e.g. v1 or coordination.k8s.io/v1. The server may convert objects it recognizes.',
  kind: 's | Kind of this object, in CamelCase (e.g. Pod). Servers may infer it from the endpoint. Cannot be changed.',
};
