// The score plugins (src/scheduler/score.ts): upstream's own rows for each plugin (v1.32), and
// rows for how pickNode adds them up (RunScorePlugins' weights and normalization).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Node, Pod, Taint, Toleration } from '../../src/api/types.js';
import {
  balancedAllocationScore,
  defaultNormalizeScore,
  nodeAffinityRawScore,
  NodeInfo,
  pickNode,
  pickNodeInfo,
  SchedulerCache,
  podState,
  preferNoScheduleTolerations,
  preferredSchedulingTerms,
  scoreNodes,
  taintTolerationRawScore,
} from '../../src/scheduler/index.js';
import { container, node, pod } from './helpers.js';

const gates = defaultFeatureGates;
type Req = Record<string, string>;
/** st.MakePod(): one container per request list (none: no containers), bound to nodeName when given. */
const reqPod = (name: string, reqs: Req[], nodeName?: string): Pod => ({
  ...pod(name),
  spec: { containers: reqs.map((r, i) => container(r, undefined, `c${i}`)), ...(nodeName ? { nodeName } : {}) },
});
/** noderesources' makeNode(name, milliCPU, memory, nil): cpu in millicores, memory in bytes. */
const makeNode = (name: string, milliCPU: number, memory: number): Node => node(name, { cpu: `${milliCPU}m`, memory: String(memory), pods: '100' });
const infos = (nodes: Node[], existing: Pod[] = []): NodeInfo[] =>
  nodes.map((n) => NodeInfo.of(n, existing.filter((e) => e.spec.nodeName === n.metadata.name), gates));

// ---------------------------------------------------------------- NodeResourcesBalancedAllocation

// noderesources/balanced_allocation_test.go TestNodeResourcesBalancedAllocation at v1.32 (stored
// copy id 311923988: PreScore without the best-effort Skip of v1.33, Score by node name): the
// rows with the default resources (cpu and memory, weight 1 each). The "include scalar
// resource…" and "node without the scalar resource…" rows configure nvidia.com/gpu, which the
// default profile does not score: left out. The pod specs are upstream's: cpuOnly and
// cpuAndMemoryAndGPU on node1, cpuOnly2 and cpuAndMemory on node2.
const cpuOnly: Req[] = [
  { cpu: '1000m', memory: '0' },
  { cpu: '2000m', memory: '0' },
];
const cpuAndMemory: Req[] = [
  { cpu: '1000m', memory: '2000' },
  { cpu: '2000m', memory: '3000' },
];
const balancedRows: { name: string; pod: Pod; nodes: Node[]; existing?: Pod[]; scores: number[] }[] = [
  { name: 'nothing scheduled, nothing requested', pod: reqPod('p', []), nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)], scores: [100, 100] },
  {
    name: 'nothing scheduled, resources requested, differently sized nodes',
    pod: reqPod('p', cpuAndMemory),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 6000, 10000)],
    scores: [87, 100],
  },
  {
    name: 'no resources requested, pods without container scheduled',
    pod: reqPod('p', []),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)],
    existing: [reqPod('e1', [], 'node1'), reqPod('e2', [], 'node1'), reqPod('e3', [], 'node2'), reqPod('e4', [], 'node2')],
    scores: [100, 100],
  },
  {
    // The pods have no containers (st.MakePod()), so nothing is requested: both nodes are balanced.
    name: 'no resources requested, pods with container scheduled',
    pod: reqPod('p', []),
    nodes: [makeNode('node1', 250, 1000 * 1024 * 1024), makeNode('node2', 250, 1000 * 1024 * 1024)],
    existing: [reqPod('e1', [], 'node1'), reqPod('e2', [], 'node1')],
    scores: [100, 100],
  },
  {
    name: 'no resources requested, pods scheduled with resources',
    pod: reqPod('p', []),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuOnly, 'node1'), reqPod('e3', cpuOnly, 'node2'), reqPod('e4', cpuAndMemory, 'node2')],
    scores: [70, 82],
  },
  {
    name: 'resources requested, pods scheduled with resources',
    pod: reqPod('p', cpuAndMemory),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuAndMemory, 'node2')],
    scores: [82, 95],
  },
  {
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: reqPod('p', cpuAndMemory),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 50000)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuAndMemory, 'node2')],
    scores: [82, 80],
  },
  {
    name: 'requested resources at node capacity',
    pod: reqPod('p', cpuOnly),
    nodes: [makeNode('node1', 6000, 10000), makeNode('node2', 6000, 10000)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuAndMemory, 'node2')],
    scores: [50, 75],
  },
  {
    name: 'zero node resources, pods scheduled with resources',
    pod: reqPod('p', []),
    nodes: [makeNode('node1', 0, 0), makeNode('node2', 0, 0)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuAndMemory, 'node2')],
    scores: [100, 100],
  },
  {
    // Bulkhead keeps no PreScore state: the same computation as the row above it in upstream's table.
    name: 'resources requested, pods scheduled with resources if PreScore not called',
    pod: reqPod('p', cpuAndMemory),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [reqPod('e1', cpuOnly, 'node1'), reqPod('e2', cpuAndMemory, 'node2')],
    scores: [82, 95],
  },
  // Bulkhead's rows for the rules the table leaves implicit.
  {
    // v1.32 uses the real requests (useRequested: true): a container without requests counts 0, not 100m/200Mi.
    name: 'a container without requests counts nothing (no non-zero defaults)',
    pod: reqPod('p', [{}]),
    nodes: [makeNode('node1', 4000, 10000)],
    existing: [reqPod('e1', [{ cpu: '2000m', memory: '0' }], 'node1')],
    // cpu 2000/4000 = 0.5, memory 0: std 0.25, (1 − 0.25) × 100 = 75
    scores: [75],
  },
  {
    name: 'a node with cpu only is balanced (one fraction: std 0)',
    pod: reqPod('p', [{ cpu: '3000m', memory: '4000' }]),
    nodes: [node('node1', { cpu: '4000m' })],
    scores: [100],
  },
];

