// Table tests of src/scheduler/preemption.ts: one row per rule of kube-scheduler's
// DefaultPreemption (default_preemption.go SelectVictimsOnNode and PodEligibleToPreemptOthers,
// preemption.go pickOneNodeForPreemption and Preempt), named for the rule.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ineligibleToPreempt,
  numCandidatesFor,
  pickNode,
  pickOneNodeForPreemption,
  preemptedEventMessage,
  preemptionConditionMessage,
  selectVictimsOnNode,
  type Candidate,
} from '../../src/scheduler/index.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { LabelSelector, Node, Pod, PodDisruptionBudget } from '../../src/api/types.js';
import { node, pod } from './helpers.js';

const n1 = node('n1', { cpu: '1', memory: '1Gi', pods: '110' });
const n2 = node('n2', { cpu: '1', memory: '1Gi', pods: '110' });

/** A pod bound to `on` with a memory request, a priority and optionally a start time. */
function bound(name: string, memory: string, priority: number | undefined, on = 'n1', startTime?: string): Pod {
  const p = pod(name, { memory }, priority === undefined ? {} : { priority }, { nodeName: on, phase: 'Running' });
  if (startTime) p.status = { ...p.status, startTime };
  return p;
}

/** `p` whose container asks for host port `port` (TCP, every hostIP). */
function withHostPort(p: Pod, port: number): Pod {
  return { ...p, spec: { ...p.spec, containers: p.spec.containers.map((c, i) => (i === 0 ? { ...c, ports: [{ containerPort: port, hostPort: port, protocol: 'TCP' }] } : c)) } };
}

function terminatingByPreemption(p: Pod): Pod {
  return {
    ...p,
    metadata: { ...p.metadata, deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 },
    status: { ...p.status, conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: preemptionConditionMessage('default-scheduler') }] },
  };
}

const names = (ps: readonly Pod[] | undefined) => (ps ?? []).map((p) => p.metadata.name);

/** `p` with labels. */
function labelled(p: Pod, labels: Record<string, string>): Pod {
  return { ...p, metadata: { ...p.metadata, labels } };
}

/** A budget as the disruption controller leaves it: `allowed` disruptions, and the pods already let go. */
function budget(name: string, selector: LabelSelector | undefined, allowed: number, opts: { namespace?: string; disruptedPods?: Record<string, string> } = {}): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: opts.namespace ?? 'default' },
    spec: { minAvailable: 1, ...(selector ? { selector } : {}) },
    status: { disruptionsAllowed: allowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, ...(opts.disruptedPods ? { disruptedPods: opts.disruptedPods } : {}) },
  };
}
const appG: LabelSelector = { matchLabels: { app: 'g' } };

