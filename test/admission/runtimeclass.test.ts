// The RuntimeClass admission plugin's pure rules (src/admission/runtimeclass.ts), one row per
// rule of upstream's plugin/pkg/admission/runtimeclass/admission.go and the cases of its
// admission_test.go (TestSetOverhead, TestSetScheduling, TestValidateOverhead), MergeTolerations
// (pkg/util/tolerations), then the plugin in its place in admitPodCreate: after
// DefaultTolerationSeconds, its overhead check after validation and PodSecurity, before ResourceQuota.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitPodCreate } from '../../src/admission/pod.js';
import { admitPodRuntimeClass, mergeTolerations, validatePodRuntimeClass } from '../../src/admission/runtimeclass.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { LimitRange, Pod, ResourceQuota, RuntimeClass, Toleration } from '../../src/api/types.js';

const rc = (name: string, extra: Partial<RuntimeClass> = {}): RuntimeClass => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler: 'crun', ...extra });
const withOverhead = rc('foo', { overhead: { podFixed: { cpu: '100m', memory: '100Mi' } } });
const noOverhead = rc('no-overhead');
const scheduled = rc('sched', { scheduling: { nodeSelector: { foo: 'bar', fizz: 'buzz' }, tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }] } });

const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

describe('RuntimeClass admission, mutating half (Admit)', () => {
  type Want = { forbidden: string } | { overhead?: Record<string, string>; nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
  const rows: { name: string; classes: RuntimeClass[]; pod: Pod; want: Want }[] = [
    { name: 'no runtimeClassName: the pod is left alone', classes: [withOverhead], pod: pod(), want: {} },
    { name: 'an unknown class is refused with upstream\'s message', classes: [withOverhead], pod: pod({ runtimeClassName: 'gvisor' }), want: { forbidden: 'pod rejected: RuntimeClass "gvisor" not found' } },
    { name: 'the class\'s overhead becomes the pod\'s', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo' }), want: { overhead: { cpu: '100m', memory: '100Mi' } } },
    { name: 'the class\'s overhead in the server\'s spelling (1024Mi is 1Gi)', classes: [rc('foo', { overhead: { podFixed: { memory: '1024Mi' } } })], pod: pod({ runtimeClassName: 'foo' }), want: { overhead: { memory: '1Gi' } } },
    { name: 'a pod overhead equal to the class\'s (another spelling) is allowed', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo', overhead: { cpu: '0.1', memory: '100Mi' } }), want: { overhead: { cpu: '100m', memory: '100Mi' } } },
    { name: 'a pod overhead that differs from the class\'s is refused', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo', overhead: { cpu: '200m', memory: '100Mi' } }), want: { forbidden: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead" } },
    { name: 'a class without overhead leaves the pod\'s (the validating half refuses it)', classes: [noOverhead], pod: pod({ runtimeClassName: 'no-overhead', overhead: { cpu: '1' } }), want: { overhead: { cpu: '1' } } },
    { name: 'the class\'s nodeSelector and tolerations on a pod with neither', classes: [scheduled], pod: pod({ runtimeClassName: 'sched' }), want: { nodeSelector: { foo: 'bar', fizz: 'buzz' }, tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }] } },
    {
      name: 'nodeSelectors merge: the pod\'s keys kept, the class\'s added',
      classes: [scheduled],
      pod: pod({ runtimeClassName: 'sched', nodeSelector: { foo: 'bar', zone: 'a' } }),
      want: { nodeSelector: { foo: 'bar', zone: 'a', fizz: 'buzz' }, tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }] },
    },
    {
      name: 'a nodeSelector key the pod sets otherwise is a conflict',
      classes: [scheduled],
      pod: pod({ runtimeClassName: 'sched', nodeSelector: { foo: 'baz' } }),
      want: { forbidden: 'conflict: runtimeClass.scheduling.nodeSelector[foo] = bar; pod.spec.nodeSelector[foo] = baz' },
    },
    {
      name: 'tolerations merge: the pod\'s first, the class\'s added',
      classes: [scheduled],
      pod: pod({ runtimeClassName: 'sched', tolerations: [{ key: 'a', operator: 'Exists' }] }),
      want: { nodeSelector: { foo: 'bar', fizz: 'buzz' }, tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }] },
    },
    { name: 'a class without scheduling leaves nodeSelector and tolerations alone', classes: [noOverhead], pod: pod({ runtimeClassName: 'no-overhead', nodeSelector: { a: 'b' } }), want: { nodeSelector: { a: 'b' } } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = admitPodRuntimeClass(structuredClone(r.pod), r.classes);
      if ('forbidden' in r.want) return assert.equal(got.forbidden, r.want.forbidden);
      assert.equal(got.forbidden, undefined);
      assert.deepEqual({ overhead: got.pod.spec.overhead, nodeSelector: got.pod.spec.nodeSelector, tolerations: got.pod.spec.tolerations }, { overhead: r.want.overhead, nodeSelector: r.want.nodeSelector, tolerations: r.want.tolerations });
    });
  }
  it('the caller\'s pod is not changed unless it is handed over', () => {
    const p = pod({ runtimeClassName: 'sched' });
    admitPodRuntimeClass(p, [scheduled, withOverhead]);
    assert.equal(p.spec.nodeSelector, undefined);
  });
});

