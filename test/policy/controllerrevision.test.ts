// ControllerRevision hashing and history (src/policy/controllerrevision.ts): FNV-32 and FNV-32a
// against the published test vectors, rand.SafeEncodeString, Go's JSON encoding of a map, the
// revision name, sorting, and which history to prune.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ControllerRevision } from '../../src/api/types.js';
import { fnv32, fnv32a, goJSON, hashRevisionData, nextRevision, revisionName, revisionsToPrune, safeEncodeString, sortRevisions, templateHash } from '../../src/policy/controllerrevision.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const rev = (name: string, revision: number): ControllerRevision => ({ metadata: { name }, revision });

describe('hashing', () => {
  const rows: [string, () => unknown, unknown][] = [
    ['FNV-32 of nothing is the offset basis', () => fnv32(bytes('')), 0x811c9dc5],
    ['FNV-32 of "a" (FNV-1 vector)', () => fnv32(bytes('a')), 0x050c5d7e],
    ['FNV-32a of "a" (FNV-1a vector)', () => fnv32a(bytes('a')), 0xe40c292c],
    ['FNV-32a of "foobar"', () => fnv32a(bytes('foobar')), 0xbf9cf968],
    ['SafeEncodeString maps digits past the vowels: 0→4 … 9→f', () => safeEncodeString('0123456789'), '456789bcdf'],
    ['Go JSON: keys sorted, HTML characters escaped', () => goJSON({ b: '<&>', a: [1, null] }), '{"a":[1,null],"b":"\\u003c\\u0026\\u003e"}'],
    ['the hash is the safe encoding of the decimal FNV-32', () => hashRevisionData({}), safeEncodeString(String(fnv32(bytes('{}'))))],
    ['the collision count is hashed after the data, in decimal', () => hashRevisionData({}, 7), safeEncodeString(String(fnv32(bytes('7'), fnv32(bytes('{}')))))],
    ['equal templates give equal template hashes', () => templateHash({ metadata: { labels: { a: 'b' } } }) === templateHash({ metadata: { labels: { a: 'b' } } }), true],
    ['a collision count changes the template hash', () => templateHash({}) === templateHash({}, 1), false],
    ['names are prefix-hash', () => revisionName('web', 'abc'), 'web-abc'],
    ['a long prefix is cut to 223 characters', () => revisionName('p'.repeat(300), 'h').length, 225],
  ];
  for (const [name, f, want] of rows) test(name, () => assert.deepEqual(f(), want));
});

describe('history', () => {
  test('sorted by revision', () => assert.deepEqual(sortRevisions([rev('b', 2), rev('a', 1)]).map((r) => r.metadata.name), ['a', 'b']));
  test('the next revision is one above the last', () => assert.equal(nextRevision([rev('a', 1), rev('b', 4)]), 5));
  test('the first revision is 1', () => assert.equal(nextRevision([]), 1));
  test('pruning keeps the newest `limit` non-live revisions', () => assert.deepEqual(revisionsToPrune([rev('a', 1), rev('b', 2), rev('c', 3), rev('d', 4)], new Set(['d']), 2).map((r) => r.metadata.name), ['a']));
  test('a negative limit keeps everything', () => assert.deepEqual(revisionsToPrune([rev('a', 1)], new Set(), -1), []));
});
