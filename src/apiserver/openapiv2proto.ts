// Encodes a Swagger 2.0 JSON document as the protobuf message `openapi.v2.Document` of gnostic
// (github.com/google/gnostic-models openapiv2/OpenAPIv2.proto), which kube-apiserver serves at
// /openapi/v2 for `Accept: application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf` and which
// kubectl ≤1.28 (and 1.29+ as a fallback) requires. Like kube-openapi's ToProtoBinary (JSON →
// gnostic ParseDocument → proto.Marshal), it is derived from the JSON document, so the two forms
// carry the same content.
//
// Covered: the subset of the message tree Bulkhead's document uses (Document, Info, Paths,
// PathItem, Operation, body/query/path parameters, Responses, Definitions, Schema) and vendor
// extensions anywhere on those. A vendor extension, an enum value or a default is a gnostic
// `Any` whose `yaml` holds the value; gnostic writes block YAML, this writes its JSON text, which
// is YAML too and what every reader (yaml.Unmarshal) accepts. A key the subset does not know
// throws, so a document change that needs a new message cannot be served silently wrong.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A protobuf message being written: fields in the order they are added. */
class Message {
  private readonly parts: Buffer[] = [];

  private tag(no: number, wire: number): void {
    this.varint(BigInt(no) << 3n | BigInt(wire));
  }

  private varint(v: bigint): void {
    const bytes: number[] = [];
    let x = BigInt.asUintN(64, v);
    while (x >= 0x80n) {
      bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    bytes.push(Number(x));
    this.parts.push(Buffer.from(bytes));
  }

  /** proto3: the default (empty string) is not written. */
  string(no: number, v: Json | undefined): this {
    if (v === undefined || v === null || v === '') return this;
    if (typeof v !== 'string') throw new Error(`openapi v2 protobuf: field ${no} wants a string, got ${JSON.stringify(v)}`);
    return this.bytes(no, Buffer.from(v, 'utf8'));
  }

  strings(no: number, v: Json | undefined): this {
    if (v === undefined) return this;
    if (!Array.isArray(v)) throw new Error(`openapi v2 protobuf: field ${no} wants a list of strings`);
    for (const s of v) {
      if (typeof s !== 'string') throw new Error(`openapi v2 protobuf: field ${no} wants a list of strings`);
      this.bytes(no, Buffer.from(s, 'utf8'));
    }
    return this;
  }

  bool(no: number, v: Json | undefined): this {
    if (v === undefined || v === false) return this;
    if (v !== true) throw new Error(`openapi v2 protobuf: field ${no} wants a boolean`);
    this.tag(no, 0);
    this.varint(1n);
    return this;
  }

  int64(no: number, v: Json | undefined): this {
    if (v === undefined || v === 0) return this;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`openapi v2 protobuf: field ${no} wants an integer`);
    this.tag(no, 0);
    this.varint(BigInt(v));
    return this;
  }

  double(no: number, v: Json | undefined): this {
    if (v === undefined || v === 0) return this;
    if (typeof v !== 'number') throw new Error(`openapi v2 protobuf: field ${no} wants a number`);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    this.tag(no, 1);
    this.parts.push(b);
    return this;
  }

  bytes(no: number, b: Buffer): this {
    this.tag(no, 2);
    this.varint(BigInt(b.length));
    this.parts.push(b);
    return this;
  }

  message(no: number, m: Message | undefined): this {
    return m ? this.bytes(no, m.finish()) : this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function unknownKeys(where: string, obj: JsonObject, known: readonly string[]): void {
  for (const k of Object.keys(obj)) {
    if (!k.startsWith('x-') && !known.includes(k)) throw new Error(`openapi v2 protobuf: ${where} has "${k}", which the encoder does not cover`);
  }
}

/** gnostic Any { yaml = 2 }. */
function any(v: Json): Message {
  return new Message().string(2, `${JSON.stringify(v)}\n`);
}

/** repeated NamedAny { name = 1; Any value = 2 } for every `x-` key, in document order. */
function vendorExtensions(m: Message, no: number, obj: JsonObject): void {
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('x-')) m.message(no, new Message().string(1, k).message(2, any(v)));
  }
}

function anyList(m: Message, no: number, v: Json | undefined): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) throw new Error(`openapi v2 protobuf: field ${no} wants a list`);
  for (const x of v) m.message(no, any(x));
}

