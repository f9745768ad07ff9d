// The Priority admission plugin's pure rules (src/admission/priority.ts), one row per rule of
// upstream's plugin/pkg/admission/priority/admission.go and the cases of its admission_test.go
// (TestPodAdmission, TestDefaultPriority, TestPriorityClassAdmission), then the plugin in its
// place in admitPodCreate: after LimitRanger's defaults, before validation and ResourceQuota.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitPodCreate } from '../../src/admission/pod.js';
import { admitPodPriority, admitPriorityClass, builtInPriorityClasses, globalDefaultClass, keepPodPriority } from '../../src/admission/priority.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod, PriorityClass, ResourceQuota } from '../../src/api/types.js';

const cls = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  preemptionPolicy: 'PreemptLowerPriority',
  ...extra,
});
const default1 = cls('default1', 1000, { globalDefault: true });
const default2 = cls('default2', 2000, { globalDefault: true });
const nondefault1 = cls('nondefault1', 2000, { description: 'Just a test priority class' });
const never = cls('never', 2000, { preemptionPolicy: 'Never' });
const systemClusterCritical = builtInPriorityClasses().find((c) => c.metadata.name === 'system-cluster-critical')!;

const pod = (spec: Partial<Pod['spec']> = {}, namespace = 'namespace'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace },
  spec: { containers: [{ name: 'container', image: 'busybox' }], ...spec },
});

describe('Priority admission: pod create', () => {
  const rows: { name: string; classes: PriorityClass[]; pod: Pod; want: { priority: number; className?: string; policy?: string } | { forbidden: string } }[] = [
    { name: 'a class name resolves to its value and preemptionPolicy', classes: [default1, nondefault1], pod: pod({ priorityClassName: 'default1' }), want: { priority: 1000, className: 'default1', policy: 'PreemptLowerPriority' } },
    { name: 'no class name: the globalDefault class, whose name is filled in', classes: [default1], pod: pod(), want: { priority: 1000, className: 'default1', policy: 'PreemptLowerPriority' } },
    { name: 'no class name and no classes: priority 0 and PreemptLowerPriority', classes: [], pod: pod(), want: { priority: 0, policy: 'PreemptLowerPriority' } },
    { name: 'no class name and no default class: priority 0', classes: [nondefault1], pod: pod(), want: { priority: 0, policy: 'PreemptLowerPriority' } },
    { name: 'several default classes (a race): the lowest value wins', classes: [default2, default1], pod: pod(), want: { priority: 1000, className: 'default1', policy: 'PreemptLowerPriority' } },
    { name: 'a system class in kube-system', classes: [systemClusterCritical], pod: pod({ priorityClassName: 'system-cluster-critical' }, 'kube-system'), want: { priority: 2000000000, className: 'system-cluster-critical', policy: 'PreemptLowerPriority' } },
    { name: 'a system class outside kube-system is allowed (upstream dropped the restriction)', classes: [systemClusterCritical], pod: pod({ priorityClassName: 'system-cluster-critical' }, 'non-system-namespace'), want: { priority: 2000000000, className: 'system-cluster-critical', policy: 'PreemptLowerPriority' } },
    { name: 'an unknown class is forbidden', classes: [default1, nondefault1], pod: pod({ priorityClassName: 'non-existing' }), want: { forbidden: 'no PriorityClass with name non-existing was found' } },
    { name: 'a class name is looked up, never guessed: a system class that does not exist is unknown', classes: [], pod: pod({ priorityClassName: 'system-node-critical' }), want: { forbidden: 'no PriorityClass with name system-node-critical was found' } },
    { name: 'a user priority that differs from the class value is forbidden', classes: [default1], pod: pod({ priorityClassName: 'default1', priority: 5 }), want: { forbidden: 'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' } },
    { name: 'a user priority and no class: compared with the default 0', classes: [], pod: pod({ priority: 1000 }), want: { forbidden: 'the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name' } },
    { name: 'a user priority that matches the computed 0 is kept', classes: [nondefault1], pod: pod({ priority: 0 }), want: { priority: 0, policy: 'PreemptLowerPriority' } },
    { name: 'a user priority that matches the default class is kept', classes: [default2], pod: pod({ priority: 2000 }), want: { priority: 2000, className: 'default2', policy: 'PreemptLowerPriority' } },
    { name: 'a user priority that matches the named class is kept', classes: [systemClusterCritical], pod: pod({ priorityClassName: 'system-cluster-critical', priority: 2000000000 }, 'kube-system'), want: { priority: 2000000000, className: 'system-cluster-critical', policy: 'PreemptLowerPriority' } },
    { name: 'a Never class gives preemptionPolicy Never', classes: [never], pod: pod({ priorityClassName: 'never' }), want: { priority: 2000, className: 'never', policy: 'Never' } },
    { name: 'a user preemptionPolicy that matches the class is kept', classes: [never], pod: pod({ priorityClassName: 'never', preemptionPolicy: 'Never' }), want: { priority: 2000, className: 'never', policy: 'Never' } },
    { name: 'a user preemptionPolicy that differs from the class is forbidden', classes: [nondefault1], pod: pod({ priorityClassName: 'nondefault1', preemptionPolicy: 'Never' }), want: { forbidden: 'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name' } },
    { name: 'without any class a user preemptionPolicy Never differs from PreemptLowerPriority', classes: [], pod: pod({ preemptionPolicy: 'Never' }), want: { forbidden: 'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name' } },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = admitPodPriority(r.pod, r.classes);
      if ('forbidden' in r.want) {
        assert.equal(got.forbidden, r.want.forbidden);
        return;
      }
      assert.equal(got.forbidden, undefined);
      assert.equal(got.pod!.spec.priority, r.want.priority);
      assert.equal(got.pod!.spec.priorityClassName, r.want.className);
      assert.equal(got.pod!.spec.preemptionPolicy, r.want.policy);
    });
    it(`${r.name} (in place: the same pod, byte for byte, or the same refusal)`, () => {
      const copy = admitPodPriority(r.pod, r.classes);
      const own = structuredClone(r.pod);
      const inPlace = admitPodPriority(own, r.classes, true);
      assert.equal(inPlace.forbidden, copy.forbidden);
      if (copy.pod) {
        assert.equal(inPlace.pod, own);
        assert.equal(JSON.stringify(inPlace.pod), JSON.stringify(copy.pod));
      } else assert.equal(JSON.stringify(own), JSON.stringify(r.pod));
    });
  }
  it('the input pod is not changed', () => {
    const p = pod({ priorityClassName: 'default1' });
    admitPodPriority(p, [default1]);
    assert.equal(p.spec.priority, undefined);
  });
});

