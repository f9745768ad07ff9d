// Malformed and hostile PATCH bodies against a real API server (HTTPS, in-process, memory store):
// every one is a 4xx Status with kube-apiserver's reason and wording (handlers/patch.go,
// strategicpatch, evanphx/json-patch, structured-merge-diff), never a 500 or a crash. Where
// upstream itself answers 500 for a client's mistake (a non-Status error), the answer is 400
// BadRequest with upstream's text. Plus fast-check properties: the patch functions throw only
// 4xx PatchErrors, whatever the body.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../../../src/server/start.js';
import {
  applyJSONPatch,
  applyMergePatch,
  applyPatch,
  applyStrategicMergePatch,
  decodePatchBody,
  MAX_PATCH_DEPTH,
  PatchError,
  POD_ZERO_OBJECT,
  type JSONObject,
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
} from '../../../src/apiserver/patch/index.js';
import { Client } from '../client.js';
import { podSchema } from './podschema.js';

const [MERGE, SMP, JSONP, APPLY] = [MERGE_PATCH, STRATEGIC_MERGE_PATCH, JSON_PATCH, APPLY_PATCH];

const nested = (n: number, leaf = '1', open = '{"a":', close = '}'): string => open.repeat(n) + leaf + close.repeat(n);
const deepArrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepYAML = (n: number): string => {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`${'  '.repeat(i)}k:`);
  lines.push(`${'  '.repeat(n)}a: 1`);
  return lines.join('\n');
};
const applied = (extra: object): object => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, ...extra });

interface Row {
  name: string;
  type: string;
  body: unknown;
  query?: string;
  code: number;
  reason: string;
  message: string;
  /** details.causes[0].message, when upstream puts the precise text there. */
  cause?: string;
}

const generic422 = 'the server rejected our request due to an error in our request';

