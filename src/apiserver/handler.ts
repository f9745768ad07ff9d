// The HTTP front of the API server: routes Kubernetes REST paths to the generic registry,
// negotiates Tables, streams watches, maps every failure to a Status, and serves discovery,
// OpenAPI, version, health and metrics.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../api/types.js';
import { kubernetesVersion } from '../api/version.js';
import { aggregatedDiscovery, aggregatedV2, aggregatedV2beta1, apiResourceList, legacyAPIGroup, legacyAPIGroupList, legacyAPIVersions, wantsAggregated } from './discovery.js';
import { crdListPath, emptyCRDList } from './nocrds.js';
import type { OpenAPIDocs } from './openapidocs.js';
import { serveOpenAPI } from './openapihttp.js';
import { checkPreconditions, type Api, type ListOptions, type RequestInfo, type UserInfo } from './rest.js';
import { isDryRun } from '../api/validation/options.js';
import { checkWriteOptions, readDeleteOptions } from './deleteoptions.js';
import { decodeBody, isJSONBody, isObject, mediaType, parseResourcePath, queryBool, readBody, requestName, sendJSON, sendStatusError, type ResourcePath } from './request.js';
import { int64Param } from './queryparams.js';
import { parseRequestTarget } from './requesttarget.js';
import { groupVersion, type ResourceDef } from './resources.js';
import { statusErrors, StatusError } from './status.js';
import { StoreUnavailableError } from '../storage/store.js';
import { toTable } from './tables.js';
import { encodeList, encodePartialList, encodeTable, type ListMeta } from './encoding.js';
import { negotiateOutput, notAcceptable, notAcceptableStream, tableIncludeObject, type Conversion, type OutputMedia } from './negotiate.js';
import { aListError, notAListError, partialObjectMetadata } from './partialmetadata.js';
import { jsonHeaders, outputOf, rememberOutput, sendObjectJSON, sendPieces, sendText } from './responsewriter.js';
import { escapeHTML, indentJSON } from './jsontext.js';
import { parseHealthPath, rootHealth, singleHealth, type HealthAnswer, type HealthChecks } from './healthz.js';
import type { Cacher } from './watchcache.js';
import { defaultBookmarkIntervalMs, defaultWatchBufferBytes, serveWatch, type WatchStreamOptions } from './watchstream.js';
import { connectSubresources } from './streaming/proxy.js';
import { defaultRequestTimeoutMs, isLongRunning, requestTimeoutMs, runWithRequestTimeout } from './timeout.js';

export const serverVersion = kubernetesVersion;

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface Authorizer {
  /** Undefined when allowed; otherwise the reason (Kubernetes' "User X cannot …" text). */
  authorize(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, query: URLSearchParams): string | undefined;
  /** For rules that depend on the object itself (a node and the pods bound to it). */
  checkObject?(user: UserInfo, verb: Verb, def: ResourceDef, obj: KubeObject | undefined): string | undefined;
  /** Non-resource paths (discovery, OpenAPI, metrics); undefined when allowed. */
  authorizePath?(user: UserInfo, verb: string, path: string): string | undefined;
}

