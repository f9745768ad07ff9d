import { describe, test } from 'node:test';
import type { Pod } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

type Row = { name: string; pod: Pod; want: Want; gates?: typeof allGates };

const rows: Row[] = [
  { name: 'Single is valid', pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = 'Single')), want: [] },
  { name: 'Group is valid', pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = 'Group')), want: [] },
  { name: 'unset is valid', pod: podWith(() => {}), want: [] },
  {
    name: 'an unknown mode lists the sorted modes Go-style',
    pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = 'Foo')),
    want: [['FieldValueInvalid', 'spec.containers[0].oomKillMode: Invalid value: "Foo": must be one of [Group Single]']],
  },
  {
    name: 'modes are case-sensitive',
    pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = 'group')),
    want: [['FieldValueInvalid', 'spec.containers[0].oomKillMode: Invalid value: "group": must be one of [Group Single]']],
  },
  {
    name: 'an empty string is not a mode',
    pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = '')),
    want: [['FieldValueInvalid', 'spec.containers[0].oomKillMode: Invalid value: "": must be one of [Group Single]']],
  },
  {
    name: 'Windows pods may not set oomKillMode',
    pod: podWith((p) => {
      p.spec.os = { name: 'windows' };
      p.spec.containers[0]!.oomKillMode = 'Single';
    }),
    want: [['FieldValueForbidden', 'spec.containers[0].oomKillMode: Forbidden: oomKillMode is not supported for Windows pods']],
  },
  {
    name: 'an unknown mode on a Windows pod gets both errors',
    pod: podWith((p) => {
      p.spec.os = { name: 'windows' };
      p.spec.containers[0]!.oomKillMode = 'Foo';
    }),
    want: [
      ['FieldValueInvalid', 'spec.containers[0].oomKillMode: Invalid value: "Foo": must be one of [Group Single]'],
      ['FieldValueForbidden', 'spec.containers[0].oomKillMode: Forbidden: oomKillMode is not supported for Windows pods'],
    ],
  },
  {
    name: 'init containers are checked at spec.initContainers[i].oomKillMode',
    pod: podWith((p) => (p.spec.initContainers = [container('init', { oomKillMode: 'Everything' })])),
    want: [['FieldValueInvalid', 'spec.initContainers[0].oomKillMode: Invalid value: "Everything": must be one of [Group Single]']],
  },
  {
    name: 'ephemeral containers may set oomKillMode and are checked at their path',
    pod: podWith((p) => (p.spec.ephemeralContainers = [{ ...container('debug'), oomKillMode: 'Nope' }])),
    want: [
      ['FieldValueInvalid', 'spec.ephemeralContainers[0].oomKillMode: Invalid value: "Nope": must be one of [Group Single]'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
  {
    name: 'with ContainerOOMKillMode off the field is ignored (it is dropped before validation)',
    pod: podWith((p) => (p.spec.containers[0]!.oomKillMode = 'Foo')),
    gates: { ...allGates, ContainerOOMKillMode: false },
    want: [],
  },
];

describe('oomKillMode', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
});
