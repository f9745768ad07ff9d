// The scheduling-gate rules of a pod update (src/api/validation/podgatedupdate.ts): upstream's
// TestValidatePodUpdate rows for gates, gated nodeSelector and gated node affinity
// (validation_test.go, v1.32). `frozen` says whether the rest of the spec compares equal to the
// old one once what the rules allow is taken back (false: "pod updates may not change fields").

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import { stableJSON } from '../../../src/api/stablejson.js';
import type { NodeSelectorTerm, PodSpec } from '../../../src/api/types.js';
import { validateSchedulingGatesUpdate } from '../../../src/api/validation/index.js';

const base = { containers: [{ name: 'c', image: 'busybox' }] } as PodSpec;
const spec = (extra: Partial<PodSpec>): PodSpec => ({ ...base, ...extra });
const gates = (...names: string[]) => ({ schedulingGates: names.map((name) => ({ name })) });
const required = (...terms: NodeSelectorTerm[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
const expr = (key: string, ...values: string[]) => ({ key, operator: 'In', values });
const termsPath = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';

describe('validateSchedulingGatesUpdate (ValidatePodUpdate, scheduling gates)', () => {
  const rows: { name: string; old: PodSpec; next: PodSpec; want: string[]; frozen: boolean }[] = [
    { name: 'removing every gate is allowed', old: spec(gates('a', 'b')), next: spec({}), want: [], frozen: true },
    { name: 'removing one gate is allowed', old: spec(gates('a', 'b')), next: spec(gates('b')), want: [], frozen: true },
    { name: 'reordering gates is allowed', old: spec(gates('a', 'b')), next: spec(gates('b', 'a')), want: [], frozen: true },
    {
      name: 'adding a gate to a gated pod is forbidden at the new name',
      old: spec(gates('a')),
      next: spec(gates('a', 'b')),
      want: ["spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'"],
      frozen: true,
    },
    {
      name: 'gating a pod that had none is forbidden',
      old: spec({}),
      next: spec(gates('a')),
      want: ["spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'a'"],
      frozen: true,
    },
    {
      name: 'replacing a gate is forbidden',
      old: spec(gates('a')),
      next: spec(gates('c')),
      want: ["spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'"],
      frozen: true,
    },
    { name: 'nodeSelector stays immutable for a pod not gated', old: spec({ nodeSelector: { a: '1' } }), next: spec({ nodeSelector: { a: '1', b: '2' } }), want: [], frozen: false },
    { name: 'adding to nodeSelector is allowed while gated', old: spec({ ...gates('g'), nodeSelector: { a: '1' } }), next: spec({ ...gates('g'), nodeSelector: { a: '1', b: '2' } }), want: [], frozen: true },
    { name: 'setting a nodeSelector is allowed while gated', old: spec(gates('g')), next: spec({ ...gates('g'), nodeSelector: { b: '2' } }), want: [], frozen: true },
    { name: 'adding to nodeSelector with the gates removed in the same update', old: spec(gates('g')), next: spec({ nodeSelector: { b: '2' } }), want: [], frozen: true },
    {
      name: 'changing a nodeSelector value is invalid while gated',
      old: spec({ ...gates('g'), nodeSelector: { a: '1' } }),
      next: spec({ ...gates('g'), nodeSelector: { a: '2' } }),
      want: ['spec.nodeSelector: Invalid value: {"a":"2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)'],
      frozen: true,
    },
    {
      name: 'removing the nodeSelector is invalid while gated',
      old: spec({ ...gates('g'), nodeSelector: { a: '1' } }),
      next: spec(gates('g')),
      want: ['spec.nodeSelector: Invalid value: null: only additions to spec.nodeSelector are allowed (no mutations or deletions)'],
      frozen: true,
    },
    { name: 'node affinity stays immutable for a pod not gated', old: spec({}), next: spec(required({ matchExpressions: [expr('a', '1')] })), want: [], frozen: false },
    { name: 'setting required node affinity is allowed while gated', old: spec(gates('g')), next: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1')] }) }), want: [], frozen: true },
    {
      name: 'adding a requirement to a term is allowed while gated',
      old: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1')] }) }),
      next: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1'), expr('b', '2')] }) }),
      want: [],
      frozen: true,
    },
    {
      name: 'adding a term is invalid while gated',
      old: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1')] }) }),
      next: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1')] }, { matchExpressions: [expr('b', '2')] }) }),
      want: [`${termsPath}: Invalid value: [{"matchExpressions":[{"key":"a","operator":"In","values":["1"]}]},{"matchExpressions":[{"key":"b","operator":"In","values":["2"]}]}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed`],
      frozen: true,
    },
    {
      name: 'changing a requirement is invalid while gated',
      old: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '1')] }) }),
      next: spec({ ...gates('g'), ...required({ matchExpressions: [expr('a', '2')] }) }),
      want: [`${termsPath}[0]: Invalid value: {"matchExpressions":[{"key":"a","operator":"In","values":["2"]}]}: only additions are allowed (no mutations or deletions)`],
      frozen: true,
    },
    {
      name: 'giving requirements to an empty term is invalid while gated (it would match more)',
      old: spec({ ...gates('g'), ...required({}) }),
      next: spec({ ...gates('g'), ...required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }) }),
      want: [`${termsPath}[0]: Invalid value: {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}: only additions are allowed (no mutations or deletions)`],
      frozen: true,
    },
    {
      name: 'preferred node affinity may change while gated',
      old: spec(gates('g')),
      next: spec({ ...gates('g'), affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [expr('a', '1')] } }] } } }),
      want: [],
      frozen: true,
    },
    {
      name: 'pod affinity stays immutable while gated',
      old: spec(gates('g')),
      next: spec({ ...gates('g'), affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {} }] } } }),
      want: [],
      frozen: false,
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const got = validateSchedulingGatesUpdate(r.next, r.old, FieldPath.root('spec'));
      assert.deepEqual(got.errors.map(errorString), r.want);
      assert.equal(stableJSON(got.munged) === stableJSON(r.old), r.frozen);
    });
  }
});
