// The DeleteOptions of a DELETE (one object or a collection), read as kube-apiserver's
// endpoints/handlers/delete.go reads them: from the body when there is one (JSON or YAML,
// apiVersion meta.k8s.io/v1 or any other with kind DeleteOptions, unknown fields ignored),
// otherwise from the query (gracePeriodSeconds, orphanDependents, propagationPolicy, dryRun);
// never from both. Then ValidateDeleteOptions; a body that does not decode is a 400, options
// that do not validate a 422 DeleteOptions.meta.k8s.io. Also the dryRun check of create, update
// and patch (Create/Update/PatchOptions from the query).

import { loadYAML, parseJSONBounded } from '../api/boundedyaml.js';
import { invalidMessage, type FieldError } from '../api/fielderrors.js';
import { validateDeleteOptions, validateDryRun, validateWriteOptions, type DeleteOptionsInput } from '../api/validation/options.js';
import { queryBool } from '../api/queryparams.js';
import { int64Param } from './queryparams.js';
import { decodeBody, isObject } from './request.js';
import type { DeleteOptions } from './rest.js';
import { statusErrors, StatusError } from './status.js';

const metaGroup = 'meta.k8s.io';

/** The scheme kube-apiserver decodes options with names itself by where it was built. */
const metaScheme = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:28';

/** Go's name for the struct SimpleMetaFactory.Interpret decodes apiVersion and kind into. */
const typeMetaStruct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** errors.NewInvalid for an options kind of meta.k8s.io: the message names the qualified kind. */
function optionsInvalid(kind: string, errs: FieldError[]): StatusError {
  return statusErrors.invalid(kind, metaGroup, '', errs);
}

/** Go's encoding/json name for a JSON value's type in an UnmarshalTypeError. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'string' ? 'string' : 'object';
}

function typeError(v: unknown, field: string, goType: string): never {
  throw statusErrors.badRequest(`json: cannot unmarshal ${jsonType(v)} into Go struct field DeleteOptions.${field} of type ${goType}`);
}

function stringField(v: unknown, field: string, goType: string): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') typeError(v, field, goType);
  return v;
}

const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

function int64Field(v: unknown, field: string): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'number') typeError(v, field, 'int64');
  if (!Number.isInteger(v) || BigInt(v) < minInt64 || BigInt(v) > maxInt64) {
    throw statusErrors.badRequest(`json: cannot unmarshal number ${String(v)} into Go struct field DeleteOptions.${field} of type int64`);
  }
  return v;
}

/** schema.ParseGroupVersion, then the serializer's defaulting to meta.k8s.io/v1 DeleteOptions. */
function checkTypeMeta(apiVersion: unknown, kind: unknown): void {
  if ((apiVersion !== undefined && apiVersion !== null && typeof apiVersion !== 'string') || (kind !== undefined && kind !== null && typeof kind !== 'string')) {
    const [field, v] = typeof kind === 'string' || kind === undefined || kind === null ? ['apiVersion', apiVersion] : ['kind', kind];
    throw statusErrors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(v)} into Go struct field .${field} of type string`);
  }
  const gvText = apiVersion ?? '';
  const parts = gvText === '' ? [] : gvText.split('/');
  if (parts.length > 2) throw statusErrors.badRequest(`unexpected GroupVersion string: ${gvText}`);
  let [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0] ?? ''];
  if (version === '' && (group === '' || group === metaGroup)) [group, version] = [metaGroup, 'v1'];
  const k = kind || 'DeleteOptions';
  // DeleteOptions is registered unversioned: any group/version decodes into it (old clients
  // sent per-group DeleteOptions). Nothing else converts to DeleteOptions.
  if (k !== 'DeleteOptions') {
    const gv = group ? `${group}/${version}` : version;
    throw statusErrors.badRequest(`no kind "${k}" is registered for version "${gv}" in scheme "${metaScheme}"`);
  }
}

function parseBody(body: Buffer, type: string): unknown {
  if (type === 'application/vnd.kubernetes.protobuf') return decodeBody(body, type, 'DeleteOptions');
  const text = body.toString('utf8');
  try {
    return type.includes('yaml') ? loadYAML(text) : parseJSONBounded(text);
  } catch (e) {
    throw statusErrors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

export function decodeDeleteOptionsBody(body: Buffer, type: string): DeleteOptionsInput {
  const raw = parseBody(body, type);
  if (raw === null || raw === undefined) return {};
  if (!isObject(raw)) throw statusErrors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(raw)} into Go value of type ${typeMetaStruct}`);
  checkTypeMeta(raw.apiVersion, raw.kind);
  const out: DeleteOptionsInput = {};
  // Fields in body order, so the first bad one is the one reported, as encoding/json does.
  for (const [name, v] of Object.entries(raw)) {
    switch (name) {
      case 'gracePeriodSeconds':
        out.gracePeriodSeconds = int64Field(v, name);
        break;
      case 'orphanDependents':
        if (v !== null && typeof v !== 'boolean') typeError(v, name, 'bool');
        out.orphanDependents = v ?? undefined;
        break;
      case 'propagationPolicy':
        out.propagationPolicy = stringField(v, name, 'v1.DeletionPropagation');
        break;
      case 'dryRun':
        if (v === null) break;
        if (!Array.isArray(v)) typeError(v, name, '[]string');
        out.dryRun = v.map((d) => stringField(d, name, 'string') ?? '');
        break;
      case 'preconditions': {
        if (v === null) break;
        if (!isObject(v)) typeError(v, name, 'v1.Preconditions');
        const uid = stringField(v.uid, 'preconditions.uid', 'types.UID');
        const resourceVersion = stringField(v.resourceVersion, 'preconditions.resourceVersion', 'string');
        out.preconditions = { ...(uid !== undefined ? { uid } : {}), ...(resourceVersion !== undefined ? { resourceVersion } : {}) };
        break;
      }
    }
  }
  for (const k of Object.keys(out) as (keyof DeleteOptionsInput)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** The query's DeleteOptions (metav1's url.Values conversion): the first value of each, all dryRun values. */
