// kube-scheduler's own DefaultPreemption test tables, ported row by row with upstream's case
// names, run against src/scheduler/preemption.ts. Read (not copied) from kubernetes/kubernetes:
//   pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
//     (commit 008b3652959ca58af8be3fb5b6ecfe9ae7638282): TestPostFilter, TestDryRunPreemption,
//     TestSelectBestCandidate, TestPodEligibleToPreemptOthers, TestPreempt
//   pkg/scheduler/framework/preemption/preemption_test.go
//     (commit 02850301e61b0491a6efad7fb440dfa1b03cfc96): TestNodesWherePreemptionMightHelp
// Upstream's fixtures: st.MakeNode().Capacity(res) gives the node res plus 32 pods unless res
// names pods; st.MakePod().Req(res) one container requesting res; start times epochTime..6 are
// 0..6 ns after the epoch, here 0..6 s (the API serializes seconds). Upstream's filter plugin in
// these tables is NodeResourcesFit; Bulkhead runs its whole filter set, of which only the fit
// filter has anything to reject here.
//
// Left out, and why: rows that need a fake or error-returning plugin (TestPlugin's RemovePod
// error, FalseFilter/TrueFilter/MatchFilter, FakeFilter's return codes, FakePostFilterPlugin),
// scheduler extenders (Bulkhead has none), InterPodAffinity and PodTopologySpread (Bulkhead
// does not filter on them), PodGroup / workload-aware preemption (after v1.32), and the counts
// of filter calls (expectedNumFilterCalled: Bulkhead's filters are not pluggable to count).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { LabelSelector, Node, Pod, PodDisruptionBudget, ResourceList } from '../../src/api/types.js';
import {
  dryRunPreemption,
  ineligibleToPreempt,
  nodesWherePreemptionMightHelp,
  numCandidatesFor,
  pickOneNodeForPreemption,
  preempt,
  type FitResult,
  type PreemptionArgs,
} from '../../src/scheduler/index.js';
import { node, pod } from './helpers.js';

const gates = defaultFeatureGates;
const negPriority = -100;
const lowPriority = 0;
const midPriority = 100;
const highPriority = 1000;
const veryHighPriority = 10000;

const smallRes: ResourceList = { cpu: '100m', memory: '100' };
const mediumRes: ResourceList = { cpu: '200m', memory: '200' };
const largeRes: ResourceList = { cpu: '300m', memory: '300' };
const veryLargeRes: ResourceList = { cpu: '500m', memory: '500' };
const onePodRes: ResourceList = { pods: '1' };
const nodeRes: ResourceList = { cpu: '200m', memory: '400' };

/** st.MakeNode().Name(name).Capacity(res). */
function mkNode(name: string, res: ResourceList = veryLargeRes): Node {
  return node(name, { pods: '32', ...res });
}

interface PodOpts {
  prio?: number;
  node?: string;
  req?: ResourceList;
  start?: number;
  labels?: Record<string, string>;
  nominated?: string;
  never?: boolean;
  terminating?: boolean;
  preemptedByScheduler?: boolean;
}

/** st.MakePod().Name(name).UID(name)… */
function mk(name: string, o: PodOpts = {}): Pod {
  const p = pod(name, o.req, { ...(o.prio !== undefined ? { priority: o.prio } : {}), ...(o.never ? { preemptionPolicy: 'Never' } : {}) }, o.node ? { nodeName: o.node } : {});
  p.metadata.uid = name;
  if (o.labels) p.metadata.labels = o.labels;
  if (o.terminating) p.metadata.deletionTimestamp = '2030-01-01T00:00:00Z';
  const status: NonNullable<Pod['status']> = {};
  if (o.start !== undefined) status.startTime = new Date(o.start * 1000).toISOString().replace('.000Z', 'Z');
  if (o.nominated) status.nominatedNodeName = o.nominated;
  if (o.preemptedByScheduler) status.conditions = [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }];
  if (Object.keys(status).length) p.status = status;
  return p;
}

