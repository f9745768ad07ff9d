// The OOM kill mode and ulimits designs' test plans, end to end on the real kernel: `bulkhead
// up` (server, scheduler, agent running pods with runc under conmon) driven by the real
// kubectl, with what the kernel applied read back from /proc and /sys/fs/cgroup and compared
// with what `bulkhead plan` prints for the same pod and node. Two clusters run side by side:
// one as the design's default cgroup v1 node (Group refused), one with --oom-group-emulation.
// Needs root, runc, conmon, busybox-static, kubectl and a cgroup v1 memory hierarchy; anywhere
// else the suite skips and prints why.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { realKernelSkipReason } from '../agent/cgrouptrees.js';
import { kubectlAvailable } from './cluster.js';
import { startUp, type ContainerStatusJSON, type PodJSON, type UpCluster } from './upcluster.js';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';
import { Quantity } from '../../src/api/quantity.js';

const reason = realKernelSkipReason(['runc', 'conmon']) ?? kubectlAvailable();
if (reason) console.error(`test/e2e/node.test: SKIPPING end-to-end node tests: ${reason}`);
const skip = reason ? { skip: reason } : {};

const nodeFlags = ['--node-memory', '4Gi', '--node-cpu', '2'];

function podYAML(name: string, containers: string, extra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
${extra}  containers:
${containers}`;
}

/** A container that prints "alive N" every 200 ms and, after a second, starts a memory hog. */
function hogContainer(name: string, mode: string | undefined, hogFirst = 1): string {
  return `  - name: ${name}
    image: busybox
    command: ["sh", "-c", "(sleep ${hogFirst}; exec tail /dev/zero) & sleep 3600 & i=0; while true; do i=$((i+1)); echo alive $i; sleep 0.2; done"]
${mode ? `    oomKillMode: ${mode}\n` : ''}    resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {memory: 48Mi}}
`;
}

function containerStatus(p: { status: { containerStatuses?: ContainerStatusJSON[] } }, name: string): ContainerStatusJSON | undefined {
  return p.status.containerStatuses?.find((c) => c.name === name);
}

async function events(c: UpCluster, pod: string): Promise<{ reason: string; message: string; type: string; source?: { component?: string } }[]> {
  const list = JSON.parse(await c.ok(['get', 'events', '-o', 'json', '--field-selector', `involvedObject.name=${pod}`])) as { items: { reason: string; message: string; type: string; source?: { component?: string } }[] };
  return list.items;
}

function aliveCount(logs: string): number {
  const m = [...logs.matchAll(/^alive (\d+)$/gm)];
  return m.length ? Number(m[m.length - 1]![1]) : 0;
}

/** The host pid of a container's init, from its runc state. */
function containerPid(c: UpCluster, containerID: string): number {
  const id = containerID.replace(/^runc:\/\//, '');
  const state = JSON.parse(execFileSync('runc', ['--root', join(c.dataDir, 'agent', 'state', 'runc'), 'state', id], { encoding: 'utf8' })) as { pid: number };
  return state.pid;
}

/** The memory cgroup of a process, below the memory hierarchy's mount point. */
function memcgOf(pid: number, controller = 'memory'): string {
  const line = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n').find((l) => l.split(':')[1]?.split(',').includes(controller));
  if (!line) throw new Error(`no ${controller} cgroup for pid ${pid}`);
  return line.split(':')[2]!;
}

/** `kubectl get pods --watch`, one line per object seen: `<pod>|<containers>|<exit codes>|<reasons>` (space-separated lists). */
function watchPods(c: UpCluster, namespace: string): { lines: () => string[]; stop: () => void } {
  // No {range}: kubectl's jsonpath printer fails on the second watched object with one.
  const cs = '.status.containerStatuses[*]';
  const format = `jsonpath={.metadata.name}|{${cs}.name}|{${cs}.state.terminated.exitCode}|{${cs}.state.terminated.reason}{"\\n"}`;
  const p = spawn('kubectl', ['--cache-dir', join(c.dir, 'kube-cache'), 'get', 'pods', '-n', namespace, '--watch', '-o', format], { env: { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir }, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  return { lines: () => out.split('\n'), stop: () => p.kill() };
}

describe('end to end on the real kernel: the OOM kill mode and ulimits test plans', skip, () => {
  let v1: UpCluster;
  let emu: UpCluster;

  before(async () => {
    [v1, emu] = await Promise.all([startUp(nodeFlags), startUp([...nodeFlags, '--oom-group-emulation'])]);
  });

  after(async () => {
    await Promise.all([v1?.stop(), emu?.stop()]);
  });

  it('the node registers with the declared size and what it can enforce', async () => {
    const node = JSON.parse(await v1.ok(['get', 'node', v1.nodeName, '-o', 'json'])) as { metadata: { annotations: Record<string, string> }; status: { capacity: Record<string, string>; allocatable: Record<string, string>; declaredFeatures?: string[]; conditions: { type: string; status: string }[] } };
    assert.equal(node.status.capacity.memory, '4Gi');
    assert.equal(node.status.capacity.cpu, '2');
    assert.equal(node.status.allocatable.memory, `${4 * 1024 - 100}Mi`, 'allocatable = capacity − the hard memory eviction threshold');
    // ephemeral-storage: the data directory's filesystem, less nodefs.available's default 10% (float32 0.1, as the kubelet).
    const fs = statfsSync(v1.dataDir, { bigint: true });
    const storage = fs.blocks * fs.bsize;
    assert.equal(Quantity.parse(node.status.capacity['ephemeral-storage']!).value(), storage);
    assert.equal(Quantity.parse(node.status.allocatable['ephemeral-storage']!).value(), storage - BigInt(Math.trunc(Number(storage) * Math.fround(0.1))));
    assert.ok(node.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'));
    assert.deepEqual(node.status.declaredFeatures, ['ContainerUlimits']);
    const caps = JSON.parse(node.metadata.annotations['bulkhead.dev/node-capabilities']!) as { cgroupVersion: number; oomGroup: string; minOOMScoreAdj: number; hardRlimitCeilings: Record<string, string> };
    assert.equal(caps.cgroupVersion, 1);
    assert.equal(caps.oomGroup, 'unsupported');
    const emuCaps = JSON.parse(JSON.parse(await emu.ok(['get', 'node', emu.nodeName, '-o', 'json'])).metadata.annotations['bulkhead.dev/node-capabilities']) as { oomGroup: string };
    assert.equal(emuCaps.oomGroup, 'emulated');
    // The node cgroup really holds the declared size.
    const mem = probeCgroups().v1.memory!;
    assert.equal(readFileSync(join(mem, v1.cgroupRoot, 'kubepods', 'memory.limit_in_bytes'), 'utf8').trim(), String(4 * 1024 ** 3));
  });

  it('Single: a multi-process container loses only the hog and keeps serving', async () => {
    await v1.ok(['apply', '-f', v1.file('single.yaml', podYAML('single', hogContainer('web', 'Single')))]);
    const ev = await v1.until('an OOMKilling event naming the hog', async () => (await events(v1, 'single')).find((e) => e.reason === 'OOMKilling'), 60_000);
    assert.match(ev.message, /Killed process \d+ \(tail\) in container web/);
    assert.equal(ev.type, 'Warning');
    const before = aliveCount(await v1.ok(['logs', 'single']));
    await new Promise((r) => setTimeout(r, 1000));
    const p = await v1.pod('single');
    const cs = containerStatus(p, 'web')!;
    assert.ok(cs.state.running, `still running: ${JSON.stringify(cs)}`);
    assert.equal(cs.restartCount, 0);
    assert.equal(p.status.phase, 'Running');
    assert.ok(aliveCount(await v1.ok(['logs', 'single'])) > before, 'the shell kept printing after the hog was killed');
    assert.match(await v1.agentGet('/metrics'), /^container_oom_events_by_mode\{mode="Single"\} [1-9]/m);
  });

  it('Group on a cgroup v1 node is refused with the design\'s message, event and metric', async () => {
    await v1.ok(['apply', '-f', v1.file('group.yaml', podYAML('group', hogContainer('db', 'Group')))]);
    const cs = await v1.until('CreateContainerConfigError', async () => {
      const s = containerStatus(await v1.pod('group'), 'db');
      return s?.state.waiting?.reason === 'CreateContainerConfigError' ? s : undefined;
    });
    assert.equal(cs.state.waiting!.message, 'oomKillMode=Group requires cgroup v2 support on the node (run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node)');
    const describe = await v1.ok(['describe', 'pod', 'group']);
    assert.match(describe, /Warning\s+Failed\s+.*Error: oomKillMode=Group requires cgroup v2 support on the node \(run the node agent with --oom-group-emulation, or schedule the pod to a cgroup v2 node\)/);
    assert.equal((await v1.pod('group')).status.phase, 'Pending');
    assert.match(await v1.agentGet('/metrics'), /^container_oom_config_errors_total [1-9]/m);
  });

  it('Group with --oom-group-emulation: the first OOM kill takes the whole container', async () => {
    await emu.ok(['apply', '-f', emu.file('group.yaml', podYAML('group', hogContainer('db', 'Group'), '  restartPolicy: Never\n'))]);
    const cs = await emu.until('the container terminated', async () => {
      const s = containerStatus(await emu.pod('group'), 'db');
      return s?.state.terminated ? s : undefined;
    }, 60_000);
    assert.equal(cs.state.terminated!.exitCode, 137);
    assert.equal(cs.state.terminated!.reason, 'OOMKilled');
    assert.equal((await emu.pod('group')).status.phase, 'Failed');
    const metrics = await emu.agentGet('/metrics');
    assert.match(metrics, /^container_oom_events_by_mode\{mode="Group"\} [1-9]/m);
    const latency = /^bulkhead_oom_group_kill_emulation_seconds_sum ([\d.e-]+)$/m.exec(metrics);
    assert.ok(latency && Number(latency[1]) > 0, `group kill latency recorded: ${latency?.[1]}`);
  });

  it('a pod with containers in different modes: the Single one keeps running, the Group one dies whole', async () => {
    await emu.ok(['apply', '-f', emu.file('mixed.yaml', podYAML('mixed', hogContainer('single', 'Single') + hogContainer('group', 'Group')))]);
    const p = await emu.until('the Group container restarted after its OOM kill', async () => {
      const q = await emu.pod('mixed');
      const g = containerStatus(q, 'group');
      return g && g.restartCount >= 1 ? q : undefined;
    }, 60_000);
    const g = containerStatus(p, 'group')!;
    assert.equal(g.lastState?.terminated?.reason, 'OOMKilled');
    assert.equal(g.lastState?.terminated?.exitCode, 137);
    const s = containerStatus(p, 'single')!;
    assert.equal(s.restartCount, 0, 'the Single container was not restarted');
    assert.ok(s.state.running);
    const ev = (await events(emu, 'mixed')).filter((e) => e.reason === 'OOMKilling').map((e) => e.message);
    assert.ok(ev.some((m) => /in container single; oomKillMode Single/.test(m)), ev.join('\n'));
    assert.ok(ev.some((m) => /in container group; oomKillMode Group \(emulated\)/.test(m)), ev.join('\n'));
  });

  it('ulimits, oom_score_adj and cgroup values read back from the kernel equal what bulkhead plan printed', async () => {
    const yaml = podYAML('limits', `  - name: c
    image: busybox
    command: ["sh", "-c", "cat /proc/self/limits; echo oom_score_adj=$(cat /proc/self/oom_score_adj); sleep 3600"]
    resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 500m, memory: 128Mi}}
    securityContext:
      ulimits:
      - {name: nofile, soft: 1024, hard: 4096}
      - {name: core, soft: 0, hard: -1}
