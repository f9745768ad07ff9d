// Node-pressure eviction. Rows ported from upstream's tables (read, not copied):
//   kubernetes/kubernetes pkg/kubelet/eviction/helpers_test.go: TestParseThresholdConfig (hard
//   thresholds; soft/grace/min-reclaim inputs are not part of this module's API), TestParsePercentage,
//   TestThresholdsMet, TestPercentageThresholdsMet, TestOrderedByExceedsRequestMemory,
//   TestOrderedByPriority, TestOrderedByMemory, TestOrderedByPriorityMemory and
//   TestEvictonMessageWithResourceResize (the InPlacePodVerticalScaling-off half), TestAddAllocatableThresholds
//   and the allocatableConfig half of TestParseThresholdConfig "all memory eviction values".
// Plus rows read from upstream helpers.go itself: evictionMessage (threshold printed as
// configured via GetThresholdQuantity, the pod-level sentence), thresholdsMet,
// nodeConditionsLastObservedAt/nodeConditionsObservedSince, byEvictionPriority and
// nodeConditionMessageFmt.
// Plus reference/quota-validation-eviction.md §5 (float32 percentages, strict "<", ranking order,
// sidecar-aware request with overhead only on a non-zero request, message format). An older copy
// of TestParseThresholdConfig expects an error for a duplicated signal in one flag value; the
// current kubelet parses the flag into a map where the later entry wins (reference §5.2).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  EvictionConfigError,
  addAllocatableThresholds,
  defaultEvictionHard,
  evictionAnnotations,
  evictionCandidates,
  conditionsWithinTransition,
  evictionMessage,
  memoryObservation,
  memoryRequestForEviction,
  nodeConditionMessage,
  nodeConditionsOf,
  parseEvictionThresholds,
  parseThresholdStatement,
  rankForMemoryPressure,
  thresholdAsQuantity,
  thresholdMet,
  thresholdQuantity,
  thresholdsMet,
  thresholdToReclaim,
  type PressureCondition,
  type SignalObservation,
  type Threshold,
} from '../../src/policy/eviction.js';
import { Quantity } from '../../src/api/quantity.js';
import type { Container, Pod, ResourceList } from '../../src/api/types.js';

const ON = { PodLevelResources: true } as const;
const OFF = { PodLevelResources: false } as const;
const Mi = 1n << 20n;
const Gi = 1n << 30n;
const q = (s: string) => Quantity.parse(s).value();

/** A threshold as plain data: quantity as canonical text, or the float32 fraction. */
function plain(t: Threshold): [string, string] {
  return [t.signal, t.quantity ? t.quantity.toString() : `${t.percentage}`];
}
const f32 = (x: number) => `${Math.fround(x)}`;

describe('parseEvictionThresholds: upstream TestParseThresholdConfig rows (hard thresholds)', () => {
  const rows: [string, string, [string, string][]][] = [
    ['"no values"', '', []],
    ['"all memory eviction values": memory.available<150Mi', 'memory.available<150Mi', [['memory.available', '150Mi']]],
    ['"all memory eviction values in percentages": 10% is the float32 0.1', 'memory.available<10%', [['memory.available', f32(0.1)]]],
    [
      '"disk eviction values"',
      'imagefs.available<150Mi,nodefs.available<100Mi,containerfs.available<250Mi',
      [['imagefs.available', '150Mi'], ['nodefs.available', '100Mi'], ['containerfs.available', '250Mi']],
    ],
    [
      '"disk eviction values in percentages": 15%, 10.5%, 12.0%',
      'imagefs.available<15%,nodefs.available<10.5%,containerfs.available<12.0%',
      [['imagefs.available', f32(0.15)], ['nodefs.available', f32(0.105)], ['containerfs.available', f32(0.12)]],
    ],
    [
      '"inode eviction values"',
      'imagefs.inodesFree<150Mi,nodefs.inodesFree<100Mi,containerfs.inodesFree<125Mi',
      [['imagefs.inodesFree', '150Mi'], ['nodefs.inodesFree', '100Mi'], ['containerfs.inodesFree', '125Mi']],
    ],
    ['"disable via 0%": no threshold', 'memory.available<0%', []],
    ['"disable via 100%": no threshold', 'memory.available<100%', []],
    ['soft-style percentage 30% is the float32 0.3', 'memory.available<30%', [['memory.available', f32(0.3)]]],
    ['pid.available and allocatableMemory.available are signals', 'pid.available<10%,allocatableMemory.available<1Gi', [['pid.available', f32(0.1)], ['allocatableMemory.available', '1Gi']]],
  ];
  for (const [name, spec, want] of rows) it(`${name}`, () => assert.deepEqual(parseEvictionThresholds(spec).map(plain), want));

  const errors: [string, string, string][] = [
    ['"invalid-signal"', 'mem.available<150Mi', 'unsupported eviction signal mem.available'],
    ['"hard-signal-negative"', 'memory.available<-150Mi', 'eviction threshold memory.available must be positive: -150Mi'],
    ['zero quantity is not positive', 'memory.available<0', 'eviction threshold memory.available must be positive: 0'],
    ['"hard-signal-negative-percentage"', 'memory.available<-15%', 'eviction percentage threshold memory.available must be >= 0%: -15%'],
    ['"hard-signal-percentage-greater-than-100%"', 'memory.available<150%', 'eviction percentage threshold memory.available must be <= 100%: 150%'],
    ['"valid-and-invalid-signal"', 'memory.available<150Mi,invalid.foo<150Mi', 'unsupported eviction signal invalid.foo'],
    ['a pair without "<" is malformed', 'memory.available=150Mi', 'malformed pair, expect string<string'],
    ['a percentage that is not a number', 'memory.available<foo%', 'strconv.ParseFloat: parsing "foo": invalid syntax'],
  ];
  for (const [name, spec, message] of errors) {
    it(`${name} is rejected: ${message}`, () => assert.throws(() => parseEvictionThresholds(spec), (e: unknown) => e instanceof EvictionConfigError && e.message === message));
  }
  it('a malformed quantity is rejected with the Quantity error', () => assert.throws(() => parseEvictionThresholds('memory.available<lots'), EvictionConfigError));

  it('duplicated signal: the later value wins (flag map semantics; an older upstream table expected an error)', () => {
    assert.deepEqual(parseEvictionThresholds('memory.available<150Mi,memory.available<100Mi').map(plain), [['memory.available', '100Mi']]);
  });
  it('whitespace around names and values is trimmed, and entries split on the first "<"', () => {
    assert.deepEqual(parseEvictionThresholds(' memory.available < 100Mi , nodefs.available<10%').map(plain), [['memory.available', '100Mi'], ['nodefs.available', f32(0.1)]]);
    assert.throws(() => parseEvictionThresholds('memory.available<<100Mi'), EvictionConfigError);
  });
  it('every threshold uses the LessThan operator', () => {
    for (const t of parseEvictionThresholds(defaultEvictionHard)) assert.equal(t.operator, 'LessThan');
  });
  it('the Linux default evictionHard (defaults_linux.go): memory.available<100Mi, nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%, imagefs.inodesFree<5%', () => {
    assert.deepEqual(parseEvictionThresholds(defaultEvictionHard).map(plain), [
      ['memory.available', '100Mi'],
      ['nodefs.available', f32(0.1)],
      ['nodefs.inodesFree', f32(0.05)],
      ['imagefs.available', f32(0.15)],
      ['imagefs.inodesFree', f32(0.05)],
    ]);
  });
});

