// metadata.managedFields: decoding/encoding the entries (manager, operation Apply/Update,
// apiVersion, time, fieldsType FieldsV1, fieldsV1, subresource) and recording ownership for
// ordinary writes (create, update, patch) as kube-apiserver's field manager does
// (k8s.io/apimachinery pkg/util/managedfields/internal: managedfields.go, fieldmanager.go,
// skipnonapplied.go, capmanagers.go, buildmanagerinfo.go, managedfieldsupdater.go,
// stripmeta.go, structuredmerge.go; and structured-merge-diff merge/update.go Update).

import type { SchemaView } from '../../api/schema/view.js';
import type { ManagedFieldsEntry } from '../../api/types.js';
import { assertWriteDepth } from './depth.js';
import { FieldSet, fieldPE, path, type Path } from './fieldpath.js';
import { clone, deepEqual, goJSON, isObject, own, type JSONObject, type JSONValue } from './json.js';
import { zeroObjects } from './zeroobjects.js';
import { toFieldSet, type Comparison } from './typed.js';
import { compareForUpdate } from './updatecompare.js';
import { metaTime } from '../../api/metatime.js';

export type ManagedFieldsOperation = 'Apply' | 'Update';

/** One decoded managedFields entry. */
export interface ManagerFields {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  subresource: string;
  set: FieldSet;
  time?: string;
}

/** Decoded managedFields, keyed by manager identifier (managerIdentifier). */
export type Managed = Map<string, ManagerFields>;

/** kube's DefaultMaxUpdateManagers: older Update entries merge into "ancient-changes". */
export const MAX_UPDATE_MANAGERS = 10;

/** Fields nobody owns: kube's stripMetaManager set. */
const STRIP_SET = FieldSet.of(
  path('apiVersion'),
  path('kind'),
  path('metadata'),
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => path('metadata', f)),
);

/**
 * upstream BuildManagerIdentifier: the JSON of {manager, operation, apiVersion, subresource}
 * without time and fields; Apply managers leave out apiVersion.
 */
export function managerIdentifier(manager: string, operation: ManagedFieldsOperation, apiVersion: string, subresource = ''): string {
  // Every write asks for its manager's identifier and current-operation's: the few in use are
  // kept, by a key that tells any two argument lists apart (lengths before the free-form parts).
  const memoKey = `${manager.length}:${manager}${operation}${apiVersion.length}:${apiVersion}${subresource}`;
  let id = identifiers.get(memoKey);
  if (id === undefined) {
    const parts = [`"manager":${goJSON(manager)}`, `"operation":${goJSON(operation)}`];
    if (operation !== 'Apply' && apiVersion) parts.push(`"apiVersion":${goJSON(apiVersion)}`);
    if (subresource) parts.push(`"subresource":${goJSON(subresource)}`);
    id = '{' + parts.join(',') + '}';
    if (identifiers.size >= maxIdentifiers) identifiers.clear();
    identifiers.set(memoKey, id);
  }
  return id;
}

const identifiers = new Map<string, string>();
const maxIdentifiers = 1024;

/** kube-apiserver's managerOrUserAgent: the fieldManager, else the user agent up to its first "/". */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const ua = userAgent ?? '';
  const slash = ua.indexOf('/');
  return slash < 0 ? ua : ua.slice(0, slash);
}

/** RFC 3339 with seconds, as metav1.Time serialises. */
export function formatTime(now: Date | string | undefined): string {
  const d = now === undefined ? new Date() : typeof now === 'string' ? new Date(now) : now;
  // The text changes once a second, and writes come many a second: format each second once.
  const seconds = Math.floor(d.getTime() / 1000);
  if (seconds !== lastFormatted.seconds) lastFormatted = { seconds, text: metaTime(d) };
  return lastFormatted.text;
}

let lastFormatted = { seconds: NaN, text: '' };

function timeSeconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

export class ManagedFieldsDecodeError extends Error {}

