// The process spec of a TTY exec (src/agent/runtime/ociexec.ts): the container's config.json
// process with the command, a terminal and its size, every integer kept to the digit (an
// unlimited rlimit is 2^64-1, beyond what a JS number holds), strings untouched.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { markBigIntegers, processSpec, serializeProcessSpec } from '../../../src/agent/runtime/ociexec.js';

describe('the process spec of a TTY exec', () => {
  it('keeps 2^64-1 to the digit and leaves digits inside strings alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bulkhead-processspec-'));
    try {
      writeFileSync(join(dir, 'config.json'), '{"process":{"args":["sleep","9"],"cwd":"/","rlimits":[{"type":"RLIMIT_NOFILE","hard":18446744073709551615,"soft":1048576}],"env":["A=x:12345678901234567890,","B=\\"q\\\\\\" 99999999999999999"]}}');
      const out = serializeProcessSpec(processSpec(dir, ['stty', 'size'], { width: 100, height: 30 })!);
      assert.equal(out, '{"args":["stty","size"],"cwd":"/","rlimits":[{"type":"RLIMIT_NOFILE","hard":18446744073709551615,"soft":1048576}],"env":["A=x:12345678901234567890,","B=\\"q\\\\\\" 99999999999999999"],"terminal":true,"consoleSize":{"height":30,"width":100}}');
      assert.equal(processSpec(join(dir, 'none'), ['x'], { width: 1, height: 1 }), undefined, 'no config.json: runc exec copies the process itself');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks only integers of 16 digits or more outside strings', () => {
    assert.equal(markBigIntegers('[1, 1234567890123456, 1.5e300, "1234567890123456"]'), '[1, "\\u0000big:1234567890123456", 1.5e300, "1234567890123456"]');
  });
});