describe('parseThresholdStatement: upstream TestParsePercentage rows', () => {
  it('"25.5%" is the float32 0.255', () => assert.equal(parseThresholdStatement('memory.available', '25.5%')!.percentage, Math.fround(0.255)));
  it('"0.5%" is float32(float32(0.5)/100)', () => assert.equal(parseThresholdStatement('memory.available', '0.5%')!.percentage, Math.fround(Math.fround(0.5) / 100)));
  for (const bad of ['blah', 'foo%', '12%345']) it(`${JSON.stringify(bad)} is rejected`, () => assert.throws(() => parseThresholdStatement('memory.available', bad), EvictionConfigError));
});

describe('thresholdQuantity and thresholdMet (TestThresholdsMet, TestPercentageThresholdsMet, reference §5.3)', () => {
  const hard1Gi = parseThresholdStatement('memory.available', '1Gi')!;
  const minReclaim500Mi = q('500Mi');
  const pct20 = parseThresholdStatement('memory.available', '20%')!;
  const pct5 = parseThresholdStatement('memory.available', '5%')!;
  const disk30 = parseThresholdStatement('nodefs.available', '30%')!;
  const cap1000Mi = q('1000Mi');
  const cap1000Gi = q('1000Gi');
  const rows: [string, Threshold, bigint, bigint, bigint, boolean][] = [
    ['"threshold-met-memory": 500Mi available < 1Gi', hard1Gi, q('500Mi'), 0n, 0n, true],
    ['"threshold-not-met": 2Gi available', hard1Gi, q('2Gi'), 0n, 0n, false],
    ['"threshold-met-with-min-reclaim": 1.05Gi available < 1Gi + 500Mi', hard1Gi, q('1.05Gi'), 0n, minReclaim500Mi, true],
    ['"threshold-not-met-with-min-reclaim": 2Gi available', hard1Gi, q('2Gi'), 0n, minReclaim500Mi, false],
    ['"BothMet" memory: 100Mi of 1000Mi below 20%', pct20, q('100Mi'), cap1000Mi, 0n, true],
    ['"BothMet" disk: 100Gi of 1000Gi below 30%', disk30, q('100Gi'), cap1000Gi, 0n, true],
    ['"NoneMet" memory: 300Mi of 1000Mi', pct20, q('300Mi'), cap1000Mi, 0n, false],
    ['"NoneMet" disk: 400Gi of 1000Gi', disk30, q('400Gi'), cap1000Gi, 0n, false],
    ['"MemoryMetWithMinReclaim": 225Mi below 20% + 5% of 1000Mi', pct20, q('225Mi'), cap1000Mi, thresholdQuantity(pct5, cap1000Mi), true],
    ['"MemoryNotMetWithMinReclaim": 300Mi is not below 25% of 1000Mi', pct20, q('300Mi'), cap1000Mi, thresholdQuantity(pct5, cap1000Mi), false],
    ['strict: available equal to the threshold is not met', hard1Gi, Gi, 0n, 0n, false],
    ['strict: one byte below the threshold is met', hard1Gi, Gi - 1n, 0n, 0n, true],
  ];
  for (const [name, t, available, capacity, reclaim, met] of rows) it(`${name} -> ${met ? 'met' : 'not met'}`, () => assert.equal(thresholdMet(t, available, capacity, reclaim), met));

  const quantities: [string, Threshold, bigint, bigint][] = [
    ['10% of 1000Mi is 104857601 bytes: float32 rounding puts it one byte above exact', parseThresholdStatement('memory.available', '10%')!, cap1000Mi, 104857601n],
    ['a literal quantity ignores the capacity', hard1Gi, cap1000Mi, Gi],
    ['20% of 1000Mi', pct20, cap1000Mi, BigInt(Math.trunc(Number(cap1000Mi) * Math.fround(0.2)))],
    ['15% of 100Gi is truncated, not rounded', parseThresholdStatement('imagefs.available', '15%')!, 100n * Gi, BigInt(Math.trunc(Number(100n * Gi) * Math.fround(0.15)))],
  ];
  for (const [name, t, cap, want] of quantities) it(`${name}`, () => assert.equal(thresholdQuantity(t, cap), want));
});

// ---------------------------------------------------------------------------------------------
// Ranking for memory pressure

function ctr(name: string, requests: ResourceList = {}, limits: ResourceList = {}, restartPolicy?: string): Container {
  const c: Container = { name, resources: { requests, limits } };
  if (restartPolicy) c.restartPolicy = restartPolicy;
  return c;
}
function pod(name: string, priority: number | undefined, containers: Container[], o: { init?: Container[]; overhead?: ResourceList; resources?: Pod['spec']['resources']; annotations?: Record<string, string> } = {}): Pod {
  const p: Pod = { metadata: { name, uid: name }, spec: { containers } };
  if (priority !== undefined) p.spec.priority = priority;
  if (o.init) p.spec.initContainers = o.init;
  if (o.overhead) p.spec.overhead = o.overhead;
  if (o.resources) p.spec.resources = o.resources;
  if (o.annotations) p.metadata.annotations = o.annotations;
  return p;
}
const memReq = (m: string) => ({ memory: m });
const lowPriority = -1;
const defaultPriority = 0;
const highPriority = 1;