function byNode(pods: readonly Pod[]): Map<string, Pod[]> {
  const m = new Map<string, Pod[]>();
  for (const p of pods) {
    const n = p.spec.nodeName!;
    m.set(n, [...(m.get(n) ?? []), p]);
  }
  return m;
}

type Code = 'Unschedulable' | 'UnschedulableAndUnresolvable';
function status(code: Code, reason = ''): FitResult {
  return { fits: false, reasons: reason ? [reason] : [], rejection: { code, plugin: '', reasons: reason ? [reason] : [] } };
}
const statuses = (m: Record<string, Code>) => new Map(Object.entries(m).map(([n, c]) => [n, status(c)]));

function pdb(name: string, selector: LabelSelector, disruptionsAllowed: number, disruptedPods?: Record<string, string>): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector },
    status: { disruptionsAllowed, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...(disruptedPods ? { disruptedPods } : {}) },
  };
}
const appFoo: LabelSelector = { matchLabels: { app: 'foo' } };
const LabelKeyIsViolatingPDB = 'test.kubernetes.io/is-violating-pdb';

describe('TestPostFilter (default_preemption_test.go)', () => {
  const rows: { name: string; pod: Pod; pods: Pod[]; pdbs?: PodDisruptionBudget[]; nodes: Node[]; filtered: Map<string, FitResult>; wantNominated: string | undefined; wantMessage: string }[] = [
    {
      name: 'pod with higher priority can be made schedulable',
      pod: mk('p', { prio: highPriority }),
      pods: [mk('p1', { node: 'node1' })],
      nodes: [mkNode('node1', onePodRes)],
      filtered: statuses({ node1: 'Unschedulable' }),
      wantNominated: 'node1',
      wantMessage: '',
    },
    {
      name: 'pod with tied priority is still unschedulable',
      pod: mk('p'),
      pods: [mk('p1', { node: 'node1' })],
      nodes: [mkNode('node1', onePodRes)],
      filtered: statuses({ node1: 'Unschedulable' }),
      wantNominated: '',
      wantMessage: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'preemption should respect filteredNodesStatuses',
      pod: mk('p', { prio: highPriority }),
      pods: [mk('p1', { node: 'node1' })],
      nodes: [mkNode('node1', onePodRes)],
      filtered: statuses({ node1: 'UnschedulableAndUnresolvable' }),
      wantNominated: '',
      wantMessage: 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable',
      pod: mk('p', { prio: highPriority }),
      pods: [mk('p1', { node: 'node1' })],
      nodes: [mkNode('node1', onePodRes)],
      filtered: statuses({}),
      wantNominated: '',
      wantMessage: 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'pod can be made schedulable on one node',
      pod: mk('p', { prio: midPriority }),
      pods: [mk('p1', { prio: highPriority, node: 'node1' }), mk('p2', { prio: lowPriority, node: 'node2' })],
      nodes: [mkNode('node1', onePodRes), mkNode('node2', onePodRes)],
      filtered: statuses({ node1: 'Unschedulable', node2: 'Unschedulable' }),
      wantNominated: 'node2',
      wantMessage: '',
    },
    {
      name: 'pod can be made schedulable on minHighestPriority node',
      pod: mk('p', { prio: veryHighPriority }),
      pods: [
        mk('p1', { labels: { [LabelKeyIsViolatingPDB]: 'non-violating' }, prio: highPriority, node: 'node1' }),
        mk('p2', { labels: { [LabelKeyIsViolatingPDB]: 'violating' }, prio: lowPriority, node: 'node1' }),
        mk('p3', { labels: { [LabelKeyIsViolatingPDB]: 'violating' }, prio: midPriority, node: 'node2' }),
      ],
      // MinAvailable 100%: the disruption controller allows none; MinAvailable 0: MaxInt32.
      pdbs: [pdb('violating-pdb', { matchLabels: { [LabelKeyIsViolatingPDB]: 'violating' } }, 0), pdb('non-violating-pdb', { matchLabels: { [LabelKeyIsViolatingPDB]: 'non-violating' } }, 2147483647)],
      nodes: [mkNode('node1', onePodRes), mkNode('node2', onePodRes)],
      filtered: statuses({ node1: 'Unschedulable', node2: 'Unschedulable' }),
      wantNominated: 'node2',
      wantMessage: '',
    },
    {
      name: 'no candidate nodes found, no enough resource after removing low priority pods',
      pod: mk('p', { prio: highPriority, req: largeRes }),
      pods: [mk('p1', { node: 'node1' }), mk('p2', { node: 'node2' })],
      nodes: [mkNode('node1', nodeRes), mkNode('node2', nodeRes)],
      filtered: statuses({ node1: 'Unschedulable', node2: 'Unschedulable' }),
      wantNominated: '',
      wantMessage: 'preemption: 0/2 nodes are available: 2 Insufficient cpu.',
    },
    {
      name: 'no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource',
      pod: mk('p', { prio: highPriority, req: largeRes }),
      pods: [mk('p1', { node: 'node1', prio: highPriority }), mk('p2', { node: 'node2' }), mk('p3', { node: 'node3', prio: highPriority })],
      nodes: [mkNode('node1', onePodRes), mkNode('node2', nodeRes), mkNode('node3', onePodRes)],
      filtered: statuses({ node1: 'Unschedulable', node2: 'Unschedulable', node3: 'Unschedulable' }),
      wantNominated: '',
      wantMessage: 'preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.',
    },
    {
      name: "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource",
      pod: mk('p', { prio: highPriority, req: largeRes }),
      pods: [mk('p1', { node: 'node1' }), mk('p2', { node: 'node2' })],
      nodes: [mkNode('node1', nodeRes), mkNode('node2', nodeRes), mkNode('node3', nodeRes), mkNode('node4', nodeRes)],
      filtered: statuses({ node1: 'Unschedulable', node2: 'Unschedulable', node4: 'UnschedulableAndUnresolvable' }),
      wantNominated: '',
      wantMessage: 'preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = preempt(r.pod, r.nodes, r.filtered, byNode(r.pods), gates, undefined, r.pdbs ?? []);
      assert.equal(out.message, r.wantMessage);
      assert.equal(out.nominatedNodeName, r.wantNominated);
    });
  }
});

