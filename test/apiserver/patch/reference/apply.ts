// The field manager as it was before compareForUpdate (src/apiserver/patch/apply.ts at f21bc55),
// frozen, for test/apiserver/patch/managedfields-differential.test.ts only: do not edit or import elsewhere.

// Server-side apply (`application/apply-patch+yaml`, whose body kubectl sends as JSON), as
// kube-apiserver's field manager runs it: versionCheck → lastAppliedUpdater → lastAppliedManager
// → skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta →
// structured-merge-diff's Updater.Apply (k8s.io/apimachinery pkg/util/managedfields/internal,
// sigs.k8s.io/structured-merge-diff merge/update.go).
//
//   - The applied configuration is merged into the live object (maps by key, associative lists
//     by item key, everything else replaced) and its fields become the manager's (operation Apply).
//   - Fields the manager applied last time and no longer applies are removed from the object,
//     unless another manager owns them (prune, addBackOwnedItems, addBackDanglingItems).
//   - A field another manager owns that this apply changes is a conflict; with force it changes
//     hands instead. Fields an apply removes are dropped from every other manager.
//   - For manager "kubectl", conflicts on fields whose live value still equals the
//     last-applied-configuration annotation are forced (the CSA→SSA upgrade path), and that
//     annotation, when present, is rewritten to the applied configuration.
//   - An object with no managedFields first gets a "before-first-apply" Update entry owning
//     everything it holds.

import type { SchemaView } from '../../../../src/api/schema/view.js';
import type { ManagedFieldsEntry, StatusCause } from '../../../../src/api/types.js';
import { assertPatchDepth } from './depth.js';
import { ApplyBadRequestError, ApplyConflictError, ApplyInternalError, PatchError, type ApplyConflict } from '../../../../src/apiserver/patch/errors.js';
import { FieldSet, pathString, type Path } from './fieldpath.js';
import { clone, compareStrings, deepEqual, goJSON, goQuote, isObject, type JSONObject, type JSONValue } from '../../../../src/apiserver/patch/json.js';
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  filterComparison,
  filterReset,
  formatTime,
  managedFieldsOf,
  managerIdentifier,
  recordUpdate,
  removeChangedFromOthers,
  resetFieldSet,
  setManagedFields,
  stripMeta,
  withoutManagedFields,
  zeroObject,
  type Managed,
  type ResetFields,
} from './managedfields.js';
import { compareTyped, ensureNamedFieldsAreMembers, mergeTyped, removeItems, stripNulls, toFieldSet, validateTyped } from './typed.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** apimachinery TotalAnnotationSizeLimitB. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export interface ApplyOptions {
  /** The fieldManager query parameter (required for apply; kubectl sends "kubectl"). */
  manager: string;
  /** The force query parameter (kubectl --force-conflicts). */
  force?: boolean;
  /** The kind's schema. */
  schema: SchemaView;
  /** The resource's apiVersion ("v1", "apps/v1"); the applied object must carry the same. */
  apiVersion: string;
  /** The resource's kind; when given the applied object must carry the same. */
  kind?: string;
  /** The time to record; defaults to now. */
  now?: Date | string;
  /** "status" etc. for subresource applies; "" (default) for the main resource. */
  subresource?: string;
  /** Fields this endpoint resets and nobody owns through it (e.g. [['status']] for pods). */
  resetFields?: ResetFields;
  /** The kind's zero object (see UpdateOptions.zero): the live object of an apply that creates. */
  zero?: JSONObject;
}

export interface ApplySuccess {
  /** The object to store: live merged with the applied configuration, with managedFields. */
  object: JSONObject;
  /** The object's new metadata.managedFields. */
  managedFields: ManagedFieldsEntry[];
  /** False when the apply changed nothing but (possibly) ownership. */
  changed: boolean;
  conflicts?: undefined;
}

export interface ApplyConflicts {
  /** Fields other managers own with a different value; answer with applyConflictError(conflicts). */
  conflicts: ApplyConflict[];
  object?: undefined;
}

export type ApplyResult = ApplySuccess | ApplyConflicts;

/**
 * An applied configuration that does not fit the schema: a list item without keys or with a
 * repeated one, a list or map where the schema has another type. Upstream answers 500 (the
 * error is not a Status); it is the client's mistake, so 400 BadRequest with upstream's text,
 * as kubernetes/kubernetes#139255 proposes.
 */
export class ApplyTypedObjectError extends PatchError {
  readonly code = 400;
  readonly reason = 'BadRequest';
}

function gvkString(obj: JSONObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const parts = apiVersion.split('/');
  const [group, version] = parts.length === 2 ? parts : parts.length === 1 ? ['', parts[0]] : ['', ''];
  return `${group}/${version}, Kind=${kind}`;
}

function objectRef(obj: JSONObject): string {
  const md = isObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof md.namespace === 'string' ? md.namespace : '';
  const name = typeof md.name === 'string' ? md.name : '';
  return `${ns}/${name}; ${gvkString(obj)}`;
}

