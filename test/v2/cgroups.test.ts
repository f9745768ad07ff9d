// The agent's cgroups on a real pure cgroup v2 kernel (run inside scripts/vm.sh): CgroupV2Manager
// (src/agent/cgroups/v2.ts, after the kubelet's cgroup_v2_manager_linux.go over runc's
// libcontainer/cgroups/fs2) and NodeCgroups make the node cgroup, the QoS tiers and the pod
// cgroups of a Guaranteed, a Burstable (with limits), a BestEffort and, when the guest has
// hugetlb, a hugepages pod; every file is read back from the kernel and must equal the plan
// (src/plan/node.ts planPodOnNode with cgroupVersion 2, and `bulkhead plan --cgroup-version 2`'s
// JSON for the same pods and node). A process in a container-like leaf gives the memory figures
// (cAdvisor's v2 rule) and the eviction manager's node observation. Everything lives below
// /sys/fs/cgroup/bulkhead-test-v2cg-<pid> and is removed afterwards; no other cgroup or process
// is touched, except that ensure() enables missing controllers in the tree root's
// cgroup.subtree_control, as the kubelet and runc do (the guest enables them all at boot).

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CgroupV2Manager } from '../../src/agent/cgroups/v2.js';
import { EvictionManager } from '../../src/agent/eviction/manager.js';
import { NodeCgroups } from '../../src/agent/nodecgroups.js';
import { defaultPod } from '../../src/api/defaults.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod } from '../../src/api/types.js';
import { nodeCgroupConfig, podCgroupFiles, qosTierConfigs, type CgroupFiles } from '../../src/policy/cgroupvalues.js';
import { parseEvictionThresholds } from '../../src/policy/eviction.js';
import { getPodQOS } from '../../src/policy/qos.js';
import { planPodOnNode, type NodeConfig } from '../../src/plan/node.js';

const mount = '/sys/fs/cgroup';
/** cgroup2's statfs f_type (CGROUP2_SUPER_MAGIC). */
const cgroup2Magic = 0x63677270;
// dist/test/v2/cgroups.test.js → the checkout
const checkout = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function controllers(dir: string): string[] {
  try {
    return readFileSync(join(dir, 'cgroup.controllers'), 'utf8').split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

function skipReason(): string | undefined {
  const how = 'it needs a pure cgroup v2 host with the memory controller; run it in scripts/vm.sh (node scripts/run-tests.mjs --tier v2 inside `scripts/vm.sh --`)';
  if (process.platform !== 'linux') return `not Linux: ${how}`;
  if (process.getuid?.() !== 0) return `not root (creating cgroups needs root): ${how}`;
  let type: number;
  try {
    type = statfsSync(mount).type;
  } catch (e) {
    return `${mount} cannot be read (${(e as Error).message}): ${how}`;
  }
  if (type !== cgroup2Magic) return `${mount} is not cgroup2fs (a v1 or hybrid host): ${how}`;
  if (!controllers(mount).includes('memory')) return `${mount}/cgroup.controllers has no memory controller: ${how}`;
  return undefined;
}

const reason = skipReason();
if (reason) console.error(`\n*** SKIPPING the cgroup v2 real-kernel tests: ${reason} ***\n`);

const top = `/bulkhead-test-v2cg-${process.pid}`;
const node: NodeConfig = { memoryBytes: 1536n << 20n, milliCPU: 1500n, cgroupVersion: 2, cgroupDriver: 'cgroupfs' };
const gates = defaultFeatureGates;
const hugetlb = controllers(mount).includes('hugetlb');

/** The manifests as written (the CLI reads these); `pods` are them defaulted, as the API server stores them. */
function manifest(name: string, uid: string, containers: Pod['spec']['containers']): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid }, spec: { containers } } as Pod;
}

