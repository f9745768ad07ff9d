// Per-container oom_score_adj. Rows ported from upstream's tables (read, not copied):
//   kubernetes/kubernetes pkg/kubelet/qos/policy_test.go TestGetContainerOOMScoreAdjust (the version
//   with sidecars, pod-level resources and DRA; DRA rows are ported only where DRA is disabled) and
//   the gate-off ("legacy") column of TestGetContainerOOMScoreAdjustTieBreak (the tie-break gate is
//   ignored, reference §0). Upstream accepts a range for some rows; reference §2 says the algorithm
//   yields one exact value, which is what these rows pin.
// Older copies of policy_test.go expect -997 for a pod that only has priority 2000000000; current
// upstream (and reference §2) makes only system-node-critical pods node-critical: that row says so.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  besteffortOOMScoreAdj,
  containerOOMScoreAdj,
  guaranteedOOMScoreAdj,
  isCriticalPod,
  isMirrorPod,
  isNodeCriticalPod,
  isStaticPod,
  kubeletOOMScoreAdj,
  sandboxOOMScoreAdj,
  systemClusterCritical,
  systemCriticalPriority,
  systemNodeCritical,
} from '../../src/policy/oomscore.js';
import type { Container, Pod, QOSClass, ResourceList, ResourceRequirements } from '../../src/api/types.js';

const ON = { PodLevelResources: true } as const;
const OFF = { PodLevelResources: false } as const;

const standardMemoryAmount = 8_000_000_000n;
const Mi = 1n << 20n;
const Gi = 1n << 30n;
const Ti = 1n << 40n;

function ctr(name: string, requests?: ResourceList, limits?: ResourceList, restartPolicy?: string): Container {
  const c: Container = { name, resources: {} };
  if (requests) c.resources!.requests = requests;
  if (limits) c.resources!.limits = limits;
  if (restartPolicy) c.restartPolicy = restartPolicy;
  return c;
}
const sidecar = (name: string, requests?: ResourceList, limits?: ResourceList) => ctr(name, requests, limits, 'Always');

interface PodOpts {
  init?: Container[];
  resources?: ResourceRequirements;
  priority?: number;
  priorityClassName?: string;
  annotations?: Record<string, string>;
  qosClass?: QOSClass;
}
function pod(containers: Container[], o: PodOpts = {}): Pod {
  const p: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers } };
  if (o.init) p.spec.initContainers = o.init;
  if (o.resources) p.spec.resources = o.resources;
  if (o.priority !== undefined) p.spec.priority = o.priority;
  if (o.priorityClassName) p.spec.priorityClassName = o.priorityClassName;
  if (o.annotations) p.metadata.annotations = o.annotations;
  if (o.qosClass) p.status = { qosClass: o.qosClass };
  return p;
}

interface Row {
  name: string;
  pod: Pod;
  capacity: bigint;
  /** container name -> exact oom_score_adj */
  expected: Record<string, number>;
  podLevelResources?: boolean;
}

const mem = (v: bigint | string) => ({ memory: String(v) });
const sampleDefaultMemRequest = String(standardMemoryAmount / 8n);
const sampleDefaultMemLimit = String(1000n + standardMemoryAmount / 8n);
const sampleDefaultPodMemRequest = String(standardMemoryAmount / 4n);
const sampleDefaultPodMemLimit = String(1000n + standardMemoryAmount / 4n);
const sampleContainer = () => ctr('main-1', mem(sampleDefaultMemRequest), mem(sampleDefaultMemLimit));
const sampleInit = () => ctr('init-container', mem(sampleDefaultMemRequest), mem(sampleDefaultMemLimit));

