// The typed-value operations of sigs.k8s.io/structured-merge-diff (ToFieldSet, Merge, Compare,
// RemoveItems, EnsureNamedFieldsAreMembers) over SchemaView. A schema position resolves to an
// "atom" the way kube-openapi's schemaconv converts OpenAPI:
//   - object (properties): a struct, granular unless x-kubernetes-map-type atomic;
//   - map (additionalProperties): granular unless x-kubernetes-map-type atomic;
//   - array: x-kubernetes-list-type atomic/set/map (keys x-kubernetes-list-map-keys); without a
//     list type, patch strategy "merge" (or "merge,retainKeys") makes it a map keyed by the patch
//     merge key, or a set when there is no merge key; anything else is atomic;
//   - scalars; and for `any` or fields the schema does not know, upstream's "deduced" type:
//     granular maps, atomic lists, scalars.
// A null takes the shape the schema gives it (an absent-but-present empty map or list, or a
// scalar), as upstream's deduceAtom does; values whose JSON type does not fit the schema are
// treated as leaves.

import type { SchemaView } from '../../api/schema/view.js';
import { compareStrings, deepEqual, goQuote, goTypeName, goValue, isObject, own, setKey, type JSONObject, type JSONValue } from './json.js';
import { FieldSet, fieldPE, keyPE, pathString, serializePE, type Path, type PathElement } from './fieldpath.js';

const DEDUCED = Symbol('deduced');
export const UNTYPED = Symbol('untyped');
const NONE = Symbol('none');
export type TypeRef = SchemaView | typeof DEDUCED | typeof UNTYPED | typeof NONE | undefined;

export interface MapAtom {
  atomic: boolean;
  /** The schema of a declared (struct) field, undefined when `name` is not one. */
  field(name: string): TypeRef;
  /** The schema of map values and of undeclared fields. */
  elem: TypeRef;
  /** memberOf's answers by member name. */
  members?: Map<string, Member>;
}

/** A member of a map position: its path element, that element serialized, and its schema. */
export interface Member {
  readonly key: string;
  readonly pe: PathElement;
  readonly ref: TypeRef;
  readonly atom: Atom;
}

export interface ListAtom {
  atomic: boolean;
  /** Key field names for a list map; empty for a set. */
  keys: readonly string[];
  elem: TypeRef;
  /** resolve(elem), once asked for. */
  elemAtom?: Atom;
}

export interface Atom {
  map?: MapAtom;
  list?: ListAtom;
  scalar?: boolean;
}

const noField = (): TypeRef => undefined;
const deducedAtom: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], elem: UNTYPED },
  map: { atomic: false, field: noField, elem: DEDUCED },
};
const untypedAtom: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], elem: UNTYPED },
  map: { atomic: true, field: noField, elem: UNTYPED },
};

function listAtom(v: SchemaView): ListAtom {
  const elem: TypeRef = v.elements() ?? DEDUCED;
  switch (v.listType) {
    case 'atomic':
      return { atomic: true, keys: [], elem };
    case 'set':
      return { atomic: false, keys: [], elem };
    case 'map':
      return { atomic: false, keys: v.listMapKeys ?? (v.patchMergeKey ? [v.patchMergeKey] : []), elem };
  }
  if (v.patchStrategy === 'merge' || v.patchStrategy === 'merge,retainKeys') {
    return { atomic: false, keys: v.patchMergeKey ? [v.patchMergeKey] : [], elem };
  }
  return { atomic: true, keys: [], elem };
}

const noAtom: Atom = {};
/** Atoms by schema position: a view's extensions never change, and resolving is on every walk's path. */
const atoms = new WeakMap<SchemaView, Atom>();

export function resolve(ref: TypeRef): Atom {
  if (ref === NONE) return noAtom;
  if (ref === undefined || ref === DEDUCED) return deducedAtom;
  if (ref === UNTYPED) return untypedAtom;
  let atom = atoms.get(ref);
  if (!atom) {
    atom = resolveView(ref);
    atoms.set(ref, atom);
  }
  return atom;
}

