// Object metadata rules every kind shares (apimachinery pkg/api/validation/objectmeta.go and
// rest.BeforeUpdate's validateCommonFields): owner references on create and update, and the
// update-only rules (immutable identity fields, no new finalizers once deleting, generation).
// Rows follow objectmeta_test.go's TestValidateObjectMetaOwnerReferences and the update tests.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObjectMeta, OwnerReference } from '../../../src/api/types.js';
import { validateCommonUpdateFields, validateObjectMeta, validateObjectMetaUpdate, pathSegmentName } from '../../../src/api/validation/objectmeta.js';
import { nameIsDNSSubdomain } from '../../../src/api/validation/names.js';
import { assertErrors, type Want } from './helpers.js';

const ref = (kind: string, uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'customresourceVersion', kind, name: 'name', uid, ...extra });
const goRef = (kind: string, uid: string, controller: string) =>
  `v1.OwnerReference{APIVersion:"customresourceVersion", Kind:"${kind}", Name:"name", UID:"${uid}", Controller:${controller}, BlockOwnerDeletion:(*bool)(nil)}`;

const ownerRows: { name: string; refs: OwnerReference[]; want: Want }[] = [
  { name: 'a third-party owner', refs: [ref('customresourceKind', '1')], want: [] },
  {
    name: 'an Event may not own anything',
    refs: [{ apiVersion: 'v1', kind: 'Event', name: 'name', uid: '1' }],
    want: [['FieldValueInvalid', 'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"name", UID:"1", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner']],
  },
  { name: 'an events.k8s.io Event may own (only core/v1 Event is banned)', refs: [{ apiVersion: 'events.k8s.io/v1', kind: 'Event', name: 'name', uid: '1' }], want: [] },
  {
    name: 'one controller among several references',
    refs: [ref('customresourceKind', '1', { controller: false }), ref('customresourceKind', '2', { controller: true }), ref('customresourceKind', '3', { controller: false }), ref('customresourceKind', '4')],
    want: [],
  },
  {
    name: 'two controllers: the list is reported with the first two controllers named',
    refs: [ref('customresourceKind1', '1', { controller: false }), ref('customresourceKind2', '2', { controller: true }), ref('customresourceKind3', '3', { controller: true })],
    want: [
      [
        'FieldValueInvalid',
        `metadata.ownerReferences: Invalid value: []v1.OwnerReference{${goRef('customresourceKind1', '1', '(*bool)(0xc000000000)')}, ${goRef('customresourceKind2', '2', '(*bool)(0xc000000000)')}, ${goRef('customresourceKind3', '3', '(*bool)(0xc000000000)')}}: Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name`,
      ],
    ],
  },
  {
    name: 'every identifying field is required, each reported at the list path without an index',
    refs: [{ apiVersion: '', kind: '', name: '', uid: '' }],
    want: [
      ['FieldValueInvalid', 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'],
      ['FieldValueInvalid', 'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty'],
      ['FieldValueInvalid', 'metadata.ownerReferences.name: Invalid value: "": name must not be empty'],
      ['FieldValueInvalid', 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'],
    ],
  },
  { name: 'a group without a version has no version', refs: [{ apiVersion: 'apps/', kind: 'K', name: 'n', uid: 'u' }], want: [['FieldValueInvalid', 'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty']] },
  { name: 'more than one slash parses to no version', refs: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }], want: [['FieldValueInvalid', 'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty']] },
];

describe('ValidateOwnerReferences, on create and on update', () => {
  for (const row of ownerRows) {
    test(row.name, () => {
      const meta: ObjectMeta = { name: 'test', namespace: 'test', ownerReferences: row.refs };
      assertErrors(validateObjectMeta(meta, { namespaced: true, nameFn: nameIsDNSSubdomain }), row.want);
      assertErrors(validateObjectMetaUpdate(meta, { name: 'test', namespace: 'test' }), row.want);
    });
  }
});

const old: ObjectMeta = { name: 'web', namespace: 'ns', uid: 'u-1', creationTimestamp: '2026-11-28T10:00:00Z', generation: 2, finalizers: ['example.com/a'] };

const updateRows: { name: string; next: ObjectMeta; old?: ObjectMeta; want: Want }[] = [
  { name: 'the same metadata passes', next: { ...old }, want: [] },
  { name: 'the uid is immutable', next: { ...old, uid: 'u-2' }, want: [['FieldValueInvalid', 'metadata.uid: Invalid value: "u-2": field is immutable']] },
  { name: 'the name is immutable', next: { ...old, name: 'other' }, want: [['FieldValueInvalid', 'metadata.name: Invalid value: "other": field is immutable']] },
  { name: 'generation may not be decremented', next: { ...old, generation: 1 }, want: [['FieldValueInvalid', 'metadata.generation: Invalid value: 1: must not be decremented']] },
  { name: 'finalizers may go while deleting', old: { ...old, deletionTimestamp: '2026-11-28T11:00:00Z' }, next: { ...old, finalizers: [], deletionTimestamp: '2026-11-28T11:00:00Z' }, want: [] },
  {
    name: 'no new finalizers while deleting (reported first)',
    old: { ...old, deletionTimestamp: '2026-11-28T11:00:00Z' },
    next: { ...old, uid: 'u-2', finalizers: ['example.com/a', 'example.com/b'], deletionTimestamp: '2026-11-28T11:00:00Z' },
    want: [
      ['FieldValueForbidden', 'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}'],
      ['FieldValueInvalid', 'metadata.uid: Invalid value: "u-2": field is immutable'],
    ],
  },
];

describe('ValidateObjectMetaUpdate', () => {
  for (const row of updateRows) {
    test(row.name, () => assertErrors(validateObjectMetaUpdate(row.next, row.old ?? old), row.want));
  }
});

describe('validateCommonFields: the create rules on the new metadata, then the update rules', () => {
  test('a bad label is reported by both (the 422 message lists it once)', () => {
    const label = 'metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')';
    assertErrors(validateCommonUpdateFields({ ...old, labels: { 'bad key!': 'v' } }, old, true), [['FieldValueInvalid', label], ['FieldValueInvalid', label]]);
  });
  test('a cluster-scoped kind may not carry a namespace', () => {
    assertErrors(validateCommonUpdateFields({ name: 'n', uid: 'u' }, { name: 'n', uid: 'u' }, false), []);
    assertErrors(validateCommonUpdateFields({ name: 'n', namespace: 'x', uid: 'u' }, { name: 'n', uid: 'u' }, false), [
      ['FieldValueForbidden', 'metadata.namespace: Forbidden: not allowed on this type'],
      ['FieldValueInvalid', 'metadata.namespace: Invalid value: "x": field is immutable'],
    ]);
  });
});

describe('ValidatePathSegmentName', () => {
  const rows: [string, boolean, string[]][] = [
    ['web', false, []],
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['..', true, []],
    ['a/b%c', false, ["may not contain '/'", "may not contain '%'"]],
  ];
  for (const [name, prefix, want] of rows) test(`${JSON.stringify(name)} as ${prefix ? 'a prefix' : 'a name'}`, () => assert.deepEqual(pathSegmentName(name, prefix), want));
});
