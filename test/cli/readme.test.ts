import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

it('every example output in the README is what the command prints today', () => {
  const r = spawnSync(process.execPath, ['scripts/readme-examples.mjs'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
