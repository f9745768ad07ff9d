// The ResourceQuota admission decision (decideQuotas, quotaConstraints, applyCharges) and the
// quota controller's recomputation (computeQuotaStatus), src/quota/admission.ts.
//
// Rows ported from:
// * kubernetes/kubernetes pkg/quota/v1/evaluator/core/pods_test.go — TestPodConstraintsFunc,
//   TestPodEvaluatorUsageStats;
// * kubernetes/kubernetes plugin/pkg/admission/resourcequota/admission_test.go — every pod case
//   without the `limitedResources` admission configuration (those with it: limited.test.ts);
//   upstream only checks err != nil for most of them, the exact
//   messages here follow apiserver pkg/admission/plugin/resourcequota/controller.go
//   (checkRequest, prettyPrint, prettyPrintResourceNames);
// * kubernetes/kubernetes pkg/controller/resourcequota/resource_quota_controller_test.go —
//   TestSyncResourceQuota (pod cases);
// plus rows pinning reference quota-validation-eviction.md §3 and §6-§7, and a property test.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Quantity } from '../../src/api/quantity.js';
import type { Pod, ResourceList, ResourceQuota, ScopedResourceSelectorRequirement } from '../../src/api/types.js';
import {
  applyCharges,
  computeQuotaStatus,
  decideQuotas,
  quotaConstraints,
  type QuotaDecision,
} from '../../src/quota/admission.js';
import { podMatchingResources } from '../../src/quota/resourcenames.js';
import { cm, ctr, gatesOff, gatesOn, mkPod, mkQuota, optsOff, optsOn, quotaValidPod, sidecar } from './fixtures.js';

function expectRefused(d: QuotaDecision, message: string, quota?: string): void {
  assert.equal(d.allowed, false, `expected a refusal, got ${JSON.stringify(d)}`);
  if (d.allowed) return;
  assert.equal(d.message, message);
  assert.equal(d.quota, quota);
}

function expectAllowed(d: QuotaDecision, charges: { name: string; used: Record<string, string> }[]): void {
  assert.equal(d.allowed, true, `expected admission, got ${JSON.stringify(d)}`);
  if (!d.allowed) return;
  assert.deepEqual(
    d.charges.map((c) => ({ name: c.name, used: c.used })),
    charges,
  );
}

// ---------------------------------------------------------------------------------------------
// quotaConstraints

describe('quotaConstraints: pods_test.go TestPodConstraintsFunc', () => {
  const rows: { name: string; pod: Pod; required: string[]; want: string | undefined; podLevelResources?: boolean }[] = [
    {
      name: 'init container resource missing',
      pod: mkPod('p', { initContainers: [ctr('dummy', { cpu: '1m' }, { cpu: '2m' })] }),
      required: ['memory'],
      want: 'must specify memory for: dummy',
    },
    {
      name: 'multiple init container resource missing',
      pod: mkPod('p', { initContainers: [ctr('foo', { cpu: '1m' }, { cpu: '2m' }), ctr('bar', { cpu: '1m' }, { cpu: '2m' })] }),
      required: ['memory'],
      want: 'must specify memory for: bar,foo',
    },
    {
      name: 'container resource missing',
      pod: mkPod('p', { containers: [ctr('dummy', { cpu: '1m' }, { cpu: '2m' })] }),
      required: ['memory'],
      want: 'must specify memory for: dummy',
    },
    {
      name: 'multiple container resource missing',
      pod: mkPod('p', { containers: [ctr('foo', { cpu: '1m' }, { cpu: '2m' }), ctr('bar', { cpu: '1m' }, { cpu: '2m' })] }),
      required: ['memory'],
      want: 'must specify memory for: bar,foo',
    },
    {
      name: 'container resource missing multiple',
      pod: mkPod('p', { containers: [ctr('foo', {}, {}), ctr('bar', {}, {})] }),
      required: ['memory', 'cpu'],
      want: 'must specify cpu for: bar,foo; memory for: bar,foo',
    },
    {
      name: 'pod-level resource set, container-level required resources missing',
      pod: mkPod('p', { resources: { requests: { cpu: '1m' } }, containers: [ctr('foo', {}, {}), ctr('bar', {}, {})] }),
      required: ['memory', 'cpu'],
      podLevelResources: true,
      want: undefined,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(quotaConstraints(row.required, row.pod, row.podLevelResources ? gatesOn : gatesOff), row.want);
    });
  }
});