interface Want {
  node: string;
  victims: string[];
  numPDBViolations?: number;
}

/** Candidates as upstream's table compares them: by node name, each one's victims by name. */
function sortedCandidates(cs: readonly { node: string; victims: Pod[]; numPDBViolations: number }[]): Want[] {
  return [...cs]
    .map((c) => ({ node: c.node, victims: c.victims.map((p) => p.metadata.name!).sort(), numPDBViolations: c.numPDBViolations }))
    .sort((a, b) => (a.node < b.node ? -1 : 1));
}

describe('TestDryRunPreemption (default_preemption_test.go)', () => {
  const five = ['node1', 'node2', 'node3', 'node4', 'node5'];
  const limitTo2: PreemptionArgs = { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 };
  const rows: {
    name: string;
    args?: PreemptionArgs;
    nodeNames: string[];
    testPods: Pod[];
    initPods: Pod[];
    pdbs?: PodDisruptionBudget[];
    /** Upstream draws the offset from rand.NewSource(4): 4, then 1, then 3 for five nodes. */
    offsets?: number[];
    expected: Want[][];
  }[] = [
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: [mk('p1', { node: 'node1', prio: midPriority, req: largeRes }), mk('p2', { node: 'node2', prio: midPriority, req: largeRes })],
      expected: [[{ node: 'node1', victims: ['p1'] }, { node: 'node2', victims: ['p2'] }]],
    },
    {
      name: 'a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen',
      nodeNames: ['node1', 'node2'],
      testPods: [mk('p', { prio: lowPriority, req: largeRes })],
      initPods: [mk('p1', { node: 'node1', prio: midPriority, req: largeRes }), mk('p2', { node: 'node2', prio: midPriority, req: largeRes })],
      expected: [[]],
    },
    {
      name: 'medium priority pod is preempted, but lower priority one stays as it is small',
      nodeNames: ['node1', 'node2'],
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: [
        mk('p1.1', { node: 'node1', prio: lowPriority, req: smallRes }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: largeRes }),
        mk('p2', { node: 'node2', prio: midPriority, req: largeRes }),
      ],
      expected: [[{ node: 'node1', victims: ['p1.2'] }, { node: 'node2', victims: ['p2'] }]],
    },
    {
      name: 'mixed priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: smallRes }),
        mk('p1.2', { node: 'node1', prio: lowPriority, req: smallRes }),
        mk('p1.3', { node: 'node1', prio: midPriority, req: mediumRes }),
        mk('p1.4', { node: 'node1', prio: highPriority, req: smallRes }),
        mk('p2', { node: 'node2', prio: highPriority, req: largeRes }),
      ],
      expected: [[{ node: 'node1', victims: ['p1.2', 'p1.3'] }]],
    },
    {
      name: 'mixed priority pods are preempted, pick later StartTime one when priorities are equal',
      nodeNames: ['node1', 'node2'],
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: [
        mk('p1.1', { node: 'node1', prio: lowPriority, req: smallRes, start: 5 }),
        mk('p1.2', { node: 'node1', prio: lowPriority, req: smallRes, start: 4 }),
        mk('p1.3', { node: 'node1', prio: midPriority, req: mediumRes, start: 3 }),
        mk('p1.4', { node: 'node1', prio: highPriority, req: smallRes, start: 2 }),
        mk('p2', { node: 'node2', prio: highPriority, req: largeRes, start: 1 }),
      ],
      expected: [[{ node: 'node1', victims: ['p1.1', 'p1.3'] }]],
    },
    {
      name: 'preemption with violation of same pdb',
      nodeNames: ['node1'],
      testPods: [mk('p', { prio: highPriority, req: veryLargeRes })],
      initPods: [mk('p1.1', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }), mk('p1.2', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes })],
      pdbs: [pdb('pdb', appFoo, 1)],
      expected: [[{ node: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 1 }]],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to DisruptedPods",
      nodeNames: ['node1'],
      testPods: [mk('p', { prio: highPriority, req: veryLargeRes })],
      initPods: [mk('p1.1', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }), mk('p1.2', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes })],
      pdbs: [pdb('pdb', appFoo, 1, { p2: '2030-01-01T00:00:00Z' })],
      expected: [[{ node: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 1 }]],
    },
    {
      name: 'preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods',
      nodeNames: ['node1'],
      testPods: [mk('p', { prio: highPriority, req: veryLargeRes })],
      initPods: [mk('p1.1', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }), mk('p1.2', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes })],
      pdbs: [pdb('pdb', appFoo, 1, { 'p1.2': '2030-01-01T00:00:00Z' })],
      expected: [[{ node: 'node1', victims: ['p1.1', 'p1.2'], numPDBViolations: 0 }]],
    },
    {
      name: "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
      nodeNames: ['node1'],
      testPods: [mk('p', { prio: highPriority, req: veryLargeRes })],
      initPods: [
        mk('p1.1', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }),
        mk('p1.2', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }),
        mk('p1.3', { node: 'node1', labels: { app: 'foo' }, prio: midPriority, req: mediumRes }),
      ],
      pdbs: [pdb('pdb', appFoo, 1, { 'p1.3': '2030-01-01T00:00:00Z' })],
      expected: [[{ node: 'node1', victims: ['p1.1', 'p1.2', 'p1.3'], numPDBViolations: 1 }]],
    },
    {
      name: 'all nodes are possible candidates, but DefaultPreemptionArgs limits to 2',
      args: limitTo2,
      nodeNames: five,
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: five.map((n, i) => mk(`p${i + 1}`, { node: n, prio: midPriority, req: largeRes })),
      offsets: [4],
      // offset 4: node5 (yes), node1 (yes)
      expected: [[{ node: 'node1', victims: ['p1'] }, { node: 'node5', victims: ['p5'] }]],
    },
    {
      name: 'some nodes are not possible candidates, DefaultPreemptionArgs limits to 2',
      args: limitTo2,
      nodeNames: five,
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: five.map((n, i) => mk(`p${i + 1}`, { node: n, prio: i === 1 || i === 4 ? veryHighPriority : midPriority, req: largeRes })),
      offsets: [4],
      // offset 4: node5 (no), node1 (yes), node2 (no), node3 (yes)
      expected: [[{ node: 'node1', victims: ['p1'] }, { node: 'node3', victims: ['p3'] }]],
    },
    {
      name: 'preemption offset across multiple scheduling cycles and wrap around',
      args: limitTo2,
      nodeNames: five,
      testPods: ['tp1', 'tp2', 'tp3'].map((n) => mk(n, { prio: highPriority, req: largeRes })),
      initPods: five.map((n, i) => mk(`p${i + 1}`, { node: n, prio: midPriority, req: largeRes })),
      offsets: [4, 1, 3],
      expected: [
        [{ node: 'node1', victims: ['p1'] }, { node: 'node5', victims: ['p5'] }],
        [{ node: 'node2', victims: ['p2'] }, { node: 'node3', victims: ['p3'] }],
        [{ node: 'node4', victims: ['p4'] }, { node: 'node5', victims: ['p5'] }],
      ],
    },
    {
      name: 'preemption looks past numCandidates until a non-PDB violating node is found',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
      nodeNames: five,
      testPods: [mk('p', { prio: highPriority, req: largeRes })],
      initPods: five.map((n, i) => mk(`p${i + 1}`, { node: n, prio: midPriority, req: largeRes, ...(i === 0 || i === 1 || i === 4 ? { labels: { app: 'foo' } } : {}) })),
      pdbs: [pdb('pdb', appFoo, 0)],
      offsets: [4],
      // offset 4: node5 (yes, pdb), node1 (yes, pdb), node2 (no: the violating list is full), node3 (yes)
      expected: [[{ node: 'node1', victims: ['p1'], numPDBViolations: 1 }, { node: 'node3', victims: ['p3'] }, { node: 'node5', victims: ['p5'], numPDBViolations: 1 }]],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const nodes = r.nodeNames.map((n) => mkNode(n));
      const pods = byNode(r.initPods);
      r.testPods.forEach((p, cycle) => {
        const got = dryRunPreemption(p, nodes, pods, undefined, gates, r.pdbs ?? [], r.offsets?.[cycle] ?? 0, numCandidatesFor(nodes.length, r.args));
        const want = r.expected[cycle]!.map((w) => ({ ...w, numPDBViolations: w.numPDBViolations ?? 0 }));
        assert.deepEqual(sortedCandidates(got.candidates), want, `cycle ${cycle}`);
      });
    });
  }
});