/**
 * Decoded FieldsV1 by their JSON text: objects of one workload share their managers' field
 * sets, so an update decodes the creator's (large) set once, not on every write. Sets are
 * immutable, so sharing them is safe; the map is dropped when it grows past its bound.
 */
const decodedSets = new Map<string, FieldSet>();
const maxDecodedSets = 1024;

function decodeFieldsV1(fields: unknown): FieldSet {
  if (!isObject(fields)) return FieldSet.fromFieldsV1(fields ?? {});
  // A frozen encoding (the watch cache's objects, which every write starts from, freeze theirs
  // deep, one copy per distinct set) cannot have changed since it was decoded: known by identity,
  // it is not encoded again to be looked up.
  const frozen = Object.isFrozen(fields);
  if (frozen) {
    const known = decodedFrozen.get(fields);
    if (known) return known;
  }
  const text = JSON.stringify(fields);
  let set = decodedSets.get(text);
  if (!set) {
    set = FieldSet.fromFieldsV1(fields);
    if (decodedSets.size >= maxDecodedSets) decodedSets.clear();
    decodedSets.set(text, set);
  }
  if (frozen) decodedFrozen.set(fields, set);
  return set;
}

const decodedFrozen = new WeakMap<object, FieldSet>();

/** upstream DecodeManagedFields. @throws ManagedFieldsDecodeError */
export function decodeManagedFields(entries: unknown): Managed {
  const managed: Managed = new Map();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsDecodeError('managedFields must be a list');
  entries.forEach((raw: unknown, i) => {
    const e = (isObject(raw) ? raw : {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = decodeFieldsV1(e.fieldsV1);
    } catch (err) {
      throw new ManagedFieldsDecodeError(`error decoding versioned set from ${JSON.stringify(raw)}: error decoding set: ${(err as Error).message}`);
    }
    const subresource = e.subresource ?? '';
    const id = managerIdentifier(e.manager ?? '', e.operation, e.apiVersion, subresource);
    const m: ManagerFields = { manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource, set };
    if (e.time) m.time = e.time;
    managed.set(id, m);
  });
  return managed;
}

/** upstream encodeManagedFields: entries sorted by operation, time, manager, apiVersion, subresource. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const entries = [...managed.values()].map((m) => {
    const e: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time) e.time = m.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = encodedSet(m.set);
    if (m.subresource) e.subresource = m.subresource;
    return e;
  });
  if (entries.length < 2) return entries;
  const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      timeSeconds(p.time) - timeSeconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
}

/**
 * A set's FieldsV1, shared with an equal set encoded recently: the writes of one kind of client
 * (a scheduler's status write for each pod, a controller's for each object) record the same set
 * each time, and equals() answers sooner than emit() sorts and builds the encoding again. The
 * shared encodings are frozen.
 */
function encodedSet(set: FieldSet): JSONValue {
  if (set.encoded) return set.toFieldsV1();
  for (const r of recentlyEncoded) if (r.equals(set)) return set.shareEncoding(r);
  const fields = set.toFieldsV1();
  freezeDeep(fields);
  if (recentlyEncoded.length >= maxRecentlyEncoded) recentlyEncoded.shift();
  recentlyEncoded.push(set);
  return fields;
}

const recentlyEncoded: FieldSet[] = [];
const maxRecentlyEncoded = 8;

/** The managedFields of an object's metadata (undefined when absent). */
export function managedFieldsOf(obj: unknown): unknown {
  return isObject(obj) && isObject(obj.metadata) ? obj.metadata.managedFields : undefined;
}

/** A copy of the object without metadata.managedFields (RemoveObjectManagedFields). */
export function withoutManagedFields(obj: JSONObject): JSONObject {
  const out = clone(obj);
  if (isObject(out.metadata)) delete out.metadata.managedFields;
  return out;
}

/**
 * The object without metadata.managedFields, sharing everything else with `obj` (a new top
 * level and metadata only): for an Update, which reads its inputs and never changes them.
 */
function withoutManagedFieldsShallow(obj: JSONObject): JSONObject {
  if (!isObject(obj.metadata)) return { ...obj };
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** Sets (or, when empty, removes) metadata.managedFields in place. */
export function setManagedFields(obj: JSONObject, entries: ManagedFieldsEntry[]): void {
  if (entries.length === 0) {
    if (isObject(obj.metadata)) delete obj.metadata.managedFields;
    return;
  }
  if (!isObject(obj.metadata)) obj.metadata = {};
  (obj.metadata as JSONObject).managedFields = entries as unknown as JSONValue;
}

/** Fields a manager entry never keeps (stripMetaManager). */
export function stripMeta(managed: Managed, id: string): void {
  const m = managed.get(id);
  if (!m) return;
  const set = m.set.difference(STRIP_SET);
  if (set.empty()) managed.delete(id);
  else managed.set(id, { ...m, set });
}

/** Field paths (by field names) that a write through this endpoint never owns, e.g. [['status']]. */
export type ResetFields = readonly (readonly string[])[];

export function resetFieldSet(reset: ResetFields | undefined): FieldSet | undefined {
  if (!reset || reset.length === 0) return undefined;
  // The server passes the same few lists ([['status']], [['spec']]) with every write.
  let set = resetSets.get(reset);
  if (!set) {
    set = FieldSet.of(...reset.map((p): Path => p.map((f) => fieldPE(f))));
    resetSets.set(reset, set);
  }
  return set;
}

const resetSets = new WeakMap<ResetFields, FieldSet>();

export function filterReset(s: FieldSet, reset: FieldSet | undefined): FieldSet {
  return reset ? s.recursiveDifference(reset) : s;
}

export function filterComparison(c: Comparison, reset: FieldSet | undefined): Comparison {
  if (!reset) return c;
  return { added: filterReset(c.added, reset), modified: filterReset(c.modified, reset), removed: filterReset(c.removed, reset) };
}

/**
 * structured-merge-diff Updater.update: other managers lose the fields this write changes
 * (returned as conflicts) and the fields it removes. With force=false nothing is changed when
 * there are conflicts.
 */
export function removeChangedFromOthers(managed: Managed, cmp: Comparison, self: string, force: boolean): Map<string, FieldSet> {
  return removeFromOthers(managed, cmp.modified.union(cmp.added), cmp.removed, self, force);
}

/** removeChangedFromOthers with the comparison's added and modified as one set. */
function removeFromOthers(managed: Managed, changed: FieldSet, removed: FieldSet, self: string, force: boolean): Map<string, FieldSet> {
  const conflicts = new Map<string, FieldSet>();
  for (const [id, m] of managed) {
    if (id === self) continue;
    const c = m.set.intersection(changed);
    if (!c.empty()) conflicts.set(id, c);
  }
  if (!force && conflicts.size > 0) return conflicts;
  for (const [id, m] of [...managed]) {
    if (id === self) continue;
    let set = m.set;
    const c = conflicts.get(id);
    if (c) set = set.difference(c);
    if (!removed.empty()) set = set.difference(removed);
    if (set === m.set) continue;
    if (set.empty()) managed.delete(id);
    else managed.set(id, { ...m, set });
  }
  return conflicts;
}

/** capManagersManager: keeps at most `max` Update entries, merging the oldest into "ancient-changes". */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  let count = 0;
  for (const m of managed.values()) if (m.operation !== 'Apply') count++;
  if (count <= max) return;
  const updaters = [...managed.entries()].filter(([, m]) => m.operation !== 'Apply').map(([id]) => id);
  updaters.sort((a, b) => timeSeconds(managed.get(a)?.time) - timeSeconds(managed.get(b)?.time) || (a < b ? -1 : a > b ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.get(id)!;
    const version = vs.apiVersion;
    const bucket = managerIdentifier('ancient-changes', 'Update', version);
    const first = firstByVersion.get(version);
    if (first === undefined) {
      firstByVersion.set(version, id);
      continue;
    }
    if (!managed.has(bucket)) {
      const s = managed.get(first)!;
      managed.delete(first);
      managed.set(bucket, { ...s, manager: 'ancient-changes', operation: 'Update', subresource: '' });
    }
    const b = managed.get(bucket)!;
    managed.set(bucket, { ...b, set: vs.set.union(b.set), time: vs.time });
    managed.delete(id);
    length--;
  }
}

export interface UpdateOptions {
  /** The kind's schema (e.g. schemaView('io.k8s.api.core.v1.Pod')). */
  schema: SchemaView;
  /** The resource's group/version as written in apiVersion, e.g. "v1" or "apps/v1". */
  apiVersion: string;
  /** The time to record; defaults to now. */
  now?: Date | string;
  /** "status" etc. for subresource writes; "" (default) for the main resource. */
  subresource?: string;
  /** Fields this endpoint resets and nobody owns through it (e.g. [['status']] for pods). */
  resetFields?: ResetFields;
  /**
   * The kind's zero object as kube-apiserver converts an empty Go struct, which a create is
   * compared against (so fields that are always present, like a pod's spec, carry no "." of
   * their own). Defaults to DEFAULT_ZERO_OBJECT; the kind's from zeroobjects.ts.
   */
  zero?: JSONObject;
}

/** ToUnstructured of an empty object of most kinds: only ObjectMeta's creationTimestamp is not omitempty. */
export const DEFAULT_ZERO_OBJECT: JSONObject = { metadata: { creationTimestamp: null } };

/** An empty core/v1 Pod as the field manager reads it. */
export const POD_ZERO_OBJECT: JSONObject = zeroObjects['v1/Pod']!;

export function zeroObject(opts: { zero?: JSONObject }): JSONObject {
  return clone(opts.zero ?? DEFAULT_ZERO_OBJECT);
}

function isReset(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && (deepEqual(entries[0], {}) || entries[0] === null);
}

function decodeOrEmpty(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch {
    return new Map();
  }
}

/** decodeLiveOrNew: the request's managedFields when it sets valid ones, else the live object's. */
function decodeLiveOrNew(live: JSONObject | undefined, next: JSONObject, ignoreNew: boolean): Managed {
  if (ignoreNew) return decodeOrEmpty(managedFieldsOf(live));
  const requested = managedFieldsOf(next);
  if (isReset(requested)) return new Map();
  const fromNew = decodeOrEmpty(requested);
  return fromNew.size > 0 ? fromNew : decodeOrEmpty(managedFieldsOf(live));
}

/**
 * The Update half of structured-merge-diff's Updater, recording `id` as owner of what changed
 * from `liveObj` to `newObj`, both read as omitEmpty leaves them (compareForUpdate).
 */
export function structuredUpdate(liveObj: JSONObject, newObj: JSONObject, managed: Managed, id: string, info: Omit<ManagerFields, 'set'>, schema: SchemaView, reset: FieldSet | undefined): void {
  const { changed, removed } = compareForUpdate(liveObj, newObj, schema, reset);
  removeFromOthers(managed, changed, removed, id, true);
  const prev = managed.get(id)?.set ?? new FieldSet();
  // `changed` holds nothing under the reset fields already: only what the manager had is filtered.
  const set = filterReset(prev.difference(removed), reset).union(changed);
  if (set.empty()) managed.delete(id);
  else managed.set(id, withSet(info, set));
}

/**
 * `info` with `set` (and `time`, when given), as `{ ...info, set, time }` would make it: spelled
 * out, because V8 makes an object spread followed by new members microseconds slower.
 */
function withSet(info: Omit<ManagerFields, 'set'>, set: FieldSet, time = info.time): ManagerFields {
  const m: ManagerFields = { manager: info.manager, operation: info.operation, apiVersion: info.apiVersion, subresource: info.subresource, set };
  if (time !== undefined) m.time = time;
  return m;
}

/** The manager entry an Update by `manager` records. */
export function updateManagerInfo(manager: string, apiVersion: string, subresource = ''): { id: string; info: Omit<ManagerFields, 'set'> } {
  const name = manager || 'unknown';
  return { id: managerIdentifier(name, 'Update', apiVersion, subresource), info: { manager: name, operation: 'Update', apiVersion, subresource } };
}

/**
 * Records ownership for a non-apply write through managedFieldsUpdater → stripMeta → Update:
 * the fields that changed from `liveObj` to `newObj` move to `manager`, whose entry gets `now`.
 * Mutates `managed`.
 */
export function recordUpdate(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string, opts: UpdateOptions): void {
  const reset = resetFieldSet(opts.resetFields);
  const current = managerIdentifier('current-operation', 'Update', opts.apiVersion, opts.subresource ?? '');
  const { id, info } = updateManagerInfo(manager, opts.apiVersion, opts.subresource);
  structuredUpdate(liveObj, newObj, managed, current, { manager: 'current-operation', operation: 'Update', apiVersion: opts.apiVersion, subresource: opts.subresource ?? '' }, opts.schema, reset);
  stripMeta(managed, current);
  const vs = managed.get(current);
  if (!vs) return;
  managed.delete(current);
  const prev = managed.get(id);
  managed.set(id, withSet(info, prev ? vs.set.union(prev.set) : vs.set, formatTime(opts.now)));
}

/**
 * Records field ownership for an ordinary write (create, update, or a json/merge/strategic
 * patch) by `manager` with operation Update, and returns `next` with metadata.managedFields set,
 * as kube-apiserver's FieldManager.UpdateNoErrors does:
 *   - pass `old` undefined for a create: everything in the new object becomes the manager's
 *     (compared with opts.zero, the kind's empty object);
 *   - managedFields in `next` that decode replace the live ones (this is how kubectl's CSA→SSA
 *     migration json-patch rewrites ownership); `[]` resets them;
 *   - an existing object without managedFields (and with a uid) stays untracked;
 *   - at most 10 Update entries are kept.
 * Call it with the object as it will be stored (after defaulting). `next` is not modified.
 */
export function updateManagedFields(old: JSONObject | undefined, next: JSONObject, manager: string, operation: 'Update', opts: UpdateOptions): JSONObject {
  void operation;
  assertWriteDepth(old, next);
  const newObj = withoutManagedFieldsShallow(next);
  if (old === undefined && managedFieldsOf(next) === undefined) {
    // A create that brings no managedFields: the creator's entry is all there is, and its set
    // depends on the object alone (recordUpdate below gives the same, through `current`).
    const managed: Managed = new Map();
    const set = createdSet(newObj, opts);
    if (!set.empty()) {
      const { id, info } = updateManagerInfo(manager, opts.apiVersion, opts.subresource);
      managed.set(id, withSet(info, set, formatTime(opts.now)));
    }
    setManagedFields(newObj, encodeManagedFields(managed));
    return newObj;
  }
  const managed = decodeLiveOrNew(old, next, !!opts.subresource);
  if (managed.size === 0 && old !== undefined) {
    const uid = isObject(old.metadata) ? old.metadata.uid : undefined;
    if (typeof uid === 'string' && uid !== '') return newObj;
  }
  // Shallow copies: parts of `next` taken unchanged from `old` stay the same objects, and the
  // comparison skips them instead of walking the whole object on every write.
  // Read only, so a create compares with the kind's zero object itself, not a copy.
  const liveObj = old ? withoutManagedFieldsShallow(old) : (opts.zero ?? DEFAULT_ZERO_OBJECT);
  recordUpdate(liveObj, newObj, managed, manager, opts);
  capUpdateManagers(managed);
  setManagedFields(newObj, encodeManagedFields(managed));
  return newObj;
}

/**
 * What a create of `obj` (without managedFields) records for its manager: compareForUpdate
 * against the kind's zero object, less what the write resets and what nobody owns (stripMeta).
 *
 * That walk, with the set's sorted FieldsV1 encoding, was most of what managedFields cost a
 * create, and the objects of one template (pods of a bench or a ReplicaSet, a component's
 * events) differ in values the walk does not read: sets are remembered by createKey, which
 * keeps what it reads, compared as a Shape (sameShape) rather than built as text. The objects are JSON values (a decoded request as defaulted): an array
 * holding undefined, which JSON writes as null, is not one. Sets are immutable, and the
 * encoding a remembered one hands out is frozen.
 */
function createdSet(obj: JSONObject, opts: UpdateOptions): FieldSet {
  const zero = opts.zero ?? DEFAULT_ZERO_OBJECT;
  const reset = resetFieldSet(opts.resetFields);
  const memo = createMemo(opts.schema, zero, reset);
  const now = memo.calls++;
  const remember = now >= memo.skipUntil;
  let sig: string | undefined;
  if (remember) {
    sig = shapeSignature(obj);
    const bucket = memo.shapes.get(sig);
    if (bucket) {
      listTexts = undefined;
      for (let i = 0; i < bucket.length; i++) {
        const known = bucket[i]!;
        if (!sameShape(known.shape, obj, zero)) continue;
        // The shape last seen first: the pods of a bench or a workload come in runs.
        if (i > 0) {
          bucket.copyWithin(1, 0, i);
          bucket[0] = known;
        }
        memo.hits++;
        listTexts = undefined;
        return known.set;
      }
      listTexts = undefined;
    }
  }
  const set = compareForUpdate(zero, obj, opts.schema, reset).changed.difference(STRIP_SET);
  if (sig === undefined) return set;
  if (memo.size >= maxCreatedSets) {
    // Creates whose shapes seldom repeat (lists of items named each their own way) would pay
    // for the comparisons and the bound entries for nothing: after a full round of few hits,
    // the memo rests a while.
    if (memo.hits * 4 < maxCreatedSets) memo.skipUntil = now + restCalls;
    memo.shapes.clear();
    memo.size = 0;
    memo.hits = 0;
  }
  freezeDeep(set.toFieldsV1());
  let bucket = memo.shapes.get(sig);
  if (!bucket) memo.shapes.set(sig, (bucket = []));
  bucket.unshift({ shape: shapeOf(obj, zero), set });
  memo.size++;
  return set;
}

interface CreateMemo {
  zero: JSONObject;
  reset: FieldSet | undefined;
  /** Remembered sets by shapeSignature, each with the shape it was found for. */
  shapes: Map<string, { shape: Shape; set: FieldSet }[]>;
  size: number;
  calls: number;
  hits: number;
  skipUntil: number;
}

const maxCreatedSets = 256;
const restCalls = 4096;
const createMemos = new WeakMap<SchemaView, CreateMemo[]>();

function createMemo(schema: SchemaView, zero: JSONObject, reset: FieldSet | undefined): CreateMemo {
  let memos = createMemos.get(schema);
  if (!memos) createMemos.set(schema, (memos = []));
  for (const m of memos) if (m.zero === zero && m.reset === reset) return m;
  const m: CreateMemo = { zero, reset, shapes: new Map(), size: 0, calls: 0, hits: 0, skipUntil: 0 };
  memos.push(m);
  return m;
}

/**
 * Which bucket of remembered shapes an object's belongs in: its members' names, and how many
 * members each map among them holds. Objects of one createKey have one signature.
 */
function shapeSignature(obj: JSONObject): string {
  let sig = '';
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const v = obj[k];
    if (v === undefined) continue;
    sig += k;
    if (isObject(v)) {
      let n = 0;
      for (const j in v) if (Object.prototype.hasOwnProperty.call(v, j) && v[j] !== undefined) n++;
      sig += '=' + n;
    }
    sig += '\n';
  }
  return sig;
}

/**
 * What createKey reads of a value, kept to compare later objects with: a map's members (those
 * not holding undefined) in order, a list's JSON text, a scalar or null itself.
 */
export type Shape = ShapeMap | ShapeList | string | number | boolean | null;

class ShapeMap {
  constructor(
    readonly keys: string[],
    readonly members: Shape[],
  ) {}
}

class ShapeList {
  constructor(readonly text: string) {}
}

export function shapeOf(v: JSONValue, zero: JSONValue | undefined): Shape {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return new ShapeList(JSON.stringify(v));
  const z = isObject(zero) ? zero : undefined;
  const keys: string[] = [];
  const members: Shape[] = [];
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const m = v[k];
    if (m === undefined) continue;
    keys.push(k);
    members.push(shapeOf(m, z === undefined ? undefined : own(z, k)));
  }
  return new ShapeMap(keys, members);
}