describe('quotaConstraints: reference §3.2 step 3 / §6.4', () => {
  const rows: { name: string; pod: Pod; required: string[]; want: string | undefined; gates?: typeof gatesOn }[] = [
    {
      name: 'pod-level resources set but the gate off: containers must still state them',
      pod: mkPod('p', { resources: { requests: { cpu: '1m' } }, containers: [ctr('foo', {}, {}), ctr('bar', {}, {})] }),
      required: ['memory', 'cpu'],
      gates: gatesOff,
      want: 'must specify cpu for: bar,foo; memory for: bar,foo',
    },
    {
      name: 'pod-level resources set and gate on, but only ephemeral-storage: not "set", check applies',
      pod: mkPod('p', { resources: { requests: { 'ephemeral-storage': '1Gi' } }, containers: [ctr('foo')] }),
      required: ['cpu'],
      gates: gatesOn,
      want: 'must specify cpu for: foo',
    },
    {
      name: 'requests.cpu needs a cpu request',
      pod: mkPod('p', { containers: [ctr('a', undefined, cm('1'))] }),
      required: ['requests.cpu'],
      want: 'must specify requests.cpu for: a',
    },
    {
      name: 'limits.cpu needs a cpu limit, a request is not enough',
      pod: mkPod('p', { containers: [ctr('a', cm('1'))] }),
      required: ['limits.cpu', 'cpu'],
      want: 'must specify limits.cpu for: a',
    },
    {
      name: 'keys outside cpu/memory never require anything',
      pod: mkPod('p', { containers: [ctr('a')] }),
      required: ['pods', 'count/pods', 'ephemeral-storage', 'requests.ephemeral-storage', 'hugepages-2Mi', 'requests.nvidia.com/gpu'],
      want: undefined,
    },
    {
      name: 'resources sorted, container names sorted and de-duplicated, groups joined by "; "',
      pod: mkPod('p', {
        initContainers: [ctr('i', undefined, cm('', '1Gi')), sidecar('a', undefined, cm('', '1Gi'))],
        containers: [ctr('b'), ctr('a', cm('1'))],
      }),
      required: ['requests.cpu', 'limits.memory'],
      want: 'must specify limits.memory for: a,b; requests.cpu for: a,b,i',
    },
    {
      name: 'a zero request still counts as specified',
      pod: mkPod('p', { containers: [ctr('a', cm('0', '0'))] }),
      required: ['cpu', 'memory'],
      want: undefined,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(quotaConstraints(row.required, row.pod, row.gates ?? gatesOff), row.want);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// decideQuotas: admission_test.go

const cpuMemPods = (cpu: string, memory: string, pods: string): ResourceList => ({ cpu, memory, pods });

describe('decideQuotas: admission_test.go (pod cases)', () => {
  it('TestAdmissionIgnoresSubresources: a create that exceeds memory is refused', () => {
    const q = mkQuota('quota', { hard: { memory: '2Gi' }, used: { memory: '1Gi' } });
    const pod = quotaValidPod('123', 1, cm('100m', '2Gi'), cm());
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: quota, requested: memory=2Gi, used: memory=1Gi, limited: memory=2Gi', 'quota');
  });

  it('TestAdmitBelowQuotaLimit: usage is charged (cpu 1100m, memory 52Gi, pods 4)', () => {
    const q = mkQuota('quota', { hard: cpuMemPods('3', '100Gi', '5'), used: cpuMemPods('1', '50Gi', '3') });
    const pod = quotaValidPod('allowed-pod', 1, cm('100m', '2Gi'), cm());
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'quota', used: cpuMemPods('1100m', '52Gi', '4') }]);
  });

  it('TestAdmitDryRun: too-large-pod (60Gi) is refused', () => {
    const q = mkQuota('quota', { hard: cpuMemPods('3', '100Gi', '5'), used: cpuMemPods('1', '50Gi', '3') });
    const pod = quotaValidPod('too-large-pod', 1, cm('100m', '60Gi'), cm());
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: quota, requested: memory=60Gi, used: memory=50Gi, limited: memory=100Gi', 'quota');
  });

  it('TestAdmitExceedQuotaLimit: cpu 1+3 > 3 is refused', () => {
    const q = mkQuota('quota', { hard: cpuMemPods('3', '100Gi', '5'), used: cpuMemPods('1', '50Gi', '3') });
    const pod = quotaValidPod('not-allowed-pod', 1, cm('3', '2Gi'), cm());
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3', 'quota');
  });

  it('TestAdmitEnforceQuotaConstraints: a limits.memory quota requires a memory limit (container has no name)', () => {
    const q = mkQuota('quota', {
      hard: { cpu: '3', memory: '100Gi', 'limits.memory': '200Gi', pods: '5' },
      used: { cpu: '1', memory: '50Gi', 'limits.memory': '100Gi', pods: '3' },
    });
    const pod = quotaValidPod('not-allowed-pod', 1, cm('100m', '2Gi'), cm('200m'));
    expectRefused(decideQuotas(pod, [q], optsOff), 'failed quota: quota: must specify limits.memory for: ', 'quota');
  });

  it('TestAdmitPodInNamespaceWithoutQuota: no quota in the namespace admits without charges', () => {
    const pod = quotaValidPod('allowed-pod', 1, cm('100m', '2Gi'), cm('200m'));
    expectAllowed(decideQuotas(pod, [], optsOff), []);
  });

  it('TestAdmitBelowTerminatingQuotaLimit: a terminating pod charges only the Terminating quota', () => {
    const nonTerminating = mkQuota('quota-non-terminating', { scopes: ['NotTerminating'], hard: cpuMemPods('3', '100Gi', '5'), used: cpuMemPods('1', '50Gi', '3') });
    const terminating = mkQuota('quota-terminating', { scopes: ['Terminating'], hard: cpuMemPods('3', '100Gi', '5'), used: cpuMemPods('1', '50Gi', '3') });
    const pod = quotaValidPod('allowed-pod', 1, cm('100m', '2Gi'), cm());
    pod.spec.activeDeadlineSeconds = 30;
    expectAllowed(decideQuotas(pod, [nonTerminating, terminating], optsOff), [{ name: 'quota-terminating', used: cpuMemPods('1100m', '52Gi', '4') }]);
  });

  it('TestAdmitBelowBestEffortQuotaLimit: a best-effort pod charges only the BestEffort quota', () => {
    const be = mkQuota('quota-besteffort', { scopes: ['BestEffort'], hard: { pods: '5' }, used: { pods: '3' } });
    const notBe = mkQuota('quota-not-besteffort', { scopes: ['NotBestEffort'], hard: { pods: '5' }, used: { pods: '3' } });
    const pod = quotaValidPod('allowed-pod', 1, cm(), cm());
    expectAllowed(decideQuotas(pod, [be, notBe], optsOff), [{ name: 'quota-besteffort', used: { pods: '4' } }]);
  });

  it('TestAdmitBestEffortQuotaLimitIgnoresBurstable: a BestEffort quota does not match a burstable pod', () => {
    const be = mkQuota('quota-besteffort', { scopes: ['BestEffort'], hard: { pods: '5' }, used: { pods: '3' } });
    const pod = quotaValidPod('allowed-pod', 1, cm('100m', '1Gi'), cm());
    expectAllowed(decideQuotas(pod, [be], optsOff), []);
  });

  it('TestAdmissionSetsMissingNamespace: a pod without namespace is still charged', () => {
    const q = mkQuota('quota', { hard: { pods: '3' }, used: { pods: '1' } });
    const pod = quotaValidPod('pod-without-namespace', 1, cm('1', '2Gi'), cm());
    pod.metadata.namespace = '';
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'quota', used: { pods: '2' } }]);
  });

  it('TestAdmitWhenUnrelatedResourceExceedsQuota: services over its limit does not block a pod', () => {
    const q = mkQuota('quota', { hard: { services: '3', pods: '4' }, used: { services: '4', pods: '1' } });
    const pod = quotaValidPod('allowed-pod', 1, cm(), cm());
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'quota', used: { services: '4', pods: '2' } }]);
  });

  it('TestAdmitLimitedResourceWithQuota: a covering requests.cpu quota is charged', () => {
    const q = mkQuota('quota', { hard: { 'requests.cpu': '10' }, used: { 'requests.cpu': '1' } });
    const pod = quotaValidPod('allowed-pod', 1, cm('3', '2Gi'), cm());
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'quota', used: { 'requests.cpu': '4' } }]);
  });

  it('TestAdmitLimitedResourceWithMultipleQuota: both matching quotas are charged', () => {
    const q1 = mkQuota('quota1', { hard: { 'requests.cpu': '10' }, used: { 'requests.cpu': '1' } });
    const q2 = mkQuota('quota2', { hard: { memory: '10Gi' }, used: { memory: '1Gi' } });
    const pod = quotaValidPod('allowed-pod', 1, cm('3', '2Gi'), cm());
    expectAllowed(decideQuotas(pod, [q1, q2], optsOff), [
      { name: 'quota1', used: { 'requests.cpu': '4' } },
      { name: 'quota2', used: { memory: '3Gi' } },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// decideQuotas: reference §3

describe('decideQuotas: reference §3.2 flow and messages', () => {
  const burst = (name = 'p') => mkPod(name, { containers: [ctr('a', cm('500m', '256Mi'), cm('1', '512Mi'))] });
  const be = (name = 'p') => mkPod(name, { containers: [ctr('a')] });

  it('status unknown: a tracked hard key without a used entry refuses, listing every tracked hard key', () => {
    const q = mkQuota('q', { hard: { cpu: '10', memory: '10Gi', pods: '10', services: '5' }, used: { cpu: '0', pods: '0' } });
    expectRefused(decideQuotas(burst(), [q], optsOff), 'status unknown for quota: q, resources: cpu,memory,pods', 'q');
  });

  it('status unknown is not raised for untracked keys (example.com/widgets never gets a used entry)', () => {
    const q = mkQuota('q', { hard: { pods: '10', 'example.com/widgets': '5' }, used: { pods: '0' } });
    expectAllowed(decideQuotas(be(), [q], optsOff), [{ name: 'q', used: { pods: '1' } }]);
  });

  it('a quota without status.hard (controller not yet run) constrains nothing', () => {
    const q = mkQuota('q', { specHard: { pods: '0', cpu: '0' } });
    expectAllowed(decideQuotas(burst(), [q], optsOff), []);
  });

  it('constraints are checked before status is known', () => {
    const q = mkQuota('q', { hard: { cpu: '1', pods: '5' } });
    expectRefused(decideQuotas(be(), [q], optsOff), 'failed quota: q: must specify cpu for: a', 'q');
  });

  it('failed quota: the message names the quota and every missing resource/container group', () => {
    const q = mkQuota('q', { hard: { 'requests.cpu': '10', 'limits.memory': '10Gi' }, used: { 'requests.cpu': '0', 'limits.memory': '0' } });
    const pod = mkPod('p', { initContainers: [ctr('i', undefined, cm('', '1Gi'))], containers: [ctr('b'), ctr('a', cm('1'))] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'failed quota: q: must specify limits.memory for: a,b; requests.cpu for: b,i', 'q');
  });

  it('failed quota is skipped when pod-level resources are set and the gate is on', () => {
    const q = mkQuota('q', { hard: { cpu: '10', memory: '10Gi' }, used: { cpu: '0', memory: '0' } });
    const pod = mkPod('p', { resources: { requests: cm('1', '1Gi'), limits: cm('1', '1Gi') }, containers: [ctr('a'), ctr('b')] });
    expectAllowed(decideQuotas(pod, [q], optsOn), [{ name: 'q', used: { cpu: '1', memory: '1Gi' } }]);
    expectRefused(decideQuotas(pod, [q], optsOff), 'failed quota: q: must specify cpu for: a,b; memory for: a,b', 'q');
  });

  it('exceeded quota lists only the exceeded keys, sorted, with requested/used/limited', () => {
    const q = mkQuota('q', { hard: { cpu: '2', memory: '1Gi', pods: '10' }, used: { cpu: '1500m', memory: '512Mi', pods: '3' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('1', '768Mi'))] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: q, requested: cpu=1,memory=768Mi, used: cpu=1500m,memory=512Mi, limited: cpu=2,memory=1Gi', 'q');
  });

  it('quantities print in canonical form (0.5 -> 500m, 1.5 -> 1500m)', () => {
    const q = mkQuota('q', { hard: { cpu: '1.5' }, used: { cpu: '1.5' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('0.5'))] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: q, requested: cpu=500m, used: cpu=1500m, limited: cpu=1500m', 'q');
  });

  it('used + requested == hard is allowed', () => {
    const q = mkQuota('q', { hard: { cpu: '2' }, used: { cpu: '1500m' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('500m'))] });
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'q', used: { cpu: '2' } }]);
  });

  it('a quota already over its hard limit on an unrelated key does not block', () => {
    const q = mkQuota('q', { hard: { 'requests.ephemeral-storage': '1Gi', pods: '10' }, used: { 'requests.ephemeral-storage': '5Gi', pods: '1' } });
    expectAllowed(decideQuotas(be(), [q], optsOff), [{ name: 'q', used: { 'requests.ephemeral-storage': '5Gi', pods: '2' } }]);
  });

  it('zero-valued usage is removed before comparing (a 0 request on an over-limit key does not block)', () => {
    const q = mkQuota('q', { hard: { cpu: '1', pods: '10' }, used: { cpu: '2', pods: '0' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('0'))] });
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'q', used: { cpu: '2', pods: '1' } }]);
  });

  it('requested is masked to the quota\'s hard keys', () => {
    const q = mkQuota('q', { hard: { 'requests.cpu': '4', pods: '10' }, used: { 'requests.cpu': '1', pods: '1' } });
    expectAllowed(decideQuotas(burst(), [q], optsOff), [{ name: 'q', used: { 'requests.cpu': '1500m', pods: '2' } }]);
  });

  it('negative usage is refused (quota usage is negative for resource(s): sorted names)', () => {
    const q = mkQuota('q', { hard: { pods: '10' }, used: { pods: '0' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('-1'))] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'quota usage is negative for resource(s): cpu,requests.cpu');
  });

  it('negative usage is checked even when no quota matches the pod', () => {
    const q = mkQuota('q', { scopes: ['Terminating'], hard: { pods: '10' }, used: { pods: '0' } });
    const pod = mkPod('p', { containers: [ctr('a', cm('-1', '-1Mi'))] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'quota usage is negative for resource(s): cpu,memory,requests.cpu,requests.memory');
  });

  it('no quotas at all: allowed without evaluating usage (§3.1)', () => {
    const pod = mkPod('p', { containers: [ctr('a', cm('-1'))] });
    expectAllowed(decideQuotas(pod, [], optsOff), []);
  });

  it('the first failing quota in list order is reported', () => {
    const a = mkQuota('q-a', { hard: { pods: '1' }, used: { pods: '1' } });
    const b = mkQuota('q-b', { hard: { pods: '2' }, used: { pods: '2' } });
    expectRefused(decideQuotas(be(), [b, a], optsOff), 'exceeded quota: q-b, requested: pods=1, used: pods=2, limited: pods=2', 'q-b');
    expectRefused(decideQuotas(be(), [a, b], optsOff), 'exceeded quota: q-a, requested: pods=1, used: pods=1, limited: pods=1', 'q-a');
  });

  it('constraint and status checks of every quota come before any exceeded check', () => {
    const full = mkQuota('q-full', { hard: { pods: '1' }, used: { pods: '1' } });
    const needsMemory = mkQuota('q-memory', { hard: { memory: '1Gi' }, used: { memory: '0' } });
    expectRefused(decideQuotas(be(), [full, needsMemory], optsOff), 'failed quota: q-memory: must specify memory for: a', 'q-memory');
  });

  it('a quota whose scopes do not match is not checked for constraints', () => {
    const q = mkQuota('q', { scopes: ['NotTerminating'], hard: { cpu: '1' }, used: { cpu: '0' } });
    const pod = mkPod('p', { activeDeadlineSeconds: 60, containers: [ctr('a')] });
    expectAllowed(decideQuotas(pod, [q], optsOff), []);
  });

  it('count/pods is charged for every new pod', () => {
    const q = mkQuota('q', { hard: { 'count/pods': '2' }, used: { 'count/pods': '2' } });
    expectRefused(decideQuotas(be(), [q], optsOff), 'exceeded quota: q, requested: count/pods=1, used: count/pods=2, limited: count/pods=2', 'q');
  });

  it('extended resources are enforced as requests.<name>', () => {
    const q = mkQuota('q', { hard: { 'requests.nvidia.com/gpu': '1' }, used: { 'requests.nvidia.com/gpu': '0' } });
    const pod = mkPod('p', { containers: [ctr('a', { 'nvidia.com/gpu': '2' }, { 'nvidia.com/gpu': '2' })] });
    expectRefused(decideQuotas(pod, [q], optsOff), 'exceeded quota: q, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=1', 'q');
  });

  it('DRA implicit extended resources are enforced as requests.deviceclass.resource.kubernetes.io/<class>', () => {
    const key = 'requests.deviceclass.resource.kubernetes.io/gpu';
    const q = mkQuota('q', { hard: { [key]: '1' }, used: { [key]: '0' } });
    const pod = mkPod('p', { containers: [ctr('a', { 'deviceclass.resource.kubernetes.io/gpu': '2' }, { 'deviceclass.resource.kubernetes.io/gpu': '2' })] });
    expectRefused(decideQuotas(pod, [q], optsOff), `exceeded quota: q, requested: ${key}=2, used: ${key}=0, limited: ${key}=1`, 'q');
  });

  it('bare extended names and limits.<extended> are never enforced (§6.2)', () => {
    const q = mkQuota('q', { hard: { 'nvidia.com/gpu': '0', 'limits.nvidia.com/gpu': '0', pods: '10' }, used: { pods: '0' } });
    const pod = mkPod('p', { containers: [ctr('a', { 'nvidia.com/gpu': '2' }, { 'nvidia.com/gpu': '2' })] });
    expectAllowed(decideQuotas(pod, [q], optsOff), [{ name: 'q', used: { pods: '1' } }]);
  });
});

