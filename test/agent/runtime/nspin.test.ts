// Pinned pod namespaces (src/agent/runtime/nspin.ts) on the real kernel: unshare(1) makes them,
// bind mounts keep them, the network one has loopback up, and unpinning leaves nothing mounted.
// Needs root, unshare (util-linux) and /bin/busybox; otherwise every test skips and says why.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NamespacePinError, pinNamespaces, unpinNamespaces } from '../../../src/agent/runtime/nspin.js';
import { mountPoints } from '../../../src/agent/runtime/overlay.js';
import { realKernelSkipReason } from '../cgrouptrees.js';

const reason = realKernelSkipReason(['unshare', 'nsenter']);
if (reason) console.error(`test/agent/runtime/nspin.test: SKIPPING real-kernel namespace pin tests: ${reason}`);
const opts = reason ? { skip: reason } : {};

describe('pinned pod namespaces (real kernel)', opts, () => {
  const base = reason ? '' : mkdtempSync(join(tmpdir(), 'bulkhead-nspin-test-'));
  after(async () => {
    if (reason) return;
    // Whatever a failed test left pinned goes before the directory does.
    for (const m of mountPoints()) if (m.startsWith(base + '/')) execFileSync('umount', [m]);
    rmSync(base, { recursive: true, force: true });
  });

  it('network, IPC and UTS: new namespaces held by bind mounts, loopback up; unpinning unmounts and removes them', async () => {
    const dir = join(base, 'all');
    const pins = await pinNamespaces(dir, ['network', 'ipc', 'uts']);
    assert.deepEqual(Object.keys(pins).sort(), ['ipc', 'network', 'uts']);
    const mounted = mountPoints();
    const host: Record<string, string> = { network: 'net', ipc: 'ipc', uts: 'uts' };
    for (const [kind, path] of Object.entries(pins)) {
      assert.ok(mounted.has(path!), `${path} is a mount point`);
      // A namespace file's inode is the namespace's; the host's is another one.
      const ino = statSync(path!).ino;
      assert.notEqual(`${host[kind]}:[${ino}]`, readlinkSync(`/proc/self/ns/${host[kind]}`), kind);
    }
    const links = execFileSync('nsenter', [`--net=${pins.network}`, '/bin/busybox', 'ip', 'link', 'show', 'lo'], { encoding: 'utf8' });
    assert.match(links, /<LOOPBACK,UP,LOWER_UP>/);
    // Only loopback: nothing of the host's network is there.
    assert.equal(execFileSync('nsenter', [`--net=${pins.network}`, '/bin/busybox', 'ip', '-o', 'link'], { encoding: 'utf8' }).trim().split('\n').length, 1);

    await unpinNamespaces(dir);
    assert.equal(existsSync(dir), false);
    assert.deepEqual([...mountPoints()].filter((m) => m.startsWith(dir)), []);
    await unpinNamespaces(dir); // gone already: a no-op
  });

  it('IPC only (a hostNetwork pod): no network pin, and nothing needs loopback', async () => {
    const dir = join(base, 'ipc-only');
    const pins = await pinNamespaces(dir, ['ipc']);
    assert.deepEqual(Object.keys(pins), ['ipc']);
    assert.ok(mountPoints().has(pins.ipc!));
    await unpinNamespaces(dir);
    assert.equal(existsSync(dir), false);
  });

  it('a pin that fails says why and leaves no mount or directory behind', async () => {
    const dir = join(base, 'fails');
    await assert.rejects(pinNamespaces(dir, ['network'], join(base, 'no-such-busybox')), (e: unknown) => e instanceof NamespacePinError && /creating the pod's namespaces: /.test(e.message));
    assert.equal(existsSync(dir), false);
    assert.deepEqual([...mountPoints()].filter((m) => m.startsWith(dir)), []);
  });
});