function rank(pods: Pod[], usage: Record<string, string | undefined>, gates = ON): string[] {
  return rankForMemoryPressure(pods, (p) => (usage[p.metadata.name!] === undefined ? undefined : q(usage[p.metadata.name!]!)), gates).map((p) => p.metadata.name!);
}

describe('rankForMemoryPressure: upstream ordering rows', () => {
  it('"TestOrderedByExceedsRequestMemory": exceeding its request beats lower priority', () => {
    const below = pod('below-requests', -1, [ctr('below-requests', memReq('200Mi'))]);
    const exceeds = pod('exceeds-requests', 1, [ctr('exceeds-requests', memReq('100Mi'))]);
    assert.deepEqual(rank([below, exceeds], { 'below-requests': '199Mi', 'exceeds-requests': '101Mi' }), ['exceeds-requests', 'below-requests']);
  });
  it('"TestOrderedByPriority": lower priority first when nothing else differs', () => {
    const low = pod('low-priority', -134, [ctr('low-priority')]);
    const medium = pod('medium-priority', 1, [ctr('medium-priority', { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '200Mi' })]);
    const high = pod('high-priority', 12534, [ctr('high-priority', { cpu: '200m', memory: '200Mi' }, { cpu: '200m', memory: '200Mi' })]);
    assert.deepEqual(rank([high, medium, low], {}), ['low-priority', 'medium-priority', 'high-priority']);
  });
  it('"TestOrderedByMemory": larger usage above request first, exceeders before the rest', () => {
    const pods = [
      pod('best-effort-high', defaultPriority, [ctr('best-effort-high')]),
      pod('best-effort-low', defaultPriority, [ctr('best-effort-low')]),
      pod('burstable-high', defaultPriority, [ctr('burstable-high', memReq('100Mi'), memReq('1Gi'))]),
      pod('burstable-low', defaultPriority, [ctr('burstable-low', memReq('100Mi'), memReq('1Gi'))]),
      pod('guaranteed-high', defaultPriority, [ctr('guaranteed-high', memReq('1Gi'), memReq('1Gi'))]),
      pod('guaranteed-low', defaultPriority, [ctr('guaranteed-low', memReq('1Gi'), memReq('1Gi'))]),
    ];
    const usage = { 'best-effort-high': '500Mi', 'best-effort-low': '300Mi', 'burstable-high': '800Mi', 'burstable-low': '300Mi', 'guaranteed-high': '800Mi', 'guaranteed-low': '200Mi' };
    assert.deepEqual(rank(pods, usage), ['burstable-high', 'best-effort-high', 'best-effort-low', 'burstable-low', 'guaranteed-high', 'guaranteed-low']);
  });
  it('"TestOrderedByPriorityMemory": exceeds-request, then priority, then usage above request', () => {
    const mk = (name: string, prio: number, req?: string) => pod(name, prio, [ctr(name, req ? memReq(req) : {})]);
    const pods = [
      mk('above-requests-low-priority-high-usage', lowPriority),
      mk('above-requests-low-priority-low-usage', lowPriority),
      mk('above-requests-high-priority-high-usage', highPriority, '100Mi'),
      mk('above-requests-high-priority-low-usage', highPriority, '100Mi'),
      mk('below-requests-low-priority-high-usage', lowPriority, '1Gi'),
      mk('below-requests-low-priority-low-usage', lowPriority, '1Gi'),
      mk('below-requests-high-priority-high-usage', highPriority, '1Gi'),
      mk('below-requests-high-priority-low-usage', highPriority, '1Gi'),
    ];
    const usage: Record<string, string> = {
      'above-requests-low-priority-high-usage': '500Mi',
      'above-requests-low-priority-low-usage': '50Mi',
      'above-requests-high-priority-high-usage': '600Mi',
      'above-requests-high-priority-low-usage': '150Mi',
      'below-requests-low-priority-high-usage': '800Mi',
      'below-requests-low-priority-low-usage': '200Mi',
      'below-requests-high-priority-high-usage': '800Mi',
      'below-requests-high-priority-low-usage': '200Mi',
    };
    const expected = pods.map((p) => p.metadata.name!);
    assert.deepEqual(rank([...pods].reverse(), usage), expected);
  });
});

describe('rankForMemoryPressure: reference §5.4 rules', () => {
  it('pods without stats come first, even before pods exceeding their request', () => {
    const a = pod('exceeds', 0, [ctr('c', memReq('100Mi'))]);
    const b = pod('no-stats', 1000, [ctr('c', memReq('1Gi'))]);
    assert.deepEqual(rank([a, b], { exceeds: '2Gi' }), ['no-stats', 'exceeds']);
  });
  it('two pods without stats fall through to priority', () => {
    const a = pod('high', 10, [ctr('c')]);
    const b = pod('low', -10, [ctr('c')]);
    assert.deepEqual(rank([a, b], {}), ['low', 'high']);
  });
  it('usage equal to the request does not exceed it (strictly greater)', () => {
    const at = pod('at-request', -5, [ctr('c', memReq('100Mi'))]);
    const over = pod('one-byte-over', 5, [ctr('c', memReq('100Mi'))]);
    assert.deepEqual(rankForMemoryPressure([at, over], (p) => (p.metadata.name === 'at-request' ? 100n * Mi : 100n * Mi + 1n), ON).map((p) => p.metadata.name), ['one-byte-over', 'at-request']);
  });
  it('a missing priority counts as 0, between -1 and 1', () => {
    const pods = [pod('plus', 1, [ctr('c')]), pod('none', undefined, [ctr('c')]), pod('minus', -1, [ctr('c')])];
    assert.deepEqual(rank(pods, { plus: '1Mi', none: '1Mi', minus: '1Mi' }), ['minus', 'none', 'plus']);
  });
  it('below-request pods are ordered by usage minus request, which can be negative', () => {
    const pods = [pod('far-below', 0, [ctr('c', memReq('1Gi'))]), pod('just-below', 0, [ctr('c', memReq('1Gi'))])];
    assert.deepEqual(rank(pods, { 'far-below': '100Mi', 'just-below': '1000Mi' }), ['just-below', 'far-below']);
  });
  it('the request is sidecar-aware: a sidecar\'s request protects its pod', () => {
    // app 100Mi + sidecar 400Mi = 500Mi effective request; usage 450Mi does not exceed it
    const withSidecar = pod('with-sidecar', 0, [ctr('app', memReq('100Mi'))], { init: [ctr('side', memReq('400Mi'), {}, 'Always')] });
    const plain = pod('plain', 0, [ctr('app', memReq('100Mi'))]);
    assert.deepEqual(rank([withSidecar, plain], { 'with-sidecar': '450Mi', plain: '150Mi' }), ['plain', 'with-sidecar']);
  });
  it('full ties keep the input order (Bulkhead choice; upstream\'s sort is not stable)', () => {
    const pods = ['a', 'b', 'c', 'd'].map((n) => pod(n, 0, [ctr('c', memReq('1Gi'))]));
    assert.deepEqual(rank(pods, { a: '2Gi', b: '2Gi', c: '2Gi', d: '2Gi' }), ['a', 'b', 'c', 'd']);
  });
});

