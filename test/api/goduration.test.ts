// Go's time.ParseDuration in integer nanoseconds (src/api/goduration.ts): values, overflow at
// 1<<63-1 ns, and the time package's quoting in its errors. One row per rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goQuote, parseGoDurationNanos } from '../../src/api/goduration.js';

describe('parseGoDurationNanos (time.ParseDuration)', () => {
  const ok: [string, bigint][] = [
    ['0', 0n],
    ['-0', 0n],
    ['1ns', 1n],
    ['1.5us', 1_500n],
    ['2µs', 2_000n],
    ['2μs', 2_000n],
    ['50ms', 50_000_000n],
    ['1m0.5s', 60_500_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['-1s', -1_000_000_000n],
    ['+2h45m', 9_900_000_000_000n],
    ['1.0000000001s', 1_000_000_000n], // digits finer than a nanosecond truncate
    ['9223372036854775807ns', 9_223_372_036_854_775_807n],
    ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
  ];
  for (const [text, ns] of ok) it(`${text} = ${ns} ns`, () => assert.equal(parseGoDurationNanos(text), ns));

  const bad: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1h5', 'time: missing unit in duration "1h5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['"1"', 'time: invalid duration "\\"1\\""'],
  ];
  for (const [text, message] of bad) it(`${JSON.stringify(text)}: ${message}`, () => assert.throws(() => parseGoDurationNanos(text), { message }));

  it('goQuote escapes quotes and backslashes, and every byte outside printable ASCII', () => {
    assert.equal(goQuote('a"b\\c\n'), '"a\\"b\\\\c\\x0a"');
  });
});