export function deleteOptionsFromQuery(q: URLSearchParams): DeleteOptionsInput {
  const out: DeleteOptionsInput = {};
  const grace = int64Param(q, 'gracePeriodSeconds');
  if (grace !== undefined) out.gracePeriodSeconds = grace;
  if (q.has('orphanDependents')) out.orphanDependents = queryBool(q.get('orphanDependents'));
  const policy = q.getAll('propagationPolicy');
  if (policy.length) out.propagationPolicy = policy[0];
  const dryRun = q.getAll('dryRun');
  if (dryRun.length) out.dryRun = dryRun;
  return out;
}

/** The validated DeleteOptions of a DELETE: the body's if it has one, else the query's. */
export function readDeleteOptions(body: Buffer, type: string, q: URLSearchParams): DeleteOptions {
  const opts = body.length > 0 ? decodeDeleteOptionsBody(body, type) : deleteOptionsFromQuery(q);
  const errs = validateDeleteOptions(opts);
  if (errs.length) throw optionsInvalid('DeleteOptions', errs);
  return opts;
}

/** ValidateCreate/Update/PatchOptions on the query: a 422 on the verb's options kind. */
export function checkWriteOptions(optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', q: URLSearchParams, patchType?: string): void {
  const errs = validateWriteOptions(optionsKind, {
    fieldManager: q.get('fieldManager') ?? undefined,
    dryRun: q.getAll('dryRun'),
    fieldValidation: q.get('fieldValidation') ?? undefined,
    forceSet: q.has('force'),
    applyPatch: patchType === 'application/apply-patch+yaml' || patchType === 'application/apply-patch+cbor',
  });
  if (errs.length) throw optionsInvalid(optionsKind, errs);
}