export interface HandlerOptions {
  api: Api;
  /** Resolves the caller; undefined for anonymous. Throws a 401 StatusError for a bad token. */
  authenticate(req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined>;
  authorizer: Authorizer;
  serverAddress: string;
  /** The OpenAPI documents, built when first asked for. */
  openapi?: () => OpenAPIDocs | Promise<OpenAPIDocs>;
  patch?(api: Api, def: ResourceDef, path: ResourcePath, type: string, body: Buffer, req: RequestInfo, query: URLSearchParams): Promise<{ obj: KubeObject; created: boolean }>;
  decode?(def: ResourceDef, obj: unknown, req: RequestInfo): KubeObject;
  subresources?: Record<string, (api: Api, def: ResourceDef, path: ResourcePath, req: IncomingMessage, res: ServerResponse, info: RequestInfo, query: URLSearchParams) => Promise<void>>;
  /** Create-only resources that are answered, not stored (the access reviews), by `group/resource`. */
  createOnly?: Record<string, (api: Api, def: ResourceDef, path: ResourcePath, req: IncomingMessage, res: ServerResponse, info: RequestInfo, query: URLSearchParams) => Promise<void>>;
  /** Resources answered by something other than the store (metrics.k8s.io), by `group/resource`. */
  served?: Record<string, (api: Api, def: ResourceDef, path: ResourcePath, verb: Verb, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<void>>;
  metrics?(): Promise<string>;
  onRequest?(verb: string, resource: string, code: number, seconds: number): void;
  /** Slow-watcher bound, bookmark interval, and who hears of a watch's end (see watchstream.ts). */
  watch?: Partial<WatchStreamOptions>;
  /** The watch caches that serve LIST and WATCH (see watchcache.ts); without it, the store does. */
  cacher?: Cacher;
  /** The checks of /healthz, /livez and /readyz (without: each answers `ok`). */
  health?: HealthChecks;
  /** --request-timeout: how long a request that is not long-running may take (timeout.ts); default 60 s. */
  requestTimeoutMs?: number;
}

/** Subresources that write a part of the stored object itself through the resource's strategy. */
const storedSubresources = new Set(['status', 'finalize', 'approval', 'ephemeralcontainers']);

const anonymousPaths = new Set(['/version', '/healthz', '/readyz', '/livez']);

/** The options kind whose dryRun a write verb's query carries (DELETE reads DeleteOptions). */
const writeOptionsKind: Partial<Record<Verb, 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'>> = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions' };

function verbFor(method: string, path: ResourcePath, query: URLSearchParams): Verb | undefined {
  switch (method) {
    case 'GET':
      if (queryBool(query.get('watch'))) return 'watch';
      return path.name === undefined ? 'list' : 'get';
    case 'POST':
      // Create is routed on the collection and on the subresources that create (binding,
      // eviction); an object's own path has no POST route, so it never creates another object.
      return path.name === undefined || (path.subresource !== undefined && !storedSubresources.has(path.subresource)) ? 'create' : undefined;
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return path.name === undefined ? 'deletecollection' : 'delete';
  }
  return undefined;
}

function listOptions(q: URLSearchParams): ListOptions {
  const limit = int64Param(q, 'limit');
  return {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    limit: limit || undefined,
    continue: q.get('continue') ?? undefined,
    sendInitialEvents: q.has('sendInitialEvents') ? queryBool(q.get('sendInitialEvents')) : undefined,
    allowWatchBookmarks: queryBool(q.get('allowWatchBookmarks')),
  };
}

/** `warnings`: the request's own list, which an error response carries too (see createHandler). */
function requestInfo(user: UserInfo, path: ResourcePath, q: URLSearchParams, userAgent: string | undefined, warnings: string[]): RequestInfo {
  // handlers/rest.go fieldValidation: absent or empty is Warn; kubectl sends Strict itself. A
  // write's bad value was refused by checkWriteOptions; reads do not use it.
  const given = q.get('fieldValidation');
  const fv = given === 'Strict' || given === 'Ignore' ? given : 'Warn';
  return {
    user,
    namespace: path.namespace,
    // A DELETE takes dryRun from its DeleteOptions instead (see deleteoptions.ts).
    dryRun: q.getAll('dryRun').length > 0,
    fieldManager: q.get('fieldManager') ?? undefined,
    fieldValidation: fv,
    warnings,
    userAgent,
  };
}

function listKindOf(def: ResourceDef): { apiVersion: string; kind: string } {
  return { apiVersion: groupVersion(def), kind: def.listKind };
}

export function createHandler(opts: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { api } = opts;
  const maxRequestTimeoutMs = opts.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const watchOptions: WatchStreamOptions = { bufferBytes: defaultWatchBufferBytes, bookmarkIntervalMs: defaultBookmarkIntervalMs, ...opts.watch };
  return (req, res) => {
    const started = process.hrtime.bigint();
    const receivedAt = Date.now();
    // The request's warnings, kept outside its RequestInfo so that an error answer carries them
    // too: kube-apiserver's warning recorder sets each Warning header as it is added, so what
    // admission warned of before a later plugin refused (Pod Security's warn level, then a
    // quota) reaches the client with the error.
    const warnings: string[] = [];
    let metricVerb = req.method ?? '';
    let metricResource = '';
    res.on('finish', () => opts.onRequest?.(metricVerb, metricResource, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    (longRunning() ? handle() : withDeadline()).catch((e) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof StatusError) sendStatusError(res, e, warnings);
      // A write whose outcome the store does not know is answered as kube-apiserver answers it, never 409.
      else if (e instanceof StoreUnavailableError) sendStatusError(res, statusErrors.unknown(e.message), warnings);
      else sendStatusError(res, statusErrors.internal(e instanceof Error ? e.message : String(e)), warnings);
    });

    /** request_deadline.go then timeout.go: the request's `timeout` (bounded by --request-timeout), a 400 if it does not parse. */
    function withDeadline(): Promise<void> {
      let timeoutMs: number;
      try {
        timeoutMs = requestTimeoutMs(parseRequestTarget(req.url ?? '/').query, maxRequestTimeoutMs);
      } catch (e) {
        if (e instanceof StatusError) {
          sendStatusError(res, e);
          return Promise.resolve();
        }
        timeoutMs = maxRequestTimeoutMs; // handle() answers what cannot be parsed
      }
      return runWithRequestTimeout(res, receivedAt, timeoutMs, handle);
    }

    function longRunning(): boolean {
      try {
        const target = parseRequestTarget(req.url ?? '/');
        return isLongRunning(parseResourcePath(target.path.replace(/\/+$/, '') || '/'), target.query);
      } catch {
        return false; // handle() answers what cannot be parsed
      }
    }

    async function handle(): Promise<void> {
      const target = parseRequestTarget(req.url ?? '/');
      const pathname = target.path.replace(/\/+$/, '') || '/';
      const q = target.query;
      let user: UserInfo | undefined;
      try {
        // Awaited only when it is a promise (a service account token): any other request is
        // still served in the tick it arrived in.
        const authenticated = opts.authenticate(req);
        user = authenticated instanceof Promise ? await authenticated : authenticated;
      } catch (e) {
        if (e instanceof StatusError) return sendStatusError(res, e);
        throw e;
      }
      if (anonymousPaths.has(pathname)) return serveMeta(pathname, q);
      if (!user) return sendStatusError(res, statusErrors.unauthorized());
      if (!parseResourcePath(pathname)) {
        const denied = opts.authorizer.authorizePath?.(user, (req.method ?? 'GET').toLowerCase(), pathname);
        if (denied) return sendStatusError(res, new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `forbidden: ${denied}`, reason: 'Forbidden', details: {}, code: 403 }));
      }
      const health = parseHealthPath(pathname);
      if (health?.check !== undefined) {
        const check = opts.health?.[health.endpoint].find((c) => c.name === health.check);
        if (!check) return sendStatusError(res, statusErrors.pathNotFound());
        return sendHealth(await singleHealth(check));
      }
      if (pathname === '/metrics') {
        const text = (await opts.metrics?.()) ?? '';
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(text);
        return;
      }
      if (pathname === '/api' || pathname === '/apis') return serveDiscovery(pathname);
      if (pathname.startsWith('/openapi/') && opts.openapi && serveOpenAPI(await opts.openapi(), pathname, q, req, res)) return;
      if (pathname === crdListPath && req.method === 'GET' && !queryBool(q.get('watch'))) return sendJSON(res, 200, emptyCRDList(String(await api.store.currentRevision())));
      const path = parseResourcePath(pathname);
      // A proxied path keeps its trailing slash (the pathname above lost it).
      if (path?.proxyPath !== undefined && target.path.endsWith('/')) path.proxyPath = path.proxyPath.replace(/\/?$/, '/');
      if (!path) {
        const list = discoveryFor(pathname);
        if (list) return sendJSON(res, 200, list);
        return sendStatusError(res, statusErrors.pathNotFound());
      }
      const normalized = normalizeNamespacePath(path);
      const def = api.resource(normalized.group, normalized.version, normalized.resource);
      if (!def) return sendStatusError(res, statusErrors.pathNotFound());
      metricResource = def.resource;
      if (!def.namespaced && normalized.namespace !== undefined) return sendStatusError(res, statusErrors.pathNotFound());
      if (normalized.subresource && !def.subresources.some((s) => s.name === normalized.subresource)) {
        return sendStatusError(res, statusErrors.pathNotFound());
      }
      // A create-only resource has no object paths: nothing is routed below its collection.
      if (opts.createOnly?.[`${def.group}/${def.resource}`] && normalized.name !== undefined) return sendStatusError(res, statusErrors.pathNotFound());
      const verb = verbFor(req.method ?? 'GET', normalized, q);
      if (!verb) return sendStatusError(res, statusErrors.methodNotAllowed());
      metricVerb = verb;
      let denied = opts.authorizer.authorize(user, verb, def, normalized, q);
      // A GET of pods/exec, attach or portforward (a WebSocket upgrade) also needs create, as
      // kube-apiserver's AuthorizePodWebsocketUpgradeCreatePermission asks.
      if (!denied && verb === 'get' && def.group === '' && def.resource === 'pods' && connectSubresources.has(normalized.subresource ?? '')) denied = opts.authorizer.authorize(user, 'create', def, normalized, q);
      if (denied) {
        return sendStatusError(res, statusErrors.forbidden({ group: def.group, resource: def.resource }, requestName(verb, normalized, q) ?? '', denied));
      }
      const served = opts.served?.[`${def.group}/${def.resource}`];
      if (served) return served(api, def, normalized, verb, req, res, q);
      if (opts.authorizer.checkObject && normalized.name !== undefined && verb !== 'create') {
        const current = await api.tryGet(def, normalized.namespace, normalized.name);
        const why = opts.authorizer.checkObject(user, verb, def, current);
        if (why) {
          return sendStatusError(res, statusErrors.forbidden({ group: def.group, resource: def.resource }, normalized.name, why));
        }
      }
      const writeOptions = writeOptionsKind[verb];
      // A proxied request's query and body are the agent's business, not options of a write.
      if (writeOptions && normalized.subresource !== 'proxy') checkWriteOptions(writeOptions, q, verb === 'patch' ? mediaType(req) : undefined);
      const info = requestInfo(user, normalized, q, req.headers['user-agent'], warnings);
      const createOnly = opts.createOnly?.[`${def.group}/${def.resource}`];
      if (createOnly) return createOnly(api, def, normalized, req, res, info, q);
      const sub = normalized.subresource;
      if (sub && !storedSubresources.has(sub)) {
        const handler = opts.subresources?.[sub];
        if (!handler) return sendStatusError(res, statusErrors.pathNotFound());
        return handler(api, def, normalized, req, res, info, q);
      }
      return serveResource(def, normalized, verb, info, q);
    }

