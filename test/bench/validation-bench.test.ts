import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

// Validation speed is measured by bench/validation.bench.ts (npm run bench:validation), never
// judged here: this keeps the benchmark runnable on a small input and checks that it prints each
// figure beside its same-run baseline and found the field errors it planted.
it('bench:validation runs and prints µs per pod beside a same-run structuredClone baseline', () => {
  const r = spawnSync(process.execPath, ['dist/bench/validation.bench.js'], { encoding: 'utf8', env: { ...process.env, BENCH_PODS: '200', BENCH_RUNS: '1' } });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.match(r.stdout, /^input: rounds of 200 fresh defaulted pods, \d+ of them with an invalid field \(([1-9]\d*) field errors\)/m, out);
  assert.match(r.stdout, /^baseline\s+structuredClone\s+[\d.]+ µs\/pod$/m, out);
  assert.match(r.stdout, /^validate\s+validatePodCreate, all\s+[\d.]+ µs\/pod\s+\([\d.]+× the baseline\)$/m, out);
  assert.match(r.stdout, /^validate\s+invalid pods only\s+[\d.]+ µs\/pod/m, out);
});
