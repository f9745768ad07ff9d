// Runs the compiled test files (dist/test) with Node's built-in test runner, one tier at a time.
//   node scripts/run-tests.mjs [--tier NAME[,NAME…]]… [substring-of-test-file …]
// Node 20's `--test` takes no globs, so the file list is gathered here. A tier is a set of
// directories (longest prefix wins, so a file can be placed apart from its directory); a test
// file no tier names stops the run before anything runs, so a new directory is never dropped.
// A tier in IN_VM runs inside scripts/vm.sh's pure cgroup v2 guest: from the host, one guest boot
// runs this script there for that tier (its output streamed here, line by line, prefixed `[vm] `).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { bundle } from './bundle.mjs';

/** Tier → path prefixes under test/, in the order the tiers run. */
const TIERS = {
  // pure rules: no server, no root, no kernel (the pod worker on its fake runtime); a static check of the source's layering
  unit: ['test/api/', 'test/admission/', 'test/policy/', 'test/quota/', 'test/podsecurity/', 'test/plan/', 'test/scheduler/', 'test/agent/lifecycle/', 'test/agent/cgroups/', 'test/agent/podworker/', 'test/agent/oom/', 'test/agent/stats/', 'test/agent/runtime/runtimechoice.test.ts', 'test/agent/runtime/handlers.test.ts', 'test/agent/runtime/processspec.test.ts', 'test/layers/', 'test/client/', 'test/agent/agent.test.ts', 'test/agent/nodecapacity.test.ts', 'test/agent/nodeevents.test.ts', 'test/agent/streaming/', 'test/apiserver/metricsscraper.test.ts', 'test/apiserver/metricsdeferred.test.ts', 'test/apiserver/tables/'],
  // in-process API server, SQLite, controllers, the built binary, the real kubectl against a small server
  server: ['test/apiserver/', 'test/storage/', 'test/controllers/', 'test/cli/', 'test/bench/', 'test/scheduler/controller.test.ts', 'test/api/schema/kubectl.test.ts', 'test/client/loopback.test.ts'],
  // the node agent on this host: runc, conmon, cgroups, kmsg (skipped, saying why, without root)
  kernel: ['test/agent/'],
  // `bulkhead up` driven by the real kubectl
  e2e: ['test/e2e/'],
  // cgroup v2 end to end: `bulkhead up` + kubectl inside scripts/vm.sh's pure-v2 guest (IN_VM)
  v2: ['test/v2/'],
};

/**
 * Test files run at once, where not node's default (one fewer than the cores: 1 on this 2-core
 * kind of machine). Each file makes its own servers, data directories, ports and cgroup roots, so
 * files do not share state; many of them wait (on child processes, kubectl, containers, grace
 * periods) more than they compute. Measured here: unit 1 min 7 s at 2 (quiet) against 1 min 57 s
 * at 1 (load 3); server 4 min 20-29 s at 2 (quiet; 7 min 30 s at load 5-6) against ~8 min at 1
 * in earlier sessions' runs; e2e 5 min 26 s at 2 in a clean-clone CI run against ~13 min at 1. The
 * kernel tier stays at 1 (1 min 52 s): its OOM and memory-pressure tests read the kernel's log and
 * the host's memory. BULKHEAD_TEST_CONCURRENCY=N overrides every tier but v2 (1 to rule overlap out
 * when a test fails).
 */
const CONCURRENCY = { unit: 2, server: 2, e2e: 2 };

/**
 * Tiers whose tests need a pure cgroup v2 kernel: on the host, the tier boots scripts/vm.sh's
 * guest once and runs `node scripts/run-tests.mjs --tier NAME` in it; inside the guest
 * (BULKHEAD_IN_VM set) it runs like any other tier, one file at a time (TCG is slow, and each
 * file starts its own cluster).
 */
const IN_VM = new Set(['v2']);
/**
 * Bounds a hung guest (boot, run and power-off); the lane takes a few minutes. vm.sh then exits
 * 124 and prints the guest console's last lines, and the tier fails.
 */
