// Runs every compiled test file under dist/test with Node's built-in test runner.
// Node 20's `--test` takes no globs, so the file list is gathered here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = collect('dist/test').sort();
if (filter.length) files = files.filter((f) => filter.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('run-tests: no test files found under dist/test');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