describe('selectVictimsOnNode (SelectVictimsOnNode)', () => {
  const rows: { name: string; pod: Pod; on: Pod[]; nominated?: Pod[]; pdbs?: PodDisruptionBudget[]; victims?: string[]; violations?: number; reasons?: string[] }[] = [
    {
      name: 'only lower-priority pods are victims',
      pod: pod('p', { memory: '600Mi' }, { priority: 100 }),
      on: [bound('low', '600Mi', 10), bound('high', '300Mi', 200)],
      victims: ['low'],
    },
    {
      name: 'equal priority is not a victim',
      pod: pod('p', { memory: '600Mi' }, { priority: 100 }),
      on: [bound('same', '600Mi', 100)],
      reasons: ['No preemption victims found for incoming pod'],
    },
    {
      name: 'an unset priority counts as 0',
      pod: pod('p', { memory: '600Mi' }, { priority: 1 }),
      on: [bound('unset', '600Mi', undefined)],
      victims: ['unset'],
    },
    {
      name: 'higher-priority victims are reprieved first',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      // Either of the two fits beside p; the one of higher priority stays.
      on: [bound('p10', '400Mi', 10), bound('p20', '400Mi', 20)],
      victims: ['p10'],
    },
    {
      name: 'among equal priorities the earlier started is reprieved first',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [bound('late', '400Mi', 10, 'n1', '2024-01-02T00:00:00Z'), bound('early', '400Mi', 10, 'n1', '2024-01-01T00:00:00Z')],
      victims: ['late'],
    },
    {
      name: 'the minimal set: a pod that fits back is not a victim',
      pod: pod('p', { memory: '700Mi' }, { priority: 100 }),
      on: [bound('a', '300Mi', 5), bound('b', '100Mi', 6), bound('c', '100Mi', 7)],
      victims: ['a'],
    },
    {
      name: 'victims are listed most important first',
      pod: pod('p', { memory: '900Mi' }, { priority: 100 }),
      on: [bound('a', '300Mi', 5), bound('b', '300Mi', 7), bound('c', '300Mi', 6)],
      victims: ['b', 'c', 'a'],
    },
    {
      name: 'a node where removing every lower-priority pod does not help reports its filter reasons',
      pod: pod('p', { memory: '900Mi' }, { priority: 100 }),
      on: [bound('low', '100Mi', 5), bound('high', '500Mi', 500)],
      reasons: ['Insufficient memory'],
    },
    {
      name: 'pods nominated to the node with equal or higher priority count against it',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [bound('low', '500Mi', 5)],
      nominated: [{ ...pod('nom', { memory: '600Mi' }, { priority: 100 }), status: { nominatedNodeName: 'n1' } }],
      reasons: ['Insufficient memory'],
    },
    {
      name: 'pods nominated to the node with lower priority do not count',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [bound('low', '600Mi', 5)],
      nominated: [{ ...pod('nom', { memory: '600Mi' }, { priority: 50 }), status: { nominatedNodeName: 'n1' } }],
      victims: ['low'],
    },
    {
      name: 'a pod already terminating is still a victim (its deletion is not sent again)',
      pod: pod('p', { memory: '600Mi' }, { priority: 100 }),
      on: [terminatingByPreemption(bound('going', '600Mi', 5))],
      victims: ['going'],
    },
    // PodDisruptionBudgets (filterPodsWithPDBViolation). Either of two 400Mi pods fits back beside
    // a 500Mi pod: without budgets the one of higher priority ('free', 20) is spared.
    // NodePorts is Unschedulable: removing the pods that hold a port frees it.
    {
      name: 'a lower-priority pod holding the wanted host port is the victim; the others stay',
      pod: withHostPort(pod('p', { memory: '10Mi' }, { priority: 100 }), 8080),
      on: [withHostPort(bound('holder', '10Mi', 10), 8080), bound('bystander', '10Mi', 5), withHostPort(bound('other-port', '10Mi', 5), 9090)],
      victims: ['holder'],
    },
    {
      name: 'a host port held by a pod of higher priority cannot be freed: the node reports its filter reason',
      pod: withHostPort(pod('p', { memory: '10Mi' }, { priority: 100 }), 8080),
      on: [withHostPort(bound('holder', '10Mi', 200), 8080), bound('low', '10Mi', 5)],
      reasons: ["node(s) didn't have free ports for the requested pod ports"],
    },
    {
      name: 'no budget: the more important pod is reprieved and the count of violations is 0',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      victims: ['guarded'],
      violations: 0,
    },
    {
      name: 'victims whose eviction would violate a budget are reprieved first, whatever their priority',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('g', appG, 0)],
      victims: ['free'],
      violations: 0,
    },
    {
      name: 'a violating pod that must still go is a victim, and counted as a violation',
      pod: pod('p', { memory: '900Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('g', appG, 0)],
      victims: ['free', 'guarded'],
      violations: 1,
    },
    {
      name: 'a budget with disruptions left covers as many pods, the more important first',
      pod: pod('p', { memory: '900Mi' }, { priority: 100 }),
      on: [labelled(bound('g10', '400Mi', 10), { app: 'g' }), labelled(bound('g20', '400Mi', 20), { app: 'g' })],
      pdbs: [budget('g', appG, 1)],
      victims: ['g20', 'g10'],
      violations: 1,
    },
    {
      name: 'violating victims are reprieved most important first among themselves',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('g10', '400Mi', 10), { app: 'g' }), labelled(bound('g20', '400Mi', 20), { app: 'g' })],
      pdbs: [budget('g', appG, 0)],
      victims: ['g10'],
      violations: 1,
    },
    {
      name: 'a pod already in the budget\'s disruptedPods takes no disruption from it and violates nothing',
      pod: pod('p', { memory: '900Mi' }, { priority: 100 }),
      // One disruption left: 'gone' was let go already, so 'g10' may use it.
      on: [labelled(bound('gone', '400Mi', 20), { app: 'g' }), labelled(bound('g10', '400Mi', 10), { app: 'g' })],
      pdbs: [budget('g', appG, 1, { disruptedPods: { gone: '2030-01-01T00:00:00Z' } })],
      victims: ['gone', 'g10'],
      violations: 0,
    },
    {
      name: 'a budget whose selector matches none of the pods protects nothing',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('other', { matchLabels: { app: 'other' } }, 0)],
      victims: ['guarded'],
      violations: 0,
    },
    {
      name: 'a budget in another namespace protects nothing',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('g', appG, 0, { namespace: 'elsewhere' })],
      victims: ['guarded'],
      violations: 0,
    },
    {
      name: 'an empty selector protects nothing (policy/v1 eviction reads it as every pod; preemption does not)',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('all', {}, 0)],
      victims: ['guarded'],
      violations: 0,
    },
    {
      name: 'a null selector protects nothing',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [labelled(bound('guarded', '400Mi', 10), { app: 'g' }), bound('free', '400Mi', 20)],
      pdbs: [budget('none', undefined, 0)],
      victims: ['guarded'],
      violations: 0,
    },
    {
      name: 'a pod without labels is protected by no budget, even one whose selector would match it',
      pod: pod('p', { memory: '500Mi' }, { priority: 100 }),
      on: [bound('bare', '400Mi', 10), labelled(bound('free', '400Mi', 20), { app: 'f' })],
      pdbs: [budget('not-f', { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['f'] }] }, 0)],
      victims: ['bare'],
      violations: 0,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const sel = selectVictimsOnNode(r.pod, n1, r.on, r.nominated ?? [], defaultFeatureGates, r.pdbs);
      if (r.victims) {
        assert.ok(sel.ok, `expected victims, got ${JSON.stringify(sel)}`);
        assert.deepEqual(names(sel.ok ? sel.victims : []), r.victims);
        if (r.violations !== undefined) assert.equal(sel.ok ? sel.numPDBViolations : undefined, r.violations);
      } else {
        assert.deepEqual(sel, { ok: false, reasons: r.reasons });
      }
    });
  }
});

