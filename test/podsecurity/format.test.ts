// The Go-compatible text helpers the messages depend on: %q quoting, string order, joinQuote.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goCompare, goQuote, joinQuote, pluralize, sortedSet } from '../../src/podsecurity/format.js';

const quoteRows: [string, string, string][] = [
  ['plain ASCII', 'unconfined', '"unconfined"'],
  ['empty', '', '""'],
  ['double quote and backslash escaped', 'a"b\\c', '"a\\"b\\\\c"'],
  ['C escapes \\a \\b \\f \\n \\r \\t \\v', '\u0007\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
  ['other ASCII controls and DEL as \\xNN', '\u0000\u001f\u007f', '"\\x00\\x1f\\x7f"'],
  ['printable non-ASCII verbatim', 'héllo 日本 🙂', '"héllo 日本 🙂"'],
  ['non-printable BMP rune as \\uNNNN (C1 control, NBSP, zero-width space)', '\u0085\u00a0\u200b', '"\\u0085\\u00a0\\u200b"'],
  ['non-printable astral rune as \\UNNNNNNNN', '\u{e0001}', '"\\U000e0001"'],
  ['lone surrogate becomes U+FFFD', '\ud800x', '"\ufffdx"'],
];
for (const [name, input, expect] of quoteRows) {
  test(`goQuote: ${name}`, () => assert.equal(goQuote(input), expect));
}

test('goCompare / sortedSet: code point (UTF-8 byte) order, deduplicated', () => {
  // U+FF5E sorts before U+1F600 in Go, though its UTF-16 code unit is larger than the surrogate's.
  assert.deepEqual(sortedSet(['\u{1f600}', '\uff5e', 'b', 'a', 'b', 'B', '']), ['', 'B', 'a', 'b', '\uff5e', '\u{1f600}']);
  assert.equal(goCompare('a', 'ab'), -1);
  assert.equal(goCompare('ab', 'a'), 1);
  assert.equal(goCompare('x', 'x'), 0);
  assert.deepEqual(sortedSet(['8080', '80', '443']), ['443', '80', '8080']);
});

test('joinQuote / pluralize', () => {
  assert.equal(joinQuote([]), '');
  assert.equal(joinQuote(['a']), '"a"');
  assert.equal(joinQuote(['a', 'b"c']), '"a", "b"c"');
  assert.equal(pluralize('container', 'containers', 1), 'container');
  assert.equal(pluralize('container', 'containers', 0), 'containers');
  assert.equal(pluralize('container', 'containers', 2), 'containers');
});
