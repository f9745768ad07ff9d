// AppArmor (src/api/validation/apparmor.ts): the appArmorProfile field on pod and container
// security contexts, the deprecated per-container annotations, and the create rule that an
// annotation agrees with the profile that applies to its container. The rows port upstream's
// TestValidatePod AppArmor cases and TestValidateAppArmorProfileFormat (validation_test.go),
// with the full error texts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AppArmorProfile, Pod } from '../../../src/api/types.js';
import { appArmorProfileFormatError } from '../../../src/api/validation/apparmor.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

type Row = { name: string; pod: Pod; want: Want };

const KEY = 'container.apparmor.security.beta.kubernetes.io/';
const supported = 'supported values: "Localhost", "RuntimeDefault", "Unconfined"';

const podProfile = (ap: AppArmorProfile, annotations?: Record<string, string>) =>
  podWith((p) => {
    p.spec.securityContext = { appArmorProfile: ap };
    if (annotations) p.metadata.annotations = annotations;
  });
const ctrProfile = (ap: AppArmorProfile, annotations?: Record<string, string>) =>
  podWith((p) => {
    p.spec.containers[0]!.securityContext = { appArmorProfile: ap };
    if (annotations) p.metadata.annotations = annotations;
  });
const annotated = (annotations: Record<string, string>) => podWith((p) => (p.metadata.annotations = annotations));

