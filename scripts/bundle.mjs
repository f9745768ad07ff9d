// Links the compiled CLI (dist/src/cli/main.js, tsc's output) into one CommonJS script,
// dist/bin/bulkhead.cjs, and its launcher (src/cli/launch.ts) into dist/bin/main.js, which runs
// it with a V8 code cache (src/cli/compilecache.ts). `bulkhead server` once loaded 357 ES modules,
// each resolved, read and compiled on its own (323 -> 202 ms from spawn to the first 200 on
// /readyz when they were linked into ES module chunks, README, Benchmarks); Node 20 has no code
// cache for ES modules, hence one script, whose lazily imported modules (each command's, the
// server's, the controllers') esbuild turns into functions run on first use.
//   node scripts/bundle.mjs   (npm run build and ./bulkhead run it after tsc; scripts/run-tests.mjs before tests)
// Bundling the compiled JavaScript, not the TypeScript, keeps tsc the one compiler: esbuild only
// links. The npm packages stay outside, required from node_modules, but for the plain JavaScript
// ones `bulkhead server` loads before it is ready (`linkedPackages`): Node resolved, read and
// compiled commander's six CommonJS files, better-sqlite3's thirteen and js-yaml through the ES
// module loader, 22, 12 and 6 ms of CPU of each start here (median of 24 alternating imports of
// each, linked and not). better-sqlite3's addon stays in the package: src/storage/sqlite.ts loads
// it from there. prom-client (with tdigest, bintrees and @opentelemetry/api, which it requires at
// its top level) loads after the server listens but in the same turn, before the first request is
// answered: its ~40 files resolved, read and compiled were ~55 ms of CPU of a restart (existing
// data dir, CPU at the first 200 on /readyz, 8 alternating runs each: median 410 -> 355 ms, max
// 490 -> 370).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = join(repo, 'dist/bin');

/** The npm packages linked into the bundle; every other import of a package stays an import. */
export const linkedPackages = new Set(['commander', 'js-yaml', 'better-sqlite3', 'prom-client', 'tdigest', 'bintrees', '@opentelemetry/api']);

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for a relative path or a builtin. */
function packageOf(specifier) {
  if (/^(\.|\/|node:)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const packagesOutside = {
  name: 'packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const pkg = packageOf(args.path);
      return pkg === undefined || linkedPackages.has(pkg) ? undefined : { path: args.path, external: true };
    });
  },
};

export async function bundle() {
  rmSync(bundleDir, { recursive: true, force: true });
  mkdirSync(bundleDir, { recursive: true });
  await build({
    entryPoints: [join(repo, 'dist/src/cli/main.js')],
    outfile: join(bundleDir, 'bulkhead.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [packagesOutside],
    // The file is one function expression, which launch.ts calls as Node calls a CommonJS module;
    // sqlite.ts finds better-sqlite3's addon from import.meta.url, here the file's own URL.
    banner: { js: "(function (exports, require, module, __filename, __dirname) { const __bulkheadImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    footer: { js: '})' },
    // import() inside a script compiled with a code cache loses its loader on Node 20 ("A dynamic
    // import callback was not specified"): the packages loaded on demand are required instead
    // (each has a CommonJS build) and the CLI's own lazy modules become esbuild's lazy inits.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__bulkheadImportMetaUrl' },
    // launch.ts reads the file as Latin-1 (a one-byte string, no UTF-8 decoding).
    charset: 'ascii',
    // No comments: those esbuild keeps are not escaped to ASCII, and a smaller file is read and hashed sooner.
    minifyWhitespace: true,
    logLevel: 'warning',
  });
  // The launcher is CommonJS too (dist/bin/package.json says so for the directory): Node runs a
  // CommonJS entry point without its ES module loader, which an ES module entry point starts,
  // and without the ES module facades of the builtins it imports (node:crypto's reads each of its
  // lazy exports, loading Web Crypto): ~30 ms of CPU of every command's start (see README,
  // Benchmarks).
  writeFileSync(join(bundleDir, 'package.json'), '{ "type": "commonjs" }\n');
  await build({
    entryPoints: [join(repo, 'dist/src/cli/launch.js')],
    outfile: join(bundleDir, 'main.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: { js: "'use strict'; const __launchImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__launchImportMetaUrl' },
    logLevel: 'warning',
  });
  const script = readFileSync(join(bundleDir, 'bulkhead.cjs'));
  const wide = script.findIndex((b) => b > 0x7f);
  if (wide !== -1) throw new Error(`bundle: dist/bin/bulkhead.cjs has a non-ASCII byte at ${wide} (launch.ts reads it as Latin-1)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
