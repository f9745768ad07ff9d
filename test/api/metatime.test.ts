import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metaTime, microTime } from '../../src/api/metatime.js';

describe('metav1.Time and metav1.MicroTime JSON', () => {
  const at = Date.parse('2026-01-02T03:04:05.678Z');
  const rows: { name: string; got: () => string; want: string }[] = [
    { name: 'Time truncates to the second (Go Format(RFC3339) drops the fraction)', got: () => metaTime(at), want: '2026-01-02T03:04:05Z' },
    { name: 'Time from a Date equals Time from its milliseconds', got: () => metaTime(new Date(at)), want: '2026-01-02T03:04:05Z' },
    { name: 'Time of a whole second is unchanged', got: () => metaTime(Date.parse('2026-01-02T03:04:05Z')), want: '2026-01-02T03:04:05Z' },
    { name: 'Time just before the next second still truncates', got: () => metaTime(at + 321), want: '2026-01-02T03:04:05Z' },
    { name: 'MicroTime keeps six fraction digits (milliseconds padded)', got: () => microTime(at), want: '2026-01-02T03:04:05.678000Z' },
    { name: 'MicroTime of a whole second', got: () => microTime(new Date('2026-01-02T03:04:05Z')), want: '2026-01-02T03:04:05.000000Z' },
    { name: 'the epoch', got: () => metaTime(0), want: '1970-01-01T00:00:00Z' },
    { name: 'Time before the epoch truncates toward the past, as Go does', got: () => metaTime(-1), want: '1969-12-31T23:59:59Z' },
    { name: 'Time of a second asked again after another one (the last text kept is not stale)', got: () => [metaTime(at), metaTime(at + 1000), metaTime(at + 10), metaTime(at - 1000)].join(' '), want: '2026-01-02T03:04:05Z 2026-01-02T03:04:06Z 2026-01-02T03:04:05Z 2026-01-02T03:04:04Z' },
    { name: 'an invalid time is a RangeError, as toISOString answers', got: () => { try { return metaTime(NaN); } catch (e) { return (e as Error).name; } }, want: 'RangeError' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(r.got(), r.want));
});