describe('TestSelectBestCandidate (default_preemption_test.go)', () => {
  const rows: { name: string; nodeNames: string[]; pod: Pod; pods: Pod[]; expected: string[] }[] = [
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      pod: mk('p', { prio: highPriority, req: largeRes }),
      pods: [mk('p1', { node: 'node1', prio: midPriority, req: largeRes, start: 0 }), mk('p2', { node: 'node2', prio: midPriority, req: largeRes, start: 0 })],
      expected: ['node1', 'node2'],
    },
    {
      name: 'node with min highest priority pod is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: largeRes, start: 0 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p2.2', { node: 'node2', prio: lowPriority, req: mediumRes, start: 0 }),
        mk('p3.1', { node: 'node3', prio: lowPriority, req: mediumRes, start: 0 }),
        mk('p3.2', { node: 'node3', prio: lowPriority, req: mediumRes, start: 0 }),
      ],
      expected: ['node3'],
    },
    {
      name: 'when highest priorities are the same, minimum sum of priorities is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: largeRes, start: 0 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: largeRes, start: 0 }),
        mk('p2.2', { node: 'node2', prio: lowPriority, req: mediumRes, start: 0 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p3.2', { node: 'node3', prio: midPriority, req: mediumRes, start: 0 }),
      ],
      expected: ['node2'],
    },
    {
      name: 'when highest priority and sum are the same, minimum number of pods is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: smallRes, start: 0 }),
        mk('p1.2', { node: 'node1', prio: negPriority, req: smallRes, start: 0 }),
        mk('p1.3', { node: 'node1', prio: midPriority, req: smallRes, start: 0 }),
        mk('p1.4', { node: 'node1', prio: negPriority, req: smallRes, start: 0 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: largeRes, start: 0 }),
        mk('p2.2', { node: 'node2', prio: negPriority, req: mediumRes, start: 0 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p3.2', { node: 'node3', prio: negPriority, req: smallRes, start: 0 }),
        mk('p3.3', { node: 'node3', prio: lowPriority, req: smallRes, start: 0 }),
      ],
      expected: ['node2'],
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: smallRes, start: 0 }),
        mk('p1.2', { node: 'node1', prio: negPriority, req: smallRes, start: 0 }),
        mk('p1.3', { node: 'node1', prio: negPriority, req: smallRes, start: 0 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: largeRes, start: 0 }),
        mk('p2.2', { node: 'node2', prio: negPriority, req: mediumRes, start: 0 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p3.2', { node: 'node3', prio: negPriority, req: smallRes, start: 0 }),
        mk('p3.3', { node: 'node3', prio: lowPriority, req: smallRes, start: 0 }),
      ],
      expected: ['node2'],
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodeNames: ['node1', 'node2', 'node3', 'node4'],
      pod: mk('p', { prio: veryHighPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: smallRes, start: 0 }),
        mk('p1.2', { node: 'node1', prio: lowPriority, req: smallRes, start: 0 }),
        mk('p1.3', { node: 'node1', prio: lowPriority, req: smallRes, start: 0 }),
        mk('p2.1', { node: 'node2', prio: highPriority, req: largeRes, start: 0 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p3.2', { node: 'node3', prio: lowPriority, req: smallRes, start: 0 }),
        mk('p3.3', { node: 'node3', prio: lowPriority, req: smallRes, start: 0 }),
        mk('p3.4', { node: 'node3', prio: lowPriority, req: mediumRes, start: 0 }),
        mk('p4.1', { node: 'node4', prio: midPriority, req: mediumRes, start: 0 }),
        mk('p4.2', { node: 'node4', prio: midPriority, req: smallRes, start: 0 }),
        mk('p4.3', { node: 'node4', prio: midPriority, req: smallRes, start: 0 }),
        mk('p4.4', { node: 'node4', prio: negPriority, req: smallRes, start: 0 }),
      ],
      expected: ['node1'],
    },
    {
      name: 'same priority, same number of victims, different start time for each node\'s pod',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: mediumRes, start: 2 }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: mediumRes, start: 2 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: mediumRes, start: 3 }),
        mk('p2.2', { node: 'node2', prio: midPriority, req: mediumRes, start: 3 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 1 }),
        mk('p3.2', { node: 'node3', prio: midPriority, req: mediumRes, start: 1 }),
      ],
      expected: ['node2'],
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: midPriority, req: mediumRes, start: 4 }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: mediumRes, start: 2 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: mediumRes, start: 5 }),
        mk('p2.2', { node: 'node2', prio: midPriority, req: mediumRes, start: 1 }),
        mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes, start: 3 }),
        mk('p3.2', { node: 'node3', prio: midPriority, req: mediumRes, start: 6 }),
      ],
      expected: ['node3'],
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: mk('p', { prio: highPriority, req: veryLargeRes }),
      pods: [
        mk('p1.1', { node: 'node1', prio: lowPriority, req: mediumRes, start: 4 }),
        mk('p1.2', { node: 'node1', prio: midPriority, req: mediumRes, start: 2 }),
        mk('p2.1', { node: 'node2', prio: midPriority, req: mediumRes, start: 6 }),
        mk('p2.2', { node: 'node2', prio: lowPriority, req: mediumRes, start: 1 }),
        mk('p3.1', { node: 'node3', prio: lowPriority, req: mediumRes, start: 3 }),
        mk('p3.2', { node: 'node3', prio: midPriority, req: mediumRes, start: 5 }),
      ],
      expected: ['node2'],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const nodes = r.nodeNames.map((n) => mkNode(n));
      const dry = dryRunPreemption(r.pod, nodes, byNode(r.pods), undefined, gates, [], 0, numCandidatesFor(nodes.length));
      const best = pickOneNodeForPreemption(dry.candidates);
      assert.ok(best && r.expected.includes(best.node), `expected any of ${r.expected.join(', ')}, got ${best?.node}`);
    });
  }
});

