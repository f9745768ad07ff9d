// The Swagger 2.0 (OpenAPI v2) document served at /openapi/v2, derived from the OpenAPI v3
// documents of openapi.ts so the two can never disagree. Shaped as kube-apiserver's
// (k8s.io/kube-openapi pkg/builder, the v2 twin of pkg/builder3): one document for every
// group-version, `definitions` instead of `components.schemas`, a field that refers to another
// schema is `{$ref, description}` (v3 wraps it in allOf), parameters carry their `type` inline,
// request bodies are a `body` parameter, and operations list `consumes`/`produces`.
// kubectl ≤1.28 reads it (as protobuf, see apiserver/openapiv2proto.ts) for validation, explain and
// client-side apply's strategic merge patch; kubectl 1.29+ falls back to it for kinds the v3
// documents do not cover.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v3 schema in v2 form: refs point into `definitions`, and `allOf: [{$ref}]` becomes `$ref` beside its siblings. */
export function swaggerSchema(s: Json): Json {
  if (Array.isArray(s)) return s.map(swaggerSchema);
  if (!isObject(s)) return s;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.startsWith(V3_REF) ? V2_REF + v.slice(V3_REF.length) : v;
    else if (k === 'allOf' && Array.isArray(v) && v.length === 1 && isObject(v[0]) && typeof v[0]['$ref'] === 'string') {
      Object.assign(out, swaggerSchema(v[0]));
    } else if (k === 'properties' && isObject(v)) {
      const props: JsonObject = {};
      for (const [name, p] of Object.entries(v)) props[name] = swaggerSchema(p);
      out[k] = props;
    } else if (k === 'items' || k === 'additionalProperties') out[k] = swaggerSchema(v);
    else out[k] = v;
  }
  return out;
}

function swaggerParameter(p: Json): Json {
  if (!isObject(p)) return p;
  const { schema, ...rest } = p;
  // kube-openapi marks every non-body parameter uniqueItems: true.
  return { ...rest, ...(isObject(schema) ? (swaggerSchema(schema) as JsonObject) : {}), uniqueItems: true };
}

function swaggerResponse(r: Json): Json {
  if (!isObject(r)) return r;
  const out: JsonObject = { description: r['description'] ?? '' };
  const content = r['content'];
  if (isObject(content)) {
    const first = Object.values(content).find((c) => isObject(c) && c['schema'] !== undefined);
    if (isObject(first)) out['schema'] = swaggerSchema(first['schema']!);
  }
  return out;
}

function swaggerOperation(op: JsonObject): JsonObject {
  const out: JsonObject = {};
  const params: Json[] = Array.isArray(op['parameters']) ? op['parameters'].map(swaggerParameter) : [];
  const body = op['requestBody'];
  let consumes: string[] = ['*/*'];
  if (isObject(body) && isObject(body['content'])) {
    consumes = Object.keys(body['content']);
    const schemas = Object.values(body['content']).filter(isObject).map((c) => c['schema']);
    params.unshift({ name: 'body', in: 'body', required: body['required'] === true, schema: swaggerSchema(schemas[0] ?? { type: 'object' }) });
  }
  const produces = new Set<string>();
  const responses: JsonObject = {};
  for (const [code, r] of Object.entries(isObject(op['responses']) ? op['responses'] : {})) {
    responses[code] = swaggerResponse(r);
    if (isObject(r) && isObject(r['content'])) for (const ct of Object.keys(r['content'])) produces.add(ct);
  }
  for (const [k, v] of Object.entries(op)) {
    if (k === 'parameters' || k === 'requestBody' || k === 'responses') continue;
    out[k] = v;
  }
  out['consumes'] = consumes;
  out['produces'] = [...produces];
  out['schemes'] = ['https'];
  if (params.length > 0) out['parameters'] = params;
  out['responses'] = responses;
  return out;
}

function swaggerPathItem(item: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const m of METHODS) {
    const op = item[m];
    if (isObject(op)) out[m] = swaggerOperation(op);
  }
  if (Array.isArray(item['parameters'])) out['parameters'] = item['parameters'].map(swaggerParameter);
  return out;
}

/**
 * The one Swagger 2.0 document of every group-version: the union of the v3 documents' paths
 * and schemas. A schema two documents both carry must be the same in both (it always is: each is
 * generated from one definition); a difference is a bug, so it throws.
 */
export function swaggerDocument(v3Documents: Readonly<Record<string, { readonly doc: JsonObject }>>): JsonObject {
  const paths: JsonObject = {};
  const definitions: JsonObject = {};
  const seen = new Map<string, string>();
  for (const gv of Object.keys(v3Documents).sort()) {
    const doc = v3Documents[gv]!.doc;
    for (const [p, item] of Object.entries(isObject(doc['paths']) ? doc['paths'] : {})) {
      if (paths[p] !== undefined) throw new Error(`openapi v2: path ${p} is in two documents`);
      if (isObject(item)) paths[p] = swaggerPathItem(item);
    }
    const schemas = isObject(doc['components']) && isObject(doc['components']['schemas']) ? doc['components']['schemas'] : {};
    for (const [name, s] of Object.entries(schemas)) {
      const text = JSON.stringify(s);
      const before = seen.get(name);
      if (before !== undefined && before !== text) throw new Error(`openapi v2: schema ${name} differs between documents`);
      seen.set(name, text);
      definitions[name] = swaggerSchema(s);
    }
  }
  const sortedPaths: JsonObject = {};
  for (const k of Object.keys(paths).sort()) sortedPaths[k] = paths[k]!;
  const sortedDefs: JsonObject = {};
  for (const k of Object.keys(definitions).sort()) sortedDefs[k] = definitions[k]!;
  return { swagger: '2.0', info: { title: 'Bulkhead', version: 'unversioned' }, paths: sortedPaths, definitions: sortedDefs };
}
