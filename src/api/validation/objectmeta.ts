// Object metadata (apimachinery pkg/api/validation/objectmeta.go plus the finalizer rule that
// pkg/apis/core/validation adds): name / generateName, namespace, generation, labels,
// annotations and finalizers.

import { fieldError, FieldPath, type FieldError } from '../fielderrors.js';
import { goQuote } from '../goquote.js';
import type { ObjectMeta, OwnerReference } from '../types.js';
import { goPointer, goValue } from './gosyntax.js';
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

/** schema.FromAPIVersionAndKind's group and version: "" and "/" are empty, more than one "/" is no version. */
function ownerGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

/** %#v of a metav1.OwnerReference value. */
function goOwnerReference(r: OwnerReference): string {
  return `v1.OwnerReference{APIVersion:${goQuote(r.apiVersion)}, Kind:${goQuote(r.kind)}, Name:${goQuote(r.name)}, UID:${goQuote(r.uid)}, Controller:${goPointer('bool', r.controller)}, BlockOwnerDeletion:${goPointer('bool', r.blockOwnerDeletion)}}`;
}

/** BannedOwners: events may not own anything (their GC would race their TTL). */
const bannedOwners = new Set(['/v1, Kind=Event']);

/**
 * ValidateOwnerReferences: each reference names its owner fully (apiVersion with a version, kind,
 * name, uid), Events own nothing, and at most one reference is the controller. Every error sits
 * at the list's path, without an index, as upstream reports them.
 */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!Array.isArray(refs)) return errs;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const all = refs.map((r) => ({ ...r, apiVersion: text(r?.apiVersion), kind: text(r?.kind), name: text(r?.name), uid: text(r?.uid) }));
  let firstController = '';
  for (const r of all) {
    const { group, version } = ownerGroupVersion(r.apiVersion);
    if (version === '') errs.push(fieldError.invalid(path.child('apiVersion'), r.apiVersion, 'version must not be empty'));
    if (r.kind === '') errs.push(fieldError.invalid(path.child('kind'), r.kind, 'kind must not be empty'));
    if (r.name === '') errs.push(fieldError.invalid(path.child('name'), r.name, 'name must not be empty'));
    if (r.uid === '') errs.push(fieldError.invalid(path.child('uid'), r.uid, 'uid must not be empty'));
    const gvk = `${group}/${version}, Kind=${r.kind}`;
    if (bannedOwners.has(gvk)) errs.push(fieldError.invalid(path, goValue(goOwnerReference(r)), `${gvk} is disallowed from being an owner`));
    if (r.controller === true) {
      const name = `${r.kind}/${r.name}`;
      if (firstController === '') firstController = name;
      else {
        const list = goValue(`[]v1.OwnerReference{${all.map(goOwnerReference).join(', ')}}`);
        errs.push(fieldError.invalid(path, list, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`));
      }
    }
  }
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
  if (m.ownerReferences) validateOwnerReferences(m.ownerReferences, path.child('ownerReferences'), errs);
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
 * stored resourceVersion for unconditional updates), in upstream's order: no finalizer added once
 * deletion started, generation may not decrease, name, namespace, uid and creationTimestamp are
 * immutable, labels, annotations and owner references as on create, then the finalizer names.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, path = metadataRoot): FieldError[] {
  const n: ObjectMeta = newMeta ?? {};
  const o: ObjectMeta = oldMeta ?? {};
  const errs: FieldError[] = [];
  // ValidateNoNewFinalizers: once deletion started, finalizers may only go.
  if (o.deletionTimestamp && Array.isArray(n.finalizers)) {
    const added = [...new Set(n.finalizers.filter((f) => !(o.finalizers ?? []).includes(f)))].sort();
    if (added.length) {
      errs.push(fieldError.forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => goQuote(String(f))).join(', ')}}`));
    }
  }
  if (typeof n.generation === 'number' && typeof o.generation === 'number' && n.generation < o.generation) {
    errs.push(fieldError.invalid(path.child('generation'), n.generation, 'must not be decremented'));
  }
  errs.push(...immutable(n.name, o.name, path.child('name')));
  errs.push(...immutable(n.namespace, o.namespace, path.child('namespace')));
  errs.push(...immutable(n.uid, o.uid, path.child('uid')));
  errs.push(...immutable(n.creationTimestamp, o.creationTimestamp, path.child('creationTimestamp')));
  validateLabels(n.labels, path.child('labels'), errs);
  validateAnnotations(n.annotations, path.child('annotations'), errs);
  validateOwnerReferences(n.ownerReferences, path.child('ownerReferences'), errs);
  validateMetaFinalizers(n.finalizers, path.child('finalizers'), errs);
  return errs;
}

/**
 * rest.BeforeUpdate's validateCommonFields, run for every kind before its own update
 * validation: the object's metadata as on create (the name is a path segment here), then the
 * update rules. A kind whose own validation repeats some of these reports them once: the
 * message lists each error once, as field.ErrorList.ToAggregate does.
 */
export function validateCommonUpdateFields(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(newMeta, { namespaced, nameFn: pathSegmentName });
  return [...errs, ...validateObjectMetaUpdate(newMeta, oldMeta)];
}

/** path.ValidatePathSegmentName: names that cannot be a URL path segment. */
export const pathSegmentName: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
};
