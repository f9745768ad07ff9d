// Real-kernel test of the runc backend: a container is created from planPodOnNode's plan for this
// host, and what the kernel shows INSIDE the container (/proc/self/limits,
// /proc/self/oom_score_adj, the v1 cgroup files, memsw included) must equal the plan after host
// adaptation.
// Needs root, runc, /bin/busybox (busybox-static; scripts/install-host-deps.sh installs both)
// and a cgroup v1 memory hierarchy; otherwise every test skips and says why on stderr.
// Every cgroup lives below /<hierarchy>/bulkhead-test-<random>/ and is removed in `after`.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildBusyboxRootfs } from '../../../src/agent/runtime/rootfs.js';
import { adaptToHost, ociSpec, resourcesFromCgroupFiles, serializeSpec, type AdaptedContainer } from '../../../src/agent/runtime/ocispec.js';
import { parseProcLimits, probeCgroups, probeHost, type HostProbe } from '../../../src/agent/runtime/hostprobe.js';
import { realKernelSkipReason, removeTestCgroups } from '../cgrouptrees.js';
import { Runc, RuncError } from '../../../src/agent/runtime/runc.js';
import { planPodOnNode, type ContainerPlan, type NodeConfig } from '../../../src/plan/node.js';
import { defaultFeatureGates } from '../../../src/api/featuregates.js';
import type { Pod, Ulimit } from '../../../src/api/types.js';


const reason = realKernelSkipReason(['runc']);
if (reason) console.error(`test/agent/runtime/runc.test: SKIPPING real-kernel runc tests: ${reason}`);
const opts = reason ? { skip: reason } : {};

const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const gates = defaultFeatureGates;

