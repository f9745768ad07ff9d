// Strategic merge patch (`application/strategic-merge-patch+json`) as kube-apiserver applies it:
// the server side of k8s.io/apimachinery pkg/util/strategicpatch (StrategicMergeMapPatch, i.e.
// mergeMap with MergeParallelList and IgnoreUnmatchedNulls), reimplemented over SchemaView.
//
// Rules (each exercised by test/apiserver/patch/strategicmerge.test.ts):
//   - maps merge recursively; `null` deletes a key; a patch value for a key the original lacks
//     (or holds with another JSON type) replaces it, with nulls and `$patch`-marked maps dropped;
//   - a list whose field has x-kubernetes-patch-strategy "merge" merges: maps by the patch merge
//     key (merged in place, new ones appended), scalars as a set union; other lists are replaced;
//   - `$patch: replace` on a map replaces it, `$patch: delete` empties it; in a merging list an
//     element `{"$patch": "replace"}` replaces the list, `{name: x, "$patch": "delete"}` deletes
//     the element; `$patch: merge` is refused as upstream refuses it (maps: "unknown patch
//     type", list elements: "merging lists cannot yet be specified in the patch");
//   - `$deleteFromPrimitiveList/<field>: [v...]` removes scalars from a merging scalar list;
//   - `$setElementOrder/<field>: [...]` orders the merged list (patch items in that order,
//     server-only items kept where they were relative to them);
//   - `$retainKeys: [k...]` clears original keys not listed (and every non-null patch key must be
//     listed);
//   - a `patchStrategy: replace` field is replaced by the patch value as is;
//   - fields the schema does not know merge as plain maps and replace as atomic lists (upstream
//     errors with "unable to find api field" when merging such fields with its typed schemas).
// Error texts and HTTP codes are upstream's (StrategicMergePatchError).

import type { SchemaView } from '../../api/schema/view.js';
import { assertPatchDepth } from './depth.js';
import { StrategicMergePatchError } from './errors.js';
import { clone, goTypeName, goValue, isObject, isScalar, setKey, type JSONObject, type JSONValue } from './json.js';

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysStrategy = 'retainKeys';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

const MAP_TYPE = 'map[string]interface {}';
const SLICE_TYPE = '[]interface {}';

function fail(message: string, code: 400 | 422 = 400): never {
  throw new StrategicMergePatchError(message, code);
}

const errBadJSONDoc = (): never => fail('invalid JSON document', 400);
const errNoListOfLists = (): never => fail('lists of lists are not supported', 422);
const errBadPrimitiveList = (): never => fail('invalid patch format of primitive list', 400);
const errBadRetainKeys = (): never => fail('invalid patch format of retainKeys', 400);
const errBadSetElementOrder = (): never => fail('invalid patch format of setElementOrder list', 400);
const errNoMergeKey = (m: unknown, k: string): never => fail(`map: ${goValue(m)} does not contain declared merge key: ${k}`);
const errBadArgType = (expected: string, actual: unknown): never => fail(`expected a ${expected}, but received a ${goTypeName(actual)}`);

/** fmt's %s of an interface{} value. */
function goS(v: unknown): string {
  return typeof v === 'string' ? v : `%!s(${goTypeName(v)}=${goValue(v)})`;
}
const errBadPatchType = (t: unknown, m: unknown): never => fail(`unknown patch type: ${goS(t)} in map: ${goValue(m)}`);

