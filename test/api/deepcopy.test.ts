// deepCopyJSON: a copy equal to a JSON round trip of the value, sharing nothing with it. One row
// per rule; each is also checked against JSON.parse(JSON.stringify(value)) itself.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deepCopyJSON } from '../../src/api/deepcopy.js';

const pod = JSON.parse(
  '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"x"},"managedFields":[{"manager":"kubectl","fieldsV1":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{}}}}}}]},"spec":{"containers":[{"name":"c","image":"busybox","resources":{"limits":{"cpu":"1"}}}],"terminationGracePeriodSeconds":30,"enableServiceLinks":true},"status":{"conditions":[{"type":"PodScheduled","lastProbeTime":null}]}}',
) as unknown;

const rows: { rule: string; value: unknown; want: unknown }[] = [
  { rule: 'a decoded object copies member for member, nulls and nested lists included', value: pod, want: pod },
  { rule: 'scalars copy as themselves', value: 'text', want: 'text' },
  { rule: 'null copies as null', value: null, want: null },
  { rule: 'a member whose value is undefined is left out', value: { a: 1, b: undefined }, want: { a: 1 } },
  { rule: 'functions and symbols are left out as members', value: { f: () => 1, s: Symbol('s'), k: true }, want: { k: true } },
  { rule: 'undefined, functions and symbols in a list become null', value: [undefined, () => 1, Symbol('s'), 2], want: [null, null, null, 2] },
  { rule: 'a hole in a list becomes null', value: [1, , 3], want: [1, null, 3] }, // eslint-disable-line no-sparse-arrays
  { rule: 'numbers that are not finite become null', value: { a: NaN, b: Infinity, c: [-Infinity] }, want: { a: null, b: null, c: [null] } },
  { rule: '-0 becomes 0', value: { z: -0 }, want: { z: 0 } },
  { rule: 'a Date becomes its JSON text', value: { at: new Date(Date.UTC(2026, 10, 28, 12, 0, 0)) }, want: { at: '2026-11-28T12:00:00.000Z' } },
  { rule: 'an object with toJSON is copied as what toJSON gives', value: { q: { toJSON: () => '1Gi' } }, want: { q: '1Gi' } },
  { rule: 'an object without a prototype copies as a plain one', value: Object.assign(Object.create(null) as object, { a: 1 }), want: { a: 1 } },
  { rule: 'integer-like keys keep JSON order', value: { b: 1, 2: 'x', a: 2, 1: 'y' }, want: { 1: 'y', 2: 'x', b: 1, a: 2 } },
];

describe('deepCopyJSON', () => {
  for (const row of rows) {
    test(row.rule, () => {
      const copy = deepCopyJSON(row.value);
      assert.deepEqual(copy, row.want);
      assert.equal(JSON.stringify(copy), JSON.stringify(JSON.parse(JSON.stringify(row.value))), 'as a JSON round trip');
    });
  }

  test('undefined stays undefined (a round trip would throw)', () => {
    assert.equal(deepCopyJSON(undefined), undefined);
  });

  test('the copy shares no object or list with the original', () => {
    const copy = deepCopyJSON(pod) as { metadata: { labels: Record<string, string> }; spec: { containers: { resources: { limits: Record<string, string> } }[] } };
    copy.metadata.labels['app'] = 'changed';
    copy.spec.containers[0]!.resources.limits['cpu'] = '2';
    copy.spec.containers.push(copy.spec.containers[0]!);
    const original = pod as typeof copy;
    assert.equal(original.metadata.labels['app'], 'x');
    assert.equal(original.spec.containers[0]!.resources.limits['cpu'], '1');
    assert.equal(original.spec.containers.length, 1);
  });

  test('an own __proto__ member stays an own member, not the prototype', () => {
    const value = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":"yes"},"a":"b"}}}') as { metadata: { labels: Record<string, unknown> } };
    const copy = deepCopyJSON(value);
    assert.equal(Object.getPrototypeOf(copy.metadata.labels), Object.prototype);
    assert.deepEqual(Object.keys(copy.metadata.labels), ['__proto__', 'a']);
    assert.equal((copy.metadata.labels as { polluted?: string }).polluted, undefined);
    assert.equal(JSON.stringify(copy), JSON.stringify(value));
  });
});
