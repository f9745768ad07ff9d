// Links the compiled CLI (dist/src/cli/main.js, tsc's output) into dist/bin/: the entry and
// one chunk per lazily loaded command and per group of shared modules, with the npm packages
// left as imports. `bulkhead server` then loads 52 files instead of 357 ES modules, each
// resolved, read and compiled on its own: measured on this 2-core machine, 323 → 202 ms from
// spawn to the first 200 on /readyz (README, Benchmarks).
//   node scripts/bundle.mjs   (npm run build and ./bulkhead run it after tsc; scripts/run-tests.mjs before tests)
// Bundling the compiled JavaScript, not the TypeScript, keeps tsc the one compiler: esbuild only
// links. The packages stay outside (better-sqlite3 is native; @peculiar/x509 is CommonJS loaded
// on demand, which a bundle would wrap differently from Node's own interop).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = join(repo, 'dist/bin');

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
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
