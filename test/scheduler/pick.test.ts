import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import { failedSchedulingMessage, leastAllocatedScore, NodeInfo, pickNode, podState } from '../../src/scheduler/index.js';
import type { Node, Pod } from '../../src/api/types.js';
import { container, node, pod } from './helpers.js';
import { capabilitiesAnnotation, encodeCapabilities } from '../../src/policy/nodecapabilities.js';

describe('failedSchedulingMessage (FitError.Error)', () => {
  const rows: { name: string; n: number; reasons: string[]; post?: string; pre?: string; want: string }[] = [
    { name: 'one reason on every node', n: 2, reasons: ['Insufficient memory', 'Insufficient memory'], want: '0/2 nodes are available: 2 Insufficient memory.' },
    {
      name: 'mixed reasons, counted and sorted as strings',
      n: 3,
      reasons: ["node(s) didn't match Pod's node affinity/selector", 'Insufficient cpu', "node(s) didn't match Pod's node affinity/selector"],
      want: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
    },
    {
      name: 'a node with two reasons counts in both',
      n: 2,
      reasons: ['Insufficient cpu', 'Insufficient memory', 'Insufficient memory'],
      want: '0/2 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.',
    },
    { name: 'counts sort as text (10 before 2)', n: 12, reasons: [...Array(10).fill('Insufficient memory'), 'Too many pods', 'Too many pods'], want: '0/12 nodes are available: 10 Insufficient memory, 2 Too many pods.' },
    {
      name: 'with the preemption message',
      n: 1,
      reasons: ['Insufficient cpu'],
      post: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
      want: '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    },
    // framework/types_test.go TestFitError_Error (v1.32). A PreFilter rejection's copies on the nodes are not counted: no reasons.
    { name: 'TestFitError_Error: nodes failed Prefilter plugin', n: 3, reasons: [], pre: 'Node(s) failed PreFilter plugin FalsePreFilter', want: '0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.' },
    {
      name: 'TestFitError_Error: nodes failed Prefilter plugin and the preemption also failed',
      n: 3,
      reasons: [],
      pre: 'Node(s) failed PreFilter plugin FalsePreFilter',
      post: 'Error running PostFilter plugin FailedPostFilter',
      want: '0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running PostFilter plugin FailedPostFilter',
    },
    { name: 'TestFitError_Error: nodes failed one Filter plugin with an empty PostFilterMsg', n: 3, reasons: Array(3).fill('Node(s) failed Filter plugin FalseFilter-1'), want: '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.' },
    {
      name: 'TestFitError_Error: nodes failed one Filter plugin with a non-empty PostFilterMsg',
      n: 3,
      reasons: Array(3).fill('Node(s) failed Filter plugin FalseFilter-1'),
      post: 'Error running PostFilter plugin FailedPostFilter',
      want: '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    },
    {
      name: 'TestFitError_Error: nodes failed two Filter plugins with an empty PostFilterMsg',
      n: 3,
      reasons: ['Node(s) failed Filter plugin FalseFilter-1', 'Node(s) failed Filter plugin FalseFilter-1', 'Node(s) failed Filter plugin FalseFilter-2'],
      want: '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.',
    },
    {
      name: 'TestFitError_Error: nodes failed two Filter plugins with a non-empty PostFilterMsg',
      n: 3,
      reasons: ['Node(s) failed Filter plugin FalseFilter-1', 'Node(s) failed Filter plugin FalseFilter-1', 'Node(s) failed Filter plugin FalseFilter-2'],
      post: 'Error running PostFilter plugin FailedPostFilter',
      want: '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    },
    { name: 'TestFitError_Error: failed to Permit on node', n: 1, reasons: ['Node failed Permit plugin Permit-1'], want: '0/1 nodes are available: 1 Node failed Permit plugin Permit-1.' },
    { name: 'TestFitError_Error: failed to Reserve on node', n: 1, reasons: ['Node failed Reserve plugin Reserve-1'], want: '0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(failedSchedulingMessage(r.n, r.reasons, r.post, r.pre), r.want));
});

/** A pod asking for TCP host port `port` on every hostIP, bound to `on` when given. */
function hostPortPod(name: string, port: number, on?: string): Pod {
  const p = pod(name, { memory: '10Mi' }, {}, on ? { nodeName: on } : {});
  p.spec.containers[0]!.ports = [{ containerPort: port, hostPort: port, protocol: 'TCP' }];
  return p;
}

describe('pickNode', () => {
  const two = [node('n1', { cpu: '1', memory: '1Gi', pods: '110' }), node('n2', { cpu: '1', memory: '1Gi', pods: '110' })];
  const three = [...two, node('n3', { cpu: '1', memory: '1Gi', pods: '110' })];
  /** A DaemonSet pod's required node affinity: matchFields metadata.name In names. */
  const pinned = (names: string[], requests = { memory: '10Mi' }): Pod =>
    pod('p', requests, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: names }] }] } } } });
  const rows: { name: string; pod: Pod; nodes: Node[]; bound?: Record<string, Pod[]>; node?: string; message?: string }[] = [
    { name: 'ties go to the first name', pod: pod('p', { memory: '100Mi' }), nodes: two, node: 'n1' },
    { name: 'the least requested node wins', pod: pod('p', { memory: '100Mi' }), nodes: two, bound: { n1: [pod('a', { memory: '500Mi', cpu: '500m' }, {}, { nodeName: 'n1' })] }, node: 'n2' },
    {
      name: 'scoring counts a pod without requests as 100m/200Mi',
      pod: pod('p', { memory: '100Mi' }),
      nodes: two,
      bound: { n1: [pod('a', undefined, {}, { nodeName: 'n1' })] },
      node: 'n2',
    },
    {
      name: 'nowhere enough memory',
      pod: pod('p', { memory: '2Gi' }),
      nodes: two,
      message: '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    },
    {
      name: 'mixed: a tainted node and a full one',
      pod: pod('p', { memory: '2Gi' }),
      nodes: [node('n1', { cpu: '1', memory: '1Gi', pods: '110' }), node('n2', undefined, { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } })],
      message:
        '0/2 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {dedicated: db}. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'nodeSelector matches no node',
      pod: pod('p', { memory: '10Mi' }, { nodeSelector: { disk: 'ssd' } }),
      nodes: two,
      message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    },
    {
      name: 'nodeName pinned to a node that does not exist',
      pod: pod('p', { memory: '10Mi' }, {}, { nodeName: 'ghost' }),
      nodes: two,
      message: "0/2 nodes are available: 2 node(s) didn't match the requested node name. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    },
    {
      name: 'BestEffort pod, both nodes under memory pressure',
      pod: pod('p'),
      nodes: two.map((n) => ({ ...n, status: { ...n.status, conditions: [{ type: 'Ready', status: 'True' }, { type: 'MemoryPressure', status: 'True' }] } })),
      message: '0/2 nodes are available: 2 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    },
    {
      name: 'Burstable pod, both nodes under memory pressure',
      pod: pod('p', { memory: '10Mi' }),
      nodes: two.map((n) => ({ ...n, status: { ...n.status, conditions: [{ type: 'Ready', status: 'True' }, { type: 'MemoryPressure', status: 'True' }] } })),
      node: 'n1',
    },
    {
      name: 'ulimits, one node declares the feature',
      pod: (() => {
        const p = pod('p', { memory: '10Mi' });
        p.spec.containers[0]!.securityContext = { ulimits: [{ name: 'nofile', soft: 1024, hard: 4096 }] };
        return p;
      })(),
      nodes: [two[0]!, node('n2', undefined, { declaredFeatures: ['ContainerUlimits'] })],
      node: 'n2',
    },
    {
      name: 'ulimits, no node declares the feature',
      pod: (() => {
        const p = pod('p', { memory: '10Mi' });
        p.spec.containers[0]!.securityContext = { ulimits: [{ name: 'nofile', soft: 1024, hard: 4096 }] };
        return p;
      })(),
      nodes: two,
      message: "0/2 nodes are available: 2 node(s) didn't match Pod's required features. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    },
    {
      name: 'ulimits above the ceilings: nodes with the same ceiling are counted together, the others apart',
      pod: (() => {
        const p = pod('p', { memory: '10Mi' });
        p.spec.containers[0]!.securityContext = { ulimits: [{ name: 'nofile', soft: 65535, hard: 65535 }] };
        return p;
      })(),
      nodes: [['n1', '20000'], ['n2', '20000'], ['n3', '4096']].map(([name, nofile]) => {
        const n = node(name!, undefined, { declaredFeatures: ['ContainerUlimits'] });
        n.metadata.annotations = { [capabilitiesAnnotation]: encodeCapabilities({ cgroupVersion: 1, oomGroup: 'unsupported', minOOMScoreAdj: 0, hardRlimitCeilings: { RLIMIT_NOFILE: nofile! } }) };
        return n;
      }),
      message:
        "0/3 nodes are available: 1 node(s) cannot grant the Pod's hard ulimits (nofile hard 65535 > node ceiling 4096), 2 node(s) cannot grant the Pod's hard ulimits (nofile hard 65535 > node ceiling 20000). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    },
    {
      name: 'host port taken on one node: the pod goes to the other',
      pod: hostPortPod('p', 8080),
      nodes: two,
      bound: { n1: [hostPortPod('a', 8080, 'n1')] },
      node: 'n2',
    },
    {
      name: 'host port taken everywhere by pods of equal priority: Unschedulable, preemption finds no victims',
      pod: hostPortPod('p', 8080),
      nodes: two,
      bound: { n1: [hostPortPod('a', 8080, 'n1')], n2: [hostPortPod('b', 8080, 'n2')] },
      message: "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    },
    {
      name: 'preemptionPolicy Never',
      pod: pod('p', { memory: '2Gi' }, { preemptionPolicy: 'Never' }),
      nodes: two,
      message: '0/2 nodes are available: 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.',
    },
    {
      name: 'lower-priority pods whose removal would not help',
      pod: pod('p', { memory: '2Gi' }, { priority: 100 }),
      nodes: two,
      bound: { n1: [pod('a', { memory: '100Mi' }, { priority: 0 }, { nodeName: 'n1' })] },
      message: '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 1 Insufficient memory, 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'lower-priority pods whose removal would help: no preemption message, the pod is nominated',
      pod: pod('p', { memory: '800Mi' }, { priority: 100 }),
      nodes: [two[0]!],
      bound: { n1: [pod('a', { memory: '500Mi' }, { priority: 0 }, { nodeName: 'n1' })] },
      message: '0/1 nodes are available: 1 Insufficient memory.',
    },
    { name: 'no nodes at all', pod: pod('p', { memory: '10Mi' }), nodes: [], message: 'no nodes available to schedule pods' },
    // NodeAffinity's PreFilterResult (node_affinity.go PreFilter, schedule_one.go findNodesThatFitPod):
    // a pod whose required terms all name nodes (a DaemonSet pod) is only tried there; the other
    // nodes share the absent-nodes status.
    { name: 'node names in matchFields: the named node is chosen', pod: pinned(['n2']), nodes: three, node: 'n2' },
    {
      name: 'node names in matchFields, the named node is full: the others did not satisfy the PreFilter',
      pod: pinned(['n1'], { memory: '2Gi' }),
      nodes: three,
      message:
        "0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    },
    {
      name: 'node names in matchFields naming no node that exists',
      pod: pinned(['ghost']),
      nodes: three,
      message: "0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    },
    {
      name: 'a term without node names lets every node through (terms are ORed)',
      pod: pod('p', { memory: '10Mi' }, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }] } } } }),
      nodes: [three[0]!, three[1]!, node('n3', undefined, { labels: { zone: 'b' } })],
      bound: { n1: [pod('a', { memory: '4Gi' }, {}, { nodeName: 'n1' })] },
      node: 'n3',
    },
    {
      name: 'conflicting node names: the PreFilter rejects the pod (TestNodeAffinity "Pod with two conflicting mach field requirements")',
      pod: pod('p', { memory: '10Mi' }, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }, { key: 'metadata.name', operator: 'In', values: ['n2'] }] }] } } } }),
      nodes: three,
      message: '0/3 nodes are available: pod affinity terms conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = pickNode(r.pod, r.nodes, r.bound ?? {});
      assert.equal(d.node, r.node);
      assert.equal(d.message, r.message);
    });
  }

  it('accepts a Map of pods by node and fills up nodes in turn', () => {
    const nodes = [node('a', { cpu: '2', memory: '1Gi', pods: '110' }), node('b', { cpu: '2', memory: '1Gi', pods: '110' })];
    const byNode = new Map<string, Pod[]>();
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = pod(`p${i}`, { memory: '400Mi' });
      const d = pickNode(p, nodes, byNode);
      placed.push(d.node ?? d.message!);
      if (d.node) byNode.set(d.node, [...(byNode.get(d.node) ?? []), { ...p, spec: { ...p.spec, nodeName: d.node } }]);
    }
    assert.deepEqual(placed, [
      'a',
      'b',
      'a',
      'b',
      '0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    ]);
  });
});

