// Scheduling gates (pkg/apis/core/validation, v1.32): validateSchedulingGates (each name a
// qualified name, no name twice; both errors at the entry, not at its `name`) and the create
// rule of ValidatePodCreate, that a pod cannot be bound to a node while it is gated.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSchedulingGate, PodSpec } from '../types.js';
import { isQualifiedName } from './names.js';

export function validateSchedulingGates(gates: PodSchedulingGate[], path: FieldPath, errs: FieldError[] = []): FieldError[] {
  const seen = new Set<string>();
  for (let i = 0; i < gates.length; i++) {
    const n = gates[i]?.name;
    const name = typeof n === 'string' ? n : '';
    for (const m of isQualifiedName(name)) errs.push(fieldError.invalid(path.index(i), name, m));
    if (seen.has(name)) errs.push(fieldError.duplicate(path.index(i), name));
    seen.add(name);
  }
  return errs;
}

/** ValidatePodCreate: nodeName must wait until every scheduling gate is removed. */
export function validateSchedulingGatesOnCreate(spec: PodSpec, specPath: FieldPath, errs: FieldError[] = []): FieldError[] {
  const gates = spec.schedulingGates;
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '' && Array.isArray(gates) && gates.length > 0) {
    errs.push(fieldError.forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}
