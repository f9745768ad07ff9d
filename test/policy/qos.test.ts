// Pod QoS class. Rows ported from upstream's tables (read, not copied):
//   kubernetes/kubernetes pkg/apis/core/v1/helper/qos/qos_test.go TestComputePodQOS (named rows of
//   the 2025 version), the inputs of TestCollectPodLevelResources and TestCollectContainerLevelResources
//   (the helpers of the sum formulation; their sums and isGuaranteed flag are internal, so each row
//   pins the class those sums give), and the rules of reference/qos-oom-cgroup-quantity.md §1 (current upstream:
//   per-block formulation, "Fix handling of empty pod-level resources" of Feb 2026).
// Every row is checked against both computePodQOS (per block) and computePodQOSBySums (the older
// sum formulation); a property test asserts they agree on every valid pod.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computePodQOS, computePodQOSBySums, getPodQOS, blockQOS } from '../../src/policy/qos.js';
import type { Container, Pod, QOSClass, ResourceList, ResourceRequirements } from '../../src/api/types.js';

const ON = { PodLevelResources: true } as const;
const OFF = { PodLevelResources: false } as const;

/** getResourceList(cpu, memory) of the upstream tests: "" leaves the key out. */
function rl(cpu: string, memory: string, extra: ResourceList = {}): ResourceList {
  const r: ResourceList = { ...extra };
  if (cpu !== '') r.cpu = cpu;
  if (memory !== '') r.memory = memory;
  return r;
}

function ctr(name: string, requests: ResourceList, limits: ResourceList, restartPolicy?: string): Container {
  const c: Container = { name, resources: { requests, limits } };
  if (restartPolicy) c.restartPolicy = restartPolicy;
  return c;
}

function pod(containers: Container[], opts: { init?: Container[]; resources?: ResourceRequirements; status?: QOSClass } = {}): Pod {
  const p: Pod = { metadata: { name: 'p' }, spec: { containers } };
  if (opts.init) p.spec.initContainers = opts.init;
  if (opts.resources) p.spec.resources = opts.resources;
  if (opts.status) p.status = { qosClass: opts.status };
  return p;
}

interface Row {
  name: string;
  pod: Pod;
  expected: QOSClass;
  podLevelResources?: boolean;
}

