// `bulkhead plan` reads manifests and --usage files through the same bounded YAML decoder as the
// API server: an alias bomb or a too deep document is a one-line error and exit 2, not a heap.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bulkhead } from './run.js';

function laughs(levels: number, fanout: number): string {
  let s = 'a0: &a0 "lol"\n';
  for (let l = 1; l <= levels; l++) s += `a${l}: &a${l} [${Array(fanout).fill(`*a${l - 1}`).join(', ')}]\n`;
  return s;
}

const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: busybox}]}\n';

describe('bulkhead plan: bounded YAML', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-plan-yaml-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const usage = join(dir, 'usage.yaml');
  writeFileSync(usage, laughs(9, 9));
  const rows: { name: string; args: string[]; input?: string; stderr: string }[] = [
    { name: 'an alias bomb in a manifest names the file and document', args: ['-'], input: `${pod}---\n${laughs(9, 9)}`, stderr: 'error: <stdin>: document 2: invalid YAML: yaml: document contains excessive aliasing\n' },
    { name: 'an anchor that contains itself', args: ['-'], input: `${pod}---\nkind: Pod\nx: &x [*x]\n`, stderr: `error: <stdin>: document 2: invalid YAML: yaml: anchor 'x' value contains itself\n` },
    { name: 'a document nested past the bound', args: ['-'], input: `${pod}---\nkind: Pod\nx: ${'['.repeat(1001)}${']'.repeat(1001)}\n`, stderr: 'error: <stdin>: document 2: invalid YAML: yaml: line 7: exceeded max depth of 1000\n' },
    { name: 'an alias bomb as --usage', args: ['examples/qos-trio.yaml', '--usage', usage], stderr: `error: --usage ${usage}: yaml: document contains excessive aliasing\n` },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const res = bulkhead(['plan', ...r.args, '--node-memory', '16Gi', '--node-cpu', '4'], r.input);
      assert.equal(res.code, 2, res.stderr);
      assert.equal(res.stderr, r.stderr);
    });
  }
});
