import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Node, Pod, Ulimit } from '../../src/api/types.js';
import {
  fitsNode,
  ReasonNodeAffinity,
  ReasonNodeName,
  ReasonNodePorts,
  ReasonRequiredFeatures,
  ReasonUlimitCeilings,
  ReasonTooManyPods,
  ReasonUnschedulable,
  type RejectCode,
} from '../../src/scheduler/index.js';
import { container, node, pod } from './helpers.js';

const taint = (key: string, value = '') => `node(s) had untolerated taint {${key}: ${value}}`;
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
  { name: 'an untolerated NoSchedule taint', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }), reasons: [taint('dedicated', 'gpu')] },
  { name: 'an untolerated NoExecute taint', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { spec: { taints: [{ key: 'dedicated', effect: 'NoExecute' }] } }), reasons: [taint('dedicated')] },
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
    reasons: [taint('dedicated', 'gpu')],
  },
  { name: 'a node that is not Ready (not-ready taint)', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { conditions: [{ type: 'Ready', status: 'False' }] }), reasons: [taint('node.kubernetes.io/not-ready')] },
  { name: 'a node with no conditions yet counts as not ready', pod: pod('p', { cpu: '100m' }), node: node('n1', undefined, { conditions: [] }), reasons: [taint('node.kubernetes.io/not-ready')] },
  // Memory pressure: BestEffort pods stay off, others tolerate it (PodTolerationRestriction).
  { name: 'memory pressure, BestEffort pod', pod: pod('p'), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [taint('node.kubernetes.io/memory-pressure')] },
  { name: 'memory pressure, Burstable pod', pod: pod('p', { memory: '64Mi' }), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [] },
  { name: 'memory pressure, Guaranteed pod', pod: pod('p', { cpu: '100m', memory: '64Mi' }, {}, { limits: { cpu: '100m', memory: '64Mi' } }), node: node('n1', undefined, { conditions: memoryPressure }), reasons: [] },
  {
    name: 'memory-pressure taint on spec, BestEffort pod',
    pod: pod('p'),
    node: node('n1', undefined, { spec: { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] } }),
    reasons: [taint('node.kubernetes.io/memory-pressure')],
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
  { name: 'tainted and too small: the taint reports', pod: pod('p', { cpu: '3' }), node: node('n1', undefined, { spec: { taints: [{ key: 'x', effect: 'NoSchedule' }] } }), reasons: [taint('x')] },
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

// ---------------------------------------------------------------- upstream tables (v1.32)
//
// Rows carried over from kube-scheduler's plugin tests, one per upstream case, named as there.
// Cases that configure plugin args (NodeResourcesFitArgs.IgnoredResources/IgnoredResourceGroups,
// NodeAffinityArgs.AddedAffinity) or turn SidecarContainers off are left out: Bulkhead runs the
// default profile with default gates.

/** framework.Resource as newResourcePod (noderesources/fit_test.go) turns it into container requests: zeros included. */
interface Use {
  cpu?: number;
  mem?: number;
  storage?: number;
  scalars?: Record<string, number>;
}
const requestsOf = (u: Use): Record<string, string> => ({
  cpu: `${u.cpu ?? 0}m`,
  memory: `${u.mem ?? 0}`,
  pods: '0',
  'ephemeral-storage': `${u.storage ?? 0}`,
  ...Object.fromEntries(Object.entries(u.scalars ?? {}).map(([k, v]) => [k, String(v)])),
});
/** newResourcePod: one container per use (none for no use). */
const usePod = (name: string, ...uses: Use[]): Pod => ({ ...pod(name), spec: { containers: uses.map((u, i) => container(requestsOf(u), undefined, `c${i}`)) } });
/** newResourceInitPod: the uses as init containers. */
const withInits = (p: Pod, ...uses: Use[]): Pod => ({ ...p, spec: { ...p.spec, initContainers: uses.map((u, i) => container(requestsOf(u), undefined, `init${i}`)) } });
const withOverhead = (p: Pod, overhead: Record<string, string>): Pod => ({ ...p, spec: { ...p.spec, overhead } });
const withPodLevel = (p: Pod, requests: Record<string, string>): Pod => ({ ...p, spec: { ...p.spec, resources: { requests } } });
/** The pod already on the node (NewNodeInfo(newResourcePod(use))). */
const bound = (u: Use): Pod[] => {
  const p = usePod('existing', u);
  return [{ ...p, spec: { ...p.spec, nodeName: 'n1' } }];
};
// makeAllocatableResources(10, 20, 32, 5, 20, 5): 10m cpu, 20 bytes, 32 pods, 5 example.com/aaa, 20 ephemeral-storage, 5 hugepages-2Mi.
const fitNode = node('n1', { cpu: '10m', memory: '20', pods: '32', 'example.com/aaa': '5', 'ephemeral-storage': '20', 'hugepages-2Mi': '5' });
const extA = 'example.com/aaa';
const extB = 'example.com/bbb';
const k8sA = 'kubernetes.io/something';
const k8sB = 'subdomain.kubernetes.io/something';
const huge = 'hugepages-2Mi';
const ins = (name: string) => `Insufficient ${name}`;

