// The request options every write carries (DeleteOptions, and the dryRun of Create/Update/
// PatchOptions), validated as apimachinery's pkg/apis/meta/v1/validation does it
// (ValidateDeleteOptions, ValidateDryRun). Pure: the API server decodes, this judges.

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
