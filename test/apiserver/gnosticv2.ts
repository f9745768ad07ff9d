// A test-side reader of gnostic's openapi.v2.Document protobuf (field numbers from
// gnostic-models openapiv2/OpenAPIv2.proto), written apart from the encoder so that a wrong field
// number or wire type in either shows up as a difference from the JSON document. It turns the
// message back into Swagger JSON: vendor extensions and enum values from their Any.yaml.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

interface RawField {
  no: number;
  wire: number;
  value: bigint | Buffer;
}

function varint(b: Buffer, pos: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const byte = b[pos++];
    if (byte === undefined) throw new Error('truncated varint');
    v |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [v, pos];
    shift += 7n;
  }
}

export function rawFields(b: Buffer): RawField[] {
  const out: RawField[] = [];
  let pos = 0;
  while (pos < b.length) {
    const [key, p1] = varint(b, pos);
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, p2] = varint(b, p1);
      out.push({ no, wire, value: v });
      pos = p2;
    } else if (wire === 1) {
      out.push({ no, wire, value: b.subarray(p1, p1 + 8) });
      pos = p1 + 8;
    } else if (wire === 2) {
      const [len, p2] = varint(b, p1);
      out.push({ no, wire, value: b.subarray(p2, p2 + Number(len)) });
      pos = p2 + Number(len);
    } else throw new Error(`wire type ${wire}`);
    if (pos > b.length) throw new Error('truncated field');
  }
  return out;
}

type Kind = 'string' | 'strings' | 'bool' | 'int64' | 'double' | 'any' | 'anys' | 'ext' | ((b: Buffer) => Json) | { list: (b: Buffer) => Json };
type Spec = Record<number, [string, Kind]>;

function yamlValue(anyMsg: Buffer): Json {
  const f = rawFields(anyMsg).find((x) => x.no === 2);
  if (!f) throw new Error('Any without yaml');
  return JSON.parse((f.value as Buffer).toString('utf8')) as Json;
}

function read(b: Buffer, spec: Spec, what: string): Obj {
  const out: Obj = {};
  for (const f of rawFields(b)) {
    const s = spec[f.no];
    if (!s) throw new Error(`${what}: unexpected field ${f.no}`);
    const [key, kind] = s;
    const wantWire = kind === 'bool' || kind === 'int64' ? 0 : kind === 'double' ? 1 : 2;
    if (f.wire !== wantWire) throw new Error(`${what}.${key}: wire type ${f.wire}, want ${wantWire}`);
    const buf = f.value as Buffer;
    if (kind === 'string') out[key] = buf.toString('utf8');
    else if (kind === 'strings') out[key] = [...((out[key] as Json[] | undefined) ?? []), buf.toString('utf8')];
    else if (kind === 'bool') out[key] = f.value === 1n;
    else if (kind === 'int64') out[key] = Number(f.value);
    else if (kind === 'double') out[key] = buf.readDoubleLE(0);
    else if (kind === 'any') out[key] = yamlValue(buf);
    else if (kind === 'anys') out[key] = [...((out[key] as Json[] | undefined) ?? []), yamlValue(buf)];
    else if (kind === 'ext') {
      const named = read(buf, { 1: ['name', 'string'], 2: ['value', 'any'] }, `${what} extension`);
      out[named['name'] as string] = named['value']!;
    } else if (typeof kind === 'function') out[key] = kind(buf);
    else out[key] = [...((out[key] as Json[] | undefined) ?? []), kind.list(buf)];
  }
  return out;
}

/** repeated Named* { name = 1; value = 2 } as an object. */
const named = (value: (b: Buffer) => Json) => (b: Buffer): Json => {
  const out: Obj = {};
  for (const f of rawFields(b)) {
    if (f.no !== 1) throw new Error(`named map: field ${f.no}`);
    const e = read(f.value as Buffer, { 1: ['name', 'string'], 2: ['value', (x) => value(x)] }, 'named entry');
    out[e['name'] as string] = e['value'] ?? {};
  }
  return out;
};

function schema(b: Buffer): Json {
  const s = read(
    b,
    {
      1: ['$ref', 'string'], 2: ['format', 'string'], 3: ['title', 'string'], 4: ['description', 'string'], 5: ['default', 'any'],
      6: ['multipleOf', 'double'], 7: ['maximum', 'double'], 8: ['exclusiveMaximum', 'bool'], 9: ['minimum', 'double'], 10: ['exclusiveMinimum', 'bool'],
      11: ['maxLength', 'int64'], 12: ['minLength', 'int64'], 13: ['pattern', 'string'], 14: ['maxItems', 'int64'], 15: ['minItems', 'int64'],
      16: ['uniqueItems', 'bool'], 17: ['maxProperties', 'int64'], 18: ['minProperties', 'int64'], 19: ['required', 'strings'], 20: ['enum', 'anys'],
      21: ['additionalProperties', (x) => { const a = read(x, { 1: ['schema', schema], 2: ['boolean', 'bool'] }, 'AdditionalPropertiesItem'); return a['schema'] ?? a['boolean'] ?? false; }],
      22: ['type', (x) => { const t = read(x, { 1: ['value', 'strings'] }, 'TypeItem')['value'] as string[]; return t.length === 1 ? t[0]! : t; }],
      23: ['items', (x) => { const i = read(x, { 1: ['schema', { list: schema }] }, 'ItemsItem')['schema'] as Json[]; return i.length === 1 ? i[0]! : i; }],
      24: ['allOf', { list: schema }], 25: ['properties', named(schema)], 26: ['discriminator', 'string'], 27: ['readOnly', 'bool'], 30: ['example', 'any'], 31: ['x', 'ext'],
    },
    'Schema',
  );
  return s;
}