describe('NodeResourcesBalancedAllocation (upstream TestNodeResourcesBalancedAllocation)', () => {
  for (const r of balancedRows) {
    it(r.name, () => {
      const s = podState(r.pod, gates);
      assert.deepEqual(
        infos(r.nodes, r.existing).map((n) => balancedAllocationScore(s, n)),
        r.scores,
      );
    });
  }
});

// ---------------------------------------------------------------- TaintToleration

// tainttoleration/taint_toleration_test.go TestTaintTolerationScore (v1.32 rows; the Gt/Lt rows of
// later versions need the TaintTolerationComparisonOperators gate, which v1.32 does not have).
const tol = (key: string, value: string, effect: Toleration['effect']): Toleration => ({ key, operator: 'Equal', value, effect });
const taint = (key: string, value: string, effect: Taint['effect']): Taint => ({ key, value, effect });
const tainted = (name: string, taints: Taint[]): Node => node(name, undefined, { spec: { taints } });
const taintRows: { name: string; tolerations: Toleration[]; nodes: Node[]; scores: number[] }[] = [
  {
    name: 'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
    tolerations: [tol('foo', 'bar', 'PreferNoSchedule')],
    nodes: [tainted('nodeA', [taint('foo', 'bar', 'PreferNoSchedule')]), tainted('nodeB', [taint('foo', 'blah', 'PreferNoSchedule')])],
    scores: [100, 0],
  },
  {
    name: 'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
    tolerations: [tol('cpu-type', 'arm64', 'PreferNoSchedule'), tol('disk-type', 'ssd', 'PreferNoSchedule')],
    nodes: [
      tainted('nodeA', []),
      tainted('nodeB', [taint('cpu-type', 'arm64', 'PreferNoSchedule')]),
      tainted('nodeC', [taint('cpu-type', 'arm64', 'PreferNoSchedule'), taint('disk-type', 'ssd', 'PreferNoSchedule')]),
    ],
    scores: [100, 100, 100],
  },
  {
    name: 'the more intolerable taints a node has, the lower score it gets.',
    tolerations: [tol('foo', 'bar', 'PreferNoSchedule')],
    nodes: [
      tainted('nodeA', []),
      tainted('nodeB', [taint('cpu-type', 'arm64', 'PreferNoSchedule')]),
      tainted('nodeC', [taint('cpu-type', 'arm64', 'PreferNoSchedule'), taint('disk-type', 'ssd', 'PreferNoSchedule')]),
    ],
    scores: [100, 50, 0],
  },
  {
    name: 'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
    tolerations: [tol('cpu-type', 'arm64', 'NoSchedule'), tol('disk-type', 'ssd', 'NoSchedule')],
    nodes: [
      tainted('nodeA', []),
      tainted('nodeB', [taint('cpu-type', 'arm64', 'NoSchedule')]),
      tainted('nodeC', [taint('cpu-type', 'arm64', 'PreferNoSchedule'), taint('disk-type', 'ssd', 'PreferNoSchedule')]),
    ],
    scores: [100, 100, 0],
  },
  {
    name: 'Default behaviour No taints and tolerations, lands on node with no taints',
    tolerations: [],
    nodes: [tainted('nodeA', []), tainted('nodeB', [taint('cpu-type', 'arm64', 'PreferNoSchedule')])],
    scores: [100, 0],
  },
  // Bulkhead's rows: a toleration without effect tolerates PreferNoSchedule too; Exists without a key tolerates everything.
  {
    name: 'a toleration without effect tolerates a PreferNoSchedule taint',
    tolerations: [{ key: 'foo', operator: 'Exists' }],
    nodes: [tainted('nodeA', [taint('foo', 'x', 'PreferNoSchedule')]), tainted('nodeB', [taint('bar', 'x', 'PreferNoSchedule')])],
    scores: [100, 0],
  },
  {
    name: 'the condition taints (NoSchedule) are not counted',
    tolerations: [],
    nodes: [node('nodeA', undefined, { conditions: [{ type: 'Ready', status: 'True' }, { type: 'DiskPressure', status: 'True' }] }), tainted('nodeB', [])],
    scores: [100, 100],
  },
];