`);
    const file = v1.file('limits.yaml', yaml);
    const plan = JSON.parse((await v1.bulkhead(['plan', file, ...nodeFlags, '-o', 'json'])).stdout) as {
      pods: { podCgroup: { path: string; values: Record<string, string> }; containers: { oomScoreAdj: number; cgroup: Record<string, string>; rlimits: { type: string; soft: number | string; hard: number | string }[] }[] }[];
    };
    const planned = plan.pods[0]!;
    await v1.ok(['apply', '-f', file]);
    const logs = await v1.until('the container printed its limits', async () => {
      const l = (await v1.kubectl(['logs', 'limits'])).stdout;
      return /oom_score_adj=/.test(l) ? l : undefined;
    }, 60_000);
    // /proc/self/limits inside the container.
    const row = (label: string) => {
      const m = new RegExp(`^${label}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(logs);
      assert.ok(m, `${label} in /proc/self/limits:\n${logs}`);
      return { soft: m![1], hard: m![2] };
    };
    const want = (t: string) => planned.containers[0]!.rlimits.find((r) => r.type === t)!;
    const show = (v: number | string) => (v === 'unlimited' ? 'unlimited' : String(v));
    assert.deepEqual(row('Max open files'), { soft: show(want('RLIMIT_NOFILE').soft), hard: show(want('RLIMIT_NOFILE').hard) });
    assert.deepEqual(row('Max core file size'), { soft: show(want('RLIMIT_CORE').soft), hard: show(want('RLIMIT_CORE').hard) });
    // oom_score_adj: Burstable, so the plan's value is one this host can grant.
    assert.match(logs, new RegExp(`^oom_score_adj=${planned.containers[0]!.oomScoreAdj}$`, 'm'));
    const p = await v1.pod('limits');
    // The kubelet's conditions, in its order (generateAPIPodStatus appends PodScheduled last), with
    // the agent's OOM kill mode report before PodScheduled.
    const conds = (p.status as { conditions?: { type: string; status: string }[] }).conditions ?? [];
    assert.deepEqual(conds.map((c) => `${c.type}=${c.status}`), ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'bulkhead.dev/OOMKillMode=True', 'PodScheduled=True']);
    const pid = containerPid(v1, containerStatus(p, 'c')!.containerID!);
    assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), String(planned.containers[0]!.oomScoreAdj));
    // Cgroup files: the pod cgroup at the planned path (with the real uid) and the container's.
    const roots = probeCgroups().v1;
    const podPath = join(v1.cgroupRoot, planned.podCgroup.path.replace(/pod[0-9a-f-]+$/, `pod${p.metadata.uid}`));
    for (const [f, v] of Object.entries(planned.podCgroup.values)) {
      assert.equal(readFileSync(join(roots[f.split('.')[0]!]!, podPath, f), 'utf8').trim(), v, `pod cgroup ${f}`);
    }
    const containerCg = memcgOf(pid);
    assert.ok(containerCg.startsWith(podPath + '/'), `container cgroup ${containerCg} is below the pod cgroup ${podPath}`);
    for (const [f, v] of Object.entries(planned.containers[0]!.cgroup)) {
      assert.equal(readFileSync(join(roots[f.split('.')[0]!]!, memcgOf(pid, f.split('.')[0]!), f), 'utf8').trim(), v, `container cgroup ${f}`);
    }
  });

  it('a Guaranteed container gets the oom_score_adj plan --this-host says the host applies instead of -997', async () => {
    const file = v1.file('guaranteed.yaml', podYAML('guaranteed', `  - name: c
    image: busybox
    command: ["sleep", "3600"]
    resources: {requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: 100m, memory: 32Mi}}
`));
    const plan = JSON.parse((await v1.bulkhead(['plan', file, ...nodeFlags, '--this-host', '-o', 'json'])).stdout) as { pods: { containers: { oomScoreAdj: number; onHost: { oomScoreAdj: number; adjustments: string[] } }[] }[] };
    const c = plan.pods[0]!.containers[0]!;
    assert.equal(c.oomScoreAdj, -997);
    await v1.ok(['apply', '-f', file]);
    const p = await v1.until('guaranteed running', async () => {
      const q = await v1.pod('guaranteed');
      return containerStatus(q, 'c')?.state.running ? q : undefined;
    }, 60_000);
    const pid = containerPid(v1, containerStatus(p, 'c')!.containerID!);
    assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), String(c.onHost.oomScoreAdj));
    const adjusted = (await events(v1, 'guaranteed')).filter((e) => e.reason === 'HostAdjusted');
    const ev = adjusted.find((e) => !e.message.includes('pod sandbox'));
    assert.ok(ev, 'a HostAdjusted event');
    for (const a of c.onHost.adjustments) assert.ok(ev.message.includes(a), `event names "${a}": ${ev.message}`);
    // The sandbox's -998 is clamped the same way, and said so once.
    if (c.onHost.oomScoreAdj > -998) {
      assert.deepEqual(adjusted.filter((e) => e.message.includes('pod sandbox')).map((e) => e.message), [`the host could not apply the planned values to the pod sandbox: oom_score_adj -998 applied as ${c.onHost.oomScoreAdj}: this host cannot set negative values (no CAP_SYS_RESOURCE)`]);
    }
  });

  it('kubectl get pods -o wide shows the OOM kill mode the node applies and where it comes from', async () => {
    // Pods of the tests above: no oomKillMode, Single on the container, Group refused on v1.
    const rows: [pod: string, column: string][] = [
      ['guaranteed', 'Single (default)'],
      ['single', 'Single (container)'],
      ['group', 'Group (container) ERROR'],
    ];
    for (const [pod] of rows) {
      await v1.until(`${pod}: the agent reports its OOM kill mode`, async () => ((await v1.pod(pod)).status.conditions ?? []).find((c) => c.type === 'bulkhead.dev/OOMKillMode'));
    }
    const wide = await v1.ok(['get', 'pods', '-o', 'wide']);
    assert.match(wide, /\sQOS\s+OOM KILL MODE$/m);
    for (const [pod, column] of rows) {
      const line = wide.split('\n').find((l) => l.startsWith(`${pod} `));
      assert.ok(line?.endsWith(`   ${column}`), `${pod}: ${JSON.stringify(line)}`);
    }
  });

  // `kubectl delete -f examples/` must not wait out every grace period: each example container
  // exits 0 on SIGTERM (a shell as PID 1 ignores it without a trap, and is SIGKILLed after 30 s: 137).
  const exampleRows: { file: string; namespace: string; pods: string[] }[] = [
    { file: 'examples/qos-trio.yaml', namespace: 'qos', pods: ['guaranteed', 'burstable', 'besteffort'] },
    { file: 'examples/oom-kill-modes.yaml', namespace: 'shop', pods: ['web-and-db'] },
  ];
  for (const r of exampleRows) {
    it(`kubectl delete -f ${r.file}: every container exits 0 on SIGTERM, none is killed after the grace period`, async () => {
      await emu.ok(['apply', '-f', r.file]);
      await emu.until(`${r.file} running`, async () => {
        const list = JSON.parse(await emu.ok(['get', 'pods', '-n', r.namespace, '-o', 'json'])) as { items: PodJSON[] };
        const running = list.items.filter((p) => (p.status.containerStatuses ?? []).length > 0 && p.status.containerStatuses!.every((cs) => cs.state.running));
        return running.length === r.pods.length ? true : undefined;
      }, 60_000);
      const watch = watchPods(emu, r.namespace);
      try {
        await emu.until('the watch listing the pods', async () => (r.pods.every((p) => watch.lines().some((l) => l.startsWith(`${p}|`))) ? true : undefined));
        await emu.ok(['delete', '-f', r.file, '--timeout=120s']);
        // The agent writes the containers' terminated state before it deletes the pod.
        for (const pod of r.pods) {
          const last = await emu.until(`${pod}: terminated state seen`, async () =>
            watch.lines().map((l) => l.split('|')).filter(([name, containers, codes]) => name === pod && containers && codes && codes.split(' ').length === containers.split(' ').length).at(-1),
          );
          const [, containers, codes, reasons] = last;
          assert.deepEqual({ codes: codes!.split(' '), reasons: reasons!.split(' ') }, { codes: containers!.split(' ').map(() => '0'), reasons: containers!.split(' ').map(() => 'Completed') }, `${pod}: ${last.join('|')}`);
        }
      } finally {
        watch.stop();
      }
    });
  }

  it('a pod needing ulimits above what the node can grant stays Pending with a clear reason', async () => {
    await v1.ok(['apply', '-f', 'examples/elasticsearch-nofile.yaml']);
    const cond = await v1.until('PodScheduled=False', async () => {
      const p = await v1.pod('elasticsearch', 'search');
      return p.status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    });
    assert.equal(cond.reason, 'Unschedulable');
    // The reason names each limit and the ceiling the node declares (the agent's own hard limits).
    const node = JSON.parse(await v1.ok(['get', 'node', v1.nodeName, '-o', 'json'])) as { metadata: { annotations: Record<string, string> } };
    const ceilings = (JSON.parse(node.metadata.annotations['bulkhead.dev/node-capabilities']!) as { hardRlimitCeilings: Record<string, string> }).hardRlimitCeilings;
    const detail = `nofile hard 65535 > node ceiling ${ceilings.RLIMIT_NOFILE}, memlock hard unlimited > node ceiling ${ceilings.RLIMIT_MEMLOCK}`;
    assert.equal(cond.message, `0/1 nodes are available: 1 node(s) cannot grant the Pod's hard ulimits (${detail}). preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`);
    assert.equal((await v1.pod('elasticsearch', 'search')).status.phase, 'Pending');
    assert.ok((await v1.ok(['describe', 'pod', 'elasticsearch', '-n', 'search'])).includes(`0/1 nodes are available: 1 node(s) cannot grant the Pod's hard ulimits (${detail})`));
  });

  it('a hostNetwork pod has its node\'s IP as pod IP, in its status and in its env (fieldRef status.podIP / status.hostIP)', async () => {
    await v1.ok(['apply', '-f', v1.file('hostnet.yaml', podYAML('hostnet', `  - name: c
    image: busybox
    command: ["sh", "-c", "echo pod=$POD_IP host=$HOST_IP; sleep 3600"]
    env:
    - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
    - {name: HOST_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}
`, '  hostNetwork: true\n'))]);
    const logs = await v1.until('hostnet printed its addresses', async () => {
      const l = (await v1.kubectl(['logs', 'hostnet'])).stdout;
      return /pod=/.test(l) ? l : undefined;
    }, 60_000);
    const p = await v1.pod('hostnet');
    const st = p.status as { hostIP?: string; podIP?: string; podIPs?: { ip: string }[] };
    assert.ok(st.hostIP, 'hostIP set');
    assert.equal(st.podIP, st.hostIP);
    assert.deepEqual(st.podIPs, [{ ip: st.hostIP }]);
    assert.equal(logs.trim(), `pod=${st.hostIP} host=${st.hostIP}`);
    await v1.ok(['delete', 'pod', 'hostnet', '--wait=false']);
  });

  it('env from resourceFieldRef: the container\'s limit, or the node\'s allocatable for one it does not set (the downward API), ephemeral-storage too, and the master service\'s variables', async () => {
    await v1.ok(['apply', '-f', v1.file('downward-env.yaml', podYAML('downward-env', `  - name: c
    image: busybox
    command: ["sh", "-c", "echo mem=$MEM cpu=$CPU eph=$EPH svc=$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT; sleep 3600"]
    resources: {limits: {memory: 64Mi}, requests: {ephemeral-storage: 1Gi}}
    env:
    - {name: MEM, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
    - {name: CPU, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}}
    - {name: EPH, valueFrom: {resourceFieldRef: {resource: limits.ephemeral-storage}}}
`))]);
    const logs = await v1.until('downward-env printed its limits', async () => {
      const l = (await v1.kubectl(['logs', 'downward-env'])).stdout;
      return /mem=/.test(l) ? l : undefined;
    }, 60_000);
    const cpu = await v1.ok(['get', 'node', v1.nodeName, '-o', 'jsonpath={.status.allocatable.cpu}']);
    const milli = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
    // Scheduled at all: it requests ephemeral-storage, which the node must report.
    const eph = Quantity.parse(await v1.ok(['get', 'node', v1.nodeName, '-o', 'jsonpath={.status.allocatable.ephemeral-storage}'])).value();
    // The master service's variables, as the kubelet gives every container (getServiceEnvVarMap).
    const master = await v1.ok(['get', 'service', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.spec.clusterIP}:{.spec.ports[0].port}']);
    assert.equal(logs.trim(), `mem=64 cpu=${milli} eph=${eph} svc=${master}`);
    await v1.ok(['delete', 'pod', 'downward-env', '--wait=false']);
  });

  it('Pod Security baseline refuses ulimits', async () => {
    const r = await v1.kubectl(['create', '-f', 'examples/refused/ulimits-baseline.yaml']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /violates PodSecurity "baseline:latest": ulimits \(container "elasticsearch" must not set securityContext\.ulimits\)/);
  });

  it('after an agent restart it adopts running containers: nothing started twice', async () => {
    await v1.ok(['apply', '-f', v1.file('adopt.yaml', podYAML('adopt', `  - name: c
    image: busybox
    command: ["sh", "-c", "i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.2; done"]
`))]);
    const before = await v1.until('adopt running', async () => {
      const p = await v1.pod('adopt');
      return containerStatus(p, 'c')?.state.running ? p : undefined;
    }, 60_000);
    const id = containerStatus(before, 'c')!.containerID!;
    const pid = containerPid(v1, id);
    await v1.restart();
    await new Promise((r) => setTimeout(r, 1500));
    const after = await v1.pod('adopt');
    const cs = containerStatus(after, 'c')!;
    assert.equal(cs.containerID, id, 'the same container');
    assert.equal(cs.restartCount, 0);
    assert.ok(cs.state.running);
    assert.equal(containerPid(v1, id), pid, 'the same process, not a second start');
    const ids = execFileSync('runc', ['--root', join(v1.dataDir, 'agent', 'state', 'runc'), 'list', '-q'], { encoding: 'utf8' }).split('\n').filter((x) => x.startsWith(after.metadata.uid));
    assert.equal(ids.length, 2, `one sandbox and one container: ${ids.join(' ')}`);
    // The restarted agent serves its logs and stops the pod when it is deleted.
    assert.match(await v1.ok(['logs', 'adopt', '--tail', '1']), /^tick \d+$/m);
    await v1.ok(['delete', 'pod', 'adopt', '--grace-period=1']);
    const left = execFileSync('runc', ['--root', join(v1.dataDir, 'agent', 'state', 'runc'), 'list', '-q'], { encoding: 'utf8' }).split('\n').filter((x) => x.startsWith(after.metadata.uid));
    assert.deepEqual(left, [], 'nothing of the pod is left in the runtime');
    // Nor on disk: the pod's log directory goes once the pod is gone from the API.
    const logDir = join(v1.dataDir, 'agent', 'run', 'logs', `default_adopt_${after.metadata.uid}`);
    await v1.until(`${logDir} removed`, async () => (existsSync(logDir) ? undefined : true));
  });
});

