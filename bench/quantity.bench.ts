// Quantity parsing and arithmetic, 1,000,000 typical strings, next to a same-run baseline that
// parses the same strings with Number.parseFloat (what the text costs before any Quantity rule).
// `bulkhead plan` parses ~10 quantities per pod, so this bounds its share of the plan rate.
//   npm run bench:quantity

import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Quantity } from '../src/api/quantity.js';

const TYPICAL = ['500m', '128Mi', '1', '2Gi', '100m', '250m', '64Mi', '1Gi', '2', '4Gi', '1.5', '256Mi', '10Gi', '0.5', '200m', '512Mi'];
const N = 1_000_000;

function timed(run: () => number): { ms: number; sink: number } {
  const t = performance.now();
  const sink = run();
  return { ms: performance.now() - t, sink };
}

function main(): void {
  for (let i = 0; i < 50_000; i++) Quantity.parse(TYPICAL[i & 15]!); // warm up the JIT

  const baseline = timed(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += Number.parseFloat(TYPICAL[i & 15]!);
    return s;
  });
  const parse = timed(() => {
    let s = 0;
    for (let i = 0; i < N; i++) s += Quantity.parse(TYPICAL[i & 15]!).sign();
    return s;
  });
  const qs = TYPICAL.map((s) => Quantity.parse(s));
  const arith = timed(() => {
    let acc = Quantity.zero();
    let f = 0;
    for (let i = 0; i < N; i++) {
      const q = qs[i & 15]!;
      acc = acc.add(q);
      f += q.valueNumber() + Number(q.milliValue() & 1n) + q.cmp(qs[(i + 1) & 15]!);
    }
    return f + acc.sign();
  });
  if (parse.sink !== N) throw new Error(`parsed ${parse.sink} positive quantities, expected ${N}`);

  const rate = (ms: number) => Math.round((N / ms) * 1000).toLocaleString('en-US').padStart(12);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
  const row = (label: string, ms: number) => `${label.padEnd(54)}${ms.toFixed(0).padStart(6)} ms ${rate(ms)} /s`;
  console.log(row('baseline  Number.parseFloat', baseline.ms));
  console.log(`${row('parse     Quantity.parse', parse.ms)}  (${(parse.ms / baseline.ms).toFixed(1)}× the baseline)`);
  console.log(row('arith     add + milliValue + valueNumber + cmp', arith.ms));
}

main();
