// The ResourceQuota configuration's limitedResources at admission (src/quota/limited.ts, through
// decideQuotas, decideServiceQuota and decideObjectCount, and admitPodCreate for the status codes).
//
// Rows ported from kubernetes/kubernetes plugin/pkg/admission/resourcequota/admission_test.go
// (v1.32): TestAdmitLimitedResourceNoQuota, …NoQuotaIgnoresNonMatchingResources, …WithQuota,
// …WithMultipleQuota, …WithQuotaThatDoesNotCover, TestAdmitLimitedScopeWithCoverQuota (every row),
// TestAdmitZeroDeltaUsageWithoutCoveringQuota, TestAdmitRejectIncreaseUsageWithoutCoveringQuota,
// TestAdmitAllowDecreaseUsageWithoutCoveringQuota. Upstream checks err != nil, or that the error
// contains its expErr; the rows here pin the whole message, the quota charged and whether the
// refusal is Forbidden or a plain error (k8s.io/apiserver controller.go CheckRequest). Upstream
// lists its quotas from a fake client in namespace "test": its nameless `&ResourceQuota{}` rows
// are namespaces without a quota here. Then rows pinning the rest of CheckRequest's behaviour.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPodCreate } from '../../src/admission/pod.js';
import { builtInPriorityClasses } from '../../src/admission/priority.js';
import { defaultFeatureGates } from '../../src/api/featuregates.js';
import type { Service } from '../../src/api/servicetypes.js';
import type { Pod, PriorityClass, ResourceQuota, ScopedResourceSelectorRequirement } from '../../src/api/types.js';
import { decideQuotas, type QuotaDecision } from '../../src/quota/admission.js';
import type { LimitedResource } from '../../src/quota/config.js';
import { limitedByDefault, limitedResourcesFor, uncoveredConsumption, uncoveredQuotaScopes } from '../../src/quota/limited.js';
import { decideObjectCount } from '../../src/quota/objectcount.js';
import { decideServiceQuota } from '../../src/quota/services.js';
import { cm, ctr, mkPod, mkQuota, optsOff, quotaValidPod } from './fixtures.js';

/** A limitedResources entry as upstream's tests write them (apiGroup "" unless given). */
const limit = (resource: string, parts: { matchContains?: string[]; matchScopes?: ScopedResourceSelectorRequirement[]; apiGroup?: string } = {}): LimitedResource => ({
  apiGroup: parts.apiGroup ?? '',
  resource,
  matchContains: parts.matchContains ?? [],
  matchScopes: parts.matchScopes ?? [],
});
const exists = (scopeName: string): ScopedResourceSelectorRequirement => ({ scopeName, operator: 'Exists' });
const pcIn = (...values: string[]): ScopedResourceSelectorRequirement => ({ scopeName: 'PriorityClass', operator: 'In', values });

/** What a decision says, compared whole: allowed with these charges, or refused so. */
type Want =
  | { charges: { name: string; used: Record<string, string> }[] }
  | { message: string; quota?: string; limited?: true; plainError?: true };

function summary(d: QuotaDecision): Want {
  if (d.allowed) return { charges: d.charges.map((c) => ({ name: c.name, used: c.used })) };
  const { message, quota, limited, plainError } = d;
  return { message, ...(quota !== undefined ? { quota } : {}), ...(limited ? { limited } : {}), ...(plainError ? { plainError } : {}) };
}

const decide = (pod: Pod, quotas: ResourceQuota[], limitedResources: LimitedResource[]) => summary(decideQuotas(pod, quotas, { ...optsOff, limitedResources }));
const allowed = (charges: { name: string; used: Record<string, string> }[] = []): Want => ({ charges });
const consume = (names: string): Want => ({ message: `insufficient quota to consume: ${names}`, limited: true });
const scopes = (list: string): Want => ({ message: `insufficient quota to match these scopes: ${list}`, limited: true, plainError: true });

// upstream validPod / validPodWithPriority: one nameless container sharing one requirements block.
const pod = (name: string, cpu: string, memory: string, priorityClass = '') => {
  const p = quotaValidPod(name, 1, cm(cpu, memory), cm());
  if (priorityClass) p.spec.priorityClassName = priorityClass;
  return p;
};

