// The installed command (dist/bin/main.js, src/cli/launch.ts) writes a command's code cache once
// the command ran through, and the next run of it takes that cache: V8 refuses a cache made under
// other flags, and `plan` changes some (nodeflags.ts) before the script is compiled. A plan that
// refuses a pod (status 1) ran through like one that admits everything; one stopped by a bad
// flag (status 2) did not. Each row runs a copy of the two linked files in a directory of its own,
// so that the repository's own cache is never touched.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { mainJs, node16Gi, repoRoot } from './run.js';

const root = mkdtempSync(join(tmpdir(), 'bulkhead-launch-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A copy of dist/bin's main.js and bulkhead.cjs, without a cache. */
function installed(): string {
  const bin = join(root, String(++n), 'bin');
  mkdirSync(bin, { recursive: true });
  for (const f of ['main.js', 'bulkhead.cjs']) copyFileSync(join(resolve(mainJs, '..'), f), join(bin, f));
  return bin;
}

function run(bin: string, args: string[]): number {
  const r = spawnSync(process.execPath, [join(bin, 'main.js'), ...args], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
  return r.status ?? -1;
}

/** The cache files (name → inode: a cache written again is renamed over the old one). */
function caches(bin: string): Map<string, number> {
  const dir = join(bin, 'compile-cache');
  if (!existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).ino]));
}

describe('installed command: the code cache is written after a run that ran through, and taken by the next', () => {
  const rows: { name: string; args: string[]; code: number; written: boolean }[] = [
    { name: 'a plan admitting every pod (status 0)', args: ['plan', 'examples/qos-trio.yaml', ...node16Gi], code: 0, written: true },
    { name: 'a plan refusing a pod (status 1)', args: ['plan', 'examples/quota-scopes.yaml', 'examples/refused/quota-scopes-overflow.yaml', ...node16Gi, '-o', 'json'], code: 1, written: true },
    { name: 'a plan with --usage (its own heap setting)', args: ['plan', 'examples/qos-trio.yaml', '--usage', 'examples/usage/qos-trio.yaml', ...node16Gi], code: 0, written: true },
    { name: 'a plan stopped by a bad flag value (status 2)', args: ['plan', 'examples/', ...node16Gi, '--cgroup-version', '3'], code: 2, written: false },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const bin = installed();
      assert.equal(run(bin, row.args), row.code);
      const first = caches(bin);
      assert.equal(first.size, row.written ? 1 : 0, [...first.keys()].join(' '));
      if (!row.written) return;
      // Taken: the second run writes nothing, as it would over a cache V8 refused.
      assert.equal(run(bin, row.args), row.code);
      assert.deepEqual(caches(bin), first);
    });
  }
});
