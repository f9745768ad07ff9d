// The LimitRanger admission plugin for pods (src/quota/limitranger.ts): container defaults with
// the kubernetes.io/limit-ranger annotation, and min / max / maxLimitRequestRatio per Container
// and per Pod with the plugin's messages.
//
// Rows ported from kubernetes/kubernetes plugin/pkg/admission/limitranger/admission_test.go
// (TestDefaultContainerResourceRequirements, TestMergePodResourceRequirements, TestPodLimitFunc
// success and error cases, TestPodLimitFuncApplyDefault, TestLimitRangerAdmitPod). Upstream's
// TestPodLimitFunc only checks err != nil; the exact messages here follow the plugin's
// minConstraint / maxConstraint / limitRequestRatioConstraint format strings. Upstream's
// fixtures build LimitRanges without API defaulting, so their mutation step is a no-op for
// these rows (no default / defaultRequest): the rows are ported against limitRangeViolations.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, LimitRange, LimitRangeItem, Pod, ResourceList, ResourceRequirements } from '../../src/api/types.js';
import {
  aggregateMessages,
  applyLimitRangeDefaults,
  defaultLimitRangeItem,
  limitRangeViolations,
  limitRangerAnnotation,
  limitRangesViolation,
} from '../../src/quota/limitranger.js';
import { cm, es, mkPod } from './fixtures.js';

const none: ResourceList = {};

function rr(requests: ResourceList, limits: ResourceList): ResourceRequirements {
  return { requests, limits };
}

/** upstream validPod: n containers foo-0.. sharing one requirements block. */
function validPod(name: string, n: number, resources: ResourceRequirements): Pod {
  const containers: Container[] = [];
  for (let i = 0; i < n; i++) containers.push({ name: `foo-${i}`, image: `foo:V${i}`, resources });
  return mkPod(name, { containers });
}

/** upstream validPodInit: appends init containers foo-0.. (same names as the containers). */
function validPodInit(pod: Pod, ...resources: ResourceRequirements[]): Pod {
  const initContainers = [...(pod.spec.initContainers ?? [])];
  resources.forEach((r, i) => initContainers.push({ name: `foo-${i}`, image: `foo:V${i}`, resources: r }));
  return { ...pod, spec: { ...pod.spec, initContainers } };
}

/** upstream withRestartableInitContainer. */
function withRestartableInitContainer(requests: ResourceList, limits: ResourceList, pod: Pod): Pod {
  const n = pod.spec.initContainers?.length ?? 0;
  const initContainers = [...(pod.spec.initContainers ?? []), { name: `foo-${n}`, image: `foo:V${n}`, restartPolicy: 'Always', resources: rr(requests, limits) }];
  return { ...pod, spec: { ...pod.spec, initContainers } };
}

/** upstream createLimitRange(type, min, max, default, defaultRequest, maxLimitRequestRatio). */
function createLimitRange(type: string, min: ResourceList, max: ResourceList, def: ResourceList = none, defReq: ResourceList = none, ratio: ResourceList = none): LimitRange {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'abc', namespace: 'test' }, spec: { limits: [{ type, min, max, default: def, defaultRequest: defReq, maxLimitRequestRatio: ratio }] } };
}

function validLimitRange(): LimitRange {
  return {
    metadata: { name: 'abc', namespace: 'test' },
    spec: {
      limits: [
        { type: 'Pod', max: cm('200m', '4Gi'), min: cm('50m', '2Mi') },
        { type: 'Container', max: cm('100m', '2Gi'), min: cm('25m', '1Mi'), default: cm('75m', '10Mi'), defaultRequest: cm('50m', '5Mi') },
      ],
    },
  };
}

function validLimitRangeNoDefaults(): LimitRange {
  return {
    metadata: { name: 'abc', namespace: 'test' },
    spec: {
      limits: [
        { type: 'Pod', max: cm('200m', '4Gi'), min: cm('50m', '2Mi') },
        { type: 'Container', max: cm('100m', '2Gi'), min: cm('25m', '1Mi') },
      ],
    },
  };
}

const C = 'Container';
const P = 'Pod';

// ---------------------------------------------------------------------------------------------

