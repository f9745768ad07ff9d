// The eviction manager's decisions over fake cgroup files and a fake clock: one pass of the
// kubelet's synchronize (eviction_manager.go) per synchronize() call. Pins: MemoryPressure
// from met thresholds with the transition period, at most one eviction per pass in the
// memory-pressure ranking, the eviction message, no pod evicted twice, terminal/deleting and
// critical pods skipped, and the admission handler (eviction_manager.go Admit).
// The loop itself (start/stop, the usage poll, waiting for cleanup) runs on real timers at the end.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitUnderPressure } from '../../src/agent/eviction/admission.js';
import { EvictionManager, type EvictionManagerOptions } from '../../src/agent/eviction/manager.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod } from '../../src/api/types.js';
import { parseEvictionThresholds, type PressureCondition } from '../../src/policy/eviction.js';
import { containerCgroupLeaf } from '../../src/policy/cgrouplayout.js';
import { Quantity } from '../../src/api/quantity.js';
import { ctr, fakeLister, fakeReader, mkPod, removeMemcg, setMemcg } from './eviction-fakes.js';

const Mi = 1n << 20n;
const Gi = 1n << 30n;
const NODE = '/cg/memory/kubepods';
const podDir = (p: Pod) => `${NODE}/pod${p.metadata.uid}`;
/** Where the pod worker puts a container's memcg: its runtime id below the pod memcg. */
const containerDir = (p: Pod, name: string, attempt = 0) => `${podDir(p)}/${containerCgroupLeaf(p.metadata.uid!, name, attempt)}`;

interface Harness {
  m: EvictionManager;
  files: Map<string, string>;
  pods: Pod[];
  evicted: { pod: string; reason: string; message: string }[];
  /** The Evicted events' annotations, one per eviction. */
  annotations: Record<string, string>[];
  pressure: boolean[];
  logs: string[];
  clock: { t: number };
  /** Sets a pod's memcg usage (and its first container's, at attempt 0). */
  use(p: Pod, bytes: bigint): void;
  node(bytes: bigint, inactiveFile?: bigint): void;
}

type HarnessOptions = Partial<Omit<EvictionManagerOptions, 'thresholds'>> & { thresholds?: string; pods?: Pod[] };

function harness(o: HarnessOptions = {}): Harness {
  const files = new Map<string, string>();
  const clock = { t: 1_000_000 };
  const evicted: Harness['evicted'] = [];
  const annotations: Harness['annotations'] = [];
  const pressure: boolean[] = [];
  const logs: string[] = [];
  const pods = [...(o.pods ?? [])];
  const { thresholds, pods: _p, ...rest } = o;
  const m = new EvictionManager({
    capacityBytes: Gi,
    thresholds: parseEvictionThresholds(thresholds ?? 'memory.available<100Mi'),
    pressureTransitionMs: 60_000,
    nodeMemcgDir: NODE,
    activePods: () => pods,
    podMemcgDir: podDir,
    evict: async (pod, reason, message, a) => {
      evicted.push({ pod: pod.metadata.name!, reason, message });
      annotations.push(a);
    },
    onPressureChange: (p) => pressure.push(p),
    gates: defaultFeatureGates,
    now: () => clock.t,
    readCgroupFile: fakeReader(files),
    listCgroupDir: fakeLister(files),
    log: (l) => logs.push(l),
    fastPollMs: 0,
    ...rest,
  });
  return {
    m,
    files,
    pods,
    evicted,
    annotations,
    pressure,
    logs,
    clock,
    use(p, bytes) {
      setMemcg(files, podDir(p), { usage: bytes });
      setMemcg(files, containerDir(p, p.spec.containers[0]!.name), { usage: bytes });
    },
    node(bytes, inactiveFile = 0n) {
      setMemcg(files, NODE, { usage: bytes, inactiveFile, limit: Gi });
    },
  };
}

const mem = (m: string) => ({ memory: m });
const bestEffort = (name: string, priority?: number) => mkPod(name, [ctr(name)], priority === undefined ? {} : { priority });
const burstable = (name: string, request: string) => mkPod(name, [ctr(name, mem(request), mem('1Gi'))]);