// qos_test.go TestComputePodQOS, one row per upstream case (upstream name in quotes).
const upstreamRows: Row[] = [
  { name: '"Single Guaranteed Container": requests equal limits for cpu and memory', pod: pod([ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]), expected: 'Guaranteed' },
  {
    name: '"Two Guaranteed Containers": every block Guaranteed',
    pod: pod([ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi')), ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    expected: 'Guaranteed',
  },
  { name: '"Two BestEffort Containers": nothing set anywhere', pod: pod([ctr('best-effort', rl('', ''), rl('', '')), ctr('best-effort', rl('', ''), rl('', ''))]), expected: 'BestEffort' },
  { name: '"Single BestEffort Container"', pod: pod([ctr('best-effort', rl('', ''), rl('', ''))]), expected: 'BestEffort' },
  {
    name: '"BestEffort and Burstable Containers": any Burstable block makes the pod Burstable',
    pod: pod([ctr('best-effort', rl('', ''), rl('', '')), ctr('burstable', rl('1', ''), rl('2', ''))]),
    expected: 'Burstable',
  },
  {
    name: '"BestEffort and Guaranteed Containers": a mix of BestEffort and Guaranteed blocks is Burstable',
    pod: pod([ctr('best-effort', rl('', ''), rl('', '')), ctr('guaranteed', rl('10m', '100Mi'), rl('10m', '100Mi'))]),
    expected: 'Burstable',
  },
  { name: '"Burstable CPU, Guaranteed Memory": memory alone equal is not enough (cpu shape differs)', pod: pod([ctr('burstable', rl('', '100Mi'), rl('', '100Mi'))]), expected: 'Burstable' },
  { name: '"Burstable Without Limits": requests without limits', pod: pod([ctr('burstable', rl('100m', '100Mi'), rl('', ''))]), expected: 'Burstable' },
  {
    name: '"Burstable and Guaranteed Containers"',
    pod: pod([ctr('burstable', rl('1', '100Mi'), rl('2', '100Mi')), ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]),
    expected: 'Burstable',
  },
  {
    name: '"Burstable Containers With Unbounded But Requests Match Limits": summed requests equal summed limits is still Burstable',
    pod: pod([ctr('burstable', rl('100m', '100Mi'), rl('200m', '200Mi')), ctr('burstable-unbounded', rl('100m', '100Mi'), rl('', ''))]),
    expected: 'Burstable',
  },
  { name: '"Burstable Container 1": requests below limits', pod: pod([ctr('burstable', rl('10m', '100Mi'), rl('100m', '200Mi'))]), expected: 'Burstable' },
  { name: '"Burstable Container 2": zero requests with limits', pod: pod([ctr('burstable', rl('0', '0'), rl('100m', '200Mi'))]), expected: 'Burstable' },
  {
    name: '"BestEffort Container With HugePages": hugepages are ignored, zero cpu/memory is absent',
    pod: pod([ctr('best-effort', rl('0', '0', { 'hugepages-2Mi': '1Gi' }), rl('0', '0', { 'hugepages-2Mi': '1Gi' }))]),
    expected: 'BestEffort',
  },
  {
    name: '"Init Container with BestEffort Main and Burstable Init": init containers count like app containers',
    pod: pod([ctr('best-effort', rl('', ''), rl('', ''))], { init: [ctr('burstable', rl('10m', '100Mi'), rl('100m', '200Mi'))] }),
    expected: 'Burstable',
  },
  {
    name: '"Guaranteed Pod-Level Resources": the pod-level stanza is the only input',
    pod: pod([ctr('best-effort', rl('', ''), rl('', ''))], { resources: { requests: rl('10m', '100Mi'), limits: rl('10m', '100Mi') } }),
    expected: 'Guaranteed',
    podLevelResources: true,
  },
  {
    name: '"Guaranteed Pod and Container-Level Resources": Burstable containers do not matter once pod-level is set',
    pod: pod([ctr('burstable', rl('3m', '10Mi'), rl('5m', '20Mi'))], { resources: { requests: rl('10m', '100Mi'), limits: rl('10m', '100Mi') } }),
    expected: 'Guaranteed',
    podLevelResources: true,
  },
  {
    name: '"Burstable Pod-Level Resources"',
    pod: pod([ctr('best-effort', rl('', ''), rl('', ''))], { resources: { requests: rl('10m', '10Mi'), limits: rl('20m', '50Mi') } }),
    expected: 'Burstable',
    podLevelResources: true,
  },
  {
    name: '"Burstable Pod and Container-Level Resources": Guaranteed containers do not matter once pod-level is set',
    pod: pod([ctr('burstable', rl('5m', '10Mi'), rl('5m', '10Mi'))], { resources: { requests: rl('10m', '10Mi'), limits: rl('20m', '50Mi') } }),
    expected: 'Burstable',
    podLevelResources: true,
  },
  {
    name: '"Burstable Pod and Container-Level Requests": pod-level requests without limits',
    pod: pod([ctr('burstable', rl('5m', '10Mi'), rl('', ''))], { resources: { requests: rl('10m', '10Mi'), limits: rl('', '') } }),
    expected: 'Burstable',
    podLevelResources: true,
  },
  {
    name: '"Burstable Pod and Container-Level Resources 2": pod-level cpu limit only',
    pod: pod([ctr('burstable', rl('5m', '10Mi'), rl('', '')), ctr('guaranteed', rl('5m', '10Mi'), rl('5m', '10Mi'))], {
      resources: { requests: rl('10m', '10Mi'), limits: rl('5m', '') },
    }),
    expected: 'Burstable',
    podLevelResources: true,
  },
];

// qos_test.go TestCollectPodLevelResources (pod-level stanza, gate on) and
// TestCollectContainerLevelResources: the same inputs, pinned by the class they end in. Upstream's
// isGuaranteed flag only says "every block has cpu and memory limits"; the class also needs the
// summed requests to equal the summed limits, which none of these rows do.
const collectRows: Row[] = [
  {
    name: 'TestCollectPodLevelResources "cpu+mem limits present -> Guaranteed" (flag only): requests below limits is Burstable',
    pod: pod([], { resources: { requests: rl('100m', '128Mi'), limits: rl('750m', '512Mi') } }),
    expected: 'Burstable',
    podLevelResources: true,
  },
  { name: 'TestCollectPodLevelResources "only cpu limit -> not Guaranteed"', pod: pod([], { resources: { requests: rl('100m', '128Mi'), limits: rl('750m', '') } }), expected: 'Burstable', podLevelResources: true },
  { name: 'TestCollectPodLevelResources "only memory limit -> not Guaranteed"', pod: pod([], { resources: { requests: rl('100m', '128Mi'), limits: rl('', '512Mi') } }), expected: 'Burstable', podLevelResources: true },
  { name: 'TestCollectPodLevelResources "no limits -> not Guaranteed"', pod: pod([], { resources: { requests: rl('100m', '128Mi'), limits: rl('', '') } }), expected: 'Burstable', podLevelResources: true },
  {
    name: 'TestCollectPodLevelResources "no requests and limits -> not Guaranteed": an empty stanza is not set, no containers is BestEffort',
    pod: pod([], { resources: { requests: rl('', ''), limits: rl('', '') } }),
    expected: 'BestEffort',
    podLevelResources: true,
  },
  {
    name: 'TestCollectContainerLevelResources "single container: full CPU+Mem limits -> Guaranteed" (flag only): Burstable',
    pod: pod([ctr('c1', rl('100m', '200Mi'), rl('200m', '400Mi'))]),
    expected: 'Burstable',
  },
  {
    name: 'TestCollectContainerLevelResources "two containers and init container with CPU+Mem limits -> Guaranteed" (flag only): Burstable',
    pod: pod([ctr('c1', rl('100m', '100Mi'), rl('200m', '200Mi')), ctr('c2', rl('300m', '400Mi'), rl('800m', '1000Mi'))], { init: [ctr('init', rl('50m', '50Mi'), rl('100m', '100Mi'))] }),
    expected: 'Burstable',
  },
  { name: 'TestCollectContainerLevelResources "only CPU limit (Mem limit absent/zero) -> NotGuaranteed": zero requests are absent', pod: pod([ctr('c1', rl('0', '0'), rl('100m', ''))]), expected: 'Burstable' },
  {
    name: 'TestCollectContainerLevelResources "two containers + init: one container missing CPU limit -> NotGuaranteed"',
    pod: pod([ctr('c1', rl('100m', '100Mi'), rl('200m', '300Mi')), ctr('c2', rl('300m', '100Mi'), rl('50m', '300Mi'))], { init: [ctr('init1', rl('50m', '50Mi'), rl('', '50Mi'))] }),
    expected: 'Burstable',
  },
  {
    name: 'TestCollectContainerLevelResources "ephemeral-container ignored for QoS" (flag only): Burstable',
    pod: { metadata: { name: 'p' }, spec: { containers: [ctr('c1', rl('250m', '256Mi'), rl('500m', '512Mi'))], ephemeralContainers: [{ name: 'ec1' }] } },
    expected: 'Burstable',
  },
  {
    name: 'TestCollectContainerLevelResources "non-QoS resources (hugepages) not considered" (flag only): Burstable',
    pod: pod([ctr('c1', rl('250m', '256Mi', { 'hugepages-2Mi': '4Mi' }), rl('500m', '512Mi', { 'hugepages-2Mi': '4Mi' })), ctr('c2', rl('250m', '256Mi', { 'hugepages-1Gi': '2Gi' }), rl('500m', '512Mi', { 'hugepages-1Gi': '2Gi' }))]),
    expected: 'Burstable',
  },
  {
    name: 'the TestCollectContainerLevelResources hugepages row with requests raised to the limits: hugepages ignored, Guaranteed',
    pod: pod([ctr('c1', rl('500m', '512Mi', { 'hugepages-2Mi': '4Mi' }), rl('500m', '512Mi', { 'hugepages-2Mi': '4Mi' })), ctr('c2', rl('500m', '512Mi', { 'hugepages-1Gi': '2Gi' }), rl('500m', '512Mi', { 'hugepages-1Gi': '2Gi' }))]),
    expected: 'Guaranteed',
  },
];

// reference/qos-oom-cgroup-quantity.md §1: rules the upstream table does not spell out.
const referenceRows: Row[] = [
  { name: 'no containers at all is BestEffort', pod: pod([]), expected: 'BestEffort' },
  {
    name: 'empty pod-level stanza `resources: {}` is not "set": containers decide (Feb 2026 fix, issue #135082)',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { resources: {} }),
    expected: 'Guaranteed',
    podLevelResources: true,
  },
  {
    name: 'pod-level stanza with only ephemeral-storage is not "set": containers decide',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { resources: { requests: { 'ephemeral-storage': '1Gi' }, limits: { 'ephemeral-storage': '1Gi' } } }),
    expected: 'Guaranteed',
    podLevelResources: true,
  },
  {
    name: 'pod-level key with value "0" counts as set: the zero stanza makes the pod BestEffort',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { resources: { requests: { cpu: '0' } } }),
    expected: 'BestEffort',
    podLevelResources: true,
  },
  {
    name: 'pod-level hugepages key alone counts as set (cpu and memory then absent): BestEffort',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { resources: { requests: { 'hugepages-2Mi': '2Mi' }, limits: { 'hugepages-2Mi': '2Mi' } } }),
    expected: 'BestEffort',
    podLevelResources: true,
  },
  {
    name: 'gate PodLevelResources off: the pod-level stanza is ignored',
    pod: pod([ctr('b', rl('5m', '10Mi'), rl('', ''))], { resources: { requests: rl('10m', '100Mi'), limits: rl('10m', '100Mi') } }),
    expected: 'Burstable',
    podLevelResources: false,
  },
  { name: 'a raw pod with only limits is Burstable (the function does not default requests)', pod: pod([ctr('l', {}, rl('1', '1Gi'))]), expected: 'Burstable' },
  { name: 'cpu-only container plus memory-only container is Burstable', pod: pod([ctr('c', rl('1', ''), rl('1', '')), ctr('m', rl('', '1Gi'), rl('', '1Gi'))]), expected: 'Burstable' },
  { name: '"1" equals "1000m" and "1Gi" equals "1024Mi" numerically', pod: pod([ctr('g', rl('1', '1Gi'), rl('1000m', '1024Mi'))]), expected: 'Guaranteed' },
  {
    name: 'a restartable sidecar init container counts like any other block',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { init: [ctr('side', rl('100m', '10Mi'), rl('', ''), 'Always')] }),
    expected: 'Burstable',
  },
  {
    name: 'Guaranteed app and Guaranteed init containers stay Guaranteed (no max over inits)',
    pod: pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { init: [ctr('i', rl('4', '4Gi'), rl('4', '4Gi'))] }),
    expected: 'Guaranteed',
  },
  {
    name: 'ephemeral containers are never considered',
    pod: { ...pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))]), spec: { containers: [ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], ephemeralContainers: [{ name: 'debug' }] } },
    expected: 'Guaranteed',
  },
  {
    name: 'extended resources and ephemeral-storage are ignored',
    pod: pod([ctr('g', rl('1', '1Gi', { 'example.com/gpu': '1', 'ephemeral-storage': '1Gi' }), rl('1', '1Gi', { 'example.com/gpu': '1' }))]),
    expected: 'Guaranteed',
  },
  { name: 'a block with only ephemeral-storage is BestEffort-shaped', pod: pod([ctr('e', { 'ephemeral-storage': '1Gi' }, {})]), expected: 'BestEffort' },
];