// noderesources/fit_test.go TestEnoughRequests (node: fitNode, one pod already on it).
const enoughRequests: Row[] = (
  [
    ['no resources requested always fits', { ...pod('p'), spec: { containers: [] } }, { cpu: 10, mem: 20 }, []],
    ['too many resources fails', usePod('p', { cpu: 1, mem: 1 }), { cpu: 10, mem: 20 }, [ins('cpu'), ins('memory')]],
    ['too many resources fails due to init container cpu', withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 3, mem: 1 }), { cpu: 8, mem: 19 }, [ins('cpu')]],
    ['too many resources fails due to highest init container cpu', withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 3, mem: 1 }, { cpu: 2, mem: 1 }), { cpu: 8, mem: 19 }, [ins('cpu')]],
    ['too many resources fails due to init container memory', withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 1, mem: 3 }), { cpu: 9, mem: 19 }, [ins('memory')]],
    ['too many resources fails due to highest init container memory', withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 1, mem: 3 }, { cpu: 1, mem: 2 }), { cpu: 9, mem: 19 }, [ins('memory')]],
    ["init container fits because it's the max, not sum, of containers and init containers", withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 1, mem: 1 }), { cpu: 9, mem: 19 }, []],
    ["multiple init containers fit because it's the max, not sum, of containers and init containers", withInits(usePod('p', { cpu: 1, mem: 1 }), { cpu: 1, mem: 1 }, { cpu: 1, mem: 1 }), { cpu: 9, mem: 19 }, []],
    ['both resources fit', usePod('p', { cpu: 1, mem: 1 }), { cpu: 5, mem: 5 }, []],
    ['one resource memory fits', usePod('p', { cpu: 2, mem: 1 }), { cpu: 9, mem: 5 }, [ins('cpu')]],
    ['one resource cpu fits', usePod('p', { cpu: 1, mem: 2 }), { cpu: 5, mem: 19 }, [ins('memory')]],
    ['equal edge case', usePod('p', { cpu: 5, mem: 1 }), { cpu: 5, mem: 19 }, []],
    ['equal edge case for init container', withInits(usePod('p', { cpu: 4, mem: 1 }), { cpu: 5, mem: 1 }), { cpu: 5, mem: 19 }, []],
    ['extended resource fits', usePod('p', { scalars: { [extA]: 1 } }), {}, []],
    ['extended resource fits for init container', withInits(usePod('p', {}), { scalars: { [extA]: 1 } }), {}, []],
    ['extended resource capacity enforced', usePod('p', { cpu: 1, mem: 1, scalars: { [extA]: 10 } }), { scalars: { [extA]: 0 } }, [ins(extA)]],
    ['extended resource capacity enforced for init container', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [extA]: 10 } }), { scalars: { [extA]: 0 } }, [ins(extA)]],
    ['extended resource allocatable enforced', usePod('p', { cpu: 1, mem: 1, scalars: { [extA]: 1 } }), { scalars: { [extA]: 5 } }, [ins(extA)]],
    ['extended resource allocatable enforced for init container', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [extA]: 1 } }), { scalars: { [extA]: 5 } }, [ins(extA)]],
    ['extended resource allocatable enforced for multiple containers', usePod('p', { cpu: 1, mem: 1, scalars: { [extA]: 3 } }, { cpu: 1, mem: 1, scalars: { [extA]: 3 } }), { scalars: { [extA]: 2 } }, [ins(extA)]],
    ['extended resource allocatable admits multiple init containers', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [extA]: 3 } }, { cpu: 1, mem: 1, scalars: { [extA]: 3 } }), { scalars: { [extA]: 2 } }, []],
    ['extended resource allocatable enforced for multiple init containers', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [extA]: 6 } }, { cpu: 1, mem: 1, scalars: { [extA]: 3 } }), { scalars: { [extA]: 2 } }, [ins(extA)]],
    ['extended resource allocatable enforced for unknown resource', usePod('p', { cpu: 1, mem: 1, scalars: { [extB]: 1 } }), {}, [ins(extB)]],
    ['extended resource allocatable enforced for unknown resource for init container', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [extB]: 1 } }), {}, [ins(extB)]],
    ['kubernetes.io resource capacity enforced', usePod('p', { cpu: 1, mem: 1, scalars: { [k8sA]: 10 } }), {}, [ins(k8sA)]],
    ['kubernetes.io resource capacity enforced for init container', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [k8sB]: 10 } }), {}, [ins(k8sB)]],
    ['hugepages resource capacity enforced', usePod('p', { cpu: 1, mem: 1, scalars: { [huge]: 10 } }), { scalars: { [huge]: 0 } }, [ins(huge)]],
    ['hugepages resource capacity enforced for init container', withInits(usePod('p', {}), { cpu: 1, mem: 1, scalars: { [huge]: 10 } }), { scalars: { [huge]: 0 } }, [ins(huge)]],
    ['hugepages resource allocatable enforced for multiple containers', usePod('p', { cpu: 1, mem: 1, scalars: { [huge]: 3 } }, { cpu: 1, mem: 1, scalars: { [huge]: 3 } }), { scalars: { [huge]: 2 } }, [ins(huge)]],
    ['resources + pod overhead fits', withOverhead(usePod('p', { cpu: 1, mem: 1 }), { cpu: '3m', memory: '13' }), { cpu: 5, mem: 5 }, []],
    ['requests + overhead does not fit for memory', withOverhead(usePod('p', { cpu: 1, mem: 1 }), { cpu: '1m', memory: '15' }), { cpu: 5, mem: 5 }, [ins('memory')]],
    ['skip checking extended resource request with quantity zero via resource groups', usePod('p', { cpu: 1, mem: 1, scalars: { [extA]: 0 } }), { scalars: { [extA]: 6 } }, []],
    ['skip checking resource request with quantity zero', usePod('p', { scalars: { [extA]: 1 } }), { cpu: 20, mem: 30, scalars: { [extA]: 1 } }, []],
    ['both pod-level and container-level resources fit', withPodLevel(usePod('p', { cpu: 1, mem: 1 }), { cpu: '1m', memory: '2' }), { cpu: 5, mem: 5 }, []],
    ['pod-level cpu resource not fit', withPodLevel(usePod('p', { cpu: 1, mem: 1 }), { cpu: '7m', memory: '2' }), { cpu: 5, mem: 5 }, [ins('cpu')]],
    ['pod-level memory resource not fit', withPodLevel(usePod('p', { cpu: 1, mem: 1 }), { cpu: '3m', memory: '2' }), { cpu: 5, mem: 19 }, [ins('memory')]],
    ['pod-level hugepages resource fit', withPodLevel(usePod('p'), { cpu: '3m', memory: '2', [huge]: '5' }), undefined, []],
    ['both pod-level and container-level hugepages resource fit', withPodLevel(usePod('p', { cpu: 1, mem: 1, scalars: { [huge]: 3 } }), { cpu: '3m', memory: '2', [huge]: '5' }), undefined, []],
    ['pod-level hugepages resource not fit', withPodLevel(usePod('p'), { cpu: '3m', memory: '2', [huge]: '10' }), undefined, [ins(huge)]],
    [
      'one pod-level cpu resource fits and all init and non-init containers resources fit',
      withInits(withPodLevel(usePod('p', { cpu: 1, mem: 1 }), { cpu: '3m', memory: '2' }), { cpu: 1, mem: 1 }),
      { cpu: 5, mem: 19 },
      [ins('memory')],
    ],
  ] as [string, Pod, Use | undefined, string[]][]
).map(([name, p, used, reasons]) => ({ name: `TestEnoughRequests: ${name}`, pod: p, node: fitNode, bound: used ? bound(used) : [], reasons }));