function has(o: JSONObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** Go's == on two interface{} values holding JSON scalars (maps and lists never compare equal here). */
function same(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  return (a === null || isScalar(a)) && a === b;
}

interface PatchMeta {
  sub: SchemaView | undefined;
  strategies: string[];
  mergeKey: string;
}

function childOf(schema: SchemaView | undefined, key: string): SchemaView | undefined {
  if (!schema) return undefined;
  if (schema.type === 'object') return schema.property(key);
  if (schema.type === 'map') return schema.elements();
  return undefined;
}

function metaOf(child: SchemaView | undefined, sub: SchemaView | undefined): PatchMeta {
  return { sub, strategies: child?.patchStrategy ? child.patchStrategy.split(',') : [], mergeKey: child?.patchMergeKey ?? '' };
}

function lookupStruct(schema: SchemaView | undefined, key: string): PatchMeta {
  const child = childOf(schema, key);
  return metaOf(child, child);
}

function lookupSlice(schema: SchemaView | undefined, key: string): PatchMeta {
  const child = childOf(schema, key);
  // Like upstream's OpenAPI lookups, a field whose schema is not an array is its own item schema.
  return metaOf(child, child?.type === 'array' ? child.elements() : child);
}

/** upstream extractRetainKeysPatchStrategy: the strategy other than retainKeys. */
function patchStrategyOf(strategies: string[]): string {
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === retainKeysStrategy ? '' : strategies[0];
    case 2:
      if (strategies[0] === retainKeysStrategy) return strategies[1];
      if (strategies[1] === retainKeysStrategy) return strategies[0];
      return fail(`unexpected patch strategy: [${strategies.join(' ')}]`);
    default:
      return fail(`unexpected patch strategy: [${strategies.join(' ')}]`);
  }
}

function schemaName(schema: SchemaView | undefined): string {
  return !schema || schema.type === 'object' ? 'struct' : schema.type;
}

/**
 * Applies a strategic merge patch and returns the patched object; neither input is modified.
 * @param schema the SchemaView of the object's kind (undefined: everything merges as plain maps).
 * @throws StrategicMergePatchError
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema?: SchemaView): JSONObject {
  assertPatchDepth(original, patch);
  if (original !== null && original !== undefined && !isObject(original)) errBadJSONDoc();
  if (!isObject(patch)) errBadJSONDoc();
  return mergeMap(isObject(original) ? clone(original) : null, clone(patch as JSONObject), schema);
}

function mergeMap(original: JSONObject | null, patch: JSONObject, schema: SchemaView | undefined): JSONObject {
  if (has(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker], patch);
  const out = original ?? {};
  applyRetainKeysDirective(out, patch);
  mergePatchIntoOriginal(out, patch, schema);

  for (const k of Object.keys(patch)) {
    let key = k;
    let isDeleteList = false;
    if (k.startsWith(deleteFromPrimitiveListPrefix)) {
      key = extractKey(k, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }
    const patchV = patch[k];
    if (patchV === null) {
      delete out[key];
      continue;
    }
    if (!has(out, key) || goTypeName(out[key]) !== goTypeName(patchV)) {
      if (!isDeleteList) setWithoutDirectives(out, key, discardNullValues(patchV));
      continue;
    }
    const origV = out[key];
    if (isObject(origV)) {
      const meta = lookupStruct(schema, key);
      const strategy = patchStrategyOf(meta.strategies);
      out[key] = strategy !== replaceDirective ? mergeMap(origV, patchV as JSONObject, meta.sub) : patchV;
    } else if (Array.isArray(origV)) {
      const meta = lookupSlice(schema, key);
      const strategy = patchStrategyOf(meta.strategies);
      out[key] = mergeSliceHandler(origV, patchV, meta.sub, strategy, meta.mergeKey, isDeleteList);
    } else {
      setWithoutDirectives(out, key, patchV);
    }
  }
  return out;
}

function setWithoutDirectives(o: JSONObject, key: string, v: JSONValue): void {
  const [value, keep] = removeDirectives(v);
  if (keep) setKey(o, key, value);
  else delete o[key];
}

function handleDirectiveInMergeMap(directive: JSONValue, patch: JSONObject): JSONObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  return errBadPatchType(directive, patch);
}

/** Drops maps marked with `$patch` (and list elements that are such maps). */
function removeDirectives(obj: JSONValue): [JSONValue, boolean] {
  if (isObject(obj)) {
    if (has(obj, directiveMarker)) return [null, false];
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k]);
      if (keep) obj[k] = v;
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: JSONValue[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

function discardNullValues(v: JSONValue): JSONValue {
  if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValues(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const item of v) discardNullValues(item);
  }
  return v;
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListPrefix) errBadPrimitiveList();
    errBadSetElementOrder();
  }
  return s.slice(slash + 1);
}

