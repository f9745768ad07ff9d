// Parsing the parts of an HTTP request kube-apiserver looks at: the resource path, query
// options, bodies (JSON or YAML, size-limited), and writing responses (their form: negotiate.ts).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedDecodeError, loadYAML, parseJSONBounded } from '../api/boundedyaml.js';
import { authorizationFieldTerms, requiresExactMatch } from '../api/selectors.js';
import { decodeProtobufBody } from './protobuf.js';
import { escapeHTML } from './jsontext.js';
import { jsonHeaders, outputOf, sendObjectJSON } from './responsewriter.js';
import { statusErrors, StatusError } from './status.js';

/** kube-apiserver refuses request bodies over 3 MiB. */
export const maxBodyBytes = 3 * 1024 * 1024;

export interface ResourcePath {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** The path below a cluster-scoped proxy subresource (nodes/NAME/proxy/PATH): `/PATH`. */
  proxyPath?: string;
}

/**
 * /api/v1/..., /apis/<group>/<version>/...: `namespaces/<ns>/<resource>[/<name>[/<sub>]]`,
 * or `<resource>[/<name>[/<sub>]]` for cluster-scoped resources and all-namespace lists.
 */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  // The path is percent-decoded already (requesttarget.ts), as Go's URL.Path is.
  const parts = pathname.split('/').filter((p) => p !== '');
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length) return undefined;
    return { group, version, namespace, resource: resource!, name, subresource };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource) return undefined;
  if (subresource === 'proxy' && name !== undefined) {
    // Everything after proxy/ is the upstream path, its trailing slash kept (JoinPreservingTrailingSlash).
    const tail = extra.length ? `/${extra.join('/')}${pathname.endsWith('/') ? '/' : ''}` : pathname.endsWith('/') ? '/' : '';
    return { group, version, resource, name, subresource, proxyPath: tail };
  }
  if (extra.length) return undefined;
  return { group, version, resource, name, subresource };
}

/**
 * requestinfo.go's name for a name-less list or watch: RequiresExactMatch("metadata.name") of the
 * parsed field selector (none when it does not parse), kept when path.IsValidPathSegmentName
 * accepts it (not "." or "..", no "/" or "%").
 */
export function listedName(fieldSelector: string | null | undefined): string | undefined {
  const name = requiresExactMatch(authorizationFieldTerms(fieldSelector ?? undefined), 'metadata.name');
  if (!name || name === '.' || name === '..' || /[/%]/.test(name)) return undefined;
  return name;
}

/**
 * The name a request is about (RequestInfo.Name): the path's, or for a list or watch the one its
 * field selector names. Authorization decides on it and a denial names it.
 */
export function requestName(verb: string, path: ResourcePath, query: URLSearchParams): string | undefined {
  return path.name ?? (verb === 'list' || verb === 'watch' ? listedName(query.get('fieldSelector')) : undefined);
}

/** How much of an oversized body is read and discarded so the client can see the 413. */
const drainBytes = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > drainBytes) break;
    if (size <= maxBodyBytes) chunks.push(chunk as Buffer);
  }
  if (size > maxBodyBytes) throw statusErrors.tooLarge('Request entity too large: limit is 3145728');
  return Buffer.concat(chunks);
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/** Decodes a JSON or YAML body into an object; anything else is a 400/415 Status. */
export function decodeBody(body: Buffer, type: string, what: string): unknown {
  if (type === 'application/vnd.kubernetes.protobuf') return decodeProtobufBody(body, type);
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = isYAMLText(type, text) ? loadYAML(text) : parseJSONBounded(text);
  } catch (e) {
    if (e instanceof BoundedDecodeError) throw statusErrors.badRequest(`${what}: ${e.message}`);
    throw statusErrors.badRequest(`${what}: couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  return value;
}

function isYAMLText(type: string, text: string): boolean {
  return type.includes('yaml') && !text.trimStart().startsWith('{');
}

/** Whether decodeBody decodes `body` with JSON.parse (its value then plain JSON, no one else's). */
export function isJSONBody(body: Buffer, type: string): boolean {
  return type !== 'application/vnd.kubernetes.protobuf' && !(type.includes('yaml') && isYAMLText(type, body.toString('utf8')));
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An API object (or list, Table, Status) as JSON, in the form the request negotiated. */
export function sendJSON(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  const headers = jsonHeaders();
  if (warnings.length) headers['Warning'] = warningHeaders(warnings);
  sendObjectJSON(res, code, headers, escapeHTML(JSON.stringify(body)), outputOf(res.req));
}

export function sendStatusError(res: ServerResponse, e: StatusError, warnings: readonly string[] = []): void {
  const headers = jsonHeaders();
  if (warnings.length) headers['Warning'] = warningHeaders(warnings);
  // ErrorNegotiated: a Status that says when to retry says it in Retry-After too.
  const retryAfter = e.status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) headers['Retry-After'] = String(retryAfter);
  sendObjectJSON(res, e.code, headers, escapeHTML(JSON.stringify(e.status)), outputOf(res.req, true));
}

/** The number of code points in `s` (Go's utf8.RuneCountInString), without an array of them. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Warning: 299 - "<text>", Go-quoted, de-duplicated, capped as the apiserver's recorder caps them. */
export function warningHeaders(warnings: readonly string[]): string[] {
  const unique = [...new Set(warnings)];
  let total = 0;
  const truncate = unique.reduce((n, w) => n + codePoints(w), 0) > 4096;
  const out: string[] = [];
  for (const w of unique) {
    let text = w;
    if (truncate && codePoints(text) > 256) text = [...text].slice(0, 256).join('');
    total += codePoints(text);
    if (total > 4096) break;
    out.push(`299 - ${JSON.stringify(text)}`);
  }
  return out;
}

export { queryBool } from '../api/queryparams.js';
