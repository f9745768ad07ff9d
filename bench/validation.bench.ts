// Pod validation (validatePodCreate, as admission and the API server's create path call it), µs
// per pod, beside a same-run baseline: structuredClone of the same pods (what merely walking
// and copying each object costs).
// Pods have the shapes of bench/plan.bench.ts (three QoS classes, restartable init containers,
// ulimits, OOM kill modes across 20 namespaces), decoded from JSON and defaulted as admission
// defaults them before it validates; every 25th pod carries one invalid field, so the error
// paths are measured too. Each round validates pods never validated before (names included),
// as `bulkhead plan` and the API server's create path do.
//   npm run bench:validation      (BENCH_PODS=N to change the count, BENCH_RUNS=N the rounds)

import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { admitDefaultTolerationSeconds } from '../src/admission/defaulttolerationseconds.js';
import { defaultPod } from '../src/api/defaults.js';
import { defaultFeatureGates } from '../src/api/featuregates.js';
import type { Container, Pod } from '../src/api/types.js';
import { validatePodCreate } from '../src/api/validation/index.js';

const podCount = Number(process.env.BENCH_PODS ?? 5000);
const runs = Number(process.env.BENCH_RUNS ?? 9);
const namespaces = 20;
const invalidEvery = 25;

/** One pod of bench/plan.bench.ts's mix, as written by a user. */
function pod(i: number): Pod {
  const privileged = (i % namespaces) % 2 === 0;
  const kind = i % 3;
  const app: Container = { name: 'app', image: 'busybox:1.36', oomKillMode: i % 2 === 0 ? 'Single' : 'Group' };
  if (kind === 0) app.resources = { limits: { cpu: '500m', memory: '256Mi' } };
  else if (kind === 1) app.resources = { requests: { cpu: '250m', memory: '128Mi' }, limits: { memory: '1Gi' } };
  if (privileged && i % 5 === 0) app.securityContext = { ulimits: [{ name: 'nofile', soft: 65535, hard: 65535 }] };
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: `team-${i % namespaces}`, labels: { app: 'bench' } },
    spec: { containers: [app] },
  };
  if (i % 7 === 0) {
    p.spec!.initContainers = [
      { name: 'proxy', image: 'busybox', restartPolicy: 'Always', resources: { requests: { cpu: '50m', memory: '32Mi' }, limits: { memory: '64Mi' } } },
    ];
  }
  return p;
}

/** One invalid field, a different rule each time (metadata, container, resources, tolerations, ulimits). */
function spoil(p: Pod, i: number): void {
  const c = p.spec!.containers[0]!;
  switch ((i / invalidEvery) % 6) {
    case 0:
      p.metadata!.labels = { app: 'bench', 'bad key!': '-x-' };
      break;
    case 1:
      c.name = 'App_1';
      break;
    case 2:
      c.resources = { requests: { cpu: '2', memory: '128Mi' }, limits: { cpu: '1', memory: '64Mi' } };
      break;
    case 3:
      p.spec!.tolerations = [{ key: 'k', operator: 'Exists', value: 'v', effect: 'NoExecute' }];
      break;
    case 4:
      c.securityContext = { ulimits: [{ name: 'nproc', soft: 2048, hard: 1024 }] };
      break;
    default:
      c.ports = [{ containerPort: 70000, name: 'http' }, { containerPort: 80, name: 'http' }];
      c.image = ' busybox';
  }
}

/** `n` pods from `from` on, every `step`th, as validatePodCreate sees them in admission: decoded, defaulted, default tolerations added. */
function pods(from: number, n: number, step = 1): Pod[] {
  const out: Pod[] = [];
  for (let i = from; i < from + n * step; i += step) {
    const p = pod(i);
    if (i % invalidEvery === 0) spoil(p, i);
    const decoded = JSON.parse(JSON.stringify(p)) as Pod;
    const defaulted = admitDefaultTolerationSeconds(defaultPod(decoded, { gates: defaultFeatureGates, inPlace: true }));
    defaulted.status = { phase: 'Pending' };
    out.push(defaulted);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function main(): void {
  const opts = { gates: defaultFeatureGates };
  let next = 0;
  // Pods never validated before; `spoiled`: only ones with an invalid field.
  const fresh = (spoiled = false): Pod[] => {
    const step = spoiled ? invalidEvery : 1;
    const batch = pods(next, podCount, step);
    next += podCount * step;
    return batch;
  };

  // Warm up the JIT, and check that exactly the spoiled pods are refused.
  let errors = 0;
  let refused = 0;
  let spoiled = 0;
  for (let w = 0; w < 3; w++) {
    const batch = fresh();
    for (const p of batch) {
      const n = validatePodCreate(p, opts).length;
      if (w === 0) {
        errors += n;
        if (n > 0) refused++;
      }
    }
    if (w === 0) spoiled = batch.filter((p) => Number(p.metadata!.name!.slice('pod-'.length)) % invalidEvery === 0).length;
  }
  if (refused !== spoiled) throw new Error(`expected exactly the ${spoiled} spoiled pods to be refused, ${refused} were`);

  const timePer = (items: Pod[], f: (p: Pod) => number): number => {
    let sink = 0;
    const t = performance.now();
    for (const p of items) sink += f(p);
    const us = ((performance.now() - t) * 1000) / items.length;
    if (sink < 0) throw new Error('unreachable');
    return us;
  };
  const cloneUs: number[] = [];
  const validUs: number[] = [];
  const invalidUs: number[] = [];
  for (let r = 0; r < runs; r++) {
    cloneUs.push(timePer(fresh(), (p) => (structuredClone(p).spec ? 1 : 0)));
    validUs.push(timePer(fresh(), (p) => validatePodCreate(p, opts).length));
    invalidUs.push(timePer(fresh(true), (p) => validatePodCreate(p, opts).length));
  }

  const c = median(cloneUs);
  const v = median(validUs);
  const bad = median(invalidUs);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
  console.log(`input: rounds of ${podCount} fresh defaulted pods, ${spoiled} of them with an invalid field (${errors} field errors); median of ${runs} rounds`);
  console.log(`baseline  structuredClone            ${c.toFixed(2).padStart(7)} µs/pod`);
  console.log(`validate  validatePodCreate, all     ${v.toFixed(2).padStart(7)} µs/pod  (${(v / c).toFixed(2)}× the baseline)`);
  console.log(`validate  invalid pods only          ${bad.toFixed(2).padStart(7)} µs/pod  (${(bad / c).toFixed(2)}× the baseline; rounds of ${podCount} pods that each carry one)`);
}

main();