describe('applyCharges', () => {
  it('writes each charge\'s used into the named quota and leaves others untouched', () => {
    const a = mkQuota('a', { hard: { pods: '5' }, used: { pods: '1' } });
    const b = mkQuota('b', { hard: { pods: '5' }, used: { pods: '3' } });
    applyCharges([a, b], [{ name: 'a', used: { pods: '2' } }]);
    assert.deepEqual(a.status, { hard: { pods: '5' }, used: { pods: '2' } });
    assert.deepEqual(b.status, { hard: { pods: '5' }, used: { pods: '3' } });
  });
});

// ---------------------------------------------------------------------------------------------
// computeQuotaStatus: the controller's recomputation

const running = (name: string, requests: ResourceList, extra: { priorityClassName?: string } = {}): Pod =>
  mkPod(name, { containers: [ctr('ctr', requests, {})], ...extra }, { status: { phase: 'Running' } });
const failed = (name: string, requests: ResourceList, extra: { priorityClassName?: string } = {}): Pod =>
  mkPod(name, { containers: [ctr('ctr', requests, {})], ...extra }, { status: { phase: 'Failed' } });

// resource_quota_controller_test.go fixtures
const newTestPods = () => [running('pod-running', cm('100m', '1Gi')), running('pod-running-2', cm('100m', '1Gi')), failed('pod-failed', cm('100m', '1Gi'))];
const newBestEffortTestPods = () => [running('pod-running', cm()), running('pod-running-2', cm()), failed('pod-failed', cm('100m', '1Gi'))];
const newTestPodsWithPriorityClasses = () => [
  running('pod-running', cm('500m', '50Gi'), { priorityClassName: 'high' }),
  running('pod-running-2', cm('100m', '1Gi'), { priorityClassName: 'low' }),
  failed('pod-failed', cm('100m', '1Gi')),
];

