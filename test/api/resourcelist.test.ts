// The ResourceList folds of src/api/resourcelist.ts that quota and the pod aggregates build on:
// addInto is quota.Add and maxInto is quota.Max applied one entry at a time.
//
// Rows ported from kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/quota/v1/resources_test.go
// (at 5d5307d5): TestAdd and TestMax, same case names. The file's other functions (Equals,
// LessThanOrEqual, Subtract, SubtractWithNonNegativeResult, ResourceNames, Contains,
// ContainsPrefix, IsZero, RemoveZeros, IsNegative, Intersection, Difference) have no
// ResourceList-level counterpart in Bulkhead: those steps are written inline in the quota rules
// and pinned by the admission and usage rows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addInto, formatResources, maxInto, parseResourceList, type Resources } from '../../src/api/resourcelist.js';
import type { ResourceList } from '../../src/api/types.js';

function fold(a: ResourceList, b: ResourceList, into: (acc: Resources, name: string, q: NonNullable<ReturnType<Resources['get']>>) => void): ResourceList {
  const acc = parseResourceList(a);
  for (const [k, v] of parseResourceList(b)) into(acc, k, v);
  return formatResources(acc);
}

const canon = (rl: ResourceList): ResourceList => formatResources(parseResourceList(rl));

interface Row {
  name: string;
  a: ResourceList;
  b: ResourceList;
  expected: ResourceList;
}

describe('addInto: resources_test.go TestAdd', () => {
  const rows: Row[] = [
    { name: 'noKeys', a: {}, b: {}, expected: {} },
    { name: 'toEmpty', a: { cpu: '100m' }, b: {}, expected: { cpu: '100m' } },
    { name: 'matching', a: { cpu: '100m' }, b: { cpu: '100m' }, expected: { cpu: '200m' } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(fold(r.a, r.b, addInto), canon(r.expected)));
});

describe('maxInto: resources_test.go TestMax', () => {
  const rows: Row[] = [
    { name: 'noKeys', a: {}, b: {}, expected: {} },
    { name: 'toEmpty', a: { cpu: '100m' }, b: {}, expected: { cpu: '100m' } },
    { name: 'matching', a: { cpu: '100m' }, b: { cpu: '150m' }, expected: { cpu: '150m' } },
    { name: 'matching(reverse)', a: { cpu: '150m' }, b: { cpu: '100m' }, expected: { cpu: '150m' } },
    { name: 'matching-equal', a: { cpu: '100m' }, b: { cpu: '100m' }, expected: { cpu: '100m' } },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(fold(r.a, r.b, maxInto), canon(r.expected)));
});
