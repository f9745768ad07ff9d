// swapControllerAvailable of the v1 and v2 CgroupManagers (src/agent/cgroups/v1.ts, v2.ts), the
// kubelet's check (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go @ v1.32): v1, the
// memory hierarchy's root has memory.memsw.limit_in_bytes; v2, this process's own cgroup (the
// `0::` line of /proc/self/cgroup) has memory.swap.max. Checked on fake trees of plain files;
// this host's real answer is test/agent/runtime/runc.test.ts's.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CgroupV1Manager } from '../../../src/agent/cgroups/v1.js';
import { CgroupV2Manager } from '../../../src/agent/cgroups/v2.js';

const base = mkdtempSync(join(tmpdir(), 'bulkhead-swapctl-'));
after(() => rmSync(base, { recursive: true, force: true }));
let seq = 0;

/** A fake tree: every path gets a directory, every file an empty file. */
function tree(files: string[], dirs: string[] = []): string {
  const root = join(base, String(++seq));
  for (const d of dirs) mkdirSync(join(root, d), { recursive: true });
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  mkdirSync(root, { recursive: true });
  return root;
}

describe('cgroup v1: memory.memsw.limit_in_bytes in the memory hierarchy\'s root', () => {
  const rows: [string, string[], string[], boolean][] = [
    ['swap accounted: the root has the memsw files', ['memory/memory.limit_in_bytes', 'memory/memory.memsw.limit_in_bytes'], [], true],
    ['swapaccount=0 (or no CONFIG_MEMCG_SWAP): the root has none', ['memory/memory.limit_in_bytes'], [], false],
    ['a memsw file only below the root does not count (the kubelet reads the root)', ['memory/memory.limit_in_bytes', 'memory/x/memory.memsw.limit_in_bytes'], [], false],
    ['no memory hierarchy mounted', [], ['cpu'], false],
  ];
  for (const [name, files, dirs, want] of rows) {
    it(name, () => assert.equal(new CgroupV1Manager({ root: tree(files, dirs) }).swapControllerAvailable(), want));
  }
});

describe('cgroup v2: memory.swap.max in the agent\'s own cgroup', () => {
  const rows: [string, string[], string, boolean][] = [
    ['swap accounted: its cgroup has memory.swap.max', ['system.slice/agent.service/memory.swap.max'], '0::/system.slice/agent.service\n', true],
    ['its cgroup lacks memory.swap.max (swapaccount=0, or memory not enabled there)', ['system.slice/agent.service/memory.max'], '0::/system.slice/agent.service\n', false],
    ['in the root cgroup: the root never has memory.swap.max, so none is found (as for a kubelet there)', ['memory.stat', 'other/memory.swap.max'], '0::/\n', false],
    ['a memory.swap.max elsewhere does not count', ['other/memory.swap.max', 'mine/memory.max'], '0::/mine\n', false],
    ['no 0:: line', ['mine/memory.swap.max'], '1:name=systemd:/mine\n', false],
  ];
  for (const [name, files, self, want] of rows) {
    it(name, () => assert.equal(new CgroupV2Manager({ mount: tree(files), selfCgroup: () => self }).swapControllerAvailable(), want));
  }
  it('an unreadable /proc/self/cgroup: no swap controller', () => {
    const m = new CgroupV2Manager({ mount: tree(['a/memory.swap.max']), selfCgroup: () => { throw new Error('EACCES'); } });
    assert.equal(m.swapControllerAvailable(), false);
  });
});