describe('TaintToleration score (upstream TestTaintTolerationScore)', () => {
  for (const r of taintRows) {
    it(r.name, () => {
      const p = pod('pod1', undefined, { tolerations: r.tolerations });
      const tolerations = preferNoScheduleTolerations(p);
      const scores = infos(r.nodes).map((n) => taintTolerationRawScore(tolerations, n));
      defaultNormalizeScore(scores, true);
      assert.deepEqual(scores, r.scores);
    });
  }
});

// ---------------------------------------------------------------- NodeAffinity

// nodeaffinity/node_affinity_test.go TestNodeAffinityPriority (v1.32 rows). The "added affinity"
// rows configure NodeAffinityArgs.addedAffinity, which Bulkhead has no profile for: left out.
const label1 = { foo: 'bar' };
const label2 = { key: 'value' };
const label3 = { az: 'az1' };
const label4 = { abc: 'az11', def: 'az22' };
const label5 = { foo: 'bar', key: 'value', az: 'az1' };
const inTerm = (...kv: [string, string][]) => ({ matchExpressions: kv.map(([key, v]) => ({ key, operator: 'In', values: [v] })) });
const affinity1 = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: inTerm(['foo', 'bar']) }] } };
const affinity2 = {
  nodeAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 2, preference: inTerm(['foo', 'bar']) },
      { weight: 4, preference: inTerm(['key', 'value']) },
      { weight: 5, preference: inTerm(['foo', 'bar'], ['key', 'value'], ['az', 'az1']) },
    ],
  },
};
const labelled = (name: string, labels: Record<string, string>): Node => node(name, undefined, { labels });
const withAffinity = (affinity?: unknown): Pod => pod('p', undefined, affinity ? ({ affinity } as Partial<Pod['spec']>) : {});
/** Score and NormalizeScore as the test runs them; a pod PreScore skips scores 0 everywhere. */
function affinityScores(p: Pod, nodes: Node[]): number[] {
  const terms = preferredSchedulingTerms(p) ?? [];
  const scores = nodes.map((n) => nodeAffinityRawScore(terms, n));
  defaultNormalizeScore(scores, false);
  return scores;
}

