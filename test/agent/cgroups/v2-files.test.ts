// The pure rules of the cgroup v2 CgroupManager (src/agent/cgroups/v2.ts) and of reading v2
// memory figures (src/agent/eviction/memcg.ts), fed text: which controllers a parent's
// cgroup.subtree_control must enable before a child's files can be written (as runc's
// libcontainer/cgroups/fs2 CreateCgroupPath does for the kubelet's cgroup_v2_manager_linux.go),
// the `0::` line of /proc/<pid>/cgroup, memory.events counters, and cAdvisor's v2 working set
// (memory.current − memory.stat inactive_file, floored at 0; memory.max "max" = no limit).
// ensure()'s walk over the ancestors is checked on a fake tree of plain files (no kernel); the
// real kernel is test/v2/.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ancestorsOf, CgroupV2Manager, controllersForFiles, parseMemoryEvents, subtreeControlWrite, v2PathOfProc } from '../../../src/agent/cgroups/v2.js';
import { cgroupManagerFor } from '../../../src/agent/cgroups/select.js';
import { parseMemoryLimit, readMemcg, readUsage, workingSet, parseMemoryStat, type ReadCgroupFile } from '../../../src/agent/eviction/memcg.js';
import { NodeCgroups } from '../../../src/agent/nodecgroups.js';
import { defaultFeatureGates } from '../../../src/api/featuregates.js';
import { nodeCgroupConfig, podCgroupFiles } from '../../../src/policy/cgroupvalues.js';
import type { NodeConfig } from '../../../src/plan/node.js';

const Mi = 1n << 20n;
const all = ['cpuset', 'cpu', 'io', 'memory', 'hugetlb', 'pids', 'rdma', 'misc'];

describe('controllersForFiles: the controller each file names, once, cgroup.* needing none', () => {
  const rows: [string, Record<string, string>, string[]][] = [
    ['a pod cgroup', { 'cpu.weight': '20', 'cpu.max': '50000 100000', 'memory.max': '268435456' }, ['cpu', 'memory']],
    ['hugetlb by page size', { 'hugetlb.2MB.max': '4194304', 'hugetlb.1GB.max': '0' }, ['hugetlb']],
    ['memory.oom.group is memory', { 'memory.oom.group': '1' }, ['memory']],
    ['core files need no controller', { 'cgroup.max.depth': '4' }, []],
    ['io and cpuset', { 'io.weight': 'default 100', 'cpuset.cpus': '0' }, ['io', 'cpuset']],
  ];
  for (const [name, files, want] of rows) it(name, () => assert.deepEqual(controllersForFiles(files), want));
});

describe('subtreeControlWrite: what one ancestor must enable for the child', () => {
  const rows: { name: string; files: Record<string, string>; available: string[]; enabled: string[]; want?: string[]; error?: RegExp }[] = [
    { name: 'nothing enabled yet: the base controllers (cpu memory pids) and the files\'', files: { 'hugetlb.2MB.max': '0' }, available: all, enabled: [], want: ['+cpu', '+memory', '+pids', '+hugetlb'] },
    { name: 'everything needed is enabled: no write', files: { 'cpu.weight': '1' }, available: all, enabled: ['cpu', 'memory', 'pids'], want: [] },
    { name: 'only what is missing is written', files: { 'memory.max': '1' }, available: all, enabled: ['cpu', 'pids'], want: ['+memory'] },
    { name: 'a base controller the parent does not have is skipped', files: {}, available: ['cpu', 'memory'], enabled: [], want: ['+cpu', '+memory'] },
    { name: 'io when a file needs it', files: { 'io.weight': 'default 100' }, available: all, enabled: ['cpu', 'memory', 'pids'], want: ['+io'] },
    {
      name: 'a file whose controller is not available is an error naming the file, the value and the parent',
      files: { 'cpu.weight': '20', 'hugetlb.2MB.max': '4194304' },
      available: ['cpu', 'memory', 'pids'],
      enabled: [],
      error: /cannot write hugetlb\.2MB\.max="4194304": the hugetlb controller is not available in \/sys\/fs\/cgroup\/x\/cgroup\.controllers \(it lists: cpu memory pids\)/,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error) assert.throws(() => subtreeControlWrite(r.files, r.available, r.enabled, '/sys/fs/cgroup/x'), r.error);
      else assert.deepEqual(subtreeControlWrite(r.files, r.available, r.enabled, '/sys/fs/cgroup/x'), r.want);
    });
  }
});

describe('ancestorsOf: the tree root down to the parent', () => {
  const rows: [string, string[]][] = [
    ['/bulkhead/kubepods/burstable', ['', '/bulkhead', '/bulkhead/kubepods']],
    ['/kubepods', ['']],
    ['/a//b/', ['', '/a']],
  ];
  for (const [path, want] of rows) it(path, () => assert.deepEqual(ancestorsOf(path), want));
});

