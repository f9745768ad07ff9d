// Namespace (ValidateNamespace): metadata with a DNS-1123 label name and no namespace of its
// own, and spec.finalizers (reported without an index, as upstream does).

import { FieldPath, type FieldError } from '../fielderrors.js';
import type { Namespace } from '../types.js';
import { nameIsDNSLabel } from './names.js';
import { validateFinalizerName, validateObjectMeta } from './objectmeta.js';

export function validateNamespace(ns: Namespace): FieldError[] {
  const errs = validateObjectMeta(ns?.metadata, { namespaced: false, nameFn: nameIsDNSLabel });
  const finalizers = ns?.spec?.finalizers;
  if (Array.isArray(finalizers)) {
    const path = FieldPath.root('spec').child('finalizers');
    for (const f of finalizers) errs.push(...validateFinalizerName(String(f), path));
  }
  return errs;
}
