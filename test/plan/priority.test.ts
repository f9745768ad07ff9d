// `bulkhead plan` and PriorityClasses (src/plan/engine.ts): classes in the input beside the two
// built-in ones resolve priorityClassName exactly as the API server's Priority plugin does, an
// unknown class is the server's 403, a class in the input is validated (and the one-globalDefault
// rule applied) as the server would, and the resolved priority is what the quota PriorityClass
// scope and the eviction ranking see.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { plan, type PlanObject } from '../../src/plan/engine.js';
import { renderPlanTable } from '../../src/plan/table.js';
import { parseEvictionThresholds } from '../../src/policy/eviction.js';

const node = { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2 as const, cgroupDriver: 'cgroupfs' as const };
const objects = (...os: KubeObject[]): PlanObject[] => os.map((object, i) => ({ object, source: { file: 'in.yaml', document: i + 1 } }));
const run = (os: PlanObject[], usage?: Map<string, bigint>) =>
  plan(os, { node, gates: defaultFeatureGates, podSecurity: {}, evictionHard: parseEvictionThresholds('memory.available<100Mi'), now: new Date(0), ...(usage ? { usage } : {}) });

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra }) as KubeObject;
const pod = (name: string, spec: Record<string, unknown> = {}, memory = '100Mi'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { memory } } }], ...spec } }) as KubeObject;

describe('plan: priorityClassName resolved from the input and the built-in classes', () => {
  const rows: { name: string; input: KubeObject[]; pod: string; admitted: boolean; priority?: number; className?: string; policy?: string; message?: string }[] = [
    { name: 'a class of the input gives its value', input: [pc('high', 1000), pod('web', { priorityClassName: 'high' })], pod: 'web', admitted: true, priority: 1000, className: 'high', policy: 'PreemptLowerPriority' },
    { name: 'a class later in the input counts too (classes are read before pods)', input: [pod('web', { priorityClassName: 'high' }), pc('high', 1000)], pod: 'web', admitted: true, priority: 1000, className: 'high' },
    { name: 'a built-in class without any in the input', input: [pod('crit', { priorityClassName: 'system-node-critical' })], pod: 'crit', admitted: true, priority: 2000001000, className: 'system-node-critical' },
    { name: 'no class: priority 0', input: [pod('plain')], pod: 'plain', admitted: true, priority: 0, className: undefined, policy: 'PreemptLowerPriority' },
    { name: 'no class and a globalDefault class in the input: its name and value', input: [pc('everyone', 7, { globalDefault: true }), pod('plain')], pod: 'plain', admitted: true, priority: 7, className: 'everyone' },
    { name: 'a Never class gives preemptionPolicy Never', input: [pc('batch', 5, { preemptionPolicy: 'Never' }), pod('job', { priorityClassName: 'batch' })], pod: 'job', admitted: true, priority: 5, policy: 'Never' },
    { name: 'an unknown class is the server\'s 403', input: [pod('x', { priorityClassName: 'foo' })], pod: 'x', admitted: false, message: 'pods "x" is forbidden: no PriorityClass with name foo was found' },
    { name: 'a refused class does not exist for the pods', input: [pc('huge', 2000000000), pod('x', { priorityClassName: 'huge' })], pod: 'x', admitted: false, message: 'pods "x" is forbidden: no PriorityClass with name huge was found' },
    { name: 'a user priority that differs is the server\'s 403', input: [pc('high', 1000), pod('y', { priorityClassName: 'high', priority: 3 })], pod: 'y', admitted: false, message: 'pods "y" is forbidden: the integer value of priority (3) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const p = run(objects(...r.input)).pods.find((x) => x.name === r.pod)!;
      assert.equal(p.admitted, r.admitted, JSON.stringify(p.rejections));
      if (!r.admitted) {
        assert.deepEqual(p.rejections, [{ by: 'Priority', message: r.message }]);
        return;
      }
      assert.equal(p.priority, r.priority);
      assert.equal(p.object!.spec.priority, r.priority);
      if ('className' in r) assert.equal(p.priorityClassName, r.className);
      if (r.policy) assert.equal(p.object!.spec.preemptionPolicy, r.policy);
    });
  }
});

describe('plan: PriorityClasses in the input are admitted as the server would', () => {
  const rows: { name: string; input: KubeObject[]; refused: { name: string; message: string; errors?: string[] }[] }[] = [
    { name: 'a valid class is taken', input: [pc('high', 1000)], refused: [] },
    { name: 'a user class above 1000000000 is invalid', input: [pc('huge', 1000000001)], refused: [{ name: 'huge', message: 'PriorityClass.scheduling.k8s.io "huge" is invalid', errors: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'] }] },
    { name: 'a second globalDefault class is forbidden', input: [pc('a', 1, { globalDefault: true }), pc('b', 2, { globalDefault: true })], refused: [{ name: 'b', message: 'priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist' }] },
    { name: 'a built-in class restated as it is: an unchanged apply', input: [pc('system-node-critical', 2000001000, { description: 'mine' })], refused: [] },
    { name: 'a built-in class with another value: the update is refused', input: [pc('system-cluster-critical', 5)], refused: [{ name: 'system-cluster-critical', message: 'PriorityClass.scheduling.k8s.io "system-cluster-critical" is invalid', errors: ['value: Forbidden: may not be changed in an update.'] }] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = run(objects(...r.input)).rejectedObjects;
      assert.deepEqual(
        got.map((o) => ({ name: o.name, message: o.message, ...(o.errors.length ? { errors: o.errors.map((e) => `${e.field}: ${e.message}`) } : {}) })),
        r.refused,
      );
      for (const o of got) {
        assert.equal(o.kind, 'PriorityClass');
        assert.equal(o.namespace, undefined, 'a cluster-scoped kind has no namespace');
      }
    });
  }
});

describe('plan: the resolved priority where it matters', () => {
  it('the quota PriorityClass scope counts a pod by the class the default filled in', () => {
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'defaults' },
      spec: { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['everyone'] }] } },
    } as KubeObject;
    const r = run(objects(pc('everyone', 7, { globalDefault: true }), quota, pod('a'), pod('b'), pod('c', { priorityClassName: 'system-cluster-critical' })));
    assert.deepEqual(r.pods.map((p) => [p.name, p.admitted]), [['a', true], ['b', false], ['c', true]]);
    assert.match(r.pods[1]!.rejections[0]!.message, /exceeded quota: defaults, requested: pods=1, used: pods=1, limited: pods=1/);
  });

  it('eviction ranks the lower priority first among pods with equal excess usage', () => {
    const usage = new Map([['default/low', 300n << 20n], ['default/high', 300n << 20n]]);
    const r = run(objects(pc('high', 1000), pc('low', 10), pod('high', { priorityClassName: 'high' }), pod('low', { priorityClassName: 'low' })), usage);
    assert.deepEqual(r.evictionOrder, ['default/low', 'default/high']);
  });

  it('the table names the priority and class of a pod that has one, and only then', () => {
    const out = renderPlanTable(run(objects(pc('high', 1000), pod('web', { priorityClassName: 'high' }), pod('plain'))));
    assert.match(out, /^default\/web .*\n {4}priority: 1000 \(PriorityClass high\)$/m);
    assert.doesNotMatch(out.split('default/plain')[1]!, /priority:/);
  });
});