// noderesources/least_allocated_test.go TestLeastAllocatedScoringStrategy (v1.32): the rows that
// run the default resources (cpu and memory, weight 1 each). The rows that configure other
// resources or weights, or check the configuration's validation, are left out: Bulkhead scores
// with the default profile only. st.MakePod().Req adds one container per call; a pod made
// without Req has no containers (so no non-zero defaults); a node's Capacity is its allocatable.
type Req = Record<string, string>;
/** A pod with one container per request list (st.MakePod().Req(...)...). */
const reqPod = (name: string, reqs: Req[], nodeName?: string): Pod => ({
  ...pod(name),
  spec: { containers: reqs.map((r, i) => container(r, undefined, `c${i}`)), ...(nodeName ? { nodeName } : {}) },
});
const capNode = (name: string, cap?: Req): Node => node(name, cap ?? {});
const upstreamReq: Req[] = [
  { cpu: '1000', memory: '2000' },
  { cpu: '2000', memory: '3000' },
];
const leastAllocatedRows: { name: string; pod: Pod; nodes: Node[]; existing?: Pod[]; scores: number[] }[] = [
  { name: 'nothing scheduled, nothing requested', pod: reqPod('p', []), nodes: [capNode('node1', { cpu: '4000', memory: '10000' }), capNode('node2', { cpu: '4000', memory: '10000' })], scores: [100, 100] },
  {
    name: 'nothing scheduled, resources requested, differently sized nodes',
    pod: reqPod('p', upstreamReq),
    nodes: [capNode('node1', { cpu: '4000', memory: '10000' }), capNode('node2', { cpu: '6000', memory: '10000' })],
    scores: [37, 50],
  },
  {
    name: 'no resources requested, pods scheduled',
    pod: reqPod('p', []),
    nodes: [capNode('node1', { cpu: '4000', memory: '10000' }), capNode('node2', { cpu: '4000', memory: '10000' })],
    existing: [reqPod('e1', [], 'node1'), reqPod('e2', [], 'node1'), reqPod('e3', [], 'node2'), reqPod('e4', [], 'node2')],
    scores: [100, 100],
  },
  {
    name: 'no resources requested, pods scheduled with resources',
    pod: reqPod('p', []),
    nodes: [capNode('node1', { cpu: '10000', memory: '20000' }), capNode('node2', { cpu: '10000', memory: '20000' })],
    existing: [
      reqPod('e1', [{ cpu: '3000', memory: '0' }], 'node1'),
      reqPod('e2', [{ cpu: '3000', memory: '0' }], 'node1'),
      reqPod('e3', [{ cpu: '3000', memory: '0' }], 'node2'),
      reqPod('e4', [{ cpu: '3000', memory: '5000' }], 'node2'),
    ],
    scores: [70, 57],
  },
  {
    name: 'resources requested, pods scheduled with resources',
    pod: reqPod('p', upstreamReq),
    nodes: [capNode('node1', { cpu: '10000', memory: '20000' }), capNode('node2', { cpu: '10000', memory: '20000' })],
    existing: [reqPod('e1', [{ cpu: '3000', memory: '0' }], 'node1'), reqPod('e2', [{ cpu: '3000', memory: '5000' }], 'node2')],
    scores: [57, 45],
  },
  {
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: reqPod('p', upstreamReq),
    nodes: [capNode('node1', { cpu: '10000', memory: '20000' }), capNode('node2', { cpu: '10000', memory: '50000' })],
    existing: [reqPod('e1', [{ cpu: '3000', memory: '0' }], 'node1'), reqPod('e2', [{ cpu: '3000', memory: '5000' }], 'node2')],
    scores: [57, 60],
  },
  {
    name: 'requested resources exceed node capacity',
    pod: reqPod('p', [{ cpu: '3000', memory: '0' }]),
    nodes: [capNode('node1', { cpu: '4000', memory: '10000' }), capNode('node2', { cpu: '4000', memory: '10000' })],
    existing: [reqPod('e1', [{ cpu: '3000', memory: '0' }], 'node1'), reqPod('e2', [{ cpu: '3000', memory: '5000' }], 'node2')],
    scores: [50, 25],
  },
  {
    name: 'zero node resources, pods scheduled with resources',
    pod: reqPod('p', []),
    nodes: [capNode('node1'), capNode('node2')],
    existing: [reqPod('e1', [{ cpu: '3000', memory: '0' }], 'node1'), reqPod('e2', [{ cpu: '3000', memory: '5000' }], 'node2')],
    scores: [0, 0],
  },
  // Bulkhead's row for the rule "if the node doesn't have a resource" pins with weights: a
  // resource the node has none of is left out of the mean (resource_allocation.go skips alloc 0),
  // so a node without memory scores on cpu alone: ((6000 - 3000) * 100) / 6000 = 50.
  { name: 'a resource the node has none of is left out of the mean', pod: reqPod('p', [{ cpu: '3000', memory: '4000' }]), nodes: [capNode('node1', { cpu: '6000' })], scores: [50] },
];