describe('applyLimitRangeDefaults: admission_test.go defaulting', () => {
  it('TestDefaultContainerResourceRequirements: requests from defaultRequest, limits from default', () => {
    const out = applyLimitRangeDefaults(validPod('p', 1, rr({}, {})), [validLimitRange()]);
    assert.deepEqual(out.spec.containers[0]!.resources, rr(cm('50m', '5Mi'), cm('75m', '10Mi')));
  });

  it('TestMergePodResourceRequirements: pod with no resources enumerated gets every default', () => {
    const out = applyLimitRangeDefaults(validPod('empty-resources', 1, rr({}, {})), [validLimitRange()]);
    assert.deepEqual(out.spec.containers[0]!.resources, rr(cm('50m', '5Mi'), cm('75m', '10Mi')));
    assert.equal(out.metadata.annotations?.[limitRangerAnnotation], 'LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0');
  });

  it('TestMergePodResourceRequirements: pod with some resources enumerated only merges the empty ones (shared requirements block, as upstream)', () => {
    // Upstream's container and init container share one requirements block (Go maps): once the
    // container is defaulted, the init container already has everything, so the annotation only
    // names the container. applyLimitRangeDefaults works in place, so the sharing carries over.
    const input = rr(cm('', '512Mi'), cm());
    const out = applyLimitRangeDefaults(validPodInit(validPod('limit-memory', 1, input), input), [validLimitRange()]);
    const expected = rr(cm('50m', '512Mi'), cm('75m', '10Mi'));
    assert.deepEqual(out.spec.containers[0]!.resources, expected);
    assert.deepEqual(out.spec.initContainers![0]!.resources, expected);
    assert.equal(out.metadata.annotations?.[limitRangerAnnotation], 'LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0');
  });

  it('TestMergePodResourceRequirements: separate requirements blocks also annotate the init container', () => {
    const out = applyLimitRangeDefaults(validPodInit(validPod('limit-memory', 1, rr(cm('', '512Mi'), cm())), rr(cm('', '512Mi'), cm())), [validLimitRange()]);
    assert.equal(
      out.metadata.annotations?.[limitRangerAnnotation],
      'LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0; cpu request for init container foo-0; cpu, memory limit for init container foo-0',
    );
  });

  it('TestMergePodResourceRequirements: pod with all resources enumerated merges nothing and gets no annotation', () => {
    const input = rr(cm('100m', '512Mi'), cm('200m', '1G'));
    const initInput = rr(cm('200m', '1G'), cm('400m', '2G'));
    const out = applyLimitRangeDefaults(validPodInit(validPod('limit-memory', 1, input), initInput), [validLimitRange()]);
    assert.deepEqual(out.spec.containers[0]!.resources, input);
    assert.deepEqual(out.spec.initContainers![0]!.resources, initInput);
    assert.equal(out.metadata.annotations?.[limitRangerAnnotation], undefined);
  });

  it('TestPodLimitFuncApplyDefault: containers and init containers get 10Mi/75m limits and 5Mi/50m requests', () => {
    const out = applyLimitRangeDefaults(validPodInit(validPod('foo', 1, rr({}, {})), rr({}, {})), [validLimitRange()]);
    for (const c of [...out.spec.containers, ...out.spec.initContainers!]) {
      assert.deepEqual(c.resources, rr(cm('50m', '5Mi'), cm('75m', '10Mi')));
    }
    assert.equal(
      out.metadata.annotations?.[limitRangerAnnotation],
      'LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0; cpu, memory request for init container foo-0; cpu, memory limit for init container foo-0',
    );
  });

  it('several LimitRanges: earlier defaults win, the last LimitRange that set anything writes the annotation', () => {
    const lr1 = createLimitRange(C, none, none, { cpu: '1' }, { cpu: '500m' });
    const lr2 = createLimitRange(C, none, none, { cpu: '2', memory: '1Gi' }, { cpu: '2', memory: '1Gi' });
    const out = applyLimitRangeDefaults(validPod('p', 1, rr({}, {})), [lr1, lr2]);
    assert.deepEqual(out.spec.containers[0]!.resources, rr({ cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }));
    assert.equal(out.metadata.annotations?.[limitRangerAnnotation], 'LimitRanger plugin set: memory request for container foo-0; memory limit for container foo-0');
  });

  it('Pod-type items never default containers', () => {
    const lr = createLimitRange(P, none, cm('1', '1Gi'), cm('1', '1Gi'), cm('1', '1Gi'));
    const out = applyLimitRangeDefaults(validPod('p', 1, rr({}, {})), [lr]);
    assert.deepEqual(out.spec.containers[0]!.resources, rr({}, {}));
    assert.equal(out.metadata.annotations, undefined);
  });
});

