// Plans 10,000 pods and prints pods/s, each next to a baseline measured in the same run:
//  - in process, from YAML: parsing the same file without planning it;
//  - the `bulkhead plan -o json` CLI on the same pods as one JSON List (process start and
//    output included), BENCH_RUNS times (5), min/median/max, beside JSON.parse + JSON.stringify
//    (indented, as -o json prints) of the same List; then on the same pods with no two specs
//    alike (each has its own env var), which shows what remembering a spec's outcome buys;
//  - the CLI's peak RSS on that List and on one ten times larger (100,000 pods): plan streams,
//    so the two should be about the same.
// Pods mix the three QoS classes, sidecars, ulimits and OOM kill modes across namespaces with
// quotas, LimitRanges and Pod Security.
//   npm run bench:plan            (BENCH_PODS=N to change the count, BENCH_RUNS=N the runs)

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadAll } from 'js-yaml';
import { parseManifests, checkKinds } from '../src/cli/manifests.js';
import { defaultFeatureGates } from '../src/api/featuregates.js';
import { parseEvictionThresholds, defaultEvictionHard } from '../src/policy/eviction.js';
import { plan } from '../src/plan/engine.js';
import { nodeEnv, nodeFlags } from '../src/cli/nodeflags.js';

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

const runs = Number(process.env.BENCH_RUNS ?? 5);
const mainJs = fileURLToPath(new URL('../bin/main.js', import.meta.url));
const cliFlags = ['--node-memory', '64Gi', '--node-cpu', '16', '--cgroup-version', '2', '-o', 'json'];

/**
 * The same objects as one JSON List, as `kubectl get -o json` writes one. `distinct`: each pod's
 * first container also gets its own env var, so that no two specs are alike, as in pods exported
 * from a cluster (their nodeName and service account token volumes differ): what admission
 * could remember of one spec never serves another.
 */
