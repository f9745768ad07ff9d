// Node and Lease validation (pkg/apis/core/validation ValidateNode / ValidateNodeUpdate, and
// pkg/apis/coordination/validation ValidateLease / ValidateLeaseSpec): the name is a DNS-1123
// subdomain (ValidateNodeName, ValidLeaseName), the metadata as for every object, and a
// lease's durations. The node spec and status rules upstream adds are not reproduced yet.

import { FieldPath, fieldError, type FieldError } from '../fielderrors.js';
import type { Lease, Node } from '../types.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

export function validateNode(node: Node): FieldError[] {
  return validateObjectMeta(node?.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
}

export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  return validateObjectMetaUpdate(node?.metadata, old?.metadata);
}

function validateLeaseSpec(spec: Lease['spec'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || typeof spec !== 'object') return errs;
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldError.invalid(path.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(fieldError.invalid(path.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateLease(lease: Lease): FieldError[] {
  return [
    ...validateObjectMeta(lease?.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validateLeaseSpec(lease?.spec, FieldPath.root('spec')),
  ];
}

export function validateLeaseUpdate(lease: Lease, old: Lease): FieldError[] {
  return [...validateObjectMetaUpdate(lease?.metadata, old?.metadata), ...validateLeaseSpec(lease?.spec, FieldPath.root('spec'))];
}
