// The official Python client (Debian's python3-kubernetes, for /usr/bin/python3) against a real
// server in this process: its watch streams (it sends watch=True) and its server-side apply with
// force=True takes over a field another manager owns. The script is test/e2e/pythonclient.py.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';

const python = '/usr/bin/python3';
const script = resolve(process.cwd(), 'test/e2e/pythonclient.py');

/** Why the client cannot run here, or undefined. As root the package is installed by scripts/install-host-deps.sh, so its absence fails. */
function clientMissing(): string | undefined {
  const r = spawnSync(python, ['-c', 'import kubernetes'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `the Python client is not installed for ${python} (apt-get install python3-kubernetes; scripts/install-host-deps.sh does): ${(r.stderr ?? r.error?.message ?? '').trim().split('\n').pop()}`;
}

interface Result {
  events: [string, string][];
  watchError: string[];
  conflict: { status: number; reason: string } | null;
  label: string;
  labelOwners: string[];
}

describe('the official Python client', () => {
  const missing = clientMissing();
  if (missing && process.getuid?.() === 0) {
    it('is installed', () => assert.fail(missing));
    return;
  }
  let s: RunningServer;
  let dir: string;
  let result: Result;
  before(async () => {
    if (missing) return;
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-python-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    // Async: the server answers from this process.
    const child = spawn(python, [script, s.kubeconfigPath, 'default'], { env: { ...process.env, HOME: dir, TMPDIR: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    clearTimeout(timer);
    assert.equal(code, 0, `python exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    result = JSON.parse(stdout.trim().split('\n').pop()!) as Result;
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('watches pods and sees ADDED and MODIFIED stream in', { skip: missing }, () => {
    assert.deepEqual(result.watchError, []);
    const seen = result.events.filter(([, name]) => name === 'py').map(([type]) => type);
    assert.equal(seen[0], 'ADDED', JSON.stringify(result.events));
    assert.ok(seen.includes('MODIFIED'), JSON.stringify(result.events));
  });

  it('server-side apply without force conflicts on a field another manager owns', { skip: missing }, () => {
    assert.deepEqual(result.conflict, { status: 409, reason: 'Conflict' });
  });

  it('server-side apply with force=True takes the field over', { skip: missing }, () => {
    assert.equal(result.label, 'second');
    assert.deepEqual(result.labelOwners, ['second']);
  });
});