/** The JSON texts of the lists one lookup compared, so that each is written once. */
let listTexts: Map<unknown, string> | undefined;

function listText(v: JSONValue[]): string {
  let t = listTexts?.get(v);
  if (t === undefined) (listTexts ??= new Map()).set(v, (t = JSON.stringify(v)));
  return t;
}

/** Whether createKey(v, zero) is createKey of the value `s` was taken from (shapeOf(value, zero)). */
export function sameShape(s: Shape, v: JSONValue, zero: JSONValue | undefined): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
      // '~=' for both, or the same type's tag for both.
      return v === zero ? s === zero : s !== zero && typeof s === typeof v;
  }
  if (v === null) return s === null;
  if (Array.isArray(v)) return s instanceof ShapeList && s.text === listText(v);
  if (!(s instanceof ShapeMap)) return false;
  const z = isObject(zero) ? zero : undefined;
  let i = 0;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const m = v[k];
    if (m === undefined) continue;
    if (i >= s.keys.length || s.keys[i] !== k || !sameShape(s.members[i]!, m, z === undefined ? undefined : own(z, k))) return false;
    i++;
  }
  return i === s.keys.length;
}

/**
 * The definition of when two creates share a remembered set (sameShape compares by it without
 * writing it out): the memo key of a create compared with the kind's zero object `zero`: the object's JSON with
 * each scalar that the walk only tells apart from the zero's value at its place written as
 * whether it is that value (`~=`) or else its type. What the walk (compareForUpdate, then
 * stripMeta) reads of the object, and so what decides the set:
 *   - members' names and order, members holding undefined being absent, maps and lists told by
 *     their type (kindOf reads the value's type and the schema's, never more for a map);
 *   - a scalar is a leaf whatever the schema: its path is marked unless it equals the zero's
 *     value there (equalOmitted of two scalars is ===), so only that equality counts (names,
 *     uids and times of one template's objects then make one key);
 *   - a list, by item keys, set members or as an atomic value, is kept as its JSON text whole;
 *   - a map where the zero holds a map is compared with it atomically when the schema says so
 *     (deepEqual of the two without empty members): the key still holds every member's name
 *     and, at the zero's members, whether each equals the zero's.
 */