describe('TestPodEligibleToPreemptOthers (default_preemption_test.go)', () => {
  const rows: { name: string; pod: Pod; pods: Pod[]; nominatedNodeStatus?: Code; expected: boolean }[] = [
    {
      name: 'Pod with nominated node',
      pod: mk('p_with_nominated_node', { prio: highPriority, nominated: 'node1' }),
      pods: [mk('p1', { prio: lowPriority, node: 'node1', terminating: true })],
      nominatedNodeStatus: 'UnschedulableAndUnresolvable',
      expected: true,
    },
    { name: 'Pod without nominated node', pod: mk('p_without_nominated_node', { prio: highPriority }), pods: [], expected: true },
    { name: "Pod with 'PreemptNever' preemption policy", pod: mk('p_with_preempt_never_policy', { prio: highPriority, never: true }), pods: [], expected: false },
    {
      name: 'preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition',
      pod: mk('p_with_nominated_node', { prio: highPriority, nominated: 'node1' }),
      pods: [mk('p1', { prio: lowPriority, node: 'node1', terminating: true, preemptedByScheduler: true })],
      expected: false,
    },
    {
      name: 'non-victim Pods terminating',
      pod: mk('p_with_nominated_node', { prio: highPriority, nominated: 'node1' }),
      pods: [mk('p1', { prio: lowPriority, node: 'node1', terminating: true })],
      expected: true,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const verdicts = new Map(r.nominatedNodeStatus ? [['node1', status(r.nominatedNodeStatus)]] : []);
      assert.equal(ineligibleToPreempt(r.pod, verdicts, byNode(r.pods)) === undefined, r.expected);
    });
  }
});