const nonBodyCommon: Spec = { 1: ['required', 'bool'], 2: ['in', 'string'], 3: ['description', 'string'], 4: ['name', 'string'] };

function parameter(b: Buffer): Json {
  const item = read(b, { 1: ['parameter', (x) => x as unknown as Json], 2: ['jsonReference', (x) => x as unknown as Json] }, 'ParametersItem');
  const p = item['parameter'] as unknown as Buffer;
  const oneof = read(p, { 1: ['body', (x) => x as unknown as Json], 2: ['nonBody', (x) => x as unknown as Json] }, 'Parameter');
  if (oneof['body']) {
    return read(oneof['body'] as unknown as Buffer, { 1: ['description', 'string'], 2: ['name', 'string'], 3: ['in', 'string'], 4: ['required', 'bool'], 5: ['schema', schema], 6: ['x', 'ext'] }, 'BodyParameter');
  }
  const nb = read(oneof['nonBody'] as unknown as Buffer, { 3: ['query', (x) => x as unknown as Json], 4: ['path', (x) => x as unknown as Json] }, 'NonBodyParameter');
  if (nb['query']) {
    return read(nb['query'] as unknown as Buffer, { ...nonBodyCommon, 5: ['allowEmptyValue', 'bool'], 6: ['type', 'string'], 7: ['format', 'string'], 9: ['collectionFormat', 'string'], 10: ['default', 'any'], 17: ['pattern', 'string'], 20: ['uniqueItems', 'bool'], 21: ['enum', 'anys'], 23: ['x', 'ext'] }, 'QueryParameterSubSchema');
  }
  return read(nb['path'] as unknown as Buffer, { ...nonBodyCommon, 5: ['type', 'string'], 6: ['format', 'string'], 8: ['collectionFormat', 'string'], 9: ['default', 'any'], 16: ['pattern', 'string'], 19: ['uniqueItems', 'bool'], 20: ['enum', 'anys'], 22: ['x', 'ext'] }, 'PathParameterSubSchema');
}

function responses(b: Buffer): Json {
  const out: Obj = {};
  for (const f of rawFields(b)) {
    if (f.no !== 1) throw new Error(`Responses: field ${f.no}`);
    const e = read(f.value as Buffer, { 1: ['name', 'string'], 2: ['value', (x) => x as unknown as Json] }, 'NamedResponseValue');
    const rv = read(e['value'] as unknown as Buffer, { 1: ['response', (x) => x as unknown as Json] }, 'ResponseValue');
    out[e['name'] as string] = read(
      rv['response'] as unknown as Buffer,
      { 1: ['description', 'string'], 2: ['schema', (x) => read(x, { 1: ['schema', schema] }, 'SchemaItem')['schema']!], 5: ['x', 'ext'] },
      'Response',
    );
  }
  return out;
}

function operation(b: Buffer): Json {
  return read(
    b,
    {
      1: ['tags', 'strings'], 2: ['summary', 'string'], 3: ['description', 'string'], 5: ['operationId', 'string'], 6: ['produces', 'strings'], 7: ['consumes', 'strings'],
      8: ['parameters', { list: parameter }], 9: ['responses', responses], 10: ['schemes', 'strings'], 11: ['deprecated', 'bool'], 13: ['x', 'ext'],
    },
    'Operation',
  );
}

function pathItem(b: Buffer): Json {
  return read(
    b,
    { 1: ['$ref', 'string'], 2: ['get', operation], 3: ['put', operation], 4: ['post', operation], 5: ['delete', operation], 6: ['options', operation], 7: ['head', operation], 8: ['patch', operation], 9: ['parameters', { list: parameter }], 10: ['x', 'ext'] },
    'PathItem',
  );
}

/** The Swagger JSON a gnostic openapi.v2.Document protobuf carries. */
export function readDocument(b: Buffer): Obj {
  return read(
    b,
    {
      1: ['swagger', 'string'],
      2: ['info', (x) => read(x, { 1: ['title', 'string'], 2: ['version', 'string'], 3: ['description', 'string'], 7: ['x', 'ext'] }, 'Info')],
      3: ['host', 'string'], 4: ['basePath', 'string'], 5: ['schemes', 'strings'], 6: ['consumes', 'strings'], 7: ['produces', 'strings'],
      8: ['paths', (x) => { const p = read(x, { 1: ['x', 'ext'], 2: ['path', { list: (e) => e as unknown as Json }] }, 'Paths'); const out: Obj = {}; for (const e of (p['path'] as unknown as Buffer[] | undefined) ?? []) { const n = read(e, { 1: ['name', 'string'], 2: ['value', pathItem] }, 'NamedPathItem'); out[n['name'] as string] = n['value'] ?? {}; } return out; }],
      9: ['definitions', named(schema)],
      16: ['x', 'ext'],
    },
    'Document',
  );
}
