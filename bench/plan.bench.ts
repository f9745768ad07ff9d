// Plans 10,000 pods from one file and prints pods/s, next to a baseline measured in the same
// run: parsing the same file without planning it. Pods mix the three QoS classes, sidecars,
// ulimits and OOM kill modes across namespaces with quotas, LimitRanges and Pod Security.
//   npm run bench:plan            (BENCH_PODS=N to change the count)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadAll } from 'js-yaml';
import { parseManifests, checkKinds } from '../src/cli/manifests.js';
import { defaultFeatureGates } from '../src/api/featuregates.js';
import { parseEvictionThresholds, defaultEvictionHard } from '../src/policy/eviction.js';
import { plan } from '../src/plan/engine.js';

const podCount = Number(process.env.BENCH_PODS ?? 10000);
const namespaces = 20;

function manifest(podCount: number): string {
  const docs: string[] = [];
  for (let n = 0; n < namespaces; n++) {
    const level = n % 2 === 0 ? 'privileged' : 'baseline';
    docs.push(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-${n}\n  labels:\n    pod-security.kubernetes.io/enforce: ${level}\n`);
    docs.push(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute, namespace: team-${n}}\nspec:\n  hard: {pods: "100000", requests.cpu: "10000", requests.memory: 100000Gi}\n  scopes: [NotBestEffort]\n`);
    docs.push(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: best-effort, namespace: team-${n}}\nspec:\n  hard: {pods: "100000"}\n  scopes: [BestEffort]\n`);
    if (n % 4 === 0) {
      docs.push(`apiVersion: v1\nkind: LimitRange\nmetadata: {name: defaults, namespace: team-${n}}\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 500m, memory: 512Mi}\n    defaultRequest: {cpu: 100m, memory: 128Mi}\n    max: {memory: 64Gi}\n`);
    }
  }
  for (let i = 0; i < podCount; i++) {
    const ns = `team-${i % namespaces}`;
    const privileged = (i % namespaces) % 2 === 0;
    const kind = i % 3;
    const resources =
      kind === 0 ? '      resources: {limits: {cpu: 500m, memory: 256Mi}}\n'
      : kind === 1 ? '      resources:\n        requests: {cpu: 250m, memory: 128Mi}\n        limits: {memory: 1Gi}\n'
      : '';
    const ulimits = privileged && i % 5 === 0 ? '      securityContext:\n        ulimits:\n        - {name: nofile, soft: 65535, hard: 65535}\n' : '';
    const sidecar = i % 7 === 0
      ? `  initContainers:\n    - name: proxy\n      image: busybox\n      restartPolicy: Always\n      resources: {requests: {cpu: 50m, memory: 32Mi}, limits: {memory: 64Mi}}\n`
      : '';
    docs.push(
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-${i}\n  namespace: ${ns}\n  labels: {app: bench}\nspec:\n${sidecar}  containers:\n    - name: app\n      image: busybox:1.36\n      oomKillMode: ${i % 2 === 0 ? 'Single' : 'Group'}\n${resources}${ulimits}`,
    );
  }
  return docs.join('---\n');
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-'));
  try {
    const file = join(dir, 'pods.yaml');
    writeFileSync(file, manifest(podCount));
    const text = readFileSync(file, 'utf8');
    const opts = {
      node: { memoryBytes: 64n << 30n, milliCPU: 16000n, cgroupVersion: 2 as const, cgroupDriver: 'cgroupfs' as const, nrOpen: 1048576n },
      gates: defaultFeatureGates,
      podSecurity: {},
      evictionHard: parseEvictionThresholds(defaultEvictionHard),
      now: new Date(),
    };

    // Warm up the JIT on a slice, then measure.
    plan(parseManifests(manifest(500), 'warmup.yaml'), opts);

    let t = performance.now();
    const docs = loadAll(text);
    const parseMs = performance.now() - t;

    t = performance.now();
    const objects = parseManifests(text, file);
    checkKinds(objects);
    const result = plan(objects, opts);
    const planMs = performance.now() - t;
    const admitted = result.pods.filter((p) => p.admitted).length;
    const refusedBy = new Map<string, number>();
    for (const p of result.pods) for (const r of p.rejections) refusedBy.set(r.by, (refusedBy.get(r.by) ?? 0) + 1);
    const firstRefusal = result.pods.find((p) => !p.admitted)?.rejections[0]?.message;

    t = performance.now();
    const mainJs = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
    const cli = spawnSync(process.execPath, [mainJs, 'plan', file, '--node-memory', '64Gi', '--node-cpu', '16', '--cgroup-version', '2', '-o', 'json'], { maxBuffer: 1 << 30 });
    const cliMs = performance.now() - t;
    if (cli.status !== 0 && cli.status !== 1) throw new Error(`bulkhead plan failed: ${cli.stderr}`);
    const cliPods = (JSON.parse(cli.stdout.toString()) as { pods: unknown[] }).pods.length;
    if (cliPods !== podCount) throw new Error(`bulkhead plan planned ${cliPods} pods, expected ${podCount}`);

    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
    console.log(`input: ${podCount} pods in ${namespaces} namespaces, ${(text.length / 2 ** 20).toFixed(1)} MiB of YAML (${docs.length} documents)`);
    console.log(`baseline  YAML parse only           ${parseMs.toFixed(0).padStart(6)} ms  ${rate(podCount, parseMs).toLocaleString('en-US').padStart(9)} pods/s`);
    console.log(`plan      parse + admit + node plan  ${planMs.toFixed(0).padStart(6)} ms  ${rate(podCount, planMs).toLocaleString('en-US').padStart(9)} pods/s  (${admitted} admitted; refused by ${[...refusedBy].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'})`);
    if (firstRefusal) console.log(`          e.g. ${firstRefusal}`);
    console.log(`cli       bulkhead plan -o json      ${cliMs.toFixed(0).padStart(6)} ms  ${rate(podCount, cliMs).toLocaleString('en-US').padStart(9)} pods/s  (process start and JSON output included)`);
    const target = 5000;
    const ok = rate(podCount, planMs) >= target;
    console.log(`target    >= ${target} pods/s in-process: ${ok ? 'met' : 'NOT MET'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
