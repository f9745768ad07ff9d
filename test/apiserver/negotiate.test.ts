// The form of a response as kube-apiserver 1.32 negotiates it (handlers/negotiation/negotiate.go,
// goautoneg, handlers/response.go, runtime/serializer/json): the Accept clauses in their order,
// the conversions a resource allows (Table, PartialObjectMetadata[List]), 406 when nothing fits,
// pretty JSON by parameter, query or User-Agent, compact JSON with json.Encoder's newline, Go's
// HTML escapes, YAML as JSONToYAML writes it; then the same through a server and the real kubectl.

import assert from 'node:assert/strict';
import { request } from 'node:https';
import { describe, it } from 'node:test';
import { load } from 'js-yaml';
import { escapeHTML, goYAMLKeyLess, indentJSON, jsonToYAML } from '../../src/apiserver/jsontext.js';
import { negotiateOutput, parseAccept, prettyByRequest, type OutputMedia, type Restrictions } from '../../src/apiserver/negotiate.js';
import { kubectlFound, kubectlSkip, useTestServer } from './kubectlserver.js';

describe('parseAccept: goautoneg clauses, best first', () => {
  const rows: [string, string, string[]][] = [
    ['one clause', 'application/json', ['application/json']],
    ['q orders the clauses', 'application/yaml;q=0.5, application/json', ['application/json', 'application/yaml']],
    ['equal q: a concrete subtype before a wildcard', 'application/*, application/json', ['application/json', 'application/*']],
    ['equal q: a concrete type before */*', '*/*, text/plain', ['text/plain', '*/*']],
    ['equal q and specificity: the header\'s order', 'application/yaml, application/json', ['application/yaml', 'application/json']],
    ['a bare * is */*', '*', ['*/*']],
    ['a bare type without subtype is dropped', 'application, application/json', ['application/json']],
    ['a q that does not parse is 0, and still listed last', 'application/yaml;q=x, application/json;q=0.1', ['application/json', 'application/yaml']],
    ['spaces around the clause and its parameters are trimmed', '  application/json ; pretty=1 ', ['application/json']],
  ];
  for (const [name, header, want] of rows) it(name, () => assert.deepEqual(parseAccept(header).map((c) => `${c.type}/${c.subType}`), want));

  it('more than 12 clauses (sorted in O(n log n), not by insertion) follow the same rule, stably', () => {
    const header = Array.from({ length: 20 }, (_, i) => `t${i}/s;q=0.${i % 5}`).join(', ') + ', */*';
    const got = parseAccept(header).map((c) => `${c.type}/${c.subType}`);
    const want = [4, 9, 14, 19, 3, 8, 13, 18, 2, 7, 12, 17, 1, 6, 11, 16].map((i) => `t${i}/s`);
    // */* (q=1) first; the q=0 clauses are 0, 5, 10 and 15, last.
    assert.deepEqual(got, ['*/*', ...want, 't0/s', 't5/s', 't10/s', 't15/s']);
  });

  it('parameters other than q are kept, trimmed', () => {
    assert.deepEqual([...parseAccept('application/json; as=Table ;g=meta.k8s.io;v=v1;novalue')[0]!.params], [['as', 'Table'], ['g', 'meta.k8s.io'], ['v', 'v1']]);
  });
});

