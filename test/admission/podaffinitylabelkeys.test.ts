// The pod create path merges matchLabelKeys into the affinity selectors before validating
// (PrepareForCreate's mutatePodAffinity, then ValidatePodCreate), so the stored pod carries the
// merged selector, and a key also written in the selector is refused as upstream refuses it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitPodCreate } from '../../src/admission/pod.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Affinity, Pod } from '../../src/api/types.js';

const pod = (affinity: unknown): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', labels: { app: 'web', 'pod-template-hash': 'abc' } },
  spec: { containers: [{ name: 'c', image: 'busybox' }], affinity: affinity as Affinity },
});
const admit = (p: Pod) => admitPodCreate({ pod: p, namespaceLabels: {}, limitRanges: [], priorityClasses: [], quotas: [], gates: defaultFeatureGates, podSecurityDefaults: {}, now: new Date(0) });
const term = (extra: Record<string, unknown>) => ({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', ...extra }] } });

describe('pod create: matchLabelKeys merged, then validated', () => {
  it('the stored pod carries the merged selector', () => {
    const r = admit(pod(term({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] })));
    assert.equal(r.rejection, undefined, r.rejection?.message);
    assert.deepEqual(r.pod?.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector, {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['abc'] }],
    });
  });
  it('a key in the selector and in matchLabelKeys is refused (422) at upstream\'s path', () => {
    const r = admit(pod(term({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, matchLabelKeys: ['app'] })));
    assert.deepEqual(r.rejection, {
      by: 'Validation',
      message: 'Pod "p" is invalid: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
      code: 422,
      reason: 'Invalid',
    });
  });
  it('the same key in the selector is accepted when the pod lacks the label (nothing is merged)', () => {
    const r = admit(pod(term({ labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, matchLabelKeys: ['tier'] })));
    assert.equal(r.rejection, undefined, r.rejection?.message);
  });
  it('a key in both matchLabelKeys and mismatchLabelKeys: merged twice, so reported twice', () => {
    const r = admit(pod(term({ labelSelector: {}, matchLabelKeys: ['app'], mismatchLabelKeys: ['app'] })));
    assert.deepEqual(r.errors.map((e) => `${e.field}: ${e.message}`), [
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys',
    ]);
  });
});