describe('computePodQOS / computePodQOSBySums: upstream qos_test.go TestComputePodQOS rows', () => {
  for (const row of upstreamRows) {
    const gates = row.podLevelResources ? ON : OFF;
    it(`${row.name} -> ${row.expected}`, () => {
      assert.equal(computePodQOS(row.pod, gates), row.expected);
      assert.equal(computePodQOSBySums(row.pod, gates), row.expected);
    });
  }
});

describe('computePodQOS / computePodQOSBySums: upstream qos_test.go TestCollect*Resources inputs', () => {
  for (const row of collectRows) {
    const gates = row.podLevelResources ? ON : OFF;
    it(`${row.name} -> ${row.expected}`, () => {
      assert.equal(computePodQOS(row.pod, gates), row.expected);
      assert.equal(computePodQOSBySums(row.pod, gates), row.expected);
    });
  }
});

describe('computePodQOS / computePodQOSBySums: reference §1 rules', () => {
  for (const row of referenceRows) {
    const gates = row.podLevelResources === false ? OFF : ON;
    it(`${row.name} -> ${row.expected}`, () => {
      assert.equal(computePodQOS(row.pod, gates), row.expected);
      assert.equal(computePodQOSBySums(row.pod, gates), row.expected);
    });
  }
});

describe('blockQOS: one requirements block', () => {
  const rows: [string, ResourceRequirements | undefined, QOSClass][] = [
    ['absent block is BestEffort', undefined, 'BestEffort'],
    ['empty requests and limits is BestEffort', { requests: {}, limits: {} }, 'BestEffort'],
    ['request different from limit is Burstable', { requests: rl('1', '1Gi'), limits: rl('2', '1Gi') }, 'Burstable'],
    ['equal non-zero cpu and memory is Guaranteed', { requests: rl('1', '1Gi'), limits: rl('1', '1Gi') }, 'Guaranteed'],
    ['cpu and memory disagreeing in shape is Burstable', { requests: rl('1', '0'), limits: rl('1', '0') }, 'Burstable'],
    ['all zero quantities are BestEffort', { requests: rl('0', '0'), limits: rl('0', '0') }, 'BestEffort'],
  ];
  for (const [name, block, expected] of rows) it(`${name} -> ${expected}`, () => assert.equal(blockQOS(block), expected));
});