const VM_TIMEOUT_S = 900;

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.ts')) out.push(p.split(sep).join('/'));
  }
  return out;
}

function tierOf(file) {
  let best;
  for (const [tier, prefixes] of Object.entries(TIERS)) {
    for (const p of prefixes) if (file.startsWith(p) && (!best || p.length > best.prefix.length)) best = { tier, prefix: p };
  }
  return best?.tier;
}

/** Counts from a TAP stream's closing comments (`# pass N` …). */
function tapCounts(text) {
  const n = (k) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { passed: n('pass'), failed: n('fail') + n('cancelled'), skipped: n('skipped') + n('todo') };
}

/** Why the guest cannot be booted from here, or undefined (the same checks as test/agent/vm.test.ts). */
function vmLaneSkipReason() {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root: scripts/vm.sh installs QEMU with apt-get and exports / to the guest';
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  const kernelCached = existsSync(join('.cache', 'vm', 'kernel', 'ready'));
  if (!has('apt-get') && !(has('qemu-system-x86_64') && kernelCached)) return 'no apt-get to install QEMU and fetch the Debian guest kernel';
  return undefined;
}

function concurrencyOf(tier) {
  const n = process.env.BULKHEAD_TEST_CONCURRENCY || CONCURRENCY[tier];
  return n ? [`--test-concurrency=${n}`] : [];
}

