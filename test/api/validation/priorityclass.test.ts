// PriorityClass validation, one row per rule of pkg/apis/scheduling/validation (ValidatePriorityClass,
// ValidatePriorityClassUpdate) and its upstream test cases, with Kubernetes' paths and wording.

import { describe, test } from 'node:test';
import type { PriorityClass } from '../../../src/api/types.js';
import { validatePriorityClass, validatePriorityClassUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsSubdomainMsg } from './messages.js';

function pc(name: string, value: number, extra: Partial<PriorityClass> = {}, meta: Partial<PriorityClass['metadata']> = {}): PriorityClass {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, ...meta }, value, ...extra };
}

const reserved = (why: string) => `metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: ${why}`;

describe('validatePriorityClass', () => {
  const rows: { name: string; pc: PriorityClass; want: Want }[] = [
    { name: 'a class without a description is valid', pc: pc('tier1', 100), want: [] },
    { name: 'a class with a description and globalDefault false is valid', pc: pc('tier1', 200, { globalDefault: false, description: 'Used for the highest priority pods.' }), want: [] },
    { name: 'negative values are allowed', pc: pc('low', -2147483648), want: [] },
    { name: 'HighestUserDefinablePriority itself is allowed', pc: pc('top', 1000000000), want: [] },
    { name: 'a user class above HighestUserDefinablePriority is forbidden', pc: pc('too-high', 1000000001), want: [['FieldValueForbidden', 'value: Forbidden: maximum allowed value of a user defined priority is 1000000000']] },
    { name: 'a cluster-scoped kind: metadata.namespace is forbidden', pc: pc('tier1', 100, {}, { namespace: 'foo' }), want: [['FieldValueForbidden', 'metadata.namespace: Forbidden: not allowed on this type']] },
    { name: 'the name must be a DNS subdomain', pc: pc('tier&1', 100), want: [['FieldValueInvalid', `metadata.name: Invalid value: "tier&1": ${dnsSubdomainMsg}`]] },
    { name: 'the name is required', pc: pc('', 100), want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
    { name: 'system-node-critical with its value is the built-in class', pc: pc('system-node-critical', 2000001000), want: [] },
    { name: 'system-cluster-critical with its value is the built-in class', pc: pc('system-cluster-critical', 2000000000, { preemptionPolicy: 'PreemptLowerPriority' }), want: [] },
    { name: 'an unknown system- name is reserved', pc: pc('system-foo', 100), want: [['FieldValueForbidden', reserved('system-foo is not a known system priority class')]] },
    { name: 'a system class with another value is reserved', pc: pc('system-node-critical', 1000), want: [['FieldValueForbidden', reserved('value of system-node-critical PriorityClass must be 2000001000')]] },
    { name: 'a system class marked globalDefault is reserved', pc: pc('system-cluster-critical', 2000000000, { globalDefault: true }), want: [['FieldValueForbidden', reserved('globalDefault of system-cluster-critical PriorityClass must be false')]] },
    { name: 'a system- name is not also checked against the user maximum', pc: pc('system-x', 2000000000), want: [['FieldValueForbidden', reserved('system-x is not a known system priority class')]] },
    { name: 'preemptionPolicy Never is valid', pc: pc('np', 10, { preemptionPolicy: 'Never' }), want: [] },
    { name: 'preemptionPolicy must be a supported value', pc: pc('np', 10, { preemptionPolicy: 'Sometimes' }), want: [['FieldValueNotSupported', 'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']] },
    { name: 'an empty preemptionPolicy is a required value', pc: pc('np', 10, { preemptionPolicy: '' }), want: [['FieldValueRequired', 'preemptionPolicy: Required value']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePriorityClass(r.pc), r.want));
});

describe('validatePriorityClassUpdate', () => {
  const old = pc('tier1', 100, { preemptionPolicy: 'PreemptLowerPriority' }, { resourceVersion: '1' });
  const next = (extra: Partial<PriorityClass>, meta: Partial<PriorityClass['metadata']> = {}) => ({ ...pc('tier1', 100, { preemptionPolicy: 'PreemptLowerPriority' }, { resourceVersion: '2', ...meta }), ...extra });
  const rows: { name: string; pc: PriorityClass; want: Want }[] = [
    { name: 'no change', pc: next({ description: 'Used for the highest priority pods.' }), want: [] },
    { name: 'the description may change', pc: next({ description: 'A different description.' }), want: [] },
    { name: 'globalDefault may change', pc: next({ globalDefault: true }), want: [] },
    { name: 'labels may change', pc: next({}, { labels: { team: 'a' } }), want: [] },
    { name: 'value may not be changed', pc: next({ value: 101 }), want: [['FieldValueForbidden', 'value: Forbidden: may not be changed in an update.']] },
    { name: 'value may not be removed (it reads as 0)', pc: { ...next({}), value: undefined as unknown as number }, want: [['FieldValueForbidden', 'value: Forbidden: may not be changed in an update.']] },
    { name: 'preemptionPolicy is immutable', pc: next({ preemptionPolicy: 'Never' }), want: [['FieldValueInvalid', 'preemptionPolicy: Invalid value: "Never": field is immutable']] },
    { name: 'the name is immutable', pc: next({}, { name: 'tier2' }), want: [['FieldValueInvalid', 'metadata.name: Invalid value: "tier2": field is immutable']] },
    { name: 'a namespace may not be added', pc: next({}, { namespace: 'foo' }), want: [['FieldValueInvalid', 'metadata.namespace: Invalid value: "foo": field is immutable']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePriorityClassUpdate(r.pc, old), r.want));
});
