// Seccomp (src/api/validation/seccomp.ts): the seccompProfile field on pod and container
// security contexts, the deprecated annotations' values, and the create rule that annotation and
// field agree. The rows port upstream's TestValidatePod seccomp cases (validation_test.go) with
// the full error texts; the others pin each branch of validateSeccompProfileField and
// validateSeccompAnnotationsAndFieldsMatch.

import { describe, test } from 'node:test';
import type { Pod, SeccompProfile } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

type Row = { name: string; pod: Pod; want: Want };

const POD = 'seccomp.security.alpha.kubernetes.io/pod';
const CTR = 'container.seccomp.security.alpha.kubernetes.io/';
const supported = 'supported values: "Localhost", "RuntimeDefault", "Unconfined"';
const setPtr = '(*string)(0xc000000000)';

const podProfile = (sp: SeccompProfile, annotations?: Record<string, string>) =>
  podWith((p) => {
    p.spec.securityContext = { seccompProfile: sp };
    if (annotations) p.metadata.annotations = annotations;
  });
const ctrProfile = (sp: SeccompProfile, annotations?: Record<string, string>) =>
  podWith((p) => {
    p.spec.containers[0]!.securityContext = { seccompProfile: sp };
    if (annotations) p.metadata.annotations = annotations;
  });
const annotated = (annotations: Record<string, string>) => podWith((p) => (p.metadata.annotations = annotations));