describe('EvictionManager.synchronize: memory.available from the node memcg', () => {
  const rows: [string, bigint, bigint, boolean][] = [
    ['working set 900Mi of 1Gi: 124Mi available, not below 100Mi', 900n * Mi, 0n, false],
    ['working set 925Mi: 99Mi available < 100Mi: met', 925n * Mi, 0n, true],
    ['usage 925Mi but 50Mi inactive file: 149Mi available, not met', 925n * Mi, 50n * Mi, false],
    ['exactly 100Mi available: not met (strict)', 924n * Mi, 0n, false],
    ['usage above capacity: negative available, met', Gi + Mi, 0n, true],
  ];
  for (const [name, usage, inactive, met] of rows) {
    it(name, async () => {
      const h = harness();
      h.node(usage, inactive);
      await h.m.synchronize();
      assert.equal(h.m.memoryPressure(), met);
      assert.equal(h.m.observations().get('memory.available')?.available, Gi - (usage - inactive));
    });
  }
  it('allocatableMemory.available is observed from the node memcg limit', async () => {
    const h = harness({ capacityBytes: 2n * Gi, thresholds: 'allocatableMemory.available<100Mi' });
    h.node(950n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.m.observations().get('allocatableMemory.available'), { available: Gi - 950n * Mi, capacity: Gi });
    assert.equal(h.m.memoryPressure(), true);
  });
  it('without a limit on the node memcg there is no allocatableMemory.available observation', async () => {
    const h = harness({ thresholds: 'allocatableMemory.available<100Mi' });
    setMemcg(h.files, NODE, { usage: Gi });
    await h.m.synchronize();
    assert.equal(h.m.observations().has('allocatableMemory.available'), false);
    assert.equal(h.m.memoryPressure(), false);
  });
  it('thresholds without an observation here (nodefs, imagefs) are never met and are named once at construction', async () => {
    const h = harness({ thresholds: 'memory.available<100Mi,nodefs.available<10%,imagefs.available<15%' });
    assert.deepEqual(h.logs, [
      'eviction manager: no observation for nodefs.available on this node; threshold nodefs.available<10% is never met',
      'eviction manager: no observation for imagefs.available on this node; threshold imagefs.available<15% is never met',
    ]);
    h.node(0n);
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
  });
  it('a missing node memcg: no observation, no pressure, logged', async () => {
    const h = harness();
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
    assert.match(h.logs.at(-1)!, /node memory cgroup \/cg\/memory\/kubepods does not exist/);
  });
});