const rows: Row[] = [
  // Depth: validateAndTranscodePatch refuses a body Go's decoder cannot read before any engine
  // sees it: `invalid JSON patch` for the JSON types, the YAML error for apply.
  { name: 'a merge patch nested 100,000 deep is 400 invalid JSON patch', type: MERGE, body: `{"metadata":{"annotations":${nested(100_000)}}}`, code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'a merge patch nested 100,000 deep is 400 under Ignore too', type: MERGE, body: `{"spec":${nested(100_000)}}`, query: 'fieldValidation=Ignore', code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'a strategic merge patch nested 100,000 deep is 400', type: SMP, body: `{"spec":${nested(100_000)}}`, code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'a strategic merge patch with arrays nested 100,000 deep is 400', type: SMP, body: `{"spec":{"x":${deepArrays(100_000)}}}`, code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'a JSON patch whose value is nested 100,000 deep is 400', type: JSONP, body: `[{"op":"add","path":"/metadata/annotations","value":${nested(100_000)}}]`, code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'a JSON patch with a value past the bound is 400 under Ignore too', type: JSONP, body: `[{"op":"add","path":"/metadata/x","value":${nested(MAX_PATCH_DEPTH)}}]`, query: 'fieldValidation=Ignore', code: 400, reason: 'BadRequest', message: 'invalid JSON patch' },
  { name: 'an apply body nested 100,000 deep (JSON) is 400', type: APPLY, body: JSON.stringify(applied({})).replace('"namespace":"default"', `"namespace":"default","labels":${nested(100_000)}`), query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: `error decoding patch: error converting YAML to JSON: yaml: exceeded max depth of ${MAX_PATCH_DEPTH}` },
  { name: 'an apply body nested past the bound (block YAML) is 400', type: APPLY, body: `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n${deepYAML(MAX_PATCH_DEPTH).replace(/^/gm, '  ')}`, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: `exceeded max depth of ${MAX_PATCH_DEPTH}` },
  { name: 'a body just inside the bound reaches the engines (and fails on type, not depth)', type: SMP, body: `{"metadata":{"labels":${nested(MAX_PATCH_DEPTH - 3)}}}`, query: 'fieldValidation=Ignore', code: 422, reason: 'Invalid', message: ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:map[a:' },

  // Wrong JSON types: the patched object must decode (422 on field "patch").
  { name: 'spec.containers: 5 in a strategic merge patch is 422 with the converter text', type: SMP, body: { spec: { containers: 5 } }, code: 422, reason: 'Invalid', message: ' "" is invalid: patch: Invalid value: "map[spec:map[containers:5]]": cannot convert int64 to slice' },
  { name: 'spec: 5 in a strategic merge patch is 422', type: SMP, body: { spec: 5 }, code: 422, reason: 'Invalid', message: ' "" is invalid: patch: Invalid value: "map[spec:5]": cannot restore struct from: int64' },
  { name: 'labels as a list in a strategic merge patch is 422', type: SMP, body: { metadata: { labels: [1] } }, code: 422, reason: 'Invalid', message: ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:[1]]]": cannot restore map from slice' },
  { name: 'spec.containers: 5 in a merge patch is 422 with the decoder text', type: MERGE, body: { spec: { containers: 5 } }, code: 422, reason: 'Invalid', message: 'json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container' },
  { name: 'a JSON patch leaving labels a number is 422', type: JSONP, body: [{ op: 'replace', path: '/metadata/labels', value: 5 }], code: 422, reason: 'Invalid', message: ' "" is invalid: patch: Invalid value: "{' },
  { name: 'an unknown field left by a merge patch is 422 under Strict', type: MERGE, body: { spec: { bogus: 1 } }, query: 'fieldValidation=Strict', code: 422, reason: 'Invalid', message: 'strict decoding error: unknown field "spec.bogus"' },
  { name: 'spec.containers: 5 in an apply body is 400 with structured-merge-diff\'s text', type: APPLY, body: applied({ spec: { containers: 5 } }), query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'failed to create typed patch object (default/p; /v1, Kind=Pod): .spec.containers: expected list, got &{5}' },
  { name: 'metadata: 5 in an apply body is 400', type: APPLY, body: { apiVersion: 'v1', kind: 'Pod', metadata: 5 }, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'failed to create typed patch object (/; /v1, Kind=Pod): .metadata: expected map, got &{5}' },
  { name: 'labels as a list in an apply body is 400', type: APPLY, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', labels: [1] } }, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: '.metadata.labels: expected map, got &{[1]}' },
  { name: 'a label value that is a map in an apply body is 400', type: APPLY, body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', labels: { a: { b: 1 } } } }, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: '.metadata.labels.a: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"b":1}}' },

  // Directives.
  { name: '$patch: replace at the root leaves no name: 400 from checkName', type: SMP, body: { $patch: 'replace' }, code: 400, reason: 'BadRequest', message: 'the name of the object () does not match the name on the URL (p)' },
  { name: '$patch: delete at the root leaves no name: 400 from checkName', type: SMP, body: { $patch: 'delete' }, code: 400, reason: 'BadRequest', message: 'the name of the object () does not match the name on the URL (p)' },
  { name: 'an unknown $patch value on a map is 400', type: SMP, body: { metadata: { labels: { $patch: 'frob' } } }, code: 400, reason: 'BadRequest', message: 'unknown patch type: frob in map: map[$patch:frob]' },
  { name: 'a $patch value that is not a string is 400', type: SMP, body: { metadata: { labels: { $patch: 5 } } }, code: 400, reason: 'BadRequest', message: 'unknown patch type: %!s(int64=5) in map: map[$patch:5]' },
  { name: '$patch: merge in a merging list is 400', type: SMP, body: { spec: { containers: [{ $patch: 'merge' }] } }, code: 400, reason: 'BadRequest', message: 'merging lists cannot yet be specified in the patch' },
  { name: '$patch: delete in a merging list without the merge key is 400', type: SMP, body: { spec: { containers: [{ $patch: 'delete' }] } }, code: 400, reason: 'BadRequest', message: 'map: map[$patch:delete] does not contain declared merge key: name' },
  { name: '$setElementOrder that is not a list is 400', type: SMP, body: { spec: { '$setElementOrder/containers': 5 } }, code: 400, reason: 'BadRequest', message: 'expected a []interface {}, but received a int64' },
  { name: '$setElementOrder elements lacking the merge key is 400', type: SMP, body: { spec: { '$setElementOrder/containers': [{ image: 'x' }], containers: [{ name: 'c', image: 'y' }] } }, code: 400, reason: 'BadRequest', message: 'map: map[image:x] does not contain declared merge key: name' },
  { name: '$setElementOrder of scalars for a list of maps is 400', type: SMP, body: { spec: { '$setElementOrder/containers': [1], containers: [{ name: 'c', image: 'y' }] } }, code: 400, reason: 'BadRequest', message: 'expected a map[string]interface {}, but received a int64' },
  { name: 'a malformed $setElementOrder key is 400', type: SMP, body: { spec: { $setElementOrderX: [] } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
  { name: 'a malformed $deleteFromPrimitiveList key is 400', type: SMP, body: { metadata: { $deleteFromPrimitiveListX: ['a'] } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
  { name: '$retainKeys that is not a list is 400', type: SMP, body: { spec: { $retainKeys: 5 } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  { name: '$retainKeys that leaves out a patched key is 400', type: SMP, body: { spec: { $retainKeys: ['containers'], dnsPolicy: 'Default' } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  { name: 'a list item lacking its merge key is 400', type: SMP, body: { spec: { containers: [{ image: 'x' }] } }, code: 400, reason: 'BadRequest', message: 'map: map[image:x] does not contain declared merge key: name' },
  { name: 'a list item with a non-scalar merge key is 422 (it does not decode)', type: SMP, body: { spec: { containers: [{ name: { a: 1 }, image: 'x' }] } }, code: 422, reason: 'Invalid', message: 'cannot convert map[string]interface {} to string' },
  { name: 'a scalar item in a list of maps is 400', type: SMP, body: { spec: { containers: [5] } }, code: 400, reason: 'BadRequest', message: 'list element types are not identical: ' },
  { name: 'a strategic merge patch that is not an object is 400', type: SMP, body: [1], code: 400, reason: 'BadRequest', message: 'invalid JSON document' },

  // JSON patch: 422 with the generic message, the evanphx text as the cause.
  { name: 'replace of a missing path is 422 with the reason in the cause', type: JSONP, body: [{ op: 'replace', path: '/spec/nope/x', value: 1 }], code: 422, reason: 'Invalid', message: generic422, cause: 'replace operation does not apply: doc is missing path: /spec/nope/x: missing value' },
  { name: 'remove of a missing key is 422 with the reason in the cause', type: JSONP, body: [{ op: 'remove', path: '/metadata/nope' }], code: 422, reason: 'Invalid', message: generic422, cause: "error in remove for path: '/metadata/nope': Unable to remove nonexistent key: nope: missing value" },
  { name: 'a failed test op is 422 with the reason in the cause', type: JSONP, body: [{ op: 'test', path: '/metadata/name', value: 'q' }], code: 422, reason: 'Invalid', message: generic422, cause: 'testing value /metadata/name failed: test failed' },
  { name: 'an unknown op is 422 with the reason in the cause', type: JSONP, body: [{ op: 'frob', path: '/a' }], code: 422, reason: 'Invalid', message: generic422, cause: 'Unexpected kind: frob' },
  { name: 'an op without a path is 422 with the reason in the cause', type: JSONP, body: [{ op: 'add', value: 1 }], code: 422, reason: 'Invalid', message: generic422, cause: 'add operation failed to decode path: missing value' },
  { name: 'an out-of-range index is 422 with the reason in the cause', type: JSONP, body: [{ op: 'add', path: '/spec/containers/7', value: {} }], code: 422, reason: 'Invalid', message: generic422, cause: "error in add for path: '/spec/containers/7': Unable to access invalid index: 7: invalid index referenced" },
  { name: 'a JSON patch that is not a list is 400', type: JSONP, body: { op: 'add' }, query: 'fieldValidation=Ignore', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },

  // Apply bodies that are not objects or lack apiVersion/kind.
  { name: 'an apply body that is a list is 400', type: APPLY, body: [1, 2], query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'error decoding YAML: error unmarshaling JSON: json: cannot unmarshal array into Go value of type map[string]interface {}' },
  { name: 'an apply body that is a number is 400', type: APPLY, body: 5, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'error decoding YAML: error unmarshaling JSON: json: cannot unmarshal number into Go value of type map[string]interface {}' },
  { name: 'an apply body without apiVersion is 400', type: APPLY, body: { kind: 'Pod', metadata: { name: 'p' } }, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'invalid object type: /, Kind=Pod' },
  { name: 'an apply body without kind is 400', type: APPLY, body: { apiVersion: 'v1', metadata: { name: 'p' } }, query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: 'invalid object type: /v1, Kind=' },
  { name: 'an unknown field in an apply body is 400 (typed conversion, whatever fieldValidation)', type: APPLY, body: applied({ spec: { containers: [{ name: 'c', image: 'busybox', bogus: 1 }], bogus: true } }), query: 'fieldManager=m&fieldValidation=Ignore', code: 400, reason: 'BadRequest', message: 'failed to create typed patch object (default/p; /v1, Kind=Pod): errors:\n  .spec.containers[name="c"].bogus: field not declared in schema\n  .spec.bogus: field not declared in schema' },
  { name: 'an apply list item without its key is 400', type: APPLY, body: applied({ spec: { containers: [{ image: 'x' }] } }), query: 'fieldManager=m', code: 400, reason: 'BadRequest', message: '.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"]' },
];

describe('PATCH hardening: malformed bodies are 4xx Status answers', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  const podPath = '/api/v1/namespaces/default/pods/p';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-patch-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    assert.equal((await admin.request('POST', '/api/v1/namespaces/default/pods', pod)).status, 201);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const r of rows) {
    it(r.name, async () => {
      const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      const res = await admin.request('PATCH', `${podPath}?${r.query ?? 'fieldValidation=Strict'}`, body, { 'Content-Type': r.type });
      const st = res.json();
      assert.equal(res.status, r.code, res.text.slice(0, 500));
      assert.equal(st.kind, 'Status');
      assert.equal(st.code, r.code);
      assert.equal(st.reason, r.reason);
      assert.ok(String(st.message).includes(r.message), `message ${JSON.stringify(String(st.message).slice(0, 400))} lacks ${JSON.stringify(r.message)}`);
      if (r.cause !== undefined) assert.deepEqual(st.details, { causes: [{ reason: 'UnexpectedServerResponse', message: r.cause }] });
    });
  }

  it('a misused $deleteFromPrimitiveList (not a list) is ignored, as upstream ignores it', async () => {
    const res = await admin.request('PATCH', podPath, JSON.stringify({ metadata: { '$deleteFromPrimitiveList/finalizers': 5 } }), { 'Content-Type': SMP });
    assert.equal(res.status, 200, res.text.slice(0, 300));
  });

  it('a JSON patch add without a value sets the label to "" (evanphx adds null; decoding makes it the zero value)', async () => {
    const res = await admin.request('PATCH', podPath, JSON.stringify([{ op: 'add', path: '/metadata/labels/x' }]), { 'Content-Type': JSONP });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.deepEqual(res.json().metadata.labels, { a: 'b', x: '' });
    const back = await admin.request('PATCH', podPath, JSON.stringify([{ op: 'remove', path: '/metadata/labels/x' }]), { 'Content-Type': JSONP });
    assert.equal(back.status, 200, back.text.slice(0, 300));
  });

  it('the pod is intact after every refused patch', async () => {
    const res = await admin.request('GET', podPath);
    assert.equal(res.status, 200);
    const pod = res.json();
    assert.deepEqual(pod.metadata.labels, { a: 'b' });
    assert.equal(pod.spec.containers.length, 1);
  });
});

// Random bodies, heavy in directives and the pod's own field names, at fixed seeds.
const key = fc.constantFrom('$patch', '$retainKeys', '$setElementOrder/containers', '$setElementOrder/finalizers', '$deleteFromPrimitiveList/finalizers', '$deleteFromPrimitiveListX', '$setElementOrderX', 'metadata', 'spec', 'labels', 'finalizers', 'containers', 'name', 'image', 'ports', 'containerPort', 'volumes', 'op', 'path', 'value', 'from', 'apiVersion', 'kind');
const leaf = fc.oneof(fc.constantFrom('replace', 'delete', 'merge', 'frob', 'add', 'remove', 'test', 'move', 'copy', '/spec/containers/0', '/metadata/labels', '/a/-', '', 'v1', 'Pod', 'c'), fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.constant(null));
const body = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 3 }),
  map: fc.dictionary(key, tie('value'), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as JSONObject),
})).value;
const live: JSONObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', labels: { a: 'b' }, finalizers: ['x'] },
  spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }], volumes: [{ name: 'v', emptyDir: {} }] },
};

