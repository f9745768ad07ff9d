// Which pods a quota's scopes and scope selector match (src/quota/scopes.ts).
//
// Rows ported from kubernetes/kubernetes pkg/quota/v1/evaluator/core/pods_test.go
// (TestPodEvaluatorMatchingScopes, and the scope parts of TestPodEvaluatorUsageStats — the
// latter run through computeQuotaStatus in admission.test.ts), plus rows pinning reference
// quota-validation-eviction.md §2 (PriorityClass label-selector semantics, CrossNamespacePodAffinity,
// QoS from status.qosClass, AND of all selectors).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodAffinityTerm, ScopedResourceSelectorRequirement } from '../../src/api/types.js';
import { podMatchesAllScopes, podMatchesScope, podMatchingScopes, quotaSelectors, scopeSelectorError, usesCrossNamespacePodAffinity, isTerminating } from '../../src/quota/scopes.js';
import { quotaMatchesPod } from '../../src/quota/admission.js';
import { cm, ctr, gatesOff, gatesOn, mkPod, mkQuota } from './fixtures.js';

/** MatchingScopes: the selectors, in order, that the pod matches (these rows have no error). */
function matchingScopes(pod: Pod, selectors: ScopedResourceSelectorRequirement[]): ScopedResourceSelectorRequirement[] {
  const m = podMatchingScopes(pod, selectors, gatesOff);
  assert.ok('matched' in m, JSON.stringify(m));
  return m.matched;
}

// Upstream's selectors use an empty operator for every scope but PriorityClass.
const sel = (scopeName: string): ScopedResourceSelectorRequirement => ({ scopeName, operator: '' });
const pcIn = (...values: string[]): ScopedResourceSelectorRequirement => ({ scopeName: 'PriorityClass', operator: 'In', values });
const defaultSelectors = [sel('Terminating'), sel('NotTerminating'), sel('BestEffort'), sel('NotBestEffort'), pcIn('class1'), sel('CrossNamespacePodAffinity')];

const term = (t: Partial<PodAffinityTerm>): PodAffinityTerm => ({ topologyKey: '', labelSelector: {}, ...t });

describe('MatchingScopes: pods_test.go TestPodEvaluatorMatchingScopes', () => {
  const rows: { name: string; pod: Pod; selectors?: ScopedResourceSelectorRequirement[]; want: ScopedResourceSelectorRequirement[] }[] = [
    { name: 'EmptyPod', pod: mkPod('p', {}), want: [sel('NotTerminating'), sel('BestEffort')] },
    { name: 'PriorityClass', pod: mkPod('p', { priorityClassName: 'class1' }), want: [sel('NotTerminating'), sel('BestEffort'), pcIn('class1')] },
    {
      name: 'NotBestEffort',
      pod: mkPod('p', {
        containers: [ctr('', { cpu: '1', memory: '50M', 'example.com/dongle': '1' }, { cpu: '2', memory: '100M', 'example.com/dongle': '1' })],
      }),
      want: [sel('NotTerminating'), sel('NotBestEffort')],
    },
    { name: 'Terminating', pod: mkPod('p', { activeDeadlineSeconds: 30 }), want: [sel('Terminating'), sel('BestEffort')] },
    { name: 'OnlyTerminating', pod: mkPod('p', { activeDeadlineSeconds: 30 }), selectors: [sel('Terminating')], want: [sel('Terminating')] },
    {
      name: 'CrossNamespaceRequiredAffinity',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['ns1'], namespaceSelector: {} })] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
    {
      name: 'CrossNamespaceRequiredAffinityWithSlice',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['ns1'] })] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
    {
      name: 'CrossNamespacePreferredAffinity',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaces: ['ns2'], namespaceSelector: {} }) }] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
    {
      name: 'CrossNamespacePreferredAffinityWithSelector',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaceSelector: {} }) }] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
    {
      name: 'CrossNamespacePreferredAntiAffinity',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term({ namespaceSelector: {} }) }] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
    {
      name: 'CrossNamespaceRequiredAntiAffinity',
      pod: mkPod('p', {
        activeDeadlineSeconds: 30,
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: ['ns3'] })] } },
      }),
      want: [sel('Terminating'), sel('BestEffort'), sel('CrossNamespacePodAffinity')],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(matchingScopes(row.pod, row.selectors ?? defaultSelectors), row.want);
    });
  }
});

