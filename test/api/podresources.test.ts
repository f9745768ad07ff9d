// Pod requests and limits (sidecar-aware aggregation, pod-level resources, overhead). Rows ported
// from upstream's table (read, not copied): kubernetes/component-helpers resource/helpers_test.go
// at 1961876b (2026-07-24): TestPodRequestsAndLimits, TestPodRequestsAndLimitsWithoutOverhead,
// TestPodResourceRequests, TestPodResourceLimits, TestIsPodLevelResourcesSet,
// TestIsPodLevelLimitsSet, TestPodLevelResourceRequests, TestIsSupportedPodLevelResource,
// TestAggregateContainerRequestsAndLimits and the NonMissingContainerRequests rows of
// TestPodRequestsAndLimitsVerticalScalingWrappers. Rows that need in-place-resize status or DRA
// claims are not ported (this module has no such inputs), except the TestPodRequestsAndLimitsWithDRA
// rows whose expectations do not depend on a claim. Plus reference/quota-validation-eviction.md
// §1.3 and reference/qos-oom-cgroup-quantity.md §3.5.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateContainerLimits,
  aggregateContainerRequests,
  isPodLevelLimitsSet,
  isPodLevelRequestsSet,
  isPodLevelResourcesSet,
  isSupportedPodLevelResource,
  podLimits,
  podRequests,
  type PodResourcesOptions,
} from '../../src/api/podresources.js';
import { parseResourceList, type Resources } from '../../src/api/resourcelist.js';
import type { Container, Pod, ResourceList, ResourceRequirements } from '../../src/api/types.js';

/** Semantic equality (equality.Semantic.DeepEqual): same keys, numerically equal quantities. */
function assertList(actual: Resources, expected: ResourceList): void {
  const want = parseResourceList(expected);
  assert.deepEqual([...actual.keys()].sort(), [...want.keys()].sort(), `keys: got ${JSON.stringify(Object.fromEntries([...actual].map(([k, v]) => [k, v.toString()])))}`);
  for (const [k, v] of want) assert.equal(actual.get(k)!.cmp(v), 0, `${k}: got ${actual.get(k)!.toString()}, want ${v.toString()}`);
}

const ON: PodResourcesOptions = { podLevelResources: true };
const OFF: PodResourcesOptions = { podLevelResources: false };

function c(requests?: ResourceList, limits?: ResourceList, o: { name?: string; sidecar?: boolean } = {}): Container {
  const ctr: Container = { name: o.name ?? 'c', resources: {} };
  if (requests) ctr.resources!.requests = requests;
  if (limits) ctr.resources!.limits = limits;
  if (o.sidecar) ctr.restartPolicy = 'Always';
  return ctr;
}
const sc = (requests?: ResourceList, limits?: ResourceList) => c(requests, limits, { sidecar: true });
function pod(containers: Container[], o: { init?: Container[]; overhead?: ResourceList; resources?: ResourceRequirements } = {}): Pod {
  const p: Pod = { metadata: { name: 'p' }, spec: { containers } };
  if (o.init) p.spec.initContainers = o.init;
  if (o.overhead) p.spec.overhead = o.overhead;
  if (o.resources) p.spec.resources = o.resources;
  return p;
}
const cpu = (v: string) => ({ cpu: v });

/** getPod of the upstream test: one container and one init container with the same resources. */
function getPod(r: { cpuRequest?: string; memoryRequest?: string; cpuLimit?: string; memoryLimit?: string; cpuOverhead?: string; memoryOverhead?: string }): Pod {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  const overhead: ResourceList = {};
  if (r.cpuLimit) limits.cpu = r.cpuLimit;
  if (r.memoryLimit) limits.memory = r.memoryLimit;
  if (r.cpuRequest) requests.cpu = r.cpuRequest;
  if (r.memoryRequest) requests.memory = r.memoryRequest;
  if (r.cpuOverhead) overhead.cpu = r.cpuOverhead;
  if (r.memoryOverhead) overhead.memory = r.memoryOverhead;
  return pod([c(requests, limits, { name: 'foo' })], { init: [c(requests, limits, { name: 'init-foo' })], overhead });
}

