// validateReadinessGates (pkg/apis/core/validation, v1.32): each conditionType is a qualified
// name, as custom pod condition types are.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodReadinessGate } from '../types.js';
import { isQualifiedName } from './names.js';

export function validateReadinessGates(gates: PodReadinessGate[], path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (let i = 0; i < gates.length; i++) {
    const t = gates[i]?.conditionType;
    const v = typeof t === 'string' ? t : '';
    for (const m of isQualifiedName(v)) errs.push(fieldError.invalid(path.index(i).child('conditionType'), v, m));
  }
  return errs;
}