describe('defaultLimitRangeItem: SetDefaults_LimitRangeItem (what the API stores)', () => {
  const rows: { name: string; item: LimitRangeItem; want: LimitRangeItem }[] = [
    { name: 'default limit from max', item: { type: C, max: { cpu: '2' } }, want: { type: C, max: { cpu: '2' }, default: { cpu: '2' }, defaultRequest: { cpu: '2' } } },
    { name: 'default request from default', item: { type: C, default: { cpu: '1' } }, want: { type: C, default: { cpu: '1' }, defaultRequest: { cpu: '1' } } },
    { name: 'default request from min when no default', item: { type: C, min: { cpu: '100m' } }, want: { type: C, min: { cpu: '100m' }, default: {}, defaultRequest: { cpu: '100m' } } },
    {
      name: 'default beats min for the default request',
      item: { type: C, min: { cpu: '100m' }, default: { cpu: '1' } },
      want: { type: C, min: { cpu: '100m' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    },
    {
      name: 'explicit values are kept',
      item: { type: C, max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '250m' } },
      want: { type: C, max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '250m' } },
    },
    { name: 'Pod items are not defaulted', item: { type: P, max: { cpu: '2' } }, want: { type: P, max: { cpu: '2' } } },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(defaultLimitRangeItem(row.item), row.want));
  }
});

// ---------------------------------------------------------------------------------------------
// TestPodLimitFunc

interface LimitRow {
  pod: Pod;
  limitRange: LimitRange;
}