describe('TestPreempt (default_preemption_test.go)', () => {
  const pods = (prio21: number) => [
    mk('p1.1', { node: 'node1', prio: lowPriority, req: smallRes }),
    mk('p1.2', { node: 'node1', prio: lowPriority, req: smallRes }),
    mk('p2.1', { node: 'node2', prio: prio21, req: largeRes }),
    mk('p3.1', { node: 'node3', prio: midPriority, req: mediumRes }),
  ];
  const rows: { name: string; pod: Pod; pods: Pod[]; nodeNames: string[]; want: string | undefined; expectedPods: string[] }[] = [
    { name: 'basic preemption logic', pod: mk('p', { prio: highPriority, req: veryLargeRes }), pods: pods(highPriority), nodeNames: ['node1', 'node2', 'node3'], want: 'node1', expectedPods: ['p1.1', 'p1.2'] },
    { name: 'no preempting in pod', pod: mk('p', { prio: highPriority, req: veryLargeRes, never: true }), pods: pods(highPriority), nodeNames: ['node1', 'node2', 'node3'], want: undefined, expectedPods: [] },
    { name: 'PreemptionPolicy is nil', pod: mk('p', { prio: highPriority, req: veryLargeRes }), pods: pods(highPriority), nodeNames: ['node1', 'node2', 'node3'], want: 'node1', expectedPods: ['p1.1', 'p1.2'] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const nodes = r.nodeNames.map((n) => mkNode(n));
      const filtered = new Map(r.nodeNames.map((n) => [n, status('Unschedulable')]));
      const out = preempt(r.pod, nodes, filtered, byNode(r.pods), gates);
      assert.equal(out.nominatedNodeName, r.want);
      assert.deepEqual((out.candidate?.victims ?? []).map((p) => p.metadata.name).sort(), r.expectedPods);
    });
  }
});