// TestNotEnoughRequests: makeAllocatableResources(10, 20, 1, 0, 0, 0), one pod already there.
const onePodNode = node('n1', { cpu: '10m', memory: '20', pods: '1', 'example.com/aaa': '0', 'ephemeral-storage': '0', 'hugepages-2Mi': '0' });
const notEnoughRequests: Row[] = (
  [
    ["even without specified resources, predicate fails when there's no space for additional pod", { ...pod('p'), spec: { containers: [] } }, { cpu: 10, mem: 20 }],
    ["even if both resources fit, predicate fails when there's no space for additional pod", usePod('p', { cpu: 1, mem: 1 }), { cpu: 5, mem: 5 }],
    ["even for equal edge case, predicate fails when there's no space for additional pod", usePod('p', { cpu: 5, mem: 1 }), { cpu: 5, mem: 19 }],
    ["even for equal edge case, predicate fails when there's no space for additional pod due to init container", withInits(usePod('p', { cpu: 5, mem: 1 }), { cpu: 5, mem: 1 }), { cpu: 5, mem: 19 }],
  ] as [string, Pod, Use][]
).map(([name, p, used]) => ({ name: `TestNotEnoughRequests: ${name}`, pod: p, node: onePodNode, bound: bound(used), reasons: [ReasonTooManyPods] }));