const successCases: LimitRow[] = [
  { pod: validPod('ctr-min-cpu-request', 1, rr(cm('100m'), cm())), limitRange: createLimitRange(C, cm('50m'), none) },
  { pod: validPod('ctr-min-cpu-request-limit', 1, rr(cm('100m'), cm('200m'))), limitRange: createLimitRange(C, cm('50m'), none) },
  { pod: validPod('ctr-min-memory-request', 1, rr(cm('', '60Mi'), cm())), limitRange: createLimitRange(C, cm('', '50Mi'), none) },
  { pod: validPod('ctr-min-memory-request-limit', 1, rr(cm('', '60Mi'), cm('', '100Mi'))), limitRange: createLimitRange(C, cm('', '50Mi'), none) },
  { pod: validPod('ctr-max-cpu-request-limit', 1, rr(cm('500m'), cm('1'))), limitRange: createLimitRange(C, none, cm('2')) },
  { pod: validPod('ctr-max-cpu-limit', 1, rr(cm(), cm('1'))), limitRange: createLimitRange(C, none, cm('2')) },
  { pod: validPod('ctr-max-mem-request-limit', 1, rr(cm('', '250Mi'), cm('', '500Mi'))), limitRange: createLimitRange(C, none, cm('', '1Gi')) },
  { pod: validPod('ctr-max-cpu-ratio', 1, rr(cm('500m'), cm('750m'))), limitRange: createLimitRange(C, none, none, none, none, cm('1.5')) },
  { pod: validPod('ctr-max-mem-limit', 1, rr(cm(), cm('', '500Mi'))), limitRange: createLimitRange(C, none, cm('', '1Gi')) },
  { pod: validPod('pod-min-cpu-request', 2, rr(cm('75m'), cm())), limitRange: createLimitRange(P, cm('100m'), none) },
  { pod: validPod('pod-min-cpu-request-limit', 2, rr(cm('75m'), cm('200m'))), limitRange: createLimitRange(P, cm('100m'), none) },
  { pod: validPod('pod-min-memory-request', 2, rr(cm('', '60Mi'), cm())), limitRange: createLimitRange(P, cm('', '100Mi'), none) },
  { pod: validPod('pod-min-memory-request-limit', 2, rr(cm('', '60Mi'), cm('', '100Mi'))), limitRange: createLimitRange(P, cm('', '100Mi'), none) },
  {
    pod: validPodInit(validPod('pod-init-min-memory-request', 2, rr(cm('', '60Mi'), cm())), rr(cm('', '100Mi'), cm())),
    limitRange: createLimitRange(P, cm('', '100Mi'), none),
  },
  {
    pod: validPodInit(validPod('pod-init-min-memory-request-limit', 2, rr(cm('', '60Mi'), cm('', '100Mi'))), rr(cm('', '80Mi'), cm('', '100Mi'))),
    limitRange: createLimitRange(P, cm('', '100Mi'), none),
  },
  { pod: validPod('pod-max-cpu-request-limit', 2, rr(cm('500m'), cm('1'))), limitRange: createLimitRange(P, none, cm('2')) },
  { pod: validPod('pod-max-cpu-limit', 2, rr(cm(), cm('1'))), limitRange: createLimitRange(P, none, cm('2')) },
  {
    pod: validPodInit(validPod('pod-init-max-cpu-request-limit', 2, rr(cm('500m'), cm('1'))), rr(cm('1'), cm('2')), rr(cm('1'), cm('1'))),
    limitRange: createLimitRange(P, none, cm('2')),
  },
  {
    pod: validPodInit(validPod('pod-init-max-cpu-limit', 2, rr(cm(), cm('1'))), rr(cm(), cm('2')), rr(cm(), cm('2'))),
    limitRange: createLimitRange(P, none, cm('2')),
  },
  { pod: validPod('pod-max-mem-request-limit', 2, rr(cm('', '250Mi'), cm('', '500Mi'))), limitRange: createLimitRange(P, none, cm('', '1Gi')) },
  { pod: validPod('pod-max-mem-limit', 2, rr(cm(), cm('', '500Mi'))), limitRange: createLimitRange(P, none, cm('', '1Gi')) },
  { pod: validPod('pod-max-mem-ratio', 3, rr(cm('', '300Mi'), cm('', '450Mi'))), limitRange: createLimitRange(P, none, cm('', '2Gi'), none, none, cm('', '1.5')) },
  { pod: validPod('ctr-1-min-local-ephemeral-storage-request', 1, rr(es('60Mi'), es())), limitRange: createLimitRange(C, es('50Mi'), none) },
  { pod: validPod('ctr-1-min-local-ephemeral-storage-request-limit', 1, rr(es('60Mi'), es('100Mi'))), limitRange: createLimitRange(C, es('50Mi'), none) },
  { pod: validPod('ctr-1-max-local-ephemeral-storage-request-limit', 1, rr(es('250Mi'), es('500Mi'))), limitRange: createLimitRange(C, none, es('1Gi')) },
  { pod: validPod('ctr-1-max-local-ephemeral-storage-limit', 1, rr(es(), es('500Mi'))), limitRange: createLimitRange(C, none, es('1Gi')) },
  { pod: validPod('ctr-2-min-local-ephemeral-storage-request', 2, rr(es('60Mi'), es())), limitRange: createLimitRange(C, es('50Mi'), none) },
  { pod: validPod('ctr-2-min-local-ephemeral-storage-request-limit', 2, rr(es('60Mi'), es('100Mi'))), limitRange: createLimitRange(C, es('50Mi'), none) },
  { pod: validPod('ctr-2-max-local-ephemeral-storage-request-limit', 2, rr(es('250Mi'), es('500Mi'))), limitRange: createLimitRange(C, none, es('600Mi')) },
  { pod: validPod('ctr-2-max-local-ephemeral-storage-limit', 2, rr(es(), es('500Mi'))), limitRange: createLimitRange(C, none, es('600Mi')) },
  { pod: validPod('pod-min-local-ephemeral-storage-request', 2, rr(es('60Mi'), es())), limitRange: createLimitRange(P, es('100Mi'), none) },
  { pod: validPod('pod-min-local-ephemeral-storage-request-limit', 2, rr(es('60Mi'), es('100Mi'))), limitRange: createLimitRange(P, es('100Mi'), none) },
  {
    pod: validPodInit(validPod('pod-init-min-local-ephemeral-storage-request', 2, rr(es('60Mi'), es())), rr(es('100Mi'), es())),
    limitRange: createLimitRange(P, es('100Mi'), none),
  },
  {
    pod: validPodInit(validPod('pod-init-min-local-ephemeral-storage-request-limit', 2, rr(es('60Mi'), es('100Mi'))), rr(es('80Mi'), es('100Mi'))),
    limitRange: createLimitRange(P, es('100Mi'), none),
  },
  { pod: validPod('pod-max-local-ephemeral-storage-request-limit', 2, rr(es('250Mi'), es('500Mi'))), limitRange: createLimitRange(P, none, es('1Gi')) },
  { pod: validPod('pod-max-local-ephemeral-storage-limit', 2, rr(es(), es('500Mi'))), limitRange: createLimitRange(P, none, es('1Gi')) },
  { pod: validPod('pod-max-local-ephemeral-storage-ratio', 3, rr(es('300Mi'), es('450Mi'))), limitRange: createLimitRange(P, none, es('2Gi'), none, none, es('1.5')) },
];

describe('limitRangeViolations: admission_test.go TestPodLimitFunc success cases', () => {
  for (const row of successCases) {
    it(row.pod.metadata.name!, () => assert.deepEqual(limitRangeViolations(row.pod, row.limitRange), []));
  }
});

