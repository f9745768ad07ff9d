// Seccomp (pkg/apis/core/validation, v1.32): the seccompProfile field of pod and container
// security contexts (validateSeccompProfileField), the deprecated annotations' values
// (ValidateSeccompPodAnnotations, ValidateSeccompProfile) and, on create and in pod templates,
// the rule that an annotation and a field set for the same pod or container agree
// (validateSeccompAnnotationsAndFields, validateSeccompAnnotationsAndFieldsMatch).

import { fieldError, goQuote, type FieldError, type FieldPath } from '../fielderrors.js';
import type { PodSpec, SeccompProfile } from '../types.js';
import { goPointer, goValue } from './gosyntax.js';
import { sortedKeysOf } from './keys.js';
import { visitContainersWithPath } from './visitcontainers.js';
import { validateLocalDescendingPath } from './volumes.js';

/** The types of validateSeccompProfileType, in its order. */
export const seccompProfileTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];
export const seccompPodAnnotationKey = 'seccomp.security.alpha.kubernetes.io/pod';
export const seccompContainerAnnotationKeyPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const profileRuntimeDefault = 'runtime/default';
const deprecatedProfileDockerDefault = 'docker/default';
const profileNameUnconfined = 'unconfined';
const localhostProfileNamePrefix = 'localhost/';

const typeMismatchMsg = 'seccomp type in annotation and field must match';
const profileMismatchMsg = 'seccomp profile in annotation and field must match';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * The *core.SeccompProfile that the localhostProfile error reports, dereferenced and printed
 * with %#v; the set pointer prints as a fixed address (goPointer), Go's varies per run.
 */
function goSeccompProfile(sp: SeccompProfile): string {
  return `core.SeccompProfile{Type:${goQuote(str(sp.type))}, LocalhostProfile:${goPointer('string', sp.localhostProfile)}}`;
}

/** validateSeccompProfileField: a known type; localhostProfile required for Localhost, refused otherwise. */
export function validateSeccompProfileField(sp: SeccompProfile | undefined | null, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (sp === undefined || sp === null || typeof sp !== 'object') return errs;
  const type = str(sp.type);
  if (type === '') errs.push(fieldError.required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!seccompProfileTypes.includes(type)) errs.push(fieldError.notSupported(path.child('type'), type, seccompProfileTypes));
  const lp = sp.localhostProfile;
  const hasLP = lp !== undefined && lp !== null;
  if (type === 'Localhost') {
    if (!hasLP) errs.push(fieldError.required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else validateLocalDescendingPath(str(lp), path.child('localhostProfile'), errs);
  } else if (hasLP) {
    errs.push(fieldError.invalid(path.child('localhostProfile'), goValue(goSeccompProfile(sp)), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** ValidateSeccompProfile: an annotation's value (runtime/default, docker/default, unconfined or localhost/<relative path>). */
export function validateSeccompProfileAnnotation(p: string, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (p === profileRuntimeDefault || p === deprecatedProfileDockerDefault || p === profileNameUnconfined) return errs;
  if (p.startsWith(localhostProfileNamePrefix)) return validateLocalDescendingPath(p.slice(localhostProfileNamePrefix.length), path, errs);
  errs.push(fieldError.invalid(path, p, 'must be a valid seccomp profile'));
  return errs;
}

/**
 * ValidateSeccompPodAnnotations at `path` (metadata.annotations). Upstream names the errors with
 * Child(key), not Key(key): `metadata.annotations.seccomp.security.alpha.kubernetes.io/pod`.
 * Container annotations are visited in sorted key order (Go's map order is random).
 */
export function validateSeccompPodAnnotations(annotations: Record<string, string> | undefined, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!annotations || typeof annotations !== 'object') return errs;
  if (Object.prototype.hasOwnProperty.call(annotations, seccompPodAnnotationKey)) {
    validateSeccompProfileAnnotation(str(annotations[seccompPodAnnotationKey]), path.child(seccompPodAnnotationKey), errs);
  }
  for (const k of sortedKeysOf(annotations)) {
    if (k.startsWith(seccompContainerAnnotationKeyPrefix)) validateSeccompProfileAnnotation(str(annotations[k]), path.child(k), errs);
  }
  return errs;
}

/** validateSeccompAnnotationsAndFieldsMatch: the annotation says what the field says. */
function validateSeccompAnnotationAndFieldMatch(annotation: string, sp: SeccompProfile, path: FieldPath, errs: FieldError[]): FieldError[] {
  switch (str(sp.type)) {
    case 'Unconfined':
      if (annotation !== profileNameUnconfined) errs.push(fieldError.forbidden(path.child('type'), typeMismatchMsg));
      break;
    case 'RuntimeDefault':
      if (annotation !== profileRuntimeDefault && annotation !== deprecatedProfileDockerDefault) errs.push(fieldError.forbidden(path.child('type'), typeMismatchMsg));
      break;
    case 'Localhost':
      if (!annotation.startsWith(localhostProfileNamePrefix)) errs.push(fieldError.forbidden(path.child('type'), typeMismatchMsg));
      else if (typeof sp.localhostProfile !== 'string' || annotation.slice(localhostProfileNamePrefix.length) !== sp.localhostProfile) {
        errs.push(fieldError.forbidden(path.child('localhostProfile'), profileMismatchMsg));
      }
      break;
  }
  return errs;
}

function isProfile(v: unknown): v is SeccompProfile {
  return v !== null && typeof v === 'object';
}

/** validateSeccompAnnotationsAndFields: where both an annotation and a field are set, they match (pod, then each container). */
export function validateSeccompAnnotationsAndFields(
  annotations: Record<string, string> | undefined,
  spec: PodSpec,
  specPath: FieldPath,
  errs: FieldError[] = [],
): FieldError[] {
  const ann = annotations && typeof annotations === 'object' ? annotations : {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(ann, k);
  const podProfile = spec.securityContext?.seccompProfile;
  if (isProfile(podProfile) && has(seccompPodAnnotationKey)) {
    validateSeccompAnnotationAndFieldMatch(str(ann[seccompPodAnnotationKey]), podProfile, specPath.child('securityContext', 'seccompProfile'), errs);
  }
  visitContainersWithPath(spec, specPath, (c, p) => {
    const sp = c.securityContext?.seccompProfile;
    if (!isProfile(sp)) return;
    const key = seccompContainerAnnotationKeyPrefix + str(c.name);
    if (has(key)) validateSeccompAnnotationAndFieldMatch(str(ann[key]), sp, p.child('securityContext', 'seccompProfile'), errs);
  });
  return errs;
}