const rows: Row[] = [
  // TestValidatePod success cases
  { name: 'default AppArmor annotation for a container', pod: annotated({ [`${KEY}c`]: 'runtime/default' }), want: [] },
  {
    name: 'default AppArmor annotation for an init container',
    pod: podWith((p) => {
      p.spec.initContainers = [container('init-ctr')];
      p.metadata.annotations = { [`${KEY}init-ctr`]: 'runtime/default' };
    }),
    want: [],
  },
  { name: 'localhost AppArmor annotation for a container', pod: annotated({ [`${KEY}c`]: 'localhost/foo' }), want: [] },
  { name: 'runtime default AppArmor profile for a pod', pod: podProfile({ type: 'RuntimeDefault' }), want: [] },
  { name: 'runtime default AppArmor profile for a container', pod: ctrProfile({ type: 'RuntimeDefault' }), want: [] },
  { name: 'unconfined AppArmor profile for a pod', pod: podProfile({ type: 'Unconfined' }), want: [] },
  { name: 'unconfined AppArmor profile for a container', pod: ctrProfile({ type: 'Unconfined' }), want: [] },
  { name: 'localhost AppArmor profile for a pod', pod: podProfile({ type: 'Localhost', localhostProfile: 'example-org/application-foo' }), want: [] },
  { name: 'localhost AppArmor profile for a container field', pod: ctrProfile({ type: 'Localhost', localhostProfile: 'example-org/application-foo' }), want: [] },
  { name: 'matching AppArmor fields and annotations', pod: ctrProfile({ type: 'Localhost', localhostProfile: 'foo' }, { [`${KEY}c`]: 'localhost/foo' }), want: [] },
  { name: 'matching AppArmor pod field and annotations', pod: podProfile({ type: 'Localhost', localhostProfile: 'foo' }, { [`${KEY}c`]: 'localhost/foo' }), want: [] },

  // TestValidatePod error cases
  {
    name: 'AppArmor profile must apply to a container (init and regular ones do)',
    pod: podWith((p) => {
      p.spec.initContainers = [container('init-ctr')];
      p.metadata.annotations = { [`${KEY}c`]: 'runtime/default', [`${KEY}init-ctr`]: 'runtime/default', [`${KEY}fake-ctr`]: 'runtime/default' };
    }),
    want: [['FieldValueInvalid', `metadata.annotations[${KEY}fake-ctr]: Invalid value: "fake-ctr": container not found`]],
  },
  {
    name: 'AppArmor profile format must be valid',
    pod: annotated({ [`${KEY}c`]: 'bad-name' }),
    want: [['FieldValueInvalid', `metadata.annotations[${KEY}c]: Invalid value: "bad-name": invalid AppArmor profile name: "bad-name"`]],
  },
  {
    name: 'only default AppArmor profile may start with runtime/',
    pod: annotated({ [`${KEY}c`]: 'runtime/foo' }),
    want: [['FieldValueInvalid', `metadata.annotations[${KEY}c]: Invalid value: "runtime/foo": invalid AppArmor profile name: "runtime/foo"`]],
  },
  {
    name: 'unsupported pod AppArmor profile type',
    pod: podProfile({ type: 'test' }),
    want: [['FieldValueNotSupported', `spec.securityContext.appArmorProfile.type: Unsupported value: "test": ${supported}`]],
  },
  {
    name: 'unsupported container AppArmor profile type',
    pod: ctrProfile({ type: 'test' }),
    want: [['FieldValueNotSupported', `spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "test": ${supported}`]],
  },
  {
    name: 'missing pod AppArmor profile type',
    pod: podProfile({ type: '' }),
    want: [['FieldValueRequired', 'spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set']],
  },
  {
    name: 'missing AppArmor localhost profile',
    pod: podProfile({ type: 'Localhost' }),
    want: [['FieldValueRequired', 'spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost']],
  },
  {
    name: 'empty AppArmor localhost profile',
    pod: podProfile({ type: 'Localhost', localhostProfile: '' }),
    want: [['FieldValueRequired', 'spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost']],
  },
  {
    name: 'invalid AppArmor localhost profile type (localhostProfile beside RuntimeDefault)',
    pod: podProfile({ type: 'RuntimeDefault', localhostProfile: 'foo-bar' }),
    want: [['FieldValueInvalid', 'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "foo-bar": can only be set when AppArmor type is Localhost']],
  },
  {
    name: 'invalid AppArmor localhost profile (padded with whitespace)',
    pod: podProfile({ type: 'Localhost', localhostProfile: 'foo-bar ' }),
    want: [['FieldValueInvalid', 'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "foo-bar ": must not be padded with whitespace']],
  },
  {
    name: 'too long AppArmor localhost profile',
    pod: podProfile({ type: 'Localhost', localhostProfile: 'a'.repeat(4096) }),
    want: [['FieldValueTooLong', 'spec.securityContext.appArmorProfile.localhostProfile: Too long: may not be more than 4095 bytes']],
  },
  {
    name: 'a whitespace-only localhost profile is padded (and so not also Required)',
    pod: podProfile({ type: 'Localhost', localhostProfile: '  ' }),
    want: [['FieldValueInvalid', 'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "  ": must not be padded with whitespace']],
  },
  { name: 'a localhost profile of 4095 bytes is the longest', pod: podProfile({ type: 'Localhost', localhostProfile: 'a'.repeat(4095) }), want: [] },
  {
    name: 'mismatched AppArmor field and annotation types',
    pod: ctrProfile({ type: 'Unconfined' }, { [`${KEY}c`]: 'runtime/default' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match']],
  },
  {
    name: 'mismatched AppArmor pod field and annotation types (reported at the container)',
    pod: podProfile({ type: 'Unconfined' }, { [`${KEY}c`]: 'runtime/default' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match']],
  },
  {
    name: 'mismatched AppArmor localhost profiles',
    pod: ctrProfile({ type: 'Localhost', localhostProfile: 'bar' }, { [`${KEY}c`]: 'localhost/foo' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match']],
  },

  // the match rule's other branches
  {
    name: "a container's own profile wins over the pod's",
    pod: podWith((p) => {
      p.spec.securityContext = { appArmorProfile: { type: 'Unconfined' } };
      p.spec.containers[0]!.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
      p.metadata.annotations = { [`${KEY}c`]: 'runtime/default' };
    }),
    want: [],
  },
  {
    name: 'Localhost against a runtime/default annotation is a type mismatch',
    pod: ctrProfile({ type: 'Localhost', localhostProfile: 'foo' }, { [`${KEY}c`]: 'runtime/default' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match']],
  },
  {
    name: 'Windows pods are not matched (their profiles are refused instead)',
    pod: podWith((p) => {
      p.spec.os = { name: 'windows' };
      p.spec.containers[0]!.securityContext = { appArmorProfile: { type: 'Unconfined' } };
      p.metadata.annotations = { [`${KEY}c`]: 'runtime/default' };
    }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod']],
  },
  {
    name: 'a bad annotation and a missing container are both reported, the container first',
    pod: annotated({ [`${KEY}nope`]: 'bad' }),
    want: [
      ['FieldValueInvalid', `metadata.annotations[${KEY}nope]: Invalid value: "nope": container not found`],
      ['FieldValueInvalid', `metadata.annotations[${KEY}nope]: Invalid value: "bad": invalid AppArmor profile name: "bad"`],
    ],
  },
];

describe('AppArmor profiles and annotations', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('ValidateAppArmorProfileFormat (TestValidateAppArmorProfileFormat)', () => {
  const rows: [string, boolean][] = [
    ['', true],
    ['runtime/default', true],
    ['unconfined', true],
    ['baz', false],
    ['localhost//usr/sbin/ntpd', true],
    ['localhost/foo-bar', true],
  ];
  for (const [profile, valid] of rows) {
    test(`${JSON.stringify(profile)} is ${valid ? 'valid' : 'invalid'}`, () => assert.equal(appArmorProfileFormatError(profile) === undefined, valid));
  }
});
