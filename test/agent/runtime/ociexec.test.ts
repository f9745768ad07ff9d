// Real-kernel test of `runc exec` as ContainerRuntime.exec runs it (src/agent/runtime/ociexec.ts):
// in a running busybox container, a command's stdout and stderr apart, stdin to its EOF, its exit
// code; with a TTY (runc under util-linux script, the container's process spec with a
// consoleSize), the size given at the start seen by a first `stty size`, and a later resize
// delivered as SIGWINCH with the new size.
// Needs root, runc, script and /bin/busybox (busybox-static); otherwise the suite skips and says why.
// The container's cgroup lives below /<hierarchy>/bulkhead-test-<random>/ and is removed in `after`.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ociExec } from '../../../src/agent/runtime/ociexec.js';
import { buildBusyboxRootfs } from '../../../src/agent/runtime/rootfs.js';
import type { ExecProcess } from '../../../src/agent/runtime/runtime.js';
import { realKernelSkipReason, removeTestCgroups } from '../cgrouptrees.js';

const reason = realKernelSkipReason(['runc']) ?? (spawnSync('script', ['--version']).status === 0 ? undefined : 'util-linux script is not on PATH');
if (reason) console.error(`test/agent/runtime/ociexec.test: SKIPPING runc exec tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;

function collect(p: ExecProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  p.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  return { out: () => out, err: () => err };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('runc exec in a running container (real kernel)', skip, () => {
  let base = '';
  let root = '';
  let bundle = '';
  const id = `exec-${randomBytes(4).toString('hex')}`;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'bulkhead-exec-test-'));
    root = join(base, 'state');
    bundle = join(base, 'bundle');
    buildBusyboxRootfs(join(bundle, 'rootfs'));
    execFileSync('runc', ['spec', '--bundle', bundle]);
    const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8'));
    spec.process.terminal = false;
    spec.process.args = ['sleep', '3600'];
    spec.root.readonly = false;
    spec.linux.cgroupsPath = `/${top}/${id}`;
    writeFileSync(join(bundle, 'config.json'), JSON.stringify(spec));
    execFileSync('runc', ['--root', root, 'run', '--detach', '--bundle', bundle, id], { stdio: 'ignore' });
  });

  after(() => {
    spawnSync('runc', ['--root', root, 'delete', '--force', id]);
    const problems = removeTestCgroups(top);
    rmSync(base, { recursive: true, force: true });
    assert.deepEqual(problems, []);
  });

  it('without a TTY: stdout and stderr apart, stdin to its EOF, the exit code', async () => {
    const p = ociExec('runc', root, id, ['sh', '-c', 'cat; echo err >&2; exit 3'], { tty: false, stdin: true });
    const c = collect(p);
    p.stdin!.end('piped\n');
    assert.equal(await p.exited, 3);
    assert.equal(c.out(), 'piped\n');
    assert.equal(c.err(), 'err\n');
  });

  it('with a TTY: the size given at the start is the first one the command sees, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const q = ociExec('runc', root, id, ['stty', 'size'], { tty: true, stdin: false, size: { width: 100, height: 30 }, bundle });
      const cq = collect(q);
      assert.equal(await q.exited, 0);
      // runc clears the container pty's ONLCR only after the command may have written (ociexec.ts):
      // its first line can end \r\r\n, which a terminal shows as \r\n.
      assert.match(cq.out(), /^30 100\r{1,2}\n$/);
    }
    assert.deepEqual(readdirSync(bundle).filter((f) => f.startsWith('exec-')), [], 'the process specs are removed');
    const p = ociExec('runc', root, id, ['sh', '-c', 'stty size; tty; exit 4'], { tty: true, stdin: false, size: { width: 100, height: 30 }, bundle });
    const c = collect(p);
    assert.equal(await p.exited, 4);
    assert.match(c.out(), /^30 100\r{1,2}\n\/dev\/pts\/\d+\r{1,2}\n$/);
  });

  it('with a TTY: a resize reaches the command as SIGWINCH with the new size', async () => {
    const p = ociExec('runc', root, id, ['sh', '-c', 'trap "stty size" WINCH; echo ready; while :; do sleep 0.1; done'], { tty: true, stdin: true, size: { width: 80, height: 24 }, bundle });
    const c = collect(p);
    await until('the command to start', () => c.out().includes('ready'));
    p.resize(132, 43);
    await until('the new size', () => c.out().includes('43 132'));
    p.kill();
    await p.exited;
  });
});
