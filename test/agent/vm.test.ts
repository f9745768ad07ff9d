// The cgroup v2 VM lane (scripts/vm.sh): one guest boot runs every check, because each boot costs
// several seconds under TCG. It pins what later v2 suites rely on: a pure cgroup2 with the memory
// controller, the command in /init.scope with swap accounted there, root with CAP_SYS_RESOURCE,
// this checkout's build and the host's node runnable, writes to the checkout reaching the host,
// loopback, runc, and the command's streams and exit code.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

// dist/test/agent/vm.test.js → the checkout
const checkout = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const vmsh = join(checkout, 'scripts', 'vm.sh');

function skipReason(): string | undefined {
  if (process.env.BULKHEAD_IN_VM) return 'already inside a scripts/vm.sh guest (BULKHEAD_IN_VM is set): no VM within the VM';
  if (process.getuid?.() !== 0) return 'not root: scripts/vm.sh installs QEMU with apt-get and exports / to the guest';
  const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  const kernelCached = existsSync(join(checkout, '.cache', 'vm', 'kernel', 'ready'));
  if (!has('apt-get') && !(has('qemu-system-x86_64') && kernelCached)) return 'no apt-get to install QEMU and fetch the Debian guest kernel';
  return undefined;
}
const reason = skipReason();
if (reason) console.error(`\n*** SKIPPING the cgroup v2 VM lane (scripts/vm.sh): ${reason} ***\n`);

interface Run { status: number | null; stdout: string; stderr: string }

function runVm(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(vmsh, args, { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('scripts/vm.sh: a pure cgroup v2 guest', { skip: reason }, () => {
  mkdirSync(join(checkout, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(checkout, '.cache', 'vm-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs one command as root with cgroup2 + memory, CAP_SYS_RESOURCE, the build, loopback, runc, and returns its exit code', { timeout: 900_000 }, async () => {
    const token = randomBytes(8).toString('hex');
    const probe = join(dir, 'written-in-guest');
    // Each line is `key=value`; a failing step prints its own status rather than stopping the rest.
    const script = [
      'echo "cwd=$(pwd)"',
      'echo "fs=$(stat -fc %T /sys/fs/cgroup)"',
      'echo "controllers=$(cat /sys/fs/cgroup/cgroup.controllers)"',
      'echo "subtree=$(cat /sys/fs/cgroup/cgroup.subtree_control)"',
      // out of the root cgroup, as under systemd, in a cgroup with memory.swap.max (the agent's swap check)
      'echo "self=$(cat /proc/self/cgroup)"',
      'echo "swapmax=$(cat /sys/fs/cgroup/init.scope/memory.swap.max)"',
      // a negative oom_score_adj needs CAP_SYS_RESOURCE (the CI host itself does not grant it)
      '(echo -998 > /proc/self/oom_score_adj && echo "oomadj=$(cat /proc/self/oom_score_adj)") || echo oomadj=refused',
      `echo ${token} > '${probe}' && echo wrote=yes`,
      'd=$(mktemp -d) && touch "$d/x" /var/lib/vm-probe /root/vm-probe /run/vm-probe && echo writable=yes',
      'node dist/bin/main.js plan --help >/dev/null; echo "plan=$?"',
      `node -e "const net=require('net');const s=net.createServer(c=>c.end('pong')).listen(0,'127.0.0.1',()=>net.connect(s.address().port,'127.0.0.1').on('data',d=>{console.log('loopback='+d);process.exit(0)}))"`,
      // runc pivot_roots into a container: that needs the guest's / to be a real mount (the
      // overlay), not the initramfs. The container's exit status comes back through runc.
      'b=$(mktemp -d) && mkdir -p "$b/rootfs/bin" && cp "$(command -v busybox)" "$b/rootfs/bin/" && ln -s busybox "$b/rootfs/bin/sh"',
      `(cd "$b" && runc spec && sed -i 's/"terminal": true/"terminal": false/; s/"sh"$/"sh","-c","exit 5"/' config.json && runc run vm-test-c1 >/dev/null 2>&1; echo "runc=$?")`,
      'echo to-stderr >&2',
      'exit 7',
    ].join('\n');
    const r = await runVm(['--timeout', '600', '--', 'sh', '-c', script]);
    const lines = new Map(r.stdout.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const why = `vm.sh exited ${r.status}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    assert.equal(r.status, 7, `the command's exit code comes back as vm.sh's; ${why}`);
    assert.equal(lines.get('cwd'), checkout, why);
    assert.equal(lines.get('fs'), 'cgroup2fs', why);
    assert.ok(lines.get('controllers')?.split(' ').includes('memory'), `memory in cgroup.controllers; ${why}`);
    assert.ok(lines.get('subtree')?.split(' ').includes('memory'), `memory enabled for the root's children; ${why}`);
    assert.equal(lines.get('self'), '0::/init.scope', `the command runs in /init.scope; ${why}`);
    assert.equal(lines.get('swapmax'), 'max', `the guest kernel accounts swap per cgroup; ${why}`);
    assert.equal(lines.get('oomadj'), '-998', why);
    assert.equal(lines.get('wrote'), 'yes', why);
    assert.equal(readFileSync(probe, 'utf8').trim(), token, 'a file written under the checkout in the guest is on the host');
    assert.equal(lines.get('writable'), 'yes', why);
    assert.equal(lines.get('plan'), '0', `this checkout's dist runs on the host's node in the guest; ${why}`);
    assert.equal(lines.get('loopback'), 'pong', why);
    assert.equal(lines.get('runc'), '5', `runc runs a container in the guest and returns its status; ${why}`);
    assert.match(r.stderr, /^to-stderr$/m, `the command's stderr reaches vm.sh's stderr; ${why}`);
    assert.doesNotMatch(r.stdout, /to-stderr/, 'stdout and stderr stay apart');
  });
});