function resolveView(v: SchemaView): Atom {
  switch (v.type) {
    case 'any':
      return deducedAtom;
    case 'object':
      return { map: { atomic: v.mapType === 'atomic', field: (n) => v.property(n), elem: DEDUCED } };
    case 'map':
      return { map: { atomic: v.mapType === 'atomic', field: noField, elem: v.elements() ?? DEDUCED } };
    case 'array':
      return { list: listAtom(v) };
    default:
      return { scalar: true };
  }
}

type Kind = 'leaf' | 'list' | 'map';

export function kindOf(atom: Atom, v: JSONValue | undefined): Kind {
  if (v === null) {
    if (atom.map) return atom.map.atomic ? 'leaf' : 'map';
    if (atom.scalar) return 'leaf';
    if (atom.list) return atom.list.atomic ? 'leaf' : 'list';
    return 'leaf';
  }
  if (Array.isArray(v)) return atom.list && !atom.list.atomic ? 'list' : 'leaf';
  if (isObject(v)) return atom.map && !atom.map.atomic ? 'map' : 'leaf';
  return 'leaf';
}

function mapField(m: MapAtom, name: string): { ref: TypeRef; declared: boolean } {
  const f = m.field(name);
  return f !== undefined ? { ref: f, declared: true } : { ref: m.elem, declared: false };
}

/** mapField(m, name).ref, without the pair. */
export function fieldRef(m: MapAtom, name: string): TypeRef {
  const f = m.field(name);
  return f !== undefined ? f : m.elem;
}

/** Struct fields and the common map keys (label names) recur on every write; others come and go. */
const maxMembers = 256;

/** The member `name` of a map position (elements are immutable, so one serves every walk). */
export function memberOf(m: MapAtom, name: string): Member {
  let member = m.members?.get(name);
  if (member === undefined) {
    const ref = fieldRef(m, name);
    member = { key: 'f:' + name, pe: { field: name }, ref, atom: resolve(ref) };
    m.members ??= new Map();
    if (m.members.size >= maxMembers) m.members.clear();
    m.members.set(name, member);
  }
  return member;
}

/** A list element is not a valid member of its associative list. */
export class TypedValueError extends Error {}

function keyDefault(list: ListAtom, name: string): JSONValue | undefined {
  const elem = list.elem;
  if (typeof elem !== 'object' || elem.type !== 'object') return undefined;
  const d = (elem.property(name) as { default?: unknown } | undefined)?.default;
  return d === undefined ? undefined : (d as JSONValue);
}

/** upstream listItemToPathElement for an associative list. */
export function itemPE(list: ListAtom, item: JSONValue): PathElement {
  if (list.keys.length > 0) {
    if (item === null) throw new TypedValueError('associative list with keys may not have a null element');
    if (!isObject(item)) throw new TypedValueError('associative list with keys may not have non-map elements');
    const fields: [string, JSONValue][] = [];
    for (const k of list.keys) {
      if (Object.prototype.hasOwnProperty.call(item, k)) fields.push([k, item[k]]);
      else {
        const d = keyDefault(list, k);
        if (d !== undefined) fields.push([k, d]);
      }
    }
    if (fields.length === 0) {
      throw new TypedValueError(
        `associative list with keys has an element that omits all key fields [${list.keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)`,
      );
    }
    return keyPE(fields);
  }
  if (isObject(item)) throw new TypedValueError("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new TypedValueError('not supported: associative list with lists as elements');
  if (item === null) throw new TypedValueError("associative list without keys has an element that's an explicit null");
  return { value: item };
}

/** fmt's %#v of a value decoded into interface{}. */
function goSharpV(v: JSONValue): string {
  if (v === null) return 'interface {}(nil)';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  }
  return typeof v === 'string' ? JSON.stringify(v) : goValue(v);
}

