// ControllerRevision hashing and history (src/policy/controllerrevision.ts): Go's JSON encoding
// of a map, HashControllerRevision, the revision name, sorting, and which history to prune (the
// hash primitives are test/policy/hash.test.ts).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ControllerRevision } from '../../src/api/types.js';
import { goJSON, hashRevisionData, nextRevision, revisionName, revisionsToPrune, sortRevisions } from '../../src/policy/controllerrevision.js';
import { fnv32, safeEncodeString } from '../../src/policy/hash.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const rev = (name: string, revision: number): ControllerRevision => ({ metadata: { name }, revision });

describe('hashing', () => {
  const rows: [string, () => unknown, unknown][] = [
    ['Go JSON: keys sorted, HTML characters escaped', () => goJSON({ b: '<&>', a: [1, null] }), '{"a":[1,null],"b":"\\u003c\\u0026\\u003e"}'],
    ['the hash is the safe encoding of the decimal FNV-32', () => hashRevisionData({}), safeEncodeString(String(fnv32(bytes('{}'))))],
    ['the collision count is hashed after the data, in decimal', () => hashRevisionData({}, 7), safeEncodeString(String(fnv32(bytes('7'), fnv32(bytes('{}')))))],
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
