// How /openapi/v2, /openapi/v3 and the CRD list are served, as kube-apiserver serves them
// (kube-openapi pkg/handler, pkg/handler3): content negotiation, ETag and 304, gzip, and the
// hash-addressed v3 documents' caching and redirects.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client, type Response } from './client.js';
import { readDocument } from './gnosticv2.js';

const PB = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PB_KUBECTL = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('hex').toUpperCase();

describe('serving OpenAPI', () => {
  let s: RunningServer;
  let dir: string;
  let c: Client;
  let v2json: Response;
  let v3url: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-openapi-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    c = new Client(s.url, s.caCert, s.adminToken);
    v2json = await c.request('GET', '/openapi/v2', undefined, { Accept: 'application/json' });
    v3url = (await c.request('GET', '/openapi/v3')).json().paths['api/v1'].serverRelativeURL;
  });
  after(async () => {
    c?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const etagOfV2 = () => `"${sha512(v2json.raw)}"`;

  const rows: { name: string; path: () => string; headers?: () => Record<string, string>; check(r: Response): void }[] = [
    {
      name: 'v2 as JSON for Accept: application/json, with the quoted SHA-512 of the bytes as ETag and Vary: Accept',
      path: () => '/openapi/v2',
      check(r) {
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.json().swagger, '2.0');
        assert.equal(r.headers['etag'], etagOfV2());
        assert.match(String(r.headers['vary']), /Accept/);
        assert.ok(r.headers['last-modified']);
      },
    },
    {
      name: 'v2 as gnostic protobuf for the Accept kubectl ≤1.28 sends, answered with the current content type and the same ETag',
      path: () => '/openapi/v2',
      headers: () => ({ Accept: PB_KUBECTL }),
      check(r) {
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-type'], PB);
        assert.equal(r.headers['etag'], etagOfV2());
        assert.deepEqual(Object.keys(readDocument(r.raw)['paths']!).sort(), Object.keys(v2json.json().paths).sort());
      },
    },
    { name: 'v2 as protobuf for the current protobuf media type', path: () => '/openapi/v2', headers: () => ({ Accept: PB }), check: (r) => assert.equal(r.headers['content-type'], PB) },
    { name: 'v2 as JSON for */*', path: () => '/openapi/v2', headers: () => ({ Accept: '*/*' }), check: (r) => assert.equal(r.headers['content-type'], 'application/json') },
    { name: 'the clause with the higher q wins', path: () => '/openapi/v2', headers: () => ({ Accept: `${PB};q=0.5, application/json` }), check: (r) => assert.equal(r.headers['content-type'], 'application/json') },
    {
      name: 'an Accept nothing matches is 406 with an empty body',
      path: () => '/openapi/v2',
      headers: () => ({ Accept: 'text/html' }),
      check(r) {
        assert.equal(r.status, 406);
        assert.equal(r.text, '');
        assert.equal(r.headers['cache-control'], 'no-cache, private');
      },
    },
    {
      name: 'If-None-Match with the current ETag is 304 without a body',
      path: () => '/openapi/v2',
      headers: () => ({ Accept: PB_KUBECTL, 'If-None-Match': etagOfV2() }),
      check(r) {
        assert.equal(r.status, 304);
        assert.equal(r.raw.length, 0);
        assert.equal(r.headers['etag'], etagOfV2());
      },
    },
    { name: 'If-None-Match with another ETag is a full 200', path: () => '/openapi/v2', headers: () => ({ 'If-None-Match': '"OLD"' }), check: (r) => assert.equal(r.status, 200) },
    {
      name: 'If-Modified-Since at or after Last-Modified is 304',
      path: () => '/openapi/v2',
      headers: () => ({ 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() }),
      check: (r) => assert.equal(r.status, 304),
    },
    {
      name: 'gzip when the client takes it, with Vary: Accept-Encoding',
      path: () => '/openapi/v2',
      headers: () => ({ Accept: 'application/json', 'Accept-Encoding': 'gzip' }),
      check(r) {
        assert.equal(r.headers['content-encoding'], 'gzip');
        assert.match(String(r.headers['vary']), /Accept-Encoding/);
        assert.deepEqual(gunzipSync(r.raw), v2json.raw);
      },
    },
    {
      name: 'a v3 document asked for by its hash may be cached for good, its ETag is the hash',
      path: () => v3url,
      check(r) {
        assert.equal(r.status, 200);
        assert.equal(r.headers['cache-control'], 'public, immutable');
        assert.ok(Date.parse(String(r.headers['expires'])) > Date.now() + 300 * 864e5);
        assert.equal(r.headers['etag'], `"${new URL(v3url, 'https://x').searchParams.get('hash')}"`);
      },
    },
    {
      name: 'a v3 document asked for by a stale hash redirects (301) to the current one',
      path: () => '/openapi/v3/api/v1?hash=STALE',
      check(r) {
        assert.equal(r.status, 301);
        assert.equal(r.headers['location'], v3url);
        assert.equal(r.text, `<a href="${v3url}">Moved Permanently</a>.\n\n`);
      },
    },
    { name: 'a v3 document without a hash is not cached', path: () => '/openapi/v3/api/v1', check: (r) => assert.equal(r.headers['cache-control'], 'no-cache, private') },
    { name: 'an unknown v3 group-version is a 404 Status', path: () => '/openapi/v3/apis/extensions/v1beta1', check: (r) => assert.equal(r.json().reason, 'NotFound') },
    {
      name: 'the v3 index has an ETag and answers If-None-Match with 304',
      path: () => '/openapi/v3',
      headers: () => ({ 'If-None-Match': '*' }),
      check: (r) => assert.equal(r.status, 304),
    },
    {
      name: 'the CRD list kubectl reads for a kind OpenAPI does not describe is an empty list',
      path: () => '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      check(r) {
        assert.equal(r.status, 200);
        const l = r.json();
        assert.equal(l.kind, 'CustomResourceDefinitionList');
        assert.equal(l.apiVersion, 'apiextensions.k8s.io/v1');
        assert.deepEqual(l.items, []);
        assert.match(l.metadata.resourceVersion, /^\d+$/);
      },
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      row.check(await c.request('GET', row.path(), undefined, row.headers?.() ?? {}));
    });
  }
});