describe('computeQuotaStatus: resource_quota_controller_test.go TestSyncResourceQuota (pod cases)', () => {
  const hard = cpuMemPods('3', '100Gi', '5');
  const pc = (operator: string, values?: string[]) => [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }];
  const rows: { name: string; quota: ResourceQuota; pods: Pod[]; hard: ResourceList; used: ResourceList }[] = [
    { name: 'non-matching-best-effort-scoped-quota', quota: mkQuota('quota', { specHard: hard, scopes: ['BestEffort'] }), pods: newTestPods(), hard, used: cpuMemPods('0', '0', '0') },
    { name: 'matching-best-effort-scoped-quota', quota: mkQuota('quota', { specHard: hard, scopes: ['BestEffort'] }), pods: newBestEffortTestPods(), hard, used: cpuMemPods('0', '0', '2') },
    { name: 'non-matching-priorityclass-scoped-quota-OpExists', quota: mkQuota('quota', { specHard: hard, selector: pc('Exists') }), pods: newTestPods(), hard, used: cpuMemPods('0', '0', '0') },
    { name: 'matching-priorityclass-scoped-quota-OpExists', quota: mkQuota('quota', { specHard: hard, selector: pc('Exists') }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('600m', '51Gi', '2') },
    { name: 'matching-priorityclass-scoped-quota-OpIn', quota: mkQuota('quota', { specHard: hard, selector: pc('In', ['high', 'low']) }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('600m', '51Gi', '2') },
    { name: 'matching-priorityclass-scoped-quota-OpIn-high', quota: mkQuota('quota', { specHard: hard, selector: pc('In', ['high']) }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('500m', '50Gi', '1') },
    { name: 'matching-priorityclass-scoped-quota-OpIn-low', quota: mkQuota('quota', { specHard: hard, selector: pc('In', ['low']) }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('100m', '1Gi', '1') },
    { name: 'matching-priorityclass-scoped-quota-OpNotIn-low', quota: mkQuota('quota', { specHard: hard, selector: pc('NotIn', ['high']) }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('100m', '1Gi', '1') },
    { name: 'non-matching-priorityclass-scoped-quota-OpIn', quota: mkQuota('quota', { specHard: hard, selector: pc('In', ['random']) }), pods: newTestPodsWithPriorityClasses(), hard, used: cpuMemPods('0', '0', '0') },
    { name: 'non-matching-priorityclass-scoped-quota-OpNotIn', quota: mkQuota('quota', { specHard: hard, selector: pc('NotIn', ['random']) }), pods: newTestPods(), hard, used: cpuMemPods('200m', '2Gi', '2') },
    { name: 'matching-priorityclass-scoped-quota-OpDoesNotExist', quota: mkQuota('quota', { specHard: hard, selector: pc('DoesNotExist') }), pods: newTestPods(), hard, used: cpuMemPods('200m', '2Gi', '2') },
    { name: 'pods', quota: mkQuota('quota', { specHard: hard }), pods: newTestPods(), hard, used: cpuMemPods('200m', '2Gi', '2') },
    { name: 'quota-spec-hard-updated', quota: mkQuota('rq', { specHard: { cpu: '4' }, hard: { cpu: '3' }, used: { cpu: '0' } }), pods: [], hard: { cpu: '4' }, used: { cpu: '0' } },
    { name: 'quota-unchanged', quota: mkQuota('rq', { specHard: { cpu: '4' }, hard: { cpu: '0' } }), pods: [], hard: { cpu: '4' }, used: { cpu: '0' } },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const st = computeQuotaStatus(row.quota, row.pods, optsOff);
      assert.deepEqual(st, { hard: row.hard, used: row.used });
    });
  }
});

describe('computeQuotaStatus: pods_test.go TestPodEvaluatorUsageStats', () => {
  const cpu1 = { cpu: '1' };
  const makePod = (name: string, pcName: string, res: ResourceList | undefined, phase: string): Pod =>
    mkPod(name, { ...(pcName ? { priorityClassName: pcName } : {}), containers: [{ name: '', ...(res ? { resources: { requests: res, limits: res } } : {}) }] }, { status: { phase } });
  const hard = { pods: '100', 'count/pods': '100', cpu: '100', 'requests.cpu': '100', 'limits.cpu': '100' };
  const zero = { pods: '0', 'count/pods': '0', cpu: '0', 'requests.cpu': '0', 'limits.cpu': '0' };
  const highIn = [{ scopeName: 'PriorityClass', operator: 'In', values: ['high-priority'] }];
  const rows: { name: string; pods: Pod[]; scopes?: string[]; selector?: typeof highIn; want: Record<string, string> }[] = [
    { name: 'nil case', pods: [], want: {} },
    { name: 'all pods in running state', pods: [makePod('p1', '', cpu1, 'Running'), makePod('p2', '', cpu1, 'Running')], want: { pods: '2', 'count/pods': '2', cpu: '2', 'requests.cpu': '2', 'limits.cpu': '2' } },
    { name: 'one pods in terminal state', pods: [makePod('p1', '', cpu1, 'Running'), makePod('p2', '', cpu1, 'Succeeded')], want: { pods: '1', 'count/pods': '2', cpu: '1', 'requests.cpu': '1', 'limits.cpu': '1' } },
    {
      name: 'partial pods matching quotaScopeSelector',
      pods: [makePod('p1', 'high-priority', cpu1, 'Running'), makePod('p2', 'high-priority', cpu1, 'Succeeded'), makePod('p3', 'low-priority', cpu1, 'Running')],
      selector: highIn,
      want: { pods: '1', 'count/pods': '2', cpu: '1', 'requests.cpu': '1', 'limits.cpu': '1' },
    },
    {
      name: 'partial pods matching quotaScopeSelector - w/ scopeName specified',
      pods: [makePod('p1', 'high-priority', cpu1, 'Running'), makePod('p2', 'high-priority', cpu1, 'Succeeded'), makePod('p3', 'low-priority', cpu1, 'Running')],
      scopes: ['PriorityClass'],
      selector: highIn,
      want: { pods: '1', 'count/pods': '2', cpu: '1', 'requests.cpu': '1', 'limits.cpu': '1' },
    },
    {
      name: 'partial pods matching quotaScopeSelector - w/ multiple scopeNames specified',
      pods: [
        makePod('p1', 'high-priority', cpu1, 'Running'),
        makePod('p2', 'high-priority', cpu1, 'Succeeded'),
        makePod('p3', 'low-priority', cpu1, 'Running'),
        makePod('p4', 'high-priority', undefined, 'Failed'),
      ],
      scopes: ['PriorityClass', 'BestEffort'],
      selector: highIn,
      want: { 'count/pods': '1' },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const q = mkQuota('q', { specHard: hard, ...(row.scopes ? { scopes: row.scopes } : {}), ...(row.selector ? { selector: row.selector } : {}) });
      const st = computeQuotaStatus(q, row.pods, optsOff);
      const want = { ...zero, ...row.want };
      assert.deepEqual(st.used, Object.fromEntries(Object.keys(want).sort().map((k) => [k, want[k as keyof typeof want]])));
    });
  }
});

describe('computeQuotaStatus: reference §3.5', () => {
  it('hard is copied from spec.hard; every tracked key starts at 0; untracked keys get no used entry', () => {
    const q = mkQuota('q', { specHard: { pods: '6', replicationcontrollers: '10', 'example.com/widgets': '3', 'requests.nvidia.com/gpu': '2' } });
    assert.deepEqual(computeQuotaStatus(q, [], optsOff), {
      hard: { 'example.com/widgets': '3', pods: '6', replicationcontrollers: '10', 'requests.nvidia.com/gpu': '2' },
      used: { pods: '0', 'requests.nvidia.com/gpu': '0' },
    });
  });
  it('the design doc\'s memory.limit / cpu.limit keys are never tracked (§6.1)', () => {
    const q = mkQuota('q', { specHard: { pods: '2', 'memory.limit': '1Gi', 'cpu.limit': '2' } });
    const pod = running('a', cm('1', '1Gi'));
    assert.deepEqual(computeQuotaStatus(q, [pod], optsOff).used, { pods: '1' });
  });
  it('matching uses the new spec.hard, not a stale status.hard', () => {
    const q = mkQuota('q', { specHard: { pods: '5' }, hard: { services: '1' } });
    assert.deepEqual(computeQuotaStatus(q, [running('a', cm())], optsOff).used, { pods: '1' });
  });
  it('pods past their deletion grace period release compute usage but keep count/pods', () => {
    const q = mkQuota('q', { specHard: { pods: '5', 'count/pods': '5', 'requests.cpu': '5' } });
    const gone = mkPod('gone', { containers: [ctr('c', cm('1'))] }, { metadata: { deletionTimestamp: '2026-03-01T11:00:00Z', deletionGracePeriodSeconds: 30 } });
    assert.deepEqual(computeQuotaStatus(q, [gone, running('a', cm('1'))], optsOff).used, { 'count/pods': '2', pods: '1', 'requests.cpu': '1' });
  });
});

// ---------------------------------------------------------------------------------------------
// Property: admitting random pods one at a time never leaves used above hard.

const trackedKeys = ['pods', 'count/pods', 'cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory', 'requests.ephemeral-storage'] as const;

const arbCpu = fc.option(fc.integer({ min: 0, max: 4000 }).map((m) => `${m}m`), { nil: undefined });
const arbMem = fc.option(fc.integer({ min: 0, max: 4096 }).map((m) => `${m}Mi`), { nil: undefined });
const arbList = fc.record({ cpu: arbCpu, memory: arbMem, 'ephemeral-storage': arbMem }).map((r) => {
  const rl: ResourceList = {};
  for (const [k, v] of Object.entries(r)) if (v !== undefined) rl[k] = v;
  return rl;
});
const arbContainer = (name: string) => fc.record({ requests: arbList, limits: arbList }).map((r) => ctr(name, r.requests, r.limits));
const arbPod = fc
  .record({
    containers: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    initContainers: fc.array(fc.nat(), { maxLength: 2 }),
    deadline: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
    priorityClassName: fc.constantFrom(undefined, 'high', 'low'),
  })
  .chain((shape) =>
    fc
      .record({
        containers: fc.tuple(...shape.containers.map((_, i) => arbContainer(`c${i}`))),
        initContainers: fc.tuple(...shape.initContainers.map((_, i) => arbContainer(`i${i}`))),
      })
      .map((cs) =>
        mkPod('p', {
          containers: [...cs.containers],
          ...(cs.initContainers.length ? { initContainers: [...cs.initContainers] } : {}),
          ...(shape.deadline !== undefined ? { activeDeadlineSeconds: shape.deadline } : {}),
          ...(shape.priorityClassName ? { priorityClassName: shape.priorityClassName } : {}),
        }),
      ),
  );
const arbHard = fc
  .subarray([...trackedKeys], { minLength: 1 })
  .chain((keys) =>
    fc.tuple(...keys.map((k) => (k.includes('pods') ? fc.integer({ min: 0, max: 6 }).map(String) : k.includes('cpu') ? fc.integer({ min: 0, max: 8000 }).map((m) => `${m}m`) : fc.integer({ min: 0, max: 8192 }).map((m) => `${m}Mi`)))).map(
      (vals) => Object.fromEntries(keys.map((k, i) => [k, vals[i]!])) as ResourceList,
    ),
  );
const arbScopes = fc.constantFrom<string[][]>([], ['BestEffort'], ['NotBestEffort'], ['Terminating'], ['NotTerminating'], ['Terminating', 'NotBestEffort'], ['NotTerminating', 'NotBestEffort']);
const arbSelector = fc.constantFrom<ScopedResourceSelectorRequirement[] | undefined>(
  undefined,
  [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
  [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }],
);

describe('property: sequential admission keeps status.used <= status.hard', () => {
  it('for every tracked key, after every admitted pod (and charges agree with the controller)', () => {
    fc.assert(
      fc.property(arbHard, arbScopes, arbSelector, fc.array(arbPod, { minLength: 1, maxLength: 12 }), fc.boolean(), (hard, scopes, selector, pods, podLevel) => {
        const opts = podLevel ? optsOn : optsOff;
        const q = mkQuota('q', { specHard: hard, scopes, ...(selector ? { selector } : {}) });
        q.status = computeQuotaStatus(q, [], opts);
        const admitted: Pod[] = [];
        for (const [i, p] of pods.entries()) {
          const pod = { ...p, metadata: { ...p.metadata, name: `p${i}` } };
          const d = decideQuotas(pod, [q], opts);
          if (!d.allowed) continue;
          applyCharges([q], d.charges);
          admitted.push(pod);
          for (const k of podMatchingResources(Object.keys(q.status!.hard!))) {
            const used = Quantity.parse(q.status!.used![k]!);
            const limit = Quantity.parse(q.status!.hard![k]!);
            assert.ok(used.cmp(limit) <= 0, `${k}: used ${used.toString()} > hard ${limit.toString()} after ${pod.metadata.name}`);
          }
        }
        // The controller's recomputation over the admitted pods equals what admission charged.
        const recomputed = computeQuotaStatus(q, admitted, opts).used;
        for (const [k, v] of Object.entries(recomputed)) {
          assert.equal(Quantity.parse(q.status!.used![k]!).cmp(Quantity.parse(v)), 0, `${k}: charged ${q.status!.used![k]} vs recomputed ${v}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
