// spec.affinity (src/api/validation/affinity.ts, upstream's validateAffinity, v1.32). The first
// table ports upstream TestValidatePod's affinity cases (validation_test.go, each row named after
// its case; upstream asserts a path or a substring, these rows the whole error list). The second
// pins what those cases leave open: the values rules, Go's zero values for null entries, and the
// order of several errors in one term.

import { describe, test } from 'node:test';
import type { Affinity, Deployment, Pod } from '../../../src/api/types.js';
import { validateDeploymentUpdate, validatePodCreate, validatePodEphemeralContainersUpdate } from '../../../src/api/validation/index.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';
import { dnsLabelMsg, dnsSubdomainMsg, labelValueMsg, namePartMsg } from './messages.js';

type Row = { name: string; pod: Pod; want: Want };

const withAffinity = (affinity: unknown, labels?: Record<string, string>): Pod =>
  podWith((p) => {
    p.spec.affinity = affinity as Affinity;
    if (labels) p.metadata.labels = labels;
  });

const nodeRequired = (terms: unknown[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } });
const nodeTermPath = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]';

/** The selector upstream's matchLabelKeys success cases share. */
const keysSelector = {
  matchExpressions: [
    { key: 'key', operator: 'NotIn', values: ['value1', 'value2'] },
    { key: 'key2', operator: 'In', values: ['value1'] },
    { key: 'key3', operator: 'NotIn', values: ['value1'] },
  ],
};
const keysTerm = { labelSelector: keysSelector, topologyKey: 'k8s.io/zone', matchLabelKeys: ['key2'], mismatchLabelKeys: ['key3'] };
const notInSelector = { matchExpressions: [{ key: 'key', operator: 'NotIn', values: ['value1', 'value2'] }] };
/** A selector as the create path leaves it after merging matchLabelKeys ["key"] of a pod labelled key=value1. */
const mergedSelector = { matchExpressions: [{ key: 'key', operator: 'In', values: ['value1'] }, { key: 'key', operator: 'NotIn', values: ['value2'] }] };

type Kind = 'podAffinity' | 'podAntiAffinity';
const hard = (kind: Kind, term: unknown): Record<string, unknown> => ({ [kind]: { requiredDuringSchedulingIgnoredDuringExecution: [term] } });
const soft = (kind: Kind, term: unknown, weight = 10): Record<string, unknown> => ({ [kind]: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, podAffinityTerm: term }] } });
const hardPath = (kind: Kind) => `spec.affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution[0]`;
const softPath = (kind: Kind) => `spec.affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm`;

/** The three errors of an empty topology key: required, then not a qualified name twice over. */
const emptyTopologyKey = (termPath: string): Want => [
  ['FieldValueRequired', `${termPath}.topologyKey: Required value: can not be empty`],
  ['FieldValueInvalid', `${termPath}.topologyKey: Invalid value: "": name part must be non-empty`],
  ['FieldValueInvalid', `${termPath}.topologyKey: Invalid value: "": ${namePartMsg}`],
];

const shapes: { label: string; kind: Kind; make: (kind: Kind, term: unknown) => Record<string, unknown>; path: (kind: Kind) => string }[] = [
  { label: 'soft pod affinity', kind: 'podAffinity', make: soft, path: softPath },
  { label: 'hard pod affinity', kind: 'podAffinity', make: hard, path: hardPath },
  { label: 'soft pod anti-affinity', kind: 'podAntiAffinity', make: soft, path: softPath },
  { label: 'hard pod anti-affinity', kind: 'podAntiAffinity', make: hard, path: hardPath },
];

