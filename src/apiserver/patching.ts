// PATCH for every resource (merge, JSON, strategic merge, server-side apply) and field
// ownership (metadata.managedFields) for every write, on top of the patch engines.

import { defaultPod } from '../api/defaults.js';
import { queryBool } from '../api/queryparams.js';
import { kindSchemaName, schemaView, type SchemaView } from '../api/schema/index.js';
import type { KubeObject, Pod } from '../api/types.js';
import {
  applyConflictError,
  applyJSONPatch,
  applyMergePatch,
  applyPatch,
  applyStrategicMergePatch,
  assertPatchDepth,
  checkPatchedTypes,
  decodePatchBody,
  managerOrUserAgent,
  PatchDepthError,
  PatchError,
  DEFAULT_ZERO_OBJECT,
  resourceVersionConflicts,
  updateManagedFields,
  zeroNullMapValues,
  zeroObjects,
  type JSONObject,
  type ResetFields,
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
} from './patch/index.js';
import { decodeStored } from './objects.js';
import type { Api, RequestInfo } from './rest.js';
import type { ResourcePath } from './request.js';
import { groupVersion, type ResourceDef } from './resources.js';
import { statusErrors, StatusError } from './status.js';

const mergePatch = MERGE_PATCH;
const jsonPatch = JSON_PATCH;
const strategicPatch = STRATEGIC_MERGE_PATCH;
const applyPatchType = APPLY_PATCH;
const applyCBOR = 'application/apply-patch+cbor';

const views = new Map<string, SchemaView | undefined>();

export function schemaOf(def: ResourceDef): SchemaView | undefined {
  const key = `${def.group}/${def.version}/${def.kind}`;
  if (!views.has(key)) {
    const name = kindSchemaName({ group: def.group, version: def.version, kind: def.kind });
    views.set(key, name ? schemaView(name) : undefined);
  }
  return views.get(key);
}

export function fromPatchError(e: unknown): never {
  if (e instanceof PatchError) throw new StatusError(e.toStatus());
  // A stack overflow is a value nested too deep for the engines: the client's, bounded at decode.
  if (e instanceof RangeError && /call stack/i.test(e.message)) throw new StatusError(new PatchDepthError("invalid character '{' exceeded max depth").toStatus());
  throw e;
}

// Writes to the main resource do not own status, and status writes do not own spec. Shared
// lists: the field manager keeps the set it makes of each.
const resetStatus: ResetFields = [['status']];
const resetSpec: ResetFields = [['spec']];

interface Ownership {
  resetFields?: ResetFields;
  zero?: JSONObject;
}

/** ownershipOptions' answers by resource and subresource: every write asks. */
const ownerships = new WeakMap<ResourceDef, Map<string, Ownership>>();

/** What a write through `subresource` neither owns nor may touch, and the kind's empty object. */
function ownershipOptions(def: ResourceDef, subresource?: string): Ownership {
  let bySubresource = ownerships.get(def);
  if (!bySubresource) ownerships.set(def, (bySubresource = new Map()));
  let o = bySubresource.get(subresource ?? '');
  if (!o) {
    o = {
      ...(def.subresources.some((s) => s.name === 'status') ? { resetFields: subresource === 'status' ? resetSpec : resetStatus } : {}),
      zero: zeroObjects[`${groupVersion(def)}/${def.kind}`] ?? DEFAULT_ZERO_OBJECT,
    };
    bySubresource.set(subresource ?? '', o);
  }
  return o;
}

/** Records an ordinary write (create, update, non-apply patch) in metadata.managedFields. */
export function trackUpdate(def: ResourceDef, old: KubeObject | undefined, next: KubeObject, req: RequestInfo, subresource?: string): KubeObject {
  if (req.managedFieldsDone) return next;
  const schema = schemaOf(def);
  if (!schema) return next;
  const manager = managerOrUserAgent(req.fieldManager, req.userAgent);
  try {
    return updateManagedFields(old as JSONObject | undefined, next as JSONObject, manager, 'Update', {
      schema,
      apiVersion: groupVersion(def),
      // The scale subresource owns what it writes (spec.replicas) under its own name, as upstream's scale field manager.
      subresource: subresource === 'status' || subresource === 'scale' || subresource === 'ephemeralcontainers' ? subresource : '',
      ...ownershipOptions(def, subresource),
    }) as KubeObject;
  } catch (e) {
    fromPatchError(e);
  }
}

/**
 * How often a PATCH without a resourceVersion is applied again after losing a race. Upstream's
 * GuaranteedUpdate retries until it wins; every lost race here means another write committed
 * (each retry waits for the turn that commits it), so n writers of one object all get through
 * in n turns. The bound only stops a loop that would never end.
 */
const maxPatchAttempts = 1000;

