// applyMergePatch (src/apiserver/patch/jsonmerge.ts): RFC 7386 JSON merge patch with
// evanphx/json-patch's behaviour, which kube-apiserver uses for application/merge-patch+json.
// Rows: RFC 7386 Appendix A (where kube agrees), then evanphx/kube specifics.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../src/apiserver/patch/jsonmerge.js';
import { MergePatchError, PatchError } from '../../../src/apiserver/patch/errors.js';

interface Row {
  name: string;
  target: unknown;
  patch: unknown;
  want: unknown;
}

const rfc7386AppendixA: Row[] = [
  { name: 'replaces a member', target: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'adds a member', target: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
  { name: 'null deletes a member', target: { a: 'b' }, patch: { a: null }, want: {} },
  { name: 'null deletes only that member', target: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
  { name: 'a scalar replaces an array', target: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
  { name: 'an array replaces a scalar', target: { a: 'c' }, patch: { a: ['b'] }, want: { a: ['b'] } },
  { name: 'objects merge recursively, nulls delete inside', target: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, want: { a: { b: 'd' } } },
  { name: 'arrays are replaced, never merged', target: { a: [{ b: 'c' }] }, patch: { a: [1] }, want: { a: [1] } },
  { name: 'a top-level array patch replaces an array', target: ['a', 'b'], patch: ['c', 'd'], want: ['c', 'd'] },
  { name: 'a top-level array patch replaces an object', target: { a: 'b' }, patch: ['c'], want: ['c'] },
  { name: 'null members of the target are kept', target: { e: null }, patch: { a: 1 }, want: { e: null, a: 1 } },
  { name: 'an object patch replaces a non-object target, nulls pruned', target: [1, 2], patch: { a: 'b', c: null }, want: { a: 'b' } },
  { name: 'nulls in a new subtree are pruned, leaving empty objects', target: {}, patch: { a: { bb: { ccc: null } } }, want: { a: { bb: {} } } },
];

const kubeRows: Row[] = [
  { name: 'kubectl label: adds a label', target: { metadata: { name: 'app', labels: { app: 'web' } } }, patch: { metadata: { labels: { x: 'y' } } }, want: { metadata: { name: 'app', labels: { app: 'web', x: 'y' } } } },
  { name: 'kubectl label x-: removes a label', target: { metadata: { labels: { app: 'web', x: 'y' } } }, patch: { metadata: { labels: { x: null } } }, want: { metadata: { labels: { app: 'web' } } } },
  { name: 'a list of containers is replaced whole', target: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b' }] } }, patch: { spec: { containers: [{ name: 'a', image: 'y' }] } }, want: { spec: { containers: [{ name: 'a', image: 'y' }] } } },
  { name: 'a member holding null is replaced like a missing one', target: { a: null }, patch: { a: { b: 1, c: null } }, want: { a: { b: 1 } } },
  { name: 'evanphx: an array replacing an object member is kept as is (nulls inside stay)', target: { a: { x: 1 } }, patch: { a: [{ b: null }] }, want: { a: [{ b: null }] } },
  { name: 'evanphx: an array replacing a non-object member has nulls pruned from its objects', target: { a: [1] }, patch: { a: [{ b: null, c: 1 }, null] }, want: { a: [{ c: 1 }, null] } },
  { name: 'an empty patch changes nothing', target: { a: { b: [1, 2] } }, patch: {}, want: { a: { b: [1, 2] } } },
];

function run(rows: Row[]): void {
  for (const r of rows) {
    it(r.name, () => {
      const before = JSON.stringify(r.target);
      assert.deepEqual(applyMergePatch(r.target, r.patch), r.want);
      assert.equal(JSON.stringify(r.target), before, 'target must not be modified');
    });
  }
}

describe('RFC 7386 Appendix A', () => run(rfc7386AppendixA));
describe('kube-apiserver merge patches', () => run(kubeRows));

describe('invalid merge patches (400 BadRequest "Invalid JSON Patch")', () => {
  for (const [name, patch] of [
    ['a null patch', null],
    ['a string patch (RFC 7386 would replace; evanphx/kube refuse)', 'bar'],
    ['a number patch', 5],
    ['a boolean patch', true],
  ] as const) {
    it(name, () => {
      assert.throws(
        () => applyMergePatch({ a: 'foo' }, patch),
        (e: unknown) => e instanceof MergePatchError && e instanceof PatchError && e.code === 400 && e.reason === 'BadRequest' && e.message === 'Invalid JSON Patch',
      );
    });
  }
  it('maps to a 400 Status', () => {
    try {
      applyMergePatch({}, null);
      assert.fail('expected an error');
    } catch (e) {
      assert.deepEqual((e as PatchError).toStatus(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Invalid JSON Patch', reason: 'BadRequest', code: 400 });
    }
  });
});
