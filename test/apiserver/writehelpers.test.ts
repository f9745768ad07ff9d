// Small pieces of the write path that have cheaper forms than the obvious one: each row pins the
// cheap form to the obvious one's answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stableJSON } from '../../src/api/stablejson.js';
import { codePoints, warningHeaders } from '../../src/apiserver/request.js';
import { sameUsage } from '../../src/apiserver/strategies.js';

const usageRows: { rule: string; a: Record<string, unknown> | undefined; b: Record<string, unknown> | undefined }[] = [
  { rule: 'the same quantities are the same usage', a: { pods: '1', 'requests.cpu': '100m' }, b: { pods: '1', 'requests.cpu': '100m' } },
  { rule: 'key order does not matter', a: { pods: '1', cpu: '2' }, b: { cpu: '2', pods: '1' } },
  { rule: 'a changed quantity is a change', a: { pods: '1' }, b: { pods: '2' } },
  { rule: 'a quantity the other lacks is a change (left)', a: { pods: '1', cpu: '1' }, b: { pods: '1' } },
  { rule: 'a quantity the other lacks is a change (right)', a: { pods: '1' }, b: { pods: '1', cpu: '1' } },
  { rule: 'undefined members count as absent', a: { pods: '1', cpu: undefined }, b: { pods: '1' } },
  { rule: 'no usage on either side', a: undefined, b: undefined },
  { rule: 'no usage yet against an empty charge', a: undefined, b: {} },
  { rule: 'no usage yet against a charge', a: undefined, b: { pods: '1' } },
  { rule: 'a quantity stored as a number goes to the JSON comparison', a: { pods: 1 }, b: { pods: '1' } },
  { rule: 'equal nested values go to the JSON comparison', a: { odd: { x: 1 } }, b: { odd: { x: 1 } } },
];

for (const row of usageRows) {
  test(`sameUsage agrees with stableJSON equality: ${row.rule}`, () => {
    assert.equal(sameUsage(row.a, row.b), stableJSON(row.a) === stableJSON(row.b));
    assert.equal(sameUsage(row.b, row.a), stableJSON(row.b) === stableJSON(row.a));
  });
}

const pointRows: { rule: string; s: string }[] = [
  { rule: 'ASCII', s: 'would violate PodSecurity "restricted:latest"' },
  { rule: 'the empty string', s: '' },
  { rule: 'BMP characters beyond Latin-1', s: 'größe — 容器' },
  { rule: 'astral characters are one code point each', s: 'a😀b𝔘' },
  { rule: 'a lone high surrogate at the end', s: 'x\ud83d' },
  { rule: 'a lone low surrogate', s: '\ude00y' },
  { rule: 'two high surrogates then a low one', s: '\ud83d\ud83d\ude00' },
];

for (const row of pointRows) {
  test(`codePoints counts as [...s].length does: ${row.rule}`, () => {
    assert.equal(codePoints(row.s), [...row.s].length);
  });
}

test('warningHeaders: de-duplicated, Go-quoted, in order', () => {
  assert.deepEqual(warningHeaders(['b', 'a "q"', 'b']), ['299 - "b"', '299 - "a \\"q\\""']);
});

test('warningHeaders: past 4,096 code points in all, each warning is cut to 256 code points (astral ones count once) and the list stops at 4,096', () => {
  const long = '😀'.repeat(300);
  const out = warningHeaders(Array.from({ length: 20 }, (_, i) => `${i}${long}`));
  assert.equal(out.length, 16, '16 warnings of 256 code points make 4,096; the 17th would pass it');
  for (const h of out) assert.equal([...(JSON.parse(h.slice('299 - '.length)) as string)].length, 256);
});

test('warningHeaders: under 4,096 code points in all, nothing is cut', () => {
  const w = '😀'.repeat(1000);
  assert.deepEqual(warningHeaders([w]), [`299 - ${JSON.stringify(w)}`]);
});