function applyRetainKeysDirective(original: JSONObject, patch: JSONObject): void {
  if (!has(patch, retainKeysDirective)) return;
  const retain = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retain)) return errBadRetainKeys();
  const keep = new Set(retain.filter((v): v is string => typeof v === 'string'));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!keep.has(k)) errBadRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function asList(v: JSONValue): JSONValue[] {
  if (!Array.isArray(v)) return errBadArgType(SLICE_TYPE, v);
  return v;
}

/** Processes every `$setElementOrder/<field>` directive together with its list. */
function mergePatchIntoOriginal(original: JSONObject, patch: JSONObject, schema: SchemaView | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix) || !has(patch, key)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) errBadArgType(SLICE_TYPE, setOrder);
    const order = setOrder as JSONValue[];
    const originalKey = extractKey(key, setElementOrderPrefix);
    const foundOriginal = has(original, originalKey);
    const foundPatch = has(patch, originalKey);
    const originalList = foundOriginal ? asList(original[originalKey]) : [];
    const patchList = foundPatch ? asList(patch[originalKey]) : [];
    const meta = lookupSlice(schema, originalKey);
    const strategy = patchStrategyOf(meta.strategies);
    validatePatchWithSetOrderList(patchList, order, meta.mergeKey);

    let merged: JSONValue[];
    // The original list as Go sees it afterwards: merging edits its backing array in place.
    const backing = new GoSlice(originalList);
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)[0] as JSONValue[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, meta.sub, strategy, meta.mergeKey, false, backing);
    else continue;

    const [patchItems, serverOnly] = meta.mergeKey === '' ? partitionPrimitives(merged, order) : partitionMaps(merged, order, meta.mergeKey);
    const serverOrder = backing.originView(originalList.length);
    const kind = sliceElementKind([serverOrder, patchList]);
    setKey(original, originalKey, normalizeElementOrder(patchItems, serverOnly, order, serverOrder, meta.mergeKey, kind));
    delete patch[originalKey];
  }
}

function extractToDeleteItems(l: JSONValue[]): [JSONValue[], JSONValue[]] {
  const nonDelete: JSONValue[] = [];
  const toDelete: JSONValue[] = [];
  for (const v of l) {
    if (!isObject(v)) errBadArgType(MAP_TYPE, v);
    if ((v as JSONObject)[directiveMarker] === deleteDirective) toDelete.push(v);
    else nonDelete.push(v);
  }
  return [nonDelete, toDelete];
}

function mergeKeyValueEqual(left: JSONValue, right: JSONValue, mergeKey: string): boolean {
  if (mergeKey === '') return same(left, right);
  if (!isObject(left)) errBadArgType(MAP_TYPE, left);
  if (!isObject(right)) errBadArgType(MAP_TYPE, right);
  const l = left as JSONObject;
  const r = right as JSONObject;
  if (!has(l, mergeKey)) errNoMergeKey(l, mergeKey);
  if (!has(r, mergeKey)) errNoMergeKey(r, mergeKey);
  return same(l[mergeKey], r[mergeKey]);
}