// TestStorageRequests (node: fitNode).
const storageRequests: Row[] = (
  [
    ['empty storage requested, and pod fits', usePod('p', { cpu: 1, mem: 1 }), { cpu: 2, mem: 10 }, []],
    ['storage ephemeral local storage request exceeds allocatable', usePod('p', { storage: 25 }), { cpu: 2, mem: 2 }, [ins('ephemeral-storage')]],
    ['ephemeral local storage is sufficient', usePod('p', { storage: 5 }), { cpu: 2, mem: 2, storage: 10 }, []],
    ['pod fits', usePod('p', { storage: 10 }), { cpu: 2, mem: 2 }, []],
  ] as [string, Pod, Use, string[]][]
).map(([name, p, used, reasons]) => ({ name: `TestStorageRequests: ${name}`, pod: p, node: fitNode, bound: bound(used), reasons }));

// TestRestartableInitContainers, SidecarContainers on (the v1.32 default): makeAllocatableResources(2, 0, 1, 0, 0, 0), no pods.
const sidecarNode = node('n1', { cpu: '2m', memory: '0', pods: '1', 'example.com/aaa': '0', 'ephemeral-storage': '0', 'hugepages-2Mi': '0' });
const sidecarPod = (request?: string, sidecarRequest?: string): Pod => ({
  ...pod('p'),
  spec: {
    containers: [container(request ? { cpu: request } : undefined, undefined, 'regular')],
    initContainers: [{ ...container(sidecarRequest ? { cpu: sidecarRequest } : undefined, undefined, 'restartable-init'), restartPolicy: 'Always' }],
  },
});
const restartableInitContainers: Row[] = (
  [
    ['allow pod without restartable init containers if sidecar containers is enabled', { ...pod('p'), spec: { containers: [container(undefined, undefined, 'regular')] } }, []],
    ['allow pod with restartable init containers if sidecar containers is enabled', sidecarPod(), []],
    ["allow pod if the total requested resources do not exceed the node's allocatable resources", sidecarPod('1m', '1m'), []],
    ["not allow pod if the total requested resources do exceed the node's allocatable resources", sidecarPod('1m', '2m'), [ins('cpu')]],
  ] as [string, Pod, string[]][]
).map(([name, p, reasons]) => ({ name: `TestRestartableInitContainers: ${name}`, pod: p, node: sidecarNode, reasons }));