describe('pickOneNodeForPreemption', () => {
  const c = (node: string, victims: Pod[], numPDBViolations = 0): Candidate => ({ node, victims, numPDBViolations });
  const rows: { name: string; candidates: Candidate[]; want: string }[] = [
    { name: 'fewest PDB violations wins', candidates: [c('n1', [bound('a', '1Mi', 1)], 1), c('n2', [bound('b', '1Mi', 9)], 0)], want: 'n2' },
    { name: 'node with lowest highest-victim priority wins', candidates: [c('n1', [bound('a', '1Mi', 9), bound('x', '1Mi', 1)]), c('n2', [bound('b', '1Mi', 5), bound('y', '1Mi', 5), bound('z', '1Mi', 5)])], want: 'n2' },
    { name: 'smallest sum of victim priorities wins', candidates: [c('n1', [bound('a', '1Mi', 5), bound('x', '1Mi', 4)]), c('n2', [bound('b', '1Mi', 5), bound('y', '1Mi', 1)])], want: 'n2' },
    {
      name: 'the sum counts each priority shifted by 2^31, so more negative-priority victims lose',
      candidates: [c('n1', [bound('a', '1Mi', -10), bound('x', '1Mi', -10)]), c('n2', [bound('b', '1Mi', -10)])],
      want: 'n2',
    },
    { name: 'fewest victims wins', candidates: [c('n1', [bound('a', '1Mi', 0), bound('x', '1Mi', 0)]), c('n2', [bound('b', '1Mi', 0)])], want: 'n2' },
    {
      name: 'latest start of the highest-priority victims wins',
      candidates: [c('n1', [bound('a', '1Mi', 5, 'n1', '2024-01-01T00:00:00Z')]), c('n2', [bound('b', '1Mi', 5, 'n2', '2024-02-01T00:00:00Z')])],
      want: 'n2',
    },
    { name: 'a full tie goes to the first candidate', candidates: [c('n1', [bound('a', '1Mi', 5)]), c('n2', [bound('b', '1Mi', 5)])], want: 'n1' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(pickOneNodeForPreemption(r.candidates)?.node, r.want));
  it('no candidates, no node', () => assert.equal(pickOneNodeForPreemption([]), undefined));
});

describe('numCandidatesFor (calculateNumCandidates)', () => {
  const rows: { name: string; nodes: number; args?: { minCandidateNodesPercentage: number; minCandidateNodesAbsolute: number }; want: number }[] = [
    { name: 'below the absolute minimum of 100, every node', nodes: 5, want: 5 },
    { name: 'at 1,000 nodes 10% is 100', nodes: 1000, want: 100 },
    { name: 'above 1,000 nodes, 10%', nodes: 2500, want: 250 },
    { name: 'the percentage rounds down', nodes: 1999, want: 199 },
    { name: 'custom args: 40% of 5 with an absolute minimum of 1', nodes: 5, args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 }, want: 2 },
    { name: 'never more than the nodes', nodes: 3, args: { minCandidateNodesPercentage: 100, minCandidateNodesAbsolute: 10 }, want: 3 },
  ];
  for (const r of rows) it(r.name, () => assert.equal(numCandidatesFor(r.nodes, r.args), r.want));
});

