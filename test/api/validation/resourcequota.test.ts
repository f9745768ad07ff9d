import { describe, test } from 'node:test';
import type { ResourceQuota } from '../../../src/api/types.js';
import { validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg, quantityFormatMsg } from './messages.js';

function quota(spec: ResourceQuota['spec'], meta: Partial<ResourceQuota['metadata']> = {}, status?: ResourceQuota['status']): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'abc', namespace: 'foo', ...meta }, spec, ...(status ? { status } : {}) };
}

const exists = (scopeName: string, values?: string[]) => ({ scopeName, operator: 'Exists', ...(values ? { values } : {}) });
const existsOnly =
  "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

// upstream TestValidateResourceQuota fixtures
const spec = {
  hard: {
    cpu: '100', memory: '10000', 'requests.cpu': '100', 'requests.memory': '10000', 'limits.cpu': '100', 'limits.memory': '10000',
    pods: '10', services: '0', replicationcontrollers: '10', resourcequotas: '10', configmaps: '10', secrets: '10',
    'count/resourceclaims.resource.k8s.io': '1', 'gold.deviceclass.resource.k8s.io/devices': '1',
  },
};

type Row = { name: string; q: ResourceQuota; want: Want };

const upstreamRows: Row[] = [
  { name: 'no-scope', q: quota(spec), want: [] },
  { name: 'fractional-compute-spec', q: quota({ hard: { cpu: '100m' } }), want: [] },
  { name: 'terminating-spec', q: quota({ hard: { cpu: '100', 'limits.cpu': '200' }, scopes: ['Terminating'] }), want: [] },
  { name: 'non-terminating-spec', q: quota({ hard: { cpu: '100' }, scopes: ['NotTerminating'] }), want: [] },
  { name: 'best-effort-spec', q: quota({ hard: { pods: '100' }, scopes: ['BestEffort'] }), want: [] },
  { name: 'cross-namespace-affinity-spec', q: quota({ hard: { cpu: '100', 'limits.cpu': '200' }, scopes: ['CrossNamespacePodAffinity'] }), want: [] },
  { name: 'scope-selector-spec', q: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] } }), want: [] },
  { name: 'non-best-effort-spec', q: quota({ hard: { cpu: '100' }, scopes: ['NotBestEffort'] }), want: [] },
  { name: 'zero-length Name', q: quota(spec, { name: '' }), want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
  { name: 'zero-length Namespace', q: quota(spec, { namespace: '' }), want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
  { name: 'invalid Name', q: quota(spec, { name: '^Invalid' }), want: [['FieldValueInvalid', `metadata.name: Invalid value: "^Invalid": ${dnsSubdomainMsg}`]] },
  { name: 'invalid Namespace', q: quota(spec, { namespace: '^Invalid' }), want: [['FieldValueInvalid', `metadata.namespace: Invalid value: "^Invalid": ${dnsLabelMsg}`]] },
  {
    // "-10000" prints as "-10k": Quantity.String() keeps the input text only when it does not end in 000
    name: 'negative-limits',
    q: quota({ hard: { cpu: '-100', memory: '-10000', pods: '-10', services: '-10', replicationcontrollers: '-10', resourcequotas: '-10', configmaps: '-10', secrets: '-10' } }),
    want: [
      ['FieldValueInvalid', 'spec.hard[configmaps]: Invalid value: "-10": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[cpu]: Invalid value: "-100": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[memory]: Invalid value: "-10k": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[pods]: Invalid value: "-10": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[replicationcontrollers]: Invalid value: "-10": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[resourcequotas]: Invalid value: "-10": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[secrets]: Invalid value: "-10": must be greater than or equal to 0'],
      ['FieldValueInvalid', 'spec.hard[services]: Invalid value: "-10": must be greater than or equal to 0'],
    ],
  },
  {
    name: 'fractional-api-resource',
    q: quota({ hard: { pods: '.1', services: '.5', replicationcontrollers: '1.25', resourcequotas: '2.5' } }),
    want: [
      ['FieldValueInvalid', 'spec.hard[pods]: Invalid value: "100m": must be an integer'],
      ['FieldValueInvalid', 'spec.hard[replicationcontrollers]: Invalid value: "1250m": must be an integer'],
      ['FieldValueInvalid', 'spec.hard[resourcequotas]: Invalid value: "2500m": must be an integer'],
      ['FieldValueInvalid', 'spec.hard[services]: Invalid value: "500m": must be an integer'],
    ],
  },
  {
    name: 'invalid-quota-resource (storage is standard but not for quota)',
    q: quota({ hard: { storage: '10' } }),
    want: [['FieldValueInvalid', 'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
  },
  {
    name: 'invalid-quota-terminating-pair',
    q: quota({ hard: { cpu: '100' }, scopes: ['Terminating', 'NotTerminating'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes']],
  },
  {
    name: 'invalid-quota-besteffort-pair',
    q: quota({ hard: { pods: '100' }, scopes: ['BestEffort', 'NotBestEffort'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes']],
  },
  {
    name: 'invalid-quota-scope-name',
    q: quota({ hard: { cpu: '100' }, scopes: ['foo'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["foo"]: unsupported scope']],
  },
  {
    name: 'invalid-cross-namespace-affinity',
    q: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'CrossNamespacePodAffinity', operator: 'In', values: ['cluster-services'] }] } }),
    want: [['FieldValueInvalid', `spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${existsOnly}`]],
  },
];

const hint = (name: string, right: string): Want => [
  ['FieldValueInvalid', `spec.hard[${name}]: Invalid value: "${name}": must be a standard resource type or fully qualified`],
  ['FieldValueInvalid', `spec.hard[${name}]: Invalid value: "${name}": must be a standard resource for quota; did you mean "${right}"?`],
];

const bulkheadRows: Row[] = [
  { name: 'memory.limit names limits.memory', q: quota({ hard: { 'memory.limit': '1Gi' } }), want: hint('memory.limit', 'limits.memory') },
  { name: 'cpu.limit names limits.cpu', q: quota({ hard: { 'cpu.limit': '2' } }), want: hint('cpu.limit', 'limits.cpu') },
  { name: 'memory.request names requests.memory', q: quota({ hard: { 'memory.request': '1Gi' } }), want: hint('memory.request', 'requests.memory') },
  { name: 'cpu.request names requests.cpu', q: quota({ hard: { 'cpu.request': '1' } }), want: hint('cpu.request', 'requests.cpu') },
  {
    name: 'ephemeral-storage.limit names limits.ephemeral-storage',
    q: quota({ hard: { 'ephemeral-storage.limit': '1Gi' } }),
    want: hint('ephemeral-storage.limit', 'limits.ephemeral-storage'),
  },
  {
    name: 'other unknown unqualified names get the two upstream errors without a hint',
    q: quota({ hard: { gpus: '1' } }),
    want: [
      ['FieldValueInvalid', 'spec.hard[gpus]: Invalid value: "gpus": must be a standard resource type or fully qualified'],
      ['FieldValueInvalid', 'spec.hard[gpus]: Invalid value: "gpus": must be a standard resource for quota'],
    ],
  },
  { name: 'the API names are accepted', q: quota({ hard: { 'limits.memory': '1Gi', 'limits.cpu': '2', 'requests.memory': '1Gi', 'requests.cpu': '1', 'limits.ephemeral-storage': '1Gi' } }), want: [] },
  { name: 'hugepages quota names are standard', q: quota({ hard: { 'hugepages-2Mi': '4Mi', 'requests.hugepages-1Gi': '2Gi' } }), want: [] },
  { name: 'qualified names are accepted even when nothing enforces them', q: quota({ hard: { 'nvidia.com/gpu': '4', 'limits.nvidia.com/gpu': '4', 'example.com/widgets': '3' } }), want: [] },
  {
    name: 'extended names are integers (nvidia.com/gpu)',
    q: quota({ hard: { 'nvidia.com/gpu': '1.5' } }),
    want: [['FieldValueInvalid', 'spec.hard[nvidia.com/gpu]: Invalid value: "1500m": must be an integer']],
  },
  { name: 'requests.-prefixed extended names are not integer-only', q: quota({ hard: { 'requests.nvidia.com/gpu': '1.5' } }), want: [] },
  {
    name: 'count/pods is integer-only',
    q: quota({ hard: { 'count/pods': '2.5' } }),
    want: [['FieldValueInvalid', 'spec.hard[count/pods]: Invalid value: "2500m": must be an integer']],
  },
  {
    name: 'a value that does not parse',
    q: quota({ hard: { cpu: 'ten' } }),
    want: [['FieldValueInvalid', `spec.hard[cpu]: Invalid value: "ten": ${quantityFormatMsg}`]],
  },
  {
    name: 'BestEffort allows only pods',
    q: quota({ hard: { pods: '5', cpu: '1' }, scopes: ['BestEffort'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource']],
  },
  {
    name: 'one error per resource a scope cannot apply to',
    q: quota({ hard: { cpu: '1', memory: '1Gi' }, scopes: ['BestEffort'] }),
    want: [
      ['FieldValueInvalid', 'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource'],
      ['FieldValueInvalid', 'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource'],
    ],
  },
  { name: 'qualified keys are never scope-checked', q: quota({ hard: { 'count/pods': '5' }, scopes: ['BestEffort'] }), want: [] },
  {
    name: 'ephemeral-storage cannot be scoped',
    q: quota({ hard: { 'requests.ephemeral-storage': '1Gi' }, scopes: ['Terminating'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource']],
  },
  {
    name: 'hugepages cannot be scoped by PriorityClass',
    q: quota({ hard: { 'hugepages-2Mi': '2Mi' }, scopes: ['PriorityClass'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["PriorityClass"]: unsupported scope applied to resource']],
  },
  {
    name: 'scopeSelector: unknown scope name',
    q: quota({ scopeSelector: { matchExpressions: [exists('Foo')] } }),
    want: [['FieldValueInvalid', 'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Foo": unsupported scope']],
  },
  {
    name: 'scopeSelector: scope/resource compatibility, with the selector as bad value',
    q: quota({ hard: { cpu: '1' }, scopeSelector: { matchExpressions: [exists('BestEffort')] } }),
    want: [['FieldValueInvalid', 'spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}: unsupported scope applied to resource']],
  },
  {
    name: 'scopeSelector: In/NotIn need values',
    q: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn' }] } }),
    want: [['FieldValueRequired', "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"]],
  },
  {
    name: 'scopeSelector: Exists takes no values',
    q: quota({ scopeSelector: { matchExpressions: [exists('PriorityClass', ['high'])] } }),
    want: [['FieldValueInvalid', `spec.scopeSelector.matchExpressions.values: Invalid value: ["high"]: must be no value when \`operator\` is 'Exist' or 'DoesNotExist' for scope selector`]],
  },
  {
    name: 'scopeSelector: unknown operator',
    q: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Equals', values: ['high'] }] } }),
    want: [['FieldValueInvalid', 'spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator']],
  },
  {
    name: 'scopeSelector: conflicting scopes (bad value is spec.scopes, here absent)',
    q: quota({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [exists('Terminating'), exists('NotTerminating')] } }),
    want: [['FieldValueInvalid', 'spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes']],
  },
  {
    name: 'status.hard and status.used names and values are validated too',
    q: quota({ hard: { pods: '1' } }, {}, { hard: { pods: '1' }, used: { 'memory.limit': '0', pods: '-1' } }),
    want: [
      ['FieldValueInvalid', 'status.used[memory.limit]: Invalid value: "memory.limit": must be a standard resource type or fully qualified'],
      ['FieldValueInvalid', 'status.used[memory.limit]: Invalid value: "memory.limit": must be a standard resource for quota; did you mean "limits.memory"?'],
      ['FieldValueInvalid', 'status.used[pods]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
  },
];

type UpdateRow = { name: string; newQ: ResourceQuota; oldQ: ResourceQuota; want: Want };

const updateRows: UpdateRow[] = [
  { name: 'the same scopes in another order', newQ: quota({ hard: { cpu: '1' }, scopes: ['NotBestEffort', 'Terminating'] }), oldQ: quota({ hard: { cpu: '2' }, scopes: ['Terminating', 'NotBestEffort'] }), want: [] },
  {
    name: 'scopes may not change',
    newQ: quota({ hard: { cpu: '1' }, scopes: ['NotTerminating'] }),
    oldQ: quota({ hard: { cpu: '1' }, scopes: ['Terminating'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: ["NotTerminating"]: field is immutable']],
  },
  {
    name: 'scopes may not be removed',
    newQ: quota({ hard: { cpu: '1' } }),
    oldQ: quota({ hard: { cpu: '1' }, scopes: ['Terminating'] }),
    want: [['FieldValueInvalid', 'spec.scopes: Invalid value: null: field is immutable']],
  },
  {
    name: 'scopeSelector changes are not covered by the immutability rule',
    newQ: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['low'] }] } }),
    oldQ: quota({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } }),
    want: [],
  },
  {
    name: 'the name may not change',
    newQ: quota({ hard: { pods: '1' } }, { name: 'other' }),
    oldQ: quota({ hard: { pods: '1' } }),
    want: [['FieldValueInvalid', 'metadata.name: Invalid value: "other": field is immutable']],
  },
  {
    name: 'spec rules apply on update (with the hint)',
    newQ: quota({ hard: { 'cpu.limit': '1' } }),
    oldQ: quota({ hard: { 'limits.cpu': '1' } }),
    want: hint('cpu.limit', 'limits.cpu'),
  },
];

describe('validateResourceQuota: upstream TestValidateResourceQuota rows', () => {
  for (const r of upstreamRows) test(r.name, () => assertErrors(validateResourceQuota(r.q), r.want));
});

describe('validateResourceQuota: names, values and scopes', () => {
  for (const r of bulkheadRows) test(r.name, () => assertErrors(validateResourceQuota(r.q), r.want));
});

describe('validateResourceQuotaUpdate', () => {
  for (const r of updateRows) test(r.name, () => assertErrors(validateResourceQuotaUpdate(r.newQ, r.oldQ), r.want));
});

const statusRows: UpdateRow[] = [
  {
    name: 'a status update with a resourceVersion and valid usage',
    newQ: quota({ hard: { pods: '2' } }, { resourceVersion: '7' }, { hard: { pods: '2' }, used: { pods: '1' } }),
    oldQ: quota({ hard: { pods: '2' } }, { resourceVersion: '6' }),
    want: [],
  },
  {
    name: 'a status update needs a resourceVersion, and status values are checked',
    newQ: quota({ hard: { pods: '2' } }, {}, { hard: { pods: '2' }, used: { pods: '0.5' } }),
    oldQ: quota({ hard: { pods: '2' } }),
    want: [
      ['FieldValueRequired', 'resourceVersion: Required value'],
      ['FieldValueInvalid', 'status.used[pods]: Invalid value: "500m": must be an integer'],
    ],
  },
];

describe('validateResourceQuotaStatusUpdate', () => {
  for (const r of statusRows) test(r.name, () => assertErrors(validateResourceQuotaStatusUpdate(r.newQ, r.oldQ), r.want));
});
