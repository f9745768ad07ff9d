// PodWorker on the real kernel: a Burstable pod with two containers is planned, its pod cgroup
// made, its containers run under conmon + runc, observed from the host side, stopped and
// cleaned up. Needs root, runc, conmon, /bin/busybox (scripts/install-host-deps.sh) and a cgroup
// v1 memory hierarchy; otherwise the tests skip and say why on stderr. Every cgroup lives below
// /<hierarchy>/bulkhead-test-<random>/ and is removed in `after`; bundles, runc state, logs and
// exit files live under one os.tmpdir() directory.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildBusyboxRootfs } from '../../src/agent/runtime/rootfs.js';
import { probeCgroups, probeHost, type HostProbe } from '../../src/agent/runtime/hostprobe.js';
import { CgroupV1Manager } from '../../src/agent/cgroups/v1.js';
import { monitorDir, processAlive, readExit, readLogs, waitExit } from '../../src/agent/monitor/conmon.js';
import { RuncError } from '../../src/agent/runtime/runc.js';
import { PodWorker, type StartedContainer } from '../../src/agent/podworker.js';
import { planPodOnNode, type NodeConfig } from '../../src/plan/node.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Container, Pod } from '../../src/api/types.js';
import { hierarchyRoots, realKernelSkipReason, removeTestCgroups } from './cgrouptrees.js';



