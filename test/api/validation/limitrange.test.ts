import { describe, test } from 'node:test';
import type { LimitRange, LimitRangeItem, ResourceList } from '../../../src/api/types.js';
import { validateLimitRange } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg, quantityFormatMsg } from './messages.js';

/** upstream getResources(cpu, memory, ephemeralStorage, storage). */
function res(cpu: string, memory: string, ephemeral: string, storage: string): ResourceList {
  const r: ResourceList = {};
  if (cpu) r.cpu = cpu;
  if (memory) r.memory = memory;
  if (ephemeral) r['ephemeral-storage'] = ephemeral;
  if (storage) r.storage = storage;
  return r;
}

function lr(limits: LimitRangeItem[], meta: Partial<LimitRange['metadata']> = {}, name = 'abc'): LimitRange {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace: 'foo', ...meta }, spec: { limits } };
}

type Row = { name: string; lr: LimitRange; want: Want };

const successRows: Row[] = [
  {
    name: 'all-fields-valid',
    lr: lr([
      { type: 'Pod', max: res('100m', '10000Mi', '', ''), min: res('5m', '100Mi', '', ''), maxLimitRequestRatio: res('10', '', '', '') },
      {
        type: 'Container', max: res('100m', '10000Mi', '', ''), min: res('5m', '100Mi', '', ''), default: res('50m', '500Mi', '', ''),
        defaultRequest: res('10m', '200Mi', '', ''), maxLimitRequestRatio: res('10', '', '', ''),
      },
      { type: 'PersistentVolumeClaim', max: res('', '', '', '10Gi'), min: res('', '', '', '5Gi') },
    ]),
    want: [],
  },
  { name: 'pvc-min-only', lr: lr([{ type: 'PersistentVolumeClaim', min: res('', '', '', '5Gi') }]), want: [] },
  { name: 'pvc-max-only', lr: lr([{ type: 'PersistentVolumeClaim', max: res('', '', '', '10Gi') }]), want: [] },
  {
    name: 'all-fields-valid-big-numbers',
    lr: lr([{
      type: 'Container', max: res('100m', '10000T', '', ''), min: res('5m', '100Mi', '', ''), default: res('50m', '500Mi', '', ''),
      defaultRequest: res('10m', '200Mi', '', ''), maxLimitRequestRatio: res('10', '', '', ''),
    }]),
    want: [],
  },
  {
    name: 'thirdparty-fields-all-valid-standard-container-resources',
    lr: lr([{
      type: 'thirdparty.com/foo', max: res('100m', '10000T', '', ''), min: res('5m', '100Mi', '', ''), default: res('50m', '500Mi', '', ''),
      defaultRequest: res('10m', '200Mi', '', ''), maxLimitRequestRatio: res('10', '', '', ''),
    }]),
    want: [],
  },
  {
    name: 'thirdparty-fields-all-valid-storage-resources',
    lr: lr([{ type: 'thirdparty.com/foo', max: res('', '', '', '10000T'), min: res('', '', '', '100Mi'), default: res('', '', '', '500Mi'), defaultRequest: res('', '', '', '200Mi') }]),
    want: [],
  },
  {
    name: 'local storage all-fields-valid (TestValidateLimitRangeForLocalStorage)',
    lr: lr([
      { type: 'Pod', max: res('', '', '10000Mi', ''), min: res('', '', '100Mi', '') },
      { type: 'Container', max: res('', '', '10000Mi', ''), min: res('', '', '100Mi', ''), default: res('', '', '500Mi', ''), defaultRequest: res('', '', '200Mi', '') },
    ]),
    want: [],
  },
];