describe('memoryRequestForEviction: effective request plus overhead only when non-zero', () => {
  const rows: [string, Pod, typeof ON | typeof OFF, bigint][] = [
    ['BestEffort pod with overhead: 0 (overhead is not added to a zero request)', pod('p', 0, [ctr('c')], { overhead: memReq('100Mi') }), ON, 0n],
    ['100Mi request plus 10Mi overhead: 110Mi', pod('p', 0, [ctr('c', memReq('100Mi'))], { overhead: memReq('10Mi') }), ON, 110n * Mi],
    ['regular containers are summed', pod('p', 0, [ctr('a', memReq('100Mi')), ctr('b', memReq('200Mi'))]), ON, 300n * Mi],
    ['a big regular init container sets the request (max of sums)', pod('p', 0, [ctr('a', memReq('100Mi'))], { init: [ctr('i', memReq('1Gi'))] }), ON, Gi],
    [
      'a sidecar adds to the app sum and to later init containers',
      pod('p', 0, [ctr('a', memReq('100Mi'))], { init: [ctr('side', memReq('50Mi'), {}, 'Always'), ctr('i', memReq('500Mi'))] }),
      ON,
      550n * Mi,
    ],
    ['pod-level memory request replaces the aggregate (gate on)', pod('p', 0, [ctr('a', memReq('100Mi'))], { resources: { requests: memReq('1Gi') } }), ON, Gi],
    ['pod-level memory request is ignored with the gate off', pod('p', 0, [ctr('a', memReq('100Mi'))], { resources: { requests: memReq('1Gi') } }), OFF, 100n * Mi],
    ['pod-level request plus overhead', pod('p', 0, [ctr('a')], { resources: { requests: memReq('1Gi') }, overhead: memReq('64Mi') }), ON, Gi + 64n * Mi],
  ];
  for (const [name, p, gates, want] of rows) it(name, () => assert.equal(memoryRequestForEviction(p, gates), want));
});

// kubernetes/kubernetes pkg/api/v1/resource/helpers_test.go TestGetResourceRequest, the rows that
// ask for memory (GetResourceRequest is what eviction ranks by; Bulkhead has the memory one only).
// getPod there gives one container and one init container the same resources.
describe('memoryRequestForEviction: upstream TestGetResourceRequest memory rows', () => {
  const both = (r: ResourceList, o: { overhead?: ResourceList; resources?: Pod['spec']['resources'] } = {}) => pod('p', 0, [ctr('c', r)], { init: [ctr('init-c', r)], ...o });
  const rows: [string, Pod, typeof ON | typeof OFF, bigint][] = [
    ['memoryRequest 90Mi is 94371840 bytes', both(memReq('90Mi')), OFF, 94371840n],
    ['"just-overhead for memory": 0', both({}, { overhead: memReq('5') }), OFF, 0n],
    ['"mem overhead and req": 1024 + 5 = 1029', both({ cpu: '2', memory: '1024' }, { overhead: { cpu: '5', memory: '5' } }), OFF, 1029n],
    ['"pod level resources mem req, container mem req": the pod-level 100Mi', both(memReq('80Mi'), { resources: { requests: memReq('100Mi') } }), ON, 104857600n],
    ['"pod level resources mem req, container cpu req"', both({ cpu: '8' }, { resources: { requests: memReq('100Mi') } }), ON, 104857600n],
    ['"pod level resources mem req, container no req"', both({}, { resources: { requests: memReq('100Mi') } }), ON, 104857600n],
    ['"mem pod without pod level resources but pod level resources feature enabled"', both(memReq('90Mi')), ON, 94371840n],
  ];
  for (const [name, p, gates, want] of rows) it(name, () => assert.equal(memoryRequestForEviction(p, gates), want));
});

describe('evictionAnnotations: the Evicted event\'s annotations (helpers.go evictionMessage, second result)', () => {
  const p = pod('web', 0, [ctr('app', memReq('100Mi')), ctr('helper'), ctr('small', memReq('1Gi'))], { init: [ctr('side', memReq('10Mi'), {}, 'Always')] });
  const rows: [string, Parameters<typeof evictionAnnotations>[2], Record<string, string>][] = [
    ['no stats: no annotations at all (upstream returns before setting any)', undefined, {}],
    ['stats but nobody over its request: the keys with empty lists', [{ name: 'small', usageBytes: 10n * Mi }], { offending_containers: '', offending_containers_usage: '', starved_resource: 'memory' }],
    [
      'the containers over their request, comma-separated in stats order, usage as a BinarySI quantity',
      [{ name: 'helper', usageBytes: 1000000n }, { name: 'small', usageBytes: 10n * Mi }, { name: 'app', usageBytes: 150n * Mi }],
      { offending_containers: 'helper,app', offending_containers_usage: '1000000,150Mi', starved_resource: 'memory' },
    ],
    ['an init (sidecar) container counts too', [{ name: 'side', usageBytes: 20n * Mi }], { offending_containers: 'side', offending_containers_usage: '20Mi', starved_resource: 'memory' }],
  ];
  for (const [name, usage, want] of rows) it(name, () => assert.deepEqual(evictionAnnotations(p, 'memory', usage), want));
});

