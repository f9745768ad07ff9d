// compareForUpdate: what an Update changed (compareTyped's added and modified as one set, and
// removed), in one walk that omits empty maps as it goes and skips what both sides share. The
// definition is typed.ts's compareTyped over omitEmpty; the managedFields differential test
// (test/apiserver/patch/managedfields-differential.test.ts) holds this to it.

import { deepEqual, isObject, own, type JSONObject, type JSONValue } from './json.js';
import { FieldSet, serializePE, type PathElement } from './fieldpath.js';
import { UNTYPED, fieldRef, itemPE, kindOf, memberOf, omitEmpty, resolve, type Atom, type ListAtom, type MapAtom, type Member, type TypeRef } from './typed.js';

/** What an Update changed: compareTyped's added and modified as one set, and removed. */
export interface UpdateChanges {
  changed: FieldSet;
  removed: FieldSet;
}

/**
 * compareTyped(omitEmpty(lhs), omitEmpty(rhs)) as an Update reads it (added ∪ modified, and
 * removed), less everything at and below the members of `skip` (what filterReset would take
 * out afterwards: the write's reset fields), in one walk that omits as it goes:
 *   - parts both sides share (the same object) are not walked, so a status write does not walk
 *     the spec it kept, and nothing is copied to omit empty maps;
 *   - the sets are built top-down, a node at a time, instead of inserting each path from the root.
 * compareTyped and omitEmpty (typed.ts) are the definition; a differential test holds this to them.
 */
export function compareForUpdate(lhs: JSONValue, rhs: JSONValue, ref: TypeRef, skip?: FieldSet): UpdateChanges {
  const root = new Level(undefined, '', ROOT_PE);
  root.changed = new FieldSet();
  root.removed = new FieldSet();
  updateAt(lhs, rhs, ref, resolve(ref), root, skip);
  return { changed: root.changed, removed: root.removed };
}

const ROOT_PE: PathElement = { field: '' };
const EMPTY_OBJECT: JSONObject = Object.freeze({}) as JSONObject;
const EMPTY_LIST: JSONValue[] = Object.freeze([]) as unknown as JSONValue[];

/** One position of the walk; its nodes in the two result sets are made when something is marked below. */
class Level {
  changed: FieldSet | undefined;
  removed: FieldSet | undefined;
  constructor(
    readonly parent: Level | undefined,
    readonly key: string,
    readonly pe: PathElement,
  ) {}
}

function changedNode(l: Level): FieldSet {
  return (l.changed ??= changedNode(l.parent!).childFor(l.key, l.pe));
}

function removedNode(l: Level): FieldSet {
  return (l.removed ??= removedNode(l.parent!).childFor(l.key, l.pe));
}

/** Inserts the level's path (the root's, the empty path, is ignored as FieldSet.insert ignores it). */
function markChanged(l: Level): void {
  if (l.parent) changedNode(l.parent).addMember(l.key, l.pe);
}

function markRemoved(l: Level): void {
  if (l.parent) removedNode(l.parent).addMember(l.key, l.pe);
}

/** omitEmpty drops this member (of a map whose member schema is `f`). */
function omitted(v: JSONValue | undefined, f: TypeRef): boolean {
  if (v === undefined) return true;
  if (typeof f !== 'object' || f.type !== 'map' || !isObject(v)) return false;
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && v[k] !== undefined) return false;
  return true;
}

/** isEmptyContainer(omitEmpty(v)) at a position resolving to `atom`. */
function emptyOmitted(v: JSONValue | undefined, atom: Atom): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (!isObject(v)) return false;
  const m = atom.map;
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && !omitted(v[k], m ? fieldRef(m, k) : UNTYPED)) return false;
  return true;
}

/** deepEqual(omitEmpty(a), omitEmpty(b)). */
function equalOmitted(a: JSONValue, b: JSONValue, ref: TypeRef): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return deepEqual(a, b);
  return deepEqual(omitEmpty(a, ref), omitEmpty(b, ref));
}

/**
 * compareAt of the omitted values; `lhs` and `rhs` are members omitEmpty keeps (or undefined),
 * `atom` is resolve(ref).
 */
function updateAt(lhs: JSONValue | undefined, rhs: JSONValue | undefined, ref: TypeRef, atom: Atom, level: Level, skip: FieldSet | undefined): void {
  if (lhs === rhs && lhs !== undefined) return;
  const kl = lhs === undefined ? undefined : kindOf(atom, lhs);
  const kr = rhs === undefined ? undefined : kindOf(atom, rhs);
  const kind = kr ?? kl;
  // With one side absent, compareAt's leaf case for an empty map or list marks the same path its
  // walk would (nothing below it, then the path): only two present sides need emptyOmitted.
  const leaf = kind === 'leaf' || (kl !== undefined && kr !== undefined && (kl !== kr || (emptyOmitted(lhs, atom) && emptyOmitted(rhs, atom))));
  if (leaf) {
    if (lhs === undefined) markChanged(level);
    else if (rhs === undefined) markRemoved(level);
    else if (!equalOmitted(lhs, rhs, ref)) markChanged(level);
    return;
  }
  if (kind === 'map') updateMap(isObject(lhs) ? lhs : EMPTY_OBJECT, isObject(rhs) ? rhs : EMPTY_OBJECT, atom.map!, level, skip);
  else updateList(Array.isArray(lhs) ? lhs : EMPTY_LIST, Array.isArray(rhs) ? rhs : EMPTY_LIST, atom.list!, level, skip);
  if (lhs === undefined) markChanged(level);
  else if (rhs === undefined) markRemoved(level);
}

