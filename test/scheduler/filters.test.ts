import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Node, Pod, Ulimit } from '../../src/api/types.js';
import {
  fitsNode,
  ReasonNodeAffinity,
  ReasonNodeName,
  ReasonRequiredFeatures,
  ReasonUlimitCeilings,
  ReasonTooManyPods,
  ReasonUnschedulable,
  ReasonUntoleratedTaint,
} from '../../src/scheduler/index.js';
import { container, node, pod } from './helpers.js';
import { capabilitiesAnnotation, encodeCapabilities } from '../../src/policy/nodecapabilities.js';

const withCeilings = (n: Node, hardRlimitCeilings: Record<string, string>): Node => ({
  ...n,
  metadata: { ...n.metadata, annotations: { [capabilitiesAnnotation]: encodeCapabilities({ cgroupVersion: 1, oomGroup: 'unsupported', minOOMScoreAdj: 0, hardRlimitCeilings }) } },
});

const gates = defaultFeatureGates;
const memoryPressure = [
  { type: 'Ready', status: 'True' },
  { type: 'MemoryPressure', status: 'True' },
];
const ulimits = (name: string, ...perContainer: Ulimit[][]): Pod => {
  const p = pod(name, { memory: '64Mi' });
  const lists = perContainer.length ? perContainer : [[{ name: 'nofile', soft: 1024, hard: 4096 }]];
  p.spec.containers = lists.map((u, i) => ({ ...container({ memory: '64Mi' }, undefined, `c${i}`), securityContext: { ulimits: u } }));
  return p;
};
const declaring = (ceilings: Record<string, string>) => withCeilings(node('n1', undefined, { declaredFeatures: ['ContainerUlimits'] }), ceilings);

interface Row {
  name: string;
  pod: Pod;
  node: Node;
  bound?: Pod[];
  reasons: string[];
}

