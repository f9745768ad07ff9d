// validateHostUsers (src/api/validation/hostusers.ts): upstream's TestValidateHostUsers rows
// (validation_test.go), with the full error texts, through validatePodCreate.

import { describe, test } from 'node:test';
import type { Pod } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';

const msg = 'Forbidden: when `pod.Spec.HostUsers` is false';

const rows: { name: string; pod: Pod; want: Want }[] = [
  { name: 'hostUsers unset', pod: podWith(() => {}), want: [] },
  { name: 'hostUsers=false', pod: podWith((p) => (p.spec.hostUsers = false)), want: [] },
  { name: 'hostUsers=true', pod: podWith((p) => (p.spec.hostUsers = true)), want: [] },
  {
    name: 'hostUsers=false & volumes',
    pod: podWith((p) => {
      p.spec.hostUsers = false;
      p.spec.volumes = [
        { name: 'configmap', configMap: { name: 'configmap' } },
        { name: 'secret', secret: { secretName: 'secret' } },
        { name: 'empty-dir', emptyDir: {} },
      ];
    }),
    want: [],
  },
  {
    name: 'hostUsers=false - stateful volume',
    pod: podWith((p) => {
      p.spec.hostUsers = false;
      p.spec.volumes = [{ name: 'host-path', hostPath: { path: '/tmp' } }];
    }),
    want: [],
  },
  { name: 'hostUsers=true & hostNetwork', pod: podWith((p) => ((p.spec.hostUsers = true), (p.spec.hostNetwork = true))), want: [] },
  { name: 'hostUsers=false & HostNetwork', pod: podWith((p) => ((p.spec.hostUsers = false), (p.spec.hostNetwork = true))), want: [['FieldValueForbidden', `spec.hostNetwork: ${msg}`]] },
  { name: 'hostUsers=false & HostPID (upstream capitalises the field)', pod: podWith((p) => ((p.spec.hostUsers = false), (p.spec.hostPID = true))), want: [['FieldValueForbidden', `spec.HostPID: ${msg}`]] },
  { name: 'hostUsers=false & HostIPC (upstream capitalises the field)', pod: podWith((p) => ((p.spec.hostUsers = false), (p.spec.hostIPC = true))), want: [['FieldValueForbidden', `spec.HostIPC: ${msg}`]] },
  {
    name: 'all three, in that order',
    pod: podWith((p) => {
      p.spec.hostUsers = false;
      p.spec.hostNetwork = true;
      p.spec.hostPID = true;
      p.spec.hostIPC = true;
    }),
    want: [
      ['FieldValueForbidden', `spec.hostNetwork: ${msg}`],
      ['FieldValueForbidden', `spec.HostPID: ${msg}`],
      ['FieldValueForbidden', `spec.HostIPC: ${msg}`],
    ],
  },
];

describe('validateHostUsers (TestValidateHostUsers)', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