describe('getPodQOS: a persisted status.qosClass wins over the spec', () => {
  const rows: [string, Pod, QOSClass][] = [
    ['status Guaranteed on a BestEffort spec', pod([ctr('b', {}, {})], { status: 'Guaranteed' }), 'Guaranteed'],
    ['status BestEffort on a Guaranteed spec', pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))], { status: 'BestEffort' }), 'BestEffort'],
    ['no status: computed from the spec', pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))]), 'Guaranteed'],
  ];
  for (const [name, p, expected] of rows) it(`${name} -> ${expected}`, () => assert.equal(getPodQOS(p, ON), expected));
  it('an empty status.qosClass string falls back to the spec', () => {
    const p = pod([ctr('g', rl('1', '1Gi'), rl('1', '1Gi'))]);
    p.status = { qosClass: '' as QOSClass };
    assert.equal(getPodQOS(p, ON), 'Guaranteed');
  });
});

// ---------------------------------------------------------------------------------------------
// Property: the per-block and sum formulations agree on every pod that passes validation
// (requests <= limits per resource and block). Reference §1: "implementing both and asserting
// that they agree is a useful self-check."

const SPELLINGS: Record<string, (n: number) => string> = {
  cpu: (n) => (n % 1000 === 0 && n > 0 ? String(n / 1000) : `${n}m`),
  memory: (n) => (n % 4 === 0 ? `${n / 4}Ki` : `${n * 256}`),
};

