import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bulkhead } from './run.js';

describe('bulkhead up / server: bad flags are one line and exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-cli-server-'));
  const cases = [
    { name: 'a listen address without a port', args: ['up', '--listen', 'localhost'], stderr: /^error: invalid value "localhost" for --listen: expected HOST:PORT, e.g. 127.0.0.1:6443\n$/ },
    { name: 'a port above 65535', args: ['server', '--listen', '127.0.0.1:70000'], stderr: /^error: invalid value "127.0.0.1:70000" for --listen: port must be at most 65535\n$/ },
    { name: 'an unsupported store engine', args: ['up', '--store', 'etcd:http://127.0.0.1:2379'], stderr: /^error: invalid value "etcd:http:\/\/127.0.0.1:2379" for --store: supported engines are sqlite:PATH and memory: \(etcd is not available yet\)\n$/ },
    { name: 'an unknown feature gate', args: ['server', '--feature-gates', 'Nope=true'], stderr: /^error: invalid value "Nope=true" for --feature-gates: unrecognized feature gate: Nope\n$/ },
    { name: 'a bad pod security level', args: ['up', '--pod-security', 'strict'], stderr: /^error: invalid value "strict" for --pod-security: must be one of privileged, baseline, restricted\n$/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = bulkhead([...c.args, '--data-dir', join(dir, 'd')]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, c.stderr);
    });
  }
  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});

describe('bulkhead up / server --help', () => {
  for (const cmd of ['up', 'server']) {
    it(`bulkhead ${cmd} --help describes the flags and exits 0`, () => {
      const r = bulkhead([cmd, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`Usage: bulkhead ${cmd} \\[options\\]`));
      assert.match(r.stdout, /--data-dir <dir>/);
      assert.match(r.stdout, /--listen <host:port>/);
    });
  }
});
