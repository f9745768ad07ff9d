// The pod strategy's mutatePodAffinity (src/api/podaffinitylabelkeys.ts): matchLabelKeys and
// mismatchLabelKeys become `In` / `NotIn` requirements of the term's selector, valued from the
// pod's own labels; one row per rule of upstream's applyMatchLabelKeysAndMismatchLabelKeys
// (pkg/registry/core/pod/strategy.go, v1.32).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergePodAffinityLabelKeys } from '../../src/api/podaffinitylabelkeys.js';
import type { Affinity, Pod } from '../../src/api/types.js';

const pod = (affinity: unknown, labels?: Record<string, string>): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: 'c', image: 'busybox' }], affinity: affinity as Affinity },
});

const labels = { app: 'web', tier: 'fe', empty: '' };
const sel = (...exprs: { key: string; operator: string; values?: string[] }[]) => ({ matchLabels: { x: 'y' }, matchExpressions: exprs });

const rows: { name: string; affinity: unknown; labels?: Record<string, string>; want: unknown }[] = [
  {
    name: 'matchLabelKeys become In requirements, in the order of the keys, after the selector\'s own',
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: sel({ key: 'k', operator: 'Exists' }), matchLabelKeys: ['tier', 'app'] }] } },
    labels,
    want: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{
          topologyKey: 'zone',
          labelSelector: sel({ key: 'k', operator: 'Exists' }, { key: 'tier', operator: 'In', values: ['fe'] }, { key: 'app', operator: 'In', values: ['web'] }),
          matchLabelKeys: ['tier', 'app'],
        }],
      },
    },
  },
  {
    name: 'mismatchLabelKeys become NotIn requirements, after the In ones',
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, mismatchLabelKeys: ['app'], matchLabelKeys: ['tier'] }] } },
    labels,
    want: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{
          topologyKey: 'zone',
          labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }, { key: 'app', operator: 'NotIn', values: ['web'] }] },
          mismatchLabelKeys: ['app'],
          matchLabelKeys: ['tier'],
        }],
      },
    },
  },
  {
    name: 'preferred terms too, in both affinities; an empty label value is a value',
    affinity: {
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['empty'] } }] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: {}, mismatchLabelKeys: ['app'] } }] },
    },
    labels,
    want: {
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'empty', operator: 'In', values: [''] }] }, matchLabelKeys: ['empty'] } }] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] }, mismatchLabelKeys: ['app'] } }] },
    },
  },
  {
    name: 'a key the pod has no label for is skipped',
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['missing'] }] } },
    labels,
    want: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['missing'] }] } },
  },
  {
    name: 'a pod without labels changes nothing',
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['app'] }] } },
    want: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['app'] }] } },
  },
  {
    name: 'a term without a label selector matches nothing and is left alone',
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', matchLabelKeys: ['app'] }] } },
    labels,
    want: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', matchLabelKeys: ['app'] }] } },
  },
  {
    name: 'node affinity and null terms are untouched',
    affinity: { nodeAffinity: {}, podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [null], preferredDuringSchedulingIgnoredDuringExecution: [null, { weight: 1 }] } },
    labels,
    want: { nodeAffinity: {}, podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [null], preferredDuringSchedulingIgnoredDuringExecution: [null, { weight: 1 }] } },
  },
];

describe('mergePodAffinityLabelKeys', () => {
  for (const r of rows) {
    test(r.name, () => {
      const p = pod(r.affinity, r.labels);
      mergePodAffinityLabelKeys(p);
      assert.deepEqual(p.spec.affinity, r.want);
    });
  }
  test('a pod without affinity is left as it is', () => {
    const p = pod(undefined, labels);
    mergePodAffinityLabelKeys(p);
    assert.equal(p.spec.affinity, undefined);
  });
});

// Upstream strategy_test.go Test_mutatePodAffinity (kubernetes/kubernetes pkg/registry/core/pod/
// strategy_test.go, index file 148060311), the gate-enabled rows; 'the feature gate is disabled
// and matchLabelKeys is ignored' has no counterpart (Bulkhead has no MatchLabelKeysInPodAffinity gate).
describe('upstream Test_mutatePodAffinity', () => {
  const podLabels = { country: 'Japan', city: 'Kyoto' };
  const asia = { matchLabels: { region: 'Asia' } };
  const merged = { matchLabels: { region: 'Asia' }, matchExpressions: [{ key: 'country', operator: 'In', values: ['Japan'] }, { key: 'city', operator: 'NotIn', values: ['Kyoto'] }] };
  const both = (selector: unknown) => {
    const term = { labelSelector: selector, matchLabelKeys: ['country'], mismatchLabelKeys: ['city'] };
    const aff = () => ({ requiredDuringSchedulingIgnoredDuringExecution: [structuredClone(term)], preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: structuredClone(term) }] });
    return { podAffinity: aff(), podAntiAffinity: aff() };
  };
  const rows: { name: string; affinity: unknown; want: unknown }[] = [
    { name: 'matchLabelKeys are merged into labelSelector with In and mismatchLabelKeys are merged with NotIn', affinity: both(asia), want: both(merged) },
    {
      name: 'keys, which are not found in Pod labels, are ignored',
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: asia, matchLabelKeys: ['city', 'not-found'] }] } },
      want: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { region: 'Asia' }, matchExpressions: [{ key: 'city', operator: 'In', values: ['Kyoto'] }] }, matchLabelKeys: ['city', 'not-found'] }] } },
    },
    {
      name: 'matchLabelKeys is ignored if the labelSelector is nil',
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ matchLabelKeys: ['country'], mismatchLabelKeys: ['city'] }] } },
      want: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ matchLabelKeys: ['country'], mismatchLabelKeys: ['city'] }] } },
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const p = pod(structuredClone(r.affinity), podLabels);
      mergePodAffinityLabelKeys(p);
      assert.deepEqual(p.spec.affinity, r.want);
    });
  }
});