describe('PriorityClass scope selector: reference §2 (label-selector semantics on {PriorityClass: <class>})', () => {
  const withClass = mkPod('p', { priorityClassName: 'high' });
  const noClass = mkPod('p', {});
  const emptyClass = mkPod('p', { priorityClassName: '' });
  const rows: { name: string; pod: Pod; selector: ScopedResourceSelectorRequirement; want: boolean }[] = [
    { name: 'Exists matches a pod with a class', pod: withClass, selector: { scopeName: 'PriorityClass', operator: 'Exists' }, want: true },
    { name: 'Exists does not match a pod without a class', pod: noClass, selector: { scopeName: 'PriorityClass', operator: 'Exists' }, want: false },
    { name: 'Exists treats an empty class name as no class', pod: emptyClass, selector: { scopeName: 'PriorityClass', operator: 'Exists' }, want: false },
    { name: 'In matches a listed class', pod: withClass, selector: pcIn('low', 'high'), want: true },
    { name: 'In does not match an unlisted class', pod: withClass, selector: pcIn('low'), want: false },
    { name: 'In needs the key present: no class never matches', pod: noClass, selector: pcIn('high', ''), want: false },
    { name: 'NotIn matches an unlisted class', pod: withClass, selector: { scopeName: 'PriorityClass', operator: 'NotIn', values: ['low'] }, want: true },
    { name: 'NotIn does not match a listed class', pod: withClass, selector: { scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, want: false },
    { name: 'NotIn matches a pod without a class (key absent)', pod: noClass, selector: { scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, want: true },
    { name: 'DoesNotExist matches a pod without a class', pod: noClass, selector: { scopeName: 'PriorityClass', operator: 'DoesNotExist' }, want: true },
    { name: 'DoesNotExist does not match a pod with a class', pod: withClass, selector: { scopeName: 'PriorityClass', operator: 'DoesNotExist' }, want: false },
    { name: 'unknown operator never matches', pod: withClass, selector: { scopeName: 'PriorityClass', operator: 'Gt', values: ['1'] }, want: false },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(podMatchesScope(row.pod, row.selector, gatesOff), row.want);
    });
  }
});

