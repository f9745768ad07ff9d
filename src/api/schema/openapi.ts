// OpenAPI v3 documents for the group-versions Bulkhead serves, shaped the way kubectl
// (1.29-1.33) reads them for create/apply validation, server-side apply, client-side apply's
// strategic merge patch, and explain:
//  - `/openapi/v3` is an index of `serverRelativeURL`s carrying a content hash;
//  - every PATCH operation has `x-kubernetes-group-version-kind` (an object) and a
//    `fieldValidation` query parameter, and lists the four patch content types;
//  - every kind schema has `x-kubernetes-group-version-kind` (an array);
//  - a field that refers to another schema is `allOf: [{$ref}]` with its description beside it,
//    and carries the list/patch extensions at the property level where kubectl looks for them.

import { createHash } from 'node:crypto';

import type { Field, ResolvedType, Schema } from './registry.js';
import { kindSchemaName, kindSchemaNames, mustSchema, reachableSchemas } from './registry.js';

/** One resource (and its subresources) the API server serves. */
export interface ServedResource {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. pods. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** e.g. status, binding, eviction, log, finalize. */
  readonly subresources: readonly string[];
  /** Verbs on the resource itself; default: get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verbs?: readonly string[];
  /** Kind of the list type; default `${kind}List`. */
  readonly listKind?: string;
}

