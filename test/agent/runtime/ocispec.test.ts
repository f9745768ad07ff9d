// Pure parts of the runtime backend: spec building, exact uint64 serialisation, host adaptation
// (shared/reference/linux-host.md §1.2: no negative oom_score_adj, no raised hard rlimit, always
// the complete rlimit set, never `unified` on v1), /proc parsers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  adaptToHost,
  allRlimitTypes,
  defaultRlimits,
  ociSpec,
  parseRlimitValue,
  resourcesFromCgroupFiles,
  serializeSpec,
  type OciSpecInput,
} from '../../../src/agent/runtime/ocispec.js';
import { classifyCgroups, hasCapSysResource, parseMountInfo, parseProcLimits } from '../../../src/agent/runtime/hostprobe.js';
import { parseRuncLog } from '../../../src/agent/runtime/runc.js';
import { RLIM_INFINITY } from '../../../src/policy/rlimits.js';
import { containerCgroupFiles } from '../../../src/policy/cgroupvalues.js';

const thisHost = {
  minOomScoreAdj: 0,
  hardRlimitCeilings: {
    RLIMIT_NOFILE: 20000n, RLIMIT_MEMLOCK: 8388608n, RLIMIT_NICE: 0n, RLIMIT_RTPRIO: 0n,
    RLIMIT_CORE: RLIM_INFINITY, RLIMIT_STACK: RLIM_INFINITY, RLIMIT_NPROC: 96365n, RLIMIT_SIGPENDING: 96365n,
  },
};

function baseInput(over: Partial<OciSpecInput> = {}): OciSpecInput {
  const adapted = adaptToHost({ oomScoreAdj: 500, rlimits: [] }, { minOomScoreAdj: 0, hardRlimitCeilings: {} });
  return { args: ['sh'], cgroupsPath: '/bulkhead/c', cgroupVersion: 1, oomScoreAdj: 500, rlimits: adapted.rlimits, resources: {}, ...over };
}

describe('serializeSpec', () => {
  it('writes RLIM_INFINITY as the exact 18446744073709551615', () => {
    const text = serializeSpec({ hard: RLIM_INFINITY, soft: 0n });
    assert.equal(text, '{\n  "hard": 18446744073709551615,\n  "soft": 0\n}');
    assert.ok(!text.includes('18446744073709552000'));
  });
  it('matches JSON.stringify for bigint-free values (compact and indented)', () => {
    const v = { a: [1, 'x', true, null, { b: [] , c: {} }], d: undefined, e: 'q"\n', f: -3.5 };
    assert.equal(serializeSpec(v, { indent: 0 }), JSON.stringify(v));
    assert.equal(serializeSpec(v), JSON.stringify(v, null, 2));
  });
  it('refuses a number that a double cannot hold exactly (2**64-1) and non-finite numbers', () => {
    assert.throws(() => serializeSpec({ process: { rlimits: [{ hard: 2 ** 64 - 1 }] } }), /\$\.process\.rlimits\[0\]\.hard.*bigint/);
    assert.throws(() => serializeSpec({ x: NaN }), /not a JSON number/);
  });
  it('a whole spec round-trips through a bigint-aware parse', () => {
    const text = serializeSpec(ociSpec(baseInput()));
    const infs = text.match(/18446744073709551615/g) ?? [];
    assert.ok(infs.length >= 10, `unlimited values written: ${infs.length}`);
    assert.doesNotThrow(() => JSON.parse(text));
  });
});