describe('other scopes: reference §2 table', () => {
  const be = mkPod('p', { containers: [ctr('a')] });
  const burstable = mkPod('p', { containers: [ctr('a', cm('100m'))] });
  const rows: { name: string; pod: Pod; scope: string; operator?: string; want: boolean; gates?: typeof gatesOn }[] = [
    { name: 'Terminating: activeDeadlineSeconds 0 counts (>= 0)', pod: mkPod('p', { activeDeadlineSeconds: 0 }), scope: 'Terminating', want: true },
    { name: 'Terminating: unset activeDeadlineSeconds is NotTerminating', pod: mkPod('p', {}), scope: 'NotTerminating', want: true },
    { name: 'Terminating: negative activeDeadlineSeconds is not terminating', pod: mkPod('p', { activeDeadlineSeconds: -1 }), scope: 'Terminating', want: false },
    { name: 'BestEffort: no requests or limits', pod: be, scope: 'BestEffort', want: true },
    { name: 'NotBestEffort: any cpu request', pod: burstable, scope: 'NotBestEffort', want: true },
    { name: 'BestEffort: a zero request is treated as absent', pod: mkPod('p', { containers: [ctr('a', cm('0', '0'))] }), scope: 'BestEffort', want: true },
    {
      name: 'BestEffort: resources other than cpu/memory never affect QoS',
      pod: mkPod('p', { containers: [ctr('a', { 'ephemeral-storage': '1Gi', 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '1' })] }),
      scope: 'BestEffort',
      want: true,
    },
    { name: 'BestEffort: init container requests count', pod: mkPod('p', { initContainers: [ctr('i', cm('1'))], containers: [ctr('a')] }), scope: 'NotBestEffort', want: true },
    {
      name: 'BestEffort: a persisted status.qosClass wins over the spec',
      pod: mkPod('p', { containers: [ctr('a', cm('1', '1Gi'), cm('1', '1Gi'))] }, { status: { qosClass: 'BestEffort' } }),
      scope: 'BestEffort',
      want: true,
    },
    {
      name: 'BestEffort: pod-level resources decide QoS with the gate on',
      pod: mkPod('p', { resources: { requests: cm('1'), limits: cm('1') }, containers: [ctr('a')] }),
      scope: 'NotBestEffort',
      gates: gatesOn,
      want: true,
    },
    {
      name: 'BestEffort: pod-level resources are ignored with the gate off',
      pod: mkPod('p', { resources: { requests: cm('1'), limits: cm('1') }, containers: [ctr('a')] }),
      scope: 'BestEffort',
      want: true,
    },
    { name: 'operator is ignored for non-PriorityClass scopes', pod: be, scope: 'BestEffort', operator: 'DoesNotExist', want: true },
    { name: 'unknown scope never matches', pod: be, scope: 'Everything', want: false },
    {
      name: 'CrossNamespacePodAffinity: empty namespaces list and no selector is same-namespace',
      pod: mkPod('p', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaces: [] })] } } }),
      scope: 'CrossNamespacePodAffinity',
      want: false,
    },
    {
      name: 'CrossNamespacePodAffinity: no affinity at all',
      pod: be,
      scope: 'CrossNamespacePodAffinity',
      want: false,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(podMatchesScope(row.pod, { scopeName: row.scope, operator: row.operator ?? 'Exists' }, row.gates ?? gatesOff), row.want);
    });
  }
  it('isTerminating and usesCrossNamespacePodAffinity are exported views of the same rules', () => {
    assert.equal(isTerminating(mkPod('p', { activeDeadlineSeconds: 5 })), true);
    assert.equal(usesCrossNamespacePodAffinity(mkPod('p', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ namespaceSelector: {} })] } } })), true);
  });
});

describe('quotaSelectors and quota matching: reference §2 / §3.4', () => {
  it('spec.scopes become Exists selectors, followed by scopeSelector.matchExpressions', () => {
    const q = mkQuota('q', { scopes: ['Terminating', 'NotBestEffort'], selector: [pcIn('high')] });
    assert.deepEqual(quotaSelectors(q), [
      { scopeName: 'Terminating', operator: 'Exists' },
      { scopeName: 'NotBestEffort', operator: 'Exists' },
      pcIn('high'),
    ]);
  });
  it('no scopes: empty selector list, matches every pod', () => {
    const q = mkQuota('q', {});
    assert.deepEqual(quotaSelectors(q), []);
    assert.equal(podMatchesAllScopes(mkPod('p', {}), [], gatesOff), true);
  });
  const pod = mkPod('p', { activeDeadlineSeconds: 10, priorityClassName: 'high', containers: [ctr('a', cm('1'))] });
  const rows: { name: string; q: ReturnType<typeof mkQuota>; want: boolean }[] = [
    { name: 'every selector must match (AND): all match', q: mkQuota('q', { hard: { pods: '1' }, scopes: ['Terminating', 'NotBestEffort'], selector: [pcIn('high')] }), want: true },
    { name: 'every selector must match (AND): one fails', q: mkQuota('q', { hard: { pods: '1' }, scopes: ['Terminating', 'BestEffort'] }), want: false },
    { name: 'matching reads status.hard: a quota without status matches nothing', q: mkQuota('q', { specHard: { pods: '1' } }), want: false },
    { name: 'a quota whose status.hard has only untracked keys does not match pods', q: mkQuota('q', { hard: { services: '1', 'nvidia.com/gpu': '1' } }), want: false },
    { name: 'one tracked key in status.hard is enough', q: mkQuota('q', { hard: { services: '1', 'count/pods': '10' } }), want: true },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(quotaMatchesPod(row.q, pod, gatesOff), row.want);
    });
  }
});

