// All schema definitions, resolved: short names become full names, every field gets the Go
// type the upstream decoder would name in its messages, and kinds are indexed by GVK.

import type { FieldDef, GroupVersionKind, Primitive, SchemaDef, SpecialDecoder, TypeExpr } from './dsl.js';
import { coordinationSchemas } from './coordination.js';
import { certificatesSchemas } from './certificates.js';
import { otherCoreSchemas } from './core-other.js';
import { configSchemas } from './core-config.js';
import { serviceSchemas } from './core-service.js';
import { podSchemas } from './core-pod.js';
import { volumeSchemas } from './core-volume.js';
import { metaSchemas } from './meta.js';
import { policySchemas } from './policy.js';
import { accessSchemas } from './access.js';
import { schedulingSchemas } from './scheduling.js';
import { nodeSchemas } from './node.js';
import { rbacSchemas } from './rbac.js';
import { batchSchemas } from './batch.js';
import { appsSchemas } from './apps.js';
import { metricsSchemas } from './metrics.js';
import { autoscalingSchemas } from './autoscaling.js';
import { endpointsSchemas } from './endpoints.js';

/** A field type with every reference resolved to a full schema name and its Go spelling. */
export type ResolvedType =
  | { readonly t: 'prim'; readonly prim: Primitive; readonly go: string }
  | { readonly t: 'ref'; readonly name: string; readonly go: string }
  | { readonly t: 'array'; readonly items: ResolvedType; readonly go: string }
  | { readonly t: 'map'; readonly values: ResolvedType; readonly go: string };

export interface Field extends Omit<FieldDef, 'type'> {
  readonly type: ResolvedType;
}

export interface Schema {
  /** Full name, e.g. io.k8s.api.core.v1.PodSpec. */
  readonly name: string;
  readonly short: string;
  readonly description: string;
  /** Go type as the decoder prints it, e.g. v1.PodSpec or resource.Quantity. */
  readonly goType: string;
  readonly fields: readonly Field[];
  readonly fieldMap: ReadonlyMap<string, Field>;
  readonly required: readonly string[];
  readonly gvk?: readonly GroupVersionKind[];
  readonly mapType?: 'atomic';
  readonly special?: { readonly type: string; readonly format?: string; readonly decoder: SpecialDecoder };
  readonly bulkhead?: boolean;
}

const allDefs: readonly SchemaDef[] = [...metaSchemas, ...podSchemas, ...volumeSchemas, ...otherCoreSchemas, ...configSchemas, ...serviceSchemas, ...coordinationSchemas, ...certificatesSchemas, ...policySchemas, ...accessSchemas, ...schedulingSchemas, ...nodeSchemas, ...rbacSchemas, ...batchSchemas, ...appsSchemas, ...metricsSchemas, ...autoscalingSchemas, ...endpointsSchemas];

const PRIM_GO: Record<Primitive, string> = { string: 'string', int32: 'int32', int64: 'int64', double: 'float64', boolean: 'bool', byte: '[]uint8' };

interface Registry {
  /** Every definition by full name, in definition order. */
  defs: Map<string, SchemaDef>;
  byGVK: Map<string, string>;
  /** The schema of a full name, resolved on its first lookup; undefined for an unknown name. */
  resolve(full: string): Schema | undefined;
}

/**
 * The index of every definition (names and kinds, which do not parse fields); each schema's
 * fields are parsed and resolved on the first lookup of that schema, so a write resolves the
 * schemas of its kind, not all 341 (the build of them all was ~10 ms of a server's first write).
 */
