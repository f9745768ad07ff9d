// `bulkhead plan` and RuntimeClasses (src/plan/engine.ts): classes of the input go through the
// same RuntimeClass admission plugin as a create on the API server (admission/runtimeclass.ts):
// the pod gets the class's overhead, nodeSelector and tolerations, an unknown class or a
// conflicting selector is the server's 403, a class is validated as the server's strategy does,
// and the overhead reaches the pod cgroup and the quota as it would on a node.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { KubeObject } from '../../src/api/types.js';
import { plan, type PlanObject } from '../../src/plan/engine.js';
import { podLines } from '../../src/plan/table.js';
import { parseEvictionThresholds } from '../../src/policy/eviction.js';

const node = { memoryBytes: 16n << 30n, milliCPU: 4000n, cgroupVersion: 2 as const, cgroupDriver: 'cgroupfs' as const };
const objects = (...os: KubeObject[]): PlanObject[] => os.map((object, i) => ({ object, source: { file: 'in.yaml', document: i + 1 } }));
const run = (os: PlanObject[]) => plan(os, { node, gates: defaultFeatureGates, podSecurity: {}, evictionHard: parseEvictionThresholds('memory.available<100Mi'), now: new Date(0) });

const rc = (name: string, handler: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler, ...extra }) as KubeObject;
const pod = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '500m', memory: '128Mi' } } }], ...spec } }) as KubeObject;
const crun = rc('sandboxed', 'crun', { overhead: { podFixed: { cpu: '250m', memory: '64Mi' } }, scheduling: { nodeSelector: { 'runtime/crun': 'true' }, tolerations: [{ key: 'runtime', operator: 'Exists', effect: 'NoSchedule' }] } });

describe('plan: pods naming a RuntimeClass of the input', () => {
  it('the pod gets the class\'s overhead, nodeSelector and tolerations, and says its class and handler', () => {
    const p = run(objects(crun, pod('a', { runtimeClassName: 'sandboxed' }))).pods[0]!;
    assert.equal(p.admitted, true, JSON.stringify(p.rejections));
    assert.deepEqual(p.object!.spec.overhead, { cpu: '250m', memory: '64Mi' });
    assert.deepEqual(p.object!.spec.nodeSelector, { 'runtime/crun': 'true' });
    assert.equal(p.object!.spec.tolerations!.at(-1)!.key, 'runtime');
    assert.deepEqual([p.runtimeClassName, p.runtimeHandler, p.overhead], ['sandboxed', 'crun', { cpu: '250m', memory: '64Mi' }]);
    assert.ok(podLines(p).includes('    runtime class: sandboxed (handler crun), overhead cpu=250m memory=64Mi'), podLines(p).join('\n'));
  });
  it('a class later in the input counts too (classes are read before pods)', () => {
    const p = run(objects(pod('a', { runtimeClassName: 'sandboxed' }), crun)).pods[0]!;
    assert.equal(p.admitted, true, JSON.stringify(p.rejections));
  });
  it('the overhead is in the pod cgroup (memory.max = limits + overhead, cpu.max too)', () => {
    const p = run(objects(crun, pod('a', { runtimeClassName: 'sandboxed' }))).pods[0]!;
    assert.equal(p.podCgroup!.values['memory.max'], String(192 * 1024 * 1024));
    assert.equal(p.podCgroup!.values['cpu.max'], '75000 100000');
  });
  it('the overhead is charged to the quota', () => {
    const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec: { hard: { 'limits.memory': '1Gi' } } } as KubeObject;
    const r = run(objects(quota, crun, pod('a', { runtimeClassName: 'sandboxed' })));
    assert.deepEqual(r.quotas.find((q) => q.name === 'q')!.used, { 'limits.memory': '192Mi' });
  });
  const refusals: { name: string; input: KubeObject[]; message: string }[] = [
    { name: 'an unknown class is the server\'s 403', input: [pod('b', { runtimeClassName: 'nope' })], message: 'pods "b" is forbidden: pod rejected: RuntimeClass "nope" not found' },
    { name: 'a refused class does not exist for the pods', input: [rc('bad', 'Bad_Handler'), pod('b', { runtimeClassName: 'bad' })], message: 'pods "b" is forbidden: pod rejected: RuntimeClass "bad" not found' },
    { name: 'a conflicting nodeSelector is the server\'s 403', input: [crun, pod('b', { runtimeClassName: 'sandboxed', nodeSelector: { 'runtime/crun': 'false' } })], message: 'pods "b" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime/crun] = true; pod.spec.nodeSelector[runtime/crun] = false' },
    { name: 'an overhead without a class is the server\'s 403', input: [pod('b', { overhead: { cpu: '1' } })], message: 'pods "b" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
  ];
  for (const r of refusals) {
    it(r.name, () => {
      const p = run(objects(...r.input)).pods.find((x) => x.name === 'b')!;
      assert.deepEqual(p.rejections, [{ by: 'RuntimeClass', message: r.message }]);
    });
  }
});

describe('plan: RuntimeClasses of the input are taken as the server would', () => {
  const rows: { name: string; input: KubeObject[]; refused: { name: string; message: string; errors?: string[] }[] }[] = [
    { name: 'a valid class is taken', input: [crun], refused: [] },
    { name: 'a handler that is not a DNS label is invalid', input: [rc('x', 'Not_A_Label')], refused: [{ name: 'x', message: 'RuntimeClass.node.k8s.io "x" is invalid', errors: [`handler: Invalid value: "Not_A_Label": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`] }] },
    { name: 'the same class again with another handler: the update is refused', input: [rc('x', 'runc'), rc('x', 'crun')], refused: [{ name: 'x', message: 'RuntimeClass.node.k8s.io "x" is invalid', errors: ['handler: Invalid value: "crun": field is immutable'] }] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const got = run(objects(...r.input)).rejectedObjects;
      assert.deepEqual(
        got.map((o) => ({ name: o.name, message: o.message, ...(o.errors.length ? { errors: o.errors.map((e) => `${e.field}: ${e.message}`) } : {}) })),
        r.refused,
      );
      for (const o of got) assert.equal(o.namespace, undefined, 'a cluster-scoped kind has no namespace');
    });
  }
});