/** upstream printManager for a conflict's manager. */
function printManager(c: ApplyConflict): string {
  let s = goQuote(c.manager);
  if (c.subresource) s += ` with subresource ${goQuote(c.subresource)}`;
  if (c.operation === 'Update') s += ` using ${c.apiVersion}`;
  return s;
}

/**
 * The Status message of an apply conflict, exactly as kube-apiserver words it:
 * `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.containers[name="nginx"].image`, or
 * `Apply failed with 2 conflicts: conflicts with "m" using v1:\n- .a\n- .b` (grouped by manager).
 */
export function conflictStatusMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0])}: ${conflicts[0].field}`;
  const groups = new Map<string, { c: ApplyConflict; fields: string[] }>();
  for (const c of conflicts) {
    const id = managerIdentifier(c.manager, c.operation, c.apiVersion, c.subresource);
    const g = groups.get(id);
    if (g) g.fields.push(c.field);
    else groups.set(id, { c, fields: [c.field] });
  }
  const lines: string[] = [];
  for (const id of [...groups.keys()].sort(compareStrings)) {
    const g = groups.get(id)!;
    lines.push(`conflicts with ${printManager(g.c)}:`);
    for (const f of g.fields) lines.push(`- ${f}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The Status causes of an apply conflict: one FieldManagerConflict per field. */
