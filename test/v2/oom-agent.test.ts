// The agent's cgroup v2 OOM reporting end to end on the real kernel (pure cgroup v2 guest:
// scripts/vm.sh), with an in-process API server and a stand-in pod runtime: the agent finds the
// container cgroup below kubepods (containerByMemcg), watches its memory.events, names the victim
// from /dev/kmsg and records the OOMKilling event and the metric by mode — a Single container
// keeps running (its init survives), a Group container is killed whole by the kernel
// (memory.oom.group) and the event says so. Processes placed in cgroups this test makes stand in
// for containers (as test/agent/oom.test.ts does on v1). Skips, saying why, off a pure-v2 host.
// Run: npx --no-install tsc -p . && scripts/vm.sh -- node --test dist/test/v2/oom-agent.test.js

import { delegatingAuthenticator } from '../../src/agent/endpointauth.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeCgroups } from '../../src/agent/runtime/hostprobe.js';
import { Agent, type MemcgOwner, type PodRuntime } from '../../src/agent/agent.js';
import type { CgroupManager } from '../../src/agent/cgroups/manager.js';
import { connectAgent, type AgentConnection } from '../../src/agent/connect.js';
import { AgentMetrics } from '../../src/agent/metrics.js';
import type { NodeCgroups } from '../../src/agent/nodecgroups.js';
import type { NodeFacts } from '../../src/agent/nodeobject.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Event, Pod } from '../../src/api/types.js';
import type { NodeConfig } from '../../src/plan/node.js';
import { HttpClient } from '../../src/client/http.js';
import { eventsRef, podsRef } from '../../src/client/resources.js';
import { startServer, type RunningServer } from '../../src/server/start.js';

const busybox = '/bin/busybox';
const cgRoot = '/sys/fs/cgroup';

function whyNot(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (run it in the cgroup v2 guest: scripts/vm.sh -- node --test dist/test/v2/oom-agent.test.js)';
  const cg = probeCgroups();
  if (cg.mode !== 'v2' || cg.memoryVersion !== 2 || cg.unified !== cgRoot) return `this host is not pure cgroup v2 at ${cgRoot} (mode ${cg.mode}, memory on v${cg.memoryVersion}): run it in the guest, scripts/vm.sh -- node --test dist/test/v2/oom-agent.test.js`;
  if (!readFileSync(join(cgRoot, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('memory')) return `the memory controller is not enabled in ${cgRoot}/cgroup.subtree_control`;
  if (!existsSync(busybox)) return `${busybox} is missing (apt-get install busybox-static)`;
  return undefined;
}
const skip = whyNot();
if (skip) process.stderr.write(`\n*** SKIPPED test/v2/oom-agent: ${skip} ***\n\n`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await what();
    if (v !== undefined && v !== false) return v;
    await sleep(20);
  }
}

interface Proc {
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | null>;
}
function startIn(dir: string, cmd: string): Proc {
  const child = spawn(busybox, ['sh', '-c', `echo $$ > ${dir}/cgroup.procs && exec ${cmd}`], { stdio: 'ignore' });
  return { child, exited: new Promise((resolve) => child.once('exit', (_c, s) => resolve(s))) };
}
const procsOf = (dir: string) => readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);