describe('decideQuotas with limitedResources: admission_test.go TestAdmitLimitedResource*', () => {
  const rows: { name: string; pod: Pod; quotas: ResourceQuota[]; limited: LimitedResource[]; want: Want }[] = [
    {
      name: 'TestAdmitLimitedResourceNoQuota: a limited resource is configured with no quota, it cannot be consumed',
      pod: pod('not-allowed-pod', '3', '2Gi'),
      quotas: [],
      limited: [limit('pods', { matchContains: ['cpu'] })],
      want: consume('cpu,requests.cpu'),
    },
    {
      name: 'TestAdmitLimitedResourceNoQuotaIgnoresNonMatchingResources: another resource\'s entry does not limit pods',
      pod: pod('allowed-pod', '3', '2Gi'),
      quotas: [],
      limited: [limit('services', { matchContains: ['services'] })],
      want: allowed(),
    },
    {
      name: 'TestAdmitLimitedResourceWithQuota: a limited resource with a quota limiting it can be consumed',
      pod: pod('allowed-pod', '3', '2Gi'),
      quotas: [mkQuota('quota', { hard: { 'requests.cpu': '10' }, used: { 'requests.cpu': '1' } })],
      limited: [limit('pods', { matchContains: ['requests.cpu'] })],
      want: allowed([{ name: 'quota', used: { 'requests.cpu': '4' } }]),
    },
    {
      name: 'TestAdmitLimitedResourceWithMultipleQuota: one of several quotas covering it is enough',
      pod: pod('allowed-pod', '3', '2Gi'),
      quotas: [
        mkQuota('quota1', { hard: { 'requests.cpu': '10' }, used: { 'requests.cpu': '1' } }),
        mkQuota('quota2', { hard: { memory: '10Gi' }, used: { memory: '1Gi' } }),
      ],
      limited: [limit('pods', { matchContains: ['requests.cpu'] })],
      want: allowed([
        { name: 'quota1', used: { 'requests.cpu': '4' } },
        { name: 'quota2', used: { memory: '3Gi' } },
      ]),
    },
    {
      name: 'TestAdmitLimitedResourceWithQuotaThatDoesNotCover: a quota must limit what is limited',
      pod: pod('not-allowed-pod', '3', '2Gi'),
      quotas: [mkQuota('quota', { hard: { memory: '10Gi' }, used: { memory: '1Gi' } })],
      limited: [limit('pods', { matchContains: ['cpu'] })],
      want: consume('cpu,requests.cpu'),
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(decide(r.pod, r.quotas, r.limited), r.want));
});

describe('decideQuotas with limitedResources: admission_test.go TestAdmitLimitedScopeWithCoverQuota', () => {
  const pcExistsQuota = () => mkQuota('quota', { selector: [exists('PriorityClass')] });
  const pcInQuota = (...values: string[]) => mkQuota('quota', { selector: [pcIn(...values)] });
  const beQuota = () => mkQuota('quota-besteffort', { scopes: ['BestEffort'], hard: { pods: '5' }, used: { pods: '3' } });
  const bePC = [limit('pods', { matchScopes: [exists('BestEffort')] }), limit('pods', { matchScopes: [pcIn('cluster-services')] })];
  const rows: { name: string; pod: Pod; quotas: ResourceQuota[]; limited: LimitedResource[]; want: Want }[] = [
    {
      name: 'Covering quota exists for configured limited scope PriorityClassNameExists.',
      pod: pod('allowed-pod', '3', '2Gi', 'fake-priority'),
      quotas: [pcExistsQuota()],
      limited: [limit('pods', { matchScopes: [exists('PriorityClass')] })],
      want: allowed(),
    },
    {
      name: 'configured limited scope PriorityClassNameExists and limited cpu resource. No covering quota for cpu and pod admit fails.',
      pod: pod('not-allowed-pod', '3', '2Gi', 'fake-priority'),
      quotas: [pcExistsQuota()],
      limited: [limit('pods', { matchScopes: [exists('PriorityClass')], matchContains: ['requests.cpu'] })],
      want: consume('requests.cpu'),
    },
    {
      name: 'Covering quota does not exist for configured limited scope PriorityClassNameExists.',
      pod: pod('not-allowed-pod', '3', '2Gi', 'fake-priority'),
      quotas: [],
      limited: [limit('pods', { matchScopes: [exists('PriorityClass')] })],
      want: scopes('[{PriorityClass Exists []}]'),
    },
    {
      name: 'Covering quota does not exist for configured limited scope resourceQuotaBestEffort',
      pod: pod('not-allowed-pod', '', '', 'fake-priority'),
      quotas: [],
      limited: [limit('pods', { matchScopes: [exists('BestEffort')] })],
      want: scopes('[{BestEffort Exists []}]'),
    },
    {
      name: 'Covering quota exist for configured limited scope resourceQuotaBestEffort',
      pod: pod('allowed-pod', '', '', 'fake-priority'),
      quotas: [beQuota()],
      limited: [limit('pods', { matchScopes: [exists('BestEffort')] })],
      want: allowed([{ name: 'quota-besteffort', used: { pods: '4' } }]),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Neither matches pod. Pod allowed',
      pod: pod('allowed-pod', '100m', '1Gi', 'fake-priority'),
      quotas: [],
      limited: bePC,
      want: allowed(),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Only BestEffort scope matches pod. Pod admit fails because covering quota is missing for BestEffort scope',
      pod: pod('allowed-pod', '', '', 'fake-priority'),
      quotas: [],
      limited: bePC,
      want: scopes('[{BestEffort Exists []}]'),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Only PriorityClass scope matches pod. Pod admit fails because covering quota is missing for PriorityClass scope',
      pod: pod('allowed-pod', '100m', '1Gi', 'cluster-services'),
      quotas: [],
      limited: bePC,
      want: scopes('[{PriorityClass In [cluster-services]}]'),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches pod. Pod admit fails because covering quota is missing for PriorityClass scope and BestEffort scope',
      pod: pod('allowed-pod', '', '', 'cluster-services'),
      quotas: [],
      limited: bePC,
      want: scopes('[{BestEffort Exists []} {PriorityClass In [cluster-services]}]'),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches pod. Quota available only for BestEffort scope. Pod admit fails because covering quota is missing for PriorityClass scope',
      pod: pod('allowed-pod', '', '', 'cluster-services'),
      quotas: [beQuota()],
      limited: bePC,
      want: scopes('[{PriorityClass In [cluster-services]}]'),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches pod. Quota available only for PriorityClass scope. Pod admit fails because covering quota is missing for BestEffort scope',
      pod: pod('allowed-pod', '', '', 'cluster-services'),
      quotas: [pcInQuota('cluster-services')],
      limited: bePC,
      want: scopes('[{BestEffort Exists []}]'),
    },
    {
      name: 'Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches pod. Quota available only for both the scopes. Pod admit success. No Error',
      pod: pod('allowed-pod', '', '', 'cluster-services'),
      quotas: [beQuota(), pcInQuota('cluster-services')],
      limited: bePC,
      want: allowed([{ name: 'quota-besteffort', used: { pods: '4' } }]),
    },
    {
      name: 'Pod allowed with priorityclass if limited scope PriorityClassNameExists not configured.',
      pod: pod('allowed-pod', '3', '2Gi', 'fake-priority'),
      quotas: [],
      limited: [],
      want: allowed(),
    },
    {
      name: 'quota fails, though covering quota for configured limited scope PriorityClassNameExists exists.',
      pod: pod('not-allowed-pod', '3', '20Gi', 'fake-priority'),
      quotas: [mkQuota('quota', { selector: [exists('PriorityClass')], hard: { memory: '10Gi' }, used: { memory: '1Gi' } })],
      limited: [limit('pods', { matchScopes: [exists('PriorityClass')] })],
      want: { message: 'exceeded quota: quota, requested: memory=20Gi, used: memory=1Gi, limited: memory=10Gi', quota: 'quota' },
    },
    {
      name: 'Pod has different priorityclass than configured limited. Covering quota exists for configured limited scope PriorityClassIn.',
      pod: pod('allowed-pod', '3', '2Gi', 'fake-priority'),
      quotas: [pcInQuota('cluster-services')],
      limited: [limit('pods', { matchScopes: [pcIn('cluster-services')] })],
      want: allowed(),
    },
    {
      name: 'Pod has limited priorityclass. Covering quota exists for configured limited scope PriorityClassIn.',
      pod: pod('allowed-pod', '3', '2Gi', 'cluster-services'),
      quotas: [pcInQuota('cluster-services')],
      limited: [limit('pods', { matchScopes: [pcIn('another-priorityclass-name', 'cluster-services')] })],
      want: allowed(),
    },
    {
      name: 'Pod has limited priorityclass. Covering quota  does not exist for configured limited scope PriorityClassIn.',
      pod: pod('not-allowed-pod', '3', '2Gi', 'cluster-services'),
      quotas: [pcInQuota('another-priorityclass-name')],
      limited: [limit('pods', { matchScopes: [pcIn('another-priorityclass-name', 'cluster-services')] })],
      want: scopes('[{PriorityClass In [another-priorityclass-name cluster-services]}]'),
    },
    {
      name: 'From the above test case, just changing pod priority from cluster-services to another-priorityclass-name. expecting no error',
      pod: pod('allowed-pod', '3', '2Gi', 'another-priorityclass-name'),
      quotas: [pcInQuota('another-priorityclass-name')],
      limited: [limit('pods', { matchScopes: [pcIn('another-priorityclass-name', 'cluster-services')] })],
      want: allowed(),
    },
    {
      name: 'Pod has limited priorityclass. Covering quota does NOT exists for configured limited scope PriorityClassIn.',
      pod: pod('not-allowed-pod', '3', '2Gi', 'cluster-services'),
      quotas: [],
      limited: [limit('pods', { matchScopes: [pcIn('another-priorityclass-name', 'cluster-services')] })],
      want: scopes('[{PriorityClass In [another-priorityclass-name cluster-services]}]'),
    },
    {
      name: 'Pod has limited priorityclass. Covering quota exists for configured limited scope PriorityClassIn through PriorityClassNameExists',
      pod: pod('allowed-pod', '3', '2Gi', 'cluster-services'),
      quotas: [pcExistsQuota()],
      limited: [limit('pods', { matchScopes: [pcIn('another-priorityclass-name', 'cluster-services')] })],
      want: allowed(),
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(decide(r.pod, r.quotas, r.limited), r.want));
});

describe('decideServiceQuota with limitedResources: admission_test.go TestAdmit*UsageWithoutCoveringQuota', () => {
  const svc = (type: string, ports: number[] = [], resourceVersion?: string): Service => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'service', namespace: 'test', ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { type, ports: ports.map((port) => ({ port })) },
  } as Service);
  const lbLimited = [limit('services', { matchContains: ['services.loadbalancers'] })];
  const rows: { name: string; svc: Service; old?: Service; limited: LimitedResource[]; want: Want }[] = [
    { name: 'TestAdmitZeroDeltaUsageWithoutCoveringQuota: an update that adds nothing needs no quota', svc: svc('LoadBalancer'), old: svc('LoadBalancer', [], '1'), limited: lbLimited, want: allowed() },
    { name: 'TestAdmitRejectIncreaseUsageWithoutCoveringQuota: an update that adds a load balancer does', svc: svc('LoadBalancer'), old: svc('NodePort', [1234], '1'), limited: lbLimited, want: consume('services.loadbalancers') },
    { name: 'TestAdmitAllowDecreaseUsageWithoutCoveringQuota: one that gives it up does not', svc: svc('NodePort', [1234]), old: svc('LoadBalancer', [], '1'), limited: lbLimited, want: allowed() },
    { name: 'a create of a limited kind without a quota', svc: svc('LoadBalancer'), limited: lbLimited, want: consume('services.loadbalancers') },
    { name: 'a ClusterIP Service consumes no load balancer: allowed', svc: svc('ClusterIP', [80]), limited: lbLimited, want: allowed() },
    { name: '"services" is in every name the Service consumes', svc: svc('NodePort', [80, 443]), limited: [limit('services', { matchContains: ['services'] })], want: consume('count/services,services,services.nodeports') },
    { name: 'an entry for pods does not limit services', svc: svc('LoadBalancer'), limited: [limit('pods', { matchContains: ['services'] })], want: allowed() },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(summary(decideServiceQuota(r.svc, r.old, [], r.limited)), r.want));

  it('a quota limiting services.loadbalancers covers it, and is charged', () => {
    const q = mkQuota('q', { hard: { 'services.loadbalancers': '2' }, used: { 'services.loadbalancers': '0' } });
    assert.deepEqual(summary(decideServiceQuota(svc('LoadBalancer'), undefined, [q], lbLimited)), allowed([{ name: 'q', used: { 'services.loadbalancers': '1' } }]));
  });
});