const manifests: Pod[] = [
  manifest('guaranteed', 'v2cg-guaranteed', [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } } }]),
  manifest('burstable', 'v2cg-burstable', [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '750m', memory: '256Mi' } } }]),
  manifest('besteffort', 'v2cg-besteffort', [{ name: 'c', image: 'busybox' }]),
  ...(hugetlb
    ? [manifest('hugepages', 'v2cg-hugepages', [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '32Mi', 'hugepages-2Mi': '4Mi' }, limits: { cpu: '100m', memory: '32Mi', 'hugepages-2Mi': '4Mi' } } }])]
    : []),
];
const pods = manifests.map((p) => defaultPod(structuredClone(p), { gates }));

const title = 'cgroup v2: node, tier and pod cgroups from the plan, on the real kernel';
// Skipped as a test (not a suite), so the run's summary counts it as skipped.
if (reason) it(title, { skip: reason }, () => undefined);
else describe(title, () => {
  const m = new CgroupV2Manager({ mount });
  const stateDir = mkdtempSync(join(tmpdir(), 'bulkhead-v2cg-'));
  const nc = new NodeCgroups(top, node, gates, { cgroups: m, hierarchies: m.hierarchies(), createdFile: join(stateDir, 'created.json') });
  const children: ChildProcess[] = [];
  const leaf = `${top}${planPodOnNode(pods[1]!, node, gates).podCgroup.path}/ctr`;

  before(() => {
    if (!hugetlb) console.error('*** the guest has no hugetlb controller: the hugepages pod is left out ***');
  });
  after(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
    // Whatever a failed test left: ours only (the unique top), deepest first.
    if (existsSync(join(mount, top))) m.removeTree(top);
    assert.equal(existsSync(join(mount, top)), false, `left ${join(mount, top)} behind`);
  });

  it('the node cgroup <root>/kubepods gets cpu.weight, cpu.max and memory.max of the node', () => {
    nc.ensure();
    const want = podCgroupFiles(nodeCgroupConfig(node), 2);
    const got = m.readBack(nc.kubepods, want);
    console.error(`kernel ${nc.kubepods}: ${JSON.stringify(got)}`);
    assert.deepEqual(got, { 'cpu.weight': '59', 'cpu.max': '150000 100000', 'memory.max': String(1536n << 20n) });
    assert.deepEqual(got, want);
    console.error(`kernel ${top}/cgroup.subtree_control: ${m.read(top, 'cgroup.subtree_control')}; ${nc.kubepods}/cgroup.subtree_control: ${m.read(nc.kubepods, 'cgroup.subtree_control')}`);
  });

  it('the QoS tiers get cpu.weight for the pods on the node', () => {
    nc.updateTiers(pods);
    const tiers = qosTierConfigs(pods.map((p) => ({ pod: p, qos: getPodQOS(p, gates) })), { gates });
    const rows: [string, CgroupFiles][] = [
      [nc.tierPath('Burstable'), podCgroupFiles(tiers.burstable, 2)],
      [nc.tierPath('BestEffort'), podCgroupFiles(tiers.besteffort, 2)],
    ];
    for (const [path, want] of rows) {
      const got = m.readBack(path, want);
      console.error(`kernel ${path}: ${JSON.stringify(got)}`);
      assert.deepEqual(got, want);
    }
    // The one Burstable pod requests 250m: 256 shares, linear weight 1 + 254·9999/262142 = 10.
    assert.equal(m.read(nc.tierPath('Burstable'), 'cpu.weight'), '10');
    assert.equal(m.read(nc.tierPath('BestEffort'), 'cpu.weight'), '1');
  });

  it('each pod cgroup holds exactly the plan\'s values, and `bulkhead plan --cgroup-version 2` prints the same', () => {
    const dir = join(stateDir, 'manifests');
    mkdirSync(dir);
    for (const p of manifests) writeFileSync(join(dir, `${p.metadata.name}.json`), JSON.stringify(p));
    const cli = spawnSync(
      process.execPath,
      [join(checkout, 'dist', 'src', 'cli', 'main.js'), 'plan', dir, '-o', 'json', '--cgroup-version', '2', '--node-memory', '1536Mi', '--node-cpu', '1500m'],
      { encoding: 'utf8' },
    );
    assert.equal(cli.status, 0, `bulkhead plan failed: ${cli.stderr}`);
    const printed = new Map(
      (JSON.parse(cli.stdout) as { pods: { name: string; podCgroup: { path: string; values: CgroupFiles } }[] }).pods.map((p) => [p.name, p.podCgroup]),
    );
    for (const p of pods) {
      const plan = planPodOnNode(p, node, gates);
      const path = top + plan.podCgroup.path;
      m.ensure(path, plan.podCgroup.values);
      const got = m.readBack(path, plan.podCgroup.values);
      console.error(`kernel ${path} (${plan.qosClass}): ${JSON.stringify(got)}`);
      assert.deepEqual(got, plan.podCgroup.values, p.metadata.name!);
      assert.deepEqual(printed.get(p.metadata.name!), plan.podCgroup, `${p.metadata.name}: the CLI's plan`);
      // memory.current exists everywhere below the node cgroup (the eviction manager reads it), BestEffort included.
      assert.ok(existsSync(join(m.memoryDir(path), 'memory.current')), `${path}: no memory.current`);
    }
    assert.equal(m.read(top + planPodOnNode(pods[2]!, node, gates).podCgroup.path, 'memory.max'), 'max', 'BestEffort: no memory limit');
    const sc = (p: string) => m.read(p, 'cgroup.subtree_control');
    console.error(`kernel cgroup.subtree_control: / ${JSON.stringify(sc(''))}, ${top} ${JSON.stringify(sc(top))}, ${nc.kubepods} ${JSON.stringify(sc(nc.kubepods))}, ${nc.tierPath('Burstable')} ${JSON.stringify(sc(nc.tierPath('Burstable')))}`);
    if (hugetlb) assert.ok(sc(nc.kubepods).split(' ').includes('hugetlb'), 'hugetlb enabled for the hugepages pod below kubepods');
  });

  it('a process in a container leaf: pids, pidIn, populated, and the memory figures (cAdvisor\'s v2 rule)', async () => {
    m.ensure(leaf);
    // The child waits for a line, so its memory is charged here: it is moved in before it allocates.
    const child = spawn(process.execPath, ['-e', 'process.stdin.once("data",()=>{globalThis.b=Buffer.alloc(48<<20,1);console.log("ready")});setInterval(()=>{},1e6)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((res, rej) => {
      child.once('spawn', () => res());
      child.once('error', rej);
    });
    writeFileSync(join(m.dir(leaf), 'cgroup.procs'), String(child.pid));
    const ready = new Promise<void>((res) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && res()));
    child.stdin!.write('go\n');
    await ready;
    assert.deepEqual(m.pids(leaf), [child.pid]);
    assert.equal(m.pidIn(child.pid!, leaf), true);
    assert.equal(m.pidIn(process.pid, leaf), false);
    console.error(`kernel ${leaf}/cgroup.events: ${JSON.stringify(readFileSync(m.populatedEventsFile(leaf)!, 'utf8'))}`);
    assert.match(readFileSync(m.populatedEventsFile(leaf)!, 'utf8'), /^populated 1$/m);

    const podPath = dirname(leaf);
    const mem = m.memory(podPath, true)!;
    const stat = readFileSync(join(m.memoryDir(podPath), 'memory.stat'), 'utf8');
    console.error(`kernel ${podPath}: memory.current ${m.read(podPath, 'memory.current')}, memory.max ${m.read(podPath, 'memory.max')}, ${/^inactive_file .*$/m.exec(stat)?.[0]}, ${/^anon .*$/m.exec(stat)?.[0]}`);
    console.error(`manager.memory(${podPath}): ${JSON.stringify(mem, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    assert.ok(mem.usageBytes >= 48n << 20n, `usage ${mem.usageBytes} holds the 48 MiB the child touched`);
    assert.equal(mem.workingSetBytes, mem.usageBytes > mem.inactiveFileBytes ? mem.usageBytes - mem.inactiveFileBytes : 0n);
    assert.equal(mem.limitBytes, 256n << 20n, 'the Burstable pod\'s memory.max');
    assert.equal(m.memory(nc.kubepods, true)!.limitBytes, 1536n << 20n);
    // Against the child's 48 MiB, not the pod's reading: a charge by another cgroup between the two
    // reads (this test's own, outside the root cgroup) drains the per-CPU stock precharged for the
    // child, which can leave the node cgroup a few pages below the pod's earlier figure.
    assert.ok(m.memory(nc.kubepods)!.usageBytes >= 48n << 20n, 'the node cgroup counts its pods');
    assert.equal(m.memory(`${top}/no-such-cgroup`), undefined);
    assert.deepEqual(m.oomCounters(podPath), { oomKill: 0, oomGroupKill: 0 });
    // "No internal processes": the leaf holds the child, so it cannot enable controllers for a child of its own.
    assert.throws(() => m.ensure(`${leaf}/sub`, { 'cpu.weight': '1' }), /cgroup\.subtree_control: EBUSY: that cgroup holds processes/);
    assert.equal(existsSync(join(m.dir(leaf), 'sub')), false);
    console.error(`kernel ${podPath}/memory.events: ${JSON.stringify(readFileSync(m.oomEventsFile(podPath)!, 'utf8'))}`);
  });

  it('the eviction manager observes memory.available and allocatableMemory.available from the v2 node cgroup', async () => {
    const ev = new EvictionManager({
      capacityBytes: node.memoryBytes,
      thresholds: parseEvictionThresholds('memory.available<100Mi,allocatableMemory.available<100Mi'),
      nodeMemcgDir: nc.memoryDir(),
      cgroupVersion: 2,
      activePods: () => [],
      podMemcgDir: (p) => m.memoryDir(top + planPodOnNode(p, node, gates).podCgroup.path),
      evict: async () => undefined,
      gates,
      log: (l) => console.error(`eviction: ${l}`),
    });
    await ev.synchronize();
    const obs = ev.observations();
    const fmt = (s: string) => {
      const o = obs.get(s as 'memory.available')!;
      return `${s} available ${o?.available} of ${o?.capacity}`;
    };
    console.error(`eviction observations: ${fmt('memory.available')}; ${fmt('allocatableMemory.available')}`);
    const a = obs.get('memory.available');
    const b = obs.get('allocatableMemory.available');
    assert.ok(a && b, 'both memory signals observed');
    assert.equal(a.capacity, node.memoryBytes);
    assert.equal(b.capacity, 1536n << 20n, 'allocatable capacity is the node cgroup\'s memory.max');
    assert.ok(a.available < node.memoryBytes - (48n << 20n), 'the child\'s memory is seen as used');
    assert.equal(ev.memoryPressure(), false);
  });

  it('the process leaves: populated 0; then everything is removed (removeTree, NodeCgroups.removeUnused)', async () => {
    const child = children[0]!;
    const exited = new Promise<void>((res) => child.once('exit', () => res()));
    child.kill('SIGKILL');
    await exited;
    // The kernel updates cgroup.events after the task is gone; wait for it by polling (no timing asserted).
    for (let i = 0; i < 500 && !/^populated 0$/m.test(readFileSync(m.populatedEventsFile(leaf)!, 'utf8')); i++) await new Promise((r) => setTimeout(r, 20));
    assert.match(readFileSync(m.populatedEventsFile(leaf)!, 'utf8'), /^populated 0$/m);
    for (const p of pods) m.removeTree(top + planPodOnNode(p, node, gates).podCgroup.path);
    assert.deepEqual(nc.removeUnused(), []);
    assert.equal(existsSync(join(mount, top)), false, 'the root NodeCgroups made is gone');
  });
});
