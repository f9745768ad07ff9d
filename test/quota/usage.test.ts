// What one pod charges against a quota (src/quota/usage.ts, resourcenames.ts).
//
// Rows ported from kubernetes/kubernetes pkg/quota/v1/evaluator/core/pods_test.go
// (TestPodEvaluatorUsage, TestPodConstraintsFunc is in admission.test.ts), plus rows pinning
// reference quota-validation-eviction.md §1 (usage keys, chargeability, init/sidecar math,
// overhead, pod-level resources, tracked names) and §7.1.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, ResourceList } from '../../src/api/types.js';
import { parseResourceList } from '../../src/api/resourcelist.js';
import { computeUsage, isChargeable, podUsage } from '../../src/quota/usage.js';
import { isExtendedResourceName } from '../../src/api/extendedresources.js';
import { isExtendedResourceNameForQuota, podMatchingResources } from '../../src/quota/resourcenames.js';
import { NOW, canon, cm, ctr, es, mkPod, optsOff, optsOn, render, sidecar } from './fixtures.js';

interface UsageRow {
  name: string;
  pod: Pod;
  usage: Record<string, string>;
  podLevelResources?: boolean;
}

const graceSeconds = 30;
const deletionPastGrace = new Date(NOW.getTime() - graceSeconds * 1000 * 2).toISOString();
const deletionNotPastGrace = NOW.toISOString();

function one(requests?: ResourceList, limits?: ResourceList) {
  return [ctr('', requests, limits)];
}