function pod(name: string, resources: { requests?: Record<string, string>; limits?: Record<string, string> }, ulimits: Ulimit[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}` },
    spec: { containers: [{ name: 'c', image: 'busybox', resources, securityContext: { ulimits } }] },
  } as Pod;
}


describe('runc backend on this host (real kernel)', opts, () => {
  let base = '';
  let rootfs = '';
  let runc: Runc;
  let host: HostProbe;
  let node: NodeConfig;
  const ids: string[] = [];
  let seq = 0;

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-runtime-test-'));
    rootfs = join(base, 'rootfs');
    const t0 = Date.now();
    buildBusyboxRootfs(rootfs);
    host = await probeHost();
    console.error(`runtime test: rootfs in ${Date.now() - t0} ms incl. host probe; cgroups ${host.cgroups.mode}, min oom_score_adj ${host.minOomScoreAdj}, CAP_SYS_RESOURCE ${host.capSysResource}, top ${top}`);
    runc = new Runc({ root: join(base, 'state') });
    node = {
      memoryBytes: BigInt(totalmem()),
      milliCPU: BigInt(availableParallelism()) * 1000n,
      cgroupVersion: 1,
      cgroupDriver: 'cgroupfs',
      hardRlimitCeilings: host.hardRlimitCeilings,
      swapControllerAvailable: host.swapControllerAvailable,
      ...(host.nrOpen !== undefined ? { nrOpen: host.nrOpen } : {}),
    };
  });

  after(async () => {
    if (reason) return;
    const problems: string[] = [];
    for (const id of ids) {
      try {
        await runc.delete(id, { force: true });
      } catch (e) {
        if (!/does not exist/.test((e as Error).message)) problems.push(`delete ${id}: ${(e as Error).message}`);
      }
    }
    problems.push(...removeTestCgroups(top));
    if (base) rmSync(base, { recursive: true, force: true });
    if (problems.length) throw new Error(`cleanup incomplete: ${problems.join('; ')}`);
  });

  /** A bundle for one planned container; returns the id and where its cgroup is. */
  function bundle(c: Pick<ContainerPlan, 'cgroup'>, a: Pick<AdaptedContainer, 'oomScoreAdj' | 'rlimits'>, args: string[]): { id: string; dir: string; cgroupsPath: string } {
    const id = `${top}-${++seq}`;
    const dir = join(base, id);
    mkdirSync(dir);
    const cgroupsPath = `/${top}/${id}`;
    const spec = ociSpec({
      args,
      rootfs,
      cgroupsPath,
      cgroupVersion: 1,
      oomScoreAdj: a.oomScoreAdj,
      rlimits: a.rlimits,
      resources: resourcesFromCgroupFiles(c.cgroup, 1),
      pidsLimit: 64n,
    });
    writeFileSync(join(dir, 'config.json'), serializeSpec(spec));
    ids.push(id);
    return { id, dir, cgroupsPath };
  }

  /** Runs the container and reads back limits, oom_score_adj and the plan's cgroup files from inside. */
  async function readBack(c: ContainerPlan, a: AdaptedContainer) {
    const files = Object.keys(c.cgroup);
    const script = [
      'cat /proc/self/limits',
      'echo @@',
      'cat /proc/self/oom_score_adj',
      'echo @@',
      ...files.map((f) => `echo "${f}=$(cat /sys/fs/cgroup/${f.split('.')[0]}/${f})"`),
      'echo @@',
      'cat /proc/self/cgroup',
    ].join('; ');
    const b = bundle(c, a, ['sh', '-c', script]);
    const t0 = Date.now();
    const r = await runc.run(b.id, b.dir);
    const ms = Date.now() - t0;
    assert.equal(r.exitCode, 0, r.stderr);
    const [limits, oom, cg, self] = r.stdout.split('@@\n');
    const cgroup = Object.fromEntries(cg!.trim().split('\n').filter(Boolean).map((l) => l.split('=') as [string, string]));
    return { limits: parseProcLimits(limits!), oom: Number(oom!.trim()), cgroup, self: self!, cgroupsPath: b.cgroupsPath, ms };
  }

  function expectedLimits(a: AdaptedContainer) {
    return Object.fromEntries(a.rlimits.map((r) => [r.type, { soft: r.soft, hard: r.hard }]));
  }

  it('Burstable pod with nofile 4096/8192, core -1/-1 and a memory limit: the container shows exactly the adapted plan', async () => {
    const p = pod('burstable', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } }, [
      { name: 'nofile', soft: 4096, hard: 8192 },
      { name: 'core', soft: -1, hard: -1 },
    ]);
    const plan = planPodOnNode(p, node, gates);
    assert.equal(plan.qosClass, 'Burstable');
    const c = plan.containers[0]!;
    const memsw = host.swapControllerAvailable ? { 'memory.memsw.limit_in_bytes': '134217728' } : {};
    assert.deepEqual(c.cgroup, { 'cpu.shares': '256', 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '50000', 'memory.limit_in_bytes': '134217728', ...memsw });
    const a = adaptToHost(c, host);
    assert.equal(a.oomScoreAdj, c.oomScoreAdj, 'a Burstable value needs no adaptation');
    assert.ok(a.oomScoreAdj >= 3 && a.oomScoreAdj <= 999);
    assert.deepEqual(a.adjustments.filter((x) => x.source === 'plan'), []);

    const got = await readBack(c, a);
    console.error(`runtime test: burstable container ran in ${got.ms} ms`);
    assert.deepEqual(got.limits, expectedLimits(a));
    assert.deepEqual(got.limits.RLIMIT_NOFILE, { soft: 4096n, hard: 8192n });
    assert.deepEqual(got.limits.RLIMIT_CORE, { soft: 18446744073709551615n, hard: 18446744073709551615n });
    assert.equal(got.oom, a.oomScoreAdj);
    assert.deepEqual(got.cgroup, c.cgroup);
    assert.match(got.self, new RegExp(`^\\d+:memory:${got.cgroupsPath}$`, 'm'));
  });

  it('Guaranteed pod: -997 is applied as the host minimum, with the adjustment text; unadapted, runc refuses it', async () => {
    const p = pod('guaranteed', { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } }, []);
    const plan = planPodOnNode(p, node, gates);
    assert.equal(plan.qosClass, 'Guaranteed');
    const c = plan.containers[0]!;
    assert.equal(c.oomScoreAdj, -997);
    const a = adaptToHost(c, host);
    assert.equal(a.oomScoreAdj, Math.max(-997, host.minOomScoreAdj));
    if (host.minOomScoreAdj > -997) {
      const msg = a.adjustments.find((x) => x.field === 'oomScoreAdj')!.message;
      assert.equal(msg, host.minOomScoreAdj === 0
        ? 'oom_score_adj -997 applied as 0: this host cannot set negative values (no CAP_SYS_RESOURCE)'
        : `oom_score_adj -997 applied as ${host.minOomScoreAdj}: this host cannot set values below ${host.minOomScoreAdj} (no CAP_SYS_RESOURCE)`);
      // What runc itself says when handed the plan's value unadapted.
      const raw = bundle(c, { ...a, oomScoreAdj: -997 }, ['true']);
      await assert.rejects(runc.run(raw.id, raw.dir), (e: unknown) => {
        assert.ok(e instanceof RuncError);
        assert.match(e.message, /failed to update \/proc\/self\/oom_score_adj: Permission denied/);
        return true;
      });
    }
    const got = await readBack(c, a);
    assert.equal(got.oom, a.oomScoreAdj);
    assert.deepEqual(got.limits, expectedLimits(a));
    assert.deepEqual(got.cgroup, c.cgroup);
  });

  it('nofile hard 1048576 above the host ceiling is adapted to the ceiling, reported, and the container starts', async (t) => {
    const ceiling = host.hardRlimitCeilings.RLIMIT_NOFILE;
    if (ceiling === undefined || ceiling >= 1048576n) {
      t.skip(`this host has no nofile ceiling below 1048576 (ceiling ${String(ceiling)})`);
      return;
    }
    const p = pod('bignofile', { requests: { cpu: '100m', memory: '32Mi' }, limits: { memory: '64Mi' } }, [{ name: 'nofile', soft: 1048576, hard: 1048576 }]);
    const c = planPodOnNode(p, node, gates).containers[0]!;
    const a = adaptToHost(c, host);
    const nofile = a.rlimits.find((r) => r.type === 'RLIMIT_NOFILE')!;
    assert.deepEqual(nofile, { type: 'RLIMIT_NOFILE', soft: ceiling, hard: ceiling });
    assert.ok(
      a.adjustments.some((x) => x.type === 'RLIMIT_NOFILE' && x.message === `RLIMIT_NOFILE 1048576/1048576 applied as ${ceiling}/${ceiling}: hard limit 1048576 is above the node's ceiling ${ceiling} (no CAP_SYS_RESOURCE)`),
      a.adjustments.map((x) => x.message).join('\n'),
    );
    // Unadapted, runc fails in the container's init.
    const raw = bundle(c, { ...a, rlimits: a.rlimits.map((r) => (r.type === 'RLIMIT_NOFILE' ? { ...r, soft: 1048576n, hard: 1048576n } : r)) }, ['true']);
    await assert.rejects(runc.run(raw.id, raw.dir), /error setting rlimit type 7: operation not permitted/);

    const got = await readBack(c, a);
    assert.deepEqual(got.limits.RLIMIT_NOFILE, { soft: ceiling, hard: ceiling });
    assert.deepEqual(got.limits, expectedLimits(a));
  });

  it('swap (the kubelet\'s NoSwap): memory.memsw.limit_in_bytes equals memory.limit_in_bytes, read inside the container; without a memory limit neither is set', async (t) => {
    // This host (shared/reference/linux-host.md): v1 memory with swap accounted, no swap device.
    assert.equal(host.swapControllerAvailable, existsSync(join(host.cgroups.v1.memory!, 'memory.memsw.limit_in_bytes')), 'the probe reads the memory root as the kubelet does');
    if (!host.swapControllerAvailable) {
      t.skip('this kernel accounts no swap per cgroup (no memory.memsw.limit_in_bytes): nothing to read back');
      return;
    }
    const read = ['memory.limit_in_bytes', 'memory.memsw.limit_in_bytes'].map((f) => `echo "${f}=$(cat /sys/fs/cgroup/memory/${f})"`).join('; ');
    const rows: [string, Record<string, string>, (got: Record<string, string>) => void][] = [
      ['limited', { memory: '48Mi' }, (got) => assert.deepEqual(got, { 'memory.limit_in_bytes': '50331648', 'memory.memsw.limit_in_bytes': '50331648' })],
      // Unset, both stay at the kernel's "unlimited" (the page-aligned LONG_MAX), equal to the parent's.
      ['unlimited', {}, (got) => {
        const parent = join(host.cgroups.v1.memory!, top);
        assert.deepEqual(got, { 'memory.limit_in_bytes': readFileSync(join(parent, 'memory.limit_in_bytes'), 'utf8').trim(), 'memory.memsw.limit_in_bytes': readFileSync(join(parent, 'memory.memsw.limit_in_bytes'), 'utf8').trim() });
        assert.ok(BigInt(got['memory.memsw.limit_in_bytes']!) > 1n << 62n, `unlimited: ${got['memory.memsw.limit_in_bytes']}`);
      }],
    ];
    for (const [name, limits, check] of rows) {
      const c = planPodOnNode(pod(`swap-${name}`, { limits }, []), node, gates).containers[0]!;
      assert.equal(c.cgroup['memory.memsw.limit_in_bytes'], c.cgroup['memory.limit_in_bytes'], `${name}: the plan's memsw is its memory limit (or neither)`);
      const b = bundle(c, adaptToHost(c, host), ['sh', '-c', read]);
      const r = await runc.run(b.id, b.dir);
      assert.equal(r.exitCode, 0, r.stderr);
      const got = Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.split('=') as [string, string]));
      console.error(`runtime test: swap ${name}: ${JSON.stringify(got)}`);
      check(got);
    }
  });

  it('create / start / state / kill / delete, with the cgroup checked from the host side', async () => {
    const p = pod('lifecycle', { requests: { cpu: '250m', memory: '32Mi' }, limits: { cpu: '250m', memory: '48Mi' } }, []);
    const c = planPodOnNode(p, node, gates).containers[0]!;
    const a = adaptToHost(c, host);
    const b = bundle(c, a, ['sleep', '30']);
    await runc.create(b.id, b.dir);
    const created = await runc.state(b.id);
    assert.equal(created.status, 'created');
    assert.ok(created.pid > 0);
    const memDir = join(host.cgroups.v1.memory!, b.cgroupsPath);
    assert.equal(readFileSync(join(memDir, 'memory.limit_in_bytes'), 'utf8').trim(), c.cgroup['memory.limit_in_bytes']);
    if (host.swapControllerAvailable) assert.equal(readFileSync(join(memDir, 'memory.memsw.limit_in_bytes'), 'utf8').trim(), c.cgroup['memory.limit_in_bytes'], 'memsw = the memory limit, from the host side');
    assert.ok(readFileSync(join(memDir, 'cgroup.procs'), 'utf8').split('\n').includes(String(created.pid)));
    assert.equal(readFileSync(`/proc/${created.pid}/oom_score_adj`, 'utf8').trim(), String(a.oomScoreAdj));
    await runc.start(b.id);
    assert.equal((await runc.state(b.id)).status, 'running');
    assert.deepEqual((await runc.list()).map((s) => s.id), [b.id]);
    await runc.kill(b.id, 'KILL');
    const deadline = Date.now() + 30_000;
    while ((await runc.state(b.id)).status !== 'stopped') {
      assert.ok(Date.now() < deadline, 'container did not stop within 30 s of SIGKILL');
      await new Promise((r) => setTimeout(r, 20));
    }
    await runc.delete(b.id);
    await assert.rejects(runc.state(b.id), (e: unknown) => e instanceof RuncError && /does not exist/.test(e.message));
    assert.equal(existsSync(memDir), false, 'runc delete removes the container cgroup');
  });

  it('--pid-file: create and run --detach write the init\'s host pid, the one runc state reports', async () => {
    const p = pod('pidfile', { requests: { cpu: '100m', memory: '16Mi' }, limits: { memory: '32Mi' } }, []);
    const c = planPodOnNode(p, node, gates).containers[0]!;
    const a = adaptToHost(c, host);
    const ways: [string, (id: string, dir: string, pidFile: string) => Promise<void>, string][] = [
      ['create', (id, dir, pidFile) => runc.create(id, dir, { pidFile }), 'created'],
      ['run --detach', (id, dir, pidFile) => runc.runDetached(id, dir, { pidFile }), 'running'],
    ];
    for (const [name, start, status] of ways) {
      const b = bundle(c, a, ['sleep', '30']);
      const pidFile = join(b.dir, 'init.pid');
      await start(b.id, b.dir, pidFile);
      const st = await runc.state(b.id);
      assert.equal(st.status, status, name);
      assert.equal(Number(readFileSync(pidFile, 'utf8')), st.pid, name);
      await runc.delete(b.id, { force: true });
    }
  });

  it('startCreated (the exec fifo, no runc start): the process execs, runc state says running, its output is the program\'s', async () => {
    const p = pod('fifo-start', { requests: { cpu: '100m', memory: '16Mi' }, limits: { memory: '32Mi' } }, []);
    const c = planPodOnNode(p, node, gates).containers[0]!;
    const a = adaptToHost(c, host);
    const b = bundle(c, a, ['sh', '-c', 'echo started; exec sleep 30']);
    const out = join(b.dir, 'out.log');
    await runc.create(b.id, b.dir, { stdoutPath: out, stderrPath: out });
    const created = await runc.state(b.id);
    assert.equal(created.status, 'created');
    assert.equal(readFileSync(`/proc/${created.pid}/comm`, 'utf8').trim(), 'runc:[2:INIT]');
    await runc.startCreated(b.id, created.pid);
    assert.equal((await runc.state(b.id)).status, 'running');
    assert.equal(existsSync(join(runc.root, b.id, 'exec.fifo')), false);
    const deadline = Date.now() + 30_000;
    while (readFileSync(`/proc/${created.pid}/comm`, 'utf8').trim() !== 'sleep') {
      assert.ok(Date.now() < deadline, 'the init did not exec sleep within 30 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(readFileSync(out, 'utf8'), 'started\n');
    await runc.delete(b.id, { force: true });
  });

  // A hang shows as the test's timeout, a deadline far above any real answer, not as a duration.
  it('startCreated on a created container whose init was killed: rejects with runc\'s "container process is already dead", without hanging', { timeout: 60_000 }, async () => {
    const p = pod('fifo-dead', { requests: { cpu: '100m', memory: '16Mi' }, limits: { memory: '32Mi' } }, []);
    const c = planPodOnNode(p, node, gates).containers[0]!;
    const a = adaptToHost(c, host);
    const b = bundle(c, a, ['sleep', '30']);
    await runc.create(b.id, b.dir);
    const { pid } = await runc.state(b.id);
    process.kill(pid, 'SIGKILL');
    await assert.rejects(runc.startCreated(b.id, pid), (e: unknown) => e instanceof RuncError && /container process is already dead/.test(e.message));
    await runc.delete(b.id, { force: true });
  });

  it('buildBusyboxRootfs is idempotent: a second run over the same directory creates nothing', () => {
    const again = buildBusyboxRootfs(rootfs);
    assert.equal(again.created, 0);
    assert.ok(again.applets.includes('sh') && again.applets.includes('cat'));
    assert.equal(readdirSync(join(rootfs, 'bin')).length, again.applets.filter((n) => n !== 'busybox').length + 1);
  });
});
