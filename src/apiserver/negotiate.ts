// How kube-apiserver chooses the form of a response from the request (k8s.io/apiserver
// pkg/endpoints/handlers/negotiation/negotiate.go and handlers/rest.go's RequestScope
// restrictions @ v0.32.9; github.com/munnerz/goautoneg for the Accept header): the serializer
// (JSON or YAML), a conversion asked for with `as=…;g=…;v=…` (a Table, or PartialObjectMetadata),
// and whether JSON is pretty-printed. A request nothing fits is refused with 406 before any work.
//
// Protobuf is offered as upstream offers it, but Bulkhead writes no protobuf: a client that
// takes it (client-go's protobuf clients ask for `application/vnd.kubernetes.protobuf,
// application/json`) gets JSON, which the Content-Type says and client-go decodes.

import { statusErrors, type StatusError } from './status.js';
import type { IncludeObject } from './tables.js';

interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/**
 * goautoneg.ParseAccept: comma-separated clauses, a clause with neither `type/subtype` nor a bare
 * `*` dropped, `q` read as a float (0 when it does not parse: such a clause still matches, last),
 * other parameters kept trimmed; best first by q, then a concrete type, then a concrete subtype.
 */
export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const [range, ...rawParams] = trimSpaces(raw).split(';');
    const sp = range!.split('/');
    const type = trimSpaces(sp[0]!);
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = trimSpaces(sp[1]!);
    else continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = trimSpaces(p.slice(0, eq));
      if (key === 'q') q = goParseFloat(p.slice(eq + 1));
      else params.set(key, trimSpaces(p.slice(eq + 1)));
    }
    out.push({ type, subType, q, params });
  }
  const less = (a: AcceptClause, b: AcceptClause) => a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  // Go's sort.Sort on up to 12 elements is an insertion sort, so the same one gives the same
  // order. A longer header (a client's mistake, or an attack: up to thousands of clauses) is
  // sorted in O(n log n), stably, by the same rule.
  if (out.length > 12) return out.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j]!, out[j - 1]!); j--) [out[j], out[j - 1]] = [out[j - 1]!, out[j]!];
  }
  return out;
}

/** strings.Trim(s, " "): spaces only, not tabs. */
function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return s.slice(a, b);
}

/** strconv.ParseFloat(s, 32) with the error ignored: 0 for anything Go would not parse. */
function goParseFloat(s: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return 0;
  return Math.fround(Number(s));
}

/** The media types kube-apiserver's built-in resources are served in, in its order. */
export const servedMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

export type Serializer = 'json' | 'yaml';

/** A conversion the request asked for (`as`, `g`, `v`), which the endpoint allowed. */
export interface Conversion {
  kind: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1. */
  apiVersion: string;
}

export interface OutputMedia {
  serializer: Serializer;
  convert?: Conversion;
  /** `;pretty=1` in the accepted clause (outputOf adds the query's and the User-Agent's choice). */
  pretty: boolean;
}

/**
 * What an endpoint allows beyond plain objects (negotiation.EndpointRestrictions): a resource's
 * RequestScope takes Table and PartialObjectMetadata conversions and `stream=watch`;
 * everything else (discovery, errors: DefaultEndpointRestrictions) takes neither.
 */
export type Restrictions = 'resource' | 'default';

/**
 * NegotiateMediaTypeOptions: the first clause, best first, that names a served media type (or a
 * wildcard of one) with parameters the endpoint allows. No Accept header means JSON.
 */
export function negotiateOutput(accept: string | undefined, restrictions: Restrictions): OutputMedia | undefined {
  if (!accept) return { serializer: 'json', pretty: false };
  for (const clause of parseAccept(accept)) {
    for (const served of servedMediaTypes) {
      const [type, subType] = served.split('/') as [string, string];
      const matches = (clause.type === type && (clause.subType === subType || clause.subType === '*')) || (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const media = acceptedWith(clause.params, subType, restrictions);
      if (media) return media;
    }
  }
  return undefined;
}

/** acceptMediaTypeOptions with a RequestScope's or the default restrictions. */
function acceptedWith(params: Map<string, string>, subType: string, restrictions: Restrictions): OutputMedia | undefined {
  let convert: { kind?: string; group?: string; version?: string } | undefined;
  let pretty = false;
  for (const [k, v] of params) {
    switch (k) {
      case 'as':
        (convert ??= {}).kind = v;
        break;
      case 'g':
        (convert ??= {}).group = v;
        break;
      case 'v':
        (convert ??= {}).version = v;
        break;
      case 'stream':
        // YAML has no stream serializer; only a resource's scope allows a stream, and only `watch`.
        if (v && (subType === 'yaml' || restrictions !== 'resource' || v !== 'watch')) return undefined;
        break;
      case 'sv':
        if (v && (restrictions !== 'resource' || v !== 'v1')) return undefined;
        break;
      case 'pretty':
        pretty = v === '1';
        break;
    }
  }
  const serializer: Serializer = subType === 'yaml' ? 'yaml' : 'json';
  if (!convert) return { serializer, pretty };
  if (restrictions !== 'resource' || convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return undefined;
  const apiVersion = `meta.k8s.io/${convert.version}`;
  if (convert.kind === 'Table') return subType === 'json' || subType === 'yaml' ? { serializer, pretty, convert: { kind: 'Table', apiVersion } } : undefined;
  if (convert.kind === 'PartialObjectMetadata' || convert.kind === 'PartialObjectMetadataList') return { serializer, pretty, convert: { kind: convert.kind, apiVersion } };
  return undefined;
}

/** negotiation.NewNotAcceptableError for the media types served. */
export function notAcceptable(): StatusError {
  return statusErrors.notAcceptable(`only the following media types are accepted: ${servedMediaTypes.join(', ')}`);
}

/** NegotiateOutputMediaTypeStream's refusal: YAML has no stream serializer. */
export function notAcceptableStream(): StatusError {
  return statusErrors.notAcceptable('only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
}

/**
 * isPrettyPrint: a `pretty` query parameter that is not empty decides (strconv.ParseBool, false
 * when it does not parse); otherwise a browser's or curl's or wget's User-Agent asks for it.
 */
export function prettyByRequest(rawQuery: string, userAgent: string | undefined): boolean {
  if (rawQuery.includes('pretty')) {
    const v = new URLSearchParams(rawQuery).get('pretty');
    if (v) return goParseBool(v);
  }
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

function goParseBool(v: string): boolean {
  return v === '1' || v === 't' || v === 'T' || v === 'TRUE' || v === 'true' || v === 'True';
}

/**
 * optionsForTransform for a Table: the includeObject query parameter (ValidateTableOptions:
 * Metadata, Object, None or empty, which is Metadata), else 400.
 */
export function tableIncludeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject') ?? '';
  if (v === 'Object' || v === 'None' || v === 'Metadata') return v;
  if (v === '') return 'Metadata';
  throw statusErrors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
}
