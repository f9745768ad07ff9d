// The request options every write carries (DeleteOptions, and Create/Update/PatchOptions'
// fieldManager, dryRun, fieldValidation and force), validated as apimachinery's
// pkg/apis/meta/v1/validation does it (ValidateDeleteOptions, ValidateCreateOptions,
// ValidateUpdateOptions, ValidatePatchOptions). Pure: the API server decodes, this judges.

import { fieldError, type FieldError } from '../fielderrors.js';

export const dryRunAll = 'All';

export const propagationPolicies = ['Foreground', 'Background', 'Orphan'] as const;
export type PropagationPolicy = (typeof propagationPolicies)[number];

/** meta/v1 DeleteOptions as decoded from a body or a query (apiVersion and kind dropped). */
export interface DeleteOptionsInput {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun?: string[];
}

/** ValidateDryRun: every value must be "All"; the whole list is the bad value. */
export function validateDryRun(field: string, dryRun: readonly string[] | undefined): FieldError[] {
  if (!dryRun || dryRun.every((d) => d === dryRunAll)) return [];
  return [fieldError.notSupported(field, [...dryRun], [dryRunAll])];
}

/** A request is a dry run when it names any dryRun value (after validation, only "All"). */
export function isDryRun(dryRun: readonly string[] | undefined): boolean {
  return (dryRun?.length ?? 0) > 0;
}

export function validateDeleteOptions(o: DeleteOptionsInput): FieldError[] {
  const errs: FieldError[] = [];
  // orphanDependents is the deprecated spelling of the same choice: both at once is ambiguous.
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push(fieldError.invalid('propagationPolicy', o.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (o.propagationPolicy !== undefined && !(propagationPolicies as readonly string[]).includes(o.propagationPolicy)) {
    errs.push(fieldError.notSupported('propagationPolicy', o.propagationPolicy, [...propagationPolicies, 'nil']));
  }
  errs.push(...validateDryRun('dryRun', o.dryRun));
  return errs;
}

/** FieldManagerMaxLength: a manager name is at most 128 bytes. */
export const fieldManagerMaxLength = 128;

/** ValidateFieldManager: at most 128 bytes, every character printable. */
export function validateFieldManager(fieldManager: string | undefined): FieldError[] {
  if (!fieldManager) return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fieldManager) > fieldManagerMaxLength) errs.push(fieldError.tooLong('fieldManager', fieldManagerMaxLength));
  let at = 0;
  for (const ch of fieldManager) {
    // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      const cp = ch.codePointAt(0)!;
      errs.push(fieldError.invalid('fieldManager', fieldManager, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

/** The values fieldValidation may take ("" is the server's default, Warn). */
export const fieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'] as const;

export interface WriteOptionsInput {
  fieldManager?: string;
  dryRun: readonly string[];
  fieldValidation?: string;
  /** PatchOptions only: whether `force` was given, and whether this is an apply patch. */
  forceSet?: boolean;
  applyPatch?: boolean;
}

/** ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions, in upstream's order. */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', o: WriteOptionsInput): FieldError[] {
  const errs: FieldError[] = [];
  if (kind === 'PatchOptions') {
    if (!o.applyPatch) {
      if (o.forceSet) errs.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
    } else if (!o.fieldManager) {
      // kubectl defaults it; controllers must set it.
      errs.push(fieldError.required('fieldManager', 'is required for apply patch'));
    }
  }
  errs.push(...validateFieldManager(o.fieldManager));
  errs.push(...validateDryRun('dryRun', o.dryRun));
  const fv = o.fieldValidation ?? '';
  if (!(fieldValidationValues as readonly string[]).includes(fv)) errs.push(fieldError.notSupported('fieldValidation', fv, fieldValidationValues));
  return errs;
}
