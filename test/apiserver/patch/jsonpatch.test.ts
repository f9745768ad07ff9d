// applyJSONPatch (src/apiserver/patch/jsonpatch.ts): RFC 6902 with gopkg.in/evanphx/json-patch.v4
// behaviour and error texts, as kube-apiserver answers application/json-patch+json.
// Rows: RFC 6902 Appendix A, then evanphx/kube behaviour (one row per rule), then error texts.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyJSONPatch,
  decodePointerToken,
  encodePointerToken,
  jsonPointer,
  resourceVersionConflicts,
  MAX_JSON_PATCH_OPERATIONS,
} from '../../../src/apiserver/patch/jsonpatch.js';
import { JSONPatchApplyError, JSONPatchDecodeError, JSONPatchTestError, JSONPatchTooLargeError, PatchError } from '../../../src/apiserver/patch/errors.js';

interface Row {
  name: string;
  doc: unknown;
  ops: unknown[];
  want: unknown;
}

const appendixA: Row[] = [
  { name: 'A.1 add an object member', doc: { foo: 'bar' }, ops: [{ op: 'add', path: '/baz', value: 'qux' }], want: { baz: 'qux', foo: 'bar' } },
  { name: 'A.2 add an array element', doc: { foo: ['bar', 'baz'] }, ops: [{ op: 'add', path: '/foo/1', value: 'qux' }], want: { foo: ['bar', 'qux', 'baz'] } },
  { name: 'A.3 remove an object member', doc: { baz: 'qux', foo: 'bar' }, ops: [{ op: 'remove', path: '/baz' }], want: { foo: 'bar' } },
  { name: 'A.4 remove an array element', doc: { foo: ['bar', 'qux', 'baz'] }, ops: [{ op: 'remove', path: '/foo/1' }], want: { foo: ['bar', 'baz'] } },
  { name: 'A.5 replace a value', doc: { baz: 'qux', foo: 'bar' }, ops: [{ op: 'replace', path: '/baz', value: 'boo' }], want: { baz: 'boo', foo: 'bar' } },
  {
    name: 'A.6 move a value',
    doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    ops: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    want: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  { name: 'A.7 move an array element', doc: { foo: ['all', 'grass', 'cows', 'eat'] }, ops: [{ op: 'move', from: '/foo/1', path: '/foo/3' }], want: { foo: ['all', 'cows', 'eat', 'grass'] } },
  {
    name: 'A.8 test a value (success)',
    doc: { baz: 'qux', foo: ['a', 2, 'c'] },
    ops: [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    want: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  { name: 'A.10 add a nested member object', doc: { foo: 'bar' }, ops: [{ op: 'add', path: '/child', value: { grandchild: {} } }], want: { foo: 'bar', child: { grandchild: {} } } },
  { name: 'A.11 ignore unrecognized members of an operation', doc: { foo: 'bar' }, ops: [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], want: { foo: 'bar', baz: 'qux' } },
  { name: 'A.14 ~ escape ordering (~01 is "~1")', doc: { '/': 9, '~1': 10 }, ops: [{ op: 'test', path: '/~01', value: 10 }], want: { '/': 9, '~1': 10 } },
  { name: 'A.16 add an array value with "-"', doc: { foo: ['bar'] }, ops: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], want: { foo: ['bar', ['abc', 'def']] } },
  { name: 'copy a value', doc: { a: { b: [1] } }, ops: [{ op: 'copy', from: '/a/b', path: '/c' }], want: { a: { b: [1] }, c: [1] } },
];

const evanphxRows: Row[] = [
  { name: 'replace of a missing object member adds it (evanphx v4, unlike RFC 6902)', doc: { spec: {} }, ops: [{ op: 'replace', path: '/spec/foo', value: 1 }], want: { spec: { foo: 1 } } },
  { name: 'replace of the whole document ("")', doc: { a: 1 }, ops: [{ op: 'replace', path: '', value: { b: 2 } }], want: { b: 2 } },
  { name: 'test of the whole document ("")', doc: { a: 1 }, ops: [{ op: 'test', path: '', value: { a: 1 } }], want: { a: 1 } },
  { name: 'negative index counts from the end (add)', doc: { a: [1, 2] }, ops: [{ op: 'add', path: '/a/-1', value: 9 }], want: { a: [1, 2, 9] } },
  { name: 'negative index counts from the end (remove)', doc: { a: [1, 2, 3] }, ops: [{ op: 'remove', path: '/a/-1' }], want: { a: [1, 2] } },
  { name: 'negative index counts from the end (replace)', doc: { a: [1, 2, 3] }, ops: [{ op: 'replace', path: '/a/-3', value: 0 }], want: { a: [0, 2, 3] } },
  { name: 'add at index == length appends', doc: { a: [1] }, ops: [{ op: 'add', path: '/a/1', value: 2 }], want: { a: [1, 2] } },
  { name: 'test of a missing member with null passes', doc: { a: 1 }, ops: [{ op: 'test', path: '/b', value: null }], want: { a: 1 } },
  { name: 'test of a missing member without value passes', doc: { a: 1 }, ops: [{ op: 'test', path: '/b' }], want: { a: 1 } },
  { name: 'add without value adds null', doc: {}, ops: [{ op: 'add', path: '/a' }], want: { a: null } },
  { name: '"~1" in a token is "/" (label keys with slashes)', doc: { metadata: { labels: {} } }, ops: [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' }], want: { metadata: { labels: { 'app.kubernetes.io/name': 'web' } } } },
  { name: 'a path without a leading "/" addresses the root ("a/b" acts like "/b")', doc: { a: {} }, ops: [{ op: 'add', path: 'a/b', value: 1 }], want: { a: {}, b: 1 } },
  { name: 'operations apply in order', doc: { a: 1 }, ops: [{ op: 'add', path: '/b', value: 2 }, { op: 'move', from: '/b', path: '/c' }, { op: 'remove', path: '/a' }], want: { c: 2 } },
  {
    name: 'kubectl CSA→SSA migration: replace managedFields and resourceVersion',
    doc: { metadata: { name: 'app', resourceVersion: '133', managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update' }] } },
    ops: [
      { op: 'replace', path: '/metadata/managedFields', value: [{ manager: 'kubectl', operation: 'Apply' }] },
      { op: 'replace', path: '/metadata/resourceVersion', value: '133' },
    ],
    want: { metadata: { name: 'app', resourceVersion: '133', managedFields: [{ manager: 'kubectl', operation: 'Apply' }] } },
  },
];

function run(rows: Row[]): void {
  for (const r of rows) {
    it(r.name, () => {
      const before = JSON.stringify(r.doc);
      assert.deepEqual(applyJSONPatch(r.doc, r.ops), r.want);
      assert.equal(JSON.stringify(r.doc), before, 'the document must not be modified');
    });
  }
}

describe('RFC 6902 Appendix A', () => run(appendixA));
describe('evanphx/json-patch v4 behaviour', () => run(evanphxRows));

interface ErrRow {
  name: string;
  doc: unknown;
  ops: unknown;
  message: string;
  type?: typeof JSONPatchApplyError | typeof JSONPatchDecodeError | typeof JSONPatchTooLargeError;
  code?: number;
}

const errorRows: ErrRow[] = [
  { name: 'A.9 test failure', doc: { baz: 'qux' }, ops: [{ op: 'test', path: '/baz', value: 'bar' }], message: 'testing value /baz failed: test failed', type: JSONPatchTestError },
  { name: 'A.12 add to a nonexistent target', doc: { foo: 'bar' }, ops: [{ op: 'add', path: '/baz/bat', value: 'qux' }], message: 'add operation does not apply: doc is missing path: "/baz/bat": missing value' },
  { name: 'A.15 test compares strings and numbers strictly', doc: { '/': 9, '~1': 10 }, ops: [{ op: 'test', path: '/~01', value: '10' }], message: 'testing value /~01 failed: test failed', type: JSONPatchTestError },
  {
    name: 'kubectl migration: resourceVersion test against a stale object',
    doc: { metadata: { resourceVersion: '134' } },
    ops: [{ op: 'test', path: '/metadata/resourceVersion', value: '133' }],
    message: 'testing value /metadata/resourceVersion failed: test failed',
    type: JSONPatchTestError,
  },
  { name: 'test of a present value against null fails', doc: { a: 1 }, ops: [{ op: 'test', path: '/a', value: null }], message: 'testing value /a failed: test failed', type: JSONPatchTestError },
  { name: 'test of a missing parent', doc: { a: 1 }, ops: [{ op: 'test', path: '/x/y', value: 1 }], message: 'test operation does not apply: is missing path: /x/y: missing value' },
  { name: 'replace under a missing parent', doc: { spec: {} }, ops: [{ op: 'replace', path: '/spec/foo/bar', value: 1 }], message: 'replace operation does not apply: doc is missing path: /spec/foo/bar: missing value' },
  { name: 'replace of an array index out of range', doc: { a: [1] }, ops: [{ op: 'replace', path: '/a/5', value: 1 }], message: 'replace operation does not apply: doc is missing key: /a/5: missing value' },
  { name: 'replace of the document with a scalar', doc: { a: 1 }, ops: [{ op: 'replace', path: '', value: 1 }], message: 'replace operation value must be object or array: %!w(<nil>)' },
  { name: 'replace without a path', doc: { a: 1 }, ops: [{ op: 'replace', value: 1 }], message: 'replace operation failed to decode path: operation missing path field: missing value' },
  { name: 'remove of a missing member', doc: { metadata: { labels: {} } }, ops: [{ op: 'remove', path: '/metadata/labels/x' }], message: "error in remove for path: '/metadata/labels/x': Unable to remove nonexistent key: x: missing value" },
  { name: 'remove under a missing parent', doc: {}, ops: [{ op: 'remove', path: '/a/b' }], message: 'remove operation does not apply: doc is missing path: "/a/b": missing value' },
  { name: 'remove of an array index out of range', doc: { a: [1] }, ops: [{ op: 'remove', path: '/a/1' }], message: "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced" },
  { name: 'remove with a non-numeric array index', doc: { a: [1] }, ops: [{ op: 'remove', path: '/a/x' }], message: "error in remove for path: '/a/x': strconv.Atoi: parsing \"x\": invalid syntax" },
  { name: 'add of an array index past the end', doc: { a: [1] }, ops: [{ op: 'add', path: '/a/3', value: 1 }], message: "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced" },
  { name: 'add with a non-numeric array index', doc: { a: [] }, ops: [{ op: 'add', path: '/a/x', value: 1 }], message: "error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax" },
  { name: 'add to the whole document is not supported', doc: {}, ops: [{ op: 'add', path: '', value: {} }], message: 'add operation does not apply: doc is missing path: "": missing value' },
  { name: 'add without a path', doc: {}, ops: [{ op: 'add', value: 1 }], message: 'add operation failed to decode path: missing value' },
  { name: 'move from a missing member', doc: { a: {} }, ops: [{ op: 'move', from: '/a/b', path: '/c' }], message: "error in move for path: 'b': Unable to remove nonexistent key: b: missing value" },
  { name: 'move without from', doc: {}, ops: [{ op: 'move', path: '/c' }], message: 'move operation failed to decode from: operation, missing from field: missing value' },
  { name: 'move to a missing parent', doc: { a: 1 }, ops: [{ op: 'move', from: '/a', path: '/x/y' }], message: 'move operation does not apply: doc is missing destination path: /x/y: missing value' },
  { name: 'copy from a missing parent', doc: {}, ops: [{ op: 'copy', from: '/x/y', path: '/c' }], message: 'copy operation does not apply: doc is missing from path: /x/y: missing value' },
  { name: 'unknown op', doc: {}, ops: [{ op: 'frobnicate', path: '/a' }], message: 'Unexpected kind: frobnicate' },
  { name: 'missing op', doc: {}, ops: [{ path: '/a' }], message: 'Unexpected kind: unknown' },
  { name: 'a patch that is not a list (400)', doc: {}, ops: { op: 'add' }, message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch', type: JSONPatchDecodeError, code: 400 },
  { name: 'an operation that is not an object (400)', doc: {}, ops: ['add'], message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation', type: JSONPatchDecodeError, code: 400 },
  {
    name: 'more than 10000 operations (413)',
    doc: {},
    ops: Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/a' })),
    message: 'The allowed maximum operations in a JSON patch is 10000, got 10001',
    type: JSONPatchTooLargeError,
    code: 413,
  },
];

describe('errors: evanphx texts, kube codes', () => {
  for (const r of errorRows) {
    it(r.name, () => {
      assert.throws(
        () => applyJSONPatch(r.doc, r.ops),
        (e: unknown) => {
          assert.ok(e instanceof (r.type ?? JSONPatchApplyError), `wrong class ${(e as Error).constructor.name}`);
          assert.ok(e instanceof PatchError);
          assert.equal((e as Error).message, r.message);
          assert.equal((e as PatchError).code, r.code ?? 422);
          return true;
        },
      );
    });
  }

  it('an operation failure answers 422 Invalid with the generic message and the reason as its cause', () => {
    try {
      applyJSONPatch({ a: 1 }, [{ op: 'remove', path: '/a' }, { op: 'test', path: '/b', value: 1 }]);
      assert.fail('expected an error');
    } catch (e) {
      const err = e as JSONPatchApplyError;
      assert.equal(err.index, 1);
      assert.equal(err.op, 'test');
      assert.equal(err.failure, 'test failed');
      assert.deepEqual(err.toStatus(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'testing value /b failed: test failed' }] },
        code: 422,
      });
    }
  });

  it('a failing operation leaves the document unchanged (the whole patch is refused)', () => {
    const doc = { a: 1 };
    assert.throws(() => applyJSONPatch(doc, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/zzz' }]));
    assert.deepEqual(doc, { a: 1 });
  });
});

describe('JSON pointers', () => {
  for (const [raw, token] of [
    ['a~1b', 'a/b'],
    ['a~0b', 'a~b'],
    ['~01', '~1'],
    ['~10', '/0'],
    ['plain', 'plain'],
  ] as const) {
    it(`decodes ${raw} as ${token} and encodes it back`, () => {
      assert.equal(decodePointerToken(raw), token);
      assert.equal(encodePointerToken(token), raw);
    });
  }
  it('builds pointers from tokens', () => {
    assert.equal(jsonPointer(['metadata', 'labels', 'app.kubernetes.io/name']), '/metadata/labels/app.kubernetes.io~1name');
    assert.equal(jsonPointer(['spec', 'containers', 0, 'image']), '/spec/containers/0/image');
  });
});

describe('resourceVersionConflicts (the migration patch\'s replace of /metadata/resourceVersion)', () => {
  it('a stale resourceVersion conflicts', () => {
    assert.equal(resourceVersionConflicts({ metadata: { resourceVersion: '134' } }, { metadata: { resourceVersion: '133' } }), true);
  });
  it('the current resourceVersion does not', () => {
    assert.equal(resourceVersionConflicts({ metadata: { resourceVersion: '133' } }, { metadata: { resourceVersion: '133' } }), false);
  });
  it('an unset resourceVersion does not', () => {
    assert.equal(resourceVersionConflicts({ metadata: { resourceVersion: '133' } }, { metadata: {} }), false);
  });
});