describe('agent OOM reporting on cgroup v2 (real kernel)', { skip }, () => {
  const top = `/bulkhead-test-agent-${process.pid}`;
  const kubepods = `${top}/kubepods`;
  const podUID = `uid-${process.pid}`;
  const podPath = `${kubepods}/pod${podUID}`;
  const ctr = (name: string) => `${podPath}/${podUID}-${name}`;
  const modes: Record<string, 'Single' | 'Group'> = { single: 'Single', group: 'Group' };
  const procs: Proc[] = [];
  const inits: Record<string, number> = {};
  let s: RunningServer;
  let dir: string;
  let agent: Agent;
  let admin: HttpClient;
  let conn: AgentConnection;
  const metrics = new AgentMetrics();

  /** The uid the API server gave the pod (the agent keys its pods by it). */
  let apiUID = '';
  const owner = (name: string): MemcgOwner => ({ podUID: apiUID, namespace: 'default', pod: 'oom', container: name, containerID: `runc://${podUID}-${name}`, oomKillMode: modes[name]!, emulated: false, cgroupDir: join(cgRoot, ctr(name)) });
  const runtime: PodRuntime = {
    sync: async () => ({ status: { phase: 'Running' } }),
    terminate: async () => ({ done: true, status: { phase: 'Failed' } }),
    remove: async () => undefined,
    knownPods: async () => [],
    containerByMemcg: (p) => Object.keys(modes).map((n) => (p === ctr(n) ? owner(n) : undefined)).find(Boolean),
    logPath: () => undefined,
    exitDir: '',
    podUIDOfContainer: () => undefined,
    containerRunning: () => true,
    containerPid: async (id) => inits[id.replace(`runc://${podUID}-`, '')],
  };
  const cgroups = {
    version: 2,
    memoryDir: (p: string) => join(cgRoot, p),
    oomEventsFile: (p: string) => join(cgRoot, p, 'memory.events'),
    pidIn: (pid: number, p: string) => {
      try {
        return readFileSync(`/proc/${pid}/cgroup`, 'utf8').trim() === `0::${p}`;
      } catch {
        return false;
      }
    },
  } as unknown as CgroupManager;
  const nodeCgroups = { kubepods, ensure: () => undefined, updateTiers: () => undefined, removeUnused: () => [] } as unknown as NodeCgroups;

  before(async () => {
    if (skip) return;
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-v2oom-'));
    Object.assign(runtime, { exitDir: join(dir, 'exits') });
    for (const p of [top, kubepods, podPath]) {
      mkdirSync(join(cgRoot, p));
      writeFileSync(join(cgRoot, p, 'cgroup.subtree_control'), '+memory');
    }
    for (const [name, mode] of Object.entries(modes)) {
      const d = join(cgRoot, ctr(name));
      mkdirSync(d);
      writeFileSync(join(d, 'memory.max'), String(32 << 20));
      if (existsSync(join(d, 'memory.swap.max'))) writeFileSync(join(d, 'memory.swap.max'), '0');
      writeFileSync(join(d, 'memory.oom.group'), mode === 'Group' ? '1' : '0');
      // The first process stands for the container's init.
      for (let i = 0; i < 3; i++) procs.push(startIn(d, `${busybox} sleep 1000`));
      await until(() => procsOf(d).length === 3);
      inits[name] = procsOf(d).sort((a, b) => a - b)[0]!;
    }
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    admin = new HttpClient({ server: s.url, ca: s.caCert, token: s.adminToken });
    const facts: NodeFacts = {
      name: 'v2n', memoryBytes: 2n << 30n, milliCPU: 2000n, maxPods: 110, evictionHardMemoryBytes: 100n << 20n, internalIP: '127.0.0.1', hostname: 'v2n', kernelVersion: 'test', osImage: 'test', architecture: 'amd64', machineID: 'm', bootID: 'b',
      containerRuntimeVersion: 'crun://1.8.1', capabilities: { cgroupVersion: 2, oomGroup: 'native', minOOMScoreAdj: -1000, hardRlimitCeilings: {} }, ulimits: true,
    };
    const log = (m: string) => void process.stderr.write(`agent: ${m}\n`);
    conn = connectAgent({ server: s.url, ca: s.caCert, token: s.nodeToken('v2n') }, 'v2n', log);
    agent = new Agent({
      client: conn.client,
      pods: conn.pods,
      events: conn.events,
      endpointSecurity: { tls: { ...(await s.nodeServingCert('v2n', ['127.0.0.1'])), clientCA: s.caCert }, auth: delegatingAuthenticator(conn.client, 'v2n') },
      facts,
      node: { memoryBytes: facts.memoryBytes, milliCPU: facts.milliCPU, cgroupVersion: 2, cgroupDriver: 'cgroupfs', oomGroupEmulation: false } as NodeConfig,
      gates: defaultFeatureGates,
      runtime,
      metrics,
      nodeCgroups,
      cgroups,
      endpoint: { host: '127.0.0.1', port: 0 },
      log,
    });
    await agent.start();
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'oom', namespace: 'default', uid: podUID }, spec: { nodeName: 'v2n', containers: [{ name: 'single', image: 'busybox' }, { name: 'group', image: 'busybox' }] } };
    apiUID = (await admin.create<Pod>(podsRef, 'default', pod)).metadata.uid!;
    await until(async () => (await admin.get<Pod>(podsRef, 'default', 'oom')).status?.phase === 'Running');
  });

  after(async () => {
    await agent?.stop();
    conn?.close();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    for (const p of [...Object.keys(modes).map(ctr), podPath, kubepods, top]) {
      for (let i = 0; existsSync(join(cgRoot, p)); i++) {
        try {
          rmdirSync(join(cgRoot, p));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EBUSY' || i > 200) throw e;
          await sleep(10);
        }
      }
    }
    admin?.close();
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const oomEvents = async (): Promise<string[]> => {
    const list = await admin.list<Event>(eventsRef, 'default');
    return list.items.filter((e) => e.reason === 'OOMKilling').map((e) => e.message ?? '');
  };

  it('Single: a helper killed, the container keeps running, the event names it', async () => {
    const d = join(cgRoot, ctr('single'));
    const grower = startIn(d, `${busybox} tail /dev/zero`);
    procs.push(grower);
    assert.equal(await grower.exited, 'SIGKILL');
    const msg = await until(async () => (await oomEvents()).find((m) => m.includes('container single')));
    assert.equal(msg, `Memory cgroup out of memory: Killed process ${grower.child.pid} (busybox) in container single; oomKillMode Single: the container keeps running`);
    assert.equal(procsOf(d).length, 3, 'the three others keep running');
    assert.match(await metrics.render(), /container_oom_events_by_mode\{mode="Single"\} 1/);
  });

  it('Group: the kernel kills the whole container, the event says so, nothing is emulated', async () => {
    const d = join(cgRoot, ctr('group'));
    const grower = startIn(d, `${busybox} tail /dev/zero`);
    procs.push(grower);
    assert.equal(await grower.exited, 'SIGKILL');
    const msg = await until(async () => (await oomEvents()).find((m) => m.includes('container group')));
    process.stderr.write(`OOMKilling: ${msg}\n`);
    assert.match(msg, new RegExp(`^Memory cgroup out of memory: Killed process ${grower.child.pid} \\(busybox\\) in container group; oomKillMode Group: the kernel killed all \\d+ processes of the container \\(memory\\.oom\\.group\\)$`));
    await until(() => procsOf(d).length === 0);
    const rendered = await metrics.render();
    assert.match(rendered, /container_oom_events_by_mode\{mode="Group"\} 1/);
    assert.doesNotMatch(rendered, /bulkhead_oom_group_kill_emulation_seconds_count [1-9]/, 'no emulation on v2');
  });
});
