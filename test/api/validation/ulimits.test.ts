import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pod, Ulimit } from '../../../src/api/types.js';
import { nofileMax, ulimitsAllowlist, validatePodCreate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, container, podWith, type Want } from './helpers.js';

type Row = { name: string; pod: Pod; want: Want; gates?: typeof allGates };

const U = 'spec.containers[0].securityContext.ulimits';
const supported = 'supported values: "core", "memlock", "nice", "nofile", "rtprio", "stack"';

function withUlimits(ulimits: Ulimit[], mutate: (p: Pod) => void = () => {}): Pod {
  return podWith((p) => {
    p.spec.containers[0]!.securityContext = { ulimits };
    mutate(p);
  });
}

const rows: Row[] = [
  { name: 'every allowed name with soft ≤ hard is valid', pod: withUlimits(ulimitsAllowlist.map((name) => ({ name, soft: 1, hard: 2 }))), want: [] },
  { name: 'soft equal to hard is valid', pod: withUlimits([{ name: 'nofile', soft: 65536, hard: 65536 }]), want: [] },
  { name: 'an empty list is valid', pod: withUlimits([]), want: [] },
  {
    name: 'a name outside the allowlist is unsupported (nproc)',
    pod: withUlimits([{ name: 'nproc', soft: 1, hard: 1 }]),
    want: [['FieldValueNotSupported', `${U}[0].name: Unsupported value: "nproc": ${supported}`]],
  },
  { name: 'the name is required', pod: withUlimits([{ name: '', soft: 1, hard: 1 }]), want: [['FieldValueRequired', `${U}[0].name: Required value`]] },
  { name: 'the name is required (field absent)', pod: withUlimits([{ soft: 1, hard: 1 } as Ulimit]), want: [['FieldValueRequired', `${U}[0].name: Required value`]] },
  { name: 'soft is required', pod: withUlimits([{ name: 'nofile', hard: 10 } as Ulimit]), want: [['FieldValueRequired', `${U}[0].soft: Required value`]] },
  { name: 'hard is required', pod: withUlimits([{ name: 'nofile', soft: 10 } as Ulimit]), want: [['FieldValueRequired', `${U}[0].hard: Required value`]] },
  { name: 'a null soft is a missing soft', pod: withUlimits([{ name: 'core', soft: null, hard: 10 } as unknown as Ulimit]), want: [['FieldValueRequired', `${U}[0].soft: Required value`]] },
  {
    name: 'name, soft and hard are each required',
    pod: withUlimits([{} as Ulimit]),
    want: [
      ['FieldValueRequired', `${U}[0].name: Required value`],
      ['FieldValueRequired', `${U}[0].soft: Required value`],
      ['FieldValueRequired', `${U}[0].hard: Required value`],
    ],
  },
  {
    name: 'soft and hard are required in init and ephemeral containers too',
    pod: podWith((p) => {
      p.spec.initContainers = [container('init', { securityContext: { ulimits: [{ name: 'nofile', hard: 10 } as Ulimit] } })];
      p.spec.ephemeralContainers = [{ ...container('debug'), securityContext: { ulimits: [{ name: 'core', soft: 1 } as Ulimit] } }];
    }),
    want: [
      ['FieldValueRequired', 'spec.initContainers[0].securityContext.ulimits[0].soft: Required value'],
      ['FieldValueRequired', 'spec.ephemeralContainers[0].securityContext.ulimits[0].hard: Required value'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
  {
    name: 'a name may appear once',
    pod: withUlimits([{ name: 'nofile', soft: 1, hard: 1 }, { name: 'core', soft: 0, hard: 0 }, { name: 'nofile', soft: 2, hard: 2 }]),
    want: [['FieldValueDuplicate', `${U}[2].name: Duplicate value: "nofile"`]],
  },
  {
    name: 'soft above hard is reported at soft',
    pod: withUlimits([{ name: 'memlock', soft: 2048, hard: 1024 }]),
    want: [['FieldValueInvalid', `${U}[0].soft: Invalid value: 2048: must be less than or equal to hard limit 1024`]],
  },
  { name: 'both -1 means unlimited', pod: withUlimits([{ name: 'stack', soft: -1, hard: -1 }]), want: [] },
  { name: 'an unlimited hard limit admits any soft limit', pod: withUlimits([{ name: 'core', soft: 4096, hard: -1 }]), want: [] },
  {
    name: 'an unlimited soft limit exceeds a finite hard limit',
    pod: withUlimits([{ name: 'core', soft: -1, hard: 4096 }]),
    want: [['FieldValueInvalid', `${U}[0].soft: Invalid value: -1: must be less than or equal to hard limit 4096`]],
  },
  {
    name: 'negatives other than -1 are refused (soft)',
    pod: withUlimits([{ name: 'nice', soft: -2, hard: 10 }]),
    want: [['FieldValueInvalid', `${U}[0].soft: Invalid value: -2: must be -1 (unlimited) or a non-negative integer`]],
  },
  {
    name: 'negatives other than -1 are refused (hard)',
    pod: withUlimits([{ name: 'nice', soft: 1, hard: -5 }]),
    want: [['FieldValueInvalid', `${U}[0].hard: Invalid value: -5: must be -1 (unlimited) or a non-negative integer`]],
  },
  {
    name: 'non-integers are refused',
    pod: withUlimits([{ name: 'rtprio', soft: 1.5, hard: 2 }]),
    want: [['FieldValueInvalid', `${U}[0].soft: Invalid value: 1.5: must be an integer`]],
  },
  { name: `nofile up to ${nofileMax} is valid`, pod: withUlimits([{ name: 'nofile', soft: nofileMax, hard: nofileMax }]), want: [] },
  {
    name: `nofile above ${nofileMax} is refused for soft and hard`,
    pod: withUlimits([{ name: 'nofile', soft: 1048577, hard: 2000000 }]),
    want: [
      ['FieldValueInvalid', `${U}[0].soft: Invalid value: 1048577: must be less than or equal to 1048576`],
      ['FieldValueInvalid', `${U}[0].hard: Invalid value: 2000000: must be less than or equal to 1048576`],
    ],
  },
  { name: 'nofile -1 is allowed (the runtime clamps it to nr_open)', pod: withUlimits([{ name: 'nofile', soft: -1, hard: -1 }]), want: [] },
  { name: 'the nofile cap does not apply to other names', pod: withUlimits([{ name: 'stack', soft: 8388608, hard: 17179869184 }]), want: [] },
  {
    name: 'Windows pods may not set ulimits',
    pod: withUlimits([{ name: 'nofile', soft: 1, hard: 1 }], (p) => (p.spec.os = { name: 'windows' })),
    want: [['FieldValueForbidden', `${U}: Forbidden: ulimits are not supported for Windows pods`]],
  },
  { name: 'Linux pods may set ulimits', pod: withUlimits([{ name: 'nofile', soft: 1, hard: 1 }], (p) => (p.spec.os = { name: 'linux' })), want: [] },
  {
    name: 'init and ephemeral containers are checked at their own paths',
    pod: podWith((p) => {
      p.spec.initContainers = [container('init', { securityContext: { ulimits: [{ name: 'as', soft: 1, hard: 1 }] } })];
      p.spec.ephemeralContainers = [{ ...container('debug'), securityContext: { ulimits: [{ name: 'core', soft: 2, hard: 1 }] } }];
    }),
    want: [
      ['FieldValueNotSupported', `spec.initContainers[0].securityContext.ulimits[0].name: Unsupported value: "as": ${supported}`],
      ['FieldValueInvalid', 'spec.ephemeralContainers[0].securityContext.ulimits[0].soft: Invalid value: 2: must be less than or equal to hard limit 1'],
      ['FieldValueForbidden', 'spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  },
  {
    name: 'with ContainerUlimits off the field is ignored (it is dropped before validation)',
    pod: withUlimits([{ name: 'nproc', soft: 5, hard: 1 }]),
    gates: { ...allGates, ContainerUlimits: false },
    want: [],
  },
];

describe('securityContext.ulimits', () => {
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: r.gates ?? allGates }), r.want));
  test('the allowlist and the nofile cap are exported constants', () => {
    assert.deepEqual([...ulimitsAllowlist], ['core', 'memlock', 'nice', 'nofile', 'rtprio', 'stack']);
    assert.equal(nofileMax, 1048576);
  });
});