describe('negotiateOutput: the serializer and conversion a request gets', () => {
  const json: OutputMedia = { serializer: 'json', pretty: false };
  const table = (apiVersion = 'meta.k8s.io/v1'): OutputMedia => ({ serializer: 'json', pretty: false, convert: { kind: 'Table', apiVersion } });
  const kubectlGet = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  const rows: [string, string | undefined, Restrictions, OutputMedia | undefined][] = [
    ['upstream: no Accept is the first type (JSON)', undefined, 'resource', json],
    ['upstream: an empty Accept is JSON', '', 'resource', json],
    ['upstream: */* is JSON', '*/*', 'resource', json],
    ['upstream: application/* is JSON', 'application/*', 'resource', json],
    ['upstream: application/json', 'application/json', 'resource', json],
    ['upstream: `; pretty=1` asks for pretty JSON', 'application/json; pretty=1', 'resource', { serializer: 'json', pretty: true }],
    ['upstream: an unknown type is skipped for the next clause', 'unrecognized/stuff,application/json; pretty=1', 'resource', { serializer: 'json', pretty: true }],
    ['upstream: a conversion nobody serves is skipped for the next clause', 'application/json;as=BOGUS;v=v1beta1;g=meta.k8s.io, application/json', 'resource', json],
    ['upstream: application/BOGUS is skipped', 'application/BOGUS, application/json', 'resource', json],
    ['pretty=true is not pretty=1', 'application/json;pretty=true', 'resource', json],
    ['application/yaml is YAML', 'application/yaml', 'resource', { serializer: 'yaml', pretty: false }],
    ['protobuf is offered but written as JSON', 'application/vnd.kubernetes.protobuf', 'resource', json],
    ['text/plain alone: nothing fits', 'text/plain', 'resource', undefined],
    ['kubectl get: a Table of meta.k8s.io/v1', kubectlGet, 'resource', table()],
    ['a Table of meta.k8s.io/v1beta1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'resource', table('meta.k8s.io/v1beta1')],
    ['a Table as YAML', 'application/yaml;as=Table;v=v1;g=meta.k8s.io', 'resource', { serializer: 'yaml', pretty: false, convert: { kind: 'Table', apiVersion: 'meta.k8s.io/v1' } }],
    ['a Table is never protobuf: the next clause', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', 'resource', json],
    ['a Table of another group is refused', 'application/json;as=Table;v=v1;g=example.com', 'resource', undefined],
    ['a Table of meta.k8s.io/v2 is refused', 'application/json;as=Table;v=v2;g=meta.k8s.io', 'resource', undefined],
    ['a Table without a group is refused', 'application/json;as=Table;v=v1', 'resource', undefined],
    ['PartialObjectMetadataList in any served type', 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'resource', { serializer: 'json', pretty: false, convert: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' } }],
    ['PartialObjectMetadata', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1', 'resource', { serializer: 'json', pretty: false, convert: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' } }],
    ['default restrictions (an error, discovery): kubectl get falls to plain JSON', kubectlGet, 'default', json],
    ['default restrictions: a Table alone fits nothing', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'default', undefined],
    ['stream=watch on a resource', 'application/json;stream=watch', 'resource', json],
    ['stream=watch where no stream is served', 'application/json;stream=watch', 'default', undefined],
    ['another stream is refused', 'application/json;stream=other', 'resource', undefined],
    ['YAML has no stream serializer', 'application/yaml;stream=watch', 'resource', undefined],
    ['sv=v1 is the meta group version', 'application/json;sv=v1', 'resource', json],
    ['another sv is refused', 'application/json;sv=v2, application/yaml', 'resource', { serializer: 'yaml', pretty: false }],
    ['q=0 still matches when nothing else does', 'text/plain, application/json;q=0', 'resource', json],
  ];
  for (const [name, accept, restrictions, want] of rows) it(name, () => assert.deepEqual(negotiateOutput(accept, restrictions), want));
});

describe('prettyByRequest: the pretty query parameter, else the User-Agent (isPrettyPrint)', () => {
  const rows: [string, string, string | undefined, boolean][] = [
    ['upstream: pretty=1', 'pretty=1', undefined, true],
    ['upstream: curl', '', 'curl', true],
    ['upstream: Wget', '', 'Wget', true],
    ['upstream: Mozilla/5.0', '', 'Mozilla/5.0', true],
    ['curl with its version', '', 'curl/8.5.0', true],
    ['kubectl is not', '', 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc', false],
    ['no User-Agent', '', undefined, false],
    ['pretty=true (strconv.ParseBool)', 'pretty=true', undefined, true],
    ['pretty=T', 'pretty=T', undefined, true],
    ['pretty=false wins over curl', 'pretty=false', 'curl', false],
    ['pretty=yes does not parse: false, whatever the agent', 'pretty=yes', 'curl', false],
    ['an empty pretty= leaves it to the agent', 'pretty=', 'curl', true],
    ['another parameter naming pretty is not it', 'prettyish=1', undefined, false],
    ['among other parameters', 'limit=1&pretty=1', undefined, true],
  ];
  for (const [name, query, ua, want] of rows) it(name, () => assert.equal(prettyByRequest(query, ua), want));
});

describe('JSON text as Go writes it', () => {
  const values: [string, unknown][] = [
    ['an object with nested members', { a: 1, b: { c: [1, 2, { d: 'x' }], e: true, f: null } }],
    ['empty objects and arrays stay on one line', { a: {}, b: [], c: [{}, []] }],
    ['strings with structural characters, quotes and escapes', { 'k:{}': 'a,b:[c]{d}', q: 'say "hi"\\', n: 'line\nnext\ttab' }],
    ['a top-level array', [1, 'two', [3]]],
    ['a scalar', 'text'],
    ['multi-byte text', { s: 'é€😀' }],
  ];
  for (const [name, v] of values) {
    it(`indentJSON is json.Indent with two spaces (JSON.stringify's layout): ${name}`, () => assert.equal(indentJSON(JSON.stringify(v)), JSON.stringify(v, null, 2)));
  }
  it('indentJSON drops whitespace outside strings, keeps it inside', () => assert.equal(indentJSON('{ "a" : [ 1 , "b c" ] }\n'), '{\n  "a": [\n    1,\n    "b c"\n  ]\n}'));

  const escapes: [string, string, string][] = [
    ['<, > and & are escaped', '{"a":"<b>&c"}', '{"a":"\\u003cb\\u003e\\u0026c"}'],
    ['U+2028 and U+2029 are escaped', '{"a":"x\u2028y\u2029"}', '{"a":"x\\u2028y\\u2029"}'],
    ['text without them is returned as it is', '{"a":"plain"}', '{"a":"plain"}'],
  ];
  for (const [name, src, want] of escapes) {
    it(`escapeHTML: ${name}`, () => {
      assert.equal(escapeHTML(src), want);
      assert.deepEqual(JSON.parse(escapeHTML(src)), JSON.parse(src));
    });
  }
});

describe('YAML as sigs.k8s.io/yaml JSONToYAML writes it', () => {
  const keyRows: [string, string, string, boolean][] = [
    ['letters compare as runes', 'a', 'b', true],
    ['a shorter prefix first', 'a', 'ab', true],
    ['digits by value: a2 before a10', 'a2', 'a10', true],
    ['and not a10 before a2', 'a10', 'a2', false],
    ['a non-letter before a letter', 'a-b', 'ab', true],
    ['upper case before lower (runes)', 'B', 'a', true],
    ['equal keys are not less', 'x', 'x', false],
    ['leading zeros: the shorter run first when values tie', 'a01', 'a001', true],
  ];
  for (const [name, a, b, want] of keyRows) it(`go-yaml v2 key order: ${name}`, () => assert.equal(goYAMLKeyLess(a, b), want));

  const scalarRows: [string, unknown, string][] = [
    ['a string that reads as a bool is double-quoted', { a: 'true' }, 'a: "true"\n'],
    ['so is a YAML 1.1 bool (yes, on, y)', { a: 'yes', b: 'on', c: 'y' }, 'a: "yes"\nb: "on"\nc: "y"\n'],
    ['so is a number or a timestamp', { a: '1', b: '2026-01-02T03:04:05Z' }, 'a: "1"\nb: "2026-01-02T03:04:05Z"\n'],
    ['an empty string is ""', { a: '' }, 'a: ""\n'],
    ['text the syntax forbids plain is single-quoted', { a: 'a: b', b: '- x' }, "a: 'a: b'\nb: '- x'\n"],
    ['a multi-line string is a literal block', { a: 'x\ny\n' }, 'a: |\n  x\n  y\n'],
    ['sequences are not indented under their key', { a: [1, { b: 2 }] }, 'a:\n- 1\n- b: 2\n'],
    ['keys sorted, numbers and null as they are', { z: null, k10: 1, k2: 2.5 }, 'k2: 2.5\nk10: 1\nz: null\n'],
    ['empty collections are flow', { a: {}, b: [] }, 'a: {}\nb: []\n'],
  ];
  for (const [name, v, want] of scalarRows) {
    it(name, () => {
      const y = jsonToYAML(JSON.stringify(v));
      assert.equal(y, want);
      assert.deepEqual(load(y), v);
    });
  }
});

describe('response forms through the server', () => {
  const t = useTestServer('bulkhead-negotiate-');

  interface Got {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }
  /** A request with exactly these headers (the test Client always sends an Accept). */
  function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
    const s = t.server();
    return new Promise((resolve, reject) => {
      request(new URL(path, s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      })
        .on('error', reject)
        .end();
    });
  }
  const compact = (g: Got) => {
    assert.ok(g.body.endsWith('}\n'), `one newline after the object: ${JSON.stringify(g.body.slice(-20))}`);
    assert.equal(g.body, JSON.stringify(JSON.parse(g.body)).replace(/[<>&]/g, (c) => ({ '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' })[c]!) + '\n');
  };
  const pretty = (g: Got) => assert.equal(g.body, escapeHTML(JSON.stringify(JSON.parse(g.body), null, 2)));

  it('setup: a ConfigMap holding HTML characters', async () => {
    const r = await t.admin().request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'html', labels: { app: 'x' } }, data: { v: '<b>&amp;</b>' } });
    assert.equal(r.status, 201, r.text);
  });

  const cm = '/api/v1/namespaces/default/configmaps/html';
  const cms = '/api/v1/namespaces/default/configmaps';
  const rows: { name: string; path: string; headers?: Record<string, string>; status?: number; check: (g: Got) => void }[] = [
    { name: 'a GET is compact JSON, Go-escaped, with one newline', path: cm, check: (g) => { compact(g); assert.ok(g.body.includes('"\\u003cb\\u003e\\u0026amp;\\u003c/b\\u003e"')); assert.equal(JSON.parse(g.body).data.v, '<b>&amp;</b>'); } },
    { name: 'a LIST (the cached path) too', path: cms, check: compact },
    { name: 'a Table LIST too', path: cms, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }, check: (g) => { compact(g); assert.equal(JSON.parse(g.body).kind, 'Table'); } },
    { name: 'an error Status too', path: `${cms}/nope`, status: 404, check: compact },
    { name: 'curl gets pretty JSON without the newline', path: cm, headers: { 'User-Agent': 'curl/8.5.0' }, check: pretty },
    { name: 'so does a browser, for a LIST', path: cms, headers: { 'User-Agent': 'Mozilla/5.0 (X11)' }, check: pretty },
    { name: '?pretty=true asks for it', path: `${cms}?pretty=true`, check: pretty },
    { name: 'Accept: application/json;pretty=1 asks for it', path: cm, headers: { Accept: 'application/json;pretty=1' }, check: pretty },
    { name: '?pretty=false overrides curl', path: `${cm}?pretty=false`, headers: { 'User-Agent': 'curl/8.5.0' }, check: compact },
    { name: 'an error is pretty for curl too', path: `${cms}/nope`, headers: { 'User-Agent': 'curl/8.5.0' }, status: 404, check: pretty },
    { name: 'application/yaml is YAML', path: cm, headers: { Accept: 'application/yaml' }, check: (g) => { assert.equal(g.headers['content-type'], 'application/yaml'); assert.equal((load(g.body) as { data: { v: string } }).data.v, '<b>&amp;</b>'); assert.ok(g.body.startsWith('apiVersion: v1\ndata:\n')); } },
    { name: 'a YAML LIST', path: cms, headers: { Accept: 'application/yaml' }, check: (g) => assert.equal((load(g.body) as { kind: string }).kind, 'ConfigMapList') },
    { name: 'nothing acceptable: 406 as WriteRawJSON writes it (indented, no newline)', path: cm, headers: { Accept: 'text/plain' }, status: 406, check: (g) => { pretty(g); assert.deepEqual(JSON.parse(g.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf', reason: 'NotAcceptable', code: 406 }); } },
    { name: 'an error to such a request keeps its own code and body', path: `/api/v1/nosuch`, headers: { Accept: 'text/plain' }, status: 404, check: (g) => { pretty(g); assert.equal(JSON.parse(g.body).reason, 'NotFound'); } },
    { name: 'PartialObjectMetadataList of a LIST', path: cms, headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' }, check: (g) => { compact(g); const l = JSON.parse(g.body); assert.equal(l.kind, 'PartialObjectMetadataList'); assert.equal(l.apiVersion, 'meta.k8s.io/v1'); assert.ok(l.metadata.resourceVersion); assert.deepEqual(Object.keys(l.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'html')), ['kind', 'apiVersion', 'metadata']); } },
    { name: 'PartialObjectMetadata of a GET', path: cm, headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' }, check: (g) => { const o = JSON.parse(g.body); assert.equal(o.kind, 'PartialObjectMetadata'); assert.equal(o.apiVersion, 'meta.k8s.io/v1beta1'); assert.equal(o.metadata.name, 'html'); assert.equal(o.data, undefined); } },
    { name: 'PartialObjectMetadata of a LIST is refused', path: cms, headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' }, status: 406, check: (g) => assert.equal(JSON.parse(g.body).message, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)') },
    { name: 'PartialObjectMetadataList of a GET is refused', path: cm, headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' }, status: 406, check: (g) => assert.equal(JSON.parse(g.body).message, 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)') },
    { name: 'a YAML watch is refused (YAML has no stream serializer), the refusal in YAML', path: `${cms}?watch=1`, headers: { Accept: 'application/yaml' }, status: 406, check: (g) => assert.equal((load(g.body) as { message: string }).message, 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch') },
    { name: 'an error that says when to retry says it in Retry-After too (ErrorNegotiated)', path: `${cms}?resourceVersion=99999999`, status: 504, check: (g) => { compact(g); assert.equal(JSON.parse(g.body).details.retryAfterSeconds, 1); assert.equal(g.headers['retry-after'], '1'); } },
    { name: 'an error without one has no Retry-After', path: `${cms}/nope`, status: 404, check: (g) => assert.equal(g.headers['retry-after'], undefined) },
    { name: 'a Table with an includeObject it does not know is 400 (ValidateTableOptions)', path: `${cms}?includeObject=Everything`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }, status: 400, check: (g) => assert.equal(JSON.parse(g.body).message, 'Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be \'Metadata\', \'Object\', \'None\', or empty') },
    { name: 'a Table of meta.k8s.io/v1beta1 says so, and so do its rows\' objects', path: cms, headers: { Accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' }, check: (g) => { const tb = JSON.parse(g.body); assert.equal(tb.apiVersion, 'meta.k8s.io/v1beta1'); assert.equal(tb.rows[0].object.apiVersion, 'meta.k8s.io/v1beta1'); } },
    { name: 'one object as a v1beta1 Table', path: cm, headers: { Accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' }, check: (g) => assert.equal(JSON.parse(g.body).apiVersion, 'meta.k8s.io/v1beta1') },
    { name: 'without a Table, includeObject is not read', path: `${cms}?includeObject=Everything`, check: compact },
    { name: 'an empty includeObject is Metadata', path: `${cms}?includeObject=`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }, check: (g) => assert.equal(JSON.parse(g.body).rows[0].object.kind, 'PartialObjectMetadata') },
    { name: '/version is always indented, never with a newline (WriteRawJSON)', path: '/version', check: (g) => { pretty(g); assert.equal(JSON.parse(g.body).major, '1'); } },
    { name: 'discovery is negotiated like an object', path: '/api', headers: { 'User-Agent': 'curl/8.5.0' }, check: (g) => { pretty(g); assert.equal(JSON.parse(g.body).kind, 'APIVersions'); } },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const g = await get(row.path, row.headers);
      assert.equal(g.status, row.status ?? 200, g.body.slice(0, 300));
      row.check(g);
    });
  }

  it('a watch of PartialObjectMetadata sends each object as its metadata', async () => {
    const s = t.server();
    const line = await new Promise<string>((resolve, reject) => {
      const req = request(new URL(`${cms}?watch=1&fieldSelector=metadata.name%3Dhtml`, s.url), { ca: s.caCert, headers: { Authorization: `Bearer ${s.adminToken}`, Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          const nl = text.indexOf('\n');
          if (nl >= 0) {
            req.destroy();
            resolve(text.slice(0, nl));
          }
        });
      });
      req.on('error', (e) => (e.message.includes('aborted') || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end();
    });
    const ev = JSON.parse(line);
    assert.equal(ev.type, 'ADDED');
    assert.deepEqual(Object.keys(ev.object), ['kind', 'apiVersion', 'metadata']);
    assert.equal(ev.object.kind, 'PartialObjectMetadata');
    assert.equal(ev.object.metadata.name, 'html');
  });

  it('kubectl get --raw prints the body with its newline, and -o json/yaml still read it', { skip: !kubectlFound && kubectlSkip }, async () => {
    const raw = await t.kubectl('get', '--raw', cm);
    assert.equal(raw.code, 0, raw.stderr);
    assert.ok(raw.stdout.endsWith('}\n'), JSON.stringify(raw.stdout.slice(-10)));
    assert.ok(raw.stdout.includes('\\u003cb\\u003e'), 'kubectl prints the bytes as sent');
    const j = await t.kubectl('get', 'configmap', 'html', '-o', 'jsonpath={.data.v}');
    assert.equal(j.code, 0, j.stderr);
    assert.equal(j.stdout, '<b>&amp;</b>');
    const table = await t.kubectl('get', 'configmaps', '-l', 'app=x');
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^html\s+1\s+/m);
  });
});
