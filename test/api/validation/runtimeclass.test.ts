// RuntimeClass validation, one row per rule of pkg/apis/node/validation (ValidateRuntimeClass,
// ValidateRuntimeClassUpdate) and its upstream test cases, with Kubernetes' paths and wording.

import { describe, test } from 'node:test';
import type { RuntimeClass } from '../../../src/api/types.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg, namePartMsg } from './messages.js';

function rc(name: string, handler: string, extra: Partial<RuntimeClass> = {}, meta: Partial<RuntimeClass['metadata']> = {}): RuntimeClass {
  return { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name, ...meta }, handler, ...extra };
}

describe('validateRuntimeClass', () => {
  const rows: { name: string; rc: RuntimeClass; want: Want }[] = [
    { name: 'a name and a DNS-label handler are valid', rc: rc('foo', 'bar-baz'), want: [] },
    { name: 'the name must be a DNS subdomain', rc: rc('&!@#', 'foo'), want: [['FieldValueInvalid', `metadata.name: Invalid value: "&!@#": ${dnsSubdomainMsg}`]] },
    { name: 'a cluster-scoped kind: metadata.namespace is forbidden', rc: rc('foo', 'bar', {}, { namespace: 'x' }), want: [['FieldValueForbidden', 'metadata.namespace: Forbidden: not allowed on this type']] },
    { name: 'the handler must be a DNS label', rc: rc('foo', '&@#$'), want: [['FieldValueInvalid', `handler: Invalid value: "&@#$": ${dnsLabelMsg}`]] },
    { name: 'a dotted handler is not a DNS label', rc: rc('foo', 'runc.v2'), want: [['FieldValueInvalid', 'handler: Invalid value: "runc.v2": must not contain dots']] },
    { name: 'an empty handler is invalid (the empty RuntimeClass)', rc: rc('empty', ''), want: [['FieldValueInvalid', `handler: Invalid value: "": ${dnsLabelMsg}`]] },
    { name: 'a handler longer than 63 characters is invalid', rc: rc('foo', 'a'.repeat(64)), want: [['FieldValueInvalid', `handler: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]] },
    { name: 'overhead with cpu and memory is valid', rc: rc('foo', 'bar', { overhead: { podFixed: { cpu: '10', memory: '10G' } } }), want: [] },
    {
      name: 'overhead.podFixed is checked as container limits, at overhead.limits[...]',
      rc: rc('foo', 'bar', { overhead: { podFixed: { 'my.org': '10m' } } }),
      want: [
        ['FieldValueInvalid', 'overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource type or fully qualified'],
        ['FieldValueInvalid', 'overhead.limits[my.org]: Invalid value: "my.org": must be a standard resource for containers'],
      ],
    },
    { name: 'a negative overhead is invalid', rc: rc('foo', 'bar', { overhead: { podFixed: { cpu: '-1' } } }), want: [['FieldValueInvalid', 'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']] },
    { name: 'empty scheduling is valid', rc: rc('foo', 'bar', { scheduling: {} }), want: [] },
    { name: 'scheduling with a valid nodeSelector and toleration is valid', rc: rc('foo', 'bar', { scheduling: { nodeSelector: { valid: 'yes' }, tolerations: [{ key: 'valid', operator: 'Exists', effect: 'NoSchedule' }] } }), want: [] },
    {
      name: 'scheduling.nodeSelector keys are label keys',
      rc: rc('foo', 'bar', { scheduling: { nodeSelector: { 'not a valid key!!!': 'nope' } } }),
      want: [['FieldValueInvalid', `scheduling.nodeSelector: Invalid value: "not a valid key!!!": ${namePartMsg}`]],
    },
    {
      name: 'scheduling.tolerations are validated as a pod\'s, with their index',
      rc: rc('foo', 'bar', { scheduling: { tolerations: [{ key: 'valid', operator: 'Exists', effect: 'NoSchedule' }, { key: 'not a valid key!!!', operator: 'Exists', effect: 'NoSchedule' }] } }),
      want: [['FieldValueInvalid', `scheduling.tolerations[1].key: Invalid value: "not a valid key!!!": ${namePartMsg}`]],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateRuntimeClass(r.rc), r.want));
});

describe('validateRuntimeClassUpdate', () => {
  const old = rc('foo', 'bar', {}, { resourceVersion: '1' });
  const rows: { name: string; rc: RuntimeClass; want: Want }[] = [
    { name: 'a metadata change is valid', rc: rc('foo', 'bar', {}, { resourceVersion: '1', labels: { foo: 'bar' } }), want: [] },
    { name: 'overhead and scheduling may change', rc: rc('foo', 'bar', { overhead: { podFixed: { cpu: '1' } }, scheduling: { nodeSelector: { a: 'b' } } }, { resourceVersion: '1' }), want: [] },
    { name: 'the handler is immutable', rc: rc('foo', 'somethingelse', {}, { resourceVersion: '1' }), want: [['FieldValueInvalid', 'handler: Invalid value: "somethingelse": field is immutable']] },
    { name: 'the name is immutable', rc: rc('empty', 'bar', {}, { resourceVersion: '1' }), want: [['FieldValueInvalid', 'metadata.name: Invalid value: "empty": field is immutable']] },
    { name: 'an update is validated as a create too', rc: rc('foo', 'bar', { overhead: { podFixed: { cpu: '-1' } } }, { resourceVersion: '1' }), want: [['FieldValueInvalid', 'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validateRuntimeClassUpdate(r.rc, old), r.want));
});
