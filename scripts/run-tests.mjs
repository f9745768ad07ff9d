// Runs the compiled test files (dist/test) with Node's built-in test runner, one tier at a time.
//   node scripts/run-tests.mjs [--tier NAME[,NAME…]]… [substring-of-test-file …]
// Node 20's `--test` takes no globs, so the file list is gathered here. A tier is a set of
// directories (longest prefix wins, so a file can be placed apart from its directory); a test
// file no tier names stops the run before anything runs, so a new directory is never dropped.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { spawnSync } from 'node:child_process';

/** Tier → path prefixes under test/, in the order the tiers run. */
const TIERS = {
  // pure rules: no server, no root, no kernel; a static check of the source's layering
  unit: ['test/api/', 'test/admission/', 'test/policy/', 'test/quota/', 'test/podsecurity/', 'test/plan/', 'test/scheduler/', 'test/agent/lifecycle/', 'test/agent/oom/', 'test/agent/runtime/ociruntime.test.ts', 'test/layers/'],
  // in-process API server, SQLite, controllers, the built binary, the real kubectl against a small server
  server: ['test/apiserver/', 'test/storage/', 'test/controllers/', 'test/cli/', 'test/bench/', 'test/scheduler/controller.test.ts', 'test/api/schema/kubectl.test.ts'],
  // the node agent on this host: runc, conmon, cgroups, kmsg (skipped, saying why, without root)
  kernel: ['test/agent/'],
  // `bulkhead up` driven by the real kubectl
  e2e: ['test/e2e/'],
  // inside the pure cgroup v2 guest only (scripts/vm.sh -- node scripts/run-tests.mjs --tier v2); never by default
  v2: ['test/v2/'],
};
/** Tiers a run without --tier leaves out. */
const NOT_DEFAULT = new Set(['v2']);

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
  return { tiers: tiers.length ? Object.keys(TIERS).filter((t) => tiers.includes(t)) : Object.keys(TIERS).filter((t) => !NOT_DEFAULT.has(t)), filters };
}

function main() {
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
      const tap = join(tapDir, `${tier}.tap`);
      const r = spawnSync(
        process.execPath,
        ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files],
        { stdio: 'inherit' },
      );
      const c = existsSync(tap) ? tapCounts(readFileSync(tap, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
      // A runner that died without a summary still fails its tier.
      if (r.status !== 0 && c.failed === 0) c.failed = 1;
      console.log(`run-tests: tier ${tier}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
      if (r.status !== 0) failedTiers.push(tier);
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

process.exitCode = main();