const reason = realKernelSkipReason(['runc', 'conmon']);
if (reason) console.error(`test/agent/podworker.test: SKIPPING real-kernel PodWorker tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const top = `bulkhead-test-${randomBytes(6).toString('hex')}`;
const gates = defaultFeatureGates;

function container(name: string, script: string): Container {
  return {
    name,
    image: 'busybox',
    command: ['sh', '-c'],
    args: [script],
    env: [{ name: 'GREETING', value: 'hello' }],
    resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { memory: '64Mi' } },
    securityContext: { ulimits: [{ name: 'nofile', soft: 2048, hard: 4096 }] },
  };
}

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'two', namespace: 'default', uid: `00000000-0000-4000-8000-${randomBytes(6).toString('hex')}` },
  spec: { containers: [container('c1', 'echo $GREETING; sleep 100'), container('c2', 'exit 3')] },
} as Pod;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Directories below `dir`, recursively (relative paths). */
function subdirs(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? [join(rel, e), ...subdirs(p, join(rel, e))] : [];
  });
}

describe('PodWorker on this host (real kernel)', opts, () => {
  let base = '';
  let host: HostProbe;
  let node: NodeConfig;
  let worker: PodWorker;
  let started: StartedContainer[] = [];

  before(async () => {
    if (reason) return;
    base = mkdtempSync(join(tmpdir(), 'bulkhead-podworker-test-'));
    buildBusyboxRootfs(join(base, 'rootfs'));
    host = await probeHost();
    node = {
      memoryBytes: BigInt(totalmem()),
      milliCPU: BigInt(availableParallelism()) * 1000n,
      cgroupVersion: 1,
      cgroupDriver: 'cgroupfs',
      hardRlimitCeilings: host.hardRlimitCeilings,
      ...(host.nrOpen !== undefined ? { nrOpen: host.nrOpen } : {}),
    };
    worker = new PodWorker({ cgroupRoot: `/${top}`, stateDir: join(base, 'state'), runDir: join(base, 'run'), rootfs: join(base, 'rootfs'), node, host, gates });
    console.error(`podworker test: top ${top}, min oom_score_adj ${host.minOomScoreAdj}, CAP_SYS_RESOURCE ${host.capSysResource}`);
  });

  after(async () => {
    if (reason) return;
    const problems: string[] = [];
    // Our own containers only (ids from this pod's random uid): kill, wait for the exit file, delete.
    for (const c of pod.spec.containers) {
      const id = worker.containerID(pod, c.name);
      try {
        const st = await worker.runc.state(id);
        if (st.status !== 'stopped') {
          await worker.runc.kill(id, 'KILL').catch(() => undefined);
          await waitExit(worker.exitDir, id, 5000);
        }
        await worker.runc.delete(id, { force: true });
        problems.push(`container ${id} was left behind by the test`);
      } catch (e) {
        if (!(e instanceof RuncError && /does not exist/.test(e.message))) problems.push(`delete ${id}: ${(e as Error).message}`);
      }
      const pidFile = join(monitorDir(worker.bundleDir(pod, c.name)), 'conmon.pid');
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
      if (pid > 0) {
        for (let i = 0; i < 100 && processAlive(pid, 'conmon'); i++) await sleep(20);
        if (processAlive(pid, 'conmon')) {
          problems.push(`conmon ${pid} for ${id} still alive; killed`);
          process.kill(pid, 'SIGKILL');
        }
      }
    }
    problems.push(...removeTestCgroups(top));
    if (base) rmSync(base, { recursive: true, force: true });
    if (problems.length) throw new Error(`cleanup incomplete: ${problems.join('; ')}`);
  });

  it('start: pod cgroup at the planned path with the planned values, c1 running in <pod>/c1 with the planned oom_score_adj and rlimits', async () => {
    const plan = planPodOnNode(pod, node, gates);
    assert.equal(plan.qosClass, 'Burstable');
    const t0 = Date.now();
    started = await worker.start(pod);
    console.error(`podworker test: start of 2 containers in ${Date.now() - t0} ms`);
    assert.deepEqual(started.map((s) => [s.name, s.containerID]), [['c1', `${pod.metadata.uid}-c1`], ['c2', `${pod.metadata.uid}-c2`]]);

    const podPath = `/${top}${plan.podCgroup.path}`;
    assert.equal(worker.podCgroupPath(pod), podPath);
    assert.match(podPath, new RegExp(`^/${top}/kubepods/burstable/pod${pod.metadata.uid}$`));
    assert.ok(Object.keys(plan.podCgroup.values).length > 0);
    assert.deepEqual(new CgroupV1Manager().readBack(podPath, plan.podCgroup.values), plan.podCgroup.values);

    const c1 = started[0]!;
    const c1Plan = plan.containers[0]!;
    assert.ok(c1Plan.oomScoreAdj >= 3 && c1Plan.oomScoreAdj <= 999, 'Burstable value, no host clamping needed');
    assert.equal(readFileSync(`/proc/${c1.pid}/oom_score_adj`, 'utf8').trim(), String(c1Plan.oomScoreAdj));
    assert.match(readFileSync(`/proc/${c1.pid}/cgroup`, 'utf8'), new RegExp(`^\\d+:memory:${podPath}/c1$`, 'm'));
    assert.match(readFileSync(`/proc/${c1.pid}/limits`, 'utf8'), /^Max open files\s+2048\s+4096\s+files\s*$/m);
    assert.equal(readFileSync(join(host.cgroups.v1.memory!, podPath, 'c1', 'memory.limit_in_bytes'), 'utf8').trim(), String(64 * 1024 * 1024));
    assert.ok(c1.adjustments.every((m) => !/oom_score_adj|RLIMIT_NOFILE 2048/.test(m)), c1.adjustments.join('\n'));
  });

  it('status: c1 running, c2 terminated with exit code 3 and reason Error; c1 logs "hello"', async () => {
    assert.ok(started.length === 2, 'start test ran');
    const c2id = worker.containerID(pod, 'c2');
    assert.equal(await waitExit(worker.exitDir, c2id, 5000), 3);
    const st = await worker.status(pod);
    assert.deepEqual(st.map((s) => s.name), ['c1', 'c2']);
    const [s1, s2] = st as [typeof st[0], typeof st[0]];
    assert.ok(s1.state?.running, JSON.stringify(s1));
    assert.match(s1.state.running.startedAt ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.equal(s1.ready, true);
    assert.equal(s2.state?.terminated?.exitCode, 3, JSON.stringify(s2));
    assert.equal(s2.state.terminated.reason, 'Error');
    assert.equal(s2.ready, false);
    let logs = '';
    for (let i = 0; i < 200 && !(logs = readLogs(worker.logPath(pod, 'c1'))).includes('hello'); i++) await sleep(10);
    assert.equal(logs, 'hello\n');
  });

  it('stop: exit codes recorded, containers deleted, no cgroup directory left under the test top', async () => {
    assert.ok(started.length === 2, 'start test ran');
    const t0 = Date.now();
    const codes = await worker.stop(pod, 1);
    console.error(`podworker test: stop (grace 1 s) in ${Date.now() - t0} ms, codes ${JSON.stringify(codes)}`);
    assert.equal(codes.c2, 3);
    assert.ok(codes.c1 === 137 || codes.c1 === 143, String(codes.c1));
    assert.equal(readExit(worker.exitDir, worker.containerID(pod, 'c1')), codes.c1);
    for (const c of ['c1', 'c2']) {
      await assert.rejects(worker.runc.state(worker.containerID(pod, c)), /does not exist/);
    }
    for (const h of hierarchyRoots()) assert.deepEqual(subdirs(join(h, top)), [], `cgroup dirs left under ${join(h, top)}`);
    const st = await worker.status(pod);
    assert.equal(st[0]!.state?.terminated?.exitCode, codes.c1);
    assert.equal(st[1]!.state?.terminated?.reason, 'Error');
  });
});