export function conflictCauses(conflicts: readonly ApplyConflict[]): StatusCause[] {
  return conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c)}`, field: c.field }));
}

/** The 409 error to answer an apply conflict with. */
export function applyConflictError(conflicts: ApplyConflict[]): ApplyConflictError {
  return new ApplyConflictError(conflicts, conflictStatusMessage(conflicts), conflictCauses(conflicts));
}

function conflictList(managed: Managed, sets: Map<string, FieldSet>): { conflict: ApplyConflict; path: Path }[] {
  const out: { conflict: ApplyConflict; path: Path }[] = [];
  for (const id of [...sets.keys()].sort(compareStrings)) {
    const m = managed.get(id)!;
    for (const p of sets.get(id)!.paths()) {
      out.push({ conflict: { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, subresource: m.subresource, field: pathString(p) }, path: p });
    }
  }
  return out;
}

interface Ctx {
  live: JSONObject;
  config: JSONObject;
  opts: ApplyOptions;
  reset: FieldSet | undefined;
}

/** structured-merge-diff Updater.prune and its add-back steps. */
function prune(merged: JSONObject, managed: Managed, lastSet: FieldSet | undefined, schema: SchemaView): JSONObject {
  if (!lastSet || lastSet.empty()) return merged;
  const enf = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const fieldsOf = (v: JSONValue): FieldSet => enf(toFieldSet(v, schema));
  const remove = (s: FieldSet): JSONObject => {
    const r = removeItems(merged, s, schema);
    return isObject(r) ? r : {};
  };
  const last = enf(lastSet);
  let pruned = remove(last);
  let owned = new FieldSet();
  for (const m of managed.values()) owned = owned.union(m.set);
  const mergedSet = fieldsOf(merged);
  pruned = remove(mergedSet.difference(fieldsOf(pruned).union(enf(owned))));
  return remove(mergedSet.difference(fieldsOf(pruned)).intersection(last));
}

type Inner = { conflicts: { conflict: ApplyConflict; path: Path }[] } | { object: JSONObject; managed: Managed; changed: boolean };

function applyOnce(ctx: Ctx, initial: Managed, force: boolean): Inner {
  const { live, config, opts, reset } = ctx;
  const managed: Managed = new Map(initial);
  const subresource = opts.subresource ?? '';
  if (managed.size === 0) {
    recordUpdate(zeroObject(opts), live, managed, 'before-first-apply', { schema: opts.schema, apiVersion: opts.apiVersion, now: opts.now, subresource, resetFields: opts.resetFields });
    capUpdateManagers(managed);
  }
  const id = managerIdentifier(opts.manager, 'Apply', opts.apiVersion, subresource);
  const previous = managed.get(id);
  let merged = mergeTyped(live, clone(config), opts.schema) as JSONObject;
  const set = filterReset(toFieldSet(config, opts.schema), reset);
  managed.set(id, { manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion, subresource, set, ...(previous?.time ? { time: previous.time } : {}) });
  merged = prune(merged, managed, previous?.set, opts.schema);
  const cmp = filterComparison(compareTyped(live, merged, opts.schema), reset);
  const conflicts = removeChangedFromOthers(managed, cmp, id, force);
  if (!force && conflicts.size > 0) return { conflicts: conflictList(managed, conflicts) };
  stripMeta(managed, id);
  const changed = !deepEqual(live, merged);
  const entry = managed.get(id);
  if (changed && entry) managed.set(id, { ...entry, time: formatTime(opts.now) });
  return { object: changed ? merged : clone(live), managed, changed };
}

/** lastAppliedManager: the last-applied fields whose live values still match the annotation. */
function allowedFromLastApplied(ctx: Ctx): FieldSet | undefined {
  const md = isObject(ctx.live.metadata) ? ctx.live.metadata : undefined;
  const annotations = md && isObject(md.annotations) ? md.annotations : undefined;
  const raw = annotations?.[LAST_APPLIED_ANNOTATION];
  if (typeof raw !== 'string' || raw === '') return undefined;
  let last: unknown;
  try {
    last = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(last) || last.apiVersion !== ctx.opts.apiVersion) return undefined;
  if (validateTyped(last, ctx.opts.schema).length > 0) return undefined;
  const cmp = compareTyped(last, ctx.live, ctx.opts.schema);
  return toFieldSet(last, ctx.opts.schema).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** lastAppliedUpdater's buildLastApplied: the applied object without the annotation, as Go encodes it. */
function buildLastApplied(config: JSONObject): string {
  const obj = clone(config);
  if (isObject(obj.metadata) && isObject(obj.metadata.annotations)) delete obj.metadata.annotations[LAST_APPLIED_ANNOTATION];
  return goJSON(obj) + '\n';
}

function setLastApplied(obj: JSONObject, value: string): void {
  if (!isObject(obj.metadata)) obj.metadata = {};
  const md = obj.metadata as JSONObject;
  if (!isObject(md.annotations)) md.annotations = {};
  const annotations = md.annotations as JSONObject;
  annotations[LAST_APPLIED_ANNOTATION] = value;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : '');
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
}

function lastAppliedOf(obj: JSONObject): unknown {
  const md = isObject(obj.metadata) ? obj.metadata : undefined;
  return md && isObject(md.annotations) ? md.annotations[LAST_APPLIED_ANNOTATION] : undefined;
}

function hasLastApplied(obj: JSONObject): boolean {
  const v = lastAppliedOf(obj);
  return typeof v === 'string' && v.length > 0;
}

/**
 * Server-side apply of `applied` (the request body, parsed) to `live` (undefined when the
 * object does not exist yet: the result is then the object to create). Returns the object to
 * store with its managedFields, or the conflicts (answer 409 with applyConflictError).
 * The caller still defaults and validates the result, and checks preconditions it carries
 * (e.g. metadata.resourceVersion).
 * @throws ApplyBadRequestError (400) for a wrong apiVersion/kind or managedFields in `applied`;
 *         ApplyTypedObjectError (400) for a configuration that does not fit the schema;
 *         ApplyInternalError (500) when the live managedFields do not decode.
 */
export function applyPatch(live: JSONObject | undefined, applied: unknown, opts: ApplyOptions): ApplyResult {
  assertPatchDepth(live, applied);
  if (!isObject(applied)) {
    const t = Array.isArray(applied) ? 'array' : applied === null ? 'null' : typeof applied;
    // applyPatcher's yaml.Unmarshal into map[string]interface{} (sigs.k8s.io/yaml wraps the json error).
    throw new ApplyBadRequestError(`error decoding YAML: error unmarshaling JSON: json: cannot unmarshal ${t} into Go value of type map[string]interface {}`);
  }
  if (applied.apiVersion !== opts.apiVersion || (opts.kind !== undefined && applied.kind !== opts.kind)) {
    throw new ApplyBadRequestError(`invalid object type: ${gvkString(applied)}`);
  }
  if (isObject(applied.metadata) && applied.metadata.managedFields !== undefined && applied.metadata.managedFields !== null) {
    throw new ApplyBadRequestError('metadata.managedFields must be nil');
  }
  const errs = validateTyped(applied, opts.schema);
  if (errs.length > 0) {
    throw new ApplyTypedObjectError(`failed to create typed patch object (${objectRef(applied)}): ${errs.length === 1 ? errs[0] : 'errors:\n  ' + errs.join('\n  ')}`);
  }
  let managed: Managed;
  try {
    managed = decodeManagedFields(managedFieldsOf(live));
  } catch (e) {
    throw new ApplyInternalError(`failed to decode managed fields: ${(e as Error).message}`);
  }
  const ctx: Ctx = { live: live ? withoutManagedFields(live) : zeroObject(opts), config: clone(applied), opts, reset: resetFieldSet(opts.resetFields) };

  let r = applyOnce(ctx, managed, !!opts.force);
  if ('conflicts' in r && opts.manager === 'kubectl') {
    const allowed = allowedFromLastApplied(ctx);
    if (allowed) {
      const remaining = r.conflicts.filter((c) => !allowed.has(c.path));
      r = remaining.length === 0 ? applyOnce(ctx, managed, true) : { conflicts: remaining };
    }
  }
  if ('conflicts' in r) return { conflicts: r.conflicts.map((c) => c.conflict) };

  const object = r.object;
  const managedFields = encodeManagedFields(r.managed);
  setManagedFields(object, managedFields);
  let changed = r.changed;
  if (opts.manager === 'kubectl' && hasLastApplied(object)) {
    const before = lastAppliedOf(object);
    setLastApplied(object, buildLastApplied(ctx.config));
    changed ||= lastAppliedOf(object) !== before;
  }
  return { object: stripNulls(object), managedFields, changed };
}