/** A valid block: for cpu and memory independently, request absent/0/positive <= limit absent/0/positive. */
const arbBlock: fc.Arbitrary<ResourceRequirements> = fc
  .record({
    cpu: fc.tuple(fc.constantFrom('absent', 'zero', 'value'), fc.constantFrom('absent', 'zero', 'value', 'same'), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 4000 })),
    memory: fc.tuple(fc.constantFrom('absent', 'zero', 'value'), fc.constantFrom('absent', 'zero', 'value', 'same'), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 4000 })),
    hugepages: fc.boolean(),
  })
  .map(({ cpu, memory, hugepages }) => {
    const requests: ResourceList = {};
    const limits: ResourceList = {};
    for (const [name, [reqKind, limKind, base, extra]] of [['cpu', cpu], ['memory', memory]] as const) {
      const spell = SPELLINGS[name]!;
      let req: number | undefined;
      if (reqKind === 'zero') req = 0;
      if (reqKind === 'value') req = base;
      if (req !== undefined) requests[name] = req === 0 ? '0' : spell(req);
      // a limit must be >= the request when both are set
      if (limKind === 'zero' && (req ?? 0) === 0) limits[name] = '0';
      if (limKind === 'value') limits[name] = spell((req ?? 0) + extra === 0 ? 1 : (req ?? 0) + extra);
      if (limKind === 'same' && req !== undefined) limits[name] = req === 0 ? '0' : spell(req);
    }
    if (hugepages) {
      requests['hugepages-2Mi'] = '2Mi';
      limits['hugepages-2Mi'] = '2Mi';
    }
    return { requests, limits };
  });