describe('NodeAffinity score (upstream TestNodeAffinityPriority)', () => {
  const rows: { name: string; pod: Pod; nodes: Node[]; scores: number[] }[] = [
    { name: 'all nodes are same priority as NodeAffinity is nil', pod: withAffinity(), nodes: [labelled('node1', label1), labelled('node2', label2), labelled('node3', label3)], scores: [0, 0, 0] },
    {
      name: "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
      pod: withAffinity(affinity1),
      nodes: [labelled('node1', label4), labelled('node2', label2), labelled('node3', label3)],
      scores: [0, 0, 0],
    },
    { name: 'only node1 matches the preferred scheduling requirements of pod', pod: withAffinity(affinity1), nodes: [labelled('node1', label1), labelled('node2', label2), labelled('node3', label3)], scores: [100, 0, 0] },
    {
      name: 'all nodes matches the preferred scheduling requirements of pod but with different priorities ',
      pod: withAffinity(affinity2),
      nodes: [labelled('node1', label1), labelled('node5', label5), labelled('node2', label2)],
      scores: [18, 100, 36],
    },
    {
      name: 'calculate the priorities correctly even if PreScore is not called',
      pod: withAffinity(affinity2),
      nodes: [labelled('node1', label1), labelled('node5', label5), labelled('node2', label2)],
      scores: [18, 100, 36],
    },
    // Bulkhead's rows: terms of weight 0 and empty terms count nothing; matchFields name a node.
    {
      name: 'a term of weight 0 and an empty term are dropped',
      pod: withAffinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: inTerm(['foo', 'bar']) }, { weight: 7, preference: {} }, { weight: 1, preference: inTerm(['key', 'value']) }] } }),
      nodes: [labelled('node1', label1), labelled('node2', label2)],
      scores: [0, 100],
    },
    {
      name: 'matchFields metadata.name prefers the named node',
      pod: withAffinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node2'] }] } }] } }),
      nodes: [labelled('node1', label1), labelled('node2', label2)],
      scores: [0, 100],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(affinityScores(r.pod, r.nodes), r.scores));

  it('Skip is returned in PreScore when NodeAffinity is nil', () => assert.equal(preferredSchedulingTerms(withAffinity()), undefined));
  it('PreScore returns error when an incoming Pod has a broken affinity (Bulkhead: null, then scored as skipped)', () => {
    const broken = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [{ key: 'invalid key', operator: 'In', values: ['bar'] }] } }] } };
    assert.equal(preferredSchedulingTerms(withAffinity(broken)), null);
  });
});

// ---------------------------------------------------------------- DefaultNormalizeScore

describe('DefaultNormalizeScore (helper/normalize_score.go)', () => {
  const rows: { name: string; scores: number[]; reverse: boolean; want: number[] }[] = [
    { name: 'all zero stays zero', scores: [0, 0], reverse: false, want: [0, 0] },
    { name: 'all zero reversed is all 100', scores: [0, 0], reverse: true, want: [100, 100] },
    { name: 'scaled to the largest, truncated', scores: [1, 2, 3], reverse: false, want: [33, 66, 100] },
    { name: 'reversed after the truncation', scores: [1, 2, 3], reverse: true, want: [67, 34, 0] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const s = [...r.scores];
      defaultNormalizeScore(s, r.reverse);
      assert.deepEqual(s, r.want);
    });
  }
});

// ---------------------------------------------------------------- adding up (RunScorePlugins)