describe('ineligibleToPreempt (PodEligibleToPreemptOthers)', () => {
  const verdict = (code: 'Unschedulable' | 'UnschedulableAndUnresolvable') => new Map([['n1', { fits: false, reasons: ['x'], rejection: { code, plugin: 'p', reasons: ['x'] } }]]);
  const nominatedTo = (p: Pod, n: string): Pod => ({ ...p, status: { ...(p.status ?? {}), nominatedNodeName: n } });
  it('preemptionPolicy Never never preempts', () => {
    assert.equal(ineligibleToPreempt(pod('p', {}, { priority: 100, preemptionPolicy: 'Never' }), verdict('Unschedulable'), {}), 'not eligible due to preemptionPolicy=Never.');
  });
  it('a nominated pod whose node has a lower-priority pod terminating by preemption waits', () => {
    const p = nominatedTo(pod('p', {}, { priority: 100 }), 'n1');
    assert.equal(ineligibleToPreempt(p, verdict('Unschedulable'), { n1: [terminatingByPreemption(bound('v', '1Mi', 5))] }), 'not eligible due to a terminating pod on the nominated node.');
  });
  it('a pod terminating for another reason does not make it wait', () => {
    const p = nominatedTo(pod('p', {}, { priority: 100 }), 'n1');
    const v = bound('v', '1Mi', 5);
    v.metadata.deletionTimestamp = '2030-01-01T00:00:00Z';
    assert.equal(ineligibleToPreempt(p, verdict('Unschedulable'), { n1: [v] }), undefined);
  });
  it('a nominated node now unschedulable and unresolvable is given up', () => {
    const p = nominatedTo(pod('p', {}, { priority: 100 }), 'n1');
    assert.equal(ineligibleToPreempt(p, verdict('UnschedulableAndUnresolvable'), { n1: [terminatingByPreemption(bound('v', '1Mi', 5))] }), undefined);
  });
});

