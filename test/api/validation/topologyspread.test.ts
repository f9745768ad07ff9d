// spec.topologySpreadConstraints (src/api/validation/topologyspread.ts, upstream's
// validateTopologySpreadConstraints, v1.32). The first table follows upstream
// TestValidateTopologySpreadConstraints (validation_test.go: the constraints validated at `field`),
// the second the rules it leaves open, the third the wiring into a pod.

import { describe, test } from 'node:test';
import { FieldPath } from '../../../src/api/fielderrors.js';
import type { Pod, TopologySpreadConstraint } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateTopologySpreadConstraints } from '../../../src/api/validation/topologyspread.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';
import { dnsSubdomainMsg, labelValueMsg, namePartMsg } from './messages.js';

type C = Partial<TopologySpreadConstraint> | null;
type Row = { name: string; constraints: C[]; allowInvalidLabelSelector?: boolean; want: Want };

const zone = (extra: Partial<TopologySpreadConstraint> = {}): C => ({ maxSkew: 1, topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule', ...extra });
const minDomainsMsg = 'can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway';
const whenValues = 'supported values: "DoNotSchedule", "ScheduleAnyway"';
const invalidKey = 'NoUppercaseOrSpecialCharsLike=Equals';

const upstreamRows: Row[] = [
  { name: 'all required fields ok', constraints: [zone({ minDomains: 3 })], want: [] },
  { name: 'missing MaxSkew', constraints: [{ topologyKey: 'k8s.io/zone', whenUnsatisfiable: 'DoNotSchedule' }], want: [['FieldValueInvalid', 'field[0].maxSkew: Invalid value: 0: must be greater than zero']] },
  { name: 'negative MaxSkew', constraints: [zone({ maxSkew: -1 })], want: [['FieldValueInvalid', 'field[0].maxSkew: Invalid value: -1: must be greater than zero']] },
  { name: 'can use MinDomains with ScheduleAnyway, when MinDomains = nil', constraints: [zone({ whenUnsatisfiable: 'ScheduleAnyway' })], want: [] },
  { name: 'negative minDomains is invalid', constraints: [zone({ minDomains: -1 })], want: [['FieldValueInvalid', 'field[0].minDomains: Invalid value: -1: must be greater than zero']] },
  { name: 'cannot use non-nil MinDomains with ScheduleAnyway', constraints: [zone({ whenUnsatisfiable: 'ScheduleAnyway', minDomains: 10 })], want: [['FieldValueInvalid', `field[0].minDomains: Invalid value: 10: ${minDomainsMsg}`]] },
  {
    name: 'use negative MinDomains with ScheduleAnyway(invalid)',
    constraints: [zone({ whenUnsatisfiable: 'ScheduleAnyway', minDomains: -1 })],
    want: [
      ['FieldValueInvalid', 'field[0].minDomains: Invalid value: -1: must be greater than zero'],
      ['FieldValueInvalid', `field[0].minDomains: Invalid value: -1: ${minDomainsMsg}`],
    ],
  },
  { name: 'missing TopologyKey', constraints: [{ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }], want: [['FieldValueRequired', 'field[0].topologyKey: Required value: can not be empty']] },
  { name: 'missing scheduling mode', constraints: [{ maxSkew: 1, topologyKey: 'k8s.io/zone' }], want: [['FieldValueNotSupported', `field[0].whenUnsatisfiable: Unsupported value: "": ${whenValues}`]] },
  { name: 'unsupported scheduling mode', constraints: [zone({ whenUnsatisfiable: 'N/A' })], want: [['FieldValueNotSupported', `field[0].whenUnsatisfiable: Unsupported value: "N/A": ${whenValues}`]] },
  { name: 'multiple constraints ok with all required fields', constraints: [zone(), { maxSkew: 2, topologyKey: 'k8s.io/node', whenUnsatisfiable: 'ScheduleAnyway' }], want: [] },
  {
    name: 'multiple constraints missing TopologyKey on partial ones',
    constraints: [{ maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' }, zone()],
    want: [['FieldValueRequired', 'field[0].topologyKey: Required value: can not be empty']],
  },
  {
    name: 'duplicate constraints',
    constraints: [zone(), zone({ maxSkew: 2 })],
    want: [['FieldValueDuplicate', 'field[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{k8s.io/zone, DoNotSchedule}"']],
  },
  { name: 'supported policy name set on NodeAffinityPolicy and NodeTaintsPolicy', constraints: [zone({ nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' })], want: [] },
  {
    name: 'unsupported policy name set on NodeAffinityPolicy',
    constraints: [zone({ nodeAffinityPolicy: 'Unknown', nodeTaintsPolicy: 'Ignore' })],
    want: [['FieldValueNotSupported', 'field[0].nodeAffinityPolicy: Unsupported value: "Unknown": supported values: "Honor", "Ignore"']],
  },
  {
    name: 'unsupported policy name set on NodeTaintsPolicy',
    constraints: [zone({ nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Unknown' })],
    want: [['FieldValueNotSupported', 'field[0].nodeTaintsPolicy: Unsupported value: "Unknown": supported values: "Honor", "Ignore"']],
  },
  {
    name: 'key in MatchLabelKeys isn\'t correctly defined',
    constraints: [zone({ labelSelector: {}, matchLabelKeys: ['/simple'] })],
    want: [['FieldValueInvalid', 'field[0].matchLabelKeys[0]: Invalid value: "/simple": prefix part must be non-empty']],
  },
  {
    name: 'key exists in both matchLabelKeys and labelSelector',
    constraints: [zone({ matchLabelKeys: ['foo'], labelSelector: { matchExpressions: [{ key: 'foo', operator: 'NotIn', values: ['value1', 'value2'] }] } })],
    want: [['FieldValueInvalid', 'field[0].matchLabelKeys[0]: Invalid value: "foo": exists in both matchLabelKeys and labelSelector']],
  },
  {
    name: 'key in MatchLabelKeys is forbidden to be specified when labelSelector is not set',
    constraints: [zone({ matchLabelKeys: ['foo'] })],
    want: [['FieldValueForbidden', 'field[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set']],
  },
  {
    name: 'invalid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false',
    constraints: [zone({ labelSelector: { matchLabels: { [invalidKey]: 'foo' } } })],
    want: [['FieldValueInvalid', `field[0].labelSelector.matchLabels: Invalid value: "${invalidKey}": ${namePartMsg}`]],
  },
  {
    name: 'invalid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is true',
    constraints: [zone({ labelSelector: { matchLabels: { [invalidKey]: 'foo' } } })],
    allowInvalidLabelSelector: true,
    want: [],
  },
  { name: 'valid matchLabels set on labelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false', constraints: [zone({ labelSelector: { matchLabels: { foo: 'bar' } } })], want: [] },
];

const ruleRows: Row[] = [
  { name: 'no constraints', constraints: [], want: [] },
  {
    name: 'a null constraint is the zero constraint',
    constraints: [null],
    want: [
      ['FieldValueInvalid', 'field[0].maxSkew: Invalid value: 0: must be greater than zero'],
      ['FieldValueRequired', 'field[0].topologyKey: Required value: can not be empty'],
      ['FieldValueNotSupported', `field[0].whenUnsatisfiable: Unsupported value: "": ${whenValues}`],
    ],
  },
  { name: 'the topology key is only required, not checked as a label key (as upstream)', constraints: [zone({ topologyKey: 'not a label key/' })], want: [] },
  { name: 'minDomains 1 is the smallest', constraints: [zone({ minDomains: 1 })], want: [] },
  { name: 'minDomains 0 is not positive', constraints: [zone({ minDomains: 0 })], want: [['FieldValueInvalid', 'field[0].minDomains: Invalid value: 0: must be greater than zero']] },
  {
    name: 'minDomains with an unsupported whenUnsatisfiable names it',
    constraints: [zone({ whenUnsatisfiable: 'Never', minDomains: 2 })],
    want: [
      ['FieldValueNotSupported', `field[0].whenUnsatisfiable: Unsupported value: "Never": ${whenValues}`],
      ['FieldValueInvalid', 'field[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Never'],
    ],
  },
  {
    name: 'the same key with the other whenUnsatisfiable is no duplicate; each later copy is reported once, at the earlier constraint',
    constraints: [zone(), zone({ whenUnsatisfiable: 'ScheduleAnyway' }), zone({ maxSkew: 3 }), zone({ maxSkew: 4 })],
    want: [
      ['FieldValueDuplicate', 'field[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{k8s.io/zone, DoNotSchedule}"'],
      ['FieldValueDuplicate', 'field[2].{topologyKey, whenUnsatisfiable}: Duplicate value: "{k8s.io/zone, DoNotSchedule}"'],
    ],
  },
  {
    name: 'two constraints without a key: each required, and the pair duplicated',
    constraints: [{ maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' }, { maxSkew: 2, whenUnsatisfiable: 'ScheduleAnyway' }],
    want: [
      ['FieldValueRequired', 'field[0].topologyKey: Required value: can not be empty'],
      ['FieldValueDuplicate', 'field[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{, ScheduleAnyway}"'],
      ['FieldValueRequired', 'field[1].topologyKey: Required value: can not be empty'],
    ],
  },
  { name: 'an empty policy is unsupported', constraints: [zone({ nodeTaintsPolicy: '' })], want: [['FieldValueNotSupported', 'field[0].nodeTaintsPolicy: Unsupported value: "": supported values: "Honor", "Ignore"']] },
  {
    name: 'without a label selector matchLabelKeys is forbidden and its keys are still checked',
    constraints: [zone({ matchLabelKeys: ['a b'] })],
    want: [
      ['FieldValueForbidden', 'field[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set'],
      ['FieldValueInvalid', `field[0].matchLabelKeys[0]: Invalid value: "a b": ${namePartMsg}`],
    ],
  },
  {
    name: 'a matchLabelKeys key in matchLabels',
    constraints: [zone({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash', 'app'] })],
    want: [['FieldValueInvalid', 'field[0].matchLabelKeys[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector']],
  },
  {
    name: 'label selector expression values are label values',
    constraints: [zone({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'a/b'] }] } })],
    want: [['FieldValueInvalid', `field[0].labelSelector.matchExpressions[0].values[1]: Invalid value: "a/b": ${labelValueMsg}`]],
  },
  {
    name: 'with AllowInvalidTopologySpreadConstraintLabelSelector the selector is not validated at all',
    constraints: [zone({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Gt' }] } })],
    allowInvalidLabelSelector: true,
    want: [],
  },
  {
    name: 'one constraint\'s errors in upstream order',
    constraints: [{ maxSkew: 0, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2, nodeAffinityPolicy: 'x', nodeTaintsPolicy: 'y', matchLabelKeys: ['app'], labelSelector: { matchLabels: { app: 'a b' } } }],
    want: [
      ['FieldValueInvalid', 'field[0].maxSkew: Invalid value: 0: must be greater than zero'],
      ['FieldValueRequired', 'field[0].topologyKey: Required value: can not be empty'],
      ['FieldValueInvalid', `field[0].minDomains: Invalid value: 2: ${minDomainsMsg}`],
      ['FieldValueNotSupported', 'field[0].nodeAffinityPolicy: Unsupported value: "x": supported values: "Honor", "Ignore"'],
      ['FieldValueNotSupported', 'field[0].nodeTaintsPolicy: Unsupported value: "y": supported values: "Honor", "Ignore"'],
      ['FieldValueInvalid', 'field[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'],
      ['FieldValueInvalid', `field[0].labelSelector.matchLabels: Invalid value: "a b": ${labelValueMsg}`],
    ],
  },
];

const field = FieldPath.root('field');
const check = (r: Row) =>
  assertErrors(validateTopologySpreadConstraints(r.constraints as TopologySpreadConstraint[], { allowInvalidLabelSelector: r.allowInvalidLabelSelector === true }, field), r.want);

describe('topologySpreadConstraints: upstream TestValidateTopologySpreadConstraints cases', () => {
  for (const r of upstreamRows) test(r.name, () => check(r));
});

describe('topologySpreadConstraints: rules', () => {
  for (const r of ruleRows) test(r.name, () => check(r));
});

const podRows: { name: string; pod: Pod; want: Want }[] = [
  {
    name: 'a pod\'s constraints sit at spec.topologySpreadConstraints',
    pod: podWith((p) => (p.spec.topologySpreadConstraints = [zone({ whenUnsatisfiable: 'Sometimes' }) as TopologySpreadConstraint])),
    want: [['FieldValueNotSupported', `spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": ${whenValues}`]],
  },
  {
    name: 'topology spread comes after dnsConfig and before serviceAccountName, as upstream',
    pod: podWith((p) => {
      p.spec.serviceAccountName = 'Bad_Name';
      p.spec.topologySpreadConstraints = [zone({ maxSkew: 0 }) as TopologySpreadConstraint];
      p.spec.dnsConfig = { options: [{ name: '' }] };
    }),
    want: [
      ['FieldValueRequired', 'spec.dnsConfig.options[0]: Required value: must not be empty'],
      ['FieldValueInvalid', 'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'],
      ['FieldValueInvalid', `spec.serviceAccountName: Invalid value: "Bad_Name": ${dnsSubdomainMsg}`],
    ],
  },
  { name: 'topologySpreadConstraints: null is none', pod: podWith((p) => (p.spec.topologySpreadConstraints = null as unknown as TopologySpreadConstraint[])), want: [] },
];

describe('topologySpreadConstraints in a pod', () => {
  for (const r of podRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