describe('decideObjectCount with limitedResources: the object-count evaluator (CheckRequest)', () => {
  const counted = (hard: Record<string, string>, scopes?: string[]) => mkQuota('q', { hard, used: Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])), ...(scopes ? { scopes } : {}) });
  const rows: { name: string; group: string; resource: string; quotas: ResourceQuota[]; limited: LimitedResource[]; want: Want }[] = [
    { name: 'both names of a core kind, without a quota', group: '', resource: 'configmaps', quotas: [], limited: [limit('configmaps', { matchContains: ['configmaps'] })], want: consume('configmaps,count/configmaps') },
    { name: 'a quota limiting one of them covers only that one', group: '', resource: 'configmaps', quotas: [counted({ 'count/configmaps': '5' })], limited: [limit('configmaps', { matchContains: ['configmaps'] })], want: consume('configmaps') },
    {
      name: 'a quota limiting both covers them, and is charged', group: '', resource: 'configmaps', quotas: [counted({ 'count/configmaps': '5', configmaps: '5' })],
      limited: [limit('configmaps', { matchContains: ['configmaps'] })], want: allowed([{ name: 'q', used: { 'count/configmaps': '1', configmaps: '1' } }]),
    },
    { name: 'a quota with scopes never matches an object count, so never covers one', group: '', resource: 'secrets', quotas: [counted({ 'count/secrets': '5' }, ['BestEffort'])], limited: [limit('secrets', { matchContains: ['count/'] })], want: consume('count/secrets') },
    { name: 'the entry names the API group', group: 'apps', resource: 'deployments', quotas: [], limited: [limit('deployments', { apiGroup: 'apps', matchContains: ['deployments'] })], want: consume('count/deployments.apps') },
    { name: 'an entry of the core group does not limit apps', group: 'apps', resource: 'deployments', quotas: [], limited: [limit('deployments', { matchContains: ['deployments'] })], want: allowed() },
    { name: 'matchScopes limit nothing but pods (the evaluator matches no scope)', group: '', resource: 'configmaps', quotas: [], limited: [limit('configmaps', { matchScopes: [exists('BestEffort')] })], want: allowed() },
    { name: 'a name matched by no substring is not limited', group: 'batch', resource: 'jobs', quotas: [], limited: [limit('jobs', { apiGroup: 'batch', matchContains: ['cronjobs'] })], want: allowed() },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(summary(decideObjectCount(r.group, r.resource, r.quotas, r.limited)), r.want));
});

