// Pod tolerations (pkg/apis/core/validation ValidateTolerations and validateTaintEffect with
// allowEmpty). A null entry is Go's zero Toleration, as decoding a JSON null into a struct
// leaves it: empty key and operator, so "operator must be Exists when `key` is empty".

import { fieldError, goQuote, type FieldError, type FieldPath } from '../fielderrors.js';
import type { Toleration } from '../types.js';
import { goPointer, goValue } from './gosyntax.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

const operators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** core.Toleration as field.Error prints a struct that is not a fmt.Stringer (%#v). */
function goToleration(t: Toleration): string {
  return `core.Toleration{Key:${goQuote(str(t.key))}, Operator:${goQuote(str(t.operator))}, Value:${goQuote(str(t.value))}, Effect:${goQuote(str(t.effect))}, TolerationSeconds:${goPointer('int64', t.tolerationSeconds)}}`;
}

/** ValidateTolerations, appending to `errs`. */
export function validateTolerations(tolerations: readonly (Toleration | null)[] | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!Array.isArray(tolerations)) return errs;
  for (let i = 0; i < tolerations.length; i++) validateToleration(tolerations[i] ?? {}, path.index(i), errs);
  return errs;
}

function validateToleration(t: Toleration, at: FieldPath, errs: FieldError[]): FieldError[] {
  const key = str(t.key);
  const operator = str(t.operator);
  const value = str(t.value);
  const effect = str(t.effect);
  if (key.length > 0) for (const m of isQualifiedName(key)) errs.push(fieldError.invalid(at.child('key'), key, m));
  if (key.length === 0 && operator !== 'Exists') {
    errs.push(fieldError.invalid(at.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
    errs.push(fieldError.invalid(at.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }
  if (operator === 'Equal' || operator === '') {
    const problems = isValidLabelValue(value);
    if (problems.length) errs.push(fieldError.invalid(at.child('operator'), value, problems.join(';')));
  } else if (operator === 'Exists') {
    if (value.length > 0) errs.push(fieldError.invalid(at.child('operator'), goValue(goToleration(t)), "value must be empty when `operator` is 'Exists'"));
  } else {
    errs.push(fieldError.notSupported(at.child('operator'), operator, operators));
  }
  if (effect.length > 0 && !taintEffects.includes(effect)) errs.push(fieldError.notSupported(at.child('effect'), effect, taintEffects));
  return errs;
}
