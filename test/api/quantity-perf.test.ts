// Throughput guard: `bulkhead plan` parses ~10 quantities per pod at > 5,000 pods/s, so parsing
// must stay far below 2 s per million typical strings. The budget is deliberately loose (the
// measured figure is ~0.15 s) so that a loaded CI machine does not flake; the figure is reported.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Quantity } from '../../src/api/quantity.js';

const TYPICAL = ['500m', '128Mi', '1', '2Gi', '100m', '250m', '64Mi', '1Gi', '2', '4Gi', '1.5', '256Mi', '10Gi', '0.5', '200m', '512Mi'];

it('parses 1,000,000 typical quantity strings in well under 2 s', (t) => {
  for (let i = 0; i < 50_000; i++) Quantity.parse(TYPICAL[i & 15]!); // warm up
  const start = performance.now();
  let sink = 0;
  for (let i = 0; i < 1_000_000; i++) sink += Quantity.parse(TYPICAL[i & 15]!).sign();
  const ms = performance.now() - start;
  t.diagnostic(`parse: ${ms.toFixed(0)} ms per 1e6 (${((1e6 / ms) * 1000).toFixed(0)} /s)`);
  assert.equal(sink, 1_000_000);
  assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
});

it('value accessors and arithmetic on parsed quantities are cheap', (t) => {
  const qs = TYPICAL.map((s) => Quantity.parse(s));
  const start = performance.now();
  let acc = Quantity.zero();
  let n = 0n;
  let f = 0;
  for (let i = 0; i < 1_000_000; i++) {
    const q = qs[i & 15]!;
    acc = acc.add(q);
    n += q.milliValue();
    f += q.valueNumber();
    if (q.cmp(qs[(i + 1) & 15]!) > 1) throw new Error('unreachable');
  }
  const ms = performance.now() - start;
  t.diagnostic(`add+milliValue+valueNumber+cmp: ${ms.toFixed(0)} ms per 1e6`);
  assert.ok(acc.sign() > 0 && n > 0n && f > 0);
  assert.ok(ms < 4000, `took ${ms.toFixed(0)} ms`);
});
