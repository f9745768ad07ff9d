// Which OCI runtime the agent takes (src/agent/runtime/runtimechoice.ts): one row per rule of
// chooseOCIRuntime, over this host's hybrid cgroups, a pure v2 host and a pure v1 host.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chooseOCIRuntime, crunRefusal, parseRuntimeVersion, runtimeHandlers, type OCIRuntimeChoice, type RuntimeCandidate } from '../../../src/agent/runtime/runtimechoice.js';
import type { CgroupProbe } from '../../../src/agent/runtime/hostprobe.js';

const hybrid: CgroupProbe = { mode: 'hybrid', memoryVersion: 1, v1: { memory: '/sys/fs/cgroup/memory' }, unified: '/sys/fs/cgroup/unified', unifiedControllers: ['hugetlb'] };
const hybridEmpty: CgroupProbe = { ...hybrid, unifiedControllers: [] };
const v2: CgroupProbe = { mode: 'v2', memoryVersion: 2, v1: {}, unified: '/sys/fs/cgroup', unifiedControllers: ['cpu', 'memory', 'pids'] };
const v1: CgroupProbe = { mode: 'v1', memoryVersion: 1, v1: { memory: '/sys/fs/cgroup/memory' }, unifiedControllers: [] };

const runc: RuntimeCandidate = { name: 'runc', binary: '/usr/sbin/runc', versionText: 'runc version 1.1.5+ds1\ncommit: 1.1.5+ds1-1\nspec: 1.0.2-dev\n' };
const crun: RuntimeCandidate = { name: 'crun', binary: '/usr/bin/crun', versionText: 'crun version 1.8.1\ncommit: f8a096be\nrundir: /run/crun\n' };
const noRunc: RuntimeCandidate = { name: 'runc' };
const noCrun: RuntimeCandidate = { name: 'crun' };
const brokenCrun: RuntimeCandidate = { name: 'crun', binary: '/usr/bin/crun' };

describe('chooseOCIRuntime', () => {
  const rows: { name: string; choice: OCIRuntimeChoice; cgroups: CgroupProbe; runc: RuntimeCandidate; crun: RuntimeCandidate; want: string }[] = [
    { name: 'auto on pure v2 with crun installed: crun', choice: 'auto', cgroups: v2, runc, crun, want: 'crun://1.8.1 /usr/bin/crun' },
    { name: 'auto on pure v1 with crun installed: crun', choice: 'auto', cgroups: v1, runc, crun, want: 'crun://1.8.1 /usr/bin/crun' },
    { name: 'auto on a hybrid host whose cgroup2 tree has controllers: runc (crun refuses it)', choice: 'auto', cgroups: hybrid, runc, crun, want: 'runc://1.1.5+ds1 /usr/sbin/runc' },
    { name: 'auto on a hybrid host with an empty cgroup2 tree: crun', choice: 'auto', cgroups: hybridEmpty, runc, crun, want: 'crun://1.8.1 /usr/bin/crun' },
    { name: 'auto without crun: runc', choice: 'auto', cgroups: v2, runc, crun: noCrun, want: 'runc://1.1.5+ds1 /usr/sbin/runc' },
    { name: 'auto with a crun whose --version fails: runc', choice: 'auto', cgroups: v2, runc, crun: brokenCrun, want: 'runc://1.1.5+ds1 /usr/sbin/runc' },
    { name: 'auto with neither: an error naming both', choice: 'auto', cgroups: hybrid, runc: noRunc, crun, want: 'error: no usable OCI runtime: runc is not installed (apt-get install runc; scripts/install-host-deps.sh does it); crun: crun refuses' },
    { name: 'runc forced on pure v2 with crun installed: runc', choice: 'runc', cgroups: v2, runc, crun, want: 'runc://1.1.5+ds1 /usr/sbin/runc' },
    { name: 'runc forced, not installed: an error', choice: 'runc', cgroups: v2, runc: noRunc, crun, want: 'error: --container-runtime runc: runc is not installed' },
    { name: 'crun forced on a hybrid host: an error quoting crun', choice: 'crun', cgroups: hybrid, runc, crun, want: 'error: --container-runtime crun: crun refuses this host\'s hybrid cgroups ("cgroups in hybrid mode not supported, drop all controllers from cgroupv2": /sys/fs/cgroup/unified has hugetlb)' },
    { name: 'crun forced, not installed: an error', choice: 'crun', cgroups: v2, runc, crun: noCrun, want: 'error: --container-runtime crun: crun is not installed' },
    { name: 'crun forced on pure v2: crun', choice: 'crun', cgroups: v2, runc: noRunc, crun, want: 'crun://1.8.1 /usr/bin/crun' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = chooseOCIRuntime(r.choice, r.cgroups, { runc: r.runc, crun: r.crun });
      const text = got instanceof Error ? `error: ${got.message}` : `${got.name}://${got.version} ${got.binary}`;
      assert.ok(text.startsWith(r.want), `${text}\n does not start with\n${r.want}`);
    });
  }
});

describe('runtime version and crun refusal', () => {
  const rows: { name: string; got: string | undefined; want: string | undefined }[] = [
    { name: 'runc --version', got: parseRuntimeVersion('runc', runc.versionText!), want: '1.1.5+ds1' },
    { name: 'crun --version', got: parseRuntimeVersion('crun', crun.versionText!), want: '1.8.1' },
    { name: 'other output: none', got: parseRuntimeVersion('crun', 'crun: unknown'), want: undefined },
    { name: 'crun on pure v2: no refusal', got: crunRefusal(v2), want: undefined },
    { name: 'crun on pure v1: no refusal', got: crunRefusal(v1), want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.equal(r.got, r.want));
});

describe('runtimeHandlers: the handlers a RuntimeClass may name here', () => {
  const rows: { name: string; cgroups: CgroupProbe; runc: RuntimeCandidate; crun: RuntimeCandidate; usable: string[]; refused: string[] }[] = [
    { name: 'pure v2 with both installed: runc and crun', cgroups: v2, runc, crun, usable: ['runc /usr/sbin/runc', 'crun /usr/bin/crun'], refused: [] },
    { name: 'pure v1 with both installed: runc and crun', cgroups: v1, runc, crun, usable: ['runc /usr/sbin/runc', 'crun /usr/bin/crun'], refused: [] },
    { name: 'a hybrid host whose cgroup2 tree has controllers: runc only, crun refused with its reason', cgroups: hybrid, runc, crun, usable: ['runc /usr/sbin/runc'], refused: ['crun: crun refuses this host\'s hybrid cgroups'] },
    { name: 'crun not installed: runc only', cgroups: v2, runc, crun: noCrun, usable: ['runc /usr/sbin/runc'], refused: ['crun: crun is not installed'] },
    { name: 'a crun whose --version fails is no handler', cgroups: v2, runc, crun: brokenCrun, usable: ['runc /usr/sbin/runc'], refused: ['crun: /usr/bin/crun --version failed'] },
    { name: 'runc not installed: crun only', cgroups: v2, runc: noRunc, crun, usable: ['crun /usr/bin/crun'], refused: ['runc: runc is not installed'] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = runtimeHandlers(r.cgroups, { runc: r.runc, crun: r.crun });
      assert.deepEqual(got.usable.map((u) => `${u.name} ${u.binary}`), r.usable);
      assert.equal(got.refused.length, r.refused.length);
      r.refused.forEach((want, i) => assert.ok(`${got.refused[i]!.name}: ${got.refused[i]!.reason}`.startsWith(want), `${got.refused[i]!.name}: ${got.refused[i]!.reason}`));
    });
  }
});