describe('v2PathOfProc: the 0:: line of /proc/<pid>/cgroup', () => {
  const rows: [string, string, string | undefined][] = [
    ['pure v2', '0::/bulkhead/kubepods/pod1/ctr\n', '/bulkhead/kubepods/pod1/ctr'],
    ['hybrid: the v1 lines are not it', '12:memory:/x\n1:name=systemd:/y\n0::/z\n', '/z'],
    ['the root cgroup', '0::/\n', '/'],
    ['v1 only: none', '4:memory:/x\n', undefined],
  ];
  for (const [name, text, want] of rows) it(name, () => assert.equal(v2PathOfProc(text), want));
});

describe('parseMemoryEvents: oom_kill and oom_group_kill', () => {
  const rows: [string, string, { oomKill: number; oomGroupKill: number }][] = [
    ['a group kill (the guest\'s measured memory.events)', 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 5\noom_group_kill 1\n', { oomKill: 5, oomGroupKill: 1 }],
    ['a kernel without oom_group_kill', 'low 0\nhigh 0\nmax 0\noom 1\noom_kill 1\n', { oomKill: 1, oomGroupKill: 0 }],
    ['no kills', 'low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n', { oomKill: 0, oomGroupKill: 0 }],
  ];
  for (const [name, text, want] of rows) it(name, () => assert.deepEqual(parseMemoryEvents(text), want));
});

describe('cAdvisor\'s v2 memory figures', () => {
  const stat = (inactive: bigint) => `anon 1000\nfile 2000\nactive_file 5\ninactive_file ${inactive}\n`;
  const workingRows: [string, bigint, string, bigint][] = [
    ['working set = memory.current − inactive_file', 300n * Mi, stat(100n * Mi), 200n * Mi],
    ['inactive above usage (racy reads): 0, not negative', 10n * Mi, stat(11n * Mi), 0n],
    ['v1\'s total_inactive_file is not a v2 key', 300n * Mi, 'total_inactive_file 5\n', 300n * Mi],
  ];
  for (const [name, usage, text, want] of workingRows) it(name, () => assert.equal(workingSet(usage, parseMemoryStat(text), 2), want));

  const limitRows: [string, string, bigint | undefined][] = [
    ['"max" is no limit', 'max\n', undefined],
    ['a byte count is the limit', '268435456\n', 256n * Mi],
  ];
  for (const [name, text, want] of limitRows) it(`memory.max: ${name}`, () => assert.equal(parseMemoryLimit(text, '/x/memory.max', 2), want));
  it('memory.max: anything else is an error naming the file', () => assert.throws(() => parseMemoryLimit('lots\n', '/x/memory.max', 2), /\/x\/memory.max: not a byte count/));
  it('v1 keeps its own rule: above 2^62 is no limit, "max" an error', () => {
    assert.equal(parseMemoryLimit('9223372036854771712', '/m', 1), undefined);
    assert.throws(() => parseMemoryLimit('max', '/m', 1), /not a byte count/);
  });

  const files = new Map<string, string>([
    ['/c/node/memory.current', `${300n * Mi}\n`],
    ['/c/node/memory.stat', stat(100n * Mi)],
    ['/c/node/memory.max', `${1024n * Mi}\n`],
    ['/c/top/memory.current', `${5n * Mi}\n`],
    ['/c/top/memory.stat', stat(0n)],
    ['/c/top/memory.max', 'max\n'],
  ]);
  const read: ReadCgroupFile = (p) => {
    const t = files.get(p);
    if (t === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return t;
  };
  it('readMemcg v2: usage, working set, inactive_file, RSS (anon) and the limit', () => {
    assert.deepEqual(readMemcg('/c/node', read, true, 2), { usageBytes: 300n * Mi, workingSetBytes: 200n * Mi, inactiveFileBytes: 100n * Mi, rssBytes: 1000n, limitBytes: 1024n * Mi });
  });
  it('readMemcg v2: memory.max "max" gives no limit', () => assert.equal(readMemcg('/c/top', read, true, 2)?.limitBytes, undefined));
  it('readMemcg v2: a cgroup that does not exist has no stats', () => assert.equal(readMemcg('/c/gone', read, false, 2), undefined));
  it('readUsage v2 reads memory.current alone', () => assert.equal(readUsage('/c/node', read, 2), 300n * Mi));
});

describe('select.ts: the manager for the host', () => {
  it('memory on v2: the v2 manager over the probe\'s cgroup2 mount', () => {
    const m = cgroupManagerFor({ mode: 'v2', memoryVersion: 2, v1: {}, unified: '/sys/fs/cgroup', unifiedControllers: all });
    assert.equal(m.version, 2);
    assert.deepEqual(m.hierarchies(), ['/sys/fs/cgroup']);
    assert.equal(m.memoryDir('/bulkhead/kubepods'), '/sys/fs/cgroup/bulkhead/kubepods');
    assert.equal(m.oomEventsFile('/p'), '/sys/fs/cgroup/p/memory.events');
    assert.equal(m.populatedEventsFile('/p'), '/sys/fs/cgroup/p/cgroup.events');
  });
  it('memory on v1 (hybrid): still the v1 manager', () => {
    const m = cgroupManagerFor({ mode: 'hybrid', memoryVersion: 1, v1: { memory: '/sys/fs/cgroup/memory' }, unified: '/sys/fs/cgroup/unified', unifiedControllers: [] });
    assert.equal(m.version, 1);
  });
});

// A fake cgroup2 tree of plain files: the kernel's cgroup.controllers and cgroup.subtree_control
// are pre-made where the test says, so what ensure() writes to each is visible afterwards.
describe('CgroupV2Manager.ensure and NodeCgroups on a fake tree (plain files, no kernel)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'bulkhead-v2-fake-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const fake = (name: string, dirs: Record<string, { controllers: string; subtree: string }>) => {
    const mount = join(tmp, name);
    for (const [d, f] of Object.entries(dirs)) {
      mkdirSync(join(mount, d), { recursive: true });
      writeFileSync(join(mount, d, 'cgroup.controllers'), `${f.controllers}\n`);
      writeFileSync(join(mount, d, 'cgroup.subtree_control'), `${f.subtree}\n`);
    }
    return mount;
  };
  const sub = (mount: string, d: string) => readFileSync(join(mount, d, 'cgroup.subtree_control'), 'utf8').trim();

  it('enables in every ancestor what is missing there, then writes the files in order', () => {
    const mount = fake('a', { '': { controllers: all.join(' '), subtree: 'cpu memory pids' }, '/b': { controllers: 'cpu memory pids hugetlb', subtree: '' } });
    const m = new CgroupV2Manager({ mount });
    m.ensure('/b/pod', { 'cpu.weight': '39', 'hugetlb.2MB.max': '4194304' });
    assert.equal(sub(mount, ''), '+hugetlb', 'the root lacked only hugetlb');
    assert.equal(sub(mount, '/b'), '+cpu +memory +pids +hugetlb');
    assert.deepEqual(m.readBack('/b/pod', { 'cpu.weight': '', 'hugetlb.2MB.max': '' }), { 'cpu.weight': '39', 'hugetlb.2MB.max': '4194304' });
  });
  it('a controller an ancestor does not have: an error naming the file, nothing written to the path', () => {
    const mount = fake('b', { '': { controllers: 'cpu memory pids', subtree: 'cpu memory pids' } });
    assert.throws(() => new CgroupV2Manager({ mount }).ensure('/p', { 'hugetlb.1GB.max': '0' }), /cannot write hugetlb\.1GB\.max="0": the hugetlb controller is not available/);
  });
  it('NodeCgroups on v2 writes the node cgroup and tiers as the plan computes them for v2', () => {
    const mount = fake('c', {
      '': { controllers: all.join(' '), subtree: 'cpu memory pids' },
      '/bk': { controllers: 'cpu memory pids', subtree: 'cpu memory pids' },
      '/bk/kubepods': { controllers: 'cpu memory pids', subtree: 'cpu memory pids' },
    });
    const node: NodeConfig = { memoryBytes: 2n << 30n, milliCPU: 1500n, cgroupVersion: 2, cgroupDriver: 'cgroupfs' };
    const nc = new NodeCgroups('/bk', node, defaultFeatureGates, { cgroups: new CgroupV2Manager({ mount }) });
    nc.ensure();
    const want = podCgroupFiles(nodeCgroupConfig(node), 2);
    assert.deepEqual(want, { 'cpu.weight': '59', 'cpu.max': '150000 100000', 'memory.max': String(2n << 30n) });
    assert.deepEqual((nc.cgroups as CgroupV2Manager).readBack('/bk/kubepods', want), want);
    assert.equal(nc.read('/bk/kubepods/besteffort', 'cpu.weight'), '1');
    assert.equal(nc.read('/bk/kubepods/burstable', 'cpu.weight'), '1');
    assert.equal(nc.memoryDir(), join(mount, 'bk', 'kubepods'));
  });
  it('NodeCgroups refuses a manager of the other version', () => {
    const node: NodeConfig = { memoryBytes: 1n << 30n, milliCPU: 1000n, cgroupVersion: 1, cgroupDriver: 'cgroupfs' };
    assert.throws(() => new NodeCgroups('/bk', node, defaultFeatureGates, { cgroups: new CgroupV2Manager({ mount: tmp }) }), /planned for cgroup v1 but the cgroup manager is v2/);
  });
});