// tainttoleration/taint_toleration_test.go TestTaintTolerationFilter (v1.32 reasons name the taint).
const tainted = (...taints: { key: string; value?: string; effect: string }[]) => node('nodeA', undefined, { spec: { taints } });
const tolerating = (...tolerations: { key?: string; operator?: string; value?: string; effect?: string }[]) => pod('pod1', undefined, { tolerations });
const taintTolerationFilter: Row[] = (
  [
    ["A pod having no tolerations can't be scheduled onto a node with nonempty taints", tolerating(), tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }), [taint('dedicated', 'user1')]],
    [
      'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      tolerating({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      [],
    ],
    [
      "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      tolerating({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }),
      [taint('dedicated', 'user1')],
    ],
    [
      'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
      tolerating({ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      [],
    ],
    [
      'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
      tolerating({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', operator: 'Exists', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }, { key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      [],
    ],
    [
      "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      tolerating({ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      [taint('foo', 'bar')],
    ],
    [
      'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      tolerating({ key: 'foo', operator: 'Equal', value: 'bar' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }),
      [],
    ],
    [
      "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      tolerating({ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }),
      tainted({ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }),
      [],
    ],
    ['The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', tolerating(), tainted({ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }), []],
    // FindMatchingUntoleratedTaint walks the taints in order: the first untolerated one is named.
    [
      'the first untolerated NoSchedule/NoExecute taint is the one named',
      tolerating({ key: 'foo', operator: 'Exists' }),
      tainted({ key: 'foo', value: 'bar', effect: 'NoSchedule' }, { key: 'soft', value: 'x', effect: 'PreferNoSchedule' }, { key: 'dedicated', value: 'user1', effect: 'NoExecute' }, { key: 'other', effect: 'NoSchedule' }),
      [taint('dedicated', 'user1')],
    ],
  ] as [string, Pod, Node, string[]][]
).map(([name, p, n, reasons]) => ({ name: `TestTaintTolerationFilter: ${name}`, pod: p, node: n, reasons }));

// nodeunschedulable/node_unschedulable_test.go TestNodeUnschedulable and nodename/node_name_test.go TestNodeName.
const nodeUnschedulableAndName: Row[] = [
  { name: 'TestNodeUnschedulable: Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)', pod: pod('p'), node: node('n1', undefined, { spec: { unschedulable: true } }), reasons: [ReasonUnschedulable] },
  { name: 'TestNodeUnschedulable: Schedule pod to normal node', pod: pod('p'), node: node('n1', undefined, { spec: { unschedulable: false } }), reasons: [] },
  {
    name: 'TestNodeUnschedulable: Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)',
    pod: pod('p', undefined, { tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }),
    node: node('n1', undefined, { spec: { unschedulable: true } }),
    reasons: [],
  },
  { name: 'TestNodeName: no host specified', pod: pod('p'), node: node('foo'), reasons: [] },
  { name: 'TestNodeName: host matches', pod: pod('p', undefined, {}, { nodeName: 'foo' }), node: node('foo'), reasons: [] },
  { name: "TestNodeName: host doesn't match", pod: pod('p', undefined, {}, { nodeName: 'bar' }), node: node('foo'), reasons: [ReasonNodeName] },
];

// nodeports/node_ports_test.go: TestNodePorts (v1.32 rows, the Filter status once PreFilter ran)
// and TestFits. A port is "PROTOCOL/hostIP/hostPort" as upstream's newPod spells it; the node
// holds the ports of one pod bound there.
const portsPod = (name: string, ...ports: string[]): Pod => {
  const p = pod(name);
  p.spec.containers[0]!.ports = ports.map((s) => {
    const [protocol, hostIP, port] = s.split('/');
    return { containerPort: Number(port), hostPort: Number(port), protocol: protocol!, hostIP: hostIP! };
  });
  return p;
};
/** A running pod on n1 that holds these host ports. */
const holding = (...ports: string[]): Pod => {
  const p = portsPod('held', ...ports);
  p.spec.nodeName = 'n1';
  return p;
};
const withInitPorts = (restartPolicy: 'Always' | undefined): Pod => {
  const p = pod('p');
  p.spec.initContainers = [{ ...container(undefined, undefined, 'init'), ...(restartPolicy ? { restartPolicy } : {}), ports: [{ containerPort: 8001, hostPort: 8001, protocol: 'TCP' }] }];
  return p;
};
const nodePorts: Row[] = (
  [
    ['skip filter', pod('p'), [], true],
    ['other port', portsPod('p', 'UDP/127.0.0.1/8080'), ['UDP/127.0.0.1/9090'], true],
    ['same udp port', portsPod('p', 'UDP/127.0.0.1/8080'), ['UDP/127.0.0.1/8080'], false],
    ['same tcp port', portsPod('p', 'TCP/127.0.0.1/8080'), ['TCP/127.0.0.1/8080'], false],
    ['different host ip', portsPod('p', 'TCP/127.0.0.1/8080'), ['TCP/127.0.0.2/8080'], true],
    ['different protocol', portsPod('p', 'UDP/127.0.0.1/8080'), ['TCP/127.0.0.1/8080'], true],
    ['second udp port conflict', portsPod('p', 'UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'), ['UDP/127.0.0.1/8080'], false],
    ['first tcp port conflict', portsPod('p', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'), ['TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081'], false],
    ['first tcp port conflict due to 0.0.0.0 hostIP', portsPod('p', 'TCP/0.0.0.0/8001'), ['TCP/127.0.0.1/8001'], false],
    ['TCP hostPort conflict due to 0.0.0.0 hostIP', portsPod('p', 'TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'), ['TCP/127.0.0.1/8001'], false],
    ['second tcp port conflict to 0.0.0.0 hostIP', portsPod('p', 'TCP/127.0.0.1/8001'), ['TCP/0.0.0.0/8001'], false],
    ['second different protocol', portsPod('p', 'UDP/127.0.0.1/8001'), ['TCP/0.0.0.0/8001'], true],
    ['UDP hostPort conflict due to 0.0.0.0 hostIP', portsPod('p', 'UDP/127.0.0.1/8001'), ['TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001'], false],
    ['non-sidecar initContainer using hostPort', withInitPorts(undefined), ['TCP/0.0.0.0/8001'], true],
    // Upstream from v1.34 (kubernetes#132040, in 1.33 patch releases) counts a sidecar's host
    // ports and rejects this pod; v1.32 looks at spec.containers only, so the filter is skipped.
    ['v1.32: a sidecar initContainer using hostPort (master: "TCP hostPort conflict from sidecar initContainer")', withInitPorts('Always'), ['TCP/0.0.0.0/8001'], true],
    // TestFits
    ['TestFits: non-conflicting ports', portsPod('p', 'TCP/127.0.0.1/80'), ['TCP/127.0.0.1/9090'], true],
    ['TestFits: multiple non-conflicting ports', portsPod('p', 'TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'), ['TCP/127.0.0.1/9090', 'TCP/127.0.0.1/9191', 'TCP/127.0.1.1/8080'], true],
    ['TestFits: same ports on different protocols', portsPod('p', 'TCP/127.0.0.1/80'), ['UDP/127.0.0.1/80'], true],
    ['TestFits: conflicting ports', portsPod('p', 'TCP/127.0.0.1/80'), ['TCP/127.0.0.1/80'], false],
    ['TestFits: multiple ports, some conflicting', portsPod('p', 'TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'), ['TCP/127.0.0.1/9090', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/8080'], false],
  ] as [string, Pod, string[], boolean][]
).map(([n, p, held, ok]) => ({
  name: `${n.startsWith('TestFits') ? '' : 'TestNodePorts: '}${n}`,
  pod: p,
  node: node('n1'),
  bound: held.length ? [holding(...held)] : [],
  reasons: ok ? [] : [ReasonNodePorts],
}));

// Bulkhead's own NodePorts rows: the defaults of an empty hostIP and protocol, what a pod holds,
// and where the filter sits in the order (after NodeAffinity, before NodeResourcesFit).
const nodePortsBulkhead: Row[] = [
  {
    name: 'NodePorts: an empty hostIP and protocol read as 0.0.0.0 and TCP',
    pod: (() => {
      const p = pod('p');
      p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: 8080 }];
      return p;
    })(),
    node: node('n1'),
    bound: [holding('TCP/127.0.0.1/8080')],
    reasons: [ReasonNodePorts],
  },
  {
    name: 'NodePorts: a containerPort without hostPort asks for nothing',
    pod: (() => {
      const p = pod('p');
      p.spec.containers[0]!.ports = [{ containerPort: 8080, protocol: 'TCP' }];
      return p;
    })(),
    node: node('n1'),
    bound: [holding('TCP/0.0.0.0/8080')],
    reasons: [],
  },
  { name: 'NodePorts: a finished pod holds no port', pod: portsPod('p', 'TCP/0.0.0.0/8080'), node: node('n1'), bound: [{ ...holding('TCP/0.0.0.0/8080'), status: { phase: 'Succeeded' } }], reasons: [] },
  {
    name: 'NodePorts: the ports of every regular container are held',
    pod: portsPod('p', 'TCP/0.0.0.0/8080'),
    node: node('n1'),
    bound: [
      (() => {
        const h = holding();
        h.spec.containers = [container(undefined, undefined, 'a'), { ...container(undefined, undefined, 'b'), ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] }];
        return h;
      })(),
    ],
    reasons: [ReasonNodePorts],
  },
  {
    name: 'NodePorts: NodeAffinity rejects first',
    pod: (() => {
      const p = portsPod('p', 'TCP/0.0.0.0/8080');
      p.spec.nodeSelector = { disk: 'ssd' };
      return p;
    })(),
    node: node('n1'),
    bound: [holding('TCP/0.0.0.0/8080')],
    reasons: [ReasonNodeAffinity],
  },
  {
    name: 'NodePorts: rejects before NodeResourcesFit',
    pod: (() => {
      const p = portsPod('p', 'TCP/0.0.0.0/8080');
      p.spec.containers[0]!.resources = { requests: { memory: '64Gi' } };
      return p;
    })(),
    node: node('n1'),
    bound: [holding('TCP/0.0.0.0/8080')],
    reasons: [ReasonNodePorts],
  },
];

/**
 * The status code upstream's rows expect with these reasons: NodeResourcesFit and NodePorts
 * answer Unschedulable (preemption may help), the node's own properties (taints, name,
 * unschedulable, affinity) UnschedulableAndUnresolvable, which preemption skips.
 */
const upstreamCode = (reasons: string[]): RejectCode | undefined => {
  if (reasons.length === 0) return undefined;
  const fitOrPorts = reasons.every((r) => r === ReasonTooManyPods || r.startsWith('Insufficient ') || r === ReasonNodePorts);
  return fitOrPorts ? 'Unschedulable' : 'UnschedulableAndUnresolvable';
};
const checkUpstreamRow = (r: Row) => {
  const got = fitsNode(r.pod, r.node, r.bound ?? [], gates);
  assert.deepEqual(got.reasons, r.reasons);
  assert.equal(got.fits, r.reasons.length === 0);
  assert.equal(got.rejection?.code, upstreamCode(r.reasons));
};

describe('upstream filter tables (fitsNode)', () => {
  for (const r of [...enoughRequests, ...notEnoughRequests, ...storageRequests, ...restartableInitContainers, ...taintTolerationFilter, ...nodeUnschedulableAndName, ...nodePorts, ...nodePortsBulkhead]) {
    it(r.name, () => checkUpstreamRow(r));
  }
});

// nodeaffinity/node_affinity_test.go TestNodeAffinity: the Filter status of each case (the
// PreFilterResult is the walk's business, see pick.test.ts).
type Req = { key: string; operator: string; values?: string[] };
type Term = { matchExpressions?: Req[]; matchFields?: Req[] };
const affinity = (...nodeSelectorTerms: Term[]): Partial<Pod['spec']> => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } } });
const expr = (key: string, operator: string, values?: string[]): Req => ({ key, operator, ...(values ? { values } : {}) });
const name = (...values: string[]): Req => ({ key: 'metadata.name', operator: 'In', values });
const labelled = (labels: Record<string, string> = {}, nodeName = 'node') => node(nodeName, undefined, { labels });
const nodeAffinity: Row[] = (
  [
    ['missing labels', { nodeSelector: { foo: 'bar' } }, labelled(), false],
    ['same labels', { nodeSelector: { foo: 'bar' } }, labelled({ foo: 'bar' }), true],
    ['node labels are superset', { nodeSelector: { foo: 'bar' } }, labelled({ foo: 'bar', baz: 'blah' }), true],
    ['node labels are subset', { nodeSelector: { foo: 'bar', baz: 'blah' } }, labelled({ foo: 'bar' }), false],
    ['Pod with matchExpressions using In operator that matches the existing node', affinity({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }), labelled({ foo: 'bar' }), true],
    ['Pod with matchExpressions using Gt operator that matches the existing node', affinity({ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }), labelled({ 'kernel-version': '0206' }), true],
    ['Pod with matchExpressions using NotIn operator that matches the existing node', affinity({ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }), labelled({ 'mem-type': 'DDR3' }), true],
    ['Pod with matchExpressions using Exists operator that matches the existing node', affinity({ matchExpressions: [expr('GPU', 'Exists')] }), labelled({ GPU: 'NVIDIA-GRID-K1' }), true],
    ["Pod with affinity that don't match node's labels won't schedule onto the node", affinity({ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }), labelled({ foo: 'bar' }), false],
    ['Pod with empty MatchExpressions is not a valid value will match no objects and won\'t schedule onto the node', affinity({ matchExpressions: [] }), labelled({ foo: 'bar' }), false],
    ['Pod with no Affinity will schedule onto a node', {}, labelled({ foo: 'bar' }), true],
    ['Pod with Affinity but nil NodeSelector will schedule onto a node', { affinity: { nodeAffinity: {} } }, labelled({ foo: 'bar' }), true],
    ['Pod with multiple matchExpressions ANDed that matches the existing node', affinity({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }), labelled({ GPU: 'NVIDIA-GRID-K1' }), true],
    ["Pod with multiple matchExpressions ANDed that doesn't match the existing node", affinity({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }), labelled({ GPU: 'NVIDIA-GRID-K1' }), false],
    [
      "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      affinity({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }, { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] }),
      labelled({ foo: 'bar' }),
      true,
    ],
    [
      'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node',
      { nodeSelector: { foo: 'bar' }, ...affinity({ matchExpressions: [expr('foo', 'Exists')] }) },
      labelled({ foo: 'bar' }),
      true,
    ],
    [
      "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      { nodeSelector: { foo: 'bar' }, ...affinity({ matchExpressions: [expr('foo', 'Exists')] }) },
      labelled({ foo: 'barrrrrr' }),
      false,
    ],
    ["Pod with an invalid value in Affinity term won't be scheduled onto the node", affinity({ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }), labelled({ foo: 'bar' }), false],
    ['Pod with matchFields using In operator that matches the existing node', affinity({ matchFields: [name('node1')] }), labelled({}, 'node1'), true],
    ['Pod with matchFields using In operator that does not match the existing node', affinity({ matchFields: [name('node1')] }), labelled({}, 'node2'), false],
    ['Pod with two terms: matchFields does not match, but matchExpressions matches', affinity({ matchFields: [name('node1'), name('node2')] }, { matchExpressions: [expr('foo', 'In', ['bar'])] }), labelled({ foo: 'bar' }, 'node2'), true],
    ['Pod with one term: matchFields does not match, but matchExpressions matches', affinity({ matchFields: [name('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }), labelled({ foo: 'bar' }, 'node2'), false],
    ['Pod with one term: both matchFields and matchExpressions match', affinity({ matchFields: [name('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }), labelled({ foo: 'bar' }, 'node1'), true],
    ['Pod with two terms: both matchFields and matchExpressions do not match', affinity({ matchFields: [name('node1')] }, { matchExpressions: [expr('foo', 'In', ['not-match-to-bar'])] }), labelled({ foo: 'bar' }, 'node2'), false],
    ['Pod with two terms of node.Name affinity', affinity({ matchFields: [name('node1')] }, { matchFields: [name('node2')] }), labelled({}, 'node2'), true],
    ['Pod with two conflicting mach field requirements', affinity({ matchFields: [name('node1'), name('node2')] }), labelled({ foo: 'bar' }, 'node2'), false],
    ['Matches node selector correctly even if PreFilter is not called', { nodeSelector: { foo: 'bar' } }, labelled({ foo: 'bar', baz: 'blah' }), true],
    ['Matches node affinity correctly even if PreFilter is not called', affinity({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }), labelled({ GPU: 'NVIDIA-GRID-K1' }), true],
    // labels.NewRequirement's other checks: a term that does not parse matches no node.
    ['a Gt value that is no integer does not parse', affinity({ matchExpressions: [expr('kernel-version', 'Gt', ['two'])] }), labelled({ 'kernel-version': '0206' }), false],
    ['a label beyond int64 never compares with Gt', affinity({ matchExpressions: [expr('n', 'Gt', ['1'])] }), labelled({ n: '99999999999999999999' }), false],
    ['Exists with values does not parse', affinity({ matchExpressions: [expr('GPU', 'Exists', ['x'])] }), labelled({ GPU: 'x' }), false],
    ['matchFields In with two names does not parse', affinity({ matchFields: [name('node1', 'node2')] }), labelled({}, 'node1'), false],
  ] as [string, Partial<Pod['spec']>, Node, boolean][]
).map(([n, spec, nd, ok]) => ({ name: `TestNodeAffinity: ${n}`, pod: pod('p', undefined, spec), node: nd, reasons: ok ? [] : [ReasonNodeAffinity] }));

describe('upstream node affinity table (fitsNode)', () => {
  for (const r of nodeAffinity) it(r.name, () => checkUpstreamRow(r));
});