function updateMap(l: JSONObject, r: JSONObject, m: MapAtom, level: Level, skip: FieldSet | undefined): void {
  // for-in with hasOwnProperty visits what Object.keys lists, without making the list.
  for (const k in l) {
    if (!Object.prototype.hasOwnProperty.call(l, k)) continue;
    const member = memberOf(m, k);
    const lv = omitted(l[k], member.ref) ? undefined : l[k];
    const rraw = own(r, k);
    const rv = omitted(rraw, member.ref) ? undefined : rraw;
    if (lv === rv) continue; // both omitted or absent, or the same part on both sides
    updateMember(member, lv, rv, level, skip);
  }
  for (const k in r) {
    if (!Object.prototype.hasOwnProperty.call(r, k) || Object.prototype.hasOwnProperty.call(l, k)) continue;
    const member = memberOf(m, k);
    if (omitted(r[k], member.ref)) continue;
    updateMember(member, undefined, r[k], level, skip);
  }
}

function updateMember(member: Member, lv: JSONValue | undefined, rv: JSONValue | undefined, level: Level, skip: FieldSet | undefined): void {
  if (skip && skip.hasMemberKey(member.key)) return;
  updateAt(lv, rv, member.ref, member.atom, new Level(level, member.key, member.pe), skip?.childAt(member.key));
}

/** The items of one key on either side, in the order compareList visits keys (lhs first). */
interface Keyed {
  pe: PathElement;
  l: JSONValue[];
  r: JSONValue[];
}

function updateList(lhs: JSONValue[], rhs: JSONValue[], list: ListAtom, level: Level, skip: FieldSet | undefined): void {
  if (lhs.length <= 1 && rhs.length <= 1) {
    // At most one item a side (a pod's one container, its one condition): the general case
    // below without its index of items by key.
    const lpe = lhs.length ? itemPEOrNone(list, lhs[0]) : undefined;
    const rpe = rhs.length ? itemPEOrNone(list, rhs[0]) : undefined;
    const lk = lpe && serializePE(lpe);
    const rk = rpe && serializePE(rpe);
    if (lk !== undefined && lk === rk) updateItem(lk, lpe!, lhs[0], rhs[0], list, level, skip);
    else {
      if (lk !== undefined) updateItem(lk, lpe!, lhs[0], undefined, list, level, skip);
      if (rk !== undefined) updateItem(rk, rpe!, undefined, rhs[0], list, level, skip);
    }
    return;
  }
  const byKey = new Map<string, Keyed>();
  const collect = (items: JSONValue[], side: 'l' | 'r'): void => {
    for (const item of items) {
      const pe = itemPEOrNone(list, item);
      if (!pe) continue;
      const key = serializePE(pe);
      let k = byKey.get(key);
      if (!k) {
        k = { pe, l: [], r: [] };
        byKey.set(key, k);
      }
      k[side].push(item);
    }
  };
  collect(lhs, 'l');
  collect(rhs, 'r');
  for (const [key, { pe, l, r }] of byKey) {
    if (skip && skip.hasMemberKey(key)) continue;
    const sub = skip?.childAt(key);
    const item = new Level(level, key, pe);
    const elemAtom = (list.elemAtom ??= resolve(list.elem));
    if (l.length <= 1 && r.length <= 1) updateAt(l[0], r[0], list.elem, elemAtom, item, sub);
    else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || l.some((x, i) => !equalOmitted(x, r[i], list.elem))) markChanged(item);
    } else if (l.length >= 2) {
      if (r.length) updateAt(undefined, r[0], list.elem, elemAtom, item, sub);
      markRemoved(item);
    } else {
      if (l.length) updateAt(l[0], undefined, list.elem, elemAtom, item, sub);
      markChanged(item);
    }
  }
}

/** The item one key names on each side (at most one a side). */
function updateItem(key: string, pe: PathElement, l: JSONValue | undefined, r: JSONValue | undefined, list: ListAtom, level: Level, skip: FieldSet | undefined): void {
  if (skip && skip.hasMemberKey(key)) return;
  updateAt(l, r, list.elem, (list.elemAtom ??= resolve(list.elem)), new Level(level, key, pe), skip?.childAt(key));
}

/** The item's path element, or undefined for an item that has none (compareList skips it). */
function itemPEOrNone(list: ListAtom, item: JSONValue): PathElement | undefined {
  try {
    return itemPEOmitted(list, item);
  } catch {
    return undefined;
  }
}

/** itemPE(list, omitEmpty(item)): only a key field omitEmpty drops makes the two differ. */
function itemPEOmitted(list: ListAtom, item: JSONValue): PathElement {
  if (list.keys.length > 0 && isObject(item)) {
    const m = resolve(list.elem).map;
    for (const k of list.keys) {
      if (Object.prototype.hasOwnProperty.call(item, k) && omitted(item[k], m ? fieldRef(m, k) : UNTYPED)) return itemPE(list, omitEmpty(item, list.elem));
    }
  }
  return itemPE(list, item);
}
