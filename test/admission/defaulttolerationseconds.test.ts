// The DefaultTolerationSeconds admission plugin, rows after upstream's admission_test.go (read,
// not copied), and its place in the pod create path (after Priority, before validation).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitDefaultTolerationSeconds } from '../../src/admission/defaulttolerationseconds.js';
import { admitPodCreate } from '../../src/admission/pod.js';
import { builtInPriorityClasses } from '../../src/admission/priority.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Pod, Toleration } from '../../src/api/types.js';

const notReady = (s = 300): Toleration => ({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const unreachable = (s = 300): Toleration => ({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const pod = (tolerations?: Toleration[]): Pod => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...(tolerations ? { tolerations } : {}) } }) as Pod;

describe('admitDefaultTolerationSeconds', () => {
  const rows: { name: string; have?: Toleration[]; want: Toleration[] }[] = [
    { name: 'none: both added, not-ready first', want: [notReady(), unreachable()] },
    { name: 'an unrelated toleration is kept before them', have: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }], want: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, notReady(), unreachable()] },
    { name: 'not-ready tolerated with its own seconds: only unreachable added', have: [notReady(60)], want: [notReady(60), unreachable()] },
    { name: 'unreachable tolerated forever: only not-ready added', have: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }], want: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, notReady()] },
    { name: 'an empty key tolerates both', have: [{ operator: 'Exists', effect: 'NoExecute' }], want: [{ operator: 'Exists', effect: 'NoExecute' }] },
    { name: 'an empty effect tolerates NoExecute', have: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }], want: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, unreachable()] },
    { name: 'a NoSchedule toleration of the key does not count', have: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }], want: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, notReady(), unreachable()] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(admitDefaultTolerationSeconds(pod(r.have)).spec.tolerations, r.want));
  it('the seconds are the flags\'', () => {
    assert.deepEqual(admitDefaultTolerationSeconds(pod(), { notReady: 7, unreachable: 9 }).spec.tolerations, [notReady(7), unreachable(9)]);
  });
  it('the input is not changed', () => {
    const p = pod();
    admitDefaultTolerationSeconds(p);
    assert.equal(p.spec.tolerations, undefined);
    const have = [notReady(60)];
    admitDefaultTolerationSeconds(pod(have));
    assert.deepEqual(have, [notReady(60)]);
  });
  for (const r of rows) {
    it(`in place, the owned pod itself gets them: ${r.name}`, () => {
      const p = pod(r.have);
      const out = admitDefaultTolerationSeconds(p, undefined, true);
      assert.equal(out, p);
      assert.deepEqual(p.spec.tolerations, r.want);
      // The same fields in the same order as the copy, so the stored object prints the same.
      assert.equal(JSON.stringify(p), JSON.stringify(admitDefaultTolerationSeconds(pod(r.have))));
    });
  }
});

describe('the pod create path', () => {
  const input = { namespaceLabels: {}, limitRanges: [], priorityClasses: builtInPriorityClasses(), quotas: [], gates: defaultFeatureGates, podSecurityDefaults: {}, now: new Date(0) };
  it('stores the default tolerations (300 s unless configured)', () => {
    assert.deepEqual(admitPodCreate({ ...input, pod: pod() }).pod!.spec.tolerations, [notReady(), unreachable()]);
    assert.deepEqual(admitPodCreate({ ...input, pod: pod(), defaultTolerationSeconds: { notReady: 1, unreachable: 2 } }).pod!.spec.tolerations, [notReady(1), unreachable(2)]);
  });
});
