// spec.os and the fields it rules out (src/api/validation/osfields.ts): upstream's
// TestValidateOS, TestValidateLinuxSecurityContext and TestValidateWindowsSecurityContext rows
// (validation_test.go), and every field validateWindows refuses, in its order, through
// validatePodCreate.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { Pod, PodSpec } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateLinux, validateOS, validateWindows } from '../../../src/api/validation/osfields.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

const spec = FieldPath.root('spec');

describe('validateOS (TestValidateOS)', () => {
  const rows: { name: string; s: Partial<PodSpec>; want: string[] }[] = [
    { name: 'no OS field', s: {}, want: [] },
    { name: 'empty OS field', s: { os: {} as PodSpec['os'] }, want: ['spec.os.name: Required value: cannot be empty'] },
    { name: 'valid OS linux', s: { os: { name: 'linux' } }, want: [] },
    { name: 'valid OS windows', s: { os: { name: 'windows' } }, want: [] },
    { name: 'empty OS name', s: { os: { name: '' } }, want: ['spec.os.name: Required value: cannot be empty'] },
    { name: 'invalid OS', s: { os: { name: 'dummyOS' } }, want: ['spec.os: Unsupported value: "dummyOS": supported values: "linux", "windows"'] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateOS(r.s as PodSpec, spec.child('os')).map(errorString), r.want));
});

describe('validateLinux (TestValidateLinuxSecurityContext)', () => {
  const rows: { name: string; s: PodSpec; want: string[] }[] = [
    {
      name: 'valid SC, linux, no error',
      s: {
        containers: [
          { name: 'c', image: 'i', securityContext: { privileged: false, capabilities: { add: ['foo'], drop: ['bar'] }, seLinuxOptions: { user: 'user', role: 'role', type: 'type', level: 'level' }, runAsUser: 1 } },
        ],
      },
      want: [],
    },
    {
      name: 'invalid SC, linux, error',
      s: { containers: [{ name: 'c', image: 'i', securityContext: { windowsOptions: { runAsUserName: 'myUser' } } }] },
      want: ['field.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    },
    {
      name: "the pod's windowsOptions, then each container's (init containers first)",
      s: {
        securityContext: { windowsOptions: {} },
        initContainers: [{ name: 'i', image: 'i', securityContext: { windowsOptions: {} } }],
        containers: [{ name: 'c', image: 'i', securityContext: { windowsOptions: {} } }],
      },
      want: [
        'field.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
        'field.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
        'field.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateLinux(r.s, FieldPath.root('field')).map(errorString), r.want));
});

describe('validateWindows (TestValidateWindowsSecurityContext)', () => {
  const first = (s: PodSpec) => validateWindows(s, FieldPath.root('field')).map((e) => [e.type, e.detail]);
  const rows: { name: string; s: PodSpec; want: string[][] }[] = [
    { name: 'pod with SELinux Options', s: { containers: [{ name: 'c', image: 'i', securityContext: { seLinuxOptions: { role: 'dummy' } } }] }, want: [['FieldValueForbidden', 'cannot be set for a windows pod']] },
    { name: 'pod with SeccompProfile', s: { containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { localhostProfile: 'dummy' } as never } }] }, want: [['FieldValueForbidden', 'cannot be set for a windows pod']] },
    { name: 'pod with AppArmorProfile', s: { containers: [{ name: 'c', image: 'i', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }] }, want: [['FieldValueForbidden', 'cannot be set for a windows pod']] },
    { name: 'pod with WindowsOptions, no error', s: { containers: [{ name: 'c', image: 'i', securityContext: { windowsOptions: { runAsUserName: 'dummy' } } }] }, want: [] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(first(r.s), r.want));
});

describe('OS-specific fields through validatePodCreate', () => {
  const W = 'Forbidden: cannot be set for a windows pod';
  const rows: { name: string; pod: Pod; want: Want }[] = [
    {
      name: 'every Linux-only pod field of a Windows pod, in validateWindows order',
      pod: podWith((p) => {
        p.spec.os = { name: 'windows' };
        p.spec.hostUsers = true;
        p.spec.hostPID = true;
        p.spec.hostIPC = true;
        p.spec.shareProcessNamespace = false;
        p.spec.securityContext = {
          appArmorProfile: { type: 'RuntimeDefault' },
          seLinuxOptions: { role: 'r' },
          seccompProfile: { type: 'RuntimeDefault' },
          fsGroup: 1,
          fsGroupChangePolicy: 'Always',
          sysctls: [{ name: 'kernel.panic', value: '1' }],
          runAsUser: 1,
          runAsGroup: 1,
          supplementalGroups: [],
        };
      }),
      want: [
        ['FieldValueForbidden', `spec.securityContext.appArmorProfile: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.seLinuxOptions: ${W}`],
        ['FieldValueForbidden', `spec.hostUsers: ${W}`],
        ['FieldValueForbidden', `spec.hostPID: ${W}`],
        ['FieldValueForbidden', `spec.hostIPC: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.seccompProfile: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.fsGroup: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.fsGroupChangePolicy: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.sysctls: ${W}`],
        ['FieldValueForbidden', `spec.shareProcessNamespace: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.runAsUser: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.runAsGroup: ${W}`],
        ['FieldValueForbidden', `spec.securityContext.supplementalGroups: ${W}`],
      ],
    },
    {
      name: "every Linux-only field of a Windows pod's container, in validateWindows order",
      pod: podWith((p) => {
        p.spec.os = { name: 'windows' };
        p.spec.containers[0]!.securityContext = {
          runAsGroup: 1,
          runAsUser: 1,
          procMount: 'Default',
          allowPrivilegeEscalation: true,
          privileged: false,
          readOnlyRootFilesystem: false,
          capabilities: {},
          seccompProfile: { type: 'RuntimeDefault' },
          seLinuxOptions: {},
          appArmorProfile: { type: 'RuntimeDefault' },
        };
      }),
      want: [
        ['FieldValueForbidden', `spec.containers[0].securityContext.appArmorProfile: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.seLinuxOptions: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.seccompProfile: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.capabilities: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.readOnlyRootFilesystem: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.privileged: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.allowPrivilegeEscalation: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.procMount: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.runAsUser: ${W}`],
        ['FieldValueForbidden', `spec.containers[0].securityContext.runAsGroup: ${W}`],
      ],
    },
    {
      name: 'runAsNonRoot and windowsOptions are fine on a Windows pod',
      pod: podWith((p) => {
        p.spec.os = { name: 'windows' };
        p.spec.securityContext = { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } };
        p.spec.containers[0]!.securityContext = { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } };
      }),
      want: [],
    },
    {
      name: 'a Linux pod may not set windowsOptions, on an ephemeral container neither',
      pod: podWith((p) => {
        p.spec.os = { name: 'linux' };
        p.spec.ephemeralContainers = [{ ...container('debug'), securityContext: { windowsOptions: {} } }];
      }),
      want: [
        ['FieldValueForbidden', 'spec.ephemeralContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
        ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
      ],
    },
    {
      name: 'an invalid OS name reports only itself',
      pod: podWith((p) => {
        p.spec.os = { name: 'plan9' };
        p.spec.securityContext = { windowsOptions: {}, seLinuxOptions: {} };
      }),
      want: [['FieldValueNotSupported', 'spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']],
    },
    {
      name: 'a pod without os may set both kinds of fields',
      pod: podWith((p) => (p.spec.securityContext = { windowsOptions: { runAsUserName: 'u' }, seLinuxOptions: { level: 's0' } })),
      want: [],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