/** The non-delete patch items must appear in the `$setElementOrder` list, in its order. */
function validatePatchWithSetOrderList(patchList: JSONValue[], setOrder: JSONValue[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey !== '' ? extractToDeleteItems(patchList)[0] : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrder.length) {
    if (isObject(nonDelete[pi]) && has(nonDelete[pi] as JSONObject, directiveMarker)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[pi], setOrder[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    fail(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goValue(setOrder)}\n`);
  }
}

function mergeSliceHandler(original: JSONValue, patch: JSONValue, schema: SchemaView | undefined, strategy: string, mergeKey: string, isDeleteList: boolean, backing?: GoSlice): JSONValue[] {
  const o = asList(original);
  const p = asList(patch);
  if (strategy === mergeDirective || isDeleteList) return mergeSlice(o, p, schema, mergeKey, isDeleteList, backing ?? new GoSlice(o));
  return p;
}

/**
 * A Go slice over a backing array, to reproduce what upstream's in-place slice edits do to the
 * original list that `$setElementOrder` then orders by: deleting an element shifts the rest left
 * in the shared array, and appending writes into it while capacity lasts (capacity as Go's
 * append growth leaves a decoded JSON list: 1, 2, 4, 8, ...). Upstream's expected orders depend
 * on it (row "add map and delete map from merging list").
 */
class GoSlice {
  /** The backing array the slice started on (what other slices of it see). */
  private readonly origin: JSONValue[];
  private buf: JSONValue[];
  private readonly cap: number;
  private shared = true;
  private len: number;

  constructor(list: JSONValue[]) {
    this.origin = [...list];
    this.buf = this.origin;
    this.len = list.length;
    this.cap = goAppendCap(list.length);
  }

  /** The slice's current elements. */
  view(): JSONValue[] {
    return this.buf.slice(0, this.len);
  }

  /** The first `len` elements of the original backing array, as another slice of it reads them. */
  originView(len: number): JSONValue[] {
    return this.origin.slice(0, len);
  }

  get(i: number): JSONValue {
    return this.buf[i];
  }

  set(i: number, v: JSONValue): void {
    this.buf[i] = v;
  }

  /** append(s[:i], s[i+1:]...) */
  deleteAt(i: number): void {
    for (let k = i; k < this.len - 1; k++) this.buf[k] = this.buf[k + 1];
    this.len--;
  }

  /** s = append(s, v) */
  append(v: JSONValue): void {
    if (!this.shared || this.len >= this.cap) {
      if (this.shared) {
        this.buf = this.buf.slice(0, this.len);
        this.shared = false;
      }
    }
    this.buf[this.len++] = v;
  }

  /** Replaces the slice with another one (no longer sharing the backing array). */
  reset(list: JSONValue[]): void {
    this.buf = [...list];
    this.len = list.length;
    this.shared = false;
  }
}

function goAppendCap(n: number): number {
  let cap = 0;
  while (cap < n) cap = cap === 0 ? 1 : cap < 256 ? cap * 2 : cap + Math.floor((cap + 3 * 256) / 4);
  return cap;
}

type ElementKind = 'map' | 'scalar';

function sliceElementKind(slices: JSONValue[][]): ElementKind {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goTypeName(v);
      if (prev === undefined) {
        prev = t;
        if (t === SLICE_TYPE) errNoListOfLists();
      } else if (prev !== t) {
        fail(`list element types are not identical: ${goValue(slices)}`);
      }
    }
  }
  if (prev === undefined) fail('no elements in any of the given slices');
  return prev === MAP_TYPE ? 'map' : 'scalar';
}

function mergeSlice(original: JSONValue[], patch: JSONValue[], schema: SchemaView | undefined, mergeKey: string, isDeleteList: boolean, s: GoSlice): JSONValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind([original, patch]);
  let merged: JSONValue[];
  let order = patch;
  let server = original;
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') fail(`cannot merge lists without merge key for ${schemaName(schema)}`);
    order = mergeSliceWithSpecialElements(s, patch, mergeKey);
    server = s.view();
    mergeSliceWithoutSpecialElements(s, order, mergeKey, schema);
    merged = s.view();
  }
  const [patchItems, serverOnly] = mergeKey === '' ? partitionPrimitives(merged, order) : partitionMaps(merged, order, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, order, server, mergeKey, kind);
}

/** Handles `$patch` elements in `s` (the original, reduced or replaced); returns the rest of the patch. */
function mergeSliceWithSpecialElements(s: GoSlice, patch: JSONValue[], mergeKey: string): JSONValue[] {
  const plain: JSONValue[] = [];
  let replace = false;
  for (const v of patch) {
    const m = v as JSONObject;
    if (!has(m, directiveMarker)) {
      plain.push(v);
      continue;
    }
    switch (m[directiveMarker]) {
      case deleteDirective:
        if (!has(m, mergeKey)) errNoMergeKey(m, mergeKey);
        deleteMatchingEntries(s, mergeKey, m[mergeKey]);
        break;
      case replaceDirective:
        replace = true;
        break;
      case mergeDirective:
        fail('merging lists cannot yet be specified in the patch');
        break;
      default:
        errBadPatchType(m[directiveMarker], m);
    }
  }
  if (!replace) return plain;
  s.reset(plain);
  return [];
}

function findMapInSlice(list: JSONValue[], key: string, value: JSONValue): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isObject(v)) fail(`value for key ${i} is not a map`);
    if (has(v as JSONObject, key) && same((v as JSONObject)[key], value)) return i;
  }
  return -1;
}

function deleteMatchingEntries(s: GoSlice, mergeKey: string, value: JSONValue): void {
  for (let i = findMapInSlice(s.view(), mergeKey, value); i >= 0; i = findMapInSlice(s.view(), mergeKey, value)) s.deleteAt(i);
}

function mergeSliceWithoutSpecialElements(s: GoSlice, patch: JSONValue[], mergeKey: string, schema: SchemaView | undefined): void {
  for (const v of patch) {
    const m = v as JSONObject;
    if (!has(m, mergeKey)) errNoMergeKey(m, mergeKey);
    const i = findMapInSlice(s.view(), mergeKey, m[mergeKey]);
    if (i >= 0) s.set(i, mergeMap(s.get(i) as JSONObject, m, schema));
    else s.append(v);
  }
}

function deleteFromSlice(current: JSONValue[], toDelete: JSONValue[]): JSONValue[] {
  const del = new Set(toDelete);
  return current.filter((v) => !del.has(v));
}

/** upstream deduplicateScalars, including the order it leaves the list in. */
function deduplicateScalars(s: JSONValue[]): JSONValue[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (same(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function partitionPrimitives(original: JSONValue[], by: JSONValue[]): [JSONValue[], JSONValue[]] {
  const inPatch = new Set<JSONValue>(by.filter((v) => v === null || isScalar(v)));
  const patch: JSONValue[] = [];
  const serverOnly: JSONValue[] = [];
  for (const v of original) (inPatch.has(v) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

function partitionMaps(original: JSONValue[], by: JSONValue[], mergeKey: string): [JSONValue[], JSONValue[]] {
  const patch: JSONValue[] = [];
  const serverOnly: JSONValue[] = [];
  for (const v of original) {
    if (!isObject(v)) errBadArgType(MAP_TYPE, v);
    const m = v as JSONObject;
    if (!has(m, mergeKey)) errNoMergeKey(m, mergeKey);
    (findMapInSlice(by, mergeKey, m[mergeKey]) >= 0 ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

function indexIn(l: JSONValue[], v: JSONValue, mergeKey: string, kind: ElementKind): number {
  const val = (item: JSONValue): JSONValue => (kind === 'map' ? (isObject(item) ? (item[mergeKey] ?? null) : null) : item);
  const want = val(v);
  return l.findIndex((item) => same(val(item), want));
}

function normalizeSliceOrder(toSort: JSONValue[], order: JSONValue[], mergeKey: string, kind: ElementKind): JSONValue[] {
  let toDelete: JSONValue[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isObject(item)) errBadArgType(MAP_TYPE, item);
        if (!has(item as JSONObject, mergeKey)) errNoMergeKey(item, mergeKey);
      }
    }
    [toSort, toDelete] = extractToDeleteItems(toSort);
  }
  const keyed = toSort.map((v) => ({ v, i: indexIn(order, v, mergeKey, kind) }));
  keyed.sort((a, b) => (a.i >= 0 && b.i >= 0 ? a.i - b.i : 0));
  return [...keyed.map((k) => k.v), ...toDelete];
}

/** Interleaves server-only items into the patch items, keeping each list's relative order. */
function mergeSortedSlice(left: JSONValue[], right: JSONValue[], serverOrder: JSONValue[], mergeKey: string, kind: ElementKind): JSONValue[] {
  const out: JSONValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(patch: JSONValue[], serverOnly: JSONValue[], patchOrder: JSONValue[], serverOrder: JSONValue[], mergeKey: string, kind: ElementKind): JSONValue[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}