describe('scoreNodes and pickNode (weights: TaintToleration 3, NodeAffinity 2, LeastAllocated 1, BalancedAllocation 1)', () => {
  it('totals are Σ weight × normalized score', () => {
    // Both nodes: cpu 4, memory 8Gi, empty. Pod 1 cpu / 2Gi: LeastAllocated (75 + 75) / 2 = 75,
    // balanced 100. n1 has one untolerated PreferNoSchedule taint (taint score 0), n2 none (100).
    // n2 is preferred with weight 5 (affinity 100), n1 not (0).
    const p = reqPod('p', [{ cpu: '1', memory: '2Gi' }]);
    p.spec.affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, preference: inTerm(['zone', 'b']) }] } } as Pod['spec']['affinity'];
    const nodes = [
      node('n1', { cpu: '4', memory: '8Gi', pods: '110' }, { spec: { taints: [taint('x', 'y', 'PreferNoSchedule')] } }),
      node('n2', { cpu: '4', memory: '8Gi', pods: '110' }, { labels: { zone: 'b' } }),
    ];
    assert.deepEqual(scoreNodes(podState(p, gates), infos(nodes)), [75 + 100, 3 * 100 + 2 * 100 + 75 + 100]);
  });

  const two = (n1: Parameters<typeof node>[2] = {}, n2: Parameters<typeof node>[2] = {}) => [
    node('n1', { cpu: '2', memory: '4Gi', pods: '110' }, n1),
    node('n2', { cpu: '2', memory: '4Gi', pods: '110' }, n2),
  ];
  const rows: { name: string; pod: Pod; nodes: Node[]; bound?: Pod[]; node: string }[] = [
    {
      name: 'an untolerated PreferNoSchedule taint outweighs a fuller node',
      pod: reqPod('p', [{ cpu: '100m', memory: '100Mi' }]),
      nodes: two({ spec: { taints: [taint('dedicated', 'db', 'PreferNoSchedule')] } }),
      bound: [reqPod('a', [{ cpu: '1', memory: '2Gi' }], 'n2')],
      node: 'n2',
    },
    {
      name: 'a tolerated PreferNoSchedule taint costs nothing: the emptier node wins',
      pod: { ...reqPod('p', [{ cpu: '100m', memory: '100Mi' }]), spec: { ...reqPod('p', [{ cpu: '100m', memory: '100Mi' }]).spec, tolerations: [tol('dedicated', 'db', 'PreferNoSchedule')] } },
      nodes: two({ spec: { taints: [taint('dedicated', 'db', 'PreferNoSchedule')] } }),
      bound: [reqPod('a', [{ cpu: '1', memory: '2Gi' }], 'n2')],
      node: 'n1',
    },
    {
      name: 'preferred node affinity outweighs a fuller node',
      pod: withAffinity(affinity1),
      nodes: two({}, { labels: label1 }),
      bound: [reqPod('a', [{ cpu: '1', memory: '2Gi' }], 'n2')],
      node: 'n2',
    },
    {
      // With the pod (500m, 1Gi) added, n1 holds 0.5 cpu / 3Gi and n2 1 cpu / 2Gi of 2 cpu / 4Gi:
      // LeastAllocated ties at (75 + 25) / 2 = (50 + 50) / 2 = 50, and BalancedAllocation gives n1
      // (1 − |0.25 − 0.75| / 2) × 100 = 75 and n2 100, so n2 wins although n1 comes first.
      name: 'BalancedAllocation decides when LeastAllocated ties',
      pod: reqPod('p', [{ cpu: '500m', memory: '1Gi' }]),
      nodes: two(),
      bound: [reqPod('a', [{ cpu: '0', memory: '2Gi' }], 'n1'), reqPod('b', [{ cpu: '500m', memory: '1Gi' }], 'n2')],
      node: 'n2',
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const bound = r.bound ?? [];
      const byNode = Object.fromEntries(r.nodes.map((n) => [n.metadata.name!, bound.filter((b) => b.spec.nodeName === n.metadata.name)]));
      assert.equal(pickNode(r.pod, r.nodes, byNode).node, r.node);
    });
  }

  it('a single feasible node is taken without scoring', () => {
    const d = pickNode(reqPod('p', [{ memory: '3Gi' }]), two(), { n1: [reqPod('a', [{ memory: '2Gi' }], 'n1')] });
    assert.equal(d.node, 'n2');
    assert.equal(d.score, undefined);
  });

  it('the cache keeps a node’s PreferNoSchedule taints current: an update that adds one moves the next pod', () => {
    const cache = new SchedulerCache(gates);
    const [n1, n2] = two();
    cache.setNode(n1!);
    cache.setNode(n2!);
    const p = reqPod('p', [{ cpu: '100m', memory: '100Mi' }]);
    assert.equal(pickNodeInfo(p, cache.nodeList(), gates).node, 'n1');
    cache.setNode({ ...n1!, spec: { taints: [taint('x', 'y', 'PreferNoSchedule')] } });
    assert.equal(pickNodeInfo(p, cache.nodeList(), gates).node, 'n2');
    cache.setNode(n1!);
    assert.equal(pickNodeInfo(p, cache.nodeList(), gates).node, 'n1');
  });
});
