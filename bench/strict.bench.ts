// Strict decoding (unknown fields and type errors against the served schema) of 10,000 full
// pods, next to a same-run baseline: a JSON round trip of the same pods, the least any decoder
// does with them. The API server runs strict decoding on every create and update.
//   npm run bench:strict

import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { strictProblems } from '../src/api/schema/index.js';
import { samplePod } from '../test/api/schema/helpers.js';

const N = Number(process.env.BENCH_PODS ?? 10000);
const POD = 'io.k8s.api.core.v1.Pod';

function main(): void {
  const pods = Array.from({ length: N }, (_, i) => {
    const p = samplePod();
    (p['metadata'] as Record<string, unknown>)['name'] = `web-${i}`;
    return p;
  });
  for (const p of pods.slice(0, 500)) strictProblems(p, POD); // warm up the JIT

  let t = performance.now();
  let copies = 0;
  for (const p of pods) if (JSON.parse(JSON.stringify(p)) !== null) copies++;
  const baselineMs = performance.now() - t;

  t = performance.now();
  let problems = 0;
  for (const p of pods) {
    const r = strictProblems(p, POD);
    problems += r.unknownFields.length + r.typeErrors.length;
  }
  const strictMs = performance.now() - t;
  if (problems !== 0 || copies !== N) throw new Error(`the sample pod must decode cleanly: ${problems} problems`);

  const rate = (ms: number) => Math.round((N / ms) * 1000).toLocaleString('en-US').padStart(9);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
  console.log(`baseline  JSON round trip      ${baselineMs.toFixed(0).padStart(6)} ms ${rate(baselineMs)} pods/s`);
  console.log(`strict    strictProblems(Pod)  ${strictMs.toFixed(0).padStart(6)} ms ${rate(strictMs)} pods/s  (${(strictMs / baselineMs).toFixed(1)}× the baseline)`);
}

main();