// noderesources/fit_test.go TestFitScore (v1.32): its LeastAllocated rows (the MostAllocated and
// RequestedToCapacityRatio rows configure a strategy Bulkhead does not offer). Bulkhead has no
// PreScore state, so the "if PreScore is not called" row is the same computation.
const fitScoreNodes = (cpu2: string) => [capNode('node1', { cpu: '4000', memory: '10000' }), capNode('node2', { cpu: cpu2, memory: '10000' })];
/** st.MakePod().Req(...).SidecarReq(...): a container and a restartable init container. */
const withSidecar = (p: Pod, r: Req): Pod => ({ ...p, spec: { ...p.spec, initContainers: [{ ...container(r, undefined, 'sidecar'), restartPolicy: 'Always' }] } });
const fitScoreExisting = [reqPod('e1', [{ cpu: '2000', memory: '4000' }], 'node1'), reqPod('e2', [{ cpu: '1000', memory: '2000' }], 'node2')];
leastAllocatedRows.push(
  ...[
    { name: 'test case for ScoringStrategy LeastAllocated', pod: reqPod('p', [{ cpu: '1000', memory: '2000' }]), nodes: fitScoreNodes('6000'), existing: fitScoreExisting, scores: [32, 63] },
    { name: 'test case for ScoringStrategy LeastAllocated if PreScore is not called', pod: reqPod('p', [{ cpu: '1000', memory: '2000' }]), nodes: fitScoreNodes('6000'), existing: fitScoreExisting, scores: [32, 63] },
    {
      name: 'test case for ScoringStrategy LeastAllocated with sidecar container',
      pod: reqPod('p', [{ cpu: '1000', memory: '2000' }]),
      nodes: fitScoreNodes('4000'),
      existing: [withSidecar(reqPod('e1', [{ cpu: '1000', memory: '2000' }], 'node1'), { cpu: '1000', memory: '2000' }), reqPod('e2', [{ cpu: '1000', memory: '2000' }], 'node2')],
      scores: [32, 55],
    },
  ].map((r) => ({ ...r, name: `TestFitScore: ${r.name}` })),
);

describe('upstream LeastAllocated table (leastAllocatedScore)', () => {
  for (const r of leastAllocatedRows) {
    it(r.name.startsWith('TestFitScore') ? r.name : `TestLeastAllocatedScoringStrategy: ${r.name}`, () => {
      const s = podState(r.pod, defaultFeatureGates);
      const got = r.nodes.map((n) => leastAllocatedScore(s, NodeInfo.of(n, (r.existing ?? []).filter((e) => e.spec.nodeName === n.metadata.name), defaultFeatureGates)));
      assert.deepEqual(got, r.scores);
    });
  }
});
