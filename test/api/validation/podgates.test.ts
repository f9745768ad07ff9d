// Readiness gates and scheduling gates (src/api/validation/readinessgates.ts,
// schedulinggates.ts): upstream's TestValidatePodReadinessGates, TestValidateSchedulingGates and
// TestValidatePodCreateWithSchedulingGates rows (validation_test.go), with the full error texts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorString, FieldPath } from '../../../src/api/fielderrors.js';
import type { Pod, PodReadinessGate, PodSchedulingGate } from '../../../src/api/types.js';
import { validatePodCreate } from '../../../src/api/validation/index.js';
import { validateReadinessGates } from '../../../src/api/validation/readinessgates.js';
import { validateSchedulingGates } from '../../../src/api/validation/schedulinggates.js';
import { allGates, assertErrors, podWith, type Want } from './helpers.js';
import { namePartMsg } from './messages.js';

const field = FieldPath.root('field');
const qualifiedMsg =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

describe('validateReadinessGates (TestValidatePodReadinessGates)', () => {
  const rows: { name: string; gates: PodReadinessGate[]; want: string[] }[] = [
    { name: 'no gate', gates: [], want: [] },
    { name: 'one readiness gate', gates: [{ conditionType: 'example.com/condition' }], want: [] },
    { name: 'two readiness gates', gates: [{ conditionType: 'example.com/condition1' }, { conditionType: 'example.com/condition2' }], want: [] },
    { name: 'invalid condition type', gates: [{ conditionType: 'invalid/condition/type' }], want: [`field[0].conditionType: Invalid value: "invalid/condition/type": ${qualifiedMsg}`] },
    {
      name: 'an empty condition type',
      gates: [{ conditionType: '' }],
      want: ['field[0].conditionType: Invalid value: "": name part must be non-empty', `field[0].conditionType: Invalid value: "": ${namePartMsg}`],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateReadinessGates(r.gates, field).map(errorString), r.want));
});

describe('validateSchedulingGates (TestValidateSchedulingGates)', () => {
  const rows: { name: string; gates: PodSchedulingGate[]; want: string[] }[] = [
    { name: 'nil gates', gates: [], want: [] },
    {
      name: 'empty string in gates',
      gates: [{ name: 'foo' }, { name: '' }],
      want: ['field[1]: Invalid value: "": name part must be non-empty', `field[1]: Invalid value: "": ${namePartMsg}`],
    },
    { name: 'legal gates', gates: [{ name: 'foo' }, { name: 'bar' }], want: [] },
    { name: 'illegal gates', gates: [{ name: 'foo' }, { name: '\nbar' }], want: [`field[1]: Invalid value: "\\nbar": ${namePartMsg}`] },
    { name: 'duplicated gates (single duplication)', gates: [{ name: 'foo' }, { name: 'bar' }, { name: 'bar' }], want: ['field[2]: Duplicate value: "bar"'] },
    {
      name: 'duplicated gates (multiple duplications)',
      gates: [{ name: 'foo' }, { name: 'bar' }, { name: 'foo' }, { name: 'baz' }, { name: 'foo' }, { name: 'bar' }],
      want: ['field[2]: Duplicate value: "foo"', 'field[4]: Duplicate value: "foo"', 'field[5]: Duplicate value: "bar"'],
    },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(validateSchedulingGates(r.gates, field).map(errorString), r.want));
});

describe('gates in validatePodCreate (TestValidatePodCreateWithSchedulingGates)', () => {
  const rows: { name: string; pod: Pod; want: Want }[] = [
    {
      name: 'create a Pod with nodeName and schedulingGates',
      pod: podWith((p) => {
        p.spec.nodeName = 'node';
        p.spec.schedulingGates = [{ name: 'foo' }];
      }),
      want: [['FieldValueForbidden', 'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']],
    },
    { name: 'create a Pod with schedulingGates', pod: podWith((p) => (p.spec.schedulingGates = [{ name: 'foo' }])), want: [] },
    { name: 'an empty gate list does not hold the node name back', pod: podWith((p) => {
      p.spec.nodeName = 'node';
      p.spec.schedulingGates = [];
    }), want: [] },
    {
      name: 'gate errors sit at spec.schedulingGates[i], readiness gate errors at …conditionType',
      pod: podWith((p) => {
        p.spec.readinessGates = [{ conditionType: 'a b' }];
        p.spec.schedulingGates = [{ name: 'x' }, { name: 'x' }];
      }),
      want: [
        ['FieldValueInvalid', `spec.readinessGates[0].conditionType: Invalid value: "a b": ${namePartMsg}`],
        ['FieldValueDuplicate', 'spec.schedulingGates[1]: Duplicate value: "x"'],
      ],
    },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodCreate(r.pod, { gates: allGates }), r.want));
});