const errorRows: Row[] = [
  { name: 'zero-length-name', lr: lr([], {}, ''), want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
  { name: 'zero-length-namespace', lr: lr([], { namespace: '' }), want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
  { name: 'invalid-name', lr: lr([], {}, '^Invalid'), want: [['FieldValueInvalid', `metadata.name: Invalid value: "^Invalid": ${dnsSubdomainMsg}`]] },
  { name: 'invalid-namespace', lr: lr([], { namespace: '^Invalid' }), want: [['FieldValueInvalid', `metadata.namespace: Invalid value: "^Invalid": ${dnsLabelMsg}`]] },
  {
    name: 'duplicate-limit-type',
    lr: lr([
      { type: 'Pod', max: res('100m', '10000m', '', ''), min: res('0m', '100m', '', '') },
      { type: 'Pod', min: res('0m', '100m', '', '') },
    ]),
    want: [['FieldValueDuplicate', 'spec.limits[1].type: Duplicate value: "Pod"']],
  },
  {
    name: 'default-limit-type-pod',
    lr: lr([{ type: 'Pod', max: res('100m', '10000m', '', ''), min: res('0m', '100m', '', ''), default: res('10m', '100m', '', '') }]),
    want: [['FieldValueForbidden', "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]],
  },
  {
    name: 'default-request-limit-type-pod',
    lr: lr([{ type: 'Pod', max: res('100m', '10000m', '', ''), min: res('0m', '100m', '', ''), defaultRequest: res('10m', '100m', '', '') }]),
    want: [['FieldValueForbidden', "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'"]],
  },
  {
    name: 'min value 100m is greater than max value 10m',
    lr: lr([{ type: 'Pod', max: res('10m', '', '', ''), min: res('100m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].min[cpu]: Invalid value: "100m": min value 100m is greater than max value 10m']],
  },
  {
    name: 'invalid spec default outside range (bad value is the max, as upstream reports it)',
    lr: lr([{ type: 'Container', max: res('1', '', '', ''), min: res('100m', '', '', ''), default: res('2000m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].default[cpu]: Invalid value: "1": default value 2 is greater than max value 1']],
  },
  {
    name: 'invalid spec default request outside range',
    lr: lr([{ type: 'Container', max: res('1', '', '', ''), min: res('100m', '', '', ''), defaultRequest: res('2000m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than max value 1']],
  },
  {
    name: 'invalid spec default request more than default',
    lr: lr([{ type: 'Container', max: res('2', '', '', ''), min: res('100m', '', '', ''), default: res('500m', '', '', ''), defaultRequest: res('800m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].defaultRequest[cpu]: Invalid value: "800m": default request value 800m is greater than default limit value 500m']],
  },
  {
    name: 'invalid spec maxLimitRequestRatio less than 1',
    lr: lr([{ type: 'Pod', maxLimitRequestRatio: res('800m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "800m": ratio 800m is less than 1']],
  },
  {
    name: 'invalid spec maxLimitRequestRatio greater than max/min',
    lr: lr([{ type: 'Container', max: res('', '2Gi', '', ''), min: res('', '512Mi', '', ''), maxLimitRequestRatio: res('', '10', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "10": ratio 10 is greater than max/min = 4.000000']],
  },
  {
    name: 'invalid non standard limit type',
    lr: lr([{ type: 'foo', max: res('', '', '', '10000T'), min: res('', '', '', '100Mi'), default: res('', '', '', '500Mi'), defaultRequest: res('', '', '', '200Mi'), maxLimitRequestRatio: res('', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].type: Invalid value: "foo": must be a standard limit type or fully qualified']],
  },
  {
    name: 'min and max values missing, one required',
    lr: lr([{ type: 'PersistentVolumeClaim' }]),
    want: [['FieldValueRequired', 'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided']],
  },
  {
    name: 'invalid min greater than max',
    lr: lr([{ type: 'PersistentVolumeClaim', min: res('', '', '', '10Gi'), max: res('', '', '', '1Gi') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].min[storage]: Invalid value: "10Gi": min value 10Gi is greater than max value 1Gi']],
  },
];

const moreRows: Row[] = [
  {
    name: 'min above default (bad value is the min)',
    lr: lr([{ type: 'Container', min: res('200m', '', '', ''), default: res('100m', '', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].default[cpu]: Invalid value: "200m": min value 200m is greater than default value 100m']],
  },
  {
    name: 'min above default request',
    lr: lr([{ type: 'Container', min: res('', '1Gi', '', ''), defaultRequest: res('', '512Mi', '', '') }]),
    want: [['FieldValueInvalid', 'spec.limits[0].defaultRequest[memory]: Invalid value: "512Mi": min value 1Gi is greater than default request value 512Mi']],
  },
  {
    name: 'non-overcommittable default must equal defaultRequest',
    lr: lr([{ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }]),
    want: [['FieldValueInvalid', 'spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in example.com/gpu']],
  },
  {
    name: 'Container items use container resource names',
    lr: lr([{ type: 'Container', max: { storage: '1Gi' } }]),
    want: [['FieldValueInvalid', 'spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers']],
  },
  {
    name: 'a value that does not parse is reported at its key',
    lr: lr([{ type: 'Container', max: { cpu: 'two' }, min: { cpu: '1' } }]),
    want: [['FieldValueInvalid', `spec.limits[0].max[cpu]: Invalid value: "two": ${quantityFormatMsg}`]],
  },
  {
    name: 'an empty type is not a qualified name',
    lr: lr([{ type: '' }]),
    want: [
      ['FieldValueInvalid', 'spec.limits[0].type: Invalid value: "": name part must be non-empty'],
      [
        'FieldValueInvalid',
        "spec.limits[0].type: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
  },
];

describe('validateLimitRange: upstream success cases', () => {
  for (const r of successRows) test(r.name, () => assertErrors(validateLimitRange(r.lr), r.want));
});

describe('validateLimitRange: upstream error cases', () => {
  for (const r of errorRows) test(r.name, () => assertErrors(validateLimitRange(r.lr), r.want));
});

describe('validateLimitRange: further rules', () => {
  for (const r of moreRows) test(r.name, () => assertErrors(validateLimitRange(r.lr), r.want));
});
