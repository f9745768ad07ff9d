// The OOM kill mode design's test plan (and the QoS and ulimits readbacks of issue 10) end to end
// on a pure cgroup v2 kernel: `bulkhead up` inside scripts/vm.sh's guest, driven by the real
// kubectl, with what the kernel did read back from the containers' cgroups (memory.events,
// memory.oom.group, cpu.*, memory.max, memory.swap.max) and /proc (oom_score_adj, limits), and
// compared with what `bulkhead plan --cgroup-version 2` prints for the same pod and node. Follows the
// upstream node e2e OOM tests (test/e2e_node/oomkiller_linux_test.go: an OOM-killed container
// reports OOMKilled; the singleProcessOOMKill cases) and this project's v1 suite
// (test/e2e/node.test.ts), whose workloads it reuses.
//
// One cluster for the whole file (each start costs tens of seconds under TCG): the pods of a
// phase are applied together and progress in parallel while the tests wait on them in turn.
// Phase 1 runs with no node default (cgroup v2's own: Group); phase 2 restarts `bulkhead up`
// with --single-process-oom-kill=true. Waits poll a condition; their deadlines only bound a hang.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { kubectlAvailable } from '../e2e/cluster.js';
import { nodeCgroupConfig, podCgroupFiles } from '../../src/policy/cgroupvalues.js';
import { startUp, type PodJSON, type UpCluster } from '../e2e/upcluster.js';
import {
  comm,
  containerCgroupDir,
  containerStatus,
  events,
  followMemoryEvents,
  limitsRow,
  parseMemoryEvents,
  podCgroupDir,
  procs,
  readCg,
  sandboxCgroupDir,
  skipUnlessV2,
  trigger,
} from './guest.js';

const skip = skipUnlessV2('test/v2/oom.test');
if (!skip.skip) {
  const k = kubectlAvailable();
  if (k) Object.assign(skip, { skip: k });
}

/**
 * Declared so that every example of examples/ fits next to this file's pods (their requests
 * come to about 6.8Gi and 6 CPUs): the node cgroup enforces it, the guest's 2.5 GiB is what
 * the containers really use (a few MiB each).
 */
const nodeFlags = ['--node-memory', '8Gi', '--node-cpu', '8'];
/** Bounds a hang; TCG makes every step slow, so it is generous. Never a measurement. */
const WAIT = 300_000;

function podYAML(name: string, body: string, extra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
${extra}${body}`;
}

/**
 * A multi-process container: the shell (PID 1) prints "alive N" every second, two `sleep 3600`
 * run beside it, and a subshell waits on a fifo in /dev/shm; when the test writes to it
 * (guest.ts trigger), the subshell becomes `tail /dev/zero`, which fills the 48Mi limit.
 */
function hog(name: string, mode: string | undefined, key = 'containers'): string {
  return `  ${key}:
  - name: ${name}
    image: busybox
    command: ["sh", "-c", "mkfifo /dev/shm/go; sleep 3600 & sleep 3600 & (read x < /dev/shm/go; exec tail /dev/zero) & i=0; while true; do i=$((i+1)); echo alive $i; sleep 1; done"]
${mode ? `    oomKillMode: ${mode}\n` : ''}    resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {memory: 48Mi}}
`;
}

/** A second container entry for the same list (no list key). */
function hogEntry(name: string, mode: string | undefined): string {
  return hog(name, mode).split('\n').slice(1).join('\n');
}

function sleeper(name: string, mode?: string): string {
  return `  - name: ${name}
    image: busybox
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
${mode ? `    oomKillMode: ${mode}\n` : ''}    resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {memory: 48Mi}}
`;
}

const groupPod = podYAML('group', hog('db', 'Group'), '  restartPolicy: Never\n');
const singlePod = podYAML('single', hog('web', 'Single'));
const mixedPod = podYAML('mixed', hog('single', 'Single') + hogEntry('group', 'Group'));
const initPod = podYAML('init-oom', hog('init', 'Group', 'initContainers') + '  containers:\n' + sleeper('main'), '  restartPolicy: Never\n');
const limitsPod = podYAML('limits', `  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
    resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 500m, memory: 128Mi}}
    securityContext:
      ulimits:
      - {name: nofile, soft: 65536, hard: 65536}
      - {name: core, soft: 0, hard: -1}
