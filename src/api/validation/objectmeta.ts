// Object metadata (apimachinery pkg/api/validation/objectmeta.go plus the finalizer rule that
// pkg/apis/core/validation adds): name / generateName, namespace, generation, labels,
// annotations and finalizers.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { goQuote } from '../goquote.js';
import type { ObjectMeta } from '../types.js';
import { sortedKeysOf } from './keys.js';
import { byteLength, isQualifiedName, isValidLabelValue, nameIsDNSLabel, type NameValidator } from './names.js';

export const fieldImmutableErrorMsg = 'field is immutable';
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** TotalAnnotationSizeLimitB: 256 KiB of keys plus values. */
export const totalAnnotationSizeLimitB = 256 * 1024;

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

const metadataRoot = FieldPath.root('metadata');

// The validators below append to the list they are given (a new one when none is) and return it.

/** ValidateLabelName: a qualified name, every problem reported at the given path. */
export function validateLabelName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (const m of isQualifiedName(name)) errs.push(fieldError.invalid(path, name, m));
  return errs;
}

/** ValidateLabels: keys and values; all errors sit at the map's path (no key). */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!labels || typeof labels !== 'object') return errs;
  for (const k of sortedKeysOf(labels)) {
    validateLabelName(k, path, errs);
    const v = labels[k];
    const value = typeof v === 'string' ? v : String(v);
    for (const m of isValidLabelValue(value)) errs.push(fieldError.invalid(path, value, m));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names compared case-insensitively; total size ≤ 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!annotations || typeof annotations !== 'object') return errs;
  // UTF-16 units first: at most 3 UTF-8 bytes each, so bytes are counted only near the limit.
  let units = 0;
  for (const k of sortedKeysOf(annotations)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, m));
    units += k.length + String(annotations[k] ?? '').length;
  }
  if (units * 3 > totalAnnotationSizeLimitB && annotationBytes(annotations) > totalAnnotationSizeLimitB) {
    errs.push(fieldError.tooLong(path, totalAnnotationSizeLimitB));
  }
  return errs;
}

/** The size ValidateAnnotations limits: UTF-8 bytes of every key and value. */
function annotationBytes(annotations: Record<string, string>): number {
  let total = 0;
  for (const k of Object.keys(annotations)) total += byteLength(k) + byteLength(String(annotations[k] ?? ''));
  return total;
}