describe('EvictionManager: each container\'s sentence reads the memcg the pod worker made for it', () => {
  const head = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. ';
  const sentence = (name: string, usage: string) => `Container ${name} was using ${usage}, request is 0, has larger consumption of memory. `;
  interface Row {
    name: string;
    pod: Pod;
    /** Container memcgs: [container, attempt, usage]. */
    memcgs: [string, number, bigint][];
    /** A container memcg file that fails to read with this errno. */
    failing?: { container: string; attempt: number; code: string };
    message: string;
    /** Every log line about container usage, over two passes that both consider the pod. */
    logs: RegExp[];
  }
  const initPod = mkPod('withinit', [ctr('app')]);
  initPod.spec.initContainers = [ctr('setup')];
  const rows: Row[] = [
    { name: 'the runtime id <pod uid>-<name>-<attempt> below the pod memcg is the container memcg', pod: bestEffort('one'), memcgs: [['one', 0, 300n * Mi]], message: head + sentence('one', '300Mi'), logs: [] },
    { name: 'a restarted container: the newest attempt is read, not an exited older one', pod: bestEffort('again'), memcgs: [['again', 0, 10n * Mi], ['again', 2, 300n * Mi]], message: head + sentence('again', '300Mi'), logs: [] },
    {
      name: 'container names that prefix one another are not confused (app attempt 1, app-1 attempt 0)',
      pod: mkPod('prefixes', [ctr('app'), ctr('app-1')]),
      memcgs: [['app', 1, 200n * Mi], ['app-1', 0, 100n * Mi]],
      message: head + sentence('app', '200Mi') + sentence('app-1', '100Mi'),
      logs: [],
    },
    {
      name: 'a container without a memcg gets no sentence, and that is logged once with the path and errno',
      pod: mkPod('half', [ctr('app'), ctr('gone')]),
      memcgs: [['app', 0, 300n * Mi]],
      message: head + sentence('app', '300Mi'),
      logs: [/^eviction manager: no memory usage for container gone of pod default\/half: ENOENT: no memory cgroup of the container below \/cg\/memory\/kubepods\/poduid-half$/],
    },
    {
      name: 'a memcg that cannot be read gets no sentence, and the failure is logged once with the path and errno',
      pod: bestEffort('unreadable'),
      memcgs: [['unreadable', 0, 300n * Mi]],
      failing: { container: 'unreadable', attempt: 0, code: 'EIO' },
      message: head,
      logs: [/^eviction manager: no memory usage for container unreadable of pod default\/unreadable: EIO: i\/o error, open '\/cg\/memory\/kubepods\/poduid-unreadable\/uid-unreadable-unreadable-0\/memory\.usage_in_bytes'$/],
    },
    { name: 'a completed init container has no memcg: no sentence, nothing logged', pod: initPod, memcgs: [['app', 0, 300n * Mi]], message: head + sentence('app', '300Mi'), logs: [] },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const files = new Map<string, string>();
      const read = fakeReader(files);
      const failPath = r.failing ? `${containerDir(r.pod, r.failing.container, r.failing.attempt)}/memory.usage_in_bytes` : undefined;
      const attempts: string[] = [];
      // The evict fails, so the next pass considers the same pod again: the log must not repeat.
      const h = harness({
        pods: [r.pod],
        readCgroupFile: (path) => {
          if (path === failPath) throw Object.assign(new Error(`${r.failing!.code}: i/o error, open '${path}'`), { code: r.failing!.code });
          return read(path);
        },
        listCgroupDir: fakeLister(files),
        evict: async (_pod, _reason, message) => {
          attempts.push(message);
          throw new Error('not now');
        },
      });
      const total = r.memcgs.reduce((a, [, , u]) => a + u, 0n);
      setMemcg(files, podDir(r.pod), { usage: total });
      for (const [c, attempt, usage] of r.memcgs) setMemcg(files, containerDir(r.pod, c, attempt), { usage });
      setMemcg(files, NODE, { usage: 1000n * Mi, limit: Gi });
      await h.m.synchronize();
      await h.m.synchronize();
      assert.deepEqual(attempts, [r.message, r.message]);
      const usageLogs = h.logs.filter((l) => l.includes('no memory usage'));
      assert.equal(usageLogs.length, r.logs.length, usageLogs.join('\n'));
      r.logs.forEach((re, i) => assert.match(usageLogs[i]!, re));
    });
  }
});