describe('RuntimeClass admission, validating half (Validate)', () => {
  const rows: { name: string; classes: RuntimeClass[]; pod: Pod; want: string | undefined }[] = [
    { name: 'no class, no overhead: allowed', classes: [], pod: pod(), want: undefined },
    { name: 'an overhead without a RuntimeClass is refused', classes: [], pod: pod({ overhead: { cpu: '100m' } }), want: 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
    { name: 'an overhead with a class that defines none is refused', classes: [noOverhead], pod: pod({ runtimeClassName: 'no-overhead', overhead: { cpu: '100m' } }), want: 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
    { name: 'the class\'s overhead: allowed', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo', overhead: { cpu: '100m', memory: '100Mi' } }), want: undefined },
    { name: 'an overhead other than the class\'s is refused', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo', overhead: { cpu: '100m' } }), want: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead" },
    { name: 'no overhead with a class that defines one is refused', classes: [withOverhead], pod: pod({ runtimeClassName: 'foo' }), want: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead" },
    { name: 'a class gone since the mutating half: not found', classes: [], pod: pod({ runtimeClassName: 'foo' }), want: 'pod rejected: RuntimeClass "foo" not found' },
  ];
  for (const r of rows) it(r.name, () => assert.equal(validatePodRuntimeClass(r.pod, r.classes), r.want));
});

describe('MergeTolerations (pkg/util/tolerations)', () => {
  const t = (key: string, extra: Partial<Toleration> = {}): Toleration => ({ key, operator: 'Equal', value: 'v', effect: 'NoSchedule', ...extra });
  const rows: { name: string; a: Toleration[]; b: Toleration[]; want: Toleration[] }[] = [
    { name: 'disjoint lists: both, the first\'s first', a: [t('a')], b: [t('b')], want: [t('a'), t('b')] },
    { name: 'an equal toleration is kept once', a: [t('a')], b: [t('a')], want: [t('a')] },
    { name: 'an Exists toleration covers the Equal one of its key', a: [t('a')], b: [t('a', { operator: 'Exists', value: '' })], want: [t('a', { operator: 'Exists', value: '' })] },
    { name: 'an empty effect covers every effect of its key', a: [t('a', { effect: 'NoExecute' })], b: [t('a', { effect: '' })], want: [t('a', { effect: '' })] },
    { name: 'an empty key with Exists covers everything', a: [t('a'), t('b')], b: [{ operator: 'Exists' }], want: [{ operator: 'Exists' }] },
    { name: 'another value is not covered', a: [t('a', { value: 'x' })], b: [t('a', { value: 'y' })], want: [t('a', { value: 'x' }), t('a', { value: 'y' })] },
    { name: 'a longer NoExecute tolerationSeconds covers a shorter one (the second list\'s)', a: [t('a', { effect: 'NoExecute', tolerationSeconds: 10 })], b: [t('a', { effect: 'NoExecute', tolerationSeconds: 20 })], want: [t('a', { effect: 'NoExecute', tolerationSeconds: 20 })] },
    { name: 'a longer NoExecute tolerationSeconds covers a shorter one (the first list\'s)', a: [t('a', { effect: 'NoExecute', tolerationSeconds: 20 })], b: [t('a', { effect: 'NoExecute', tolerationSeconds: 10 })], want: [t('a', { effect: 'NoExecute', tolerationSeconds: 20 })] },
    { name: 'no tolerationSeconds (forever) covers a bounded one', a: [t('a', { effect: 'NoExecute', tolerationSeconds: 20 })], b: [t('a', { effect: 'NoExecute' })], want: [t('a', { effect: 'NoExecute' })] },
    { name: 'no tolerations: none', a: [], b: [], want: [] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(mergeTolerations(r.a, r.b), r.want));
});

describe('RuntimeClass in admitPodCreate', () => {
  const admit = (p: Pod, classes: RuntimeClass[], extra: { quotas?: ResourceQuota[]; limitRanges?: LimitRange[] } = {}) =>
    admitPodCreate({ pod: p, namespaceLabels: {}, limitRanges: extra.limitRanges ?? [], priorityClasses: [], runtimeClasses: classes, quotas: extra.quotas ?? [], gates: defaultFeatureGates, podSecurityDefaults: {}, now: new Date(0) });
  const quota = (hard: Record<string, string>): ResourceQuota => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec: { hard }, status: { hard, used: Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])) } });
  const limited = pod({ runtimeClassName: 'foo', containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m', memory: '100Mi' }, limits: { cpu: '500m', memory: '100Mi' } } }] });

  it('an unknown class: 403 by RuntimeClass with upstream\'s message', () => {
    const r = admit(pod({ runtimeClassName: 'nope' }), []);
    assert.deepEqual(r.rejection, { by: 'RuntimeClass', message: 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found', code: 403, reason: 'Forbidden' });
  });
  it('the mutating half runs before validation: an unknown class wins over a field error', () => {
    const r = admit(pod({ runtimeClassName: 'nope', restartPolicy: 'Sometimes' }), []);
    assert.equal(r.rejection?.by, 'RuntimeClass');
  });
  it('it runs after DefaultTolerationSeconds: the class\'s tolerations follow the defaults', () => {
    const r = admit(pod({ runtimeClassName: 'sched' }), [scheduled]);
    assert.equal(r.rejection, undefined);
    assert.deepEqual(r.pod!.spec.tolerations!.map((x) => x.key), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'foo']);
  });
  it('an overhead set without a class: refused by RuntimeClass after validation', () => {
    const r = admit(pod({ overhead: { cpu: '1' } }), []);
    assert.equal(r.rejection?.message, 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  });
  it('the stored pod carries the class\'s overhead, nodeSelector and tolerations', () => {
    const r = admit(pod({ runtimeClassName: 'foo' }), [withOverhead]);
    assert.equal(r.rejection, undefined);
    assert.deepEqual(r.pod!.spec.overhead, { cpu: '100m', memory: '100Mi' });
  });
  it('ResourceQuota counts the overhead in requests and limits (the pod evaluator\'s PodRequests)', () => {
    const r = admit(structuredClone(limited), [withOverhead], { quotas: [quota({ 'requests.cpu': '1', 'limits.memory': '1Gi' })] });
    assert.equal(r.rejection, undefined);
    assert.deepEqual(r.charges[0]!.used, { 'limits.memory': '200Mi', 'requests.cpu': '600m' });
  });
  it('ResourceQuota refuses a pod its overhead takes over the limit', () => {
    const r = admit(structuredClone(limited), [withOverhead], { quotas: [quota({ 'requests.cpu': '550m' })] });
    assert.equal(r.rejection?.by, 'ResourceQuota');
    assert.match(r.rejection!.message, /exceeded quota: q, requested: requests.cpu=600m/);
  });
});