const upstreamRows: Row[] = [
  {
    name: 'TestValidatePod "serialized node affinity requirements" (TestValidatePodSpec "populate Affinity")',
    pod: withAffinity({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'key2', operator: 'In', values: ['value1', 'value2'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host1'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } }],
      },
    }),
    want: [],
  },
  {
    name: 'TestValidatePod "serialized node affinity requirements, II" (empty matchExpressions)',
    pod: withAffinity({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [] } }],
      },
    }),
    want: [],
  },
  {
    name: 'TestValidatePod "serialized pod affinity in affinity requirements in annotations"',
    pod: withAffinity({
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{
          labelSelector: { matchExpressions: [{ key: 'key2', operator: 'In', values: ['value1', 'value2'] }] },
          topologyKey: 'zone',
          namespaces: ['ns'],
          namespaceSelector: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value1', 'value2'] }] },
        }],
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 10,
          podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'NotIn', values: ['value1', 'value2'] }] }, namespaces: ['ns'], topologyKey: 'region' },
        }],
      },
    }),
    want: [],
  },
  {
    name: 'TestValidatePod "serialized pod anti affinity with different Label Operators in affinity requirements in annotations"',
    pod: withAffinity({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchExpressions: [{ key: 'key2', operator: 'Exists' }] }, topologyKey: 'zone', namespaces: ['ns'] }],
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 10,
          podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'DoesNotExist' }] }, namespaces: ['ns'], topologyKey: 'region' },
        }],
      },
    }),
    want: [],
  },
  { name: 'TestValidatePod "MatchLabelKeys/MismatchLabelKeys in required PodAffinity"', pod: withAffinity(hard('podAffinity', keysTerm)), want: [] },
  { name: 'TestValidatePod "MatchLabelKeys/MismatchLabelKeys in preferred PodAffinity"', pod: withAffinity(soft('podAffinity', keysTerm)), want: [] },
  { name: 'TestValidatePod "MatchLabelKeys/MismatchLabelKeys in required PodAntiAffinity"', pod: withAffinity(hard('podAntiAffinity', keysTerm)), want: [] },
  { name: 'TestValidatePod "MatchLabelKeys/MismatchLabelKeys in preferred PodAntiAffinity"', pod: withAffinity(soft('podAntiAffinity', keysTerm)), want: [] },
  {
    name: 'TestValidatePod "LabelSelector can have the same key as MismatchLabelKeys"',
    pod: withAffinity(hard('podAffinity', {
      labelSelector: {
        matchExpressions: [
          { key: 'key', operator: 'NotIn', values: ['value1', 'value2'] },
          { key: 'key2', operator: 'In', values: ['value1'] },
          { key: 'key2', operator: 'NotIn', values: ['value1'] },
        ],
      },
      topologyKey: 'k8s.io/zone',
      mismatchLabelKeys: ['key2'],
    })),
    want: [],
  },
  {
    name: 'TestValidatePod "invalid node selector requirement in node affinity, operator can\'t be null"',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'key1' }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].operator: Invalid value: "": not a valid selector operator`]],
  },
  {
    name: 'TestValidatePod "invalid node selector requirement in node affinity, key is invalid"',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'invalid key ___@#', operator: 'Exists' }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].key: Invalid value: "invalid key ___@#": ${namePartMsg}`]],
  },
  {
    name: 'TestValidatePod "invalid node field selector requirement in node affinity, more values for field selector"',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host1', 'host2'] }] }])),
    want: [['FieldValueRequired', `${nodeTermPath}.matchFields[0].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`]],
  },
  {
    name: 'TestValidatePod "invalid node field selector requirement in node affinity, invalid operator"',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`]],
  },
  {
    name: 'TestValidatePod "invalid node field selector requirement in node affinity, invalid key"',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'metadata.namespace', operator: 'In', values: ['ns1'] }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchFields[0].key: Invalid value: "metadata.namespace": not a valid field selector key`]],
  },
  {
    name: 'TestValidatePod "invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100"',
    pod: withAffinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 199, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } }] } }),
    want: [['FieldValueInvalid', 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 199: must be in the range 1-100']],
  },
  {
    name: 'TestValidatePod "invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms must have at least one term"',
    pod: withAffinity(nodeRequired([])),
    want: [['FieldValueRequired', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term']],
  },
  {
    name: 'TestValidatePod "invalid weight in preferredDuringSchedulingIgnoredDuringExecution in pod affinity annotations, weight should be in range 1-100"',
    pod: withAffinity(soft('podAffinity', { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'NotIn', values: ['value1', 'value2'] }] }, namespaces: ['ns'], topologyKey: 'region' }, 109)),
    want: [['FieldValueInvalid', 'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 109: must be in the range 1-100']],
  },
  {
    name: 'TestValidatePod "invalid labelSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, values should be empty if the operator is Exists"',
    pod: withAffinity(soft('podAntiAffinity', { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'Exists', values: ['value1', 'value2'] }] }, namespaces: ['ns'], topologyKey: 'region' })),
    want: [['FieldValueForbidden', `${softPath('podAntiAffinity')}.labelSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`]],
  },
  {
    name: 'TestValidatePod "invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, In operator must include Values"',
    pod: withAffinity(soft('podAntiAffinity', { namespaceSelector: { matchExpressions: [{ key: 'key2', operator: 'In' }] }, namespaces: ['ns'], topologyKey: 'region' })),
    want: [['FieldValueRequired', `${softPath('podAntiAffinity')}.namespaceSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`]],
  },
  {
    name: 'TestValidatePod "invalid namespaceSelector in preferredDuringSchedulingIgnoredDuringExecution in podaffinity, Exists operator can not have values"',
    pod: withAffinity(soft('podAntiAffinity', { namespaceSelector: { matchExpressions: [{ key: 'key2', operator: 'Exists', values: ['value1', 'value2'] }] }, namespaces: ['ns'], topologyKey: 'region' })),
    want: [['FieldValueForbidden', `${softPath('podAntiAffinity')}.namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`]],
  },
  {
    name: 'TestValidatePod "invalid name space in preferredDuringSchedulingIgnoredDuringExecution in podaffinity annotations, namespace should be valid" (upstream reports it at .namespace)',
    pod: withAffinity(soft('podAffinity', { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'Exists' }] }, namespaces: ['INVALID_NAMESPACE'], topologyKey: 'region' })),
    want: [['FieldValueInvalid', `${softPath('podAffinity')}.namespace: Invalid value: "INVALID_NAMESPACE": ${dnsLabelMsg}`]],
  },
  ...shapes.map((s): Row => ({
    name: `TestValidatePod "invalid ${s.label}, empty topologyKey is not allowed for ${s.label}"`,
    pod: withAffinity(s.make(s.kind, { labelSelector: { matchExpressions: [{ key: 'key2', operator: 'In', values: ['value1', 'value2'] }] }, namespaces: ['ns'] })),
    want: emptyTopologyKey(s.path(s.kind)),
  })),
  ...shapes.map((s): Row => ({
    name: `TestValidatePod "invalid ${s.label}, key in MatchLabelKeys isn't correctly defined"`,
    pod: withAffinity(s.make(s.kind, { labelSelector: notInSelector, topologyKey: 'k8s.io/zone', matchLabelKeys: ['/simple'] })),
    want: [['FieldValueInvalid', `${s.path(s.kind)}.matchLabelKeys[0]: Invalid value: "/simple": prefix part must be non-empty`]],
  })),
  ...shapes.map((s): Row => ({
    name: `TestValidatePod "invalid ${s.label}, key in MismatchLabelKeys isn't correctly defined"`,
    pod: withAffinity(s.make(s.kind, { labelSelector: notInSelector, topologyKey: 'k8s.io/zone', mismatchLabelKeys: ['/simple'] })),
    want: [['FieldValueInvalid', `${s.path(s.kind)}.mismatchLabelKeys[0]: Invalid value: "/simple": prefix part must be non-empty`]],
  })),
  ...shapes.map((s): Row => ({
    name: `TestValidatePod "invalid ${s.label}, key exists in both matchLabelKeys and labelSelector" (upstream's path: the term, indexed)`,
    pod: withAffinity(s.make(s.kind, { labelSelector: mergedSelector, topologyKey: 'k8s.io/zone', matchLabelKeys: ['key'] }), { key: 'value1' }),
    want: [['FieldValueInvalid', `${s.path(s.kind)}[0]: Invalid value: "key": exists in both matchLabelKeys and labelSelector`]],
  })),
  ...shapes.map((s): Row => ({
    name: `TestValidatePod "invalid ${s.label}, key exists in both MatchLabelKeys and MismatchLabelKeys"`,
    pod: withAffinity(s.make(s.kind, { labelSelector: notInSelector, topologyKey: 'k8s.io/zone', matchLabelKeys: ['samekey'], mismatchLabelKeys: ['samekey'] })),
    want: [['FieldValueInvalid', `${s.path(s.kind)}.matchLabelKeys[0]: Invalid value: "samekey": exists in both matchLabelKeys and mismatchLabelKeys`]],
  })),
];