const rows: Row[] = [
  // TestValidatePod success cases
  { name: 'runtime default seccomp profile annotation', pod: annotated({ [POD]: 'runtime/default' }), want: [] },
  { name: 'unconfined seccomp profile annotation', pod: annotated({ [POD]: 'unconfined' }), want: [] },
  { name: 'docker/default is still accepted', pod: annotated({ [POD]: 'docker/default' }), want: [] },
  { name: 'localhost seccomp profile annotation', pod: annotated({ [POD]: 'localhost/foo' }), want: [] },
  { name: 'localhost seccomp profile for a container (no such container needed)', pod: annotated({ [`${CTR}foo`]: 'localhost/foo' }), want: [] },
  { name: 'runtime default seccomp profile for a pod', pod: podProfile({ type: 'RuntimeDefault' }), want: [] },
  { name: 'unconfined seccomp profile for a container', pod: ctrProfile({ type: 'Unconfined' }), want: [] },
  { name: 'localhost seccomp profile for a pod', pod: podProfile({ type: 'Localhost', localhostProfile: 'filename.json' }), want: [] },
  { name: 'localhost seccomp profile for a container, II', pod: ctrProfile({ type: 'Localhost', localhostProfile: 'filename.json' }), want: [] },

  // TestValidatePod error cases
  {
    name: 'must be a valid pod seccomp profile (errors name the annotation as a child, not a key)',
    pod: annotated({ [POD]: 'foo' }),
    want: [['FieldValueInvalid', `metadata.annotations.${POD}: Invalid value: "foo": must be a valid seccomp profile`]],
  },
  {
    name: 'must be a valid container seccomp profile',
    pod: annotated({ [`${CTR}foo`]: 'foo' }),
    want: [['FieldValueInvalid', `metadata.annotations.${CTR}foo: Invalid value: "foo": must be a valid seccomp profile`]],
  },
  {
    name: 'must be a non-empty container name in seccomp annotation (the key is not a qualified name)',
    pod: annotated({ [CTR]: 'foo' }),
    want: [
      ['FieldValueInvalid', `metadata.annotations: Invalid value: "${CTR}": name part must be non-empty`],
      [
        'FieldValueInvalid',
        `metadata.annotations: Invalid value: "${CTR}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      ['FieldValueInvalid', `metadata.annotations.${CTR}: Invalid value: "foo": must be a valid seccomp profile`],
    ],
  },
  {
    name: 'must be a non-empty container profile in seccomp annotation',
    pod: annotated({ [`${CTR}foo`]: '' }),
    want: [['FieldValueInvalid', `metadata.annotations.${CTR}foo: Invalid value: "": must be a valid seccomp profile`]],
  },
  {
    name: 'must match seccomp profile type and pod annotation',
    pod: podProfile({ type: 'RuntimeDefault' }, { [POD]: 'unconfined' }),
    want: [['FieldValueForbidden', 'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']],
  },
  {
    name: 'must match seccomp profile type and container annotation',
    pod: ctrProfile({ type: 'RuntimeDefault' }, { [`${CTR}c`]: 'unconfined' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']],
  },
  {
    name: 'must be a relative path in a node-local seccomp profile annotation',
    pod: annotated({ [POD]: 'localhost//foo' }),
    want: [['FieldValueInvalid', `metadata.annotations.${POD}: Invalid value: "/foo": must be a relative path`]],
  },
  {
    name: "must not start with '../'",
    pod: annotated({ [POD]: 'localhost/../foo' }),
    want: [['FieldValueInvalid', `metadata.annotations.${POD}: Invalid value: "../foo": must not contain '..'`]],
  },

  // validateSeccompProfileField, branch by branch
  {
    name: 'a profile needs a type',
    pod: podProfile({ type: '' }),
    want: [['FieldValueRequired', 'spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set']],
  },
  {
    name: 'an unknown type is unsupported, on a container too',
    pod: ctrProfile({ type: 'Default' }),
    want: [['FieldValueNotSupported', `spec.containers[0].securityContext.seccompProfile.type: Unsupported value: "Default": ${supported}`]],
  },
  {
    name: 'Localhost needs a localhostProfile',
    pod: podProfile({ type: 'Localhost' }),
    want: [['FieldValueRequired', 'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost']],
  },
  {
    name: 'a Localhost profile is a relative path without ..',
    pod: ctrProfile({ type: 'Localhost', localhostProfile: '/etc/../x.json' }),
    want: [
      ['FieldValueInvalid', 'spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: "/etc/../x.json": must be a relative path'],
      ['FieldValueInvalid', "spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: \"/etc/../x.json\": must not contain '..'"],
    ],
  },
  {
    name: 'an empty localhostProfile is set (upstream checks the pointer)',
    pod: podProfile({ type: 'Localhost', localhostProfile: '' }),
    want: [],
  },
  {
    name: 'localhostProfile is refused for other types, the profile printed as its Go struct',
    pod: podProfile({ type: 'RuntimeDefault', localhostProfile: 'x.json' }),
    want: [
      ['FieldValueInvalid', `spec.securityContext.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"RuntimeDefault", LocalhostProfile:${setPtr}}: can only be set when seccomp type is Localhost`],
    ],
  },
  {
    name: 'a missing type and a stray localhostProfile are both reported',
    pod: ctrProfile({ localhostProfile: 'x' } as SeccompProfile),
    want: [
      ['FieldValueRequired', 'spec.containers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set'],
      ['FieldValueInvalid', `spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{Type:"", LocalhostProfile:${setPtr}}: can only be set when seccomp type is Localhost`],
    ],
  },

  // validateSeccompAnnotationsAndFieldsMatch, branch by branch
  { name: 'RuntimeDefault matches runtime/default', pod: podProfile({ type: 'RuntimeDefault' }, { [POD]: 'runtime/default' }), want: [] },
  { name: 'RuntimeDefault matches docker/default', pod: ctrProfile({ type: 'RuntimeDefault' }, { [`${CTR}c`]: 'docker/default' }), want: [] },
  { name: 'Unconfined matches unconfined', pod: podProfile({ type: 'Unconfined' }, { [POD]: 'unconfined' }), want: [] },
  { name: 'Localhost matches the same localhost/ path', pod: ctrProfile({ type: 'Localhost', localhostProfile: 'a.json' }, { [`${CTR}c`]: 'localhost/a.json' }), want: [] },
  {
    name: 'Unconfined does not match runtime/default',
    pod: podProfile({ type: 'Unconfined' }, { [POD]: 'runtime/default' }),
    want: [['FieldValueForbidden', 'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']],
  },
  {
    name: 'Localhost does not match a non-localhost annotation',
    pod: podProfile({ type: 'Localhost', localhostProfile: 'a.json' }, { [POD]: 'runtime/default' }),
    want: [['FieldValueForbidden', 'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']],
  },
  {
    name: 'Localhost with another path is a profile mismatch',
    pod: ctrProfile({ type: 'Localhost', localhostProfile: 'a.json' }, { [`${CTR}c`]: 'localhost/b.json' }),
    want: [['FieldValueForbidden', 'spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match']],
  },
  {
    name: 'the pod annotation is compared with the pod field only, not a container field',
    pod: ctrProfile({ type: 'RuntimeDefault' }, { [POD]: 'unconfined' }),
    want: [],
  },
  {
    name: 'init containers are matched before regular ones',
    pod: podWith((p) => {
      p.spec.initContainers = [container('init', { securityContext: { seccompProfile: { type: 'Unconfined' } } })];
      p.spec.containers[0]!.securityContext = { seccompProfile: { type: 'Unconfined' } };
      p.metadata.annotations = { [`${CTR}c`]: 'runtime/default', [`${CTR}init`]: 'runtime/default' };
    }),
    want: [
      ['FieldValueForbidden', 'spec.initContainers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match'],
      ['FieldValueForbidden', 'spec.containers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match'],
    ],
  },
];

describe('seccomp profiles and annotations', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