describe('decideQuotas with limitedResources: the rest of CheckRequest', () => {
  const burst = (cls = '') => pod('p', '500m', '1Gi', cls);
  const cpu = [limit('pods', { matchContains: ['cpu'] })];
  const rows: { name: string; pod: Pod; quotas: ResourceQuota[]; limited: LimitedResource[]; want: Want }[] = [
    {
      name: 'a quota limiting cpu that the pod does not match (its scope) does not cover it',
      pod: burst(), quotas: [mkQuota('q', { scopes: ['Terminating'], hard: { cpu: '10', 'requests.cpu': '10' }, used: { cpu: '0', 'requests.cpu': '0' } })], limited: cpu,
      want: consume('cpu,requests.cpu'),
    },
    {
      name: 'a quota without status.hard yet (the controller has not synced it) covers nothing',
      pod: burst(), quotas: [mkQuota('q', { specHard: { cpu: '10', 'requests.cpu': '10' } })], limited: cpu,
      want: consume('cpu,requests.cpu'),
    },
    { name: 'matchContains is a substring: memory is also requests.memory and limits.memory', pod: quotaValidPod('p', 1, cm('', '1Gi'), cm('', '2Gi')), quotas: [], limited: [limit('pods', { matchContains: ['memory'] })], want: consume('limits.memory,memory,requests.memory') },
    { name: '"pods" is both pod counts', pod: burst(), quotas: [], limited: [limit('pods', { matchContains: ['pods'] })], want: consume('count/pods,pods') },
    { name: 'a name two entries limit is listed once', pod: burst(), quotas: [], limited: [limit('pods', { matchContains: ['requests.cpu'] }), limit('pods', { matchContains: ['cpu', 'requests'] })], want: consume('cpu,requests.cpu,requests.memory') },
    { name: 'nothing consumed, nothing limited: a BestEffort pod with cpu limited', pod: pod('p', '', ''), quotas: [], limited: cpu, want: allowed() },
    { name: 'a zero request consumes nothing', pod: pod('p', '0', ''), quotas: [], limited: cpu, want: allowed() },
    {
      name: 'limited scopes come from every entry, whatever its resource: a services entry\'s PriorityClass scope limits pods',
      pod: burst('cluster-services'), quotas: [], limited: [limit('services', { matchScopes: [pcIn('cluster-services')] })],
      want: scopes('[{PriorityClass In [cluster-services]}]'),
    },
    {
      name: 'a scope the configuration repeats is reported as often',
      pod: pod('p', '', ''), quotas: [], limited: [limit('pods', { matchScopes: [exists('BestEffort')] }), limit('pods', { matchScopes: [exists('BestEffort'), exists('NotTerminating')] })],
      want: scopes('[{BestEffort Exists []} {BestEffort Exists []} {NotTerminating Exists []}]'),
    },
    {
      name: 'covering is by scope name: a quota selecting PriorityClass NotIn [batch] covers PriorityClass In [cluster-services]',
      pod: burst('cluster-services'), quotas: [mkQuota('q', { selector: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['batch'] }] })],
      limited: [limit('pods', { matchScopes: [pcIn('cluster-services')] })], want: allowed(),
    },
    {
      name: 'a selector the pod does not match covers nothing',
      pod: burst('cluster-services'), quotas: [mkQuota('q', { selector: [pcIn('batch')] })],
      limited: [limit('pods', { matchScopes: [pcIn('cluster-services')] })], want: scopes('[{PriorityClass In [cluster-services]}]'),
    },
    {
      name: 'a selector the pod matches covers its scope though another selector of the same quota does not match the pod',
      pod: burst('cluster-services'), quotas: [mkQuota('q', { scopes: ['BestEffort'], selector: [pcIn('cluster-services')], hard: { pods: '1' }, used: { pods: '1' } })],
      limited: [limit('pods', { matchScopes: [pcIn('cluster-services')] })], want: allowed(),
    },
    {
      name: 'a limited scope selector that cannot be matched lets every pod through, unchecked and uncharged',
      pod: burst('cluster-services'), quotas: [mkQuota('full', { hard: { pods: '1' }, used: { pods: '1' } })],
      limited: [limit('pods', { matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: [] }] })], want: allowed(),
    },
    {
      name: 'a quota selector that cannot be matched is a plain error, configuration or not',
      pod: burst(), quotas: [mkQuota('odd', { selector: [pcIn('two words')] })], limited: [],
      want: {
        message: "error matching scopes of quota odd, err: error on matching scope {PriorityClass In [two words]}: failed to parse and convert selector: values[0][PriorityClass]: Invalid value: \"two words\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        quota: 'odd', plainError: true,
      },
    },
    {
      name: 'quotas are read in order: one refusing before the unmatchable one wins',
      pod: burst(), quotas: [mkQuota('first', { hard: { 'limits.cpu': '1' }, used: { 'limits.cpu': '0' } }), mkQuota('odd', { selector: [pcIn('two words')] })], limited: [],
      want: { message: 'failed quota: first: must specify limits.cpu for: ', quota: 'first' },
    },
    {
      name: 'a quota\'s constraints are checked before the configuration',
      pod: burst(), quotas: [mkQuota('q', { hard: { 'limits.cpu': '4' }, used: { 'limits.cpu': '0' } })], limited: cpu,
      want: { message: 'failed quota: q: must specify limits.cpu for: ', quota: 'q' },
    },
    {
      name: 'the configuration is checked before any quota\'s limits',
      pod: burst(), quotas: [mkQuota('q', { hard: { memory: '1Gi' }, used: { memory: '512Mi' } })], limited: cpu,
      want: consume('cpu,requests.cpu'),
    },
    {
      name: 'negative usage is refused before anything is found limited',
      pod: pod('p', '-1', ''), quotas: [], limited: cpu,
      want: { message: 'quota usage is negative for resource(s): cpu,requests.cpu' },
    },
    {
      name: 'uncovered consumption is refused before uncovered scopes',
      pod: burst('cluster-services'), quotas: [], limited: [limit('pods', { matchContains: ['cpu'], matchScopes: [pcIn('cluster-services')] })],
      want: consume('cpu,requests.cpu'),
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(decide(r.pod, r.quotas, r.limited), r.want));
});