function build(): Registry {
  const fullOf = (d: SchemaDef) => `${d.pkg}.${d.short}`;
  const defsByFull = new Map<string, SchemaDef>();
  const byShort = new Map<string, string[]>();
  for (const d of allDefs) {
    const full = fullOf(d);
    if (defsByFull.has(full)) throw new Error(`schema registry: ${full} defined twice`);
    defsByFull.set(full, d);
    byShort.set(d.short, [...(byShort.get(d.short) ?? []), full]);
  }
  const resolveName = (short: string, pkg: string, where: string): string => {
    const same = `${pkg}.${short}`;
    if (defsByFull.has(same)) return same;
    const cands = byShort.get(short) ?? [];
    if (cands.length !== 1) throw new Error(`schema registry: ${where}: cannot resolve ${short} (${cands.length} candidates)`);
    return cands[0]!;
  };
  const goOf = (full: string) => {
    const d = defsByFull.get(full)!;
    return `${d.goPkg}.${d.short}`;
  };
  const resolveType = (t: TypeExpr, pkg: string, goLeaf: string | undefined, where: string): ResolvedType => {
    switch (t.t) {
      case 'prim':
        return { t: 'prim', prim: t.prim, go: goLeaf ?? PRIM_GO[t.prim] };
      case 'ref': {
        const name = resolveName(t.name, pkg, where);
        return { t: 'ref', name, go: goOf(name) };
      }
      case 'array': {
        const items = resolveType(t.items, pkg, goLeaf, where);
        return { t: 'array', items, go: `[]${items.go}` };
      }
      case 'map': {
        const values = resolveType(t.values, pkg, goLeaf, where);
        return { t: 'map', values, go: t.goName ?? `map[string]${values.go}` };
      }
    }
  };

  const byGVK = new Map<string, string>();
  for (const [full, d] of defsByFull) {
    for (const g of d.gvk ?? []) {
      const key = gvkKey(g);
      if (byGVK.has(key)) throw new Error(`schema registry: GVK ${key} claimed twice`);
      byGVK.set(key, full);
    }
  }
  const resolved = new Map<string, Schema>();
  const resolve = (full: string): Schema | undefined => {
    const have = resolved.get(full);
    if (have) return have;
    const d = defsByFull.get(full);
    if (!d) return undefined;
    const fields: Field[] = d.fields.map((f) => ({ ...f, type: resolveType(f.type, d.pkg, f.goLeaf, `${full}.${f.name}`) }));
    const fieldMap = new Map(fields.map((f) => [f.name, f] as const));
    if (fieldMap.size !== fields.length) throw new Error(`schema registry: ${full} has duplicate fields`);
    const s: Schema = {
      name: full,
      short: d.short,
      description: d.description,
      goType: `${d.goPkg}.${d.short}`,
      fields,
      fieldMap,
      required: fields.filter((f) => f.required).map((f) => f.name),
      ...(d.gvk ? { gvk: d.gvk } : {}),
      ...(d.mapType ? { mapType: d.mapType } : {}),
      ...(d.special ? { special: d.special } : {}),
      ...(d.bulkhead ? { bulkhead: true } : {}),
    };
    resolved.set(full, s);
    return s;
  };
  return { defs: defsByFull, byGVK, resolve };
}

function gvkKey(g: { group: string; version: string; kind: string }): string {
  return `${g.group}/${g.version}/${g.kind}`;
}

/** Indexed on first use, not when the modules load: a start need not spend it before it is ready. */
let built: Registry | undefined;
const registry = (): Registry => (built ??= build());

/** Every schema name Bulkhead defines, sorted. */
export function schemaNames(): string[] {
  return [...registry().defs.keys()].sort();
}

/** The schema with this full name (io.k8s.api.core.v1.Pod), or undefined. */
export function schemaFor(name: string): Schema | undefined {
  return registry().resolve(name);
}

/** Like schemaFor, but throws for an unknown name. */
export function mustSchema(name: string): Schema {
  const s = registry().resolve(name);
  if (!s) throw new Error(`unknown schema ${name}`);
  return s;
}

/** Full schema name of the kind with this group/version/kind, e.g. {group:'',version:'v1',kind:'Pod'} → io.k8s.api.core.v1.Pod. */
export function kindSchemaName(g: { group: string; version: string; kind: string }): string | undefined {
  return registry().byGVK.get(gvkKey(g));
}

/** Full names of every schema that is a kind (has x-kubernetes-group-version-kind), sorted. */
export function kindSchemaNames(): string[] {
  return schemaNames().filter((n) => registry().defs.get(n)!.gvk !== undefined);
}

/** Names of the schemas reachable from `roots` (the roots included), sorted. */
export function reachableSchemas(roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    const s = mustSchema(n);
    seen.add(n);
    for (const f of s.fields) {
      let t: ResolvedType = f.type;
      while (t.t === 'array' || t.t === 'map') t = t.t === 'array' ? t.items : t.values;
      if (t.t === 'ref' && !seen.has(t.name)) stack.push(t.name);
    }
  }
  return [...seen].sort();
}