`);
const guaranteedPod = podYAML('guaranteed', `  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 3600 & wait"]
    resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 100m, memory: 32Mi}}
`);
const nodeDefaultPod = podYAML('node-default', hog('inherits', undefined) + sleeper('group', 'Group'));

/** The pod once `ready` holds for it. */
function podWhen(c: UpCluster, name: string, what: string, ready: (p: PodJSON) => boolean, namespace = 'default'): Promise<PodJSON> {
  return c.until(`${namespace}/${name}: ${what}`, async () => {
    const p = await c.pod(name, namespace);
    return ready(p) ? p : undefined;
  }, WAIT);
}

const running = (name: string, init = false) => (p: PodJSON) => Boolean(containerStatus(p, name, init)?.state.running && containerStatus(p, name, init)?.containerID);

/**
 * The processes of a running hog container, once all four long-lived ones are there: the
 * shell (PID 1 in its namespace), the two `sleep 3600` and the subshell waiting on the fifo.
 */
async function hogProcesses(c: UpCluster, dir: string): Promise<{ init: number; sleeps: number[]; all: number[] }> {
  return c.until(`the processes of ${dir}`, async () => {
    const all = procs(dir);
    const cmd = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      } catch {
        return '';
      }
    };
    const nsPid1 = (pid: number) => {
      try {
        return /^NSpid:.*\s1$/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    };
    const init = all.find(nsPid1);
    const sleeps = all.filter((p) => cmd(p) === 'sleep 3600');
    const waiters = all.filter((p) => p !== init && comm(p) === 'sh');
    return init !== undefined && sleeps.length === 2 && waiters.length >= 1 ? { init, sleeps, all } : undefined;
  }, WAIT);
}

function aliveCount(logs: string): number {
  const m = [...logs.matchAll(/^alive (\d+)$/gm)];
  return m.length ? Number(m[m.length - 1]![1]) : 0;
}

interface PlanJSON {
  pods: {
    name: string;
    namespace: string;
    qosClass: string;
    podCgroup: { path: string; values: Record<string, string> };
    sandbox: { oomScoreAdj: number };
    containers: { name: string; kind: string; oomScoreAdj: number; oomKillMode: string; oomKillModeSource: string; cgroup: Record<string, string>; rlimits: { type: string; soft: number | string; hard: number | string }[] }[];
  }[];
}

async function plan(c: UpCluster, file: string, extra: string[] = []): Promise<PlanJSON> {
  const r = await c.bulkhead(['plan', file, ...nodeFlags, '--cgroup-version', '2', ...extra, '-o', 'json']);
  assert.equal(r.code, 0, `bulkhead plan ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as PlanJSON;
}

/** /proc/<pid>/limits labels of the rlimits the plan names. */
const limitLabel: Record<string, string> = { RLIMIT_NOFILE: 'Max open files', RLIMIT_CORE: 'Max core file size', RLIMIT_MEMLOCK: 'Max locked memory', RLIMIT_NPROC: 'Max processes', RLIMIT_STACK: 'Max stack size' };
const shown = (v: number | string) => (v === 'unlimited' || v === -1 ? 'unlimited' : String(v));

