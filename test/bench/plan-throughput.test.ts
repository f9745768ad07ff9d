import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

// The bar: planning 10,000 pods from one file stays above 5,000 pods/s on this kind of
// 2-core machine. The benchmark itself checks the target and exits 1 when it is missed.
it('bench:plan plans 10,000 pods at 5,000 pods/s or more', () => {
  const r = spawnSync(process.execPath, ['dist/bench/plan.bench.js'], { encoding: 'utf8', env: { ...process.env, BENCH_PODS: '10000' } });
  process.stdout.write(r.stdout);
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /target\s+>= 5000 pods\/s in-process: met/);
});
