// metav1 label selector validation (apimachinery pkg/apis/meta/v1/validation ValidateLabelSelector
// and ValidateLabelSelectorRequirement, v1.32), in upstream's order: matchLabels first, then each
// expression's operator, key and (unless allowed to be invalid) values. Every API that takes a
// LabelSelector validates it here: workload selectors, pod affinity terms, topology spread.

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import type { LabelSelector } from '../types.js';
import { isValidLabelValue } from './names.js';
import { validateLabelName, validateLabels } from './objectmeta.js';

export interface LabelSelectorValidationOptions {
  /**
   * LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector: true skips the check of
   * expression values (older objects that stored them before the check existed).
   */
  allowInvalidLabelValueInSelector: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ValidateLabelSelector: a null or absent selector is valid; a null expression is Go's zero requirement. */
export function validateLabelSelector(sel: LabelSelector | null | undefined, opts: LabelSelectorValidationOptions, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!isObject(sel)) return errs;
  if (isObject(sel.matchLabels)) validateLabels(sel.matchLabels as Record<string, string>, path.child('matchLabels'), errs);
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  for (let i = 0; i < exprs.length; i++) {
    const p = path.child('matchExpressions').index(i);
    const r = isObject(exprs[i]) ? exprs[i]! : { key: '', operator: '' };
    const operator = typeof r.operator === 'string' ? r.operator : '';
    const values = Array.isArray(r.values) ? r.values : [];
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldError.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldError.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldError.invalid(p.child('operator'), operator, 'not a valid selector operator'));
    }
    validateLabelName(typeof r.key === 'string' ? r.key : '', p.child('key'), errs);
    if (!opts.allowInvalidLabelValueInSelector) {
      for (let j = 0; j < values.length; j++) {
        const v = String(values[j] ?? '');
        for (const m of isValidLabelValue(v)) errs.push(fieldError.invalid(p.child('values').index(j), v, m));
      }
    }
  }
  return errs;
}