export const allVerbs: readonly string[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** `api/v1` for the core group, `apis/<group>/<version>` otherwise. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

const SCHEMA_REF = '#/components/schemas/';
const ref = (name: string) => ({ $ref: SCHEMA_REF + name });

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

// ---------------------------------------------------------------------------------------------
// Schemas

function primSchema(prim: string): JsonObject {
  switch (prim) {
    case 'string':
      return { type: 'string' };
    case 'int32':
      return { type: 'integer', format: 'int32' };
    case 'int64':
      return { type: 'integer', format: 'int64' };
    case 'double':
      return { type: 'number', format: 'double' };
    case 'boolean':
      return { type: 'boolean' };
    case 'byte':
      return { type: 'string', format: 'byte' };
  }
  throw new Error(`openapi: primitive ${prim}`);
}

function typeSchema(t: ResolvedType, enumValues?: readonly string[]): JsonObject {
  switch (t.t) {
    case 'prim': {
      const s = primSchema(t.prim);
      return enumValues ? { ...s, enum: [...enumValues] } : s;
    }
    case 'ref':
      return ref(t.name);
    case 'array':
      return { type: 'array', items: typeSchema(t.items, enumValues) };
    case 'map':
      return { type: 'object', additionalProperties: typeSchema(t.values, enumValues) };
  }
}

function propertySchema(f: Field): JsonObject {
  const base = typeSchema(f.type, f.enum);
  const out: JsonObject = f.type.t === 'ref' ? { allOf: [base] } : base;
  out['description'] = f.description;
  if (f.default !== undefined) out['default'] = f.default;
  if (f.listType) out['x-kubernetes-list-type'] = f.listType;
  if (f.listMapKeys) out['x-kubernetes-list-map-keys'] = [...f.listMapKeys];
  if (f.mapType) out['x-kubernetes-map-type'] = f.mapType;
  if (f.patchStrategy) out['x-kubernetes-patch-strategy'] = f.patchStrategy;
  if (f.patchMergeKey) out['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
  return out;
}

/** The OpenAPI v3 form of one schema. */
export function openAPISchema(s: Schema): JsonObject {
  if (s.special) {
    const out: JsonObject = { description: s.description, type: s.special.type };
    if (s.special.format) out['format'] = s.special.format;
    return out;
  }
  const properties: JsonObject = {};
  for (const f of [...s.fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) properties[f.name] = propertySchema(f);
  const out: JsonObject = { description: s.description, type: 'object', properties };
  if (s.required.length > 0) out['required'] = [...s.required];
  if (s.gvk) out['x-kubernetes-group-version-kind'] = s.gvk.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
  if (s.mapType) out['x-kubernetes-map-type'] = s.mapType;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Operations

const param = (name: string, inn: 'query' | 'path', type: 'string' | 'integer' | 'boolean', description: string, required = false): JsonObject => ({
  name,
  in: inn,
  description,
  ...(required ? { required: true } : {}),
  schema: { type },
});

const P = {
  pretty: param('pretty', 'query', 'string', "If 'true', the output is pretty-printed."),
  dryRun: param('dryRun', 'query', 'string', 'When set to All, the request is processed fully but nothing is persisted.'),
  fieldManager: param('fieldManager', 'query', 'string', 'Name of the actor making the change, recorded in managedFields. Required for apply patches.'),
  fieldValidation: param(
    'fieldValidation',
    'query',
    'string',
    'How unknown or duplicate fields in the body are handled: Ignore drops them, Warn drops them with a warning per field, Strict rejects the request.',
  ),
  force: param('force', 'query', 'boolean', 'For apply patches: take over fields owned by other managers instead of failing with a conflict. Must be unset for other patch types.'),
  gracePeriodSeconds: param('gracePeriodSeconds', 'query', 'integer', 'Seconds before the object is deleted; 0 means at once, unset means the kind\'s default.'),
  orphanDependents: param('orphanDependents', 'query', 'boolean', 'Deprecated: use propagationPolicy.'),
  propagationPolicy: param('propagationPolicy', 'query', 'string', 'What happens to dependents: Orphan, Background or Foreground.'),
  ignoreStoreReadError: param(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'query',
    'boolean',
    'Delete the object even though it cannot be read from storage. Unsafe.',
  ),
  labelSelector: param('labelSelector', 'query', 'string', 'Only objects whose labels match this selector.'),
  fieldSelector: param('fieldSelector', 'query', 'string', 'Only objects whose fields match this selector, e.g. metadata.name=web.'),
  watch: param('watch', 'query', 'boolean', 'Stream changes (ADDED, MODIFIED, DELETED) after the list instead of returning it.'),
  allowWatchBookmarks: param('allowWatchBookmarks', 'query', 'boolean', 'Allow BOOKMARK events in a watch; the server may ignore it.'),
  resourceVersion: param('resourceVersion', 'query', 'string', 'Read or watch from this resource version.'),
  resourceVersionMatch: param('resourceVersionMatch', 'query', 'string', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  sendInitialEvents: param('sendInitialEvents', 'query', 'boolean', 'Start a watch with synthetic ADDED events for the current state.'),
  timeoutSeconds: param('timeoutSeconds', 'query', 'integer', 'End a list or watch call after this many seconds.'),
  limit: param('limit', 'query', 'integer', 'Largest number of items to return; the server may return fewer and need not support chunking.'),
  continue: param('continue', 'query', 'string', 'Token from a previous chunked list, to fetch the next chunk.'),
};

const listParams = [P.allowWatchBookmarks, P.continue, P.fieldSelector, P.labelSelector, P.limit, P.resourceVersion, P.resourceVersionMatch, P.sendInitialEvents, P.timeoutSeconds, P.watch];
const writeParams = [P.dryRun, P.fieldManager, P.fieldValidation];
const patchParams = [P.dryRun, P.fieldManager, P.fieldValidation, P.force];
const deleteParams = [P.dryRun, P.gracePeriodSeconds, P.ignoreStoreReadError, P.orphanDependents, P.propagationPolicy];
const deleteCollectionParams = [
  ...deleteParams,
  P.continue,
  P.fieldSelector,
  P.labelSelector,
  P.limit,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
];
const logParams = [
  param('container', 'query', 'string', 'Container to read the log of; may be omitted when the pod has one container.'),
  param('follow', 'query', 'boolean', 'Keep streaming the log as it grows.'),
  param('insecureSkipTLSVerifyBackend', 'query', 'boolean', 'Do not verify the kubelet\'s serving certificate.'),
  param('limitBytes', 'query', 'integer', 'Stop after this many bytes.'),
  param('previous', 'query', 'boolean', 'Return the log of the previous, terminated instance of the container.'),
  param('sinceSeconds', 'query', 'integer', 'Only lines from the last this many seconds.'),
  param('sinceTime', 'query', 'string', 'Only lines from this RFC 3339 time on.'),
  param('stream', 'query', 'string', 'Which stream to return: All (default), Stdout or Stderr.'),
  param('tailLines', 'query', 'integer', 'Only the last this many lines.'),
  param('timestamps', 'query', 'boolean', 'Prefix every line with an RFC 3339 timestamp.'),
];

export const patchContentTypes: readonly string[] = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

const jsonBody = (schemaName: string, required = true): JsonObject => ({ content: { 'application/json': { schema: ref(schemaName) } }, ...(required ? { required: true } : {}) });
const response = (description: string, schemaName: string, watch = false): JsonObject => ({
  description,
  content: {
    'application/json': { schema: ref(schemaName) },
    ...(watch ? { 'application/json;stream=watch': { schema: ref(schemaName) } } : {}),
  },
});
const unauthorized: JsonObject = { description: 'Unauthorized' };

function groupPrefix(group: string, version: string): string {
  const g = group === '' ? 'core' : group.split('.')[0]!;
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return cap(g.replace(/-([a-z])/g, (_, x: string) => x.toUpperCase())) + cap(version);
}

function tagOf(group: string, version: string): string {
  const g = group === '' ? 'core' : group.split('.')[0]!;
  return `${g.replace(/-/g, '_')}_${version}`;
}

interface OpContext {
  readonly tag: string;
  readonly gvkExt: JsonObject;
}

function op(ctx: OpContext, action: string, operationId: string, description: string, rest: JsonObject, gvk: JsonObject = ctx.gvkExt): JsonObject {
  return {
    description,
    operationId,
    ...rest,
    tags: [ctx.tag],
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  };
}

function patchOp(ctx: OpContext, operationId: string, description: string, kindSchema: string, gvk: JsonObject = ctx.gvkExt): JsonObject {
  const content: JsonObject = {};
  for (const ct of patchContentTypes) content[ct] = { schema: ref(PATCH) };
  return op(ctx, 'patch', operationId, description, {
    parameters: patchParams,
    requestBody: { content, required: true },
    responses: { '200': response('OK', kindSchema), '201': response('Created', kindSchema), '401': unauthorized },
  }, gvk);
}

const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';

/** The subresources that are only created, each with a body of its own kind. */
const createOnlySubresourceKinds: Record<'binding' | 'eviction' | 'token', { group: string; version: string; kind: string }> = {
  binding: { group: '', version: 'v1', kind: 'Binding' },
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction' },
  token: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
};

/** Adds the paths of one resource; returns the schema names its operations refer to. */
function addResourcePaths(paths: JsonObject, r: ServedResource): string[] {
  const kindSchema = kindSchemaName({ group: r.group, version: r.version, kind: r.kind });
  if (!kindSchema) throw new Error(`openapi: no schema for kind ${r.group}/${r.version}/${r.kind}`);
  const listKind = r.listKind ?? `${r.kind}List`;
  const listSchema = kindSchemaName({ group: r.group, version: r.version, kind: listKind });
  const verbs = new Set(r.verbs ?? allVerbs);
  const used = [kindSchema, STATUS, DELETE_OPTIONS, PATCH];
  if (listSchema) used.push(listSchema);

  const base = `/${groupVersionPath(r.group, r.version)}`;
  const prefix = groupPrefix(r.group, r.version);
  const ns = r.namespaced ? 'Namespaced' : '';
  const ctx: OpContext = { tag: tagOf(r.group, r.version), gvkExt: { group: r.group, kind: r.kind, version: r.version } };
  const nsParam = param('namespace', 'path', 'string', 'Namespace of the objects.', true);
  const nameParam = param('name', 'path', 'string', `Name of the ${r.kind}.`, true);
  const collection = r.namespaced ? `${base}/namespaces/{namespace}/${r.resource}` : `${base}/${r.resource}`;
  const item = `${collection}/{name}`;
  const collParams = r.namespaced ? [nsParam, P.pretty] : [P.pretty];
  const itemParams = r.namespaced ? [nameParam, nsParam, P.pretty] : [nameParam, P.pretty];

  const coll: JsonObject = {};
  if ((verbs.has('list') || verbs.has('watch')) && listSchema) {
    coll['get'] = op(ctx, 'list', `list${prefix}${ns}${r.kind}`, `list or watch objects of kind ${r.kind}`, {
      parameters: listParams,
      responses: { '200': response('OK', listSchema, true), '401': unauthorized },
    });
  }
  if (verbs.has('create')) {
    coll['post'] = op(ctx, 'post', `create${prefix}${ns}${r.kind}`, `create a ${r.kind}`, {
      parameters: writeParams,
      requestBody: jsonBody(kindSchema),
      responses: { '200': response('OK', kindSchema), '201': response('Created', kindSchema), '202': response('Accepted', kindSchema), '401': unauthorized },
    });
  }
  if (verbs.has('deletecollection')) {
    coll['delete'] = op(ctx, 'deletecollection', `delete${prefix}Collection${ns}${r.kind}`, `delete collection of ${r.kind}`, {
      parameters: deleteCollectionParams,
      requestBody: jsonBody(DELETE_OPTIONS, false),
      responses: { '200': response('OK', STATUS), '401': unauthorized },
    });
  }
  if (Object.keys(coll).length > 0) paths[collection] = { ...coll, parameters: collParams };

  const it: JsonObject = {};
  if (verbs.has('get')) {
    it['get'] = op(ctx, 'get', `read${prefix}${ns}${r.kind}`, `read the specified ${r.kind}`, {
      responses: { '200': response('OK', kindSchema), '401': unauthorized },
    });
  }
  if (verbs.has('update')) {
    it['put'] = op(ctx, 'put', `replace${prefix}${ns}${r.kind}`, `replace the specified ${r.kind}`, {
      parameters: writeParams,
      requestBody: jsonBody(kindSchema),
      responses: { '200': response('OK', kindSchema), '201': response('Created', kindSchema), '401': unauthorized },
    });
  }
  if (verbs.has('patch')) it['patch'] = patchOp(ctx, `patch${prefix}${ns}${r.kind}`, `partially update the specified ${r.kind}`, kindSchema);
  if (verbs.has('delete')) {
    it['delete'] = op(ctx, 'delete', `delete${prefix}${ns}${r.kind}`, `delete a ${r.kind}`, {
      parameters: deleteParams,
      requestBody: jsonBody(DELETE_OPTIONS, false),
      responses: { '200': response('OK', kindSchema), '202': response('Accepted', kindSchema), '401': unauthorized },
    });
  }
  if (Object.keys(it).length > 0) paths[item] = { ...it, parameters: itemParams };

  if (r.namespaced && (verbs.has('list') || verbs.has('watch')) && listSchema) {
    paths[`${base}/${r.resource}`] = {
      get: op(ctx, 'list', `list${prefix}${r.kind}ForAllNamespaces`, `list or watch objects of kind ${r.kind} in all namespaces`, {
        parameters: listParams,
        responses: { '200': response('OK', listSchema, true), '401': unauthorized },
      }),
      parameters: [P.pretty],
    };
  }

  for (const sub of r.subresources) {
    const subPath = `${item}/${sub}`;
    const Sub = sub.charAt(0).toUpperCase() + sub.slice(1);
    const id = `${prefix}${ns}${r.kind}${Sub}`;
    const entry: JsonObject = { parameters: itemParams };
    switch (sub) {
      case 'binding':
      case 'eviction':
      case 'token': {
        // Created only, with a body of their own kind (pods/binding, pods/eviction, serviceaccounts/token).
        const gvk = createOnlySubresourceKinds[sub];
        const body = kindSchemaName(gvk)!;
        used.push(body);
        entry['post'] = op(
          ctx,
          'post',
          `create${id}`,
          `create ${sub} of a ${r.kind}`,
          {
            parameters: writeParams,
            requestBody: jsonBody(body),
            responses: { '200': response('OK', body), '201': response('Created', body), '202': response('Accepted', body), '401': unauthorized },
          },
          { group: gvk.group, kind: gvk.kind, version: gvk.version },
        );
        break;
      }
      case 'log':
        entry['get'] = op(ctx, 'get', `read${id}`, `read log of the specified ${r.kind}`, {
          parameters: logParams,
          responses: { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } }, '401': unauthorized },
        });
        break;
      case 'scale': {
        // autoscaling/v1 Scale, as kube-apiserver documents the scale subresource of apps/v1 kinds.
        const scale = kindSchemaName({ group: 'autoscaling', version: 'v1', kind: 'Scale' })!;
        used.push(scale);
        const gvk = { group: 'autoscaling', kind: 'Scale', version: 'v1' };
        entry['get'] = op(ctx, 'get', `read${id}`, `read scale of the specified ${r.kind}`, { responses: { '200': response('OK', scale), '401': unauthorized } }, gvk);
        entry['put'] = op(
          ctx,
          'put',
          `replace${id}`,
          `replace scale of the specified ${r.kind}`,
          { parameters: writeParams, requestBody: jsonBody(scale), responses: { '200': response('OK', scale), '201': response('Created', scale), '401': unauthorized } },
          gvk,
        );
        entry['patch'] = patchOp(ctx, `patch${id}`, `partially update scale of the specified ${r.kind}`, scale, gvk);
        break;
      }
      case 'proxy': {
        // A connect subresource (nodes/proxy): every method passes through, with or without a
        // path below proxy/, and answers whatever the target answers.
        const gvk = { group: '', kind: `${r.kind}ProxyOptions`, version: 'v1' };
        const text = { '200': { description: 'OK', content: { '*/*': { schema: { type: 'string' } } } }, '401': unauthorized };
        const pathParam = param('path', 'query', 'string', `Path is the URL path to use for the current proxy request to ${r.kind.toLowerCase()}.`);
        const methods: [string, string][] = [['get', 'Get'], ['put', 'Put'], ['post', 'Post'], ['patch', 'Patch'], ['delete', 'Delete'], ['head', 'Head'], ['options', 'Options']];
        const withPath: JsonObject = { parameters: [nameParam, param('path', 'path', 'string', 'path to the resource', true)] };
        entry['parameters'] = [nameParam, pathParam];
        for (const [m, M] of methods) {
          entry[m] = op(ctx, 'connect', `connect${prefix}${M}${r.kind}Proxy`, `connect ${m.toUpperCase()} requests to proxy of ${r.kind}`, { responses: text }, gvk);
          withPath[m] = op(ctx, 'connect', `connect${prefix}${M}${r.kind}ProxyWithPath`, `connect ${m.toUpperCase()} requests to proxy of ${r.kind}`, { responses: text }, gvk);
        }
        paths[`${subPath}/{path}`] = withPath;
        break;
      }
      case 'exec':
      case 'attach':
      case 'portforward': {
        // Connect subresources (pods/exec, attach, portforward): GET (a WebSocket upgrade) and
        // POST (SPDY), their options in the query, as kube-apiserver documents them.
        const Kind = { exec: 'PodExecOptions', attach: 'PodAttachOptions', portforward: 'PodPortForwardOptions' }[sub];
        const what = { exec: 'exec', attach: 'attach', portforward: 'portforward' }[sub];
        const Op = { exec: 'Exec', attach: 'Attach', portforward: 'Portforward' }[sub];
        const gvk = { group: '', kind: Kind, version: 'v1' };
        const text = { '200': { description: 'OK', content: { '*/*': { schema: { type: 'string' } } } }, '401': unauthorized };
        const streams = [
          param('container', 'query', 'string', `The container in which to ${sub === 'exec' ? 'execute the command' : 'attach'}. Defaults to only container if there is only one container in the pod.`),
          param('stderr', 'query', 'boolean', 'Redirect the standard error stream of the pod for this call.'),
          param('stdin', 'query', 'boolean', 'Redirect the standard input stream of the pod for this call. Defaults to false.'),
          param('stdout', 'query', 'boolean', 'Redirect the standard output stream of the pod for this call.'),
          param('tty', 'query', 'boolean', 'TTY if true indicates that a tty will be allocated for the call. Defaults to false.'),
        ];
        const command = { ...param('command', 'query', 'string', 'Command is the remote command to execute. argv array. Not executed within a shell.'), schema: { type: 'string', uniqueItems: true } };
        entry['parameters'] =
          sub === 'exec' ? [command, ...streams, ...itemParams] : sub === 'attach' ? [...streams, ...itemParams] : [param('ports', 'query', 'integer', 'List of ports to forward Required when using WebSockets'), ...itemParams];
        for (const [m, M] of [['get', 'Get'], ['post', 'Post']] as const) {
          entry[m] = op(ctx, 'connect', `connect${prefix}${M}${ns}${r.kind}${Op}`, `connect ${m.toUpperCase()} requests to ${what} of ${r.kind}`, { responses: text }, gvk);
        }
        break;
      }
      case 'finalize':
        entry['put'] = op(ctx, 'put', `replace${id}`, `replace finalize of the specified ${r.kind}`, {
          parameters: writeParams,
          requestBody: jsonBody(kindSchema),
          responses: { '200': response('OK', kindSchema), '201': response('Created', kindSchema), '401': unauthorized },
        });
        break;
      default:
        // status and any other object-shaped subresource: read, replace and patch the whole object.
        entry['get'] = op(ctx, 'get', `read${id}`, `read ${sub} of the specified ${r.kind}`, {
          responses: { '200': response('OK', kindSchema), '401': unauthorized },
        });
        entry['put'] = op(ctx, 'put', `replace${id}`, `replace ${sub} of the specified ${r.kind}`, {
          parameters: writeParams,
          requestBody: jsonBody(kindSchema),
          responses: { '200': response('OK', kindSchema), '201': response('Created', kindSchema), '401': unauthorized },
        });
        entry['patch'] = patchOp(ctx, `patch${id}`, `partially update ${sub} of the specified ${r.kind}`, kindSchema);
    }
    paths[subPath] = entry;
  }
  return used;
}

/** Kind schemas Bulkhead defines in a group-version (the shared DeleteOptions and Status aside). */
function kindsOf(gvPath: string): string[] {
  return kindSchemaNames().filter((name) =>
    mustSchema(name).gvk!.some((g) => groupVersionPath(g.group, g.version) === gvPath && g.kind !== 'DeleteOptions' && g.kind !== 'Status'),
  );
}

/**
 * The OpenAPI v3 document of one group-version: `openapi`, `info`, the `paths` of every served
 * resource and subresource in it, and every schema those reach.
 */
export function openAPIDocument(gvPath: string, resources: readonly ServedResource[]): JsonObject {
  const paths: JsonObject = {};
  const roots = new Set<string>(kindsOf(gvPath));
  const inGV = resources.filter((r) => groupVersionPath(r.group, r.version) === gvPath);
  const [group, version] = gvPath === 'api/v1' ? ['', 'v1'] : [gvPath.split('/')[1]!, gvPath.split('/')[2]!];
  paths[`/${gvPath}/`] = {
    get: {
      description: 'get available resources',
      operationId: `get${groupPrefix(group, version)}APIResources`,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } }, '401': unauthorized },
      tags: [tagOf(group, version)],
    },
  };
  for (const r of inGV) for (const n of addResourcePaths(paths, r)) roots.add(n);
  if (roots.size > 0) {
    roots.add(STATUS);
    roots.add(DELETE_OPTIONS);
  }
  const schemas: JsonObject = {};
  for (const name of reachableSchemas(roots)) schemas[name] = openAPISchema(mustSchema(name));
  const sortedPaths: JsonObject = {};
  for (const k of Object.keys(paths).sort()) sortedPaths[k] = paths[k]!;
  return {
    openapi: '3.0.0',
    info: { title: 'Bulkhead', version: 'unversioned' },
    paths: sortedPaths,
    components: { schemas },
  };
}