describe('evictionCandidates: critical pods are never evicted', () => {
  it('static, mirror and priority >= 2000000000 pods are removed, order kept', () => {
    const pods = [
      pod('a', 0, [ctr('c')]),
      pod('static', 0, [ctr('c')], { annotations: { 'kubernetes.io/config.source': 'file' } }),
      pod('b', 0, [ctr('c')]),
      pod('mirror', 0, [ctr('c')], { annotations: { 'kubernetes.io/config.mirror': 'x' } }),
      pod('cluster-critical', 2000000000, [ctr('c')]),
      pod('c', 1999999999, [ctr('c')]),
    ];
    assert.deepEqual(evictionCandidates(pods).map((p) => p.metadata.name), ['a', 'b', 'c']);
  });
});

describe('evictionMessage: reference §5.5 format', () => {
  const p = pod('web', 0, [ctr('app', memReq('100Mi')), ctr('helper'), ctr('small', memReq('1Gi'))], { init: [ctr('side', memReq('10Mi'), {}, 'Always')] });
  const rows: [string, Parameters<typeof evictionMessage>[2], Parameters<typeof evictionMessage>[3], string][] = [
    ['no threshold observation, nobody over request', undefined, [{ name: 'small', usageBytes: 10n * Mi }], 'The node was low on resource: memory. '],
    ['threshold quantity and available are printed as BinarySI quantities', { quantity: Quantity.parse('100Mi'), available: 50n * Mi }, [], 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. '],
    [
      'one sentence per container over its request, each ending in ". "',
      { quantity: Quantity.parse('100Mi'), available: 50n * Mi },
      [{ name: 'app', usageBytes: 150n * Mi }, { name: 'small', usageBytes: 10n * Mi }],
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container app was using 150Mi, request is 100Mi, has larger consumption of memory. ',
    ],
    [
      'a missing request prints 0',
      undefined,
      [{ name: 'helper', usageBytes: 1000000n }],
      'The node was low on resource: memory. Container helper was using 1000000, request is 0, has larger consumption of memory. ',
    ],
    [
      'init (sidecar) containers are reported too',
      undefined,
      [{ name: 'side', usageBytes: 20n * Mi }],
      'The node was low on resource: memory. Container side was using 20Mi, request is 10Mi, has larger consumption of memory. ',
    ],
    ['usage equal to the request is not "larger consumption"', undefined, [{ name: 'app', usageBytes: 100n * Mi }], 'The node was low on resource: memory. '],
    ['usage of an unknown container is ignored', undefined, [{ name: 'ghost', usageBytes: 1n * Gi }], 'The node was low on resource: memory. '],
  ];
  for (const [name, threshold, usage, want] of rows) it(name, () => assert.equal(evictionMessage(p, 'memory', threshold, usage), want));

  it('"TestEvictonMessageWithResourceResize" (resize gate off): 150Mi used of a 200Mi request adds no container sentence', () => {
    const testpod = pod('testpod', 1, [ctr('testcontainer', memReq('200Mi'))]);
    const msg = evictionMessage(testpod, 'memory', undefined, [{ name: 'testcontainer', usageBytes: 150n * Mi }]);
    assert.ok(!msg.includes('testcontainer was using'), msg);
  });
  it('"TestEvictonMessageWithResourceResize" sentence shape: "testcontainer was using 150Mi, request is 100Mi"', () => {
    const testpod = pod('testpod', 1, [ctr('testcontainer', memReq('100Mi'))]);
    const msg = evictionMessage(testpod, 'memory', undefined, [{ name: 'testcontainer', usageBytes: 150n * Mi }]);
    assert.ok(msg.includes('testcontainer was using 150Mi, request is 100Mi'), msg);
  });
  it('the request is printed as the pod spec spells it', () => {
    const odd = pod('odd', 0, [ctr('c', memReq('100.035k'))]);
    assert.equal(
      evictionMessage(odd, 'memory', undefined, [{ name: 'c', usageBytes: 200000n }]),
      'The node was low on resource: memory. Container c was using 200000, request is 100.035k, has larger consumption of memory. ',
    );
  });
});

describe('thresholdAsQuantity (GetThresholdQuantity): what the eviction message prints', () => {
  const t = (v: string) => parseThresholdStatement('memory.available', v)!;
  const rows: [string, Threshold, bigint, string][] = [
    ['a literal threshold prints as configured: 120Mi', t('120Mi'), Gi, '120Mi'],
    ['a decimal literal prints as configured: 120M (not 120000000)', t('120M'), Gi, '120M'],
    ['an exponent literal prints in Go\'s canonical form: 1e8 is 100e6', t('1e8'), Gi, '100e6'],
    ['a literal prints in canonical form: 1024Ki is 1Mi', t('1024Ki'), Gi, '1Mi'],
    ['a fractional binary literal prints as Go canonicalises it: 0.1Gi', t('0.1Gi'), Gi, '107374182400m'],
    ['a percentage prints as BinarySI bytes of capacity: 10% (float32) of 1Gi', t('10%'), Gi, '107374184'],
    ['a percentage that lands on a binary unit: 25% of 1Gi is 256Mi', t('25%'), Gi, '256Mi'],
  ];
  for (const [name, th, cap, want] of rows) it(name, () => assert.equal(thresholdAsQuantity(th, cap).toString(), want));
});

describe('evictionMessage: upstream helpers.go evictionMessage details', () => {
  const mem = (m: string) => ({ memory: m });
  type Row = [string, Pod, Parameters<typeof evictionMessage>[2], Parameters<typeof evictionMessage>[3], Parameters<typeof evictionMessage>[4], string, string?];
  const rows: Row[] = [
    [
      'the threshold prints as configured (120M), available as BinarySI',
      pod('p', 0, [ctr('c')]),
      { quantity: Quantity.parse('120M'), available: 100n * Mi },
      [],
      {},
      'The node was low on resource: memory. Threshold quantity: 120M, available: 100Mi. ',
    ],
    [
      'available below zero prints negative (the kubelet keeps it as int64)',
      pod('p', 0, [ctr('c')]),
      { quantity: Quantity.parse('100Mi'), available: -5n * Mi },
      [],
      {},
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: -5Mi. ',
    ],
    [
      'pod-level resources set (gate on): a Pod sentence comes before the container sentences',
      pod('web', 0, [ctr('app')], { resources: { requests: mem('200Mi') } }),
      undefined,
      [{ name: 'app', usageBytes: 300n * Mi }],
      { podUsageBytes: 300n * Mi, gates: ON },
      'The node was low on resource: memory. Pod web was using 300Mi, request is 200Mi, has larger consumption of memory. Container app was using 300Mi, request is 0, has larger consumption of memory. ',
    ],
    [
      'the Pod sentence has no usage comparison upstream: printed even below the pod request',
      pod('web', 0, [ctr('app')], { resources: { requests: mem('1Gi') } }),
      undefined,
      [],
      { podUsageBytes: 100n * Mi, gates: ON },
      'The node was low on resource: memory. Pod web was using 100Mi, request is 1Gi, has larger consumption of memory. ',
    ],
    [
      'no Pod sentence with the gate off',
      pod('web', 0, [ctr('app')], { resources: { requests: mem('200Mi') } }),
      undefined,
      [],
      { podUsageBytes: 300n * Mi, gates: OFF },
      'The node was low on resource: memory. ',
    ],
    [
      'no Pod sentence when only pod-level limits are set (no pod-level request to print)',
      pod('web', 0, [ctr('app')], { resources: { limits: mem('200Mi') } }),
      undefined,
      [],
      { podUsageBytes: 300n * Mi, gates: ON },
      'The node was low on resource: memory. ',
    ],
    [
      'no Pod sentence without pod stats',
      pod('web', 0, [ctr('app')], { resources: { requests: mem('200Mi') } }),
      undefined,
      [],
      { gates: ON },
      'The node was low on resource: memory. ',
    ],
    [
      'no Pod sentence for another resource',
      pod('web', 0, [ctr('app')], { resources: { requests: mem('200Mi') } }),
      undefined,
      [],
      { podUsageBytes: 300n * Mi, gates: ON },
      'The node was low on resource: ephemeral-storage. ',
      'ephemeral-storage',
    ],
    [
      'container sentences follow the stats order, init containers included',
      pod('p', 0, [ctr('b', mem('1Mi')), ctr('a', mem('1Mi'))], { init: [ctr('s', mem('1Mi'), {}, 'Always')] }),
      undefined,
      [{ name: 's', usageBytes: 2n * Mi }, { name: 'a', usageBytes: 2n * Mi }, { name: 'b', usageBytes: 2n * Mi }],
      {},
      'The node was low on resource: memory. Container s was using 2Mi, request is 1Mi, has larger consumption of memory. Container a was using 2Mi, request is 1Mi, has larger consumption of memory. Container b was using 2Mi, request is 1Mi, has larger consumption of memory. ',
    ],
  ];
  for (const [name, p, th, usage, opts, want, resource = 'memory'] of rows) it(name, () => assert.equal(evictionMessage(p, resource, th, usage, opts), want));
});

describe('signal observations and met thresholds (helpers.go thresholdsMet, makeSignalObservations)', () => {
  const obs = (entries: [Threshold['signal'], SignalObservation][]) => new Map(entries);
  const hard = (s: string) => parseEvictionThresholds(s);
  it('memory.available = capacity − working set, capacity as given', () => assert.deepEqual(memoryObservation(Gi, 300n * Mi), { available: Gi - 300n * Mi, capacity: Gi }));
  it('a working set above capacity gives a negative available', () => assert.equal(memoryObservation(Gi, Gi + Mi).available, -Mi));
  it('TestMakeSignalObservations (memory half): 1Gi available and 1Gi working set is capacity 2Gi, available 1Gi', () => {
    assert.deepEqual(memoryObservation(2n * Gi, Gi), { available: Gi, capacity: 2n * Gi });
  });
  const rows: [string, Threshold[], Map<Threshold['signal'], SignalObservation>, string[]][] = [
    ['met: available strictly below the quantity', hard('memory.available<100Mi'), obs([['memory.available', memoryObservation(Gi, Gi - 99n * Mi)]]), ['memory.available']],
    ['not met: available equal to the quantity', hard('memory.available<100Mi'), obs([['memory.available', memoryObservation(Gi, Gi - 100n * Mi)]]), []],
    ['a threshold without an observation is skipped (nodefs is not observed here)', hard('memory.available<100Mi,nodefs.available<10%'), obs([['memory.available', memoryObservation(Gi, Gi)]]), ['memory.available']],
    ['a percentage uses the observation\'s capacity', hard('memory.available<10%'), obs([['memory.available', memoryObservation(1000n * Mi, 900n * Mi)]]), ['memory.available']],
    [
      'allocatableMemory.available is judged on its own observation',
      hard('memory.available<100Mi,allocatableMemory.available<100Mi'),
      obs([['memory.available', memoryObservation(2n * Gi, Gi)], ['allocatableMemory.available', memoryObservation(Gi, Gi - Mi)]]),
      ['allocatableMemory.available'],
    ],
  ];
  for (const [name, ts, o, want] of rows) it(name, () => assert.deepEqual(thresholdsMet(ts, o).map((t) => t.signal), want));
});

describe('node conditions and the pressure transition period (nodeConditionsLastObservedAt, nodeConditionsObservedSince)', () => {
  const th = (s: string) => parseEvictionThresholds(s);
  it('memory signals give MemoryPressure once; disk and pid give their own', () => {
    assert.deepEqual(nodeConditionsOf(th('memory.available<1Mi,allocatableMemory.available<1Mi,nodefs.available<1%,pid.available<1%')), ['MemoryPressure', 'DiskPressure', 'PIDPressure']);
  });
  const period = 300_000;
  const rows: [string, PressureCondition[], [PressureCondition, number][], number, PressureCondition[]][] = [
    ['observed now: reported', ['MemoryPressure'], [], 1000, ['MemoryPressure']],
    ['cleared 1 ms before the period ends: still reported', [], [['MemoryPressure', 0]], period - 1, ['MemoryPressure']],
    ['cleared exactly one period ago: no longer reported (now − last < period)', [], [['MemoryPressure', 0]], period, []],
    ['seen again: the clock restarts', ['MemoryPressure'], [['MemoryPressure', 0]], period + 10, ['MemoryPressure']],
    ['never seen: not reported', [], [], 5, []],
  ];
  for (const [name, now, last, at, want] of rows) it(name, () => assert.deepEqual(conditionsWithinTransition(now, new Map(last), at, period).conditions, want));
  it('the last-observed time is kept for conditions not seen now', () => {
    const r = conditionsWithinTransition([], new Map([['MemoryPressure', 42]]), 100, period);
    assert.equal(r.lastObservedAt.get('MemoryPressure'), 42);
  });
});

describe('thresholdToReclaim (byEvictionPriority) and the admission message', () => {
  const th = (s: string) => parseEvictionThresholds(s);
  it('memory before disk whatever the order', () => assert.deepEqual(thresholdToReclaim(th('nodefs.available<1%,memory.available<1Mi'))?.resource, 'memory'));
  it('allocatableMemory.available reclaims memory', () => assert.deepEqual(thresholdToReclaim(th('allocatableMemory.available<1Mi'))?.resource, 'memory'));
  it('pid.available reclaims "pids", nodefs.inodesFree "inodes"', () => {
    assert.equal(thresholdToReclaim(th('pid.available<1%'))?.resource, 'pids');
    assert.equal(thresholdToReclaim(th('nodefs.inodesFree<1%'))?.resource, 'inodes');
  });
  it('nothing met: nothing to reclaim', () => assert.equal(thresholdToReclaim([]), undefined));
  it('"The node had condition: [MemoryPressure]. " (Go %v of a slice, trailing space)', () => assert.equal(nodeConditionMessage(['MemoryPressure']), 'The node had condition: [MemoryPressure]. '));
  it('several conditions are space-separated inside the brackets', () => assert.equal(nodeConditionMessage(['MemoryPressure', 'DiskPressure']), 'The node had condition: [MemoryPressure DiskPressure]. '));
});

// ---------------------------------------------------------------------------------------------
// Audit against kubernetes/kubernetes pkg/kubelet/eviction/helpers_test.go (the version with
// TestAddAllocatableThresholds, TestSortByEvictionPriority and TestAddContainerFsThresholds):
// the table rows not ported above, one row per upstream case, named after it.

describe('parseEvictionThresholds: TestParseThresholdConfig hard halves of the current table', () => {
  const rows: [string, string, [string, string][]][] = [
    ['"all memory eviction values" (hard half) without enforceNodeAllocatable: no allocatable copy', 'memory.available<150Mi', [['memory.available', '150Mi']]],
    ['"disk eviction values"', 'imagefs.available<150Mi,nodefs.available<100Mi', [['imagefs.available', '150Mi'], ['nodefs.available', '100Mi']]],
    ['"disk eviction values in percentages"', 'imagefs.available<15%,nodefs.available<10.5%', [['imagefs.available', f32(0.15)], ['nodefs.available', f32(0.105)]]],
    ['"inode eviction values"', 'imagefs.inodesFree<150Mi,nodefs.inodesFree<100Mi', [['imagefs.inodesFree', '150Mi'], ['nodefs.inodesFree', '100Mi']]],
  ];
  for (const [name, spec, want] of rows) it(name, () => assert.deepEqual(parseEvictionThresholds(spec).map(plain), want));
  it('"all memory eviction values" (hard half) with allocatableConfig [pods]: allocatableMemory.available<150Mi as well', () => {
    assert.deepEqual(parseEvictionThresholds('memory.available<150Mi', ['pods']).map(plain), [['memory.available', '150Mi'], ['allocatableMemory.available', '150Mi']]);
  });
  it('"all memory eviction values in percentages" (hard half, allocatableConfig empty): no allocatable copy', () => {
    assert.deepEqual(parseEvictionThresholds('memory.available<10%', []).map(plain), [['memory.available', f32(0.1)]]);
  });
  it('an allocatableConfig without "pods" (system-reserved, kube-reserved) adds nothing', () => {
    assert.deepEqual(parseEvictionThresholds('memory.available<150Mi', ['system-reserved', 'kube-reserved']).map(plain), [['memory.available', '150Mi']]);
  });
});

// helpers_test.go TestAddAllocatableThresholds. "memory-signal-with-grace" is a soft threshold,
// which Bulkhead does not have; MinReclaim is not modelled, so the rows compare signal and value.
describe('addAllocatableThresholds: TestAddAllocatableThresholds', () => {
  const th = (signal: Threshold['signal'], value: string) => parseThresholdStatement(signal, value)!;
  const rows: [string, Threshold[], [string, string][]][] = [
    ['"non-memory-signal": unchanged', [th('imagefs.available', '150Mi')], [['imagefs.available', '150Mi']]],
    ['"memory-signal-without-grace": copied to allocatableMemory.available', [th('memory.available', '150Mi')], [['memory.available', '150Mi'], ['allocatableMemory.available', '150Mi']]],
    [
      '"memory-signal-without-grace-two-thresholds": each one copied',
      [th('memory.available', '150Mi'), th('memory.available', '200Mi')],
      [['memory.available', '150Mi'], ['memory.available', '200Mi'], ['allocatableMemory.available', '150Mi'], ['allocatableMemory.available', '200Mi']],
    ],
    ['a percentage is copied as a percentage', [th('memory.available', '10%')], [['memory.available', f32(0.1)], ['allocatableMemory.available', f32(0.1)]]],
  ];
  for (const [name, input, want] of rows) it(name, () => assert.deepEqual(addAllocatableThresholds(input).map(plain), want));
  it('the input list is not modified', () => {
    const input = [th('memory.available', '150Mi')];
    addAllocatableThresholds(input);
    assert.equal(input.length, 1);
  });
});

describe('--eviction-hard flag syntax (LangleSeparatedMapStringString.Set) and parsePercentage (strconv.ParseFloat(TrimRight(v, "%"), 32))', () => {
  const ok: [string, string, [string, string][]][] = [
    ['an empty item between commas is skipped', 'memory.available<100Mi,,nodefs.available<10%', [['memory.available', '100Mi'], ['nodefs.available', f32(0.1)]]],
    ['a trailing comma is skipped', 'memory.available<100Mi,', [['memory.available', '100Mi']]],
    ['TrimRight strips every trailing "%": "10%%" is 10%', 'memory.available<10%%', [['memory.available', f32(0.1)]]],
    ['"0%%" is not the literal "0%": a 0 threshold is kept', 'memory.available<0%%', [['memory.available', '0']]],
    ['ParseFloat syntax: ".5%" and "5.%"', 'memory.available<.5%,nodefs.available<5.%', [['memory.available', `${Math.fround(Math.fround(0.5) / 100)}`], ['nodefs.available', f32(0.05)]]],
    ['ParseFloat syntax: an exponent, "1e1%" is 10%', 'memory.available<1e1%', [['memory.available', f32(0.1)]]],
    ['ParseFloat syntax: a hex float, "0x1p3%" is 8%', 'memory.available<0x1p3%', [['memory.available', f32(0.08)]]],
  ];
  for (const [name, spec, want] of ok) it(name, () => assert.deepEqual(parseEvictionThresholds(spec).map(plain), want));

  const errors: [string, string, string][] = [
    ['a blank item is a malformed pair (only empty items are skipped)', 'memory.available<100Mi, ', 'malformed pair, expect string<string'],
    ['"%%" alone: ParseFloat of ""', 'memory.available<%%', 'strconv.ParseFloat: parsing "": invalid syntax'],
    ['a space inside the number is not ParseFloat syntax', 'memory.available<5 %', 'strconv.ParseFloat: parsing "5 ": invalid syntax'],
    ['"0x10" without a p exponent is not a Go float', 'memory.available<0x10%', 'strconv.ParseFloat: parsing "0x10": invalid syntax'],
    ['a float32 overflow is out of range', 'memory.available<1e39%', 'strconv.ParseFloat: parsing "1e39": value out of range'],
    ['"inf%" parses to +Inf and fails the 100% check', 'memory.available<inf%', 'eviction percentage threshold memory.available must be <= 100%: inf%'],
    ['"-Infinity%" fails the 0% check', 'memory.available<-Infinity%', 'eviction percentage threshold memory.available must be >= 0%: -Infinity%'],
  ];
  for (const [name, spec, message] of errors) {
    it(`${name}: ${message}`, () => assert.throws(() => parseEvictionThresholds(spec), (e: unknown) => e instanceof EvictionConfigError && e.message === message));
  }
  it('"NaN%" passes both range checks upstream; its threshold (Go int64(NaN) = MinInt64) is never met', () => {
    const t = parseThresholdStatement('memory.available', 'NaN%')!;
    assert.ok(Number.isNaN(t.percentage));
    assert.equal(thresholdMet(t, 0n, Gi), false);
  });
});

describe('thresholdsMet over several thresholds: TestThresholdsMet and TestPercentageThresholdsMet', () => {
  const memory20 = parseThresholdStatement('memory.available', '20%')!;
  const nodefs30 = parseThresholdStatement('nodefs.available', '30%')!;
  const both = [memory20, nodefs30];
  const o = (mem: string, disk: string) =>
    new Map<Threshold['signal'], SignalObservation>([
      ['memory.available', { available: q(mem), capacity: q('1000Mi') }],
      ['nodefs.available', { available: q(disk), capacity: q('1000Gi') }],
    ]);
  const rows: [string, Threshold[], Map<Threshold['signal'], SignalObservation>, string[]][] = [
    ['TestThresholdsMet "empty"', [], new Map(), []],
    ['TestPercentageThresholdsMet "BothMet"', both, o('100Mi', '100Gi'), ['memory.available', 'nodefs.available']],
    ['TestPercentageThresholdsMet "NoneMet"', both, o('300Mi', '400Gi'), []],
    ['TestPercentageThresholdsMet "DiskMet"', both, o('300Mi', '100Gi'), ['nodefs.available']],
    ['TestPercentageThresholdsMet "MemoryMet"', both, o('100Mi', '400Gi'), ['memory.available']],
  ];
  for (const [name, ts, obs, want] of rows) it(name, () => assert.deepEqual(thresholdsMet(ts, obs).map((t) => t.signal), want));
});

describe('nodeConditionsOf: TestNodeConditions', () => {
  const rows: [string, string, PressureCondition[]][] = [
    ['"empty-list"', '', []],
    ['"memory.available"', 'memory.available<1Gi', ['MemoryPressure']],
  ];
  for (const [name, spec, want] of rows) it(name, () => assert.deepEqual(nodeConditionsOf(parseEvictionThresholds(spec)), want));
});

describe('conditionsWithinTransition: TestNodeConditionsLastObservedAt and TestNodeConditionsObservedSince', () => {
  const now = 10 * 60_000;
  const old = now - 60_000;
  const lastRows: [string, PressureCondition[], [PressureCondition, number][], [PressureCondition, number][]][] = [
    ['"no-previous-observation": stamped now', ['MemoryPressure'], [], [['MemoryPressure', now]]],
    ['"previous-observation": restamped now', ['MemoryPressure'], [['MemoryPressure', old]], [['MemoryPressure', now]]],
    ['"old-observation": not seen now, keeps its time', [], [['MemoryPressure', old]], [['MemoryPressure', old]]],
  ];
  for (const [name, seen, last, want] of lastRows) {
    it(name, () => assert.deepEqual([...conditionsWithinTransition(seen, new Map(last), now, 300_000).lastObservedAt], want));
  }
  const sinceRows: [string, number, PressureCondition[]][] = [
    ['"in-period": seen 1m ago, period 2m', 120_000, ['MemoryPressure']],
    ['"out-of-period": seen 1m ago, period 30s', 30_000, []],
  ];
  for (const [name, period, want] of sinceRows) {
    it(name, () => assert.deepEqual(conditionsWithinTransition([], new Map([['MemoryPressure', old]]), now, period).conditions, want));
  }
});

describe('thresholdToReclaim: TestSortByEvictionPriority and TestGetReclaimableThreshold', () => {
  const rows: [string, string, string | undefined][] = [
    ['"empty threshold list": nothing to reclaim', '', undefined],
    ['"memory first": nodefs, pid, memory', 'nodefs.available<1%,pid.available<1%,memory.available<1Mi', 'memory.available'],
    ['"allocatable memory first": nodefs, pid, allocatableMemory', 'nodefs.available<1%,pid.available<1%,allocatableMemory.available<1Mi', 'allocatableMemory.available'],
    ['TestGetReclaimableThreshold: allocatable, memory, imagefs, nodefs, containerfs all have a resource', 'allocatableMemory.available<150Mi,memory.available<150Mi,imagefs.available<150Mi,nodefs.available<100Mi,containerfs.available<100Mi', 'allocatableMemory.available'],
  ];
  for (const [name, spec, want] of rows) it(name, () => assert.equal(thresholdToReclaim(parseEvictionThresholds(spec))?.threshold.signal, want));
});