const hardAffinity = hardPath('podAffinity');

const ruleRows: Row[] = [
  { name: 'affinity: {} is valid', pod: withAffinity({}), want: [] },
  { name: 'affinity: null is no affinity', pod: withAffinity(null), want: [] },
  { name: 'nodeAffinity: {} is valid (neither part is required)', pod: withAffinity({ nodeAffinity: {} }), want: [] },
  {
    name: 'a required node selector with null nodeSelectorTerms has none',
    pod: withAffinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: null } } }),
    want: [['FieldValueRequired', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term']],
  },
  { name: 'a null node selector term is the empty term: valid', pod: withAffinity(nodeRequired([null])), want: [] },
  {
    name: 'a null requirement is the zero requirement: no operator, and an empty key (twice over)',
    pod: withAffinity(nodeRequired([{ matchExpressions: [null] }])),
    want: [
      ['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].operator: Invalid value: "": not a valid selector operator`],
      ['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].key: Invalid value: "": name part must be non-empty`],
      ['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].key: Invalid value: "": ${namePartMsg}`],
    ],
  },
  {
    name: 'In and NotIn need values',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'a', operator: 'In' }, { key: 'b', operator: 'NotIn', values: [] }] }])),
    want: [
      ['FieldValueRequired', `${nodeTermPath}.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`],
      ['FieldValueRequired', `${nodeTermPath}.matchExpressions[1].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`],
    ],
  },
  {
    name: 'DoesNotExist takes no values',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] }])),
    want: [['FieldValueForbidden', `${nodeTermPath}.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`]],
  },
  {
    name: 'Gt and Lt take exactly one value (Required, as upstream words it)',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1', '2'] }, { key: 'b', operator: 'Lt' }, { key: 'c', operator: 'Lt', values: ['5'] }] }])),
    want: [
      ['FieldValueRequired', `${nodeTermPath}.matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`],
      ['FieldValueRequired', `${nodeTermPath}.matchExpressions[1].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`],
    ],
  },
  {
    name: 'v1.32 does not check node selector values: not a label value, not an integer for Gt (both refused from v1.33)',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'a', operator: 'In', values: ['-1', 'a b'] }, { key: 'b', operator: 'Gt', values: ['ten'] }] }])),
    want: [],
  },
  {
    name: 'an operator other than the six (case matters)',
    pod: withAffinity(nodeRequired([{ matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator`]],
  },
  {
    name: 'a matchFields value is a node name (DNS-1123 subdomain)',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['Node_1'] }] }])),
    want: [['FieldValueInvalid', `${nodeTermPath}.matchFields[0].values[0]: Invalid value: "Node_1": ${dnsSubdomainMsg}`]],
  },
  {
    name: 'matchFields: operator, then key; an unknown key leaves the values unchecked',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'spec.nodeName', operator: 'Gt', values: ['Node_1'] }] }])),
    want: [
      ['FieldValueInvalid', `${nodeTermPath}.matchFields[0].operator: Invalid value: "Gt": not a valid selector operator`],
      ['FieldValueInvalid', `${nodeTermPath}.matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key`],
    ],
  },
  {
    name: 'terms are checked in order, matchExpressions before matchFields',
    pod: withAffinity(nodeRequired([{ matchFields: [{ key: 'metadata.name', operator: 'In' }], matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, { matchExpressions: [{ key: 'b' }] }])),
    want: [
      ['FieldValueForbidden', `${nodeTermPath}.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`],
      ['FieldValueRequired', `${nodeTermPath}.matchFields[0].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`],
      ['FieldValueInvalid', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[0].operator: Invalid value: "": not a valid selector operator'],
    ],
  },
  {
    name: 'a preferred node term without weight has weight 0; its preference is a term like any other',
    pod: withAffinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ preference: { matchExpressions: [{ key: 'a', operator: 'Lt' }] } }, { weight: 100, preference: {} }] } }),
    want: [
      ['FieldValueInvalid', 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100'],
      ['FieldValueRequired', "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"],
    ],
  },
  {
    name: 'node affinity: required before preferred',
    pod: withAffinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: -1, preference: {} }], requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }),
    want: [
      ['FieldValueRequired', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'],
      ['FieldValueInvalid', 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: -1: must be in the range 1-100'],
    ],
  },
  {
    name: 'a pod affinity term: label selector, namespace selector, namespaces, label keys, topology key, in that order',
    pod: withAffinity(hard('podAffinity', {
      topologyKey: 'zone/',
      matchLabelKeys: ['a', 'b'],
      mismatchLabelKeys: ['b'],
      namespaces: ['Prod', 'ok'],
      namespaceSelector: { matchLabels: { team: 'a b' } },
      labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['x/y'] }], matchLabels: { '-app': 'web' } },
    })),
    want: [
      ['FieldValueInvalid', `${hardAffinity}.labelSelector.matchLabels: Invalid value: "-app": ${namePartMsg}`],
      ['FieldValueInvalid', `${hardAffinity}.labelSelector.matchExpressions[0].values[0]: Invalid value: "x/y": ${labelValueMsg}`],
      ['FieldValueInvalid', `${hardAffinity}.namespaceSelector.matchLabels: Invalid value: "a b": ${labelValueMsg}`],
      ['FieldValueInvalid', `${hardAffinity}.namespace: Invalid value: "Prod": ${dnsLabelMsg}`],
      ['FieldValueInvalid', `${hardAffinity}.matchLabelKeys[1]: Invalid value: "b": exists in both matchLabelKeys and mismatchLabelKeys`],
      ['FieldValueInvalid', `${hardAffinity}.topologyKey: Invalid value: "zone/": name part must be non-empty`],
      ['FieldValueInvalid', `${hardAffinity}.topologyKey: Invalid value: "zone/": ${namePartMsg}`],
    ],
  },
  {
    name: 'a selector expression: operator, key, then values; an unknown operator is Invalid',
    pod: withAffinity(hard('podAffinity', { labelSelector: { matchExpressions: [{ key: 'a b', operator: 'Gt', values: ['1', '-'] }] }, topologyKey: 'zone' })),
    want: [
      ['FieldValueInvalid', `${hardAffinity}.labelSelector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator`],
      ['FieldValueInvalid', `${hardAffinity}.labelSelector.matchExpressions[0].key: Invalid value: "a b": ${namePartMsg}`],
      ['FieldValueInvalid', `${hardAffinity}.labelSelector.matchExpressions[0].values[1]: Invalid value: "-": ${labelValueMsg}`],
    ],
  },
  {
    name: 'matchLabelKeys and mismatchLabelKeys without a label selector: each list forbidden, its keys not checked',
    pod: withAffinity(hard('podAffinity', { topologyKey: 'zone', matchLabelKeys: ['/bad'], mismatchLabelKeys: ['x'] })),
    want: [
      ['FieldValueForbidden', `${hardAffinity}.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`],
      ['FieldValueForbidden', `${hardAffinity}.mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set`],
    ],
  },
  {
    name: 'an empty label selector ({}) is set: the keys are allowed',
    pod: withAffinity(hard('podAffinity', { labelSelector: {}, topologyKey: 'zone', matchLabelKeys: ['app'] })),
    want: [],
  },
  {
    name: 'a key in matchLabels and once in matchExpressions is in the selector twice',
    pod: withAffinity(hard('podAffinity', { labelSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }, topologyKey: 'zone', matchLabelKeys: ['tier', 'app'] })),
    want: [['FieldValueInvalid', `${hardAffinity}[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`]],
  },
  {
    name: 'a key once in the selector and never merged (the pod lacks the label) is not reported',
    pod: withAffinity(hard('podAffinity', { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone', matchLabelKeys: ['app'] })),
    want: [],
  },
  {
    name: 'a null pod affinity term is the zero term: only its topology key is missing',
    pod: withAffinity({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [null] } }),
    want: emptyTopologyKey(hardPath('podAntiAffinity')),
  },
  {
    name: 'a weighted term without podAffinityTerm has the zero term; weights outside 1-100',
    pod: withAffinity({ podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101 }] } }),
    want: [['FieldValueInvalid', 'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100'], ...emptyTopologyKey(softPath('podAffinity'))],
  },
  {
    name: 'nodeAffinity, then podAffinity, then podAntiAffinity; required terms before preferred',
    pod: withAffinity({
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '-' }] },
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: 'zone' } }], requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', namespaces: ['-'] }] },
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
    }),
    want: [
      ['FieldValueRequired', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'],
      ['FieldValueInvalid', `${hardAffinity}.namespace: Invalid value: "-": ${dnsLabelMsg}`],
      ['FieldValueInvalid', 'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100'],
      ['FieldValueInvalid', `${hardPath('podAntiAffinity')}.topologyKey: Invalid value: "-": ${namePartMsg}`],
    ],
  },
  {
    name: 'affinity is validated after the pod security context and before dnsConfig, as upstream',
    pod: podWith((p) => {
      p.spec.dnsPolicy = 'None';
      p.spec.affinity = nodeRequired([]) as Affinity;
      p.spec.securityContext = { fsGroupChangePolicy: 'Sometimes' };
    }),
    want: [
      ['FieldValueNotSupported', 'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"'],
      ['FieldValueRequired', 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'],
      ['FieldValueRequired', 'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None'],
    ],
  },
];

describe('spec.affinity: upstream TestValidatePod cases', () => {
  for (const r of upstreamRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

describe('spec.affinity: rules', () => {
  for (const r of ruleRows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});

// GetValidationOptionsFromPodSpecAndMeta on update: selectors the old spec already held that fail
// the create rules may stay (AllowInvalidLabelValueInSelector,
// AllowInvalidTopologySpreadConstraintLabelSelector); every other rule still applies.
describe('pod selectors on update: what the old spec held may stay', () => {
  const badValueTerm = { labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a/b'] }] }, topologyKey: 'zone' };
  const badSpread = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { 'bad key': 'x' } } }];
  const valueErr: Want = [['FieldValueInvalid', `${hardAffinity}.labelSelector.matchExpressions[0].values[0]: Invalid value: "a/b": ${labelValueMsg}`]];
  const spreadErr: Want = [['FieldValueInvalid', `spec.topologySpreadConstraints[0].labelSelector.matchLabels: Invalid value: "bad key": ${namePartMsg}`]];
  const pod = (affinity: unknown, spread?: unknown) =>
    podWith((p) => {
      if (affinity) p.spec.affinity = affinity as Affinity;
      if (spread) p.spec.topologySpreadConstraints = spread as Pod['spec']['topologySpreadConstraints'];
    });
  const rows: { name: string; old: Pod; next: Pod; want: Want }[] = [
    { name: 'a bad selector value is refused when the old pod had none', old: pod(undefined), next: pod(hard('podAffinity', badValueTerm)), want: valueErr },
    { name: 'a bad selector value the old pod held is allowed', old: pod(hard('podAffinity', badValueTerm)), next: pod(hard('podAffinity', badValueTerm)), want: [] },
    {
      name: 'the allowance covers selector values only: other affinity rules still apply',
      old: pod(hard('podAffinity', badValueTerm)),
      next: pod(hard('podAffinity', { ...badValueTerm, topologyKey: '' })),
      want: emptyTopologyKey(hardAffinity),
    },
    { name: 'a bad spread selector is refused when the old pod had none', old: pod(undefined), next: pod(undefined, badSpread), want: spreadErr },
    { name: 'a bad spread selector the old pod held is allowed (and not validated)', old: pod(undefined, badSpread), next: pod(undefined, badSpread), want: [] },
    { name: 'the two allowances are separate', old: pod(undefined, badSpread), next: pod(hard('podAffinity', badValueTerm), badSpread), want: valueErr },
  ];
  for (const r of rows) {
    test(`ephemeral containers update: ${r.name}`, () => assertErrors(validatePodEphemeralContainersUpdate(r.next, r.old, { gates: allGates }), r.want));
  }
  const deployment = (p: Pod): Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default', resourceVersion: '1' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: p.spec }, strategy: { type: 'Recreate' } },
  });
  const templatePath = (w: Want): Want => w.map(([t, s]) => [t, `spec.template.${s}`]);
  for (const r of rows) {
    test(`deployment update: ${r.name}`, () => assertErrors(validateDeploymentUpdate(deployment(r.next), deployment(r.old), { gates: allGates }), templatePath(r.want)));
  }
});
