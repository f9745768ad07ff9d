// How an API response's body is written, compressed or not, as kube-apiserver's SerializeObject
// writes every object, list, Table and Status (k8s.io/apiserver pkg/endpoints/handlers/
// responsewriters/writers.go @ release-1.32: negotiateContentEncoding and deferredResponseWriter,
// APIResponseCompression on by default). A body is gzipped (level 1) when the request's
// Accept-Encoding names gzip and the body is over 128 KiB; then the response says
// `Content-Encoding: gzip`, adds `Vary: Accept-Encoding` and has no Content-Length. Watches and
// streams (logs, proxies) are written elsewhere and never compressed, as upstream's watch server
// and StreamObject never are; OpenAPI documents have their own rule (openapihttp.ts).
//
// Upstream compares the encoder's first write with the threshold; in 1.32 every encoder writes
// the whole body at once (json.Encoder, the protobuf serializer), so the rule is the body's size.
// The deflate runs on libuv's thread pool (zlib's asynchronous stream), not on the main thread.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Body } from './encoding.js';
import { indentJSON, jsonToYAML } from './jsontext.js';
import { negotiateOutput, notAcceptable, prettyByRequest, type OutputMedia } from './negotiate.js';

/** defaultGzipThresholdBytes: a body must be longer than this to be compressed. */
export const gzipThresholdBytes = 128 * 1024;
/** defaultGzipContentEncodingLevel (kubernetes#112296: least CPU, ratios close to higher levels). */
export const gzipLevel = 1;

/** Go's unicode.IsSpace, which strings.TrimSpace trims. */
const goSpace = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+';
const goTrim = new RegExp(`^${goSpace}|${goSpace}$`, 'g');

/**
 * negotiateContentEncoding: "gzip" when one comma-separated token of the (first) Accept-Encoding
 * header is exactly `gzip` once spaces are trimmed. Nothing else is parsed: `gzip;q=0`, `GZIP`,
 * `x-gzip` and `*` do not ask for gzip, and `gzip;q=0.5` does not either.
 */
export function negotiateContentEncoding(acceptEncoding: string | undefined): 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  // Node decodes header bytes as Latin-1; Go trims the spaces of the UTF-8 they spell.
  // eslint-disable-next-line no-control-regex
  const value = /[^\x00-\x7f]/.test(acceptEncoding) ? Buffer.from(acceptEncoding, 'latin1').toString('utf8') : acceptEncoding;
  for (const token of value.split(',')) if (token.replace(goTrim, '') === 'gzip') return 'gzip';
  return undefined;
}

/** The value Go's Header.Get would read: the first Accept-Encoding line, not all joined. */
function acceptEncodingOf(res: ServerResponse): string | undefined {
  return res.req?.headersDistinct['accept-encoding']?.[0];
}

/** The UTF-8 length of `text` is over the threshold (measured only when it might be). */
function textOverThreshold(text: string): boolean {
  if (text.length > gzipThresholdBytes) return true;
  if (text.length * 3 <= gzipThresholdBytes) return false;
  return Buffer.byteLength(text) > gzipThresholdBytes;
}

/** Writes a JSON text as the whole response (one write when not compressed, as before). */
export function sendText(res: ServerResponse, code: number, headers: OutgoingHttpHeaders, text: string): void {
  if (textOverThreshold(text) && negotiateContentEncoding(acceptEncodingOf(res))) return sendGzip(res, code, headers, [Buffer.from(text)], () => {});
  res.writeHead(code, headers);
  res.end(text);
}

