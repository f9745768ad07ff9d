// Serves /openapi/v2, /openapi/v3 and /openapi/v3/<group-version> as kube-apiserver does
// (k8s.io/kube-openapi pkg/handler and pkg/handler3, behind net/http's ServeContent and, for v2,
// gziphandler): the representation is chosen from Accept in the order of its clauses (goautoneg),
// 406 with an empty body when none fits; a quoted ETag and Last-Modified on every document, and
// If-None-Match / If-Modified-Since answered with 304; `Vary: Accept`; gzip when the client takes
// it. A v3 document asked for with the right `hash` may be cached for a year; a stale hash is
// redirected (301) to the current one. Not served: the v3 protobuf form and byte ranges.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenAPIDocs, ServedBytes } from './openapidocs.js';
import { parseAccept } from './negotiate.js';
import { sendStatusError } from './request.js';
import { statusErrors } from './status.js';

export const openAPIv2Protobuf = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const openAPIv2ProtobufDeprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

// kube-apiserver's WithCacheControl filter: every response not marked otherwise.
const noCache = { 'Cache-Control': 'no-cache, private' };

/** The first offered media type (in the server's order) that the client's best clause admits. */
function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  for (const c of parseAccept(accept?.trim() || '*/*')) {
    for (const o of offered) {
      const [type, subType] = o.split('/');
      if ((c.type === type || c.type === '*') && (c.subType === subType || c.subType === '*')) return o;
    }
  }
  return undefined;
}

function acceptsGzip(req: IncomingMessage): boolean {
  const h = req.headers['accept-encoding'];
  if (typeof h !== 'string') return false;
  return h.split(',').some((p) => {
    const [coding, ...params] = p.split(';').map((s) => s.trim().toLowerCase());
    return coding === 'gzip' && !params.some((x) => /^q=0(\.0*)?$/.test(x));
  });
}

/** ServeContent's If-None-Match / If-Modified-Since check: true when the client's copy is current. */
function notModified(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.trim() !== '') {
    if (inm.trim() === '*') return true;
    return inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  }
  const ims = req.headers['if-modified-since'];
  if (typeof ims === 'string') {
    const since = Date.parse(ims);
    if (!Number.isNaN(since)) return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

interface Representation {
  readonly bytes: ServedBytes;
  readonly contentType: string;
  /** gzip when the client takes it (kube-openapi: v2 always, v3 for JSON). */
  readonly gzip: boolean;
}

function serveContent(req: IncomingMessage, res: ServerResponse, rep: Representation, lastModified: Date, headers: Record<string, string | string[]>): void {
  const etag = JSON.stringify(rep.bytes.etag);
  const vary = ['Accept', ...(rep.gzip ? ['Accept-Encoding'] : [])];
  const common = { ...noCache, ...headers, Vary: vary.join(', '), ETag: etag, 'Last-Modified': lastModified.toUTCString() };
  if ((req.method === 'GET' || req.method === 'HEAD') && notModified(req, etag, lastModified)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const gzip = rep.gzip && acceptsGzip(req);
  const body = gzip ? rep.bytes.gzip : rep.bytes.body;
  res.writeHead(200, { ...common, 'Content-Type': rep.contentType, 'Content-Length': String(body.length), ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notAcceptable(res: ServerResponse): void {
  res.writeHead(406, { ...noCache, Vary: 'Accept' });
  res.end();
}

/** net/http's Redirect for a GET: the status, Location and a one-link HTML body. */
function redirect(res: ServerResponse, location: string): void {
  res.writeHead(301, { ...noCache, Location: location, 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<a href="${location.replace(/&/g, '&amp;').replace(/"/g, '&#34;')}">Moved Permanently</a>.\n\n`);
}

/** Answers a request under /openapi; false when the path is not an OpenAPI path. */
export function serveOpenAPI(docs: OpenAPIDocs, pathname: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): boolean {
  if (pathname === '/openapi/v2') {
    const type = negotiate(req.headers.accept, ['application/json', openAPIv2ProtobufDeprecated, openAPIv2Protobuf]);
    if (!type) notAcceptable(res);
    else if (type === 'application/json') serveContent(req, res, { bytes: docs.v2JSON, contentType: type, gzip: true }, docs.lastModified, {});
    else serveContent(req, res, { bytes: docs.v2Protobuf, contentType: openAPIv2Protobuf, gzip: true }, docs.lastModified, {});
    return true;
  }
  if (pathname === '/openapi/v3') {
    serveContent(req, res, { bytes: docs.v3Index, contentType: 'application/json', gzip: false }, docs.lastModified, {});
    return true;
  }
  if (!pathname.startsWith('/openapi/v3/')) return false;
  const gv = pathname.slice('/openapi/v3/'.length);
  const doc = docs.v3.get(gv);
  if (!doc) {
    sendStatusError(res, statusErrors.pathNotFound());
    return true;
  }
  if (!negotiate(req.headers.accept, ['application/json'])) {
    notAcceptable(res);
    return true;
  }
  const hash = query.get('hash');
  const headers: Record<string, string> = {};
  if (hash) {
    if (hash !== doc.etag) {
      redirect(res, `/openapi/v3/${gv}?${new URLSearchParams({ hash: doc.etag }).toString()}`);
      return true;
    }
    // The URL names the content, so a cached copy is never stale.
    headers['Cache-Control'] = 'public, immutable';
    headers['Expires'] = new Date(Date.now() + 365 * 864e5).toUTCString();
  }
  serveContent(req, res, { bytes: doc, contentType: 'application/json', gzip: true }, docs.lastModified, headers);
  return true;
}
