// PodDisruptionBudget validation, one row per rule of pkg/apis/policy/validation
// (ValidatePodDisruptionBudgetSpec, ValidatePodDisruptionBudgetStatusUpdate with metav1's
// ValidateConditions) after upstream's validation_test.go cases, plus the generic registry's
// metadata rules around them, with Kubernetes' paths and wording.

import { describe, test } from 'node:test';
import type { MetaCondition, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../../../src/api/types.js';
import { validatePodDisruptionBudget, validatePodDisruptionBudgetStatus, validatePodDisruptionBudgetUpdate } from '../../../src/api/validation/index.js';
import { assertErrors, type Want } from './helpers.js';
import { labelValueMsg } from './messages.js';

const pdb = (spec: PodDisruptionBudgetSpec, meta: Partial<PodDisruptionBudget['metadata']> = {}): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', ...meta },
  spec,
});
const sel = { matchLabels: { app: 'web' } };
const percentMsg = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const intstr = (s: string) => `intstr.IntOrString{Type:1, IntVal:0, StrVal:"${s}"}`;
const bothSet = (selector: string) =>
  `spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:${selector}, MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set`;

describe('validatePodDisruptionBudget', () => {
  const rows: { name: string; pdb: PodDisruptionBudget; want: Want }[] = [
    // TestValidateMinAvailablePodDisruptionBudgetSpec's successCases, for both bounds.
    ...(['0%', '1%', '100%', 0, 1, 100] as const).flatMap((v) => [
      { name: `minAvailable ${JSON.stringify(v)} is valid`, pdb: pdb({ minAvailable: v, selector: sel }), want: [] as Want },
      { name: `maxUnavailable ${JSON.stringify(v)} is valid`, pdb: pdb({ maxUnavailable: v, selector: sel }), want: [] as Want },
    ]),
    // Its failureCases.
    { name: 'a fractional percent is not a percent', pdb: pdb({ minAvailable: '1.1%' }), want: [['FieldValueInvalid', `spec.minAvailable: Invalid value: ${intstr('1.1%')}: ${percentMsg}`]] },
    { name: 'a string that is no percent is invalid', pdb: pdb({ minAvailable: 'nope' }), want: [['FieldValueInvalid', `spec.minAvailable: Invalid value: ${intstr('nope')}: ${percentMsg}`]] },
    { name: 'a negative percent is invalid', pdb: pdb({ maxUnavailable: '-1%' }), want: [['FieldValueInvalid', `spec.maxUnavailable: Invalid value: ${intstr('-1%')}: ${percentMsg}`]] },
    { name: 'a percent above 100 is invalid', pdb: pdb({ minAvailable: '101%' }), want: [['FieldValueInvalid', `spec.minAvailable: Invalid value: ${intstr('101%')}: must not be greater than 100%`]] },
    { name: 'maxUnavailable above 100% is invalid', pdb: pdb({ maxUnavailable: '101%' }), want: [['FieldValueInvalid', `spec.maxUnavailable: Invalid value: ${intstr('101%')}: must not be greater than 100%`]] },
    { name: 'a negative integer is invalid', pdb: pdb({ minAvailable: -1 }), want: [['FieldValueInvalid', 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']] },
    { name: 'a negative maxUnavailable is invalid', pdb: pdb({ maxUnavailable: -1 }), want: [['FieldValueInvalid', 'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0']] },
    // TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec.
    { name: 'minAvailable and maxUnavailable together are invalid', pdb: pdb({ minAvailable: '10%', maxUnavailable: 1, selector: sel }), want: [['FieldValueInvalid', bothSet('(*v1.LabelSelector)(0xc000000000)')]] },
    { name: 'both bounds without a selector print a nil selector', pdb: pdb({ minAvailable: 1, maxUnavailable: 1 }), want: [['FieldValueInvalid', bothSet('(*v1.LabelSelector)(nil)')]] },
    // TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec.
    { name: 'unhealthyPodEvictionPolicy IfHealthyBudget is valid', pdb: pdb({ minAvailable: 1, unhealthyPodEvictionPolicy: 'IfHealthyBudget' }), want: [] },
    { name: 'unhealthyPodEvictionPolicy AlwaysAllow is valid', pdb: pdb({ minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }), want: [] },
    { name: 'an unknown unhealthyPodEvictionPolicy is not supported', pdb: pdb({ minAvailable: 1, unhealthyPodEvictionPolicy: 'Invalid' }), want: [['FieldValueNotSupported', 'spec.unhealthyPodEvictionPolicy: Unsupported value: "Invalid": supported values: "AlwaysAllow", "IfHealthyBudget"']] },
    { name: 'an empty unhealthyPodEvictionPolicy is not supported', pdb: pdb({ minAvailable: 1, unhealthyPodEvictionPolicy: '' }), want: [['FieldValueNotSupported', 'spec.unhealthyPodEvictionPolicy: Unsupported value: "": supported values: "AlwaysAllow", "IfHealthyBudget"']] },
    // Selector rules (metav1 ValidateLabelSelector, label values checked on create).
    { name: 'no bound and no selector is valid', pdb: pdb({}), want: [] },
    { name: 'an empty selector is valid (it selects the whole namespace)', pdb: pdb({ minAvailable: 1, selector: {} }), want: [] },
    { name: 'a bad operator is invalid', pdb: pdb({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['x'] }] } }), want: [['FieldValueInvalid', 'spec.selector.matchExpressions[0].operator: Invalid value: "Like": not a valid selector operator']] },
    { name: 'In needs values', pdb: pdb({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }), want: [['FieldValueRequired', "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]] },
    { name: 'Exists takes no values', pdb: pdb({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } }), want: [['FieldValueForbidden', "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"]] },
    { name: 'an expression value must be a label value', pdb: pdb({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } }), want: [['FieldValueInvalid', `spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": ${labelValueMsg}`]] },
    { name: 'a matchLabels value must be a label value', pdb: pdb({ minAvailable: 1, selector: { matchLabels: { app: 'a b' } } }), want: [['FieldValueInvalid', `spec.selector.matchLabels: Invalid value: "a b": ${labelValueMsg}`]] },
    // The generic registry's metadata rules: only a path segment name, and only once the spec passed.
    { name: 'a name need not be a DNS subdomain', pdb: pdb({ minAvailable: 1 }, { name: 'Web_1' }), want: [] },
    { name: 'a name may not contain a slash', pdb: pdb({ minAvailable: 1 }, { name: 'a/b' }), want: [['FieldValueInvalid', `metadata.name: Invalid value: "a/b": may not contain '/'`]] },
    { name: 'a name may not be ..', pdb: pdb({ minAvailable: 1 }, { name: '..' }), want: [['FieldValueInvalid', `metadata.name: Invalid value: "..": may not be '..'`]] },
    { name: 'a namespaced kind: the namespace is required', pdb: pdb({ minAvailable: 1 }, { namespace: '' }), want: [['FieldValueRequired', 'metadata.namespace: Required value']] },
    { name: 'spec errors come alone: metadata is not checked then', pdb: pdb({ minAvailable: -1 }, { name: 'a/b' }), want: [['FieldValueInvalid', 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodDisruptionBudget(r.pdb), r.want));
});

describe('validatePodDisruptionBudgetUpdate', () => {
  const old = pdb({ minAvailable: 1, selector: sel }, { resourceVersion: '1' });
  const badValueOld = pdb({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } }, { resourceVersion: '1' });
  const rows: { name: string; pdb: PodDisruptionBudget; old: PodDisruptionBudget; want: Want }[] = [
    { name: 'the spec is mutable in policy/v1', pdb: pdb({ maxUnavailable: '50%', selector: { matchLabels: { app: 'other' } } }), old, want: [] },
    { name: 'the update is validated like a create', pdb: pdb({ minAvailable: '101%', selector: sel }), old, want: [['FieldValueInvalid', `spec.minAvailable: Invalid value: ${intstr('101%')}: must not be greater than 100%`]] },
    { name: 'the name is immutable', pdb: pdb({ minAvailable: 1, selector: sel }, { name: 'other' }), old, want: [['FieldValueInvalid', 'metadata.name: Invalid value: "other": field is immutable']] },
    { name: 'a stored selector with a bad label value may keep it', pdb: badValueOld, old: badValueOld, want: [] },
    { name: 'a bad label value may not be introduced', pdb: badValueOld, old, want: [['FieldValueInvalid', `spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": ${labelValueMsg}`]] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodDisruptionBudgetUpdate(r.pdb, r.old), r.want));
});

describe('validatePodDisruptionBudgetStatus', () => {
  const st = (extra: Partial<PodDisruptionBudgetStatus> = {}): PodDisruptionBudgetStatus => ({ disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, ...extra });
  const cond = (extra: Partial<MetaCondition> = {}): MetaCondition => ({ type: 'DisruptionAllowed', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'SufficientPods', message: '', ...extra });
  const rows: { name: string; status: PodDisruptionBudgetStatus; want: Want }[] = [
    { name: 'a status with a condition is valid', status: st({ conditions: [cond()] }), want: [] },
    // TestValidatePodDisruptionBudgetStatus (policy/v1): no count may be negative.
    { name: 'negative disruptionsAllowed', status: st({ disruptionsAllowed: -10 }), want: [['FieldValueInvalid', 'status.disruptionsAllowed: Invalid value: -10: must be greater than or equal to 0']] },
    { name: 'negative currentHealthy', status: st({ currentHealthy: -5 }), want: [['FieldValueInvalid', 'status.currentHealthy: Invalid value: -5: must be greater than or equal to 0']] },
    { name: 'negative desiredHealthy', status: st({ desiredHealthy: -3 }), want: [['FieldValueInvalid', 'status.desiredHealthy: Invalid value: -3: must be greater than or equal to 0']] },
    { name: 'negative expectedPods', status: st({ expectedPods: -2 }), want: [['FieldValueInvalid', 'status.expectedPods: Invalid value: -2: must be greater than or equal to 0']] },
    // metav1 ValidateConditions.
    { name: 'a condition status must be True, False or Unknown', status: st({ conditions: [cond({ status: 'Maybe' })] }), want: [['FieldValueNotSupported', 'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']] },
    { name: 'a condition needs a lastTransitionTime', status: st({ conditions: [cond({ lastTransitionTime: '' })] }), want: [['FieldValueRequired', 'status.conditions[0].lastTransitionTime: Required value: must be set']] },
    { name: 'a condition needs a reason', status: st({ conditions: [cond({ reason: '' })] }), want: [['FieldValueRequired', 'status.conditions[0].reason: Required value: must be set']] },
    {
      name: 'a condition reason must be CamelCase-ish',
      status: st({ conditions: [cond({ reason: 'not ok' })] }),
      want: [['FieldValueInvalid', `status.conditions[0].reason: Invalid value: "not ok": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`]],
    },
    { name: 'a condition type appears once', status: st({ conditions: [cond(), cond()] }), want: [['FieldValueDuplicate', 'status.conditions[1].type: Duplicate value: "DisruptionAllowed"']] },
    { name: 'a negative condition observedGeneration', status: st({ conditions: [cond({ observedGeneration: -1 })] }), want: [['FieldValueInvalid', 'status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero']] },
  ];
  for (const r of rows) test(r.name, () => assertErrors(validatePodDisruptionBudgetStatus(r.status), r.want));
});