/** What the kernel counted, in the CI log: the lane's proof is the kernel's own counters, not only our reading of them. */
function kernelSaid(what: string, counters: Record<string, number | undefined>): void {
  console.log(`kernel: ${what}: memory.events ${Object.entries(counters).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

describe('end to end on cgroup v2 (scripts/vm.sh guest): the OOM kill mode test plan, cgroup values, oom_score_adj and ulimits', skip, () => {
  let c: UpCluster;

  before(async () => {
    c = await startUp(nodeFlags, { startTimeoutMs: WAIT });
    // Everything of phase 1 at once: the pods start while the first tests wait.
    const file = c.file('phase1.yaml', [groupPod, singlePod, mixedPod, initPod, limitsPod, guaranteedPod].join('---\n'));
    await c.ok(['apply', '-f', file]);
    // What a user runs: every example, and the Group pod examples/refused/ keeps for v1 nodes.
    await c.ok(['apply', '-f', 'examples/']);
    await c.ok(['apply', '-f', 'examples/refused/group-on-v1.yaml']);
  });

  after(async () => {
    if (!c) return;
    // Deleted here with room for TCG (stop() allows 60 s), then stopped.
    await c.kubectl(['delete', 'pods', '--all', '-A', '--grace-period=1', '--wait=true', '--timeout=240s']).catch(() => undefined);
    await c.stop();
  });

  it('the node registers on cgroup v2: memory.oom.group native, negative oom_score_adj, the real rlimit ceilings, crun, the declared size in the node cgroup', async () => {
    const node = await c.until('the node Ready', async () => {
      const n = JSON.parse(await c.ok(['get', 'node', c.nodeName, '-o', 'json'])) as {
        metadata: { annotations: Record<string, string> };
        status: { conditions: { type: string; status: string }[]; nodeInfo: { containerRuntimeVersion: string } };
      };
      return n.status.conditions.some((x) => x.type === 'Ready' && x.status === 'True') ? n : undefined;
    }, WAIT);
    const caps = JSON.parse(node.metadata.annotations['bulkhead.dev/node-capabilities']!) as { cgroupVersion: number; oomGroup: string; minOOMScoreAdj: number; hardRlimitCeilings: Record<string, string> };
    assert.equal(caps.cgroupVersion, 2);
    assert.equal(caps.oomGroup, 'native', 'memory.oom.group is the kernel\'s, not emulated');
    assert.ok(caps.minOOMScoreAdj <= -998, `the guest grants CAP_SYS_RESOURCE: ${caps.minOOMScoreAdj}`);
    const nofile = caps.hardRlimitCeilings.RLIMIT_NOFILE;
    assert.ok(nofile === undefined || nofile === 'unlimited' || Number(nofile) >= 65536, `a 65536 hard nofile can be granted: ceiling ${nofile}`);
    assert.match(node.status.nodeInfo.containerRuntimeVersion, /^crun:\/\//, 'crun works on a pure v2 host and is chosen');
    // The node cgroup holds the declared size, in the files the one implementation gives v2.
    const kubepods = `/sys/fs/cgroup${c.cgroupRoot}/kubepods`;
    const want = podCgroupFiles(nodeCgroupConfig({ memoryBytes: 8n * 1024n ** 3n, milliCPU: 8000n }), 2);
    assert.equal(want['memory.max'], String(8 * 1024 ** 3));
    for (const [f, v] of Object.entries(want)) assert.equal(readCg(kubepods, f), v, `kubepods ${f}`);
    for (const ctl of ['cpu', 'memory', 'pids']) assert.ok(readCg(kubepods, 'cgroup.subtree_control').split(' ').includes(ctl), `${ctl} enabled for the pods below kubepods`);
  });

  it('Group: the kernel kills every process of the container at once (memory.events oom_group_kill 1); OOMKilled, exit 137', async () => {
    const p = await podWhen(c, 'group', 'db running', running('db'));
    const dir = containerCgroupDir(c, p, 'db');
    assert.equal(readCg(dir, 'memory.oom.group'), '1');
    const before = await hogProcesses(c, dir);
    const follow = followMemoryEvents(dir);
    try {
      await trigger(c, dir);
      const done = await podWhen(c, 'group', 'db terminated', (q) => Boolean(containerStatus(q, 'db')?.state.terminated));
      const t = containerStatus(done, 'db')!.state.terminated!;
      assert.deepEqual({ exitCode: t.exitCode, reason: t.reason }, { exitCode: 137, reason: 'OOMKilled' });
      assert.equal(done.status.phase, 'Failed', 'restartPolicy Never');
      const ev = follow.last();
      assert.ok(ev, `memory.events of ${dir} was read`);
      kernelSaid('Group container db', ev);
      assert.equal(ev.oom_group_kill, 1, `memory.events: ${JSON.stringify(ev)}`);
      // The kernel counts an oom_kill for each task its group sweep kills, but a task already on its
      // way out when the sweep reaches it (a shell's child reaped meanwhile) is not counted again:
      // the count varies with timing (3 to 5 here for 5 processes), so what is asserted is that
      // the kernel killed, the sweep happened (oom_group_kill), and every process is gone.
      assert.ok(ev.oom_kill! >= 1, `oom_kill ${ev.oom_kill}: ${JSON.stringify(ev)}`);
      for (const pid of [before.init, ...before.sleeps]) assert.equal(comm(pid), undefined, `pid ${pid} is gone`);
    } finally {
      follow.stop();
    }
    // The agent's own report of the kernel's group kill: read before the sync that saw the exit
    // removes the cgroup (reporter.containerRemoving), so it is never lost with the cgroup.
    await c.until('the OOM event counted by mode Group', async () => (/^container_oom_events_by_mode\{mode="Group"\} [1-9]/m.test(await c.agentGet('/metrics')) ? true : undefined), WAIT);
  });

  it('Single: only the hog is killed; the shell and its sleeps keep running, the OOMKilling event names the process', async () => {
    const p = await podWhen(c, 'single', 'web running', running('web'));
    const dir = containerCgroupDir(c, p, 'web');
    assert.equal(readCg(dir, 'memory.oom.group'), '0');
    const before = await hogProcesses(c, dir);
    await trigger(c, dir);
    const ev = await c.until('an OOMKilling event for single', async () => (await events(c, 'single')).find((e) => e.reason === 'OOMKilling'), WAIT);
    assert.match(ev.message, /Killed process \d+ \(tail\) in container web; oomKillMode Single/);
    assert.equal(ev.type, 'Warning');
    const counters = parseMemoryEvents(readFileSync(`${dir}/memory.events`, 'utf8'));
    kernelSaid('Single container web', counters);
    assert.ok(counters.oom_kill! >= 1, JSON.stringify(counters));
    assert.equal(counters.oom_group_kill, 0, JSON.stringify(counters));
    const left = procs(dir);
    for (const pid of [before.init, ...before.sleeps]) assert.ok(left.includes(pid), `pid ${pid} (${comm(pid)}) still in the container: ${left.join(' ')}`);
    assert.ok(!left.some((pid) => comm(pid) === 'tail'), 'the hog is gone');
    const was = aliveCount(await c.ok(['logs', 'single']));
    await c.until('the shell printing after the kill', async () => (aliveCount(await c.ok(['logs', 'single'])) > was ? true : undefined), WAIT);
    const cs = containerStatus(await c.pod('single'), 'web')!;
    assert.ok(cs.state.running, JSON.stringify(cs));
    assert.equal(cs.restartCount, 0);
    // The status can be written before the reporter's settled read of memory.events: wait for it.
    await c.until('the OOM event counted by mode Single', async () => (/^container_oom_events_by_mode\{mode="Single"\} [1-9]/m.test(await c.agentGet('/metrics')) ? true : undefined), WAIT);
  });

  it('a pod with containers in different modes: the Single one keeps its processes, the Group one dies whole and restarts', async () => {
    const p = await podWhen(c, 'mixed', 'both running', (q) => running('single')(q) && running('group')(q));
    const single = containerCgroupDir(c, p, 'single');
    const group = containerCgroupDir(c, p, 'group');
    assert.deepEqual([readCg(single, 'memory.oom.group'), readCg(group, 'memory.oom.group')], ['0', '1']);
    const keep = await hogProcesses(c, single);
    await hogProcesses(c, group);
    const follow = followMemoryEvents(group);
    let groupEvents: Record<string, number> | undefined;
    try {
      await trigger(c, group);
      await trigger(c, single);
      const after = await podWhen(c, 'mixed', 'the Group container restarted after its OOM kill', (q) => (containerStatus(q, 'group')?.restartCount ?? 0) >= 1);
      groupEvents = follow.last();
      const g = containerStatus(after, 'group')!;
      assert.deepEqual({ exitCode: g.lastState?.terminated?.exitCode, reason: g.lastState?.terminated?.reason }, { exitCode: 137, reason: 'OOMKilled' });
    } finally {
      follow.stop();
    }
    kernelSaid('mixed pod, Group container', groupEvents ?? {});
    kernelSaid('mixed pod, Single container', parseMemoryEvents(readFileSync(`${single}/memory.events`, 'utf8')));
    assert.equal(groupEvents?.oom_group_kill, 1, JSON.stringify(groupEvents));
    const ev = await c.until('the Single container\'s OOMKilling event', async () => (await events(c, 'mixed')).find((e) => e.reason === 'OOMKilling' && /in container single/.test(e.message)), WAIT);
    assert.match(ev.message, /Killed process \d+ \(tail\) in container single; oomKillMode Single/);
    const s = containerStatus(await c.pod('mixed'), 'single')!;
    assert.equal(s.restartCount, 0, 'the Single container was not restarted');
    assert.ok(s.state.running);
    const left = procs(single);
    for (const pid of [keep.init, ...keep.sleeps]) assert.ok(left.includes(pid), `pid ${pid} kept: ${left.join(' ')}`);
  });

  it('an init container OOM (oomKillMode on initContainers): OOMKilled, exit 137, the pod fails before its containers start', async () => {
    const p = await podWhen(c, 'init-oom', 'init running', running('init', true));
    const dir = containerCgroupDir(c, p, 'init', true);
    assert.equal(readCg(dir, 'memory.oom.group'), '1');
    await hogProcesses(c, dir);
    await trigger(c, dir);
    const done = await podWhen(c, 'init-oom', 'init terminated', (q) => Boolean(containerStatus(q, 'init', true)?.state.terminated));
    // The terminated container's cgroup may be gone by now; its counters then live on in the pod's memory.events.
    try {
      kernelSaid('init container (pod cgroup)', parseMemoryEvents(readFileSync(`${podCgroupDir(c, done)}/memory.events`, 'utf8')));
    } catch {
      // the pod cgroup went with the pod
    }
    const t = containerStatus(done, 'init', true)!.state.terminated!;
    assert.deepEqual({ exitCode: t.exitCode, reason: t.reason }, { exitCode: 137, reason: 'OOMKilled' });
    const failed = await podWhen(c, 'init-oom', 'phase Failed', (q) => q.status.phase === 'Failed');
    const main = containerStatus(failed, 'main');
    assert.ok(!main?.containerID, `the main container never started: ${JSON.stringify(main)}`);
  });

  it('cgroup files (memory.swap.max 0 included), oom_score_adj (-997 Guaranteed, -998 sandbox) and rlimits (nofile 65536 hard) read back equal bulkhead plan --cgroup-version 2', async () => {
    const planned = await plan(c, c.file('readback.yaml', [limitsPod, guaranteedPod].join('---\n')));
    assert.equal(planned.pods.find((x) => x.name === 'guaranteed')!.containers[0]!.oomScoreAdj, -997, 'the QoS design\'s value is planned');
    for (const pp of planned.pods) {
      const p = await podWhen(c, pp.name, 'c running', running('c'));
      assert.equal(p.status.qosClass, pp.qosClass);
      const podDir = podCgroupDir(c, p);
      assert.equal(podDir, `/sys/fs/cgroup${c.cgroupRoot}${pp.podCgroup.path.replace(/pod[0-9a-f-]+$/, `pod${p.metadata.uid}`)}`, 'the planned pod cgroup path');
      for (const [f, v] of Object.entries(pp.podCgroup.values)) assert.equal(readCg(podDir, f), v, `${pp.name}: pod cgroup ${f}`);
      const want = pp.containers[0]!;
      const dir = containerCgroupDir(c, p, 'c');
      for (const [f, v] of Object.entries(want.cgroup)) assert.equal(readCg(dir, f), v, `${pp.name}: container cgroup ${f}`);
      // The kubelet's NoSwap on v2: the plan says memory.swap.max 0 and the kernel holds it (the agent found the swap controller).
      assert.equal(want.cgroup['memory.swap.max'], '0', `${pp.name}: planned memory.swap.max`);
      assert.equal(readCg(dir, 'memory.swap.max'), '0', `${pp.name}: memory.swap.max`);
      const pids = procs(dir);
      assert.ok(pids.length > 0, `${dir} has processes`);
      console.log(`kernel: ${pp.name} (${pp.qosClass}) pid ${pids[0]}: oom_score_adj ${readFileSync(`/proc/${pids[0]}/oom_score_adj`, 'utf8').trim()}, Max open files ${JSON.stringify(limitsRow(pids[0]!, 'Max open files'))}, memory.oom.group ${readCg(dir, 'memory.oom.group')}`);
      for (const pid of pids) {
        assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), String(want.oomScoreAdj), `${pp.name}: oom_score_adj of ${pid} (${comm(pid)})`);
        for (const r of want.rlimits) assert.deepEqual(limitsRow(pid, limitLabel[r.type]!), { soft: shown(r.soft), hard: shown(r.hard) }, `${pp.name}: ${r.type} of ${pid}`);
      }
      const sandbox = procs(sandboxCgroupDir(c, p));
      assert.ok(sandbox.length > 0, 'the sandbox has a process');
      for (const pid of sandbox) assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), String(pp.sandbox.oomScoreAdj), `${pp.name}: sandbox oom_score_adj`);
      assert.equal(pp.sandbox.oomScoreAdj, -998);
      // The host granted everything: no HostAdjusted event.
      assert.deepEqual((await events(c, pp.name)).filter((e) => e.reason === 'HostAdjusted').map((e) => e.message), []);
    }
    const limits = planned.pods.find((x) => x.name === 'limits')!.containers[0]!;
    assert.deepEqual(limits.rlimits.find((r) => r.type === 'RLIMIT_NOFILE'), { type: 'RLIMIT_NOFILE', soft: 65536, hard: 65536 });
  });

  // One row per precedence rule of the design (container field → node flag → the v2 default);
  // phase 2 below has the node flag's rows.
  const phase1Rules: { rule: string; namespace: string; pod: string; container: string; want: string }[] = [
    { rule: 'container field Single → memory.oom.group 0', namespace: 'shop', pod: 'web-and-db', container: 'web', want: '0' },
    { rule: 'container field Group → memory.oom.group 1', namespace: 'default', pod: 'mixed', container: 'group', want: '1' },
    { rule: 'no field, no node flag → cgroup v2\'s default, Group: memory.oom.group 1', namespace: 'shop', pod: 'web-and-db', container: 'database', want: '1' },
  ];

  it('kubectl apply -f examples/ runs every example (the node fits them all), the Group pods and the elasticsearch nofile pod included', async () => {
    const namespaces = ['shop', 'qos', 'search', 'quota-demo'];
    const list = async () => (await Promise.all(namespaces.map(async (ns) => (JSON.parse(await c.ok(['get', 'pods', '-n', ns, '-o', 'json'])) as { items: PodJSON[] }).items))).flat();
    const expected = ['shop/web-and-db', 'shop/database', 'qos/guaranteed', 'qos/burstable', 'qos/besteffort', 'search/elasticsearch', 'quota-demo/scratch-1', 'quota-demo/build-1', 'quota-demo/web-1'];
    const pods = await c.until('every example pod started', async () => {
      const items = await list();
      const started = items.filter((p) => {
        const cs = p.status.containerStatuses ?? [];
        // The refused-on-v1 Group pod's container runs busybox's default `sh`, which exits at
        // once (no stdin): created and run is what a v2 node owes it. build-1 may have completed.
        return cs.length > 0 && cs.every((s) => s.containerID && (s.state.running || s.state.terminated?.exitCode === 0 || s.lastState?.terminated?.exitCode === 0));
      });
      return started.length === expected.length ? items : undefined;
    }, WAIT);
    assert.deepEqual(pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).sort(), [...expected].sort());
    for (const p of pods) {
      for (const cs of p.status.containerStatuses ?? []) assert.notEqual(cs.state.waiting?.reason, 'CreateContainerConfigError', `${p.metadata.name}/${cs.name}: ${cs.state.waiting?.message}`);
    }
    // elasticsearch: the hard limits above the agent's own, as the example asks.
    const es = pods.find((p) => p.metadata.name === 'elasticsearch')!;
    const esPids = procs(containerCgroupDir(c, es, 'elasticsearch'));
    assert.ok(esPids.length > 0);
    for (const pid of esPids) {
      assert.deepEqual(limitsRow(pid, 'Max open files'), { soft: '65535', hard: '65535' });
      assert.deepEqual(limitsRow(pid, 'Max locked memory'), { soft: 'unlimited', hard: 'unlimited' });
    }
    assert.match(await c.ok(['logs', 'elasticsearch', '-n', 'search']), /^65535\nunlimited$/m);
    // The QoS trio: -997 for Guaranteed, 1000 for BestEffort, from /proc.
    for (const [name, want] of [['guaranteed', '-997'], ['besteffort', '1000']] as const) {
      const p = pods.find((x) => x.metadata.namespace === 'qos' && x.metadata.name === name)!;
      for (const pid of procs(containerCgroupDir(c, p, 'app'))) assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), want, `qos/${name}`);
    }
  });

  for (const r of phase1Rules) {
    it(`OOM kill mode precedence: ${r.rule}`, async () => {
      // mixed/group restarted after its OOM kill: read from the live attempt.
      const value = await c.until(`${r.namespace}/${r.pod}/${r.container}: memory.oom.group`, async () => {
        const p = await c.pod(r.pod, r.namespace);
        return readCg(containerCgroupDir(c, p, r.container), 'memory.oom.group');
      }, WAIT);
      assert.equal(value, r.want);
    });
  }

  describe('phase 2: the node default, bulkhead up --single-process-oom-kill=true', () => {
    before(async () => {
      await c.restart([...nodeFlags, '--single-process-oom-kill=true']);
      await c.ok(['apply', '-f', c.file('node-default.yaml', nodeDefaultPod)]);
    });

    it('bulkhead plan agrees: the container without a field follows the node (Single), the Group field overrides it', async () => {
      const planned = (await plan(c, c.file('node-default-plan.yaml', nodeDefaultPod), ['--single-process-oom-kill=true'])).pods[0]!;
      const modes = Object.fromEntries(planned.containers.map((x) => [x.name, { mode: x.oomKillMode, source: x.oomKillModeSource, file: x.cgroup['memory.oom.group'] }]));
      assert.deepEqual(modes, { inherits: { mode: 'Single', source: 'node', file: '0' }, group: { mode: 'Group', source: 'container', file: '1' } });
      const p = await podWhen(c, 'node-default', 'both running', (q) => running('inherits')(q) && running('group')(q));
      for (const x of planned.containers) assert.equal(readCg(containerCgroupDir(c, p, x.name), 'memory.oom.group'), x.cgroup['memory.oom.group'], `${x.name}: memory.oom.group`);
    });

    it('no field, --single-process-oom-kill=true: an OOM kills only the hog and the container keeps running', async () => {
      const p = await podWhen(c, 'node-default', 'inherits running', running('inherits'));
      const dir = containerCgroupDir(c, p, 'inherits');
      const before = await hogProcesses(c, dir);
      await trigger(c, dir);
      const ev = await c.until('the OOMKilling event', async () => (await events(c, 'node-default')).find((e) => e.reason === 'OOMKilling'), WAIT);
      assert.match(ev.message, /Killed process \d+ \(tail\) in container inherits; oomKillMode Single/);
      const counters = parseMemoryEvents(readFileSync(`${dir}/memory.events`, 'utf8'));
      assert.equal(counters.oom_group_kill, 0, JSON.stringify(counters));
      const left = procs(dir);
      for (const pid of [before.init, ...before.sleeps]) assert.ok(left.includes(pid), `pid ${pid} kept: ${left.join(' ')}`);
      const cs = containerStatus(await c.pod('node-default'), 'inherits')!;
      assert.ok(cs.state.running);
      assert.equal(cs.restartCount, 0);
    });

    it('containers that ran before the restart keep the mode they were created with (the adopted Group container is still 1)', async () => {
      const p = await c.pod('mixed');
      assert.equal(readCg(containerCgroupDir(c, p, 'group'), 'memory.oom.group'), '1');
      const leaves = readdirSync(podCgroupDir(c, p)).filter((e) => e.startsWith(p.metadata.uid));
      assert.ok(leaves.length >= 3, `sandbox and both containers still have their cgroups: ${leaves.join(' ')}`);
    });
  });
});
