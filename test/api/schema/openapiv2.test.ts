// The Swagger 2.0 document derived from the v3 documents (src/api/schema/openapiv2.ts): each
// v3 → v2 rule on a small input, then the served resources' document against its v3 sources.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openAPIBundle, swaggerDocument, swaggerSchema } from '../../../src/api/schema/index.js';
import { servedResources } from '../../../src/apiserver/openapidocs.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const v3doc = (paths: Json, schemas: Json = {}) => ({ doc: { openapi: '3.0.0', info: {}, paths, components: { schemas } } });

describe('OpenAPI v2 from v3: the conversion rules', () => {
  const schemaRows: { name: string; v3: Json; v2: Json }[] = [
    { name: 'a $ref points into definitions', v3: { $ref: '#/components/schemas/A' }, v2: { $ref: '#/definitions/A' } },
    {
      name: 'allOf of one $ref becomes the $ref beside its description and extensions (kube-openapi v2 form)',
      v3: { allOf: [{ $ref: '#/components/schemas/A' }], description: 'd', 'x-kubernetes-patch-strategy': 'merge' },
      v2: { $ref: '#/definitions/A', description: 'd', 'x-kubernetes-patch-strategy': 'merge' },
    },
    {
      name: 'properties, items and additionalProperties are converted all the way down',
      v3: { type: 'object', properties: { l: { type: 'array', items: { $ref: '#/components/schemas/B' } }, m: { type: 'object', additionalProperties: { allOf: [{ $ref: '#/components/schemas/C' }] } } } },
      v2: { type: 'object', properties: { l: { type: 'array', items: { $ref: '#/definitions/B' } }, m: { type: 'object', additionalProperties: { $ref: '#/definitions/C' } } } },
    },
    { name: 'everything else is kept as it is', v3: { type: 'string', format: 'int-or-string', enum: ['a'], 'x-kubernetes-group-version-kind': [{ group: '', kind: 'K', version: 'v1' }] }, v2: { type: 'string', format: 'int-or-string', enum: ['a'], 'x-kubernetes-group-version-kind': [{ group: '', kind: 'K', version: 'v1' }] } },
  ];
  for (const row of schemaRows) it(row.name, () => assert.deepEqual(swaggerSchema(row.v3), row.v2));

  const patch = {
    operationId: 'patchCoreV1NamespacedPod',
    parameters: [{ name: 'fieldValidation', in: 'query', description: 'f', schema: { type: 'string' } }],
    requestBody: { content: { 'application/json-patch+json': { schema: { $ref: '#/components/schemas/P' } }, 'application/apply-patch+yaml': { schema: { $ref: '#/components/schemas/P' } } }, required: true },
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pod' } } } }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': { group: '', kind: 'Pod', version: 'v1' },
  };
  const item = { parameters: [{ name: 'name', in: 'path', description: 'n', required: true, schema: { type: 'string' } }], patch };
  const converted = swaggerDocument({ 'api/v1': v3doc({ '/api/v1/pods/{name}': item }, { Pod: { type: 'object', properties: {} } }) }) as Json;
  const op = converted['paths']['/api/v1/pods/{name}']['patch'];

  const opRows: { name: string; check(): void }[] = [
    { name: 'query parameters carry their type inline and uniqueItems', check: () => assert.deepEqual(op.parameters[1], { name: 'fieldValidation', in: 'query', description: 'f', type: 'string', uniqueItems: true }) },
    { name: 'path parameters stay on the path item, required', check: () => assert.deepEqual(converted['paths']['/api/v1/pods/{name}'].parameters, [{ name: 'name', in: 'path', description: 'n', required: true, type: 'string', uniqueItems: true }]) },
    { name: 'the request body is the first parameter, named body', check: () => assert.deepEqual(op.parameters[0], { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/P' } }) },
    { name: 'consumes lists the request body content types', check: () => assert.deepEqual(op.consumes, ['application/json-patch+json', 'application/apply-patch+yaml']) },
    { name: 'produces lists the response content types; a response keeps its schema', check: () => { assert.deepEqual(op.produces, ['application/json']); assert.deepEqual(op.responses, { '200': { description: 'OK', schema: { $ref: '#/definitions/Pod' } }, '401': { description: 'Unauthorized' } }); } },
    { name: 'x-kubernetes-action and x-kubernetes-group-version-kind stay on the operation', check: () => assert.deepEqual([op['x-kubernetes-action'], op['x-kubernetes-group-version-kind']], ['patch', { group: '', kind: 'Pod', version: 'v1' }]) },
    { name: 'the document is swagger 2.0 with definitions', check: () => { assert.equal(converted['swagger'], '2.0'); assert.deepEqual(Object.keys(converted['definitions']), ['Pod']); } },
  ];
  for (const row of opRows) it(row.name, row.check);

  it('a schema that differs between two documents is a bug, and throws', () => {
    assert.throws(() => swaggerDocument({ a: v3doc({}, { S: { type: 'string' } }), b: v3doc({}, { S: { type: 'integer' } }) }), /schema S differs between documents/);
  });
});

describe('OpenAPI v2 of the served resources', () => {
  const bundle = openAPIBundle(servedResources());
  const v2 = swaggerDocument(bundle.documents) as Json;

  it('has every path of every v3 document, with the same operations', () => {
    for (const [gv, { doc }] of Object.entries(bundle.documents)) {
      for (const [path, item] of Object.entries(doc['paths'] as Json)) {
        assert.ok(v2['paths'][path], `${gv}: ${path}`);
        const methods = (o: Json) => Object.keys(o).filter((k) => k !== 'parameters').sort();
        assert.deepEqual(methods(v2['paths'][path]), methods(item as Json), path);
      }
    }
  });

  it('has every schema of every v3 document, kinds with the same x-kubernetes-group-version-kind', () => {
    for (const { doc } of Object.values(bundle.documents)) {
      for (const [name, s] of Object.entries((doc['components'] as Json)['schemas'] as Json)) {
        assert.ok(v2['definitions'][name], name);
        assert.deepEqual(v2['definitions'][name]['x-kubernetes-group-version-kind'], (s as Json)['x-kubernetes-group-version-kind'], name);
      }
    }
  });

  it('has no reference left into components.schemas, and every $ref resolves in definitions', () => {
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (k === '$ref' ? refs.push(x as string) : walk(x));
    };
    walk(v2);
    assert.ok(refs.length > 100);
    for (const r of refs) {
      assert.ok(r.startsWith('#/definitions/'), r);
      assert.ok(v2['definitions'][r.slice('#/definitions/'.length)], r);
    }
  });
});