/** The handler's PATCH: read, patch, write with compare-and-swap, retry on a lost race. */
export async function patchResource(
  api: Api,
  def: ResourceDef,
  path: ResourcePath,
  type: string,
  body: Buffer,
  req: RequestInfo,
  query: URLSearchParams,
): Promise<{ obj: KubeObject; created: boolean }> {
  if (![mergePatch, jsonPatch, strategicPatch, applyPatchType].includes(type)) {
    if (type === applyCBOR) throw statusErrors.unsupportedMediaType(type);
    throw statusErrors.unsupportedMediaType(type);
  }
  const name = path.name!;
  const ns = path.namespace;
  const schema = schemaOf(def);
  let patch: unknown;
  try {
    patch = decodePatchBody(body, type);
  } catch (e) {
    fromPatchError(e);
  }
  const force = queryBool(query.get('force'));
  for (let attempt = 0; attempt < maxPatchAttempts; attempt++) {
    const kv = await api.getKV(def, ns, name);
    if (!kv) {
      if (type !== applyPatchType) throw statusErrors.notFound({ group: def.group, resource: def.resource }, name);
      if (!schema) throw statusErrors.methodNotSupported({ group: def.group, resource: def.resource }, 'apply');
      let result;
      try {
        result = applyPatch(undefined, patch, { manager: req.fieldManager!, force, schema, apiVersion: groupVersion(def), kind: def.kind, now: api.now(), ...ownershipOptions(def) });
        if (result.object) checkPatchedObject(def, result.object, patch, type, name, req);
      } catch (e) {
        if (e instanceof StatusError) throw e;
        fromPatchError(e);
      }
      if (result.conflicts) throw new StatusError(applyConflictError(result.conflicts).toStatus());
      const created = await api.create(def, ns, result.object as KubeObject, { ...req, managedFieldsDone: true });
      return { obj: created, created: true };
    }
    const stored = decodeStored(kv);
    // A version served by conversion is patched in its own form (Api.update converts it back).
    const live = (def.convert ? def.convert.fromStorage(stored) : stored) as JSONObject;
    let next: JSONObject;
    try {
      switch (type) {
        case mergePatch:
          next = applyMergePatch(live, patch) as JSONObject;
          break;
        case jsonPatch:
          next = applyJSONPatch(live, patch) as JSONObject;
          if (resourceVersionConflicts(live, next)) throw statusErrors.modified({ group: def.group, resource: def.resource }, name);
          break;
        case strategicPatch:
          next = applyStrategicMergePatch(live, patch, schema);
          break;
        default: {
          const r = applyPatch(live, patch, { manager: req.fieldManager!, force, schema: schema!, apiVersion: groupVersion(def), kind: def.kind, now: api.now(), subresource: path.subresource ?? '', ...ownershipOptions(def, path.subresource) });
          if (r.conflicts) throw new StatusError(applyConflictError(r.conflicts).toStatus());
          next = r.object;
        }
      }
      if (isRecord(next)) checkPatchedObject(def, next, patch, type, name, req);
    } catch (e) {
      if (e instanceof StatusError) throw e;
      fromPatchError(e);
    }
    if (next === null || typeof next !== 'object' || Array.isArray(next)) throw statusErrors.badRequest('the patch must leave an object');
    // A patch that names a resourceVersion is a precondition; otherwise the write is guarded by
    // the version just read, and a lost race is retried.
    const explicitRV = isRecord(next.metadata) && typeof next.metadata.resourceVersion === 'string' && next.metadata.resourceVersion !== String(kv.modRevision);
    if (explicitRV) throw statusErrors.modified({ group: def.group, resource: def.resource }, name);
    const candidate = defaultPatched(api, def, next, path.subresource) as KubeObject;
    candidate.metadata = { ...(candidate.metadata ?? {}), resourceVersion: String(kv.modRevision) };
    try {
      const obj = await api.update(def, ns, name, candidate, { ...req, managedFieldsDone: type === applyPatchType }, path.subresource);
      return { obj, created: false };
    } catch (e) {
      if (e instanceof StatusError && e.code === 409 && e.status.reason === 'Conflict' && !String(e.status.message).startsWith('Apply failed')) {
        // The read above sees the store's open group (writes of this turn, not yet committed),
        // the update's check the watch cache's committed state: until the group commits (at the
        // end of this turn) every attempt would lose again. So the retry waits for that turn.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      throw e;
    }
  }
  throw statusErrors.modified({ group: def.group, resource: def.resource }, name);
}

/**
 * What kube-apiserver checks of a patched object before storing it: it decodes into the kind's
 * type (422 on field `patch`), and its name is the URL's (patcher.applyPatch's checkName; a
 * root `$patch: replace|delete` leaves no name).
 */
function checkPatchedObject(def: ResourceDef, next: JSONObject, patch: unknown, type: string, name: string, req: RequestInfo): void {
  assertPatchDepth(next);
  const schemaName = kindSchemaName({ group: def.group, version: def.version, kind: def.kind });
  if (schemaName) req.warnings.push(...checkPatchedTypes(next, patch, type, schemaName, req.fieldValidation));
  zeroNullMapValues(next, schemaOf(def));
  const objName = isRecord(next.metadata) ? next.metadata.name : undefined;
  if (objName !== name) {
    throw statusErrors.badRequest(`the name of the object (${typeof objName === 'string' ? objName : ''}) does not match the name on the URL (${name})`);
  }
}

/**
 * A patched object is defaulted again, as kube-apiserver's decode (JSON/merge), applyPatchToObject
 * (strategic) and the field manager's Apply (objectDefaulter.Default) do: a field an apply prunes,
 * or a patch removes, that has a default gets it back instead of reading as a spec change (after
 * kubectl's CSA→SSA migration, kubectl owns the defaulted fields its manifest does not set).
 */
function defaultPatched(api: Api, def: ResourceDef, next: JSONObject, subresource: string | undefined): JSONObject {
  if (def.resource !== 'pods' || subresource) return next;
  return defaultPod(next as unknown as Pod, { gates: api.gates }) as unknown as JSONObject;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