/** The headers of every JSON object, list or Status the API writes (WithCacheControl's value). */
export function jsonHeaders(): Record<string, string | string[]> {
  return { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
}

/** What the handler negotiated for a request's successful response (negotiate.ts). */
const negotiated = new WeakMap<IncomingMessage, OutputMedia>();

/** Keeps the form a resource request negotiated up front, for the object it answers with. */
export function rememberOutput(req: IncomingMessage, media: OutputMedia): void {
  negotiated.set(req, media);
}

/**
 * The form of a response to `req`: what its handler negotiated, else (and always for an error:
 * ErrorNegotiated) what a non-resource endpoint negotiates; undefined when nothing fits.
 */
export function outputOf(req: IncomingMessage | undefined, forError = false): OutputMedia | undefined {
  if (!req) return { serializer: 'json', pretty: false };
  const media = (forError ? undefined : negotiated.get(req)) ?? negotiateOutput(req.headersDistinct['accept']?.[0], 'default');
  if (!media || media.serializer !== 'json' || media.pretty) return media;
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return prettyByRequest(at < 0 ? '' : url.slice(at + 1), req.headersDistinct['user-agent']?.[0]) ? { ...media, pretty: true } : media;
}

/**
 * Writes an API object's compact JSON (Go-escaped) as the request negotiated it: compact with
 * json.Encoder's newline, indented, or YAML. When nothing the request accepts fits (an error
 * answered to such a request), as WriteRawJSON writes: indented JSON, no newline.
 */
export function sendObjectJSON(res: ServerResponse, code: number, headers: OutgoingHttpHeaders, json: string, media: OutputMedia | undefined): void {
  // WriteObjectNegotiated: an error keeps its own code and body; anything else becomes the 406.
  if (!media && code >= 200 && code < 400) return sendObjectJSON(res, 406, jsonHeaders(), JSON.stringify(notAcceptable().status), undefined);
  if (!media || media.pretty) return sendText(res, code, headers, indentJSON(json));
  if (media.serializer === 'yaml') return sendText(res, code, { ...headers, 'Content-Type': 'application/yaml' }, jsonToYAML(json));
  sendText(res, code, headers, json + '\n');
}

const newline = Buffer.from('\n');

/**
 * Writes a compact JSON body built as pieces (Transfer-Encoding: chunked) as the request
 * negotiated it (see sendObjectJSON); its pooled pieces go back once the response has finished
 * (not if it failed: a write, or the deflate, might still hold them, and the collector takes
 * them then).
 */
export function sendPieces(res: ServerResponse, code: number, b: Body): void {
  const headers = jsonHeaders();
  const media = outputOf(res.req);
  if (!media || media.pretty || media.serializer !== 'json') {
    const json = Buffer.concat(b.pieces as Buffer[]).toString();
    b.release();
    return sendObjectJSON(res, code, headers, json, media);
  }
  let size = newline.length;
  for (const p of b.pieces) size += p.length;
  if (size > gzipThresholdBytes && negotiateContentEncoding(acceptEncodingOf(res))) return sendGzip(res, code, headers, [...b.pieces, newline], () => b.release());
  res.writeHead(code, headers);
  res.cork();
  for (const p of b.pieces) res.write(p);
  res.write(newline);
  // end() uncorks: the pieces go out in as few TLS records as they fit.
  res.end(() => b.release());
}

/** `headers` with Accept-Encoding added to Vary (header.Add: a value of its own). */
function gzipHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { 'Content-Encoding': 'gzip' };
  let vary: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'vary') out[name] = value;
    else if (value !== undefined) vary = Array.isArray(value) ? [...value] : [String(value)];
  }
  out['Vary'] = [...vary, 'Accept-Encoding'];
  return out;
}

/**
 * The body through a gzip stream into the response. zlib reads the pieces from the thread pool
 * until the stream's end, so `done` (which may give them back to a pool) runs only once the
 * response has finished. A client that goes away, or a deflate error, ends the pipeline: the
 * compression stops and the connection is cut, as the uncompressed path's failed writes are.
 */
function sendGzip(res: ServerResponse, code: number, headers: OutgoingHttpHeaders, pieces: readonly Buffer[], done: () => void): void {
  res.writeHead(code, gzipHeaders(headers));
  const gz = createGzip({ level: gzipLevel });
  pipeline(gz, res, (err) => {
    if (!err) done();
  });
  for (const p of pieces) gz.write(p);
  gz.end();
}