function jsonList(podCount: number, distinct = false): string {
  const items = loadAll(manifest(podCount)) as { kind?: string; spec?: { containers?: { env?: unknown[] }[] } }[];
  if (distinct) {
    let i = 0;
    for (const o of items) if (o.kind === 'Pod' && o.spec?.containers?.[0]) o.spec.containers[0].env = [{ name: 'POD_INDEX', value: String(i++) }];
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

interface CliRun {
  ms: number;
  pods: number;
  /** Peak resident set of the plan process, bytes. */
  maxRSS: number;
  out: Buffer;
}

/**
 * One `bulkhead plan` process; a preloaded hook reports its peak RSS on stderr as it exits. The
 * hook is CommonJS (--require): an ES module preloaded with --import costs the timed process
 * some 25 ms on this machine, which a user's run does not pay. The peak is the high-water mark of
 * the process's own memory (VmHWM in /proc/self/status), not getrusage's maxRSS: Linux carries
 * that over exec from the forked copy of this bench, so a child counted the bench's own RSS at the
 * spawn (`node -e` spawned by a process of 341 MiB reports a maxRSS of 304 MiB, VmHWM 39).
 * The process gets the node flags and glibc settings main.js's shebang gives a user's run
 * (nodeflags.ts): without them the young generation is twice the size, ~3,500 more page faults
 * in a 10,000-pod plan.
 */
function runCli(file: string, rssHook: string, discard = false): CliRun {
  const devNull = discard ? openSync('/dev/null', 'w') : undefined;
  const t = performance.now();
  const cli = spawnSync(process.execPath, [...nodeFlags, '--require', rssHook, mainJs, 'plan', file, ...cliFlags], { env: { ...process.env, ...nodeEnv }, maxBuffer: 1 << 30, stdio: ['ignore', devNull ?? 'pipe', 'pipe'] });
  if (devNull !== undefined) closeSync(devNull);
  const ms = performance.now() - t;
  if (cli.status !== 0 && cli.status !== 1) throw new Error(`bulkhead plan failed: ${cli.stderr}`);
  const rss = /maxRSS=(\d+)/.exec(cli.stderr.toString());
  if (!rss) throw new Error(`bulkhead plan reported no peak RSS: ${cli.stderr}`);
  return { ms, pods: 0, maxRSS: Number(rss[1]) * 1024, out: cli.stdout };
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * The in-process figures (YAML parse, and plan() from YAML), in a function of their own: what
 * they hold (10,000 parsed documents, a whole plan result) is garbage by the time the CLI runs,
 * whose output this process reads, and a large heap here would slow that reading.
 */
function inProcess(file: string, rate: (n: number, ms: number) => number): number {
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
  console.log(`input: ${podCount} pods in ${namespaces} namespaces, ${(text.length / 2 ** 20).toFixed(1)} MiB of YAML (${docs.length} documents)`);
  console.log(`baseline  YAML parse only           ${parseMs.toFixed(0).padStart(6)} ms  ${rate(podCount, parseMs).toLocaleString('en-US').padStart(9)} pods/s`);
  console.log(`plan      parse + admit + node plan  ${planMs.toFixed(0).padStart(6)} ms  ${rate(podCount, planMs).toLocaleString('en-US').padStart(9)} pods/s  (${admitted} admitted; refused by ${[...refusedBy].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'})`);
  if (firstRefusal) console.log(`          e.g. ${firstRefusal}`);
  return planMs;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-bench-'));
  try {
    const rssHook = join(dir, 'maxrss.cjs');
    writeFileSync(
      rssHook,
      `process.on('exit', () => {
  let kb = process.resourceUsage().maxRSS;
  try {
    kb = Number(/VmHWM:\\s*(\\d+) kB/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {}
  process.stderr.write('maxRSS=' + kb + '\\n');
});\n`,
    );
    const file = join(dir, 'pods.yaml');
    writeFileSync(file, manifest(podCount));

    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`);
    const planMs = inProcess(file, rate);
    let t: number;

    // The CLI on one JSON List, beside parsing and printing the same List in this process.
    const listFile = join(dir, 'pods.json');
    writeFileSync(listFile, jsonList(podCount));
    const baseMs: number[] = [];
    const cliMs: number[] = [];
    let rss10 = 0;
    let firstOut: Buffer | undefined;
    for (let r = 0; r < runs; r++) {
      t = performance.now();
      const printed = JSON.stringify(JSON.parse(readFileSync(listFile, 'utf8')), null, 2);
      baseMs.push(performance.now() - t);
      if (printed.length === 0) throw new Error('unreachable');
      const run = runCli(listFile, rssHook);
      cliMs.push(run.ms);
      rss10 = Math.max(rss10, run.maxRSS);
      firstOut ??= run.out;
    }
    // Checked after the timed runs: parsing 29 MB of output here would grow this process's heap
    // while it reads the next run's output.
    const cliPods = (JSON.parse(firstOut!.toString()) as { pods: unknown[] }).pods.length;
    if (cliPods !== podCount) throw new Error(`bulkhead plan planned ${cliPods} pods, expected ${podCount}`);
    const b = stats(baseMs.map((ms) => rate(podCount, ms)));
    const c = stats(cliMs.map((ms) => rate(podCount, ms)));
    const m = stats(cliMs);
    console.log(`input: the same ${podCount} pods as one JSON List, ${(statSync(listFile).size / 2 ** 20).toFixed(1)} MiB; ${runs} runs, pods/s min / median / max`);
    console.log(`baseline  JSON.parse + stringify      ${fmt(b.min).padStart(9)} / ${fmt(b.median).padStart(9)} / ${fmt(b.max).padStart(9)} pods/s  (in process, indented as -o json)`);
    console.log(`cli       bulkhead plan -o json      ${m.median.toFixed(0).padStart(6)} ms  ${fmt(c.min).padStart(9)} / ${fmt(c.median).padStart(9)} / ${fmt(c.max).padStart(9)} pods/s  (process start and JSON output included; ${(c.median / b.median * 100).toFixed(0)}% of the baseline's rate)`);

    // The same pods with no two specs alike (informational: the target is on the List above).
    const distinctFile = join(dir, 'pods-distinct.json');
    writeFileSync(distinctFile, jsonList(podCount, true));
    const distinctMs: number[] = [];
    for (let r = 0; r < runs; r++) distinctMs.push(runCli(distinctFile, rssHook).ms);
    const d = stats(distinctMs.map((ms) => rate(podCount, ms)));
    console.log(`cli       the same, no two specs alike ${stats(distinctMs).median.toFixed(0).padStart(6)} ms  ${fmt(d.min).padStart(9)} / ${fmt(d.median).padStart(9)} / ${fmt(d.max).padStart(9)} pods/s  (each pod's container has its own env var, as exported pods differ)`);

    // Peak RSS: the same List ten times larger.
    const bigPods = Number(process.env.BENCH_RSS_PODS ?? podCount * 10);
    const bigFile = join(dir, 'pods-big.json');
    writeFileSync(bigFile, jsonList(bigPods));
    const big = runCli(bigFile, rssHook, true);
    const mib = (b: number) => (b / 2 ** 20).toFixed(0);
    console.log(`rss       bulkhead plan peak RSS      ${fmt(podCount)} pods: ${mib(rss10)} MiB; ${fmt(bigPods)} pods: ${mib(big.maxRSS)} MiB (${(statSync(bigFile).size / 2 ** 20).toFixed(0)} MiB of JSON, ${fmt(rate(bigPods, big.ms))} pods/s)`);

    const target = 5000;
    const ok = rate(podCount, planMs) >= target;
    console.log(`target    >= ${target} pods/s in-process: ${ok ? 'met' : 'NOT MET'}`);
    const cliTarget = 20000;
    const cliOk = c.median >= cliTarget;
    const cliRunsMet = cliMs.filter((ms) => rate(podCount, ms) >= cliTarget).length;
    console.log(`target    >= ${fmt(cliTarget)} pods/s CLI (median): ${cliOk ? 'met' : 'NOT MET'} (${cliRunsMet} of ${runs} runs: ${cliMs.map((ms) => fmt(rate(podCount, ms))).join(', ')})`);
    // Flat: ten times the pods may not take more than half as much memory again.
    const flat = big.maxRSS <= rss10 * 1.5;
    console.log(`target    peak RSS flat in the number of pods: ${flat ? 'met' : 'NOT MET'}`);
    if (!ok || !cliOk || !flat) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