const SCHEMA_KEYS = [
  '$ref', 'format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum',
  'additionalProperties', 'type', 'items', 'allOf', 'properties', 'discriminator', 'readOnly', 'example',
] as const;

/** openapi.v2.Schema. */
function schemaMessage(s: JsonObject): Message {
  unknownKeys('a schema', s, SCHEMA_KEYS);
  const m = new Message()
    .string(1, s['$ref'])
    .string(2, s['format'])
    .string(3, s['title'])
    .string(4, s['description']);
  if (s['default'] !== undefined) m.message(5, any(s['default']));
  m.double(6, s['multipleOf'])
    .double(7, s['maximum'])
    .bool(8, s['exclusiveMaximum'])
    .double(9, s['minimum'])
    .bool(10, s['exclusiveMinimum'])
    .int64(11, s['maxLength'])
    .int64(12, s['minLength'])
    .string(13, s['pattern'])
    .int64(14, s['maxItems'])
    .int64(15, s['minItems'])
    .bool(16, s['uniqueItems'])
    .int64(17, s['maxProperties'])
    .int64(18, s['minProperties'])
    .strings(19, s['required']);
  anyList(m, 20, s['enum']);
  const ap = s['additionalProperties'];
  if (isObject(ap)) m.message(21, new Message().message(1, schemaMessage(ap)));
  else if (typeof ap === 'boolean') m.message(21, new Message().bool(2, ap));
  const type = s['type'];
  if (type !== undefined) m.message(22, new Message().strings(1, Array.isArray(type) ? type : [type]));
  const items = s['items'];
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    const im = new Message();
    for (const it of list) if (isObject(it)) im.message(1, schemaMessage(it));
    m.message(23, im);
  }
  if (Array.isArray(s['allOf'])) for (const a of s['allOf']) if (isObject(a)) m.message(24, schemaMessage(a));
  const props = s['properties'];
  if (isObject(props)) m.message(25, namedSchemas(props));
  m.string(26, s['discriminator']).bool(27, s['readOnly']);
  if (s['example'] !== undefined) m.message(30, any(s['example']));
  vendorExtensions(m, 31, s);
  return m;
}

/** Properties / Definitions: repeated NamedSchema { name = 1; Schema value = 2 } = 1. */
function namedSchemas(obj: JsonObject): Message {
  const m = new Message();
  for (const [name, s] of Object.entries(obj)) {
    if (!isObject(s)) throw new Error(`openapi v2 protobuf: schema ${name} is not an object`);
    m.message(1, new Message().string(1, name).message(2, schemaMessage(s)));
  }
  return m;
}

const NON_BODY_KEYS = ['name', 'in', 'description', 'required', 'type', 'format', 'uniqueItems', 'enum', 'default', 'allowEmptyValue', 'collectionFormat', 'pattern'] as const;

/** ParametersItem { Parameter parameter = 1 }, Parameter { BodyParameter = 1 | NonBodyParameter = 2 }. */
function parameterItem(p: JsonObject): Message {
  const where = String(p['in']);
  let param: Message;
  if (where === 'body') {
    unknownKeys('a body parameter', p, ['name', 'in', 'description', 'required', 'schema']);
    const body = new Message().string(1, p['description']).string(2, p['name']).string(3, p['in']).bool(4, p['required']);
    if (isObject(p['schema'])) body.message(5, schemaMessage(p['schema']));
    vendorExtensions(body, 6, p);
    param = new Message().message(1, body);
  } else if (where === 'query') {
    unknownKeys('a query parameter', p, NON_BODY_KEYS);
    const q = new Message()
      .bool(1, p['required'])
      .string(2, p['in'])
      .string(3, p['description'])
      .string(4, p['name'])
      .bool(5, p['allowEmptyValue'])
      .string(6, p['type'])
      .string(7, p['format'])
      .string(9, p['collectionFormat']);
    if (p['default'] !== undefined) q.message(10, any(p['default']));
    q.string(17, p['pattern']).bool(20, p['uniqueItems']);
    anyList(q, 21, p['enum']);
    vendorExtensions(q, 23, p);
    param = new Message().message(2, new Message().message(3, q));
  } else if (where === 'path') {
    unknownKeys('a path parameter', p, NON_BODY_KEYS.filter((k) => k !== 'allowEmptyValue'));
    const pp = new Message()
      .bool(1, p['required'])
      .string(2, p['in'])
      .string(3, p['description'])
      .string(4, p['name'])
      .string(5, p['type'])
      .string(6, p['format'])
      .string(8, p['collectionFormat']);
    if (p['default'] !== undefined) pp.message(9, any(p['default']));
    pp.string(16, p['pattern']).bool(19, p['uniqueItems']);
    anyList(pp, 20, p['enum']);
    vendorExtensions(pp, 22, p);
    param = new Message().message(2, new Message().message(4, pp));
  } else {
    throw new Error(`openapi v2 protobuf: parameters "in: ${where}" are not covered`);
  }
  return new Message().message(1, param);
}