const rows: Row[] = [
  { name: 'a small pod fits an empty node', pod: pod('p', { cpu: '100m', memory: '128Mi' }), node: node('n1'), reasons: [] },
  // NodeUnschedulable
  { name: 'a cordoned node', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { unschedulable: true } }), reasons: [ReasonUnschedulable] },
  {
    name: 'a cordoned node, unschedulable taint tolerated',
    pod: pod('p', { cpu: '100m' }, { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
    node: node('n1', undefined, { spec: { unschedulable: true } }),
    reasons: [],
  },
  // NodeName
  { name: 'nodeName names another node', pod: pod('p', { cpu: '100m' }, {}, { nodeName: 'n2' }), node: node('n1'), reasons: [ReasonNodeName] },
  { name: 'nodeName names this node', pod: pod('p', { cpu: '100m' }, {}, { nodeName: 'n1' }), node: node('n1'), reasons: [] },
  // NodeAffinity
  { name: 'nodeSelector does not match', pod: pod('p', { cpu: '100m' }, { nodeSelector: { disk: 'ssd' } }), node: node('n1'), reasons: [ReasonNodeAffinity] },
  { name: 'nodeSelector matches', pod: pod('p', { cpu: '100m' }, { nodeSelector: { disk: 'ssd' } }), node: node('n1', undefined, { labels: { disk: 'ssd' } }), reasons: [] },
  {
    name: 'required node affinity In does not match',
    pod: pod('p', { cpu: '100m' }, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } } }),
    node: node('n1', undefined, { labels: { zone: 'b' } }),
    reasons: [ReasonNodeAffinity],
  },
  {
    name: 'required node affinity: the second term matches (terms are ORed)',
    pod: pod('p', { cpu: '100m' }, {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
          },
        },
      },
    }),
    node: node('n1', undefined, { labels: { zone: 'b' } }),
    reasons: [],
  },
  // TaintToleration
  { name: 'an untolerated NoSchedule taint', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }), reasons: [ReasonUntoleratedTaint] },
  { name: 'an untolerated NoExecute taint', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', effect: 'NoExecute' }] } }), reasons: [ReasonUntoleratedTaint] },
  { name: 'a PreferNoSchedule taint only scores', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', effect: 'PreferNoSchedule' }] } }), reasons: [] },
  {
    name: 'a tolerated taint (Equal)',
    pod: pod('p', { cpu: '100m' }, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }),
    node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }),
    reasons: [],
  },
  {
    name: 'a toleration with another value',
    pod: pod('p', { cpu: '100m' }, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoSchedule' }] }),
    node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }),
    reasons: [ReasonUntoleratedTaint],
  },
  { name: 'a node that is not Ready (not-ready taint)', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { conditions: [{ type: 'Ready', status: 'False' }] }), reasons: [ReasonUntoleratedTaint] },
  { name: 'a node with no conditions yet counts as not ready', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { conditions: [] }), reasons: [ReasonUntoleratedTaint] },
  // Memory pressure: BestEffort pods stay off, others tolerate it (PodTolerationRestriction).
  { name: 'memory pressure, BestEffort pod', pod: pod('p'), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [ReasonUntoleratedTaint] },
  { name: 'memory pressure, Burstable pod', pod: pod('p', { memory: '64Mi' }), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [] },
  { name: 'memory pressure, Guaranteed pod', pod: pod('p', { cpu: '100m', memory: '64Mi' }, {}, { limits: { cpu: '100m', memory: '64Mi' } }), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [] },
  {
    name: 'memory-pressure taint on spec, BestEffort pod',
    pod: pod('p'),
    node: node('n1', undefined, { spec: { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] } }),
    reasons: [ReasonUntoleratedTaint],
  },
  {
    name: 'memory pressure, BestEffort pod that tolerates it',
    pod: pod('p', undefined, { tolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }] }),
    node: node('n1', undefined, { conditions: memoryPressure }),
    reasons: [],
  },
  // NodeResourcesFit
  { name: 'not enough cpu', pod: pod('p', { cpu: '3' }), node: node('n1'), reasons: ['Insufficient cpu'] },
  { name: 'not enough memory', pod: pod('p', { memory: '5Gi' }), node: node('n1'), reasons: ['Insufficient memory'] },
  { name: 'not enough cpu nor memory (both reasons, upstream order)', pod: pod('p', { memory: '5Gi', cpu: '3' }), node: node('n1'), reasons: ['Insufficient cpu', 'Insufficient memory'] },
  { name: 'an extended resource the node lacks', pod: pod('p', { 'example.com/gpu': '1' }), node: node('n1'), reasons: ['Insufficient example.com/gpu'] },
  {
    name: 'fits only without the pods already bound',
    pod: pod('p', { memory: '1Gi' }),
    node: node('n1', { cpu: '2', memory: '2Gi', pods: '110' }),
    bound: [pod('a', { memory: '768Mi' }, {}, { nodeName: 'n1' }), pod('b', { memory: '512Mi' }, {}, { nodeName: 'n1' })],
    reasons: ['Insufficient memory'],
  },
  {
    name: 'finished pods hold nothing',
    pod: pod('p', { memory: '1Gi' }),
    node: node('n1', { cpu: '2', memory: '2Gi', pods: '110' }),
    bound: [pod('a', { memory: '768Mi' }, {}, { nodeName: 'n1' }), pod('b', { memory: '512Mi' }, {}, { nodeName: 'n1', phase: 'Succeeded' })],
    reasons: [],
  },
  {
    name: 'pod overhead counts',
    pod: pod('p', { memory: '900Mi' }, { overhead: { memory: '200Mi' } }),
    node: node('n1', { cpu: '2', memory: '1Gi', pods: '110' }),
    reasons: ['Insufficient memory'],
  },
  {
    name: 'fit uses real requests: a BestEffort pod fits a full node',
    pod: pod('p'),
    node: node('n1', { cpu: '1', memory: '1Gi', pods: '110' }),
    bound: [pod('a', { cpu: '1', memory: '1Gi' }, {}, { nodeName: 'n1' })],
    reasons: [],
  },
  {
    name: 'init containers: the larger of the init peak and the sum counts',
    pod: pod('p', { memory: '100Mi' }, { initContainers: [container({ memory: '2Gi' }, undefined, 'init')] }),
    node: node('n1', { cpu: '2', memory: '1Gi', pods: '110' }),
    reasons: ['Insufficient memory'],
  },
  { name: 'pods allocatable reached', pod: pod('p', { cpu: '100m' }), node: node('n1', { cpu: '2', memory: '4Gi', pods: '1' }), bound: [pod('a', undefined, {}, { nodeName: 'n1' })], reasons: [ReasonTooManyPods] },
  { name: 'too many pods and not enough cpu', pod: pod('p', { cpu: '3' }), node: node('n1', { cpu: '2', memory: '4Gi', pods: '1' }), bound: [pod('a', undefined, {}, { nodeName: 'n1' })], reasons: [ReasonTooManyPods, 'Insufficient cpu'] },
  // NodeDeclaredFeatures
  { name: 'ulimits on a node that does not declare ContainerUlimits', pod: ulimits('p'), node: node('n1'), reasons: [ReasonRequiredFeatures] },
  { name: 'ulimits on a node that declares ContainerUlimits', pod: ulimits('p'), node: node('n1', undefined, { declaredFeatures: ['ContainerUlimits'] }), reasons: [] },
  // The reason names each limit and the node's ceiling (src/policy/ulimitceilings.ts).
  { name: 'ulimits whose hard value is above the ceiling the node declares: names the limit and the ceiling', pod: ulimits('p'), node: declaring({ RLIMIT_NOFILE: '1024' }), reasons: [`${ReasonUlimitCeilings} (nofile hard 4096 > node ceiling 1024)`] },
  {
    name: 'hard -1 is unlimited, named so',
    pod: ulimits('p', [{ name: 'memlock', soft: -1, hard: -1 }]),
    node: declaring({ RLIMIT_MEMLOCK: '8388608' }),
    reasons: [`${ReasonUlimitCeilings} (memlock hard unlimited > node ceiling 8388608)`],
  },
  {
    name: 'every limit above its ceiling is named, in the order the pod names them; one within is not',
    pod: ulimits('p', [{ name: 'nice', soft: 10, hard: 10 }, { name: 'core', soft: -1, hard: -1 }, { name: 'nofile', soft: 65535, hard: 65535 }]),
    node: declaring({ RLIMIT_NOFILE: '20000', RLIMIT_NICE: '0', RLIMIT_CORE: '18446744073709551615' }),
    reasons: [`${ReasonUlimitCeilings} (nice hard 10 > node ceiling 0, nofile hard 65535 > node ceiling 20000)`],
  },
  {
    name: 'a limit several containers exceed is named once, with the largest value',
    pod: ulimits('p', [{ name: 'nofile', soft: 30000, hard: 30000 }], [{ name: 'nofile', soft: 1024, hard: 1048576 }]),
    node: declaring({ RLIMIT_NOFILE: '20000' }),
    reasons: [`${ReasonUlimitCeilings} (nofile hard 1048576 > node ceiling 20000)`],
  },
  { name: 'ulimits within the ceilings the node declares', pod: ulimits('p'), node: declaring({ RLIMIT_NOFILE: '1048576' }), reasons: [] },
  // The first rejecting filter decides.
  { name: 'cordoned and too small: only the first filter reports', pod: pod('p', { cpu: '3' }), node: node('n1', undefined, { spec: { unschedulable: true } }), reasons: [ReasonUnschedulable] },
  { name: 'tainted and too small: the taint reports', pod: pod('p', { cpu: '3' }), node: node('n1', undefined, { spec: { taints: [{ key: 'x', effect: 'NoSchedule' }] } }), reasons: [ReasonUntoleratedTaint] },
];

describe('scheduler filters (fitsNode)', () => {
  for (const r of rows) {
    it(r.name, () => {
      const got = fitsNode(r.pod, r.node, r.bound ?? [], gates);
      assert.deepEqual(got.reasons, r.reasons);
      assert.equal(got.fits, r.reasons.length === 0);
    });
  }

  it('ulimits need no feature when the ContainerUlimits gate is off', () => {
    assert.equal(fitsNode(ulimits('p'), node('n1'), [], { ...gates, ContainerUlimits: false }).fits, true);
  });
});