describe('podRequests / podLimits: upstream TestPodRequestsAndLimits rows', () => {
  const rows: [string, Pod, ResourceList, ResourceList][] = [
    ['"just-limit-no-overhead"', getPod({ cpuLimit: '9' }), {}, { cpu: '9' }],
    ['"just-overhead": overhead is charged as requests even with nothing requested', getPod({ cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '5', memory: '5' }, {}],
    ['"req-and-overhead"', getPod({ cpuRequest: '1', memoryRequest: '10', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, {}],
    ['"all-req-lim-and-overhead"', getPod({ cpuRequest: '1', cpuLimit: '2', memoryRequest: '10', memoryLimit: '12', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, { cpu: '7', memory: '17' }],
    ['"req-some-lim-and-overhead": overhead only on limits that exist', getPod({ cpuRequest: '1', cpuLimit: '2', memoryRequest: '10', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, { cpu: '7' }],
  ];
  for (const [name, p, reqs, lims] of rows) {
    it(name, () => {
      assertList(podRequests(p, OFF), reqs);
      assertList(podLimits(p, OFF), lims);
    });
  }
});

const twoContainers = () => [c({ cpu: '1', memory: '5' }, { cpu: '2', memory: '10' }, { name: 'foobar' }), c({ cpu: '4', memory: '12' }, { cpu: '8', memory: '24' }, { name: 'foobar2' })];
describe('podRequests / podLimits with excludeOverhead: upstream TestPodRequestsAndLimitsWithoutOverhead rows', () => {
  const rows: [string, Pod, ResourceList, ResourceList][] = [
    ['"two container no overhead - should just be sum of containers"', pod(twoContainers()), { cpu: '5', memory: '17' }, { cpu: '10', memory: '34' }],
    ['"two container with overhead - shouldn\'t consider overhead"', pod(twoContainers(), { overhead: { cpu: '3', memory: '8' } }), { cpu: '5', memory: '17' }, { cpu: '10', memory: '34' }],
    [
      '"two container with overhead, massive init - should just be the largest init"',
      pod(twoContainers(), { overhead: { cpu: '3', memory: '8' }, init: [c({ cpu: '1', memory: '5' }, { cpu: '1', memory: '5' }), c({ cpu: '40', memory: '120' }, { cpu: '80', memory: '240' })] }),
      { cpu: '40', memory: '120' },
      { cpu: '80', memory: '240' },
    ],
  ];
  for (const [name, p, reqs, lims] of rows) {
    it(name, () => {
      assertList(podRequests(p, { ...OFF, excludeOverhead: true }), reqs);
      assertList(podLimits(p, { ...OFF, excludeOverhead: true }), lims);
    });
  }
});

// The sidecar tables: identical shapes for requests and limits.
const sidecarRows: [string, Container[], Container[], string][] = [
  ['"restartable init container": sidecar + regular container', [c(cpu('1'), undefined, { name: 'restartable-init-1', sidecar: true })], [c(cpu('1'))], '2'],
  [
    '"multiple restartable init containers": max(5, (3+2+1) + 1) = 7',
    [c(cpu('5')), c(cpu('1'), undefined, { sidecar: true }), c(cpu('2'), undefined, { sidecar: true }), c(cpu('3'), undefined, { sidecar: true })],
    [c(cpu('1'))],
    '7',
  ],
  [
    '"multiple restartable and regular init containers": init-2 needs 5 + the sidecars started before it (1+2) = 8',
    [c(cpu('5')), c(cpu('1'), undefined, { sidecar: true }), c(cpu('2'), undefined, { sidecar: true }), c(cpu('5')), c(cpu('3'), undefined, { sidecar: true })],
    [c(cpu('1'))],
    '8',
  ],
  ['"restartable-init, init and regular": sidecar 10 + init 200 = 210', [c(cpu('10'), undefined, { sidecar: true }), c(cpu('200'))], [c(cpu('100'))], '210'],
];
const asLimits = (cs: Container[]) => cs.map((x) => ({ ...x, resources: { limits: x.resources!.requests! } }));

describe('podRequests: upstream TestPodResourceRequests rows', () => {
  const rows: [string, Pod, PodResourcesOptions, ResourceList][] = [
    ['"nil options, larger init container"', pod([c(cpu('1'))], { init: [c(cpu('4'))] }), OFF, { cpu: '4' }],
    ['"nil options, larger containers"', pod([c(cpu('2')), c(cpu('3'))], { init: [c(cpu('2'))] }), OFF, { cpu: '5' }],
    ['"pod overhead excluded"', pod([c(cpu('2')), c(cpu('3'))], { init: [c(cpu('2'))], overhead: cpu('1') }), { ...OFF, excludeOverhead: true }, { cpu: '5' }],
    ['"pod overhead included": even a resource no container requests', pod([c(cpu('2')), c(cpu('3'))], { init: [c(cpu('2'), cpu('2'))], overhead: { cpu: '1', memory: '1Gi' } }), OFF, { cpu: '6', memory: '1Gi' }],
  ];
  for (const [name, p, opts, want] of rows) it(name, () => assertList(podRequests(p, opts), want));
  for (const [name, init, containers, want] of sidecarRows) it(name, () => assertList(podRequests(pod(containers, { init }), OFF), { cpu: want }));
});

describe('podLimits: upstream TestPodResourceLimits rows', () => {
  const lim = (v: string) => c(undefined, cpu(v));
  const rows: [string, Pod, PodResourcesOptions, ResourceList][] = [
    ['"nil options, larger init container"', pod([lim('1')], { init: [lim('4')] }), OFF, { cpu: '4' }],
    ['"nil options, larger containers"', pod([lim('2'), lim('3')], { init: [lim('2')] }), OFF, { cpu: '5' }],
    ['"pod overhead excluded"', pod([lim('2'), lim('3')], { init: [lim('2')], overhead: cpu('1') }), { ...OFF, excludeOverhead: true }, { cpu: '5' }],
    ['"pod overhead included": overhead only on non-zero limits, so no memory limit appears', pod([lim('2'), lim('3')], { init: [lim('2')], overhead: { cpu: '1', memory: '1Gi' } }), OFF, { cpu: '6' }],
    ['"no limited containers should result in no limits for the pod"', pod([{ name: 'c' }], { init: [] }), OFF, {}],
    [
      '"one limited and one unlimited container should result in the limited container\'s limits for the pod"',
      pod([c(undefined, { cpu: '2', memory: '2Gi' }), { name: 'unlimited' }]),
      OFF,
      { cpu: '2', memory: '2Gi' },
    ],
    [
      '"one limited and one unlimited init container should result in the limited init container\'s limits for the pod"',
      pod([c(undefined, { cpu: '1', memory: '1Gi' })], { init: [c(undefined, { cpu: '2', memory: '2Gi' }), { name: 'unlimited-init' }] }),
      OFF,
      { cpu: '2', memory: '2Gi' },
    ],
  ];
  for (const [name, p, opts, want] of rows) it(name, () => assertList(podLimits(p, opts), want));
  for (const [name, init, containers, want] of sidecarRows) it(name, () => assertList(podLimits(pod(asLimits(containers), { init: asLimits(init) }), OFF), { cpu: want }));
});

describe('isPodLevelResourcesSet / isPodLevelLimitsSet / isPodLevelRequestsSet: upstream rows', () => {
  const rows: [string, ResourceRequirements | undefined, boolean, boolean, boolean][] = [
    // name, stanza, resourcesSet, limitsSet, requestsSet
    ['"nil resources struct"', undefined, false, false, false],
    ['"empty resources struct"', {}, false, false, false],
    ['"only unsupported resource requests set"', { requests: { 'ephemeral-storage': '1Mi' } }, false, false, false],
    ['"only unsupported resource limits set"', { limits: { 'ephemeral-storage': '1Mi' } }, false, false, false],
    ['"unsupported and suported resources requests set"', { requests: { 'ephemeral-storage': '1Mi', cpu: '1m' } }, true, false, true],
    ['"unsupported and suported resources limits set"', { limits: { 'ephemeral-storage': '1Mi', cpu: '1m' } }, true, true, false],
    ['"only resource requests set" (memory)', { requests: { memory: '100Mi' } }, true, false, true],
    ['empty maps are not set', { requests: {}, limits: {} }, false, false, false],
    ['a zero quantity under a supported key counts as set', { requests: { cpu: '0' } }, true, false, true],
    ['hugepages alone count as set', { limits: { 'hugepages-2Mi': '2Mi' } }, true, true, false],
  ];
  for (const [name, r, set, limitsSet, requestsSet] of rows) {
    it(name, () => {
      const p = pod([c()], r ? { resources: r } : {});
      assert.equal(isPodLevelResourcesSet(p), set);
      assert.equal(isPodLevelLimitsSet(p), limitsSet);
      assert.equal(isPodLevelRequestsSet(p), requestsSet);
    });
  }
});

describe('isSupportedPodLevelResource: upstream TestIsSupportedPodLevelResource rows', () => {
  const rows: [string, boolean][] = [['cpu', true], ['memory', true], ['ephemeral-storage', false], ['hugepages-2Mi', true], ['hugepages-1Gi', true], ['example.com/gpu', false], ['storage', false]];
  for (const [name, want] of rows) it(`${name} -> ${want}`, () => assert.equal(isSupportedPodLevelResource(name), want));
});

describe('podRequests with pod-level resources: upstream TestPodLevelResourceRequests rows', () => {
  const m = (v: string) => ({ memory: v });
  const rows: [string, Pod, PodResourcesOptions, ResourceList][] = [
    ['"nil"', pod([]), ON, {}],
    ['"pod level memory resource with SkipPodLevelResources true" (gate off)', pod([], { resources: { requests: m('2Mi') } }), OFF, {}],
    ['"pod level memory resource with SkipPodLevelResources false"', pod([], { resources: { requests: m('2Mi') } }), ON, m('2Mi')],
    ['"pod level memory and container level cpu resources"', pod([c(cpu('2m'))], { resources: { requests: m('2Mi') } }), ON, { memory: '2Mi', cpu: '2m' }],
    ['"pod level unsupported resources set at both pod-level and container-level": containers decide', pod([c({ storage: '3Mi' })], { resources: { requests: { storage: '2Mi' } } }), ON, { storage: '3Mi' }],
    ['"pod level unsupported resources set at pod-level": pod-level is not set', pod([c(m('3Mi'))], { resources: { requests: { storage: '2Mi' } } }), ON, m('3Mi')],
    ['"only container level resources set"', pod([c({ memory: '3Mi', cpu: '2m' })]), ON, { memory: '3Mi', cpu: '2m' }],
    ['"both container-level and pod-level resources set": pod-level wins', pod([c({ memory: '3Mi', cpu: '2m' })], { resources: { requests: { memory: '6Mi', cpu: '8m' } } }), ON, { memory: '6Mi', cpu: '8m' }],
    ['"container-level resources and init container set"', pod([c({ memory: '3Mi', cpu: '2m' })], { init: [c({ memory: '5Mi', cpu: '4m' })] }), ON, { memory: '5Mi', cpu: '4m' }],
    ['"container-level resources and init container set" (SkipPodLevelResources true)', pod([c({ memory: '3Mi', cpu: '2m' })], { init: [c({ memory: '5Mi', cpu: '4m' })] }), OFF, { memory: '5Mi', cpu: '4m' }],
    ['"container-level resources and sidecar container set"', pod([c({ memory: '3Mi', cpu: '2m' })], { init: [sc({ memory: '5Mi', cpu: '4m' })] }), ON, { memory: '8Mi', cpu: '6m' }],
    [
      '"container-level resources, init and sidecar container set": sidecar 5Mi + init 6Mi = 11Mi',
      pod([c({ memory: '3Mi', cpu: '2m' })], { init: [sc({ memory: '5Mi', cpu: '4m' }), c({ memory: '6Mi', cpu: '8m' })] }),
      ON,
      { memory: '11Mi', cpu: '12m' },
    ],
    [
      '"pod-level resources, container-level resources, init and sidecar container set"',
      pod([c({ memory: '3Mi', cpu: '2m' })], { init: [sc({ memory: '5Mi', cpu: '4m' }), c({ memory: '6Mi', cpu: '8m' })], resources: { requests: { memory: '15Mi', cpu: '18m' } } }),
      ON,
      { memory: '15Mi', cpu: '18m' },
    ],
    [
      '"pod-level resources, hugepage request/limit single page size"',
      pod([], { resources: { limits: { 'hugepages-2Mi': '2Mi' }, requests: { memory: '10Mi', 'hugepages-2Mi': '2Mi' } } }),
      ON,
      { memory: '10Mi', 'hugepages-2Mi': '2Mi' },
    ],
    [
      '"pod-level resources, hugepage request/limit multiple page sizes"',
      pod([], { resources: { limits: { 'hugepages-2Mi': '2Mi', 'hugepages-1Gi': '1Gi' }, requests: { cpu: '1', 'hugepages-2Mi': '2Mi', 'hugepages-1Gi': '1Gi' } } }),
      ON,
      { cpu: '1', 'hugepages-2Mi': '2Mi', 'hugepages-1Gi': '1Gi' },
    ],
    [
      '"pod-level resources, container-level resources, hugepage request/limit single page size"',
      pod([c({ 'hugepages-2Mi': '6Mi' }, { 'hugepages-2Mi': '6Mi' })], { resources: { limits: { 'hugepages-2Mi': '10Mi' }, requests: { cpu: '1', 'hugepages-2Mi': '10Mi' } } }),
      ON,
      { cpu: '1', 'hugepages-2Mi': '10Mi' },
    ],
    [
      '"pod-level resources, container-level resources, hugepage request/limit multiple page sizes"',
      pod([c({ cpu: '1', 'hugepages-1Gi': '2Gi' }, { 'hugepages-1Gi': '2Gi' })], { resources: { limits: { 'hugepages-2Mi': '10Mi', 'hugepages-1Gi': '2Gi' }, requests: { cpu: '1', 'hugepages-2Mi': '10Mi', 'hugepages-1Gi': '2Gi' } } }),
      ON,
      { cpu: '1', 'hugepages-2Mi': '10Mi', 'hugepages-1Gi': '2Gi' },
    ],
    [
      '"... multiple page sizes between pod-level and container-level": unset keys still come from containers',
      pod([c({ memory: '4Mi', 'hugepages-1Gi': '1Gi' }, { 'hugepages-1Gi': '1Gi' })], { resources: { limits: { 'hugepages-2Mi': '10Mi' }, requests: { cpu: '1', 'hugepages-2Mi': '10Mi' } } }),
      ON,
      { cpu: '1', memory: '4Mi', 'hugepages-2Mi': '10Mi', 'hugepages-1Gi': '1Gi' },
    ],
  ];
  for (const [name, p, opts, want] of rows) it(name, () => assertList(podRequests(p, opts), want));
});

describe('aggregateContainerRequests / aggregateContainerLimits: upstream TestAggregateContainerRequestsAndLimits rows', () => {
  const rows: [string, Pod, ResourceList, ResourceList][] = [
    ['"one container with limits"', pod([c(undefined, cpu('9'))]), {}, cpu('9')],
    ['"two containers with limits"', pod([c(undefined, cpu('9')), c(undefined, cpu('9'))]), {}, cpu('18')],
    ['"one container with requests"', pod([c(cpu('9'))]), cpu('9'), {}],
    ['"two containers with requests"', pod([c(cpu('9')), c(cpu('9'))]), cpu('18'), {}],
    ['"regular and init containers with requests"', pod([c(cpu('9'))], { init: [c(cpu('9'))] }), cpu('9'), {}],
    ['"regular, init and sidecar containers with requests": 9 + 8', pod([c(cpu('9'))], { init: [sc(cpu('8')), c(cpu('6'))] }), cpu('17'), {}],
    ['"regular and init containers with limits"', pod([c(undefined, cpu('9'))], { init: [c(undefined, cpu('9'))] }), {}, cpu('9')],
    ['"regular, init and sidecar containers with limits": 9 + 8', pod([c(undefined, cpu('9'))], { init: [sc(undefined, cpu('8')), c(undefined, cpu('6'))] }), {}, cpu('17')],
    ['pod-level stanza and overhead are not part of the container aggregate', pod([c(cpu('1'), cpu('2'))], { resources: { requests: cpu('4'), limits: cpu('8') }, overhead: cpu('1') }), cpu('1'), cpu('2')],
  ];
  for (const [name, p, reqs, lims] of rows) {
    it(name, () => {
      assertList(aggregateContainerRequests(p), reqs);
      assertList(aggregateContainerLimits(p), lims);
    });
  }
});

describe('nonMissingContainerRequests: upstream TestPodRequestsAndLimitsVerticalScalingWrappers rows', () => {
  const nonMissing = parseResourceList({ memory: '100Mi' });
  it('"non missing container requests applied to init container"', () => {
    const p = pod([], { init: [c(cpu('1'), undefined, { name: 'i1' })] });
    assertList(podRequests(p, { ...OFF, nonMissingContainerRequests: nonMissing }), { cpu: '1', memory: '100Mi' });
    assertList(podLimits(p, { ...OFF, nonMissingContainerRequests: nonMissing }), {});
  });
  it('"non missing container requests applied to regular container"', () => {
    const p = pod([c(cpu('1'), undefined, { name: 'c1' })]);
    assertList(podRequests(p, { ...OFF, nonMissingContainerRequests: nonMissing }), { cpu: '1', memory: '100Mi' });
    assertList(podLimits(p, { ...OFF, nonMissingContainerRequests: nonMissing }), {});
  });
  it('a present request (even 0) is not replaced', () => {
    const p = pod([c({ cpu: '1', memory: '0' })]);
    assertList(podRequests(p, { ...OFF, nonMissingContainerRequests: nonMissing }), { cpu: '1', memory: '0' });
  });
  it('each container missing the key gets the default (scheduler non-zero requests are per container)', () => {
    const p = pod([c(cpu('1')), c(cpu('1'))]);
    assertList(podRequests(p, { ...OFF, nonMissingContainerRequests: nonMissing }), { cpu: '2', memory: '200Mi' });
  });
});

// TestPodRequestsAndLimitsWithDRA: the rows whose expected lists do not depend on DRA claim
// status (Bulkhead has no node-allocatable claims, so a claim adds nothing).
describe('podRequests / podLimits: upstream TestPodRequestsAndLimitsWithDRA rows without DRA additions', () => {
  const rows: [string, Pod, ResourceList, ResourceList][] = [
    ['"No claims"', pod([c({ cpu: '100m', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' }, { name: 'c1' })]), { cpu: '100m', memory: '1Gi' }, { cpu: '100m', memory: '1Gi' }],
    ['"UseDRANodeAllocatableResourceClaimStatus flag disabled": the claim adds nothing', pod([c(cpu('100m'), cpu('100m'), { name: 'c1' })]), cpu('100m'), cpu('100m')],
    [
      '"Pod Level Resources overrides the claim request/limit": pod-level cpu, container memory',
      pod([c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }, { name: 'c1' })], { resources: { requests: cpu('2'), limits: cpu('2') } }),
      { cpu: '2', memory: '1Gi' },
      { cpu: '2', memory: '1Gi' },
    ],
  ];
  for (const [name, p, reqs, lims] of rows) {
    it(name, () => {
      assertList(podRequests(p, ON), reqs);
      assertList(podLimits(p, ON), lims);
    });
  }
});

describe('reference §1.3 / §3.5 rules', () => {
  it('pod-level limits replace the container aggregate per resource; overhead is added on top of non-zero pod-level limits', () => {
    const p = pod([c({ cpu: '1', memory: '1Gi' }, { cpu: '2', memory: '2Gi', 'ephemeral-storage': '1Gi' })], {
      resources: { requests: cpu('2'), limits: cpu('4') },
      overhead: { cpu: '250m', memory: '64Mi' },
    });
    assertList(podRequests(p, ON), { cpu: '2250m', memory: '1088Mi' });
    assertList(podLimits(p, ON), { cpu: '4250m', memory: '2112Mi', 'ephemeral-storage': '1Gi' });
  });
  it('a zero pod-level limit gets no overhead', () => {
    const p = pod([c()], { resources: { limits: { cpu: '0' } }, overhead: cpu('250m') });
    assertList(podLimits(p, ON), { cpu: '0' });
  });
  it('pod-level values are ignored with the gate off', () => {
    const p = pod([c(cpu('1'), cpu('2'))], { resources: { requests: cpu('3'), limits: cpu('4') } });
    assertList(podRequests(p, OFF), cpu('1'));
    assertList(podLimits(p, OFF), cpu('2'));
  });
  it('order matters: a sidecar declared after an init container does not add to it (init 5, sidecar 1, sidecar 2, init 5, sidecar 3, regular 1 -> 8)', () => {
    const p = pod([c(cpu('1'))], { init: [c(cpu('5')), sc(cpu('1')), sc(cpu('2')), c(cpu('5')), sc(cpu('3'))] });
    assertList(podRequests(p, OFF), cpu('8'));
  });
  it('resources are aggregated independently (max per resource, not per container)', () => {
    const p = pod([c({ cpu: '1', memory: '4Gi' })], { init: [c({ cpu: '4', memory: '1Gi' })] });
    assertList(podRequests(p, OFF), { cpu: '4', memory: '4Gi' });
  });
  it('the input pod is not modified and repeated calls give equal results', () => {
    const p = pod([c(cpu('1'))], { init: [sc(cpu('2'))], overhead: cpu('1') });
    const before = JSON.stringify(p);
    assertList(podRequests(p, OFF), cpu('4'));
    assertList(podRequests(p, OFF), cpu('4'));
    assert.equal(JSON.stringify(p), before);
  });
});