/** validateKubeFinalizerName: an unqualified finalizer must be one of the standard ones. */
export function validateKubeFinalizerName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errs.push(fieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

/** validateFinalizerName (namespace spec.finalizers): qualified name, then the standard-name rule. */
export function validateFinalizerName(name: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  for (const m of isQualifiedName(name)) errs.push(fieldError.invalid(path, name, m));
  return validateKubeFinalizerName(name, path, errs);
}

/** ValidateFinalizers (metadata.finalizers, reported without an index) plus the per-item kube rule. */
function validateMetaFinalizers(finalizers: string[] | undefined, path: FieldPath, errs: FieldError[]): FieldError[] {
  if (!Array.isArray(finalizers) || finalizers.length === 0) return errs;
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    const name = String(f);
    for (const m of isQualifiedName(name)) errs.push(fieldError.invalid(path, name, m));
    if (name === 'orphan') orphan = true;
    if (name === 'foregroundDeletion') foreground = true;
  }
  if (orphan && foreground) {
    errs.push(fieldError.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  for (let i = 0; i < finalizers.length; i++) validateKubeFinalizerName(String(finalizers[i]), path.index(i), errs);
  return errs;
}

export interface ObjectMetaOptions {
  /** Namespaced kinds require metadata.namespace (a DNS-1123 label); cluster-scoped kinds forbid it. */
  namespaced: boolean;
  /** How metadata.name (and generateName, as a prefix) must look. */
  nameFn: NameValidator;
}

/**
 * ValidateObjectMeta for create. One deliberate difference: upstream validates after the name
 * has been generated, so a missing name is always an error; Bulkhead validates before, so a
 * `generateName` alone is accepted (and checked as a prefix).
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, opts: ObjectMetaOptions, path = metadataRoot, errs: FieldError[] = []): FieldError[] {
  const m: ObjectMeta = meta && typeof meta === 'object' ? meta : {};
  const generateName = typeof m.generateName === 'string' ? m.generateName : '';
  const name = typeof m.name === 'string' ? m.name : '';
  if (generateName.length > 0) {
    for (const msg of opts.nameFn(generateName, true)) errs.push(fieldError.invalid(path.child('generateName'), generateName, msg));
  }
  if (name.length === 0) {
    if (generateName.length === 0) errs.push(fieldError.required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of opts.nameFn(name, false)) errs.push(fieldError.invalid(path.child('name'), name, msg));
  }
  return validateMetaCommon(m, opts.namespaced, path, errs);
}

function validateMetaCommon(m: ObjectMeta, namespaced: boolean, path: FieldPath, errs: FieldError[]): FieldError[] {
  const namespace = typeof m.namespace === 'string' ? m.namespace : '';
  if (namespaced) {
    if (namespace.length === 0) errs.push(fieldError.required(path.child('namespace')));
    else for (const msg of nameIsDNSLabel(namespace, false)) errs.push(fieldError.invalid(path.child('namespace'), namespace, msg));
  } else if (namespace.length !== 0) {
    errs.push(fieldError.forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0) {
    errs.push(fieldError.invalid(path.child('generation'), m.generation, isNegativeErrorMsg));
  }
  if (m.labels) validateLabels(m.labels, path.child('labels'), errs);
  if (m.annotations) validateAnnotations(m.annotations, path.child('annotations'), errs);
  if (m.finalizers) validateMetaFinalizers(m.finalizers, path.child('finalizers'), errs);
  return errs;
}

function immutable(newVal: unknown, oldVal: unknown, path: FieldPath): FieldError[] {
  const a = newVal ?? '';
  const b = oldVal ?? '';
  return a === b ? [] : [fieldError.invalid(path, newVal === undefined ? '' : newVal, fieldImmutableErrorMsg)];
}

/**
 * ValidateObjectMetaUpdate without the resourceVersion requirement (the API layer supplies the
 * stored resourceVersion for unconditional updates): name, namespace, uid and creationTimestamp
 * are immutable, generation may not decrease, labels/annotations/finalizers as on create.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, path = metadataRoot): FieldError[] {
  const n: ObjectMeta = newMeta ?? {};
  const o: ObjectMeta = oldMeta ?? {};
  const errs: FieldError[] = [];
  if (typeof n.generation === 'number' && typeof o.generation === 'number' && n.generation < o.generation) {
    errs.push(fieldError.invalid(path.child('generation'), n.generation, 'must not be decremented'));
  }
  errs.push(...immutable(n.name, o.name, path.child('name')));
  errs.push(...immutable(n.namespace, o.namespace, path.child('namespace')));
  errs.push(...immutable(n.uid, o.uid, path.child('uid')));
  errs.push(...immutable(n.creationTimestamp, o.creationTimestamp, path.child('creationTimestamp')));
  validateLabels(n.labels, path.child('labels'), errs);
  validateAnnotations(n.annotations, path.child('annotations'), errs);
  validateMetaFinalizers(n.finalizers, path.child('finalizers'), errs);
  // ValidateNoNewFinalizers: once deletion started, finalizers may only go.
  if (o.deletionTimestamp && Array.isArray(n.finalizers)) {
    const added = [...new Set(n.finalizers.filter((f) => !(o.finalizers ?? []).includes(f)))].sort();
    if (added.length) {
      errs.push(fieldError.forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => goQuote(String(f))).join(', ')}}`));
    }
  }
  return errs;
}
