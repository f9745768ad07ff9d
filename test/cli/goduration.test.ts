// Go's time.ParseDuration as the --etcd-compaction-interval flag reads it: values and Go's errors.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoDuration } from '../../src/cli/goduration.js';

describe('parseGoDuration (time.ParseDuration)', () => {
  const ok: [string, number][] = [
    ['0', 0],
    ['5m0s', 300],
    ['300s', 300],
    ['1h', 3600],
    ['1.5h', 5400],
    ['2h45m', 9900],
    ['100ms', 0.1],
    ['.5s', 0.5],
    ['1.s', 1],
    ['+10s', 10],
    ['-1m', -60],
    ['3µs', 3e-6],
  ];
  for (const [text, seconds] of ok) {
    it(`reads ${text} as ${seconds} s`, () => assert.ok(Math.abs(parseGoDuration(text) - seconds) < 1e-12));
  }
  const bad: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['five', 'time: invalid duration "five"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1h5', 'time: missing unit in duration "1h5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
  ];
  for (const [text, message] of bad) {
    it(`refuses ${JSON.stringify(text)}: ${message}`, () => assert.throws(() => parseGoDuration(text), { message }));
  }
});