describe('adaptToHost', () => {
  it('Guaranteed -997 is applied as the host minimum 0, with the reason', () => {
    const a = adaptToHost({ oomScoreAdj: -997, rlimits: [] }, thisHost);
    assert.equal(a.oomScoreAdj, 0);
    assert.deepEqual(a.adjustments.filter((x) => x.field === 'oomScoreAdj').map((x) => x.message), [
      'oom_score_adj -997 applied as 0: this host cannot set negative values (no CAP_SYS_RESOURCE)',
    ]);
  });
  it('keeps Guaranteed < Burstable < BestEffort for every Burstable value (3..999) when the host minimum is 0', () => {
    const g = adaptToHost({ oomScoreAdj: -997, rlimits: [] }, thisHost).oomScoreAdj;
    const be = adaptToHost({ oomScoreAdj: 1000, rlimits: [] }, thisHost).oomScoreAdj;
    for (const b of [3, 4, 500, 998, 999]) {
      const v = adaptToHost({ oomScoreAdj: b, rlimits: [] }, thisHost).oomScoreAdj;
      assert.equal(v, b);
      assert.ok(g < v && v < be);
    }
  });
  it('a host that can go to -1000 changes nothing', () => {
    const a = adaptToHost({ oomScoreAdj: -997, rlimits: [] }, { minOomScoreAdj: -1000, hardRlimitCeilings: {} });
    assert.equal(a.oomScoreAdj, -997);
    assert.deepEqual(a.adjustments, []);
  });
  it('says so when a high host minimum makes Guaranteed tie with Burstable', () => {
    const a = adaptToHost({ oomScoreAdj: -997, rlimits: [] }, { minOomScoreAdj: 3, hardRlimitCeilings: {} });
    assert.match(a.adjustments[0]!.message, /below 3 .*ties with the most protected Burstable/);
  });
  it('rejects out-of-range plan values', () => {
    assert.throws(() => adaptToHost({ oomScoreAdj: 1001, rlimits: [] }, thisHost), /outside/);
  });
  it('always returns the complete rlimit set in kernel order, defaults where the plan is silent', () => {
    const a = adaptToHost({ oomScoreAdj: 0, rlimits: [{ type: 'RLIMIT_NOFILE', soft: 4096, hard: 8192 }, { type: 'RLIMIT_CORE', soft: 'unlimited', hard: 'unlimited' }] }, thisHost);
    assert.deepEqual(a.rlimits.map((r) => r.type), [...allRlimitTypes]);
    const by = Object.fromEntries(a.rlimits.map((r) => [r.type, r]));
    assert.deepEqual(by.RLIMIT_NOFILE, { type: 'RLIMIT_NOFILE', soft: 4096n, hard: 8192n });
    assert.deepEqual(by.RLIMIT_CORE, { type: 'RLIMIT_CORE', soft: RLIM_INFINITY, hard: RLIM_INFINITY });
    assert.deepEqual(by.RLIMIT_STACK, { type: 'RLIMIT_STACK', ...defaultRlimits.RLIMIT_STACK });
    // unlimited defaults for NPROC/SIGPENDING are lowered to the agent's own hard limit
    assert.deepEqual(by.RLIMIT_NPROC, { type: 'RLIMIT_NPROC', soft: 96365n, hard: 96365n });
    const msgs = a.adjustments.map((x) => x.message);
    assert.ok(msgs.includes('RLIMIT_NPROC default unlimited/unlimited applied as 96365/96365: hard limit is above this host\'s ceiling 96365 (no CAP_SYS_RESOURCE)'), msgs.join('\n'));
    assert.ok(a.adjustments.every((x) => x.source === 'default'));
  });
  it('lowers a planned hard limit above the ceiling (plan made without ceilings)', () => {
    const a = adaptToHost({ oomScoreAdj: 0, rlimits: [{ type: 'RLIMIT_NOFILE', soft: 1048576, hard: 1048576 }] }, thisHost);
    assert.deepEqual(a.rlimits.find((r) => r.type === 'RLIMIT_NOFILE'), { type: 'RLIMIT_NOFILE', soft: 20000n, hard: 20000n });
    assert.ok(a.adjustments.some((x) => x.source === 'plan' && x.message === 'RLIMIT_NOFILE 1048576/1048576 applied as 20000/20000: hard limit is above this host\'s ceiling 20000 (no CAP_SYS_RESOURCE)'));
  });
  it('carries the plan\'s own rlimit adjustments over as text', () => {
    const a = adaptToHost({
      oomScoreAdj: 0,
      rlimits: [{ type: 'RLIMIT_NOFILE', soft: 20000, hard: 20000 }],
      rlimitAdjustments: [{ type: 'RLIMIT_NOFILE', requested: { soft: 1048576, hard: 1048576 }, applied: { soft: 20000, hard: 20000 }, reason: 'hard limit 1048576 is above the node\'s ceiling 20000 (no CAP_SYS_RESOURCE)' }],
    }, thisHost);
    assert.ok(a.adjustments.some((x) => x.message === 'RLIMIT_NOFILE 1048576/1048576 applied as 20000/20000: hard limit 1048576 is above the node\'s ceiling 20000 (no CAP_SYS_RESOURCE)'));
  });
  it('parses plan rlimit values', () => {
    assert.equal(parseRlimitValue('unlimited'), RLIM_INFINITY);
    assert.equal(parseRlimitValue('9007199254740993'), 9007199254740993n);
    assert.equal(parseRlimitValue(5), 5n);
    assert.throws(() => parseRlimitValue(-1), RangeError);
    assert.throws(() => parseRlimitValue('18446744073709551616'), /uint64/);
  });
});