describe('scopeSelectorError: podMatchesScopeFunc on a selector it cannot make into a label selector (helpers.go ScopedResourceSelectorRequirementsAsSelector, labels.NewRequirement v1.32)', () => {
  const labelValue = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  const pc = (operator: string, values?: string[]): ScopedResourceSelectorRequirement => ({ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) });
  const prefix = (s: string) => `error on matching scope ${s}: failed to parse and convert selector: `;
  const rows: { name: string; selector: ScopedResourceSelectorRequirement; want: string | undefined }[] = [
    { name: 'In with a value: none', selector: pc('In', ['cluster-services']), want: undefined },
    { name: 'NotIn with a value: none', selector: pc('NotIn', ['a']), want: undefined },
    { name: 'DoesNotExist without values: none', selector: pc('DoesNotExist'), want: undefined },
    { name: 'Exists is never parsed, values or not', selector: pc('Exists', ['not a label value']), want: undefined },
    { name: 'another scope is never parsed', selector: { scopeName: 'BestEffort', operator: 'In' }, want: undefined },
    { name: 'In with an empty list of values', selector: pc('In', []),
      want: `${prefix('{PriorityClass In []}')}values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty` },
    { name: 'NotIn without values (nil)', selector: pc('NotIn'),
      want: `${prefix('{PriorityClass NotIn []}')}values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty` },
    { name: 'DoesNotExist with a value', selector: pc('DoesNotExist', ['a']),
      want: `${prefix('{PriorityClass DoesNotExist [a]}')}values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist` },
    { name: 'an operator label selectors do not have', selector: pc('Gt', ['1']), want: `${prefix('{PriorityClass Gt [1]}')}"Gt" is not a valid scope selector operator` },
    { name: 'no operator', selector: pc(''), want: `${prefix('{PriorityClass  []}')}"" is not a valid scope selector operator` },
    { name: 'a value that is no label value', selector: pc('In', ['a b']), want: `${prefix('{PriorityClass In [a b]}')}values[0][PriorityClass]: Invalid value: "a b": ${labelValue}` },
    { name: 'several such values: an aggregate', selector: pc('NotIn', ['ok', '-x', 'y-']),
      want: `${prefix('{PriorityClass NotIn [ok -x y-]}')}[values[1][PriorityClass]: Invalid value: "-x": ${labelValue}, values[2][PriorityClass]: Invalid value: "y-": ${labelValue}]` },
    { name: 'DoesNotExist with a bad value: both errors', selector: pc('DoesNotExist', ['a b']),
      want: `${prefix('{PriorityClass DoesNotExist [a b]}')}[values: Invalid value: []string{"a b"}: values set must be empty for exists and does not exist, values[0][PriorityClass]: Invalid value: "a b": ${labelValue}]` },
    { name: 'a value of 64 characters', selector: pc('In', ['a'.repeat(64)]),
      want: `${prefix(`{PriorityClass In [${'a'.repeat(64)}]}`)}values[0][PriorityClass]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters` },
  ];
  for (const row of rows) it(row.name, () => assert.equal(scopeSelectorError(row.selector), row.want));

  it('MatchingScopes stops at the first selector it cannot match, whatever the pod', () => {
    const m = podMatchingScopes(mkPod('p', {}), [sel('BestEffort'), pc('In', []), pc('Gt')], gatesOff);
    assert.deepEqual(m, { error: `${prefix('{PriorityClass In []}')}values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty` });
  });
});
