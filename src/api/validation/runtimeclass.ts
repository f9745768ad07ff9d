// RuntimeClass validation (pkg/apis/node/validation ValidateRuntimeClass and
// ValidateRuntimeClassUpdate): the name is a DNS-1123 subdomain, the handler a DNS-1123 label
// that never changes, overhead.podFixed is checked as container limits are (so its errors sit at
// `overhead.limits[<name>]`, as upstream's reuse of ValidateResourceRequirements puts them), and
// scheduling's nodeSelector and tolerations as a pod's are.

import { FieldPath, fieldError, type FieldError } from '../fielderrors.js';
import type { RuntimeClass } from '../types.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from './names.js';
import { fieldImmutableErrorMsg, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { validateOverhead } from './resources.js';
import { validateTolerations } from './tolerations.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const errs = validateObjectMeta(rc?.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const handler = str(rc?.handler);
  for (const m of nameIsDNSLabel(handler, false)) errs.push(fieldError.invalid(FieldPath.root('handler'), handler, m));
  if (rc?.overhead !== undefined && rc.overhead !== null) validateOverhead(rc.overhead.podFixed, FieldPath.root('overhead'), errs);
  const scheduling = rc?.scheduling;
  if (scheduling !== undefined && scheduling !== null) {
    const path = FieldPath.root('scheduling');
    if (scheduling.nodeSelector !== undefined && scheduling.nodeSelector !== null) validateLabels(scheduling.nodeSelector, path.child('nodeSelector'), errs);
    validateTolerations(scheduling.tolerations, path.child('tolerations'), errs);
  }
  return errs;
}

/** The strategy's ValidateUpdate: the object as on create, the metadata rules of an update, and an unchanged handler. */
export function validateRuntimeClassUpdate(rc: RuntimeClass, old: RuntimeClass): FieldError[] {
  const errs = validateRuntimeClass(rc);
  errs.push(...validateObjectMetaUpdate(rc?.metadata, old?.metadata));
  // ValidateImmutableField reports the new value.
  if (str(rc?.handler) !== str(old?.handler)) errs.push(fieldError.invalid(FieldPath.root('handler'), str(rc?.handler), fieldImmutableErrorMsg));
  return errs;
}