export function createKey(v: JSONObject, zero: JSONValue | undefined): string {
  let key = '{';
  const z = isObject(zero) ? zero : undefined;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const m = v[k];
    if (m === undefined) continue;
    key += JSON.stringify(k) + ':' + memberKey(m, z === undefined ? undefined : own(z, k)) + ',';
  }
  return key + '}';
}

function memberKey(v: JSONValue, zero: JSONValue | undefined): string {
  switch (typeof v) {
    case 'string':
      return v === zero ? '~=' : '~s';
    case 'number':
      return v === zero ? '~=' : '~n';
    case 'boolean':
      return v === zero ? '~=' : '~b';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return JSON.stringify(v);
  return createKey(v, zero);
}

function freezeDeep(v: JSONValue): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  if (Array.isArray(v)) for (const c of v) freezeDeep(c);
  else for (const k in v) freezeDeep(v[k]);
  Object.freeze(v);
}

/**
 * The FieldsV1 encoding of the fields an object sets, e.g.
 * {"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}.
 * With stripMeta, leaves out what managedFields never record (apiVersion, kind, metadata.name, ...).
 */
export function fieldSetOf(obj: JSONValue, schema: SchemaView | undefined, options: { stripMeta?: boolean } = {}): JSONObject {
  let set = toFieldSet(obj, schema);
  if (options.stripMeta) set = set.difference(STRIP_SET);
  return set.toFieldsV1();
}