const arbContainer = (prefix: string) =>
  fc.tuple(arbBlock, fc.boolean()).map(([resources, sidecar]) => {
    const c: Container = { name: prefix, resources };
    if (sidecar && prefix === 'init') c.restartPolicy = 'Always';
    return c;
  });

const arbPod: fc.Arbitrary<Pod> = fc
  .record({
    containers: fc.array(arbContainer('c'), { minLength: 0, maxLength: 4 }),
    init: fc.array(arbContainer('init'), { minLength: 0, maxLength: 3 }),
    podLevel: fc.option(arbBlock, { nil: undefined }),
  })
  .map(({ containers, init, podLevel }) => {
    const p: Pod = { metadata: { name: 'prop' }, spec: { containers } };
    if (init.length) p.spec.initContainers = init;
    if (podLevel) p.spec.resources = podLevel;
    return p;
  });

describe('property: computePodQOS and computePodQOSBySums agree on valid pods', () => {
  it('agree with PodLevelResources on (2000 random pods)', () => {
    fc.assert(
      fc.property(arbPod, (p) => computePodQOS(p, ON) === computePodQOSBySums(p, ON)),
      { numRuns: 2000 },
    );
  });
  it('agree with PodLevelResources off (2000 random pods)', () => {
    fc.assert(
      fc.property(arbPod, (p) => computePodQOS(p, OFF) === computePodQOSBySums(p, OFF)),
      { numRuns: 2000 },
    );
  });
  it('a pod whose every block is Guaranteed is Guaranteed, and adding an empty container makes it Burstable', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 8000 }), fc.integer({ min: 1, max: 8000 })), { minLength: 1, maxLength: 5 }), (sizes) => {
        const containers = sizes.map(([c, m], i) => ctr(`g${i}`, rl(`${c}m`, `${m}Mi`), rl(`${c}m`, `${m}Mi`)));
        const g = pod(containers);
        const b = pod([...containers, ctr('empty', {}, {})]);
        return computePodQOS(g, ON) === 'Guaranteed' && computePodQOSBySums(g, ON) === 'Guaranteed' && computePodQOS(b, ON) === 'Burstable' && computePodQOSBySums(b, ON) === 'Burstable';
      }),
      { numRuns: 500 },
    );
  });
});