// policy_test.go TestGetContainerOOMScoreAdjust (upstream row name in quotes).
const upstreamRows: Row[] = [
  { name: '"cpu-limit": cpu limit only, no memory request -> 999', pod: pod([ctr('cpu-limit', undefined, { cpu: '10' })]), capacity: 4_000_000_000n, expected: { 'cpu-limit': 999 } },
  {
    name: '"memory-limit-cpu-request": memory limit without memory request -> 999',
    pod: pod([ctr('memory-limit-cpu-request', { cpu: '0' }, { memory: '10G' })]),
    capacity: 8_000_000_000n,
    expected: { 'memory-limit-cpu-request': 999 },
  },
  { name: '"zero-memory-limit": BestEffort -> 1000', pod: pod([ctr('zero-memory-limit', undefined, { memory: '0' })]), capacity: 7_230_457_451n, expected: { 'zero-memory-limit': 1000 } },
  { name: '"no-request-limit": BestEffort -> 1000', pod: pod([ctr('no-request-limit')]), capacity: 4_000_000_000n, expected: { 'no-request-limit': 1000 } },
  {
    name: '"equal-request-limit-cpu-memory": Guaranteed -> -997 (current upstream; older releases -998, -999)',
    pod: pod([ctr('equal-request-limit-cpu-memory', { memory: '10G', cpu: '5m' }, { cpu: '5m', memory: '10G' })]),
    capacity: 123_456_789n,
    expected: { 'equal-request-limit-cpu-memory': -997 },
  },
  {
    name: '"cpu-unlimited-memory-limited-with-requests": half of RAM -> exactly 500 (upstream accepts 495..505)',
    pod: pod([ctr('cpu-unlimited-memory-limited-with-requests', { memory: String(standardMemoryAmount / 2n), cpu: '5m' }, { memory: '10G' })]),
    capacity: standardMemoryAmount,
    expected: { 'cpu-unlimited-memory-limited-with-requests': 500 },
  },
  {
    name: '"request-no-limit": request of all RAM but one byte clamps at 3',
    pod: pod([ctr('request-no-limit', { memory: String(standardMemoryAmount - 1n), cpu: '5m' })]),
    capacity: standardMemoryAmount,
    expected: { 'request-no-limit': 3 },
  },
  {
    name: '"cluster-critical": system-cluster-critical is never node-critical, BestEffort -> 1000',
    pod: pod([ctr('cluster-critical')], { priorityClassName: systemClusterCritical, priority: systemCriticalPriority }),
    capacity: 4_000_000_000n,
    expected: { 'cluster-critical': 1000 },
  },
  {
    name: '"node-critical": system-node-critical with its priority -> -997',
    pod: pod([ctr('node-critical')], { priorityClassName: systemNodeCritical, priority: systemCriticalPriority + 1000 }),
    capacity: 4_000_000_000n,
    expected: { 'node-critical': -997 },
  },
  {
    name: '"critical" (older table): priority 2000000000 without the node-critical class is not node-critical in current upstream -> BestEffort 1000 (older table: -997)',
    pod: pod([ctr('critical')], { priority: systemCriticalPriority }),
    capacity: 4_000_000_000n,
    expected: { critical: 1000 },
  },
  {
    name: '"burstable-unique-container-pod": 1/8 of RAM -> exactly 875 (upstream accepts 875..880)',
    pod: pod([ctr('burstable-unique-container', mem(sampleDefaultMemRequest), mem(sampleDefaultMemLimit))]),
    capacity: standardMemoryAmount,
    expected: { 'burstable-unique-container': 875 },
  },
  {
    name: '"burstable-mixed-unique-main-container-pod": a regular init container uses its own request',
    pod: pod([sampleContainer()], { init: [sampleInit()] }),
    capacity: standardMemoryAmount,
    expected: { 'init-container': 875, 'main-1': 875 },
  },
  {
    name: '"burstable-mixed-multi-container-small-sidecar-pod": a small sidecar (950) is lowered to the regular container (875)',
    pod: pod([sampleContainer()], { init: [sampleInit(), sidecar('sidecar-small-container', mem(String(standardMemoryAmount / 20n)), mem(sampleDefaultMemLimit))] }),
    capacity: standardMemoryAmount,
    expected: { 'init-container': 875, 'sidecar-small-container': 875, 'main-1': 875 },
  },
  {
    name: '"burstable-mixed-multi-container-sample-request-pod": a sidecar with the same request gets the same value',
    pod: pod([sampleContainer()], { init: [sampleInit(), sidecar('sidecar-container', mem(sampleDefaultMemRequest), mem(sampleDefaultMemLimit))] }),
    capacity: standardMemoryAmount,
    expected: { 'init-container': 875, 'sidecar-container': 875, 'main-1': 875 },
  },
  {
    name: '"burstable-mixed-multi-container-big-sidecar-container-pod": the cap only lowers, a big sidecar keeps 500',
    pod: pod([sampleContainer()], { init: [sampleInit(), sidecar('sidecar-big-container', mem(String(standardMemoryAmount / 2n)), mem(sampleDefaultMemLimit))] }),
    capacity: standardMemoryAmount,
    expected: { 'init-container': 875, 'sidecar-big-container': 500, 'main-1': 875 },
  },
  {
    name: '"guaranteed-pod-resources-no-container-resources": Guaranteed pod-level stanza -> -997 for every container',
    pod: pod([ctr('no-request-limit-1'), ctr('no-request-limit-2')], {
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemRequest } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'no-request-limit-1': -997, 'no-request-limit-2': -997 },
    podLevelResources: true,
  },
  {
    name: '"guaranteed-pod-resources-equal-container-resources"',
    pod: pod(
      [ctr('guaranteed-container-1', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemRequest }), ctr('guaranteed-container-2', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemRequest })],
      { resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemRequest } } },
    ),
    capacity: 4_000_000_000n,
    expected: { 'guaranteed-container-1': -997, 'guaranteed-container-2': -997 },
    podLevelResources: true,
  },
  {
    name: '"guaranteed-pod-resources-unequal-container-requests": container shapes do not matter under a Guaranteed stanza',
    pod: pod([ctr('burstable-container', { cpu: '3m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemLimit }), ctr('best-effort-container')], {
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemRequest } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'burstable-container': -997, 'best-effort-container': -997 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-no-container-resources": the pod request is shared evenly, extra = 2e9/2',
    pod: pod([ctr('no-request-limit-1'), ctr('no-request-limit-2')], {
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'no-request-limit-1': 750, 'no-request-limit-2': 750 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-equal-container-requests": nothing left over, extra = 0',
    pod: pod(
      [ctr('guaranteed-container-1', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemRequest }), ctr('guaranteed-container-2', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemRequest })],
      { resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } } },
    ),
    capacity: 4_000_000_000n,
    expected: { 'guaranteed-container-1': 750, 'guaranteed-container-2': 750 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-unequal-container-requests": extra = (2e9 - 1e9)/2 added to each container',
    pod: pod([ctr('burstable-container', { cpu: '3m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemRequest }), ctr('best-effort-container')], {
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'burstable-container': 625, 'best-effort-container': 875 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-no-container-resources-with-sidecar": the sidecar counts in the even share',
    pod: pod([ctr('no-request-limit')], {
      init: [sidecar('no-request-limit-sidecar')],
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'no-request-limit': 750, 'no-request-limit-sidecar': 750 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-equal-container-requests-with-sidecar": sidecar-aware aggregate leaves nothing over',
    pod: pod([ctr('burstable-container', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemLimit })], {
      init: [sidecar('burstable-sidecar', { cpu: '5m', memory: sampleDefaultMemRequest }, { cpu: '5m', memory: sampleDefaultMemLimit })],
      resources: { requests: { cpu: '5m', memory: sampleDefaultPodMemRequest }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } },
    }),
    capacity: 4_000_000_000n,
    expected: { 'burstable-container': 750, 'burstable-sidecar': 750 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-resources-unequal-container-requests-with-sidecar": extra (2e9-1.7e9)/3, sidecar capped by the smallest regular plus extra',
    pod: pod(
      [
        ctr('burstable-container-1', { cpu: '5m', memory: '1000000000' }, { cpu: '5m', memory: sampleDefaultPodMemLimit }),
        ctr('burstable-container-2', { cpu: '5m', memory: '500000000' }, { cpu: '5m', memory: sampleDefaultPodMemLimit }),
      ],
      {
        init: [sidecar('burstable-sidecar', { cpu: '5m', memory: '200000000' }, { cpu: '5m', memory: sampleDefaultPodMemLimit })],
        resources: { requests: { cpu: '5m', memory: '2000000000' }, limits: { cpu: '5m', memory: sampleDefaultPodMemLimit } },
      },
    ),
    capacity: 4_000_000_000n,
    expected: { 'burstable-container-1': 725, 'burstable-container-2': 850, 'burstable-sidecar': 850 },
    podLevelResources: true,
  },
  {
    name: '"burstable-pod-with-dra-disabled": 500Mi of 4e9 -> 869 (DRA not modelled; its gate is off by default)',
    pod: pod([ctr('c1', { memory: '500Mi' })]),
    capacity: 4_000_000_000n,
    expected: { c1: 869 },
  },
];

function tieBreakContainer(name: string, request: bigint, limit: bigint): Container {
  return limit > 0n ? ctr(name, { memory: String(request) }, { memory: String(limit) }) : ctr(name, { memory: String(request) });
}

// policy_test.go TestGetContainerOOMScoreAdjustTieBreak, column gateOff (the legacy formula).
const tieBreakRows: Row[] = [
  { name: '"16Gi node, 500Mi unlimited"', pod: pod([tieBreakContainer('c', 500n * Mi, 0n)]), capacity: 16n * Gi, expected: { c: 970 } },
  { name: '"16Gi node, 500Mi request equals limit": memory-only Guaranteed shape is Burstable', pod: pod([tieBreakContainer('c', 500n * Mi, 500n * Mi)]), capacity: 16n * Gi, expected: { c: 970 } },
  { name: '"1Ti node, 50Mi unlimited is below the floor": 1000 becomes 999', pod: pod([tieBreakContainer('c', 50n * Mi, 0n)]), capacity: Ti, expected: { c: 999 } },
  { name: '"1Ti node, 500Mi unlimited"', pod: pod([tieBreakContainer('c', 500n * Mi, 0n)]), capacity: Ti, expected: { c: 999 } },
  { name: '"1Ti node, 4Gi unlimited hits the nudge cap" (legacy 997)', pod: pod([tieBreakContainer('c', 4n * Gi, 0n)]), capacity: Ti, expected: { c: 997 } },
  { name: '"1Ti node, 16Gi unlimited"', pod: pod([tieBreakContainer('c', 16n * Gi, 0n)]), capacity: Ti, expected: { c: 985 } },
  { name: '"1Ti node, 500Mi request equals limit"', pod: pod([tieBreakContainer('c', 500n * Mi, 500n * Mi)]), capacity: Ti, expected: { c: 999 } },
  { name: '"4Ti node, 500Mi unlimited"', pod: pod([tieBreakContainer('c', 500n * Mi, 0n)]), capacity: 4n * Ti, expected: { c: 999 } },
  { name: '"4Ti node, 64Gi unlimited"', pod: pod([tieBreakContainer('c', 64n * Gi, 0n)]), capacity: 4n * Ti, expected: { c: 985 } },
  {
    name: '"1Ti node, sidecar capped at the highest regular container": legacy caps by the SMALLEST request (1000 -> 999)',
    pod: pod([tieBreakContainer('small-bounded', 50n * Mi, 50n * Mi), tieBreakContainer('large-unbounded', 16n * Gi, 0n)], {
      init: [{ ...tieBreakContainer('sidecar', 50n * Mi, 0n), restartPolicy: 'Always' }],
    }),
    capacity: Ti,
    expected: { sidecar: 999, 'small-bounded': 999, 'large-unbounded': 985 },
  },
  {
    name: '"1Ti node, pod-level limit above the container\'s share": extra 2Gi -> 999',
    pod: pod([ctr('c', { cpu: '100m' })], { resources: { requests: { memory: '2Gi' }, limits: { memory: '4Gi' } } }),
    capacity: Ti,
    expected: { c: 999 },
    podLevelResources: true,
  },
  {
    name: '"1Ti node, pod-level limit equal to the container\'s share": memory-only stanza is Burstable -> 999',
    pod: pod([ctr('c', { cpu: '100m' })], { resources: { requests: { memory: '2Gi' }, limits: { memory: '2Gi' } } }),
    capacity: Ti,
    expected: { c: 999 },
    podLevelResources: true,
  },
];

const C = 1_000_000n;
// reference/qos-oom-cgroup-quantity.md §2 and DESIGN.md "Burstable oom_score_adj floor".
const referenceRows: Row[] = [
  { name: 'burstable with request 99.7% of memory is exactly 3 (no clamp needed)', pod: pod([ctr('c', { memory: '997000' })]), capacity: C, expected: { c: 3 } },
  { name: 'burstable clamps at 3 when the request is 99.8% of memory (would be 2; the QoS article says 2, the kubelet 3)', pod: pod([ctr('c', { memory: '998000' })]), capacity: C, expected: { c: 3 } },
  { name: 'burstable clamps at 3 when the request is 99.9% of memory', pod: pod([ctr('c', { memory: '999000' })]), capacity: C, expected: { c: 3 } },
  { name: 'burstable clamps at 3 when the request exceeds machine memory', pod: pod([ctr('c', { memory: '5000000' })]), capacity: C, expected: { c: 3 } },
  { name: 'request below 0.1% of memory gives 1000, which becomes 999', pod: pod([ctr('c', { memory: '999' })]), capacity: C, expected: { c: 999 } },
  { name: 'request of exactly 0.1% of memory is 999 without a clamp', pod: pod([ctr('c', { memory: '1000' })]), capacity: C, expected: { c: 999 } },
  { name: 'the subtracted term is truncated: 1000 - (1000*1) div 3 = 667', pod: pod([ctr('c', { memory: '1' })]), capacity: 3n, expected: { c: 667 } },
  { name: 'the request is Quantity.Value(), rounded up: 1500m bytes counts as 2', pod: pod([ctr('c', { memory: '1500m' })]), capacity: 1000n, expected: { c: 998 } },
  { name: 'machine capacity, not allocatable: 2Gi of 8Gi -> 750', pod: pod([ctr('c', { memory: '2Gi' })]), capacity: 8n * Gi, expected: { c: 750 } },
  {
    name: 'sidecar capped by the regular container with the SMALLEST request, not the last one (1.32-era bug)',
    pod: pod([ctr('small', { memory: '1000000000' }), ctr('big', { memory: '4000000000' })], { init: [sidecar('side', { memory: '500000000' })] }),
    capacity: standardMemoryAmount,
    expected: { small: 875, big: 500, side: 875 },
  },
  {
    name: 'a regular init container is never capped (keeps 938 above the regular 875)',
    pod: pod([ctr('main', { memory: '1000000000' })], { init: [ctr('init', { memory: '500000000' })] }),
    capacity: standardMemoryAmount,
    expected: { main: 875, init: 938 },
  },
  {
    name: 'sidecar cap from a regular container without memory request is 1000: the sidecar keeps its own value',
    pod: pod([ctr('main', { cpu: '1' })], { init: [sidecar('side', { memory: '1000000000' })] }),
    capacity: standardMemoryAmount,
    expected: { main: 999, side: 875 },
  },
  {
    name: 'pod-level extra divides by app plus ALL init containers, regular ones included',
    pod: pod([ctr('main', { memory: '1000000000' })], { init: [ctr('init'), sidecar('side')], resources: { requests: { memory: '3000000000' } } }),
    capacity: standardMemoryAmount,
    // extra = (3e9 - 1e9) div 3 = 666666666
    expected: { main: 792, init: 917, side: 792 },
    podLevelResources: true,
  },
  {
    name: 'pod-level requests without memory give extra 0',
    pod: pod([ctr('main', { memory: '1000000000' })], { resources: { requests: { cpu: '1' } } }),
    capacity: standardMemoryAmount,
    expected: { main: 875 },
    podLevelResources: true,
  },
  {
    name: 'pod-level memory request with PodLevelResources on adds the unallocated remainder',
    pod: pod([ctr('main', { memory: '1000000000' })], { resources: { requests: { memory: '4000000000' } } }),
    capacity: standardMemoryAmount,
    expected: { main: 500 },
    podLevelResources: true,
  },
  {
    name: 'pod-level memory request is ignored with PodLevelResources off',
    pod: pod([ctr('main', { memory: '1000000000' })], { resources: { requests: { memory: '4000000000' } } }),
    capacity: standardMemoryAmount,
    expected: { main: 875 },
    podLevelResources: false,
  },
  {
    name: 'a persisted status.qosClass wins: Burstable spec with status Guaranteed -> -997',
    pod: pod([ctr('c', { memory: '1000000000' })], { qosClass: 'Guaranteed' }),
    capacity: standardMemoryAmount,
    expected: { c: -997 },
  },
  {
    name: 'a persisted status.qosClass wins: Guaranteed spec with status BestEffort -> 1000',
    pod: pod([ctr('c', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], { qosClass: 'BestEffort' }),
    capacity: standardMemoryAmount,
    expected: { c: 1000 },
  },
  {
    name: 'static pod (config.source=file) of class system-node-critical without priority is node-critical -> -997',
    pod: pod([ctr('c', { memory: '1Gi' })], { priorityClassName: systemNodeCritical, annotations: { 'kubernetes.io/config.source': 'file' } }),
    capacity: standardMemoryAmount,
    expected: { c: -997 },
  },
  {
    name: 'mirror pod of class system-node-critical is node-critical -> -997',
    pod: pod([ctr('c')], { priorityClassName: systemNodeCritical, annotations: { 'kubernetes.io/config.mirror': 'abc' } }),
    capacity: standardMemoryAmount,
    expected: { c: -997 },
  },
  {
    name: 'config.source=api is not a static pod: class alone without priority is not critical -> BestEffort 1000',
    pod: pod([ctr('c')], { priorityClassName: systemNodeCritical, annotations: { 'kubernetes.io/config.source': 'api' } }),
    capacity: standardMemoryAmount,
    expected: { c: 1000 },
  },
  {
    name: 'class system-node-critical without priority value on an API pod is not critical -> BestEffort 1000',
    pod: pod([ctr('c')], { priorityClassName: systemNodeCritical }),
    capacity: standardMemoryAmount,
    expected: { c: 1000 },
  },
  {
    name: 'static system-cluster-critical pod is never node-critical: Burstable value',
    pod: pod([ctr('c', { memory: '1000000000' })], { priorityClassName: systemClusterCritical, annotations: { 'kubernetes.io/config.source': 'file' } }),
    capacity: standardMemoryAmount,
    expected: { c: 875 },
  },
];

function runRows(rows: Row[]): void {
  for (const row of rows) {
    const gates = row.podLevelResources === false ? OFF : ON;
    const all = [...(row.pod.spec.initContainers ?? []), ...row.pod.spec.containers];
    for (const c of all) {
      const want = row.expected[c.name];
      if (want === undefined) continue;
      it(`${row.name} [${c.name} -> ${want}]`, () => {
        assert.equal(containerOOMScoreAdj(row.pod, c, row.capacity, gates), want);
      });
    }
  }
}

describe('containerOOMScoreAdj: upstream policy_test.go TestGetContainerOOMScoreAdjust rows', () => runRows(upstreamRows));
describe('containerOOMScoreAdj: upstream TestGetContainerOOMScoreAdjustTieBreak, gate-off column', () => runRows(tieBreakRows));
describe('containerOOMScoreAdj: reference §2 rules', () => runRows(referenceRows));

describe('containerOOMScoreAdj: the upstream rows run with PodLevelResources off keep their non-pod-level values', () => {
  // policy_test.go runs the non-pod-level rows with the gate off; they must not depend on it.
  for (const row of upstreamRows.filter((r) => !r.podLevelResources)) {
    for (const c of [...(row.pod.spec.initContainers ?? []), ...row.pod.spec.containers]) {
      const want = row.expected[c.name];
      if (want === undefined) continue;
      it(`${row.name} [${c.name} -> ${want}, gate off]`, () => assert.equal(containerOOMScoreAdj(row.pod, c, row.capacity, OFF), want));
    }
  }
});

describe('oom_score_adj constants', () => {
  const rows: [string, number, number][] = [
    ['Guaranteed is -997 (current upstream; was -999, then -998)', guaranteedOOMScoreAdj, -997],
    ['BestEffort is 1000', besteffortOOMScoreAdj, 1000],
    ['the pod sandbox (pause) gets -998 from the runtime, below Guaranteed apps', sandboxOOMScoreAdj, -998],
    ['the kubelet itself runs at -999', kubeletOOMScoreAdj, -999],
    ['the Burstable floor is 1000 + Guaranteed = 3', 1000 + guaranteedOOMScoreAdj, 3],
  ];
  for (const [name, got, want] of rows) it(`${name}`, () => assert.equal(got, want));
  it('rejects a non-positive machine capacity for Burstable pods', () => {
    const p = pod([ctr('c', { memory: '1Gi' })]);
    assert.throws(() => containerOOMScoreAdj(p, p.spec.containers[0]!, 0n, ON), RangeError);
  });
});

describe('isStaticPod / isMirrorPod / isCriticalPod / isNodeCriticalPod', () => {
  const rows: { name: string; pod: Pod; static: boolean; mirror: boolean; critical: boolean; nodeCritical: boolean }[] = [
    { name: 'plain API pod', pod: pod([ctr('c')]), static: false, mirror: false, critical: false, nodeCritical: false },
    { name: 'config.source=file is static and critical', pod: pod([ctr('c')], { annotations: { 'kubernetes.io/config.source': 'file' } }), static: true, mirror: false, critical: true, nodeCritical: false },
    { name: 'config.source=http is static', pod: pod([ctr('c')], { annotations: { 'kubernetes.io/config.source': 'http' } }), static: true, mirror: false, critical: true, nodeCritical: false },
    { name: 'config.source=api is not static', pod: pod([ctr('c')], { annotations: { 'kubernetes.io/config.source': 'api' } }), static: false, mirror: false, critical: false, nodeCritical: false },
    { name: 'config.mirror present (even empty) is a mirror pod', pod: pod([ctr('c')], { annotations: { 'kubernetes.io/config.mirror': '' } }), static: false, mirror: true, critical: true, nodeCritical: false },
    { name: 'priority 2000000000 is critical', pod: pod([ctr('c')], { priority: 2000000000 }), static: false, mirror: false, critical: true, nodeCritical: false },
    { name: 'priority 1999999999 is not critical', pod: pod([ctr('c')], { priority: 1999999999 }), static: false, mirror: false, critical: false, nodeCritical: false },
    { name: 'system-node-critical with priority 2000001000 is node-critical', pod: pod([ctr('c')], { priority: 2000001000, priorityClassName: systemNodeCritical }), static: false, mirror: false, critical: true, nodeCritical: true },
    { name: 'system-node-critical without priority is neither', pod: pod([ctr('c')], { priorityClassName: systemNodeCritical }), static: false, mirror: false, critical: false, nodeCritical: false },
    { name: 'system-cluster-critical with priority is critical, not node-critical', pod: pod([ctr('c')], { priority: 2000000000, priorityClassName: systemClusterCritical }), static: false, mirror: false, critical: true, nodeCritical: false },
  ];
  for (const r of rows) {
    it(`${r.name}`, () => {
      assert.equal(isStaticPod(r.pod), r.static);
      assert.equal(isMirrorPod(r.pod), r.mirror);
      assert.equal(isCriticalPod(r.pod), r.critical);
      assert.equal(isNodeCriticalPod(r.pod), r.nodeCritical);
    });
  }
});
