import { describe, test } from 'node:test';
import type { Namespace } from '../../../src/api/types.js';
import { validateNamespace } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { dnsLabelMsg, namePartMsg } from './messages.js';

type Row = { name: string; ns: Namespace; want: Want };

const rows: Row[] = [
  { name: 'a lowercase name with labels', ns: { metadata: { name: 'abc', labels: { a: 'b' } } }, want: [] },
  { name: 'qualified finalizers', ns: { metadata: { name: 'abc-123' }, spec: { finalizers: ['example.com/something', 'example.com/other'] } }, want: [] },
  { name: 'the standard kubernetes finalizer', ns: { metadata: { name: 'team-a' }, spec: { finalizers: ['kubernetes'] } }, want: [] },
  { name: 'zero-length name', ns: { metadata: { name: '' } }, want: [['FieldValueRequired', 'metadata.name: Required value: name or generateName is required']] },
  {
    name: 'the name must be a DNS-1123 label (no dots)',
    ns: { metadata: { name: 'team.a' } },
    want: [['FieldValueInvalid', 'metadata.name: Invalid value: "team.a": must not contain dots']],
  },
  {
    name: 'the name must be lowercase',
    ns: { metadata: { name: 'Team' } },
    want: [['FieldValueInvalid', `metadata.name: Invalid value: "Team": ${dnsLabelMsg}`]],
  },
  {
    name: 'the name is at most 63 characters',
    ns: { metadata: { name: 'a'.repeat(64) } },
    want: [['FieldValueInvalid', `metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
  },
  {
    name: 'defined-namespace: a namespace has no namespace',
    ns: { metadata: { name: 'abc-123', namespace: 'makesnosense' } },
    want: [['FieldValueForbidden', 'metadata.namespace: Forbidden: not allowed on this type']],
  },
  {
    name: 'invalid-labels',
    ns: { metadata: { name: 'abc', labels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } } },
    want: [['FieldValueInvalid', `metadata.labels: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": ${namePartMsg}`]],
  },
  {
    name: 'an unqualified non-standard spec finalizer',
    ns: { metadata: { name: 'abc' }, spec: { finalizers: ['Foo'] } },
    want: [['FieldValueInvalid', 'spec.finalizers: Invalid value: "Foo": name is neither a standard finalizer name nor is it fully qualified']],
  },
];

describe('validateNamespace', () => {
  for (const r of rows) test(r.name, () => assertErrors(validateNamespace(r.ns), r.want));
});