describe('end to end on the real kernel: node memory pressure', skip, () => {
  let small: UpCluster;
  before(async () => {
    // A 700Mi node whose hard threshold is 520Mi available: a BestEffort pod holding ~240Mi trips it.
    small = await startUp(['--node-memory', '700Mi', '--node-cpu', '2', '--eviction-hard', 'memory.available<520Mi']);
  });
  after(async () => {
    await small?.stop();
  });

  it('evicts the BestEffort pod over its request, keeps the Guaranteed one, reports MemoryPressure and keeps new BestEffort pods off the node', async () => {
    await small.ok(['apply', '-f', small.file('g.yaml', podYAML('steady', `  - name: c
    image: busybox
    command: ["sleep", "3600"]
    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}
`))]);
    await small.until('steady running', async () => ((await small.pod('steady')).status.phase === 'Running' ? true : undefined), 60_000);
    await small.ok(['apply', '-f', small.file('hog.yaml', podYAML('hog', `  - name: c
    image: busybox
    command: ["sh", "-c", "x=$(head -c 250000000 /dev/zero | tr '\\\\0' a); echo held; sleep 3600"]
`))]);
    const hog = await small.until('the hog evicted', async () => {
      const p = await small.pod('hog');
      return p.status.phase === 'Failed' ? p : undefined;
    }, 60_000);
    const st = hog.status as { reason?: string; message?: string; conditions?: { type: string; reason?: string }[] };
    assert.equal(st.reason, 'Evicted');
    // The kubelet's per-container sentence: the agent read the container's own memcg.
    assert.match(st.message ?? '', /^The node was low on resource: memory\. Threshold quantity: 520Mi, available: -?\d+(Ki|Mi)?\. Container c was using \d+(Ki|Mi|Gi)?, request is 0, has larger consumption of memory\. $/);
    assert.ok(st.conditions?.some((c) => c.type === 'DisruptionTarget' && c.reason === 'TerminationByKubelet'));
    assert.equal((await small.pod('steady')).status.phase, 'Running', 'the Guaranteed pod stays');
    const node = JSON.parse(await small.ok(['get', 'node', small.nodeName, '-o', 'json'])) as { spec: { taints?: { key: string }[] }; status: { conditions: { type: string; status: string }[] } };
    assert.ok(node.status.conditions.some((c) => c.type === 'MemoryPressure' && c.status === 'True'));
    assert.ok(node.spec.taints?.some((t) => t.key === 'node.kubernetes.io/memory-pressure'));
    await small.ok(['apply', '-f', small.file('late.yaml', podYAML('late', `  - name: c
    image: busybox
    command: ["sleep", "3600"]
`))]);
    const cond = await small.until('the new BestEffort pod unschedulable', async () => (await small.pod('late')).status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False'));
    assert.equal(cond.message, '0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
  });
});
