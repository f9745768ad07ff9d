// Table tests of the scheduler's cache (src/scheduler/cache.ts, nodeinfo.ts, amount.ts) and of
// the walk's bounds (pick.ts numFeasibleNodesToFind, the rotating start): one row per rule.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Node, Pod } from '../../src/api/types.js';
import { addAmount, mulDivAmount, subAmount, type Amount } from '../../src/scheduler/amount.js';
import { HostPortInfo, NodeInfo, numFeasibleNodesToFind, pickNode, pickNodeInfo, podInfo, SchedulerCache } from '../../src/scheduler/index.js';
import { node, pod } from './helpers.js';

const gates = defaultFeatureGates;

/** A pod as the informer holds it once bound: frozen, with spec.nodeName. */
function boundTo(p: Pod, on: string, phase?: string): Pod {
  return Object.freeze({ ...p, spec: { ...p.spec, nodeName: on }, ...(phase ? { status: { phase } } : {}) });
}

/** What a node has counted: pods, requested cpu (milli) and memory, non-zero cpu and memory. */
function counted(info: NodeInfo | undefined): [number, Amount, Amount, Amount, Amount] {
  assert.ok(info, 'node known to the cache');
  return [info.pods.size, info.requested.get('cpu') ?? 0, info.requested.get('memory') ?? 0, info.nonZeroCPU, info.nonZeroMemory];
}

const Mi = 1024 * 1024;