// pods_test.go TestPodEvaluatorUsage, one row per upstream case (same names).
const upstreamUsageRows: UsageRow[] = [
  {
    name: 'init container CPU',
    pod: mkPod('p', { initContainers: one({ cpu: '1m' }, { cpu: '2m' }) }),
    usage: { 'requests.cpu': '1m', 'limits.cpu': '2m', pods: '1', cpu: '1m', 'count/pods': '1' },
  },
  {
    name: 'init container MEM',
    pod: mkPod('p', { initContainers: one({ memory: '1m' }, { memory: '2m' }) }),
    usage: { 'requests.memory': '1m', 'limits.memory': '2m', pods: '1', memory: '1m', 'count/pods': '1' },
  },
  {
    name: 'init container local ephemeral storage',
    pod: mkPod('p', { initContainers: one(es('32Mi'), es('64Mi')) }),
    usage: { 'ephemeral-storage': '32Mi', 'requests.ephemeral-storage': '32Mi', 'limits.ephemeral-storage': '64Mi', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'init container hugepages',
    pod: mkPod('p', { initContainers: one({ 'hugepages-2Mi': '100Mi' }) }),
    usage: { 'hugepages-2Mi': '100Mi', 'requests.hugepages-2Mi': '100Mi', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'init container extended resources',
    pod: mkPod('p', { initContainers: one({ 'example.com/dongle': '3' }, { 'example.com/dongle': '3' }) }),
    usage: { 'requests.example.com/dongle': '3', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'init container implicit extended resources',
    pod: mkPod('p', {
      initContainers: one({ 'deviceclass.resource.kubernetes.io/dongle': '3' }, { 'deviceclass.resource.kubernetes.io/dongle': '3' }),
    }),
    usage: { 'requests.deviceclass.resource.kubernetes.io/dongle': '3', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'container CPU',
    pod: mkPod('p', { containers: one({ cpu: '1m' }, { cpu: '2m' }) }),
    usage: { 'requests.cpu': '1m', 'limits.cpu': '2m', pods: '1', cpu: '1m', 'count/pods': '1' },
  },
  {
    name: 'container MEM',
    pod: mkPod('p', { containers: one({ memory: '1m' }, { memory: '2m' }) }),
    usage: { 'requests.memory': '1m', 'limits.memory': '2m', pods: '1', memory: '1m', 'count/pods': '1' },
  },
  {
    name: 'container local ephemeral storage',
    pod: mkPod('p', { containers: one(es('32Mi'), es('64Mi')) }),
    usage: { 'ephemeral-storage': '32Mi', 'requests.ephemeral-storage': '32Mi', 'limits.ephemeral-storage': '64Mi', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'container hugepages',
    pod: mkPod('p', { containers: one({ 'hugepages-2Mi': '100Mi' }) }),
    usage: { 'hugepages-2Mi': '100Mi', 'requests.hugepages-2Mi': '100Mi', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'container extended resources',
    pod: mkPod('p', { containers: one({ 'example.com/dongle': '3' }, { 'example.com/dongle': '3' }) }),
    usage: { 'requests.example.com/dongle': '3', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'container implicit extended resources',
    pod: mkPod('p', {
      containers: one({ 'deviceclass.resource.kubernetes.io/dongle': '3' }, { 'deviceclass.resource.kubernetes.io/dongle': '3' }),
    }),
    usage: { 'requests.deviceclass.resource.kubernetes.io/dongle': '3', pods: '1', 'count/pods': '1' },
  },
  {
    name: 'terminated generic count still appears',
    pod: mkPod('p', { containers: one({ 'example.com/dongle': '3' }, { 'example.com/dongle': '3' }) }, { status: { phase: 'Succeeded' } }),
    usage: { 'count/pods': '1' },
  },
  {
    name: 'init container maximums override sum of containers',
    pod: mkPod('p', {
      initContainers: [
        ctr('', { cpu: '4', memory: '100M', 'example.com/dongle': '4' }, { cpu: '8', memory: '200M', 'example.com/dongle': '4' }),
        ctr('', { cpu: '1', memory: '50M', 'example.com/dongle': '2' }, { cpu: '2', memory: '100M', 'example.com/dongle': '2' }),
      ],
      containers: [
        ctr('', { cpu: '1', memory: '50M', 'example.com/dongle': '1' }, { cpu: '2', memory: '100M', 'example.com/dongle': '1' }),
        ctr('', { cpu: '2', memory: '25M', 'example.com/dongle': '2' }, { cpu: '5', memory: '50M', 'example.com/dongle': '2' }),
      ],
    }),
    usage: {
      'requests.cpu': '4',
      'requests.memory': '100M',
      'limits.cpu': '8',
      'limits.memory': '200M',
      pods: '1',
      cpu: '4',
      memory: '100M',
      'requests.example.com/dongle': '4',
      'count/pods': '1',
    },
  },
  {
    name: 'pod deletion timestamp exceeded',
    pod: mkPod(
      'p',
      { terminationGracePeriodSeconds: graceSeconds, containers: one(cm('1', '50M'), cm('2', '100M')) },
      { metadata: { deletionTimestamp: deletionPastGrace, deletionGracePeriodSeconds: graceSeconds }, status: { reason: 'NodeLost' } },
    ),
    usage: { 'count/pods': '1' },
  },
  {
    name: 'pod deletion timestamp not exceeded',
    pod: mkPod(
      'p',
      { containers: one(cm('1'), cm('2')) },
      { metadata: { deletionTimestamp: deletionNotPastGrace, deletionGracePeriodSeconds: graceSeconds }, status: { reason: 'NodeLost' } },
    ),
    usage: { 'requests.cpu': '1', 'limits.cpu': '2', pods: '1', cpu: '1', 'count/pods': '1' },
  },
  {
    name: 'count pod overhead as usage',
    pod: mkPod('p', { overhead: { cpu: '1' }, containers: one(cm('1'), cm('2')) }),
    usage: { 'requests.cpu': '2', 'limits.cpu': '3', pods: '1', cpu: '2', 'count/pods': '1' },
  },
  {
    name: 'pod-level CPU',
    podLevelResources: true,
    pod: mkPod('p', { resources: { requests: { cpu: '1m' }, limits: { cpu: '2m' } } }),
    usage: { 'requests.cpu': '1m', 'limits.cpu': '2m', pods: '1', cpu: '1m', 'count/pods': '1' },
  },
  {
    name: 'pod-level Memory',
    podLevelResources: true,
    pod: mkPod('p', { resources: { requests: { memory: '1Mi' }, limits: { memory: '2Mi' } } }),
    usage: { 'requests.memory': '1Mi', 'limits.memory': '2Mi', pods: '1', memory: '1Mi', 'count/pods': '1' },
  },
  {
    name: 'pod-level memory with container-level ephemeral storage',
    podLevelResources: true,
    pod: mkPod('p', {
      resources: { requests: { memory: '1Mi' }, limits: { memory: '2Mi' } },
      containers: one(es('32Mi'), es('64Mi')),
    }),
    usage: {
      'ephemeral-storage': '32Mi',
      'requests.ephemeral-storage': '32Mi',
      'limits.ephemeral-storage': '64Mi',
      pods: '1',
      'requests.memory': '1Mi',
      'limits.memory': '2Mi',
      memory: '1Mi',
      'count/pods': '1',
    },
  },
];

describe('podUsage: pods_test.go TestPodEvaluatorUsage', () => {
  for (const row of upstreamUsageRows) {
    it(row.name, () => {
      const opts = row.podLevelResources ? optsOn : optsOff;
      assert.deepEqual(render(podUsage(row.pod, opts)), canon(row.usage));
    });
  }
});

// pods_test.go TestPodEvaluatorUsageResourceResize, its usageFgDisabled column: Bulkhead has no
// InPlacePodVerticalScaling gate and charges spec only, so status.containerStatuses[].resources
// never count. (With the gate on, upstream charges max(spec, status) per resource: the CPU rows
// would charge 150m. Not modelled; see the quota audit report.)
const resizeStatus = (requests?: ResourceList) => ({
  containerStatuses: [{ name: '', ready: false, restartCount: 0, image: '', imageID: '', ...(requests ? { resources: { requests } } : {}) }],
});
const resizeRows: UsageRow[] = [
  {
    name: 'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for memory resource',
    pod: mkPod('', { containers: one(cm('', '200Mi'), cm('', '400Mi')) }, { status: resizeStatus(cm('', '150Mi')) }),
    usage: { 'requests.memory': '200Mi', 'limits.memory': '400Mi', pods: '1', memory: '200Mi', 'count/pods': '1' },
  },
  {
    name: 'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for CPU resource (gate off)',
    pod: mkPod('', { containers: one(cm('100m'), cm('200m')) }, { status: resizeStatus(cm('150m')) }),
    usage: { 'requests.cpu': '100m', 'limits.cpu': '200m', pods: '1', cpu: '100m', 'count/pods': '1' },
  },
  {
    name: 'verify Max(Container.Spec.Requests, ContainerStatus.Resources) for CPU and memory resource (gate off)',
    pod: mkPod('', { containers: one(cm('100m', '200Mi'), cm('200m', '400Mi')) }, { status: resizeStatus(cm('150m', '250Mi')) }),
    usage: {
      'requests.cpu': '100m',
      'limits.cpu': '200m',
      'requests.memory': '200Mi',
      'limits.memory': '400Mi',
      pods: '1',
      cpu: '100m',
      memory: '200Mi',
      'count/pods': '1',
    },
  },
  {
    name: 'verify Max(Container.Spec.Requests, ContainerStatus.Resources==nil) for CPU and memory resource',
    pod: mkPod('', { containers: one(cm('100m', '200Mi'), cm('200m', '400Mi')) }, { status: resizeStatus() }),
    usage: {
      'requests.cpu': '100m',
      'limits.cpu': '200m',
      'requests.memory': '200Mi',
      'limits.memory': '400Mi',
      pods: '1',
      cpu: '100m',
      memory: '200Mi',
      'count/pods': '1',
    },
  },
];

describe('podUsage: pods_test.go TestPodEvaluatorUsageResourceResize (InPlacePodVerticalScaling off)', () => {
  for (const row of resizeRows) {
    it(row.name, () => assert.deepEqual(render(podUsage(row.pod, optsOff)), canon(row.usage)));
  }
});

// Reference §1.2 / §1.3 / §7.1: rules the upstream table does not pin on its own.
const referenceUsageRows: UsageRow[] = [
  {
    name: 'cpu and requests.cpu are the same number (bare name means request)',
    pod: mkPod('p', { containers: [ctr('a', cm('250m', '64Mi'), cm('500m', '128Mi'))] }),
    usage: {
      'count/pods': '1',
      pods: '1',
      cpu: '250m',
      'requests.cpu': '250m',
      'limits.cpu': '500m',
      memory: '64Mi',
      'requests.memory': '64Mi',
      'limits.memory': '128Mi',
    },
  },
  {
    name: 'best-effort pod charges only pods and count/pods',
    pod: mkPod('p', { containers: [ctr('a')] }),
    usage: { 'count/pods': '1', pods: '1' },
  },
  {
    name: 'Failed pod charges count/pods only (pods is released)',
    pod: mkPod('p', { containers: [ctr('a', cm('1', '1Gi'))] }, { status: { phase: 'Failed' } }),
    usage: { 'count/pods': '1' },
  },
  {
    name: 'zero-valued request is still emitted',
    pod: mkPod('p', { containers: [ctr('a', cm('0'))] }),
    usage: { 'count/pods': '1', pods: '1', cpu: '0', 'requests.cpu': '0' },
  },
  {
    name: 'hugepage and extended limits are never charged',
    pod: mkPod('p', {
      containers: [ctr('a', { 'hugepages-2Mi': '4Mi', 'nvidia.com/gpu': '1', cpu: '1' }, { 'hugepages-2Mi': '4Mi', 'nvidia.com/gpu': '1', cpu: '1' })],
    }),
    usage: {
      'count/pods': '1',
      pods: '1',
      cpu: '1',
      'requests.cpu': '1',
      'limits.cpu': '1',
      'hugepages-2Mi': '4Mi',
      'requests.hugepages-2Mi': '4Mi',
      'requests.nvidia.com/gpu': '1',
    },
  },
  {
    name: 'limits are summed only over containers that set them',
    pod: mkPod('p', { containers: [ctr('a', cm('100m'), cm('1')), ctr('b', cm('100m'))] }),
    usage: { 'count/pods': '1', pods: '1', cpu: '200m', 'requests.cpu': '200m', 'limits.cpu': '1' },
  },
  {
    name: 'sidecars: init 5 then sidecars 1,2,3 and regular 1 charge 7',
    pod: mkPod('p', {
      initContainers: [ctr('i', cm('5')), sidecar('s1', cm('1')), sidecar('s2', cm('2')), sidecar('s3', cm('3'))],
      containers: [ctr('r', cm('1'))],
    }),
    usage: { 'count/pods': '1', pods: '1', cpu: '7', 'requests.cpu': '7' },
  },
  {
    name: 'sidecars: init 5, sidecar 1, sidecar 2, init 5, sidecar 3, regular 1 charge 8 (init peak includes earlier sidecars)',
    pod: mkPod('p', {
      initContainers: [ctr('i1', cm('5')), sidecar('s1', cm('1')), sidecar('s2', cm('2')), ctr('i2', cm('5')), sidecar('s3', cm('3'))],
      containers: [ctr('r', cm('1'))],
    }),
    usage: { 'count/pods': '1', pods: '1', cpu: '8', 'requests.cpu': '8' },
  },
  {
    name: 'sidecars: sidecar 10, init 200, regular 100 charge 210',
    pod: mkPod('p', { initContainers: [sidecar('s', cm('10')), ctr('i', cm('200'))], containers: [ctr('r', cm('100'))] }),
    usage: { 'count/pods': '1', pods: '1', cpu: '210', 'requests.cpu': '210' },
  },
  {
    name: 'overhead is added to requests even when no container requested it',
    pod: mkPod('p', { overhead: { cpu: '250m', memory: '120Mi' }, containers: [ctr('a')] }),
    usage: { 'count/pods': '1', pods: '1', cpu: '250m', 'requests.cpu': '250m', memory: '120Mi', 'requests.memory': '120Mi' },
  },
  {
    name: 'overhead is added to a limit only if that limit exists and is non-zero',
    pod: mkPod('p', { overhead: { cpu: '250m', memory: '120Mi' }, containers: [ctr('a', cm('1', '0'), cm('2', '0'))] }),
    usage: {
      'count/pods': '1',
      pods: '1',
      cpu: '1250m',
      'requests.cpu': '1250m',
      'limits.cpu': '2250m',
      memory: '120Mi',
      'requests.memory': '120Mi',
      'limits.memory': '0',
    },
  },
  {
    name: 'pod-level requests replace the container aggregate when the gate is on',
    podLevelResources: true,
    pod: mkPod('p', { resources: { requests: cm('2', '1Gi'), limits: cm('4', '2Gi') }, containers: [ctr('a', cm('100m', '64Mi'))] }),
    usage: {
      'count/pods': '1',
      pods: '1',
      cpu: '2',
      'requests.cpu': '2',
      'limits.cpu': '4',
      memory: '1Gi',
      'requests.memory': '1Gi',
      'limits.memory': '2Gi',
    },
  },
  {
    name: 'pod-level resources are ignored when the gate is off',
    podLevelResources: false,
    pod: mkPod('p', { resources: { requests: cm('2', '1Gi'), limits: cm('4', '2Gi') }, containers: [ctr('a', cm('100m', '64Mi'))] }),
    usage: { 'count/pods': '1', pods: '1', cpu: '100m', 'requests.cpu': '100m', memory: '64Mi', 'requests.memory': '64Mi' },
  },
  {
    name: 'no defaulting inside the evaluator: a limits-only pod charges no requests',
    pod: mkPod('p', { containers: [ctr('a', undefined, cm('1', '1Gi'))] }),
    usage: { 'count/pods': '1', pods: '1', 'limits.cpu': '1', 'limits.memory': '1Gi' },
  },
];

describe('podUsage: reference §1 rules', () => {
  for (const row of referenceUsageRows) {
    it(row.name, () => {
      const opts = row.podLevelResources ? optsOn : optsOff;
      assert.deepEqual(render(podUsage(row.pod, opts)), canon(row.usage));
    });
  }
});

describe('isChargeable: reference §1.2 step 2', () => {
  const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
  const rows: { name: string; meta?: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number }; phase?: string; want: boolean }[] = [
    { name: 'running pod is chargeable', phase: 'Running', want: true },
    { name: 'pending pod is chargeable', phase: 'Pending', want: true },
    { name: 'pod without status is chargeable', want: true },
    { name: 'Succeeded pod is not chargeable', phase: 'Succeeded', want: false },
    { name: 'Failed pod is not chargeable', phase: 'Failed', want: false },
    { name: 'deletionTimestamp without grace seconds stays chargeable', meta: { deletionTimestamp: at(-3_600_000) }, want: true },
    { name: 'grace seconds without deletionTimestamp stays chargeable', meta: { deletionGracePeriodSeconds: 0 }, want: true },
    { name: 'exactly at deletionTimestamp + grace is still chargeable', meta: { deletionTimestamp: at(-30_000), deletionGracePeriodSeconds: 30 }, want: true },
    { name: 'one second after deletionTimestamp + grace is not chargeable', meta: { deletionTimestamp: at(-31_000), deletionGracePeriodSeconds: 30 }, want: false },
    { name: 'zero grace: after the deletion time is not chargeable', meta: { deletionTimestamp: at(-1000), deletionGracePeriodSeconds: 0 }, want: false },
    { name: 'deletion in the future is chargeable', meta: { deletionTimestamp: at(60_000), deletionGracePeriodSeconds: 30 }, want: true },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const pod = mkPod('p', { containers: [ctr('a')] }, { metadata: row.meta ?? {}, ...(row.phase ? { status: { phase: row.phase } } : {}) });
      assert.equal(isChargeable(pod, NOW), row.want);
    });
  }
});

describe('computeUsage: podComputeUsageHelper keys', () => {
  it('pods=1 always, then bare+requests. for requests and limits. for limits', () => {
    const got = computeUsage(parseResourceList({ cpu: '1', 'ephemeral-storage': '1Gi' }), parseResourceList({ memory: '1Gi' }));
    assert.deepEqual(render(got), canon({ pods: '1', cpu: '1', 'requests.cpu': '1', 'ephemeral-storage': '1Gi', 'requests.ephemeral-storage': '1Gi', 'limits.memory': '1Gi' }));
  });
  it('a requests.-prefixed or kubernetes.io/ request name is not an extended resource', () => {
    const got = computeUsage(parseResourceList({ 'requests.example.com/x': '1', 'kubernetes.io/foo': '1' }), new Map());
    assert.deepEqual(render(got), canon({ pods: '1' }));
  });
});

describe('tracked resource names: reference §1.1 (MatchingResources)', () => {
  const rows: { name: string; key: string; tracked: boolean }[] = [
    { name: 'count/pods is tracked', key: 'count/pods', tracked: true },
    { name: 'pods is tracked', key: 'pods', tracked: true },
    { name: 'bare cpu is tracked', key: 'cpu', tracked: true },
    { name: 'bare memory is tracked', key: 'memory', tracked: true },
    { name: 'bare ephemeral-storage is tracked', key: 'ephemeral-storage', tracked: true },
    { name: 'requests.cpu is tracked', key: 'requests.cpu', tracked: true },
    { name: 'requests.memory is tracked', key: 'requests.memory', tracked: true },
    { name: 'requests.ephemeral-storage is tracked', key: 'requests.ephemeral-storage', tracked: true },
    { name: 'limits.cpu is tracked', key: 'limits.cpu', tracked: true },
    { name: 'limits.memory is tracked', key: 'limits.memory', tracked: true },
    { name: 'limits.ephemeral-storage is tracked', key: 'limits.ephemeral-storage', tracked: true },
    { name: 'hugepages-<size> prefix is tracked', key: 'hugepages-2Mi', tracked: true },
    { name: 'requests.hugepages-<size> prefix is tracked', key: 'requests.hugepages-1Gi', tracked: true },
    { name: 'requests.<extended> is tracked', key: 'requests.nvidia.com/gpu', tracked: true },
    { name: 'requests.deviceclass.resource.kubernetes.io/<class> (DRA implicit) is tracked', key: 'requests.deviceclass.resource.kubernetes.io/gpu', tracked: true },
    { name: 'bare extended name is never tracked', key: 'nvidia.com/gpu', tracked: false },
    { name: 'limits.<extended> is never tracked', key: 'limits.nvidia.com/gpu', tracked: false },
    { name: 'limits.hugepages-<size> is never tracked', key: 'limits.hugepages-2Mi', tracked: false },
    { name: 'requests.storage belongs to PVCs, not pods', key: 'requests.storage', tracked: false },
    { name: 'services is not a pod resource', key: 'services', tracked: false },
    { name: 'replicationcontrollers is not a pod resource', key: 'replicationcontrollers', tracked: false },
    { name: 'design-doc memory.limit is not a Kubernetes name', key: 'memory.limit', tracked: false },
    { name: 'design-doc cpu.limit is not a Kubernetes name', key: 'cpu.limit', tracked: false },
    { name: 'unknown qualified name is silently ignored', key: 'example.com/widgets', tracked: false },
    { name: 'requests.kubernetes.io/<x> is native, not extended', key: 'requests.kubernetes.io/foo', tracked: false },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(podMatchingResources([row.key]), row.tracked ? [row.key] : []);
    });
  }
  it('a quota with only untracked keys matches no key', () => {
    assert.deepEqual(podMatchingResources(['services', 'nvidia.com/gpu', 'limits.hugepages-2Mi']), []);
  });
  it('isExtendedResourceName: non-native, not requests.-prefixed, requests.<name> qualified', () => {
    assert.equal(isExtendedResourceName('example.com/dongle'), true);
    assert.equal(isExtendedResourceName('cpu'), false);
    assert.equal(isExtendedResourceName('kubernetes.io/dongle'), false);
    assert.equal(isExtendedResourceName('requests.example.com/dongle'), false);
    assert.equal(isExtendedResourceName('example.com/'), false);
  });
  it('isExtendedResourceNameForQuota: requests.<extended> only', () => {
    assert.equal(isExtendedResourceNameForQuota('requests.example.com/dongle'), true);
    assert.equal(isExtendedResourceNameForQuota('example.com/dongle'), false);
    assert.equal(isExtendedResourceNameForQuota('limits.example.com/dongle'), false);
    assert.equal(isExtendedResourceNameForQuota('requests.deviceclass.resource.kubernetes.io/gpu'), true);
  });
});
