// PriorityClass validation (pkg/apis/scheduling/validation ValidatePriorityClass and
// ValidatePriorityClassUpdate, with IsKnownSystemPriorityClass of pkg/apis/scheduling/v1
// helpers.go): the name is a DNS-1123 subdomain, `system-` names are reserved for the two
// built-in classes with their exact value and globalDefault, user classes go up to
// HighestUserDefinablePriority, and value and preemptionPolicy never change in an update.

import { FieldPath, fieldError, type FieldError } from '../fielderrors.js';
import type { PriorityClass } from '../types.js';
import { nameIsDNSSubdomain } from './names.js';
import { fieldImmutableErrorMsg, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

/** scheduling.HighestUserDefinablePriority: above it, values are for system classes only. */
export const highestUserDefinablePriority = 1000000000;
/** scheduling.SystemCriticalPriority: system-cluster-critical's value. */
export const systemCriticalPriority = 2 * highestUserDefinablePriority;
export const systemPriorityClassPrefix = 'system-';
export const systemClusterCritical = 'system-cluster-critical';
export const systemNodeCritical = 'system-node-critical';

/** The built-in classes the API server creates at startup (SystemPriorityClasses, in upstream's order). */
export const systemPriorityClasses: readonly { name: string; value: number; globalDefault: boolean; description: string }[] = [
  { name: systemNodeCritical, value: systemCriticalPriority + 1000, globalDefault: false, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: systemClusterCritical, value: systemCriticalPriority, globalDefault: false, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

export const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** IsKnownSystemPriorityClass: undefined when it is one, else upstream's reason. */
function unknownSystemClass(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const spc = systemPriorityClasses.find((c) => c.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${spc.name} PriorityClass must be ${spc.value}`;
  if (spc.globalDefault !== globalDefault) return `globalDefault of ${spc.name} PriorityClass must be ${spc.globalDefault}`;
  return undefined;
}

/** ValidatePreemptionPolicy (pkg/apis/core/validation). */
export function validatePreemptionPolicy(v: unknown, path: FieldPath): FieldError[] {
  if (v === undefined || v === null) return [];
  if (v === '') return [fieldError.required(path)];
  return typeof v === 'string' && preemptionPolicies.includes(v) ? [] : [fieldError.notSupported(path, v, preemptionPolicies)];
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(pc?.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const name = typeof pc?.metadata?.name === 'string' ? pc.metadata.name : '';
  const value = pc?.value ?? 0;
  if (name.startsWith(systemPriorityClassPrefix)) {
    const why = unknownSystemClass(name, value, pc?.globalDefault === true);
    if (why) {
      errs.push(fieldError.forbidden(FieldPath.root('metadata').child('name'), `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}`));
    }
  } else if (typeof value === 'number' && value > highestUserDefinablePriority) {
    errs.push(fieldError.forbidden(FieldPath.root('value'), `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  errs.push(...validatePreemptionPolicy(pc?.preemptionPolicy, FieldPath.root('preemptionPolicy')));
  return errs;
}

/** Name (through the metadata rules), value and preemptionPolicy may not change. */
export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validateObjectMetaUpdate(pc?.metadata, old?.metadata);
  if ((pc?.value ?? 0) !== (old?.value ?? 0)) errs.push(fieldError.forbidden(FieldPath.root('value'), 'may not be changed in an update.'));
  // ValidateImmutableField: the new value is reported (null when it was removed).
  if ((pc?.preemptionPolicy ?? null) !== (old?.preemptionPolicy ?? null)) {
    errs.push(fieldError.invalid(FieldPath.root('preemptionPolicy'), pc?.preemptionPolicy ?? null, fieldImmutableErrorMsg));
  }
  return errs;
}