describe('resourcesFromCgroupFiles', () => {
  it('is the inverse of containerCgroupFiles on v1', () => {
    const files = containerCgroupFiles({ cpuShares: 256n, cpuQuota: 50000n, cpuPeriod: 100000n, memoryLimit: 134217728n }, 1, false, false);
    assert.deepEqual(resourcesFromCgroupFiles(files, 1), { cpu: { shares: 256n, quota: 50000n, period: 100000n }, memory: { limit: 134217728n } });
  });
  it('turns the v1 memsw limit into runc\'s memory.swap', () => {
    const files = containerCgroupFiles({ cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 134217728n }, 1, false, true);
    assert.deepEqual(resourcesFromCgroupFiles(files, 1), { cpu: { shares: 256n, period: 100000n }, memory: { limit: 134217728n, swap: 134217728n } });
  });
  it('passes v2 files through unified (memory.swap.max too), and throws on unknown files', () => {
    const files = containerCgroupFiles({ cpuShares: 256n, cpuQuota: 0n, cpuPeriod: 100000n, memoryLimit: 0n }, 2, true, true);
    assert.equal(files['memory.swap.max'], '0');
    assert.deepEqual(resourcesFromCgroupFiles(files, 2), { unified: files });
    assert.throws(() => resourcesFromCgroupFiles({ 'memory.swappiness': '0' }, 1), /not supported/);
  });
});

describe('ociSpec', () => {
  it('has the complete rlimit set, oomScoreAdj, resources, cgroupsPath, namespaces and mounts', () => {
    const s = ociSpec(baseInput({ resources: { memory: { limit: 1n << 27n }, cpu: { shares: 512n } }, pidsLimit: 64n }));
    assert.equal(s.process.rlimits.length, 16);
    assert.equal(s.process.oomScoreAdj, 500);
    assert.deepEqual(s.linux.resources.memory, { limit: 134217728n });
    assert.deepEqual(s.linux.resources.pids, { limit: 64n });
    assert.equal(s.linux.cgroupsPath, '/bulkhead/c');
    assert.deepEqual(s.linux.namespaces.map((n) => n.type), ['pid', 'network', 'ipc', 'uts', 'mount']);
    assert.deepEqual(s.mounts.map((m) => m.destination), ['/proc', '/dev', '/dev/pts', '/dev/shm', '/dev/mqueue', '/sys', '/sys/fs/cgroup']);
    assert.ok(s.mounts.find((m) => m.destination === '/sys')!.options!.includes('ro'));
    assert.equal(s.linux.resources.unified, undefined);
  });
  it('refuses what the runtime would refuse', () => {
    const full = baseInput().rlimits;
    assert.throws(() => ociSpec(baseInput({ rlimits: full.slice(1) })), /incomplete.*RLIMIT_CPU/);
    assert.throws(() => ociSpec(baseInput({ rlimits: [...full, full[0]!] })), /twice/);
    assert.throws(() => ociSpec(baseInput({ rlimits: full.map((r) => (r.type === 'RLIMIT_NOFILE' ? { ...r, soft: 4096n, hard: 1024n } : r)) })), /soft 4096 is above hard 1024/);
    assert.throws(() => ociSpec(baseInput({ resources: { unified: { 'memory.oom.group': '1' } } })), /unified cannot be used on cgroup v1/);
    assert.throws(() => ociSpec(baseInput({ resources: { cpu: { shares: 1n } } })), /below 2/);
    assert.throws(() => ociSpec(baseInput({ resources: { cpu: { quota: 500n } } })), /below 1000us/);
    assert.throws(() => ociSpec(baseInput({ oomScoreAdj: -1001 })), /outside/);
    assert.throws(() => ociSpec(baseInput({ cgroupsPath: 'rel/path' })), /absolute/);
  });
});