describe('NodeInfo: requests summed one pod at a time', () => {
  const rows: { name: string; pods: Pod[]; want: [number, Amount, Amount, Amount, Amount] }[] = [
    { name: 'no pods: nothing requested', pods: [], want: [0, 0, 0, 0, 0] },
    { name: 'requests add up', pods: [pod('a', { cpu: '250m', memory: '100Mi' }), pod('b', { cpu: '1', memory: '1Gi' })], want: [2, 1250, 1124 * Mi, 1250, 1124 * Mi] },
    { name: 'a pod without requests counts for the score only (100m, 200Mi)', pods: [pod('a')], want: [1, 0, 0, 100, 200 * Mi] },
    { name: 'finished pods hold nothing', pods: [pod('a', { cpu: '1' }, {}, { phase: 'Succeeded' }), pod('b', { cpu: '1' }, {}, { phase: 'Failed' })], want: [0, 0, 0, 0, 0] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(counted(NodeInfo.of(node('n1'), r.pods, gates)), r.want));

  it('removing a pod takes exactly its requests away', () => {
    const info = NodeInfo.of(node('n1'), [pod('a', { cpu: '250m', memory: '100Mi' }), pod('b', { cpu: '1', memory: '1Gi' })], gates);
    info.removePod('0');
    assert.deepEqual(counted(info), [1, 1000, 1024 * Mi, 1000, 1024 * Mi]);
    info.removePod('1');
    assert.deepEqual(counted(info), [0, 0, 0, 0, 0]);
    assert.equal(info.requested.size, 0);
  });

  it('free is allocatable minus requested, for every resource either names', () => {
    const info = NodeInfo.of(node('n1', { cpu: '2', memory: '1Gi', pods: '110' }), [pod('a', { cpu: '500m', 'example.com/gpu': '1' })], gates);
    assert.deepEqual(Object.fromEntries(info.free), { cpu: 1500, memory: 1024 * Mi, pods: 110, 'example.com/gpu': -1 });
  });
});

// framework/types_test.go TestNewNodeInfo, TestNodeInfoAddPod and TestNodeInfoRemovePod (v1.32):
// what a node counts of its pods: Requested (the fit filter's, overhead and the largest init
// container included) and NonZeroRequested (the score's: 100m cpu and 200Mi memory for a
// container that names neither), and the host ports held. Generation, PVC reference counts and
// image states are upstream bookkeeping Bulkhead has no counterpart for.
describe('upstream NodeInfo accounting (types_test.go)', () => {
  /** A pod bound to test-node with one container holding 127.0.0.1:port/TCP, as upstream's rows build it. */
  const upstreamPod = (name: string, requests: Record<string, string>, port: number, extra: Partial<Pod['spec']> = {}): Pod => {
    const p = pod(name, requests, extra, { nodeName: 'test-node' });
    p.spec.containers[0]!.ports = [{ containerPort: port, hostPort: port, hostIP: '127.0.0.1', protocol: 'TCP' }];
    return p;
  };
  const held = (info: NodeInfo) => [80, 8080].filter((port) => info.usedPorts.conflicts('127.0.0.1', 'TCP', port));
  const overhead = { cpu: '500m', memory: '500' };

  it('TestNewNodeInfo: requests and ports of two pods', () => {
    const info = NodeInfo.of(node('test-node', {}), [upstreamPod('test-1', { cpu: '100m', memory: '500' }, 80), upstreamPod('test-2', { cpu: '200m', memory: '1Ki' }, 8080)], gates);
    assert.deepEqual(counted(info), [2, 300, 1524, 300, 1524]);
    assert.deepEqual(held(info), [80, 8080]);
  });

  it('TestNodeInfoAddPod: overhead, init containers and the non-zero defaults', () => {
    const pods = [
      upstreamPod('test-1', { cpu: '100m', memory: '500' }, 80, { overhead: { cpu: '500m' } }),
      upstreamPod('test-2', { cpu: '200m' }, 8080, { overhead }),
      upstreamPod('test-3', { cpu: '200m' }, 8080, { overhead, initContainers: [{ name: 'init', image: 'busybox', resources: { requests: { cpu: '500m', memory: '200Mi' } } }] }),
    ];
    const info = new NodeInfo('test-node', node('test-node', {}));
    pods.forEach((p, i) => info.addPod(String(i), podInfo(p, gates)));
    // 1500 bytes named in requests and overhead, plus 200Mi of the init container; the score adds
    // the 200Mi default of test-2's container, which names no memory.
    assert.deepEqual(counted(info), [3, 2300, 209716700, 2300, 419431900]);
    assert.deepEqual(held(info), [80, 8080]);
  });

  it('TestNodeInfoRemovePod: a pod not on the node changes nothing; removing one takes its requests and ports', () => {
    const pods = [upstreamPod('test-1', { cpu: '100m', memory: '500' }, 80, { overhead }), upstreamPod('test-2', { cpu: '200m', memory: '1Ki' }, 8080, { overhead })];
    const info = NodeInfo.of(node('test-node', {}), pods, gates);
    assert.equal(info.removePod('non-exist'), undefined);
    assert.deepEqual(counted(info), [2, 1300, 2524, 1300, 2524]);
    assert.deepEqual(held(info), [80, 8080]);
    info.removePod('0');
    assert.deepEqual(counted(info), [1, 700, 1524, 700, 1524]);
    assert.deepEqual(held(info), [8080]);
  });
});

// framework/types_test.go TestHostPortInfo_AddRemove and TestHostPortInfo_Check (v1.32): a
// triple is [protocol, hostIP, port] as upstream's hostPortInfoParam lists it.
type Triple = [string, string, number];
const held = (added: Triple[], removed: Triple[] = []): HostPortInfo => {
  const h = new HostPortInfo();
  for (const [protocol, ip, port] of added) h.add(ip, protocol, port);
  for (const [protocol, ip, port] of removed) h.remove(ip, protocol, port);
  return h;
};
const eight: Triple[] = [
  ['TCP', '127.0.0.1', 79],
  ['UDP', '127.0.0.1', 80],
  ['TCP', '127.0.0.1', 81],
  ['TCP', '127.0.0.1', 82],
  ['TCP', '0.0.0.0', 79],
  ['UDP', '0.0.0.0', 80],
  ['TCP', '0.0.0.0', 81],
  ['TCP', '0.0.0.0', 82],
];

describe('HostPortInfo: add and remove (TestHostPortInfo_AddRemove)', () => {
  const rows: { name: string; added: Triple[]; removed?: Triple[]; length: number }[] = [
    { name: 'normal add case', added: [...eight, ['TCP', '0.0.0.0', 0], ['TCP', '0.0.0.0', -1]], length: 8 },
    {
      name: 'empty ip and protocol add should work',
      added: [['', '127.0.0.1', 79], ['UDP', '127.0.0.1', 80], ['', '127.0.0.1', 81], ['', '127.0.0.1', 82], ['', '', 79], ['UDP', '', 80], ['', '', 81], ['', '', 82], ['', '', 0], ['', '', -1]],
      length: 8,
    },
    { name: 'normal remove case', added: eight, removed: eight, length: 0 },
    {
      name: 'empty ip and protocol remove should work',
      added: eight,
      removed: [['', '127.0.0.1', 79], ['', '127.0.0.1', 81], ['', '127.0.0.1', 82], ['UDP', '127.0.0.1', 80], ['', '', 79], ['', '', 81], ['', '', 82], ['UDP', '', 80]],
      length: 0,
    },
    // Bulkhead: each triple is counted (upstream's set forgets it at the first remove).
    { name: 'a triple added twice and removed once is still held', added: [['TCP', '0.0.0.0', 80], ['', '', 80]], removed: [['TCP', '0.0.0.0', 80]], length: 1 },
    { name: 'removing a triple never added changes nothing', added: [['TCP', '0.0.0.0', 80]], removed: [['UDP', '0.0.0.0', 80], ['TCP', '127.0.0.1', 80]], length: 1 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(held(r.added, r.removed).size, r.length));
});

describe('HostPortInfo: conflicts (TestHostPortInfo_Check)', () => {
  const rows: { name: string; added: Triple[]; check: Triple; want: boolean }[] = [
    { name: 'empty check should check 0.0.0.0 and TCP', added: [['TCP', '127.0.0.1', 80]], check: ['', '', 81], want: false },
    { name: 'empty check should check 0.0.0.0 and TCP (conflicted)', added: [['TCP', '127.0.0.1', 80]], check: ['', '', 80], want: true },
    { name: 'empty port check should pass', added: [['TCP', '127.0.0.1', 80]], check: ['', '', 0], want: false },
    { name: '0.0.0.0 should check all registered IPs', added: [['TCP', '127.0.0.1', 80]], check: ['TCP', '0.0.0.0', 80], want: true },
    { name: '0.0.0.0 with different protocol should be allowed', added: [['UDP', '127.0.0.1', 80]], check: ['TCP', '0.0.0.0', 80], want: false },
    { name: '0.0.0.0 with different port should be allowed', added: [['TCP', '127.0.0.1', 79], ['TCP', '127.0.0.1', 81], ['TCP', '127.0.0.1', 82]], check: ['TCP', '0.0.0.0', 80], want: false },
    { name: 'normal ip should check all registered 0.0.0.0', added: [['TCP', '0.0.0.0', 80]], check: ['TCP', '127.0.0.1', 80], want: true },
    { name: 'normal ip with different port/protocol should be allowed (0.0.0.0)', added: [['TCP', '0.0.0.0', 79], ['UDP', '0.0.0.0', 80], ['TCP', '0.0.0.0', 81], ['TCP', '0.0.0.0', 82]], check: ['TCP', '127.0.0.1', 80], want: false },
    { name: 'normal ip with different port/protocol should be allowed', added: [['TCP', '127.0.0.1', 79], ['UDP', '127.0.0.1', 80], ['TCP', '127.0.0.1', 81], ['TCP', '127.0.0.1', 82]], check: ['TCP', '127.0.0.1', 80], want: false },
  ];
  for (const r of rows) it(r.name, () => assert.equal(held(r.added).conflicts(r.check[1], r.check[0], r.check[2]), r.want));
});

describe('NodeInfo: used host ports follow the pods one at a time', () => {
  const withPorts = (name: string, ...ports: [number, string?][]): Pod => {
    const p = pod(name);
    p.spec.containers[0]!.ports = ports.map(([hostPort, hostIP]) => ({ containerPort: hostPort, hostPort, protocol: 'TCP', ...(hostIP ? { hostIP } : {}) }));
    return p;
  };
  it('adding and removing pods holds and frees their ports; a port two pods hold stays held until both are gone', () => {
    const info = NodeInfo.of(node('n1'), [withPorts('a', [80], [443]), withPorts('b', [80, '10.0.0.1']), withPorts('c', [80, '10.0.0.1'])], gates);
    assert.equal(info.usedPorts.size, 3);
    info.removePod('0');
    assert.deepEqual([info.usedPorts.conflicts('', 'TCP', 443), info.usedPorts.conflicts('10.0.0.2', 'TCP', 80), info.usedPorts.conflicts('', 'TCP', 80)], [false, false, true]);
    info.removePod('1');
    assert.equal(info.usedPorts.conflicts('10.0.0.1', 'TCP', 80), true);
    info.removePod('2');
    assert.equal(info.usedPorts.size, 0);
  });
  it('the cache frees a deleted pod’s ports, and the nominated copy holds the nominated pods’ ports', () => {
    const c = new SchedulerCache(gates);
    c.setNode(node('n1'));
    c.updatePod(boundTo(withPorts('a', [8080]), 'n1'));
    assert.equal(c.nodeInfo('n1')!.usedPorts.conflicts('', 'TCP', 8080), true);
    const copy = c.nodeInfo('n1')!.withPods([withPorts('nom', [9090])], gates);
    assert.deepEqual([copy.usedPorts.size, c.nodeInfo('n1')!.usedPorts.size], [2, 1]);
    c.removePod('default/a');
    assert.equal(c.nodeInfo('n1')!.usedPorts.size, 0);
  });
});

describe('SchedulerCache: assume, confirm, forget', () => {
  const setUp = () => {
    const c = new SchedulerCache(gates);
    c.setNode(node('n1'));
    c.setNode(node('n2'));
    return c;
  };
  const p = Object.freeze(pod('p', { cpu: '500m', memory: '256Mi' }));

  it('an assumed pod is counted on its node at once, before any event', () => {
    const c = setUp();
    assert.equal(c.assume(p, 'n1'), true);
    assert.equal(c.isAssumed('default/p'), true);
    assert.deepEqual(counted(c.nodeInfo('n1')), [1, 500, 256 * Mi, 500, 256 * Mi]);
    assert.deepEqual(counted(c.nodeInfo('n2')), [0, 0, 0, 0, 0]);
    // Preemption reads it as bound there.
    assert.equal(c.nodeInfo('n1')!.podList()[0]!.spec.nodeName, 'n1');
  });

  it('a pod already counted is not assumed again', () => {
    const c = setUp();
    c.assume(p, 'n1');
    assert.equal(c.assume(p, 'n2'), false);
    assert.deepEqual(counted(c.nodeInfo('n2')), [0, 0, 0, 0, 0]);
  });

  it('forget (a failed binding) gives the room back', () => {
    const c = setUp();
    c.assume(p, 'n1');
    assert.equal(c.forget(p), true);
    assert.equal(c.isAssumed('default/p'), false);
    assert.deepEqual(counted(c.nodeInfo('n1')), [0, 0, 0, 0, 0]);
  });

  it('the bound pod’s event confirms the assumption: counted once, no longer assumed, not forgotten', () => {
    const c = setUp();
    c.assume(p, 'n1');
    c.updatePod(boundTo(p, 'n1'));
    assert.equal(c.isAssumed('default/p'), false);
    assert.deepEqual(counted(c.nodeInfo('n1')), [1, 500, 256 * Mi, 500, 256 * Mi]);
    assert.equal(c.forget(p), false);
    assert.equal(c.nodeInfo('n1')!.pods.size, 1);
  });

  it('a pod bound elsewhere than assumed moves there', () => {
    const c = setUp();
    c.assume(p, 'n1');
    c.updatePod(boundTo(p, 'n2'));
    assert.equal(c.nodeOf('default/p'), 'n2');
    assert.deepEqual([c.nodeInfo('n1')!.pods.size, c.nodeInfo('n2')!.pods.size], [0, 1]);
  });

  it('an assumed pod’s own pending update (a status write) keeps the assumption', () => {
    const c = setUp();
    c.assume(p, 'n1');
    c.updatePod(Object.freeze({ ...p, status: { conditions: [{ type: 'PodScheduled', status: 'False' }] } }));
    assert.equal(c.isAssumed('default/p'), true);
    assert.equal(c.nodeInfo('n1')!.pods.size, 1);
  });

  it('a pending pod of the same name and another uid (deleted and made again) drops the assumption', () => {
    const c = setUp();
    c.assume(p, 'n1');
    c.updatePod(Object.freeze({ ...p, metadata: { ...p.metadata, uid: 'other' } }));
    assert.equal(c.isAssumed('default/p'), false);
    assert.equal(c.nodeInfo('n1')!.pods.size, 0);
  });

  it('forget only forgets the pod of that uid', () => {
    const c = setUp();
    c.assume(p, 'n1');
    assert.equal(c.forget({ ...p, metadata: { ...p.metadata, uid: 'other' } }), false);
    assert.equal(c.nodeInfo('n1')!.pods.size, 1);
  });

  it('a pod deleted while its binding is written leaves the cache; the failed binding then forgets nothing', () => {
    const c = setUp();
    c.assume(p, 'n1');
    c.removePod('default/p');
    assert.equal(c.nodeInfo('n1')!.pods.size, 0);
    assert.equal(c.forget(p), false);
  });

  it('a bound pod that finishes is no longer counted', () => {
    const c = setUp();
    c.updatePod(boundTo(p, 'n1'));
    c.updatePod(boundTo(p, 'n1', 'Succeeded'));
    assert.equal(c.nodeInfo('n1')!.pods.size, 0);
  });
});

describe('SchedulerCache: the node list', () => {
  it('is the same array until a node comes or goes, and in name order', () => {
    const c = new SchedulerCache(gates);
    c.setNode(node('b'));
    c.setNode(node('a'));
    const first = c.nodeList();
    assert.deepEqual(first.map((n) => n.name), ['a', 'b']);
    c.setNode(node('a', { cpu: '4', memory: '4Gi', pods: '110' }));
    c.updatePod(boundTo(pod('x', { cpu: '1' }), 'a'));
    assert.equal(c.nodeList(), first, 'an update or a pod does not rebuild it');
    assert.equal(c.nodeInfo('a')!.allocatableCPU, 4000, 'the update is read in place');
    c.setNode(node('c'));
    assert.deepEqual(c.nodeList().map((n) => n.name), ['a', 'b', 'c']);
  });

  it('a deleted node leaves the list; its pods stay counted and count again if it returns', () => {
    const c = new SchedulerCache(gates);
    c.setNode(node('a'));
    c.updatePod(boundTo(pod('x', { cpu: '1' }), 'a'));
    c.removeNode('a');
    assert.deepEqual(c.nodeList(), []);
    assert.equal(c.nodeInfo('a'), undefined);
    c.setNode(node('a'));
    assert.deepEqual(counted(c.nodeInfo('a')).slice(0, 2), [1, 1000]);
  });

  it('a pod bound to a node not yet seen is counted once the node arrives', () => {
    const c = new SchedulerCache(gates);
    c.updatePod(boundTo(pod('x', { cpu: '1' }), 'late'));
    assert.deepEqual(c.nodeList(), []);
    c.setNode(node('late'));
    assert.deepEqual(counted(c.nodeInfo('late')).slice(0, 2), [1, 1000]);
  });
});

describe('decisions on the cache never overcommit while bindings are pending', () => {
  it('each decision counts the pods assumed before it', () => {
    const c = new SchedulerCache(gates);
    for (const n of ['a', 'b']) c.setNode(node(n, { cpu: '2', memory: '1Gi', pods: '110' }));
    const placed: string[] = [];
    for (let i = 0; i < 7; i++) {
      const p = Object.freeze(pod(`p${i}`, { memory: '300Mi' }));
      const d = pickNodeInfo(p, c.nodeList(), gates);
      placed.push(d.node ?? d.message!);
      if (d.node) c.assume(p, d.node);
    }
    assert.deepEqual(placed, ['a', 'b', 'a', 'b', 'a', 'b', '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.']);
  });

  it('a forgotten pod’s room is taken by the next decision', () => {
    const c = new SchedulerCache(gates);
    c.setNode(node('solo', { cpu: '2', memory: '512Mi', pods: '110' }));
    const first = Object.freeze(pod('first', { memory: '400Mi' }));
    const second = Object.freeze(pod('second', { memory: '400Mi' }));
    c.assume(first, pickNodeInfo(first, c.nodeList(), gates).node!);
    assert.equal(pickNodeInfo(second, c.nodeList(), gates).node, undefined);
    c.forget(first);
    assert.equal(pickNodeInfo(second, c.nodeList(), gates).node, 'solo');
  });
});

describe('numFeasibleNodesToFind (percentageOfNodesToScore)', () => {
  const rows: { name: string; nodes: number; percentage?: number; want: number }[] = [
    { name: 'fewer than 100 nodes: all of them', nodes: 99, want: 99 },
    { name: '100 nodes: at least 100', nodes: 100, want: 100 },
    { name: '200 nodes: 49% is 98, raised to 100', nodes: 200, want: 100 },
    { name: '1,000 nodes: 50 − 8 = 42%', nodes: 1000, want: 420 },
    { name: '5,000 nodes: 10%', nodes: 5000, want: 500 },
    { name: '6,000 nodes: 50 − 48 = 2%, raised to 5%', nodes: 6000, want: 300 },
    { name: 'a configured percentage replaces the adaptive one', nodes: 1000, percentage: 30, want: 300 },
    { name: 'a configured percentage still finds at least 100', nodes: 1000, percentage: 5, want: 100 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(numFeasibleNodesToFind(r.nodes, r.percentage), r.want));
});

describe('the walk over many nodes', () => {
  const many = (n: number): Node[] => Array.from({ length: n }, (_, i) => node(`n${String(i).padStart(3, '0')}`));
  const p = pod('p', { memory: '10Mi' });

  it('stops once numFeasibleNodesToFind nodes fit, ties going to the first walked', () => {
    const d = pickNode(p, many(300), {});
    assert.deepEqual([d.node, d.processed], ['n000', 144]);
  });

  it('starts where it is told, wrapping around the end', () => {
    const d = pickNode(p, many(300), {}, gates, undefined, { startIndex: 250 });
    assert.deepEqual([d.node, d.processed], ['n250', 144]);
  });

  it('counts the nodes that do not fit among those it walked', () => {
    const nodes = many(300);
    const full = Object.fromEntries(nodes.slice(0, 10).map((n) => [n.metadata.name!, [pod(`big-${n.metadata.name}`, { memory: '4Gi' }, {}, { nodeName: n.metadata.name! })]]));
    const d = pickNode(p, nodes, full);
    assert.deepEqual([d.node, d.processed, d.verdicts.size], ['n010', 154, 10]);
  });

  it('a pod that fits nowhere is judged on every node, whatever the start', () => {
    const d = pickNode(pod('huge', { memory: '64Gi' }), many(300), {}, gates, undefined, { startIndex: 17 });
    assert.equal(d.processed, 300);
    assert.match(d.message!, /^0\/300 nodes are available: 300 Insufficient memory\./);
  });
});

describe('amounts: numbers while safe, exact beyond', () => {
  const max = Number.MAX_SAFE_INTEGER;
  const rows: { name: string; got: () => Amount; want: Amount }[] = [
    { name: 'small sums stay numbers', got: () => addAmount(2, 3), want: 5 },
    { name: 'a sum beyond 2^53 becomes an exact bigint', got: () => addAmount(max, 2), want: 9007199254740993n },
    { name: 'a bigint back in range becomes a number', got: () => subAmount(9007199254740993n, 2), want: max },
    { name: 'the score’s ⌊a × 100 / d⌋', got: () => mulDivAmount(2 * 1024 ** 3 - 1, 100, 2 * 1024 ** 3), want: 99 },
    { name: '⌊a × 100 / d⌋ near the float limit is still exact', got: () => mulDivAmount(89_000_000_000_000 - 1, 100, 89_000_000_000_000), want: 99 },
    { name: '⌊a × 100 / d⌋ beyond it, in bigints', got: () => mulDivAmount(10n ** 18n - 1n, 100, 10n ** 18n), want: 99 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(r.got(), r.want));

  it('a request beyond 2^53 is compared exactly', () => {
    const big = node('n1', { cpu: '2', memory: '16Ei', pods: '110' });
    const d = pickNode(pod('p', { memory: '16Ei' }), [big], { n1: [pod('tiny', { memory: '1' }, {}, { nodeName: 'n1' })] });
    assert.match(d.message!, /Insufficient memory/);
    assert.equal(pickNode(pod('p', { memory: '16Ei' }), [big], {}).node, 'n1');
  });
});
