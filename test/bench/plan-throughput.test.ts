import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

// The plan throughput is measured by bench/plan.bench.ts (npm run bench:plan), never judged
// here: a rate depends on how busy the machine is. This only keeps the benchmark runnable, on a
// small input, and checks it prints its rate next to the same-run baseline. Its own target line
// may say either word; its exit status 1 means "target not met" and is not a failure here.
it('bench:plan runs and prints the plan rate next to a same-run baseline', () => {
  const r = spawnSync(process.execPath, ['dist/bench/plan.bench.js'], { encoding: 'utf8', env: { ...process.env, BENCH_PODS: '200', BENCH_RUNS: '1', BENCH_RSS_PODS: '400' } });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.ok(r.status === 0 || (r.status === 1 && /target .*: NOT MET/.test(r.stdout)), out);
  assert.match(r.stdout, /^baseline\s+YAML parse only\s+\d+ ms\s+[\d,]+ pods\/s$/m, out);
  assert.match(r.stdout, /^plan\s+parse \+ admit \+ node plan\s+\d+ ms\s+[\d,]+ pods\/s/m, out);
  assert.match(r.stdout, /^baseline\s+JSON\.parse \+ stringify\s+[\d,]+ \/\s+[\d,]+ \/\s+[\d,]+ pods\/s/m, out);
  assert.match(r.stdout, /^cli\s+bulkhead plan -o json\s+\d+ ms\s+[\d,]+ \/\s+[\d,]+ \/\s+[\d,]+ pods\/s/m, out);
  assert.match(r.stdout, /^cli\s+the same, no two specs alike\s+\d+ ms\s+[\d,]+ \/\s+[\d,]+ \/\s+[\d,]+ pods\/s/m, out);
  assert.match(r.stdout, /^rss\s+bulkhead plan peak RSS\s+200 pods: \d+ MiB; 400 pods: \d+ MiB/m, out);
});
