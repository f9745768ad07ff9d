// The gnostic openapi.v2.Document encoder (src/apiserver/openapiv2proto.ts): each rule of the
// message mapping on a small document, then the served document read back field by field with
// the independent reader in gnosticv2.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOpenAPIDocs } from '../../src/apiserver/openapidocs.js';
import { openAPIv2Protobuf } from '../../src/apiserver/openapiv2proto.js';
import { rawFields, readDocument } from './gnosticv2.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** What survives proto3: default scalars (false, "", 0) are not on the wire, except inside extension values. */
function withoutDefaults(v: Json): Json {
  if (Array.isArray(v)) return v.map(withoutDefaults);
  if (v === null || typeof v !== 'object') return v;
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === false || x === '' || x === 0) continue;
    // An extension's value travels whole, as YAML text.
    out[k] = k.startsWith('x-') ? x : withoutDefaults(x);
  }
  return out;
}

const op = (extra: Record<string, Json> = {}): Json => ({ operationId: 'op', responses: { '200': { description: 'OK' } }, ...extra });

describe('openapi v2 protobuf: the gnostic message mapping', () => {
  const rows: { name: string; doc: { [k: string]: Json } }[] = [
    { name: 'swagger and info are Document fields 1 and 2 (Info title 1, version 2)', doc: { swagger: '2.0', info: { title: 'Bulkhead', version: 'unversioned' } } },
    { name: 'a path is a NamedPathItem and each method its PathItem field', doc: { swagger: '2.0', paths: { '/a': { get: op(), put: op(), post: op(), delete: op(), patch: op() } } } },
    {
      name: 'query parameters are NonBodyParameter.query_parameter_sub_schema with type and uniqueItems',
      doc: { swagger: '2.0', paths: { '/a': { patch: op({ parameters: [{ name: 'fieldValidation', in: 'query', description: 'd', type: 'string', uniqueItems: true }] }) } } },
    },
    {
      name: 'path parameters are NonBodyParameter.path_parameter_sub_schema, required',
      doc: { swagger: '2.0', paths: { '/a/{name}': { parameters: [{ name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true }], get: op() } } },
    },
    {
      name: 'the body is a BodyParameter with its schema',
      doc: { swagger: '2.0', paths: { '/a': { post: op({ parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/X' } }], consumes: ['*/*'], produces: ['application/json'], schemes: ['https'] }) } } },
    },
    {
      name: 'a response is a NamedResponseValue whose Response carries a SchemaItem',
      doc: { swagger: '2.0', paths: { '/a': { get: op({ responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/X' } }, '401': { description: 'Unauthorized' } } }) } } },
    },
    {
      name: 'vendor extensions are NamedAny whose Any.yaml holds the value (operation, schema, property)',
      doc: {
        swagger: '2.0',
        paths: { '/a': { patch: op({ 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': { group: '', kind: 'Pod', version: 'v1' } }) } },
        definitions: { X: { type: 'object', properties: { c: { type: 'array', items: { $ref: '#/definitions/Y' }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-list-map-keys': ['name'] } }, 'x-kubernetes-group-version-kind': [{ group: '', kind: 'X', version: 'v1' }] } },
      },
    },
    {
      name: 'schemas: type is a TypeItem, items an ItemsItem, additionalProperties an AdditionalPropertiesItem, enum Anys, required strings',
      doc: {
        swagger: '2.0',
        definitions: {
          Y: {
            description: 'y',
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', enum: ['Single', 'Group'] },
              n: { type: 'integer', format: 'int32' },
              m: { type: 'object', additionalProperties: { $ref: '#/definitions/Q' } },
              r: { $ref: '#/definitions/Q', description: 'beside the ref' },
            },
          },
          Q: { type: 'string', format: 'int-or-string' },
        },
      },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(readDocument(openAPIv2Protobuf(row.doc)), withoutDefaults(row.doc));
    });
  }

  it('proto3 defaults are not written: an empty document is zero bytes', () => {
    assert.equal(openAPIv2Protobuf({}).length, 0);
    assert.deepEqual(rawFields(openAPIv2Protobuf({ swagger: '2.0' })).map((f) => f.no), [1]);
  });

  const refused: { name: string; doc: { [k: string]: Json }; message: RegExp }[] = [
    { name: 'a document key the subset does not cover throws instead of being dropped', doc: { swagger: '2.0', securityDefinitions: {} }, message: /the document has "securityDefinitions"/ },
    { name: 'a schema key the subset does not cover throws', doc: { definitions: { X: { oneOf: [] } } }, message: /a schema has "oneOf"/ },
    { name: 'a formData parameter throws', doc: { paths: { '/a': { post: op({ parameters: [{ name: 'f', in: 'formData', type: 'string' }] }) } } }, message: /"in: formData" are not covered/ },
  ];
  for (const row of refused) {
    it(row.name, () => {
      assert.throws(() => openAPIv2Protobuf(row.doc), row.message);
    });
  }
});

describe('openapi v2 protobuf: the served document', () => {
  const docs = buildOpenAPIDocs();
  const json = JSON.parse(docs.v2JSON.body.toString('utf8')) as Json;

  it('reads back as the served JSON document, every path and definition', () => {
    assert.deepEqual(readDocument(docs.v2Protobuf.body), withoutDefaults(json));
  });

  it('both forms carry the ETag of the JSON bytes', () => {
    assert.equal(docs.v2Protobuf.etag, docs.v2JSON.etag);
    assert.match(docs.v2JSON.etag, /^[0-9A-F]{128}$/);
  });
});