/** `node --test` on these files with the spec reporter here and TAP to a file; the tier's counts. */
function runHere(tier, files, tapDir) {
  const tap = join(tapDir, `${tier}.tap`);
  // Inside the guest, one file at a time: each starts a cluster, and TCG has 2 slow vCPUs.
  const concurrency = IN_VM.has(tier) ? ['--test-concurrency=1'] : concurrencyOf(tier);
  const r = spawnSync(
    process.execPath,
    ['--test', ...concurrency, '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files],
    { stdio: 'inherit' },
  );
  const c = existsSync(tap) ? tapCounts(readFileSync(tap, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
  // A runner that died without a summary still fails its tier.
  if (r.status !== 0 && c.failed === 0) c.failed = 1;
  return { ...c, ok: r.status === 0 };
}

/**
 * From the host: one guest boot running this script for the tier (with the same file filters),
 * its stdout and stderr streamed line by line with a `[vm] ` prefix (so its closing line is
 * never mistaken for this run's). The counts are the inner run's closing line; a guest that
 * did not boot, timed out or stopped without that line fails the tier.
 */
async function runInVm(tier, filters) {
  const reason = vmLaneSkipReason();
  if (reason) {
    console.error(`\n*** SKIPPING tier ${tier} (cgroup v2 end to end in scripts/vm.sh's guest): ${reason} ***\n`);
    return { passed: 0, failed: 0, skipped: 1, ok: true };
  }
  const args = ['--timeout', String(VM_TIMEOUT_S), '--', 'node', 'scripts/run-tests.mjs', '--tier', tier, ...filters];
  console.log(`run-tests: tier ${tier}: booting the cgroup v2 guest: scripts/vm.sh ${args.join(' ')}`);
  const child = spawn('scripts/vm.sh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  const relay = (stream, out, keep) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (d) => {
      if (keep) stdout += d;
      const lines = (partial + d).split('\n');
      partial = lines.pop();
      for (const l of lines) out.write(`[vm] ${l}\n`);
    });
    return new Promise((resolve) => stream.on('end', () => {
      if (partial) out.write(`[vm] ${partial}\n`);
      resolve();
    }));
  };
  const streams = [relay(child.stdout, process.stdout, true), relay(child.stderr, process.stderr, false)];
  const status = await new Promise((resolve) => {
    child.on('error', (e) => {
      console.error(`run-tests: cannot start scripts/vm.sh: ${e.message}`);
      resolve(-1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
  });
  await Promise.all(streams);
  const closing = [...stdout.matchAll(/^(\d+) passed, (\d+) failed, (\d+) skipped$/gm)].at(-1);
  const c = closing ? { passed: Number(closing[1]), failed: Number(closing[2]), skipped: Number(closing[3]) } : { passed: 0, failed: 0, skipped: 0 };
  if (status !== 0 && c.failed === 0) c.failed = 1;
  if (status !== 0) {
    const why = status === 124 ? `did not finish within ${VM_TIMEOUT_S} s` : status === 125 ? 'stopped without reporting an exit status (boot failure or panic; the console is above)' : `exited ${status}`;
    console.log(`run-tests: tier ${tier}: the guest run ${why}`);
  }
  return { ...c, ok: status === 0 };
}

function parseArgs(argv) {
  const tiers = [];
  const filters = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tier' || a.startsWith('--tier=')) {
      const v = a === '--tier' ? argv[++i] : a.slice('--tier='.length);
      if (!v) throw new Error('--tier needs a name');
      tiers.push(...v.split(',').filter(Boolean));
    } else if (a.startsWith('--')) throw new Error(`unknown flag ${a}`);
    else filters.push(a);
  }
  for (const t of tiers) if (!(t in TIERS)) throw new Error(`unknown tier "${t}"; tiers: ${Object.keys(TIERS).join(', ')}`);
  return { tiers: tiers.length ? Object.keys(TIERS).filter((t) => tiers.includes(t)) : Object.keys(TIERS), filters };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`run-tests: ${e.message}`);
    return 2;
  }
  const sources = collect('test').sort();
  const orphans = sources.filter((f) => tierOf(f) === undefined);
  if (orphans.length) {
    console.error(`run-tests: these test files are in no tier, so no run would include them:\n  ${orphans.join('\n  ')}\nname their directory in a tier (TIERS in scripts/run-tests.mjs) and in the README's test section.`);
    return 1;
  }
  // From the sources, so the compiled output of a deleted test is never run.
  const compiled = (f) => join('dist', f.replace(/\.ts$/, '.js'));
  const missing = sources.filter((f) => !existsSync(compiled(f)));
  if (missing.length) {
    console.error(`run-tests: not compiled (run npx tsc -p .): ${missing.join(' ')}`);
    return 1;
  }
  // Tests spawn the CLI as users run it, linked (scripts/bundle.mjs): relinked from tsc's output
  // here (a third of a second), so a run after a bare `tsc` never runs a stale bundle. The cgroup
  // v2 guest uses the host's, made before it booted.
  if (!process.env.BULKHEAD_IN_VM) await bundle();
  const picked = sources.filter((f) => args.tiers.includes(tierOf(f)) && (args.filters.length === 0 || args.filters.some((s) => f.includes(s))));
  if (picked.length === 0) {
    console.error(`run-tests: no test file in tier ${args.tiers.join(', ')} matches ${args.filters.join(' ') || '(no filter)'}`);
    return 1;
  }

  const tapDir = mkdtempSync(join(tmpdir(), 'bulkhead-run-tests-'));
  const total = { passed: 0, failed: 0, skipped: 0 };
  const failedTiers = [];
  try {
    for (const tier of args.tiers) {
      const files = picked.filter((f) => tierOf(f) === tier).map(compiled);
      if (files.length === 0) continue;
      console.log(`\nrun-tests: tier ${tier}: ${files.length} file${files.length === 1 ? '' : 's'}`);
      const c = IN_VM.has(tier) && !process.env.BULKHEAD_IN_VM ? await runInVm(tier, args.filters) : runHere(tier, files, tapDir);
      console.log(`run-tests: tier ${tier}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
      if (!c.ok) failedTiers.push(tier);
      total.passed += c.passed;
      total.failed += c.failed;
      total.skipped += c.skipped;
    }
  } finally {
    rmSync(tapDir, { recursive: true, force: true });
  }
  if (failedTiers.length) console.log(`run-tests: failed tiers: ${failedTiers.join(', ')}`);
  // CI reads this closing line; it must stay last and alone on its line.
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return failedTiers.length ? 1 : 0;
}

process.exitCode = await main();