describe('limited.ts helpers', () => {
  it('limitedResourcesFor: group and resource both match', () => {
    const entries = [limit('pods'), limit('pods', { apiGroup: 'x' }), limit('services')];
    assert.deepEqual(limitedResourcesFor(entries, '', 'pods'), [entries[0]]);
  });
  it('limitedByDefault: each entry, each consumed name with any substring', () => {
    assert.deepEqual(limitedByDefault(['cpu', 'requests.cpu', 'memory'], [limit('pods', { matchContains: ['cpu', 'requests'] }), limit('pods', { matchContains: ['mem'] })]), ['cpu', 'requests.cpu', 'memory']);
  });
  it('uncoveredConsumption: sorted, once each, the covered left out', () => {
    assert.equal(uncoveredConsumption(['requests.cpu', 'cpu', 'cpu', 'memory'], new Set(['memory'])), 'insufficient quota to consume: cpu,requests.cpu');
    assert.equal(uncoveredConsumption(['cpu'], new Set(['cpu'])), undefined);
  });
  it('uncoveredQuotaScopes: by scope name, in the limited order', () => {
    assert.deepEqual(uncoveredQuotaScopes([pcIn('a'), exists('BestEffort'), exists('Terminating')], [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['b'] }, exists('Terminating')]), [exists('BestEffort')]);
  });
});