const errorCases: (LimitRow & { want: string[] })[] = [
  { pod: validPod('ctr-min-cpu-request', 1, rr(cm('40m'), cm())), limitRange: createLimitRange(C, cm('50m'), none), want: ['minimum cpu usage per Container is 50m, but request is 40m'] },
  { pod: validPod('ctr-min-cpu-request-limit', 1, rr(cm('40m'), cm('200m'))), limitRange: createLimitRange(C, cm('50m'), none), want: ['minimum cpu usage per Container is 50m, but request is 40m'] },
  { pod: validPod('ctr-min-cpu-no-request-limit', 1, rr(cm(), cm())), limitRange: createLimitRange(C, cm('50m'), none), want: ['minimum cpu usage per Container is 50m.  No request is specified'] },
  { pod: validPod('ctr-min-memory-request', 1, rr(cm('', '40Mi'), cm())), limitRange: createLimitRange(C, cm('', '50Mi'), none), want: ['minimum memory usage per Container is 50Mi, but request is 40Mi'] },
  {
    pod: validPod('ctr-min-memory-request-limit', 1, rr(cm('', '40Mi'), cm('', '100Mi'))),
    limitRange: createLimitRange(C, cm('', '50Mi'), none),
    want: ['minimum memory usage per Container is 50Mi, but request is 40Mi'],
  },
  { pod: validPod('ctr-min-memory-no-request-limit', 1, rr(cm(), cm())), limitRange: createLimitRange(C, cm('', '50Mi'), none), want: ['minimum memory usage per Container is 50Mi.  No request is specified'] },
  { pod: validPod('ctr-max-cpu-request-limit', 1, rr(cm('500m'), cm('2500m'))), limitRange: createLimitRange(C, none, cm('2')), want: ['maximum cpu usage per Container is 2, but limit is 2500m'] },
  { pod: validPod('ctr-max-cpu-limit', 1, rr(cm(), cm('2500m'))), limitRange: createLimitRange(C, none, cm('2')), want: ['maximum cpu usage per Container is 2, but limit is 2500m'] },
  { pod: validPod('ctr-max-cpu-no-request-limit', 1, rr(cm(), cm())), limitRange: createLimitRange(C, none, cm('2')), want: ['maximum cpu usage per Container is 2.  No limit is specified'] },
  {
    pod: validPod('ctr-max-cpu-ratio', 1, rr(cm('1250m'), cm('2500m'))),
    limitRange: createLimitRange(C, none, none, none, none, cm('1')),
    want: ['cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000'],
  },
  { pod: validPod('ctr-max-mem-request-limit', 1, rr(cm('', '250Mi'), cm('', '2Gi'))), limitRange: createLimitRange(C, none, cm('', '1Gi')), want: ['maximum memory usage per Container is 1Gi, but limit is 2Gi'] },
  { pod: validPod('ctr-max-mem-limit', 1, rr(cm(), cm('', '2Gi'))), limitRange: createLimitRange(C, none, cm('', '1Gi')), want: ['maximum memory usage per Container is 1Gi, but limit is 2Gi'] },
  { pod: validPod('ctr-max-mem-no-request-limit', 1, rr(cm(), cm())), limitRange: createLimitRange(C, none, cm('', '1Gi')), want: ['maximum memory usage per Container is 1Gi.  No limit is specified'] },
  { pod: validPod('pod-min-cpu-request', 1, rr(cm('75m'), cm())), limitRange: createLimitRange(P, cm('100m'), none), want: ['minimum cpu usage per Pod is 100m, but request is 75m'] },
  { pod: validPod('pod-min-cpu-request-limit', 1, rr(cm('75m'), cm('200m'))), limitRange: createLimitRange(P, cm('100m'), none), want: ['minimum cpu usage per Pod is 100m, but request is 75m'] },
  { pod: validPod('pod-min-memory-request', 1, rr(cm('', '60Mi'), cm())), limitRange: createLimitRange(P, cm('', '100Mi'), none), want: ['minimum memory usage per Pod is 100Mi, but request is 60Mi'] },
  {
    pod: validPod('pod-min-memory-request-limit', 1, rr(cm('', '60Mi'), cm('', '100Mi'))),
    limitRange: createLimitRange(P, cm('', '100Mi'), none),
    want: ['minimum memory usage per Pod is 100Mi, but request is 60Mi'],
  },
  { pod: validPod('pod-max-cpu-request-limit', 3, rr(cm('500m'), cm('1'))), limitRange: createLimitRange(P, none, cm('2')), want: ['maximum cpu usage per Pod is 2, but limit is 3'] },
  { pod: validPod('pod-max-cpu-limit', 3, rr(cm(), cm('1'))), limitRange: createLimitRange(P, none, cm('2')), want: ['maximum cpu usage per Pod is 2, but limit is 3'] },
  {
    pod: validPod('pod-max-mem-request-limit', 3, rr(cm('', '250Mi'), cm('', '500Mi'))),
    limitRange: createLimitRange(P, none, cm('', '1Gi')),
    want: ['maximum memory usage per Pod is 1Gi, but limit is 1500Mi'],
  },
  { pod: validPod('pod-max-mem-limit', 3, rr(cm(), cm('', '500Mi'))), limitRange: createLimitRange(P, none, cm('', '1Gi')), want: ['maximum memory usage per Pod is 1Gi, but limit is 1500Mi'] },
  {
    pod: validPodInit(validPod('pod-init-max-mem-limit', 1, rr(cm(), cm('', '500Mi'))), rr(cm(), cm('', '1.5Gi'))),
    limitRange: createLimitRange(P, none, cm('', '1Gi')),
    want: ['maximum memory usage per Pod is 1Gi, but limit is 1536Mi'],
  },
  {
    pod: validPod('pod-max-mem-ratio', 3, rr(cm('', '250Mi'), cm('', '500Mi'))),
    limitRange: createLimitRange(P, none, cm('', '2Gi'), none, none, cm('', '1.5')),
    want: ['memory max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000'],
  },
  {
    pod: validPod('ctr-1-min-local-ephemeral-storage-request', 1, rr(es('40Mi'), es())),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: ['minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi'],
  },
  {
    pod: validPod('ctr-1-min-local-ephemeral-storage-request-limit', 1, rr(es('40Mi'), es('100Mi'))),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: ['minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi'],
  },
  {
    pod: validPod('ctr-1-min-local-ephemeral-storage-no-request-limit', 1, rr(es(), es())),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: ['minimum ephemeral-storage usage per Container is 50Mi.  No request is specified'],
  },
  {
    pod: validPod('ctr-1-max-local-ephemeral-storage-request-limit', 1, rr(es('250Mi'), es('2Gi'))),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi'],
  },
  {
    pod: validPod('ctr-1-max-local-ephemeral-storage-limit', 1, rr(es(), es('2Gi'))),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi'],
  },
  {
    pod: validPod('ctr-1-max-local-ephemeral-storage-no-request-limit', 1, rr(es(), es())),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified'],
  },
  {
    pod: validPod('ctr-2-min-local-ephemeral-storage-request', 2, rr(es('40Mi'), es())),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: Array(2).fill('minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi'),
  },
  {
    pod: validPod('ctr-2-min-local-ephemeral-storage-request-limit', 2, rr(es('40Mi'), es('100Mi'))),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: Array(2).fill('minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi'),
  },
  {
    pod: validPod('ctr-2-min-local-ephemeral-storage-no-request-limit', 2, rr(es(), es())),
    limitRange: createLimitRange(C, es('50Mi'), none),
    want: Array(2).fill('minimum ephemeral-storage usage per Container is 50Mi.  No request is specified'),
  },
  {
    pod: validPod('ctr-2-max-local-ephemeral-storage-request-limit', 2, rr(es('250Mi'), es('2Gi'))),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: Array(2).fill('maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi'),
  },
  {
    pod: validPod('ctr-2-max-local-ephemeral-storage-limit', 2, rr(es(), es('2Gi'))),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: Array(2).fill('maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi'),
  },
  {
    pod: validPod('ctr-2-max-local-ephemeral-storage-no-request-limit', 2, rr(es(), es())),
    limitRange: createLimitRange(C, none, es('1Gi')),
    want: Array(2).fill('maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified'),
  },
  {
    pod: validPod('pod-min-local-ephemeral-storage-request', 1, rr(es('60Mi'), es())),
    limitRange: createLimitRange(P, es('100Mi'), none),
    want: ['minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi'],
  },
  {
    pod: validPod('pod-min-local-ephemeral-storage-request-limit', 1, rr(es('60Mi'), es('100Mi'))),
    limitRange: createLimitRange(P, es('100Mi'), none),
    want: ['minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi'],
  },
  {
    pod: validPod('pod-max-local-ephemeral-storage-request-limit', 3, rr(es('250Mi'), es('500Mi'))),
    limitRange: createLimitRange(P, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi'],
  },
  {
    pod: validPod('pod-max-local-ephemeral-storage-limit', 3, rr(es(), es('500Mi'))),
    limitRange: createLimitRange(P, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi'],
  },
  {
    pod: validPodInit(validPod('pod-init-max-local-ephemeral-storage-limit', 1, rr(es(), es('500Mi'))), rr(es(), es('1.5Gi'))),
    limitRange: createLimitRange(P, none, es('1Gi')),
    want: ['maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1536Mi'],
  },
  {
    pod: validPod('pod-max-local-ephemeral-storage-ratio', 3, rr(es('250Mi'), es('500Mi'))),
    limitRange: createLimitRange(P, none, es('2Gi'), none, none, es('1.5')),
    want: ['ephemeral-storage max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000'],
  },
  {
    pod: withRestartableInitContainer(cm('1500m'), none, validPod('ctr-max-cpu-limit-restartable-init-container', 1, rr(cm('1000m'), cm('1500m')))),
    limitRange: createLimitRange(P, none, cm('2')),
    want: ['maximum cpu usage per Pod is 2, but request is 2500m'],
  },
];

describe('limitRangeViolations: admission_test.go TestPodLimitFunc error cases', () => {
  for (const row of errorCases) {
    it(row.pod.metadata.name!, () => assert.deepEqual(limitRangeViolations(row.pod, row.limitRange), row.want));
  }
});

describe('limitRangeViolations: admission_test.go TestLimitRangerAdmitPod', () => {
  it('a pod without resources against validLimitRangeNoDefaults (upstream fixture, no API defaulting) is refused', () => {
    const pod = validPod('testPod', 1, {});
    const got = limitRangeViolations(pod, validLimitRangeNoDefaults());
    // Upstream builds these from Go map iteration (order unspecified); compare as a set.
    assert.deepEqual([...got].sort(), [
      'maximum cpu usage per Container is 100m.  No limit is specified',
      'maximum cpu usage per Pod is 200m.  No limit is specified',
      'maximum memory usage per Container is 2Gi.  No limit is specified',
      'maximum memory usage per Pod is 4Gi.  No limit is specified',
      'minimum cpu usage per Container is 25m.  No request is specified',
      'minimum cpu usage per Pod is 50m.  No request is specified',
      'minimum memory usage per Container is 1Mi.  No request is specified',
      'minimum memory usage per Pod is 2Mi.  No request is specified',
    ]);
    assert.equal(aggregateMessages(got).startsWith('['), true);
  });

  it('through admission the stored LimitRange carries defaults (default <- max), so the same pod is admitted', () => {
    const out = applyLimitRangeDefaults(validPod('testPod', 1, {}), [validLimitRangeNoDefaults()]);
    assert.deepEqual(out.spec.containers[0]!.resources, rr(cm('100m', '2Gi'), cm('100m', '2Gi')));
    assert.deepEqual(limitRangeViolations(out, validLimitRangeNoDefaults()), []);
  });
});

describe('limitRangeViolations: message rules', () => {
  it('ratio with no request: "no request is specified or request is 0"', () => {
    const got = limitRangeViolations(validPod('p', 1, rr(cm(), cm('1'))), createLimitRange(C, none, none, none, none, cm('2')));
    assert.deepEqual(got, ['cpu max limit to request ratio per Container is 2, but no request is specified or request is 0']);
  });
  it('ratio with a zero request is the same message', () => {
    const got = limitRangeViolations(validPod('p', 1, rr(cm('0'), cm('1'))), createLimitRange(C, none, none, none, none, cm('2')));
    assert.deepEqual(got, ['cpu max limit to request ratio per Container is 2, but no request is specified or request is 0']);
  });
  it('ratio with no limit: "no limit is specified or limit is 0"', () => {
    const got = limitRangeViolations(validPod('p', 1, rr(cm('1'), cm())), createLimitRange(C, none, none, none, none, cm('2')));
    assert.deepEqual(got, ['cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0']);
  });
  it('ratio is printed with six decimals (1/3 -> 3.000000, 5/3 -> 1.666667)', () => {
    assert.deepEqual(limitRangeViolations(validPod('p', 1, rr(cm('300m'), cm('900m'))), createLimitRange(C, none, none, none, none, cm('2'))), [
      'cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000',
    ]);
    assert.deepEqual(limitRangeViolations(validPod('p', 1, rr(cm('300m'), cm('500m'))), createLimitRange(C, none, none, none, none, cm('1.5'))), [
      'cpu max limit to request ratio per Container is 1500m, but provided ratio is 1.666667',
    ]);
  });
  it('min: a limit below the minimum is reported after the request check', () => {
    const got = limitRangeViolations(validPod('p', 1, rr(cm('100m'), cm('40m'))), createLimitRange(C, cm('50m'), none));
    assert.deepEqual(got, ['minimum cpu usage per Container is 50m, but limit is 40m']);
  });
  it('max: a request above the maximum is reported when the limit is within it', () => {
    const got = limitRangeViolations(validPod('p', 1, rr(cm('3'), cm('1'))), createLimitRange(C, none, cm('2')));
    assert.deepEqual(got, ['maximum cpu usage per Container is 2, but request is 3']);
  });
  it('equal to min and max is allowed', () => {
    assert.deepEqual(limitRangeViolations(validPod('p', 1, rr(cm('2'), cm('2'))), createLimitRange(C, cm('2'), cm('2'))), []);
  });
  it('init containers are checked per Container', () => {
    const pod = validPodInit(validPod('p', 1, rr(cm('1'), cm('1'))), rr(cm('10m'), cm('1')));
    assert.deepEqual(limitRangeViolations(pod, createLimitRange(C, cm('50m'), none)), ['minimum cpu usage per Container is 50m, but request is 10m']);
  });
  it('Pod items use the init/sidecar aggregate (max of sums), not the plain sum', () => {
    const pod = validPodInit(validPod('p', 2, rr(cm('500m'), cm('500m'))), rr(cm('1500m'), cm('1500m')));
    assert.deepEqual(limitRangeViolations(pod, createLimitRange(P, none, cm('1500m'))), []);
    assert.deepEqual(limitRangeViolations(pod, createLimitRange(P, none, cm('1'))), ['maximum cpu usage per Pod is 1, but limit is 1500m']);
  });
});

describe('aggregateMessages: utilerrors.NewAggregate(...).Error()', () => {
  it('one message prints bare', () => assert.equal(aggregateMessages(['a']), 'a'));
  it('duplicates are dropped, leaving one bare message', () => assert.equal(aggregateMessages(['a', 'a']), 'a'));
  it('several print in brackets, comma-separated, in order', () => assert.equal(aggregateMessages(['b', 'a', 'b']), '[b, a]'));
});

// LimitRanger.runLimitFunc (plugin/pkg/admission/limitranger/admission.go): the namespace's
// LimitRanges are validated in list order and the first one that fails ends the request with
// admission.NewForbidden(a, <that range's aggregate>); a later range is never reported, even
// when it fails too.
describe('limitRangesViolation: runLimitFunc, first failing LimitRange only', () => {
  const named = (name: string, lr: LimitRange): LimitRange => ({ ...lr, metadata: { ...lr.metadata, name } });
  const maxCpu = named('max-cpu', createLimitRange(C, none, cm('2')));
  const minMem = named('min-mem', createLimitRange(C, cm('', '100Mi'), none));
  const allowsAll = named('allows-all', createLimitRange(C, none, cm('10', '10Gi')));
  const pod = validPod('p', 1, rr(cm('500m', '50Mi'), cm('3', '1Gi')));
  const rows: { name: string; ranges: LimitRange[]; want: string | undefined }[] = [
    { name: 'no LimitRanges: allowed', ranges: [], want: undefined },
    { name: 'every range allows the pod', ranges: [allowsAll], want: undefined },
    { name: 'one failing range: its message', ranges: [allowsAll, maxCpu], want: 'maximum cpu usage per Container is 2, but limit is 3' },
    { name: 'two failing ranges: only the first in list order is reported (max-cpu first)', ranges: [maxCpu, minMem], want: 'maximum cpu usage per Container is 2, but limit is 3' },
    { name: 'two failing ranges: only the first in list order is reported (min-mem first)', ranges: [minMem, maxCpu], want: 'minimum memory usage per Container is 100Mi, but request is 50Mi' },
    {
      name: 'several violations of one range print as that range\'s aggregate',
      ranges: [named('both', { ...maxCpu, spec: { limits: [{ type: C, max: cm('2'), min: cm('', '100Mi') }] } }), minMem],
      want: '[minimum memory usage per Container is 100Mi, but request is 50Mi, maximum cpu usage per Container is 2, but limit is 3]',
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.equal(limitRangesViolation(pod, row.ranges), row.want));
  }
});