describe('TestNodesWherePreemptionMightHelp (preemption_test.go)', () => {
  // The stored table predates NodeToStatus (v1.31), under which a node absent from the map reads
  // UnschedulableAndUnresolvable; its absent nodes were tried, so they are given here as
  // Unschedulable, which keeps the expected sets. Only the code decides; the reasons are kept
  // for the record (Bulkhead's filters give these codes for the ones it has).
  const U: Code = 'Unschedulable';
  const UU: Code = 'UnschedulableAndUnresolvable';
  const rows: { name: string; statuses: Record<string, [Code, string]>; expected: string[] }[] = [
    {
      name: 'No node should be attempted',
      statuses: { node1: [UU, "node(s) didn't match Pod's node affinity/selector"], node2: [UU, "node(s) didn't match the requested node name"], node3: [UU, "node(s) had untolerated taint {k: v}"], node4: [UU, "node(s) didn't match pod affinity rules"] },
      expected: [],
    },
    {
      name: 'ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to inter-pod anti-affinity',
      statuses: { node1: [U, "node(s) didn't match pod anti-affinity rules"], node2: [UU, "node(s) didn't match the requested node name"], node3: [UU, 'node(s) were unschedulable'], node4: [U, ''] },
      expected: ['node1', 'node4'],
    },
    {
      name: 'ErrReasonAffinityRulesNotMatch should not be tried as it indicates that the pod is unschedulable due to inter-pod affinity, but ErrReasonAntiAffinityRulesNotMatch should be tried as it indicates that the pod is unschedulable due to inter-pod anti-affinity',
      statuses: { node1: [UU, "node(s) didn't match pod affinity rules"], node2: [U, "node(s) didn't match pod anti-affinity rules"], node3: [U, ''], node4: [U, ''] },
      expected: ['node2', 'node3', 'node4'],
    },
    {
      name: 'Mix of failed predicates works fine',
      statuses: { node1: [UU, 'node(s) had no available disk'], node2: [U, 'Insufficient memory'], node3: [U, ''], node4: [U, ''] },
      expected: ['node2', 'node3', 'node4'],
    },
    {
      name: 'Node condition errors should be considered unresolvable',
      statuses: { node1: [UU, 'node(s) had unknown conditions'], node2: [U, ''], node3: [U, ''], node4: [U, ''] },
      expected: ['node2', 'node3', 'node4'],
    },
    {
      name: 'ErrVolume... errors should not be tried as it indicates that the pod is unschedulable due to no matching volumes for pod on node',
      statuses: { node1: [UU, 'node(s) had no available volume zone'], node2: [UU, "node(s) didn't match PersistentVolume's node affinity"], node3: [UU, "node(s) didn't find available persistent volumes to bind"], node4: [U, ''] },
      expected: ['node4'],
    },
    {
      name: 'ErrReasonConstraintsNotMatch should be tried as it indicates that the pod is unschedulable due to topology spread constraints',
      statuses: { node1: [U, "node(s) didn't match pod topology spread constraints"], node2: [UU, "node(s) didn't match the requested node name"], node3: [U, "node(s) didn't match pod topology spread constraints"], node4: [U, ''] },
      expected: ['node1', 'node3', 'node4'],
    },
    {
      name: 'UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried',
      statuses: { node1: [U, ''], node2: [UU, ''], node3: [U, ''], node4: [UU, ''] },
      expected: ['node1', 'node3'],
    },
    {
      name: "ErrReasonNodeLabelNotMatch should not be tried as it indicates that the pod is unschedulable due to node doesn't have the required label",
      statuses: { node1: [U, ''], node2: [UU, "node(s) didn't match pod topology spread constraints (missing required label)"], node3: [U, ''], node4: [UU, ''] },
      expected: ['node1', 'node3'],
    },
  ];
  const nodes = ['node1', 'node2', 'node3', 'node4'].map((n) => mkNode(n));
  for (const r of rows) {
    it(r.name, () => {
      const verdicts = new Map(Object.entries(r.statuses).map(([n, [c, reason]]) => [n, status(c, reason)]));
      const { potential, reasons } = nodesWherePreemptionMightHelp(nodes, verdicts);
      assert.deepEqual(potential.map((n) => n.metadata.name), r.expected);
      assert.deepEqual(reasons, Array(4 - r.expected.length).fill('Preemption is not helpful for scheduling'));
    });
  }
});