describe('admitPodCreate with limitedResources: what the API answers', () => {
  const classes: PriorityClass[] = [...builtInPriorityClasses(), { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'cluster-services' }, value: 1000 }];
  const admit = (p: Pod, quotas: ResourceQuota[], limitedResources: LimitedResource[]) =>
    admitPodCreate({ pod: p, namespaceLabels: {}, limitRanges: [], priorityClasses: classes, quotas, limitedResources, gates: defaultFeatureGates, podSecurityDefaults: {}, now: optsOff.now });
  const web = (cls?: string) => mkPod('web', { containers: [ctr('c', cm('100m', '64Mi'))], ...(cls ? { priorityClassName: cls } : {}) });

  it('uncovered consumption: Forbidden, the pod named', () => {
    const r = admit(web(), [], [limit('pods', { matchContains: ['cpu'] })]);
    assert.deepEqual(r.rejection, { by: 'ResourceQuota', message: 'pods "web" is forbidden: insufficient quota to consume: cpu,requests.cpu', code: 403, reason: 'Forbidden', limitedResources: true });
  });
  it('an uncovered scope: a plain error (500, no reason), the message alone', () => {
    const r = admit(web('cluster-services'), [], [limit('pods', { matchScopes: [pcIn('cluster-services')] })]);
    assert.deepEqual(r.rejection, { by: 'ResourceQuota', message: 'insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]', code: 500, reason: '', limitedResources: true });
  });
  it('the scope is matched after the Priority plugin: a pod of the default class is not limited', () => {
    const r = admit(web(), [], [limit('pods', { matchScopes: [pcIn('cluster-services')] })]);
    assert.equal(r.rejection, undefined);
  });
  it('covered once a quota selects the scope: admitted (a quota without status charges nothing)', () => {
    const r = admit(web('cluster-services'), [mkQuota('critical', { selector: [pcIn('cluster-services')] })], [limit('pods', { matchScopes: [pcIn('cluster-services')] })]);
    assert.deepEqual([r.rejection, r.charges], [undefined, []]);
  });
  it('a quota refusal is not marked as the configuration\'s', () => {
    const r = admit(web(), [mkQuota('q', { hard: { cpu: '0', 'requests.cpu': '0' }, used: { cpu: '0', 'requests.cpu': '0' } })], [limit('pods', { matchContains: ['cpu'] })]);
    assert.deepEqual(r.rejection, {
      by: 'ResourceQuota', code: 403, reason: 'Forbidden',
      message: 'pods "web" is forbidden: exceeded quota: q, requested: cpu=100m,requests.cpu=100m, used: cpu=0,requests.cpu=0, limited: cpu=0,requests.cpu=0',
    });
  });
});