describe('Priority admission: pod update keeps what create set', () => {
  const stored = pod({ priorityClassName: 'default1', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  it('a priority left out is restored', () => assert.equal(keepPodPriority(pod({ priorityClassName: 'default1' }), stored).spec.priority, 1000));
  it('a preemptionPolicy left out is restored', () => assert.equal(keepPodPriority(pod({ priorityClassName: 'default1' }), stored).spec.preemptionPolicy, 'PreemptLowerPriority'));
  it('a priority that is set is left for validation to compare', () => assert.equal(keepPodPriority(pod({ priority: 7 }), stored).spec.priority, 7));
});

describe('Priority admission: the default class', () => {
  const rows: [string, PriorityClass[], string | undefined][] = [
    ['simple resolution with a default class', [default1], 'default1'],
    ['no default class', [nondefault1], undefined],
    ['multiple default classes resolve to the minimum value among them', [default2, default1], 'default1'],
    ['none at all', [], undefined],
  ];
  for (const [name, classes, want] of rows) it(name, () => assert.equal(globalDefaultClass(classes)?.metadata.name, want));
});

describe('Priority admission: PriorityClass create and update (one globalDefault)', () => {
  const only = 'PriorityClass default1 is already marked as default. Only one default can exist';
  const rows: [string, PriorityClass, PriorityClass[], 'create' | 'update', string | undefined][] = [
    ['create operator with default class', default1, [], 'create', undefined],
    ['create operator with one existing default class', default2, [default1], 'create', only],
    ['create a second class with the same name as the default one: still refused', cls('default1', 5, { globalDefault: true }), [default1], 'create', only],
    ['create a non-default class while a default exists', nondefault1, [default1], 'create', undefined],
    ['update operator with default class', default1, [], 'update', undefined],
    ['update operator with one existing default class (the same class)', default1, [default1], 'update', undefined],
    ['update operator with different default classes', default2, [default1], 'update', only],
  ];
  for (const [name, pc, existing, op, want] of rows) it(name, () => assert.equal(admitPriorityClass(pc, existing, op), want));
});

describe('Priority admission in the pod create path', () => {
  const quota: ResourceQuota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'high-only', namespace: 'namespace' },
    spec: { hard: { pods: '0' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['default1'] }] } },
    status: { hard: { pods: '0' }, used: { pods: '0' } },
  };
  const admit = (p: Pod, classes: PriorityClass[], quotas: ResourceQuota[] = []) =>
    admitPodCreate({ pod: p, namespaceLabels: {}, limitRanges: [], priorityClasses: classes, quotas, gates: defaultFeatureGates, podSecurityDefaults: {}, now: new Date(0) });

  it('an unknown class: 403 by Priority with upstream\'s message', () => {
    const r = admit(pod({ priorityClassName: 'foo' }), []);
    assert.deepEqual(r.rejection, { by: 'Priority', message: 'pods "p" is forbidden: no PriorityClass with name foo was found', code: 403, reason: 'Forbidden' });
  });
  it('Priority runs before validation: an unknown class wins over a field error', () => {
    const r = admit(pod({ priorityClassName: 'foo', restartPolicy: 'Sometimes' }), []);
    assert.equal(r.rejection?.by, 'Priority');
  });
  it('the stored pod carries the priority', () => {
    const r = admit(pod({ priorityClassName: 'default1' }), [default1]);
    assert.equal(r.rejection, undefined);
    assert.equal(r.pod!.spec.priority, 1000);
    assert.equal(r.pod!.spec.preemptionPolicy, 'PreemptLowerPriority');
  });
  it('ResourceQuota scopes see the class the default filled in', () => {
    const r = admit(pod(), [default1], [quota]);
    assert.equal(r.rejection?.by, 'ResourceQuota');
    assert.match(r.rejection!.message, /exceeded quota: high-only/);
  });
  it('a pod of another class is not counted by that quota', () => {
    const r = admit(pod({ priorityClassName: 'nondefault1' }), [default1, nondefault1], [quota]);
    assert.equal(r.rejection, undefined);
  });
});
