// Links the compiled CLI (dist/src/cli/main.js, tsc's output) into dist/bin/: the entry and
// one chunk per lazily loaded command and per group of shared modules, with the npm packages
// left as imports. `bulkhead server` then loads 52 files instead of 357 ES modules, each
// resolved, read and compiled on its own: measured on this 2-core machine, 323 → 202 ms from
// spawn to the first 200 on /readyz (README, Benchmarks).
//   node scripts/bundle.mjs   (npm run build and ./bulkhead run it after tsc; scripts/run-tests.mjs before tests)
// Bundling the compiled JavaScript, not the TypeScript, keeps tsc the one compiler: esbuild only
// links. The npm packages stay outside (@peculiar/x509 is CommonJS loaded on demand, which a
// bundle would wrap differently from Node's own interop), but for the plain JavaScript ones
// `bulkhead server` loads before it is ready (`linkedPackages`): Node resolved, read and compiled
// commander's six CommonJS files, better-sqlite3's thirteen and js-yaml through the ES module
// loader, 22, 12 and 6 ms of CPU of each start here (median of 24 alternating imports of each,
// linked and not). better-sqlite3's addon stays in the package: src/storage/sqlite.ts loads it
// from there. Each linked file gets a `require` of its own (`banner`): esbuild's output calls it
// for the builtins and the addon that those CommonJS files require.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = join(repo, 'dist/bin');

/** The npm packages linked into the bundle; every other import of a package stays an import. */
export const linkedPackages = new Set(['commander', 'js-yaml', 'better-sqlite3']);

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
  // Chunk names carry content hashes: a rebuild would leave the old ones behind.
  rmSync(bundleDir, { recursive: true, force: true });
  await build({
    entryPoints: [join(repo, 'dist/src/cli/main.js')],
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [packagesOutside],
    banner: { js: "import { createRequire as __bulkheadCreateRequire } from 'node:module'; const require = __bulkheadCreateRequire(import.meta.url);" },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  // esbuild does not see the banner: a module declaring its own top-level `require` would load
  // as a SyntaxError (a second declaration in its file), so the build refuses it here (esbuild
  // writes top-level declarations unindented).
  for (const file of readdirSync(bundleDir, { recursive: true }).filter((f) => String(f).endsWith('.js'))) {
    const declared = readFileSync(join(bundleDir, String(file)), 'utf8').match(/(?:^|; )(?:const|let|var|function|class) require\b/gm) ?? [];
    if (declared.length !== 1) throw new Error(`bundle: dist/bin/${file} declares require ${declared.length} times at its top level (the banner's must be the only one)`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
