// semanticEqual: apiequality.Semantic.DeepEqual as far as decoded JSON can tell it. One row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { semanticEqual } from '../../src/api/semanticequal.js';

const rows: { rule: string; a: unknown; b: unknown; equal: boolean }[] = [
  { rule: 'members compare by name, not by order (Go structs and maps have none)', a: { x: 1, y: { p: 'a', q: 'b' } }, b: { y: { q: 'b', p: 'a' }, x: 1 }, equal: true },
  { rule: 'lists compare in order', a: [1, 2], b: [2, 1], equal: false },
  { rule: 'an empty list is an absent one (nil and empty slices are equal)', a: { tolerations: [] }, b: {}, equal: true },
  { rule: 'null is an absent member', a: { x: null }, b: {}, equal: true },
  { rule: 'an empty list is null', a: [], b: null, equal: true },
  { rule: 'an empty object is not an absent one (a pointer to an empty struct is not nil)', a: { securityContext: {} }, b: {}, equal: false },
  { rule: 'a zero scalar is not an absent one (the type would have to say)', a: { replicas: 0 }, b: {}, equal: false },
  { rule: 'an extra member with a value differs', a: { x: 1 }, b: { x: 1, y: 'z' }, equal: false },
  { rule: 'lists of different lengths differ', a: [1], b: [1, 1], equal: false },
  { rule: 'a list is not an object', a: [], b: {}, equal: false },
  { rule: 'scalars compare strictly (quantities as written)', a: { cpu: '1' }, b: { cpu: '1000m' }, equal: false },
  { rule: 'nested lists of objects compare member by member', a: [{ name: 'a', env: [] }], b: [{ env: null, name: 'a' }], equal: true },
];

describe('semanticEqual', () => {
  for (const row of rows) {
    test(row.rule, () => {
      assert.equal(semanticEqual(row.a, row.b), row.equal);
      assert.equal(semanticEqual(row.b, row.a), row.equal, 'symmetric');
    });
  }
});