describe('EvictionManager.synchronize: one eviction per pass, in ranking order, with the kubelet message', () => {
  it('evicts the pod furthest over its request, reason Evicted, with the threshold as configured', async () => {
    const be = bestEffort('be');
    const bu = burstable('bu', '600Mi');
    const h = harness({ pods: [bu, be] });
    h.use(be, 200n * Mi);
    h.use(bu, 700n * Mi);
    h.node(950n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.evicted, [
      {
        pod: 'be',
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 74Mi. Container be was using 200Mi, request is 0, has larger consumption of memory. ',
      },
    ]);
    assert.deepEqual(h.annotations, [{ offending_containers: 'be', offending_containers_usage: '200Mi', starved_resource: 'memory' }]);
  });
  it('a percentage threshold prints BinarySI bytes of capacity', async () => {
    const be = bestEffort('be');
    const h = harness({ pods: [be], thresholds: 'memory.available<25%' });
    h.use(be, 900n * Mi);
    h.node(900n * Mi);
    await h.m.synchronize();
    assert.match(h.evicted[0]!.message, /^The node was low on resource: memory\. Threshold quantity: 256Mi, available: 124Mi\. /);
  });
  it('a container within its request gets no sentence', async () => {
    const bu = burstable('bu', '600Mi');
    const h = harness({ pods: [bu] });
    h.use(bu, 500n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.equal(h.evicted[0]!.message, 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. ');
  });
  it('pod-level resources: the Pod sentence comes first', async () => {
    const p = mkPod('pl', [ctr('app')]);
    p.spec.resources = { requests: mem('100Mi'), limits: mem('1Gi') };
    const h = harness({ pods: [p] });
    h.use(p, 300n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.equal(
      h.evicted[0]!.message,
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. Pod pl was using 300Mi, request is 100Mi, has larger consumption of memory. Container app was using 300Mi, request is 0, has larger consumption of memory. ',
    );
  });
  it('a pod without stats ranks first and its message has no container sentences', async () => {
    const be = bestEffort('be');
    const nostats = burstable('nostats', '900Mi');
    const h = harness({ pods: [be, nostats] });
    h.use(be, 500n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.evicted.map((e) => [e.pod, e.message]), [['nostats', 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 24Mi. ']]);
    assert.deepEqual(h.annotations, [{}], 'no stats: the event has no annotations');
  });
  it('at most one pod per pass; the next pass takes the next pod, never the same one twice', async () => {
    const [a, b, c] = [bestEffort('a'), bestEffort('b'), bestEffort('c')];
    const h = harness({ pods: [a, b, c] });
    h.use(a, 300n * Mi);
    h.use(b, 200n * Mi);
    h.use(c, 100n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.evicted.map((e) => e.pod), ['a']);
    // a is still among the active pods (its kill is under way) and still shows usage.
    await h.m.synchronize();
    assert.deepEqual(h.evicted.map((e) => e.pod), ['a', 'b']);
  });
  it('once an evicted pod has left the active pods and come back (same uid), it is a candidate again', async () => {
    const a = bestEffort('a');
    const h = harness({ pods: [a] });
    h.use(a, 300n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    h.pods.length = 0;
    await h.m.synchronize();
    h.pods.push(a);
    await h.m.synchronize();
    assert.deepEqual(h.evicted.map((e) => e.pod), ['a', 'a']);
  });
  it('the threshold cleared: no eviction even though pressure is still reported', async () => {
    const a = bestEffort('a');
    const h = harness({ pods: [a] });
    h.use(a, 300n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    h.node(500n * Mi);
    h.pods.push(bestEffort('b'));
    h.use(h.pods[1]!, 300n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.evicted.map((e) => e.pod), ['a']);
    assert.equal(h.m.memoryPressure(), true);
  });

  const skipped: [string, Pod][] = [
    ['a pod being deleted (deletionTimestamp) is not a candidate', { ...bestEffort('deleting'), metadata: { ...bestEffort('deleting').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }],
    ['a Failed pod is not a candidate', { ...bestEffort('failed'), status: { phase: 'Failed' } }],
    ['a Succeeded pod is not a candidate', { ...bestEffort('done'), status: { phase: 'Succeeded' } }],
    ['a static pod is critical and never evicted', mkPod('static', [ctr('static')], { annotations: { 'kubernetes.io/config.source': 'file' } })],
    ['a pod at system-cluster-critical priority is never evicted', mkPod('critical', [ctr('critical')], { priority: 2000000000 })],
  ];
  for (const [name, skip] of skipped) {
    it(`${name}: the next pod in the ranking is evicted`, async () => {
      const other = bestEffort('other');
      const h = harness({ pods: [skip, other] });
      h.use(skip, 800n * Mi);
      h.use(other, 100n * Mi);
      h.node(1000n * Mi);
      await h.m.synchronize();
      assert.deepEqual(h.evicted.map((e) => e.pod), ['other']);
    });
  }
  it('only critical pods: pressure but no eviction, logged', async () => {
    const crit = mkPod('critical', [ctr('critical')], { priority: 2000000000 });
    const h = harness({ pods: [crit] });
    h.use(crit, 900n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.evicted, []);
    assert.equal(h.m.memoryPressure(), true);
    assert.match(h.logs.at(-1)!, /unable to evict any pods/);
  });
  it('no active pods: pressure, nothing to evict, logged once', async () => {
    const h = harness();
    h.node(1000n * Mi);
    await h.m.synchronize();
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    assert.equal(h.logs.filter((l) => l.includes('no pods are active to evict')).length, 1);
  });
  it('a failed evict ends the pass; the pod stays a candidate for the next one', async () => {
    const a = bestEffort('a');
    let fail = true;
    const tried: string[] = [];
    const h = harness({
      pods: [a, bestEffort('b')],
      evict: async (p) => {
        tried.push(p.metadata.name!);
        if (fail) throw new Error('runc kill: boom');
      },
    });
    h.use(a, 300n * Mi);
    h.use(h.pods[1]!, 100n * Mi);
    h.node(1000n * Mi);
    await h.m.synchronize();
    fail = false;
    await h.m.synchronize();
    assert.deepEqual(tried, ['a', 'a']);
    assert.ok(h.logs.some((l) => l.includes('pod default/a failed to evict: runc kill: boom')));
  });
  it('concurrent synchronize calls run one pass at a time', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const h = harness({
      pods: [bestEffort('a'), bestEffort('b'), bestEffort('c')],
      evict: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
      },
    });
    for (const p of h.pods) h.use(p, 100n * Mi);
    h.node(1000n * Mi);
    await Promise.all([h.m.synchronize(), h.m.synchronize(), h.m.synchronize()]);
    assert.equal(maxInFlight, 1);
  });
});

describe('EvictionManager: MemoryPressure and the transition period', () => {
  it('raised when met, kept while now − lastSeen < period, dropped after; onPressureChange on each change only', async () => {
    const h = harness({ pressureTransitionMs: 60_000 });
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    const seen = h.clock.t;
    h.node(100n * Mi);
    h.clock.t = seen + 59_999;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    h.clock.t = seen + 60_000;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
    await h.m.synchronize();
    assert.deepEqual(h.pressure, [true, false]);
    assert.deepEqual(h.m.nodeConditions(), []);
  });
  it('met again inside the period restarts it', async () => {
    const h = harness({ pressureTransitionMs: 60_000 });
    h.node(1000n * Mi);
    await h.m.synchronize();
    h.clock.t += 50_000;
    await h.m.synchronize();
    h.node(0n);
    h.clock.t += 59_000;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    assert.deepEqual(h.pressure, [true]);
  });
  it('the default period is 5 minutes', async () => {
    const h = harness({ pressureTransitionMs: undefined });
    h.node(1000n * Mi);
    await h.m.synchronize();
    h.node(0n);
    h.clock.t += 5 * 60_000 - 1;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    h.clock.t += 1;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
  });
});

describe('admission under node pressure (eviction_manager.go Admit)', () => {
  const tolerating = mkPod('tolerates', [ctr('c')], { tolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }] });
  const rows: [string, Pod, PressureCondition[], ReturnType<typeof admitUnderPressure>][] = [
    ['no pressure: every pod is admitted', bestEffort('be'), [], { admit: true }],
    ['MemoryPressure: a BestEffort pod is refused, reason Evicted', bestEffort('be'), ['MemoryPressure'], { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' }],
    ['MemoryPressure: a Burstable pod is admitted', burstable('bu', '10Mi'), ['MemoryPressure'], { admit: true }],
    ['MemoryPressure: a Guaranteed pod is admitted', mkPod('g', [ctr('g', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]), ['MemoryPressure'], { admit: true }],
    ['MemoryPressure: a BestEffort pod tolerating the memory-pressure taint is admitted', tolerating, ['MemoryPressure'], { admit: true }],
    ['MemoryPressure: a BestEffort critical pod is admitted', bestEffort('crit', 2000000000), ['MemoryPressure'], { admit: true }],
    ['MemoryPressure: status.qosClass wins over the spec (GetPodQOS)', mkPod('q', [ctr('q', mem('1Mi'))], { qosClass: 'BestEffort' }), ['MemoryPressure'], { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' }],
    [
      'another condition besides MemoryPressure refuses every non-critical pod',
      burstable('bu', '10Mi'),
      ['MemoryPressure', 'DiskPressure'],
      { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure DiskPressure]. ' },
    ],
    ['DiskPressure: the memory-pressure toleration does not help', tolerating, ['DiskPressure'], { admit: false, reason: 'Evicted', message: 'The node had condition: [DiskPressure]. ' }],
  ];
  for (const [name, pod, conditions, want] of rows) it(name, () => assert.deepEqual(admitUnderPressure(pod, conditions, defaultFeatureGates), want));

  it('the manager admits from its current conditions', async () => {
    const h = harness();
    h.node(0n);
    await h.m.synchronize();
    assert.deepEqual(h.m.admit(bestEffort('be')), { admit: true });
    h.node(1000n * Mi);
    await h.m.synchronize();
    assert.deepEqual(h.m.admit(bestEffort('be')), { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });
    assert.deepEqual(h.m.admit(burstable('bu', '1Mi')), { admit: true });
  });
});

describe('EvictionManager options', () => {
  const bad: [string, HarnessOptions, RegExp][] = [
    ['capacity must be positive', { capacityBytes: 0n }, /capacityBytes must be positive/],
    ['intervalMs must be positive', { intervalMs: 0 }, /intervalMs must be positive/],
    ['a negative transition period is refused', { pressureTransitionMs: -1 }, /pressureTransitionMs must be a non-negative/],
    ['NaN is refused', { fastPollMs: Number.NaN }, /fastPollMs must be a non-negative/],
  ];
  for (const [name, o, re] of bad) it(name, () => assert.throws(() => harness(o), re));
});

// Deadlines far above the answer and far below the 60 s loops: reaching the condition proves the
// path taken without judging how fast this machine is.
const until = async (cond: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
};

describe('EvictionManager loop on real timers', () => {
  it('start() runs a pass at once, then every intervalMs; stop() ends it', async () => {
    let passes = 0;
    const h = harness({ intervalMs: 20, activePods: () => (passes++, []) });
    h.node(0n);
    h.m.start();
    assert.ok(await until(() => passes >= 3), `only ${passes} passes`);
    h.m.stop();
    await new Promise((r) => setTimeout(r, 50));
    const after = passes;
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(passes, after);
  });
  it('the usage poll wakes the loop when node usage crosses capacity − threshold + inactive_file upward', async () => {
    const a = bestEffort('a');
    const h = harness({ pods: [a], intervalMs: 60_000, fastPollMs: 5 });
    h.use(a, 300n * Mi);
    h.node(800n * Mi, 100n * Mi); // working set 700Mi; the trigger is 1Gi − 100Mi + 100Mi = 1Gi of usage
    h.m.start();
    try {
      assert.ok(await until(() => h.m.observations().size > 0));
      h.node(Gi - 1n, 100n * Mi);
      await new Promise((r) => setTimeout(r, 60));
      assert.deepEqual(h.evicted, [], 'usage below the trigger must not wake the loop');
      h.node(Gi + 30n * Mi, 100n * Mi); // working set 954Mi: 70Mi available
      assert.ok(await until(() => h.evicted.length === 1), 'the poll did not wake the loop');
      assert.equal(h.m.memoryPressure(), true);
    } finally {
      h.m.stop();
    }
  });
  it('after an eviction the next pass runs as soon as the pod has left the active pods', async () => {
    const [a, b] = [bestEffort('a'), bestEffort('b')];
    const h = harness({ pods: [a, b], intervalMs: 60_000 });
    h.use(a, 300n * Mi);
    h.use(b, 200n * Mi);
    h.node(1000n * Mi);
    h.m.start();
    try {
      assert.ok(await until(() => h.evicted.length === 1));
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(h.evicted.length, 1, 'a second eviction before the first pod was cleaned up');
      // The kill of a frees its memory but not enough; a leaves the active pods.
      h.pods.splice(h.pods.indexOf(a), 1);
      removeMemcg(h.files, podDir(a));
      h.node(960n * Mi);
      assert.ok(await until(() => h.evicted.length === 2), 'no pass after the cleanup');
      assert.deepEqual(h.evicted.map((e) => e.pod), ['a', 'b']);
    } finally {
      h.m.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Audit against kubernetes/kubernetes pkg/kubelet/eviction/eviction_manager_test.go: the pure
// decisions of TestAdmitUnderNodeConditions, TestMemoryPressure and TestAllocatableMemoryPressure (their
// hard-threshold steps; Bulkhead has no soft thresholds) and TestMemoryPressure_VerifyPodStatus, one
// row or step per upstream check.

describe('admission: upstream TestAdmitUnderNodeConditions (makeContainersByQOS pods, 100m/1Gi)', () => {
  const res = { cpu: '100m', memory: '1Gi' };
  const pods: Record<string, Pod> = {
    'guaranteed-pod': mkPod('guaranteed-pod', [ctr('guaranteed-container', res, res)], { priority: 0 }),
    'burstable-pod': mkPod('burstable-pod', [ctr('burtable-container', res)], { priority: 0 }),
    'best-effort-pod': mkPod('best-effort-pod', [ctr('best-effort-container')], { priority: 0 }),
  };
  const rows: [PressureCondition[], string, boolean][] = [
    [[], 'guaranteed-pod', true],
    [[], 'burstable-pod', true],
    [[], 'best-effort-pod', true],
    [['MemoryPressure'], 'guaranteed-pod', true],
    [['MemoryPressure'], 'burstable-pod', true],
    [['MemoryPressure'], 'best-effort-pod', false],
    [['MemoryPressure', 'DiskPressure'], 'guaranteed-pod', false],
    [['MemoryPressure', 'DiskPressure'], 'burstable-pod', false],
    [['MemoryPressure', 'DiskPressure'], 'best-effort-pod', false],
  ];
  for (const [conditions, name, admit] of rows) {
    it(`[${conditions.join(' ')}] ${name}: ${admit ? 'admitted' : 'refused'}`, () => {
      const r = admitUnderPressure(pods[name]!, conditions, defaultFeatureGates);
      const message = conditions.length === 1 ? 'The node had condition: [MemoryPressure]. ' : 'The node had condition: [MemoryPressure DiskPressure]. ';
      assert.deepEqual(r, admit ? { admit: true } : { admit: false, reason: 'Evicted', message });
    });
  }
});

/** The pods of upstream's TestMemoryPressure and TestAllocatableMemoryPressure: name, priority, requests, limits, usage. */
const pressurePods: [string, number, Record<string, string>, Record<string, string>, string][] = [
  ['guaranteed-low-priority-high-usage', -1, { cpu: '100m', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' }, '900Mi'],
  ['burstable-below-requests', 0, { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '1Gi' }, '50Mi'],
  ['burstable-above-requests', 0, { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '1Gi' }, '400Mi'],
  ['best-effort-high-priority-high-usage', 1, {}, {}, '400Mi'],
  ['best-effort-low-priority-low-usage', -1, {}, {}, '100Mi'],
];

describe('EvictionManager: upstream TestMemoryPressure, hard threshold memory.available<1Gi', () => {
  it('no pressure at 2Gi or 3Gi available; at 500Mi the low-priority BestEffort pod is evicted; pressure holds 1m later, clears after the 5m transition', async () => {
    const capacity = 4n * Gi;
    const pods = pressurePods.map(([name, priority, req, lim]) => mkPod(name, [ctr(name, req, lim)], { priority }));
    const h = harness({ capacityBytes: capacity, thresholds: 'memory.available<1Gi', pressureTransitionMs: 5 * 60_000, pods });
    pods.forEach((p, i) => h.use(p, Quantity.parse(pressurePods[i]![4]).value()));
    const available = (a: string) => h.node(capacity - Quantity.parse(a).value());
    const bestEffortToAdmit = mkPod('best-admit', [ctr('best-admit')]);
    const burstableToAdmit = mkPod('burst-admit', [ctr('burst-admit', { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '200Mi' })]);
    const admits = () => [bestEffortToAdmit, burstableToAdmit].map((p) => h.m.admit(p).admit);

    available('2Gi');
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
    assert.deepEqual(admits(), [true, true]);

    h.clock.t += 20 * 60_000;
    available('3Gi');
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);

    await pressureThenRelief(h, available, admits);
  });
});

/**
 * The second half of upstream's TestMemoryPressure and TestAllocatableMemoryPressure, one step a
 * minute: 500Mi available evicts the low-priority BestEffort pod and refuses BestEffort pods; 2Gi
 * a minute later holds the pressure (the transition period) without evicting more; 5 minutes on
 * it clears and both pods are admitted again.
 */
async function pressureThenRelief(h: ReturnType<typeof harness>, available: (a: string) => void, admits: () => boolean[]): Promise<void> {
    h.clock.t += 60_000;
    available('500Mi');
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    assert.deepEqual(h.evicted.map((e) => e.pod), ['best-effort-low-priority-low-usage']);
    assert.deepEqual(admits(), [false, true]);

    h.clock.t += 60_000;
    available('2Gi');
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true, 'transition period not yet met');
    assert.equal(h.evicted.length, 1, 'no pod killed once the threshold cleared');
    assert.deepEqual(admits(), [false, true]);

    h.clock.t += 5 * 60_000;
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
    assert.equal(h.evicted.length, 1);
    assert.deepEqual(admits(), [true, true]);
}

describe('EvictionManager: upstream TestAllocatableMemoryPressure, hard threshold allocatableMemory.available<1Gi', () => {
  it('no pressure at 4Gi available; at 500Mi the low-priority BestEffort pod is evicted and BestEffort pods are refused; held 1m later at 2Gi; cleared after the 5m transition', async () => {
    const limit = 8n * Gi;
    const pods = pressurePods.map(([name, priority, req, lim]) => mkPod(name, [ctr(name, req, lim)], { priority }));
    const h = harness({ capacityBytes: 64n * Gi, thresholds: 'allocatableMemory.available<1Gi', pressureTransitionMs: 5 * 60_000, pods });
    pods.forEach((p, i) => h.use(p, Quantity.parse(pressurePods[i]![4]).value()));
    // The pods' cgroup (kubepods) with its limit: allocatable available = limit − working set.
    const available = (a: string) => setMemcg(h.files, NODE, { usage: limit - Quantity.parse(a).value(), limit });
    const toAdmit = [mkPod('best-admit', [ctr('best-admit')]), mkPod('burst-admit', [ctr('burst-admit', { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '200Mi' })])];
    const admits = () => toAdmit.map((p) => h.m.admit(p).admit);

    available('4Gi');
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), false);
    assert.deepEqual(admits(), [true, true]);

    await pressureThenRelief(h, available, admits);
  });
});

describe('EvictionManager: upstream TestMemoryPressure_VerifyPodStatus', () => {
  it('threshold 2Gi, 1500Mi available: above-requests is evicted with "Threshold quantity: 2Gi, available: 1500Mi. " and no container sentence (no container stats)', async () => {
    const capacity = 3000n * Mi;
    const below = mkPod('below-requests', [ctr('below-requests', { memory: '1Gi' }, { memory: '1Gi' })]);
    const above = mkPod('above-requests', [ctr('above-requests', { memory: '100Mi' }, { memory: '1Gi' })]);
    const h = harness({ capacityBytes: capacity, thresholds: 'memory.available<2Gi', pressureTransitionMs: 5 * 60_000, pods: [below, above] });
    // Pod-level stats only, as upstream's newPodMemoryStats gives its container no memory stats.
    setMemcg(h.files, podDir(below), { usage: 900n * Mi });
    setMemcg(h.files, podDir(above), { usage: 700n * Mi });
    h.node(capacity - 1500n * Mi);
    await h.m.synchronize();
    assert.equal(h.m.memoryPressure(), true);
    assert.deepEqual(h.evicted, [{ pod: 'above-requests', reason: 'Evicted', message: 'The node was low on resource: memory. Threshold quantity: 2Gi, available: 1500Mi. ' }]);
  });
});