    function normalizeNamespacePath(p: ResourcePath): ResourcePath {
      // parseResourcePath reads /api/v1/namespaces/<ns>/<x> as a namespaced resource <x>; for
      // the namespaces resource itself, <x> is a subresource of namespace <ns>.
      if (p.group === '' && p.namespace !== undefined && (p.resource === 'status' || p.resource === 'finalize') && p.name === undefined) {
        return { group: '', version: p.version, resource: 'namespaces', name: p.namespace, subresource: p.resource };
      }
      return p;
    }

    async function serveMeta(pathname: string, q: URLSearchParams): Promise<void> {
      // WriteRawJSON: always indented, no newline, whatever the request accepts.
      if (pathname === '/version') return sendText(res, 200, jsonHeaders(), indentJSON(escapeHTML(JSON.stringify(serverVersion))));
      const endpoint = parseHealthPath(pathname)!.endpoint;
      sendHealth(opts.health ? await rootHealth(endpoint, opts.health[endpoint], q) : { code: 200, body: 'ok' });
    }

    function sendHealth(a: HealthAnswer): void {
      res.writeHead(a.code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end(a.body);
    }

    function serveDiscovery(pathname: string): void {
      const agg = wantsAggregated(req.headers.accept);
      if (agg) {
        const pretty = outputOf(req)?.pretty ?? false;
        return sendObjectJSON(res, 200, { 'Content-Type': agg === 'v2' ? aggregatedV2 : aggregatedV2beta1, Vary: 'Accept' }, escapeHTML(JSON.stringify(aggregatedDiscovery(pathname === '/api', agg))), { serializer: 'json', pretty });
      }
      sendJSON(res, 200, pathname === '/api' ? legacyAPIVersions(opts.serverAddress) : legacyAPIGroupList());
    }

    function discoveryFor(pathname: string): unknown | undefined {
      const parts = pathname.split('/').filter(Boolean);
      if (parts[0] === 'api' && parts.length === 2) return apiResourceList('', parts[1]!);
      if (parts[0] === 'apis' && parts.length === 3) return apiResourceList(parts[1]!, parts[2]!);
      if (parts[0] === 'apis' && parts.length === 2) return legacyAPIGroup(parts[1]!);
      return undefined;
    }

    /** The conversion the request negotiated (serveResource remembered it). */
    function conversion(): Conversion | undefined {
      return outputOf(req)?.convert;
    }

    /** transformResponseObject for one object: as it is, a Table, or its PartialObjectMetadata. */
    function respondObject(code: number, obj: KubeObject, def: ResourceDef, info: RequestInfo, q: URLSearchParams): void {
      const convert = obj.kind === 'Status' ? undefined : conversion();
      if (convert?.kind === 'Table') {
        return sendJSON(res, code, toTable(def.resource, [obj], { include: tableIncludeObject(q), now: api.now().getTime(), resourceVersion: obj.metadata?.resourceVersion, apiVersion: convert.apiVersion }), info.warnings);
      }
      if (convert?.kind === 'PartialObjectMetadata') return sendJSON(res, code, partialObjectMetadata(convert.apiVersion, obj), info.warnings);
      if (convert?.kind === 'PartialObjectMetadataList') throw notAListError(def);
      sendJSON(res, code, obj, info.warnings);
    }

    /** transformResponseObject for a list of objects. */
    function respondList(def: ResourceDef, meta: ListMeta, items: KubeObject[], info: RequestInfo, q: URLSearchParams): void {
      const convert = conversion();
      if (convert?.kind === 'Table') {
        const t = toTable(def.resource, items, { include: tableIncludeObject(q), now: api.now().getTime(), resourceVersion: meta.resourceVersion, apiVersion: convert.apiVersion });
        if (meta.continue) t.metadata.continue = meta.continue;
        return sendJSON(res, 200, t, info.warnings);
      }
      if (convert?.kind === 'PartialObjectMetadata') throw aListError(def);
      if (convert?.kind === 'PartialObjectMetadataList') {
        return sendJSON(res, 200, { kind: 'PartialObjectMetadataList', apiVersion: convert.apiVersion, metadata: meta, items: items.map((o) => partialObjectMetadata(convert.apiVersion, o)) }, info.warnings);
      }
      sendJSON(res, 200, { ...listKindOf(def), metadata: meta, items }, info.warnings);
    }

    async function bodyObject(def: ResourceDef, info: RequestInfo): Promise<KubeObject> {
      return decodeObjectBody(def, info, await readBody(req));
    }

    function decodeObjectBody(def: ResourceDef, info: RequestInfo, body: Buffer): KubeObject {
      const type = mediaType(req);
      const raw = decodeBody(body, type, `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`);
      if (!isObject(raw)) throw statusErrors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: the body must be a JSON object`);
      if (raw.kind !== undefined && raw.kind !== def.kind) {
        throw statusErrors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: the kind of the object (${String(raw.kind)}) does not match the kind of the request (${def.kind})`);
      }
      if (raw.apiVersion !== undefined && raw.apiVersion !== groupVersion(def)) {
        throw statusErrors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${groupVersion(def)})`);
      }
      return opts.decode ? opts.decode(def, raw, info) : (raw as KubeObject);
    }

    /**
     * NegotiateOutputMediaType with the resource's restrictions, before the request does any work
     * (a list's or watch's after its options parse, as ListResource does): 406 when nothing fits.
     */
    function negotiate(): OutputMedia {
      const media = negotiateOutput(req.headersDistinct['accept']?.[0], 'resource');
      if (!media) throw notAcceptable();
      rememberOutput(req, media);
      return media;
    }

    async function serveResource(def: ResourceDef, path: ResourcePath, verb: Verb, info: RequestInfo, q: URLSearchParams): Promise<void> {
      const ns = path.namespace;
      if (verb !== 'list' && verb !== 'watch') negotiate();
      switch (verb) {
        case 'get':
          return respondObject(200, await api.get(def, ns, path.name!), def, info, q);
        case 'list': {
          const lo = listOptions(q);
          negotiate();
          const cached = await opts.cacher?.list(def, ns, lo);
          if (cached) {
            const meta = { resourceVersion: cached.resourceVersion, ...(cached.continue ? { continue: cached.continue } : {}) };
            const convert = conversion();
            if (convert?.kind === 'Table') return sendPieces(res, 200, encodeTable(def.resource, cached.items, { include: tableIncludeObject(q), now: api.now().getTime(), ...meta, apiVersion: convert.apiVersion }));
            if (convert?.kind === 'PartialObjectMetadata') throw aListError(def);
            if (convert?.kind === 'PartialObjectMetadataList') return sendPieces(res, 200, encodePartialList(convert.apiVersion, meta, cached.items));
            return sendPieces(res, 200, encodeList(groupVersion(def), def.listKind, meta, cached.items));
          }
          const list = await api.list(def, ns, lo);
          const meta: ListMeta = { resourceVersion: list.resourceVersion };
          if (list.continue) meta.continue = list.continue;
          return respondList(def, meta, list.items, info, q);
        }
        case 'watch': {
          const lo = listOptions(q);
          const media = negotiate();
          if (media.serializer === 'yaml') throw notAcceptableStream();
          const convert = media.convert;
          // A watch's events are transformed one by one; an object that cannot be (a list kind
          // asked of a single object) is sent as it is, as upstream's watchEmbeddedEncoder does.
          const form = convert?.kind === 'Table' ? 'table' : convert?.kind === 'PartialObjectMetadata' ? { partial: convert.apiVersion } : undefined;
          return serveWatch({ api, cacher: opts.cacher, def, namespace: ns, list: lo, query: q, table: form === 'table', tableVersion: convert?.apiVersion, partial: typeof form === 'object' ? form.partial : undefined, include: form === 'table' ? tableIncludeObject(q) : 'Metadata', res }, watchOptions);
        }
        case 'create': {
          const body = await readBody(req);
          const obj = decodeObjectBody(def, info, body);
          // Parsed for this request alone, a JSON body is the create's to change: one that is
          // admitted again starts from the body decoded once more (its warnings already given).
          const again = isJSONBody(body, mediaType(req)) ? () => decodeObjectBody(def, { ...info, warnings: [] }, body) : undefined;
          const created = await api.create(def, ns, obj, info, again);
          return respondObject(201, created, def, info, q);
        }
        case 'update': {
          const obj = await bodyObject(def, info);
          if (!path.subresource && api.strategy(def).allowCreateOnUpdate && !(await api.tryGet(def, ns, path.name!))) {
            // The registry's AllowCreateOnUpdate: the object is created (admitted as a create)
            // under the path's name; one created meanwhile is updated instead. The handler's
            // checks of an update still come first (the body's name is the path's), and creating
            // needs the create verb too (the update handler's withAuthorization).
            if (obj.metadata?.name && obj.metadata.name !== path.name) {
              throw statusErrors.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${path.name})`);
            }
            // Store.Update still hands the body's uid to GuaranteedUpdate as a precondition, checked
            // against the empty object a missing key reads as, before its tryUpdate creates (and so
            // before the create's authorization and admission): any uid is a 409. A body's
            // resourceVersion is not looked at on this path (the storage clears it, as on any write).
            if (obj.metadata?.uid) checkPreconditions(def, path.name!, {}, { uid: obj.metadata.uid });
            const denied = opts.authorizer.authorize(info.user, 'create', def, path, q);
            if (denied) throw statusErrors.forbidden({ group: def.group, resource: def.resource }, path.name!, denied);
            try {
              const created = await api.create(def, ns, { ...obj, metadata: { ...obj.metadata, name: path.name! } }, info);
              return respondObject(201, created, def, info, q);
            } catch (e) {
              if (!(e instanceof StatusError && e.status.reason === 'AlreadyExists')) throw e;
            }
          }
          // The body's uid is a precondition of the write (DefaultUpdatedObjectInfo.Preconditions):
          // another object's uid is a 409 before anything else is looked at.
          const uid = obj.metadata?.uid;
          const updated = await api.update(def, ns, path.name!, obj, info, path.subresource, uid ? { uid } : undefined);
          return respondObject(200, updated, def, info, q);
        }
        case 'patch': {
          if (!opts.patch) throw statusErrors.methodNotSupported({ group: def.group, resource: def.resource }, 'patch');
          const body = await readBody(req);
          const r = await opts.patch(api, def, path, mediaType(req), body, info, q);
          return respondObject(r.created ? 201 : 200, r.obj, def, info, q);
        }
        case 'delete': {
          const delOpts = readDeleteOptions(await readBody(req), mediaType(req), q);
          info.dryRun = isDryRun(delOpts.dryRun);
          const out = await api.delete(def, ns, path.name!, delOpts, info);
          return respondObject(200, out as KubeObject, def, info, q);
        }
        case 'deletecollection': {
          const delOpts = readDeleteOptions(await readBody(req), mediaType(req), q);
          info.dryRun = isDryRun(delOpts.dryRun);
          const items = await api.deleteCollection(def, ns, delOpts, listOptions(q), info);
          return respondList(def, {}, items, info, q);
        }
      }
    }
  };
}