/**
 * structured-merge-diff's validatingObjectWalker on a value whose JSON type the schema does not
 * allow (listValue, mapValue, validateScalar texts; `&{…}` is how Go prints the *value it holds).
 * Only maps and lists are refused where a string belongs: the served schemas spell Quantity and
 * IntOrString as strings, which upstream's are not ("untyped" scalars that take numbers too).
 */
function typeMismatch(ref: TypeRef, v: JSONValue): string | undefined {
  if (v === null || typeof ref !== 'object') return undefined;
  const held = `&{${goValue(v)}}`;
  switch (ref.type) {
    case 'object':
    case 'map':
      return isObject(v) ? undefined : `expected map, got ${held}`;
    case 'array':
      return Array.isArray(v) ? undefined : `expected list, got ${held}`;
    case 'integer':
    case 'number':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${held}`;
    case 'string':
      return typeof v !== 'object' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    default:
      return undefined;
  }
}

/**
 * Checks an applied configuration the way ObjectToTyped does: values of the schema's JSON type,
 * fields the schema declares (a struct has no element type for others), list keys present, no
 * duplicates.
 */
export function validateTyped(v: JSONValue, ref: TypeRef, path: Path = []): string[] {
  const mismatch = typeMismatch(ref, v);
  if (mismatch) return [`${pathString(path)}: ${mismatch}`];
  const atom = resolve(ref);
  const kind = kindOf(atom, v);
  const errs: string[] = [];
  if (kind === 'map') {
    const m = entriesOf(v);
    const struct = typeof ref === 'object' && ref.type === 'object';
    for (const k of Object.keys(m)) {
      const f = mapField(atom.map!, k);
      if (struct && !f.declared) errs.push(`${pathString([...path, fieldPE(k)])}: field not declared in schema`);
      else errs.push(...validateTyped(m[k], f.ref, [...path, fieldPE(k)]));
    }
  } else if (kind === 'list') {
    const list = atom.list!;
    const seen = new Set<string>();
    itemsOf(v).forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = itemPE(list, item);
      } catch (e) {
        errs.push(`${pathString(path)}: element ${i}: ${(e as Error).message}`);
        return;
      }
      const k = serializePE(pe);
      if (seen.has(k)) errs.push(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
      seen.add(k);
      errs.push(...validateTyped(item, list.elem, [...path, pe]));
    });
  }
  return errs;
}

/**
 * A value as an Update's typed object is (ToUnstructured of the Go struct): members holding
 * `undefined` are absent, and so are empty maps (additionalProperties: Go's map fields are all
 * omitempty), so an Update never owns an empty `metadata.labels` it did not really set.
 * Structs and lists are kept: an empty struct (`emptyDir: {}`) is a value. Inputs are not modified.
 */
export function omitEmpty(v: JSONValue, ref: TypeRef, memo?: OmitMemo): JSONValue {
  if (v === null || typeof v !== 'object') return v;
  // A value with nothing to omit comes back as itself, so that parts two objects share stay
  // shared and compareTyped can skip them; `memo` makes a part shared by both walked once.
  const seen = memo?.get(v);
  if (seen && seen.ref === ref) return seen.out;
  let out: JSONValue = v;
  if (Array.isArray(v)) {
    const list = resolve(ref).list;
    const elem = list ? list.elem : UNTYPED;
    let items: JSONValue[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const o = omitEmpty(v[i], elem, memo);
      if (o !== v[i] && !items) items = v.slice(0, i);
      if (items) items.push(o);
    }
    if (items) out = items;
  } else {
    const m = resolve(ref).map;
    const keys = Object.keys(v);
    let copy: JSONObject | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const child = v[k] as JSONValue | undefined;
      const f = m ? mapField(m, k).ref : UNTYPED;
      const omit = child === undefined || (typeof f === 'object' && f.type === 'map' && isObject(child) && Object.keys(child).every((ck) => child[ck] === undefined));
      const o = omit ? undefined : omitEmpty(child, f, memo);
      if ((omit || o !== child) && !copy) {
        copy = {};
        for (let j = 0; j < i; j++) setKey(copy, keys[j], v[keys[j]]);
      }
      if (copy && o !== undefined) setKey(copy, k, o);
    }
    if (copy) out = copy;
  }
  memo?.set(v, { ref, out });
  return out;
}

/** omitEmpty's results by input, for walking two objects that share parts. */
export type OmitMemo = Map<object, { ref: TypeRef; out: JSONValue }>;

/** The set of fields a value sets (upstream TypedValue.ToFieldSet). */
export function toFieldSet(v: JSONValue, ref: TypeRef): FieldSet {
  const set = new FieldSet();
  walkFields(v, ref, [], set);
  return set;
}

function walkFields(v: JSONValue, ref: TypeRef, path: Path, set: FieldSet): void {
  const atom = resolve(ref);
  const kind = kindOf(atom, v);
  if (kind === 'leaf') {
    set.insert(path);
    return;
  }
  if (kind === 'map') {
    const m = entriesOf(v);
    for (const k of Object.keys(m)) {
      const f = mapField(atom.map!, k);
      const child = m[k];
      const p = [...path, fieldPE(k)];
      walkFields(child, f.ref, p, set);
      if (child === null || (isObject(child) && Object.keys(child).length === 0) || !f.declared) set.insert(p);
    }
    return;
  }
  const list = atom.list!;
  const items = itemsOf(v);
  const pes: (PathElement | undefined)[] = items.map((item) => {
    try {
      return itemPE(list, item);
    } catch {
      return undefined;
    }
  });
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const pe of pes) {
    if (!pe) continue;
    const k = serializePE(pe);
    if (seen.has(k) && !dups.has(k)) {
      set.insert([...path, pe]);
      dups.add(k);
    }
    seen.add(k);
  }
  items.forEach((item, i) => {
    const pe = pes[i];
    if (!pe || dups.has(serializePE(pe))) return;
    const p = [...path, pe];
    walkFields(item, list.elem, p, set);
    set.insert(p);
  });
}

function entriesOf(v: JSONValue | undefined): JSONObject {
  return isObject(v) ? v : {};
}

function itemsOf(v: JSONValue | undefined): JSONValue[] {
  return Array.isArray(v) ? v : [];
}

/** Absent, null, or an empty map or list. */
function isEmptyContainer(v: JSONValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

/**
 * upstream TypedValue.Merge: rhs wins for leaves, maps merge by key, associative lists merge by
 * item key (order: rhs order, with lhs-only items kept next to the items they followed).
 */
export function mergeTyped(lhs: JSONValue | undefined, rhs: JSONValue | undefined, ref: TypeRef): JSONValue | undefined {
  if (rhs === undefined) return lhs;
  const atom = resolve(ref);
  const kind = kindOf(atom, rhs);
  if (lhs !== undefined && kindOf(atom, lhs) !== kind) return rhs;
  if (kind === 'leaf') return rhs;
  if (isEmptyContainer(lhs) && isEmptyContainer(rhs)) return rhs;
  if (kind === 'map') {
    const l = entriesOf(lhs);
    const r = entriesOf(rhs);
    const out: JSONObject = {};
    for (const k of Object.keys(l)) {
      const m = mergeTyped(l[k], own(r, k), mapField(atom.map!, k).ref);
      if (m !== undefined) setKey(out, k, m);
    }
    for (const k of Object.keys(r)) {
      if (Object.prototype.hasOwnProperty.call(l, k)) continue;
      const m = mergeTyped(undefined, r[k], mapField(atom.map!, k).ref);
      if (m !== undefined) setKey(out, k, m);
    }
    return out;
  }
  return mergeList(itemsOf(lhs), itemsOf(rhs), atom.list!);
}

function indexItems(list: ListAtom, items: JSONValue[], allowDuplicates: boolean): { pes: PathElement[]; observed: Map<string, JSONValue> } {
  const pes: PathElement[] = [];
  const observed = new Map<string, JSONValue>();
  items.forEach((item, i) => {
    let pe: PathElement;
    try {
      pe = itemPE(list, item);
    } catch (e) {
      throw new TypedValueError(`element ${i}: ${(e as Error).message}`);
    }
    const k = serializePE(pe);
    if (observed.has(k)) {
      if (!allowDuplicates) throw new TypedValueError(`duplicate entries for key ${pathString([pe])}`);
      observed.set(k, null);
    } else observed.set(k, item);
    pes.push(pe);
  });
  return { pes, observed };
}

function mergeList(lhs: JSONValue[], rhs: JSONValue[], list: ListAtom): JSONValue[] {
  const out: JSONValue[] = [];
  const r = indexItems(list, rhs, false);
  const l = indexItems(list, lhs, true);
  const sharedOrder = r.pes.map(serializePE).filter((k) => l.observed.has(k));
  let nextShared: string | undefined = sharedOrder.shift();
  const mergedRHS = new Set<string>();
  const push = (v: JSONValue | undefined): void => {
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < l.pes.length || ri < r.pes.length) {
    if (li < l.pes.length && ri < r.pes.length) {
      const lk = serializePE(l.pes[li]);
      if (lk === serializePE(r.pes[ri])) {
        mergedRHS.add(lk);
        push(mergeTyped(l.observed.get(lk), r.observed.get(lk), list.elem));
        li++;
        ri++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (r.observed.has(lk) && nextShared !== undefined && nextShared !== lk) {
        li++;
        continue;
      }
    }
    if (li < l.pes.length) {
      const lk = serializePE(l.pes[li]);
      if (!r.observed.has(lk)) {
        push(mergeTyped(lhs[li], undefined, list.elem));
        li++;
        continue;
      } else if (mergedRHS.has(lk)) {
        li++;
      }
    }
    if (ri < r.pes.length) {
      const rk = serializePE(r.pes[ri]);
      mergedRHS.add(rk);
      push(mergeTyped(l.observed.get(rk), r.observed.get(rk), list.elem));
      ri++;
      if (nextShared === rk) nextShared = sharedOrder.shift();
    }
  }
  return out;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** upstream TypedValue.Compare(lhs → rhs). */
export function compareTyped(lhs: JSONValue | undefined, rhs: JSONValue | undefined, ref: TypeRef): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt(lhs, rhs, ref, [], c);
  return c;
}

function compareAt(lhs: JSONValue | undefined, rhs: JSONValue | undefined, ref: TypeRef, path: Path, c: Comparison): void {
  // The same value on both sides (a part the write did not replace) has nothing to report.
  if (lhs === rhs && lhs !== undefined) return;
  const atom = resolve(ref);
  const kl = lhs === undefined ? undefined : kindOf(atom, lhs);
  const kr = rhs === undefined ? undefined : kindOf(atom, rhs);
  const kind = kr ?? kl;
  if (kind === 'leaf' || (kl !== undefined && kr !== undefined && kl !== kr) || (isEmptyContainer(lhs) && isEmptyContainer(rhs))) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
    else if (!deepEqual(lhs, rhs)) c.modified.insert(path);
    return;
  }
  if (kind === 'map') {
    const l = entriesOf(lhs);
    const r = entriesOf(rhs);
    const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
    for (const k of keys) compareAt(own(l, k), own(r, k), mapField(atom.map!, k).ref, [...path, fieldPE(k)], c);
  } else {
    compareList(itemsOf(lhs), itemsOf(rhs), atom.list!, path, c);
  }
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

function compareList(lhs: JSONValue[], rhs: JSONValue[], list: ListAtom, path: Path, c: Comparison): void {
  // Every item key, lhs items first, each once; with all the items carrying it on either side.
  const order = new Map<string, PathElement>();
  const lv = new Map<string, JSONValue[]>();
  const rv = new Map<string, JSONValue[]>();
  const collect = (items: JSONValue[], into: Map<string, JSONValue[]>): void => {
    for (const item of items) {
      let pe: PathElement;
      try {
        pe = itemPE(list, item);
      } catch {
        continue;
      }
      const key = serializePE(pe);
      if (!order.has(key)) order.set(key, pe);
      const got = into.get(key);
      if (got) got.push(item);
      else into.set(key, [item]);
    }
  };
  collect(lhs, lv);
  collect(rhs, rv);
  for (const [key, pe] of order) {
    const l = lv.get(key) ?? [];
    const r = rv.get(key) ?? [];
    const p = [...path, pe];
    if (l.length <= 1 && r.length <= 1) compareAt(l[0], r[0], list.elem, p, c);
    else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || l.some((x, i) => !deepEqual(x, r[i]))) c.modified.insert(p);
    } else if (l.length >= 2) {
      if (r.length) compareAt(undefined, r[0], list.elem, p, c);
      c.removed.insert(p);
    } else {
      if (l.length) compareAt(l[0], undefined, list.elem, p, c);
      c.added.insert(p);
    }
  }
}


/**
 * upstream TypedValue.RemoveItems: drops every member of `toRemove` from the value. A map or
 * list emptied this way becomes null, as upstream leaves it (stripNulls removes those later).
 */
export function removeItems(v: JSONValue, toRemove: FieldSet, ref: TypeRef): JSONValue {
  const atom = resolve(ref);
  const kind = kindOf(atom, v);
  if (kind === 'leaf' || isEmptyContainer(v)) return v;
  if (kind === 'map') {
    const m = v as JSONObject;
    const out: JSONObject = {};
    for (const k of Object.keys(m)) {
      const pe = fieldPE(k);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.withPrefix(pe);
      setKey(out, k, sub.empty() ? m[k] : removeItems(m[k], sub, mapField(atom.map!, k).ref));
    }
    return Object.keys(out).length ? out : null;
  }
  const list = atom.list!;
  const out: JSONValue[] = [];
  for (const item of v as JSONValue[]) {
    let pe: PathElement | undefined;
    try {
      pe = itemPE(list, item);
    } catch {
      pe = undefined;
    }
    if (pe && toRemove.hasMember(pe)) continue;
    const sub = pe ? toRemove.withPrefix(pe) : new FieldSet();
    out.push(sub.empty() ? item : removeItems(item, sub, list.elem));
  }
  return out.length ? out : null;
}

/** upstream Set.EnsureNamedFieldsAreMembers: also owns every declared struct field on the way to a member. */
export function ensureNamedFieldsAreMembers(s: FieldSet, ref: TypeRef): FieldSet {
  const atom = resolve(ref);
  const members: PathElement[] = [...s.memberElements()];
  const children = s.childNodes().map(({ pe, set }) => {
    let childRef: TypeRef = NONE;
    if ('field' in pe && atom.map) {
      const f = mapField(atom.map, pe.field);
      if (f.declared) members.push(pe);
      childRef = f.ref;
    } else if ('key' in pe && atom.list) {
      childRef = atom.list.elem;
    }
    return { pe, set: ensureNamedFieldsAreMembers(set, childRef) };
  });
  return FieldSet.fromParts(members, children);
}

/** Removes null values from maps (what converting the result to a typed object does). */
export function stripNulls<T extends JSONValue>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => stripNulls(x)) as T;
  if (isObject(v)) {
    const out: JSONObject = {};
    for (const k of Object.keys(v)) if (v[k] !== null) setKey(out, k, stripNulls(v[k]));
    return out as T;
  }
  return v;
}
