// The pod strategy's create steps as the create path runs them (PrepareForCreate, then Validate):
// the rows of upstream's strategy_test.go (kubernetes/kubernetes pkg/registry/core/pod/
// strategy_test.go, index file 148060311) that create a pod: TestGetPodQOS,
// TestSchedulingGatedCondition, TestPodStrategyValidate, TestPodLifecycleSleepActionEnablement
// (the gate-enabled row: Bulkhead has no PodLifecycleSleepAction gate, it is on as in v1.32),
// TestNodeInclusionPolicyEnablementInCreating (the enabled rows: no gate either) and one
// TestApplyAppArmorVersionSkew row through the whole path (the full table is apparmorskew.test.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitPodCreate } from '../../src/admission/pod.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Container, Pod, ResourceList } from '../../src/api/types.js';

const admit = (p: Pod) => admitPodCreate({ pod: p, namespaceLabels: {}, limitRanges: [], priorityClasses: [], quotas: [], gates: defaultFeatureGates, podSecurityDefaults: {}, now: new Date(0) });
const pod = (containers: Container[], spec: Partial<Pod['spec']> = {}, name = 'foo'): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers, ...spec } }) as Pod;
const ctr = (name: string, requests?: ResourceList, limits?: ResourceList, extra: Partial<Container> = {}): Container =>
  ({ name, image: 'image', ...(requests || limits ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } } : {}), ...extra }) as Container;

describe('upstream TestGetPodQOS: PrepareForCreate sets status.qosClass', () => {
  const rows: { name: string; pod: Pod; want: string }[] = [
    { name: 'guaranteed', pod: pod([ctr('guaranteed', { cpu: '100m', memory: '100Mi' }, { cpu: '100m', memory: '100Mi' })], {}, 'guaranteed'), want: 'Guaranteed' },
    { name: 'best-effort', pod: pod([ctr('best-effort')], {}, 'best-effort'), want: 'BestEffort' },
    { name: 'burstable', pod: pod([ctr('burstable', { cpu: '100m', memory: '100Mi' })], {}, 'burstable'), want: 'Burstable' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(admit(r.pod).pod?.status?.qosClass, r.want));
});

describe('upstream TestSchedulingGatedCondition', () => {
  it('pod without .spec.schedulingGates', () => {
    assert.equal(admit(pod([ctr('c')])).pod?.status?.conditions?.find((c) => c.type === 'PodScheduled'), undefined);
  });
  it('pod with .spec.schedulingGates', () => {
    const cond = admit(pod([ctr('c')], { schedulingGates: [{ name: 'foo' }] })).pod?.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.ok(cond?.lastTransitionTime, 'a LastTransitionTime is set');
    assert.deepEqual({ type: cond.type, status: cond.status, reason: cond.reason, message: cond.message }, { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
  });
});

describe('upstream TestPodStrategyValidate: hugepage values must be whole pages', () => {
  const hp = (size: string, v: string, cpu = false): ResourceList => ({ ...(cpu ? { cpu: '10' } : {}), [`hugepages-${size}`]: v });
  const rows: { name: string; pod: Pod; wantErr: boolean }[] = [
    { name: 'a new pod setting container with indivisible hugepages values', pod: pod([ctr('foo', hp('1Mi', '1.1Mi', true), hp('1Mi', '1.1Mi', true))]), wantErr: true },
    { name: 'a new pod setting init-container with indivisible hugepages values', pod: pod([ctr('c')], { initContainers: [ctr('container', hp('64Ki', '127Ki'), hp('64Ki', '127Ki'))] }), wantErr: true },
    {
      name: 'a new pod setting init-container with indivisible hugepages values while container with divisible hugepages values',
      pod: pod([ctr('container', hp('1Gi', '2Gi'), hp('1Gi', '2Gi'))], { initContainers: [ctr('init', hp('2Mi', '5.1Mi'), hp('2Mi', '5.1Mi'))] }),
      wantErr: true,
    },
    { name: 'a new pod setting container with divisible hugepages values', pod: pod([ctr('container', hp('1Mi', '2Mi', true), hp('1Mi', '2Mi', true))]), wantErr: false },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = admit(r.pod);
      assert.equal(got.rejection?.by === 'Validation', r.wantErr, got.rejection?.message ?? 'no rejection');
    });
  }
});

describe('upstream TestPodLifecycleSleepActionEnablement', () => {
  it('gate enabled, creating pods with sleep action', () => {
    const lifecycle = { preStop: { sleep: { seconds: 1 } } };
    const got = admit(pod([ctr('container', undefined, undefined, { lifecycle } as Partial<Container>)], { restartPolicy: 'Always', dnsPolicy: 'Default' }));
    assert.equal(got.rejection, undefined, got.rejection?.message);
    assert.deepEqual(got.pod?.spec.containers[0]!.lifecycle, lifecycle);
  });
});

describe('upstream TestNodeInclusionPolicyEnablementInCreating (NodeInclusionPolicyInPodTopologySpread on, as in v1.32)', () => {
  const empty = { whenUnsatisfiable: 'DoNotSchedule', topologyKey: 'kubernetes.io/hostname', maxSkew: 1 };
  const withPolicies = { nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore', ...empty };
  for (const [name, tsc] of [['nodeInclusionPolicy enabled with topology unset', empty], ['nodeInclusionPolicy enabled with topology configured', withPolicies]] as const) {
    it(name, () => {
      const got = admit(pod([ctr('c')], { topologySpreadConstraints: [tsc] } as Partial<Pod['spec']>));
      assert.equal(got.rejection, undefined, got.rejection?.message);
      assert.deepEqual(got.pod?.spec.topologySpreadConstraints, [tsc]);
    });
  }
});

describe('TestApplyAppArmorVersionSkew through the create path', () => {
  it("Annotation 'unconfined' and no fields present: the stored pod has the field and the warning is given", () => {
    const p = pod([ctr('ctr')]);
    p.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/ctr': 'unconfined' };
    const got = admit(p);
    assert.equal(got.rejection, undefined, got.rejection?.message);
    assert.deepEqual(got.pod?.spec.containers[0]!.securityContext, { appArmorProfile: { type: 'Unconfined' } });
    assert.ok(got.warnings.includes('metadata.annotations[container.apparmor.security.beta.kubernetes.io/ctr]: deprecated since v1.30; use the "appArmorProfile" field instead'));
  });
  it('Pod field default and no annotation present: the stored pod has the annotations', () => {
    const got = admit(pod([ctr('ctr')], { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }));
    assert.equal(got.rejection, undefined, got.rejection?.message);
    assert.deepEqual(got.pod?.metadata.annotations, { 'container.apparmor.security.beta.kubernetes.io/ctr': 'runtime/default' });
  });
});