describe('pickNode with preemption (Evaluator.Preempt)', () => {
  const gates = defaultFeatureGates;
  it('nominates the node and names the victims; the FailedScheduling message has no preemption text', () => {
    const d = pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), [n1, n2], { n1: [bound('a', '600Mi', 10)], n2: [bound('b', '600Mi', 20, 'n2')] }, gates);
    assert.equal(d.node, undefined);
    assert.equal(d.message, '0/2 nodes are available: 2 Insufficient memory.');
    assert.equal(d.nominatedNodeName, 'n1');
    assert.equal(d.preemption?.node, 'n1');
    assert.deepEqual(names(d.preemption?.victims), ['a']);
  });
  it('preemptionPolicy Never: the message says so and the nomination is left as it is', () => {
    const d = pickNode(pod('p', { memory: '600Mi' }, { priority: 100, preemptionPolicy: 'Never' }), [n1], { n1: [bound('a', '600Mi', 10)] }, gates);
    assert.equal(d.message, '0/1 nodes are available: 1 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.');
    assert.equal(d.nominatedNodeName, undefined);
    assert.equal(d.preemption, undefined);
  });
  it('no candidate: the dry run FitError, and the nomination is cleared', () => {
    const d = pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), [n1], { n1: [bound('a', '600Mi', 100)] }, gates);
    assert.equal(d.message, '0/1 nodes are available: 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.');
    assert.equal(d.nominatedNodeName, '');
  });
  it('while its victims terminate, a nominated pod does not preempt again', () => {
    const p: Pod = { ...pod('p', { memory: '600Mi' }, { priority: 100 }), status: { nominatedNodeName: 'n1' } };
    const d = pickNode(p, [n1], { n1: [terminatingByPreemption(bound('a', '600Mi', 10))] }, gates);
    assert.equal(d.message, '0/1 nodes are available: 1 Insufficient memory. preemption: not eligible due to a terminating pod on the nominated node.');
    assert.equal(d.nominatedNodeName, undefined);
  });
  it('a pod nominated to a node holds its room against pods of lower or equal priority', () => {
    const nom: Pod = { ...pod('nom', { memory: '600Mi' }, { priority: 100 }), status: { nominatedNodeName: 'n1' } };
    const lower = pickNode(pod('q', { memory: '600Mi' }, { priority: 100 }), [n1], {}, gates, { n1: [nom] });
    assert.equal(lower.node, undefined);
    assert.equal(lower.message, '0/1 nodes are available: 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.');
    const higher = pickNode(pod('r', { memory: '600Mi' }, { priority: 200 }), [n1], {}, gates, { n1: [nom] });
    assert.equal(higher.node, 'n1');
    // The nominated pod itself is not counted against itself.
    assert.equal(pickNode(nom, [n1], {}, gates, { n1: [nom] }).node, 'n1');
  });
  it('a pod is placed on its nominated node first when it fits there', () => {
    const big = node('n0', { cpu: '8', memory: '8Gi', pods: '110' });
    const p: Pod = { ...pod('p', { memory: '100Mi' }), status: { nominatedNodeName: 'n2' } };
    assert.equal(pickNode(p, [big, n2] as Node[], {}, gates).node, 'n2');
  });
  it('a node whose victims would violate a budget loses to one whose victims would not', () => {
    const on = { n1: [labelled(bound('guarded', '600Mi', 10), { app: 'g' })], n2: [bound('free', '600Mi', 10, 'n2')] };
    const p = pod('p', { memory: '600Mi' }, { priority: 100 });
    // Everything else ties: without the budget the first node wins.
    assert.equal(pickNode(p, [n1, n2], on, gates).preemption?.node, 'n1');
    const d = pickNode(p, [n1, n2], on, gates, undefined, { budgets: () => [budget('g', appG, 0)] });
    assert.equal(d.nominatedNodeName, 'n2');
    assert.deepEqual([d.preemption?.node, names(d.preemption?.victims), d.preemption?.numPDBViolations], ['n2', ['free'], 0]);
  });
  it('budgets are best effort: when every node\'s victims violate one, the victims still go', () => {
    const on = { n1: [labelled(bound('g1', '600Mi', 10), { app: 'g' })], n2: [labelled(bound('g2', '600Mi', 10, 'n2'), { app: 'g' })] };
    const d = pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), [n1, n2], on, gates, undefined, { budgets: () => [budget('g', appG, 0)] });
    assert.equal(d.message, '0/2 nodes are available: 2 Insufficient memory.');
    assert.deepEqual([d.preemption?.node, names(d.preemption?.victims), d.preemption?.numPDBViolations], ['n1', ['g1'], 1]);
  });
  it('budgets are read only when preemption runs', () => {
    let reads = 0;
    const budgets = () => {
      reads++;
      return [];
    };
    assert.equal(pickNode(pod('fits', { memory: '100Mi' }, { priority: 100 }), [n1], {}, gates, undefined, { budgets }).node, 'n1');
    assert.equal(reads, 0);
    pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), [n1], { n1: [bound('a', '600Mi', 10)] }, gates, undefined, { budgets });
    assert.equal(reads, 1);
  });
  it('past 100 potential nodes the dry run stops at 100 candidates: a better node later in name order is not tried', () => {
    const nodes = Array.from({ length: 150 }, (_, i) => node(`n${String(i).padStart(3, '0')}`, { cpu: '1', memory: '1Gi', pods: '110' }));
    const on = Object.fromEntries(nodes.map((n, i) => [n.metadata.name!, [bound(`v${i}`, '600Mi', i === 120 ? 1 : 10, n.metadata.name!)]]));
    const d = pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), nodes, on, gates);
    assert.deepEqual([d.preemption?.node, names(d.preemption?.victims)], ['n000', ['v0']]);
    // With n120 among the first 100 it wins on the lowest victim priority.
    const d2 = pickNode(pod('p', { memory: '600Mi' }, { priority: 100 }), nodes.slice(50), on, gates);
    assert.equal(d2.preemption?.node, 'n120');
  });
  it('the Preempted event and the DisruptionTarget message', () => {
    assert.equal(preemptedEventMessage('0d1e2f', 'n1'), 'Preempted by pod 0d1e2f on node n1');
    assert.equal(preemptionConditionMessage('default-scheduler'), 'default-scheduler: preempting to accommodate a higher priority pod');
  });
});