function only4xx(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    assert.ok(e.code >= 400 && e.code < 500, `${e.code} ${e.message}`);
  }
}

describe('PATCH hardening: properties over random bodies', () => {
  const params = { seed: 8_2026, numRuns: 400 };
  it('a strategic merge patch throws only 4xx PatchErrors', () => {
    fc.assert(fc.property(body, (p) => only4xx(() => applyStrategicMergePatch(live, p, podSchema))), params);
  });
  it('a merge patch throws only 4xx PatchErrors', () => {
    fc.assert(fc.property(body, (p) => only4xx(() => applyMergePatch(live, p))), params);
  });
  it('a JSON patch throws only 4xx PatchErrors', () => {
    fc.assert(fc.property(fc.oneof(body, fc.array(body, { maxLength: 4 })), (p) => only4xx(() => applyJSONPatch(live, p))), params);
  });
  it('a server-side apply throws only 4xx PatchErrors (conflicts are results)', () => {
    const opts = { manager: 'm', schema: podSchema, apiVersion: 'v1', kind: 'Pod', zero: POD_ZERO_OBJECT, now: '2026-01-01T00:00:00Z' };
    const config = body.map((b) => (b !== null && typeof b === 'object' && !Array.isArray(b) ? { ...b, apiVersion: 'v1', kind: 'Pod' } : b));
    fc.assert(fc.property(config, (p) => only4xx(() => applyPatch(live, p, opts))), params);
  });
  it('body decoding throws only 4xx PatchErrors, however deep', () => {
    const depth = fc.integer({ min: 1, max: 3 * MAX_PATCH_DEPTH });
    fc.assert(
      fc.property(depth, fc.constantFrom(MERGE, SMP, JSONP, APPLY), (n, type) => only4xx(() => decodePatchBody(nested(n), type))),
      { seed: 8_2026, numRuns: 60 },
    );
  });
});
