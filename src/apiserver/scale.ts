// The `scale` subresource of deployments, replicasets and statefulsets (pkg/registry/apps/*/storage
// ScaleREST): an autoscaling/v1 Scale read from the object (spec.replicas, status.replicas and
// the selector as a label query string), and written back as spec.replicas through the kind's
// own strategy, so a scale is a spec write with its generation bump and validation. GET, PUT
// and PATCH (merge, JSON and strategic merge patches of the Scale), as `kubectl scale` and the
// autoscalers use it. A resourceVersion in the Scale is a precondition; without one a lost race
// is retried.

import type { IncomingMessage } from 'node:http';
import { cannotBeHandled, decodeObject, kindSchemaName, schemaView, type GroupVersionKind } from '../api/schema/index.js';
import type { KubeObject, LabelSelector, Scale } from '../api/types.js';
import { validateScale } from '../api/validation/index.js';
import { decodeStored } from './objects.js';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch, decodePatchBody, JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, type JSONObject } from './patch/index.js';
import { fromPatchError } from './patching.js';
import type { Api, RequestInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors, StatusError } from './status.js';
import type { SubresourceHandler } from './subresources.js';
import { negotiateOutput, tableIncludeObject } from './negotiate.js';
import { rememberOutput } from './responsewriter.js';
import { formatLabelSelector, toTable } from './tables.js';

const scaleGVK: GroupVersionKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
const maxAttempts = 8;

type Scalable = KubeObject & { spec?: { replicas?: number; selector?: LabelSelector }; status?: { replicas?: number } };

/** labels.Selector.String() of metav1.LabelSelectorAsSelector: requirements sorted by key, "" when empty. */
function selectorString(sel: LabelSelector | undefined): string {
  const s = formatLabelSelector(sel);
  return s === '<none>' ? '' : s;
}

/** scaleFromDeployment (and its ReplicaSet and StatefulSet twins): the v1 Scale of an object. */
export function scaleOf(obj: Scalable): Scale {
  const m = obj.metadata ?? {};
  const replicas = obj.spec?.replicas ?? 0;
  const selector = selectorString(obj.spec?.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    // ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: obj.status?.replicas ?? 0, ...(selector ? { selector } : {}) },
  };
}