describe('host probe parsers', () => {
  it('parses /proc/<pid>/limits', () => {
    const text = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max cpu time              unlimited            unlimited            seconds   ',
      'Max file size             unlimited            unlimited            bytes     ',
      'Max data size             unlimited            unlimited            bytes     ',
      'Max stack size            8388608              unlimited            bytes     ',
      'Max core file size        0                    unlimited            bytes     ',
      'Max resident set          unlimited            unlimited            bytes     ',
      'Max processes             96365                96365                processes ',
      'Max open files            20000                20000                files     ',
      'Max locked memory         8388608              8388608              bytes     ',
      'Max address space         unlimited            unlimited            bytes     ',
      'Max file locks            unlimited            unlimited            locks     ',
      'Max pending signals       96365                96365                signals   ',
      'Max msgqueue size         819200               819200               bytes     ',
      'Max nice priority         0                    0                    ',
      'Max realtime priority     0                    0                    ',
      'Max realtime timeout      unlimited            unlimited            us        ',
    ].join('\n');
    const l = parseProcLimits(text);
    assert.deepEqual(l.RLIMIT_NOFILE, { soft: 20000n, hard: 20000n });
    assert.deepEqual(l.RLIMIT_STACK, { soft: 8388608n, hard: RLIM_INFINITY });
    assert.deepEqual(l.RLIMIT_NICE, { soft: 0n, hard: 0n });
    assert.throws(() => parseProcLimits(text.split('\n').slice(0, 5).join('\n')), /missing/);
  });
  it('classifies hybrid, v1 and v2 mounts', () => {
    const hybrid = parseMountInfo([
      '30 25 0:26 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:5 - cgroup2 cgroup2 rw,nsdelegate',
      '31 25 0:27 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:6 - cgroup cgroup rw,memory',
      '32 25 0:28 / /sys/fs/cgroup/systemd rw,nosuid shared:7 - cgroup cgroup rw,xattr,name=systemd',
      '33 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw shared:8 - cgroup cgroup rw,cpu,cpuacct',
    ].join('\n'));
    const h = classifyCgroups(hybrid, () => ['hugetlb']);
    assert.equal(h.mode, 'hybrid');
    assert.equal(h.memoryVersion, 1);
    assert.deepEqual(h.v1, { memory: '/sys/fs/cgroup/memory', 'name=systemd': '/sys/fs/cgroup/systemd', cpu: '/sys/fs/cgroup/cpu,cpuacct', cpuacct: '/sys/fs/cgroup/cpu,cpuacct' });
    assert.equal(h.unified, '/sys/fs/cgroup/unified');
    const v2 = classifyCgroups(parseMountInfo('30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw'), () => ['cpu', 'memory']);
    assert.deepEqual([v2.mode, v2.memoryVersion], ['v2', 2]);
    const v1 = classifyCgroups(hybrid.filter((m) => m.fsType === 'cgroup'), () => []);
    assert.deepEqual([v1.mode, v1.memoryVersion], ['v1', 1]);
  });
  it('reads CAP_SYS_RESOURCE from CapEff', () => {
    assert.equal(hasCapSysResource('CapEff:\t000001fffeffffff\n'), false);
    assert.equal(hasCapSysResource('CapEff:\t000001ffffffffff\n'), true);
  });
  it('keeps only error and fatal lines of a runc JSON log', () => {
    const log = [
      '{"level":"debug","msg":"nsexec started"}',
      '{"level":"fatal","msg":"nsexec[1775]: failed to update /proc/self/oom_score_adj: Permission denied","time":"x"}',
      '{"level":"error","msg":"runc run failed: x"}',
    ].join('\n');
    assert.deepEqual(parseRuncLog(log), ['nsexec[1775]: failed to update /proc/self/oom_score_adj: Permission denied', 'runc run failed: x']);
  });
});