function parameters(m: Message, no: number, v: Json | undefined): void {
  if (!Array.isArray(v)) return;
  for (const p of v) if (isObject(p)) m.message(no, parameterItem(p));
}

/** Responses { repeated NamedResponseValue response_code = 1 }; ResponseValue { Response response = 1 }. */
function responses(obj: JsonObject): Message {
  const m = new Message();
  for (const [code, r] of Object.entries(obj)) {
    if (code.startsWith('x-') || !isObject(r)) continue;
    unknownKeys(`response ${code}`, r, ['description', 'schema']);
    const resp = new Message().string(1, r['description']);
    // SchemaItem { Schema schema = 1 }
    if (isObject(r['schema'])) resp.message(2, new Message().message(1, schemaMessage(r['schema'])));
    vendorExtensions(resp, 5, r);
    m.message(1, new Message().string(1, code).message(2, new Message().message(1, resp)));
  }
  vendorExtensions(m, 2, obj);
  return m;
}

function operation(op: JsonObject): Message {
  unknownKeys('an operation', op, ['tags', 'summary', 'description', 'operationId', 'produces', 'consumes', 'parameters', 'responses', 'schemes', 'deprecated']);
  const m = new Message().strings(1, op['tags']).string(2, op['summary']).string(3, op['description']).string(5, op['operationId']).strings(6, op['produces']).strings(7, op['consumes']);
  parameters(m, 8, op['parameters']);
  if (isObject(op['responses'])) m.message(9, responses(op['responses']));
  m.strings(10, op['schemes']).bool(11, op['deprecated']);
  vendorExtensions(m, 13, op);
  return m;
}

const PATH_ITEM_OPS: readonly (readonly [string, number])[] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(item: JsonObject): Message {
  unknownKeys('a path item', item, ['$ref', 'parameters', ...PATH_ITEM_OPS.map(([k]) => k)]);
  const m = new Message().string(1, item['$ref']);
  for (const [k, no] of PATH_ITEM_OPS) {
    const op = item[k];
    if (isObject(op)) m.message(no, operation(op));
  }
  parameters(m, 9, item['parameters']);
  vendorExtensions(m, 10, item);
  return m;
}

/** The gnostic openapi.v2.Document for a Swagger 2.0 JSON document. */
export function openAPIv2Protobuf(doc: JsonObject): Buffer {
  unknownKeys('the document', doc, ['swagger', 'info', 'host', 'basePath', 'schemes', 'consumes', 'produces', 'paths', 'definitions']);
  const m = new Message().string(1, doc['swagger']);
  const info = doc['info'];
  if (isObject(info)) {
    unknownKeys('info', info, ['title', 'version', 'description']);
    const im = new Message().string(1, info['title']).string(2, info['version']).string(3, info['description']);
    vendorExtensions(im, 7, info);
    m.message(2, im);
  }
  m.string(3, doc['host']).string(4, doc['basePath']).strings(5, doc['schemes']).strings(6, doc['consumes']).strings(7, doc['produces']);
  const paths = doc['paths'];
  if (isObject(paths)) {
    const pm = new Message();
    vendorExtensions(pm, 1, paths);
    for (const [p, item] of Object.entries(paths)) if (!p.startsWith('x-') && isObject(item)) pm.message(2, new Message().string(1, p).message(2, pathItem(item)));
    m.message(8, pm);
  }
  if (isObject(doc['definitions'])) m.message(9, namedSchemas(doc['definitions']));
  vendorExtensions(m, 16, doc);
  return m.finish();
}
