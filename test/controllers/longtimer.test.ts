// setLongTimeout: a delay past setTimeout's 2^31-1 ms is waited out in steps, never fired early.

import assert from 'node:assert/strict';
import { it, mock } from 'node:test';
import { maxTimerMs, setLongTimeout } from '../../src/controllers/longtimer.js';

const day = 24 * 3600 * 1000;

const rows: { name: string; ms: number; ticks: number[]; firedAfter: number }[] = [
  { name: 'a short delay fires once, at its time', ms: 500, ticks: [499, 1], firedAfter: 2 },
  { name: 'exactly the most setTimeout keeps', ms: maxTimerMs, ticks: [maxTimerMs - 1, 1], firedAfter: 2 },
  { name: '30 days: not at the first step, at the end', ms: 30 * day, ticks: [maxTimerMs, 30 * day - maxTimerMs - 1, 1], firedAfter: 3 },
  { name: '60 days: two steps, then the rest', ms: 60 * day, ticks: [maxTimerMs, maxTimerMs, 60 * day - 2 * maxTimerMs - 1, 1], firedAfter: 4 },
];

for (const r of rows) {
  it(r.name, () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let fired = 0;
      setLongTimeout(() => fired++, r.ms);
      r.ticks.forEach((t, i) => {
        mock.timers.tick(t);
        assert.equal(fired, i + 1 >= r.firedAfter ? 1 : 0, `after tick ${i + 1}`);
      });
    } finally {
      mock.timers.reset();
    }
  });
}

it('clear stops it at any step', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let fired = 0;
    const t = setLongTimeout(() => fired++, 30 * day);
    mock.timers.tick(maxTimerMs);
    t.clear();
    mock.timers.tick(30 * day);
    assert.equal(fired, 0);
  } finally {
    mock.timers.reset();
  }
});