/**
 * Group-version paths that have something to serve: those of the resources, as discovery lists
 * them. A kind reached only through a subresource (policy/v1 Eviction, via pods/eviction) is in
 * the document of that resource, as upstream's.
 */
export function servedGroupVersions(resources: readonly ServedResource[]): string[] {
  const out = new Set<string>();
  for (const r of resources) out.add(groupVersionPath(r.group, r.version));
  return [...out].sort();
}

/** JSON with object keys sorted at every level: the input of documentHash. */
export function canonicalJSON(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJSON(x)).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(obj[k])}`).join(',')}}`;
}

/** SHA-512 of the canonical JSON, upper-case hex (the form upstream uses). Changes whenever the document does. */
export function documentHash(doc: unknown): string {
  return createHash('sha512').update(canonicalJSON(doc)).digest('hex').toUpperCase();
}

/** The `/openapi/v3` index: `{paths: {<gv>: {serverRelativeURL: "/openapi/v3/<gv>?hash=<H>"}}}`. */
export function openAPIIndex(hashes: Readonly<Record<string, string>>): JsonObject {
  const paths: JsonObject = {};
  for (const gv of Object.keys(hashes).sort()) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hashes[gv]}` };
  return { paths };
}

/** Every served document with its hash, and the index pointing at them. */
export function openAPIBundle(resources: readonly ServedResource[]): {
  index: JsonObject;
  documents: Record<string, { doc: JsonObject; hash: string }>;
} {
  const documents: Record<string, { doc: JsonObject; hash: string }> = {};
  const hashes: Record<string, string> = {};
  for (const gv of servedGroupVersions(resources)) {
    const doc = openAPIDocument(gv, resources);
    const hash = documentHash(doc);
    documents[gv] = { doc, hash };
    hashes[gv] = hash;
  }
  return { index: openAPIIndex(hashes), documents };
}