/** The Scale a PUT carries, decoded as the create handler decodes a body. */
async function scaleBody(req: IncomingMessage, info: RequestInfo): Promise<Scale> {
  const what = cannotBeHandled(scaleGVK);
  const raw = decodeBody(await readBody(req), mediaType(req), what);
  if (!isObject(raw)) throw statusErrors.badRequest(`${what}: the body must be a JSON object`);
  if (raw.kind !== undefined && raw.kind !== 'Scale') throw statusErrors.badRequest(`${what}: the kind of the object (${String(raw.kind)}) does not match the kind of the request (Scale)`);
  if (raw.apiVersion !== undefined && raw.apiVersion !== 'autoscaling/v1') {
    throw statusErrors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (autoscaling/v1)`);
  }
  const decoded = decodeObject(raw, scaleGVK, info.fieldValidation);
  if (!decoded.ok) throw statusErrors.badRequest(decoded.message);
  info.warnings.push(...decoded.warnings);
  return decoded.object as unknown as Scale;
}

let scaleView: ReturnType<typeof schemaView> | undefined;

/** The Scale after a PATCH of the current one. */
function patchScale(current: Scale, type: string, patch: unknown): Scale {
  try {
    switch (type) {
      case MERGE_PATCH:
        return applyMergePatch(current, patch) as unknown as Scale;
      case JSON_PATCH:
        return applyJSONPatch(current, patch) as unknown as Scale;
      default:
        scaleView ??= schemaView(kindSchemaName(scaleGVK)!);
        return applyStrategicMergePatch(current, patch, scaleView) as unknown as Scale;
    }
  } catch (e) {
    if (e instanceof StatusError) throw e;
    fromPatchError(e);
  }
}

/**
 * scaleUpdatedObjectInfo: reads the object, asks `next` for the new Scale, validates it, and
 * writes spec.replicas through the kind's strategy. Returns the Scale of the stored object.
 */
export async function writeScale(api: Api, def: ResourceDef, namespace: string | undefined, name: string, info: RequestInfo, next: (current: Scale) => Scale): Promise<Scale> {
  const gr = { group: def.group, resource: def.resource };
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const kv = await api.getKV(def, namespace, name);
    if (!kv) throw statusErrors.notFound(gr, name);
    const obj = decodeStored(kv) as Scalable;
    const current = scaleOf({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(kv.modRevision) } });
    const scale = next(current);
    if (!isObject(scale)) throw statusErrors.badRequest('the patch must leave an object');
    const scaleName = scale.metadata?.name;
    if (scaleName !== undefined && scaleName !== '' && scaleName !== name) {
      throw statusErrors.badRequest(`the name of the object (${scaleName}) does not match the name on the URL (${name})`);
    }
    // As the update handler does for any body: the namespace comes from the request.
    const ns = scale.metadata?.namespace;
    if (ns !== undefined && ns !== '' && ns !== namespace) throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    scale.metadata = { ...(scale.metadata ?? {}), namespace };
    const errs = validateScale(scale);
    if (errs.length) throw statusErrors.invalid('Scale', 'autoscaling', name, errs);
    const wantRV = scale.metadata?.resourceVersion;
    const precondition = wantRV !== undefined && wantRV !== '' && wantRV !== current.metadata.resourceVersion;
    if (precondition) throw statusErrors.modified(gr, name);
    const updated = { ...obj, spec: { ...(obj.spec ?? {}), replicas: scale.spec?.replicas ?? 0 } } as Scalable;
    updated.metadata = { ...obj.metadata, resourceVersion: String(kv.modRevision) };
    try {
      return scaleOf((await api.update(def, namespace, name, updated, info, 'scale')) as Scalable);
    } catch (e) {
      // A write that raced another is tried again on the new object, unless the client pinned a version.
      const pinned = wantRV !== undefined && wantRV !== '';
      if (e instanceof StatusError && e.code === 409 && e.status.reason === 'Conflict' && !pinned) continue;
      throw e;
    }
  }
  throw statusErrors.modified(gr, name);
}

export const scaleHandler: SubresourceHandler = async (api, def, path, req, res, info, query) => {
  const gr = { group: def.group, resource: def.resource };
  const name = path.name!;
  switch (req.method) {
    case 'GET': {
      const obj = (await api.get(def, path.namespace, name)) as Scalable;
      const scale = scaleOf(obj);
      // ScaleREST converts to a Table with printScale when asked (kubectl get --subresource=scale).
      const media = negotiateOutput(req.headersDistinct['accept']?.[0], 'resource');
      if (media?.convert?.kind === 'Table') {
        rememberOutput(req, media);
        const table = toTable('scale', [scale as unknown as KubeObject], { include: tableIncludeObject(query), now: api.now().getTime(), resourceVersion: scale.metadata?.resourceVersion, apiVersion: media.convert.apiVersion });
        return sendJSON(res, 200, table, info.warnings);
      }
      return sendJSON(res, 200, scale, info.warnings);
    }
    case 'PUT': {
      const body = await scaleBody(req, info);
      return sendJSON(res, 200, await writeScale(api, def, path.namespace, name, info, () => body), info.warnings);
    }
    case 'PATCH': {
      const type = mediaType(req);
      if (![MERGE_PATCH, JSON_PATCH, STRATEGIC_MERGE_PATCH].includes(type)) throw statusErrors.unsupportedMediaType(type);
      let patch: unknown;
      try {
        patch = decodePatchBody(await readBody(req), type);
      } catch (e) {
        fromPatchError(e);
      }
      return sendJSON(res, 200, await writeScale(api, def, path.namespace, name, info, (current) => patchScale(current, type, patch)), info.warnings);
    }
    default:
      throw statusErrors.methodNotSupported(gr, req.method === 'POST' ? 'create' : (req.method ?? '').toLowerCase());
  }
};

/** The subresource handlers of apps/v1, by subresource name (handler.ts routes only the resources that list them). */
export const appsSubresources: Record<string, SubresourceHandler> = { scale: scaleHandler };
