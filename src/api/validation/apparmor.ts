// AppArmor (pkg/apis/core/validation, v1.32): the appArmorProfile field of pod and container
// security contexts (ValidateAppArmorProfileField), the deprecated per-container annotations
// (ValidateAppArmorPodAnnotations, ValidateAppArmorProfileFormat) and, on create and in pod
// templates, the rule that an annotation and the field that applies to its container agree
// (validateAppArmorAnnotationsAndFieldsMatchOnCreate; not checked for Windows pods).

import { fieldError, FieldPath, goQuote, type FieldError } from '../fielderrors.js';
import { goTrimSpace } from '../quantity.js';
import type { AppArmorProfile, PodSpec } from '../types.js';
import { sortedKeysOf } from './keys.js';
import { byteLength } from './names.js';
import { visitContainersWithPath } from './visitcontainers.js';

/** The types of ValidateAppArmorProfileField's NotSupported, in its order. */
export const appArmorProfileTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];
export const appArmorContainerAnnotationKeyPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const annotationValueRuntimeDefault = 'runtime/default';
const annotationValueUnconfined = 'unconfined';
const annotationValueLocalhostPrefix = 'localhost/';
/** PATH_MAX - 1. */
const maxLocalhostProfileLength = 4095;
const localhostRequiredMsg = 'must be set when AppArmor type is Localhost';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** ValidateAppArmorProfileField. */
export function validateAppArmorProfileField(profile: AppArmorProfile | undefined | null, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (profile === undefined || profile === null || typeof profile !== 'object') return errs;
  const lp = profile.localhostProfile;
  switch (str(profile.type)) {
    case 'Localhost': {
      if (!isSet(lp)) {
        errs.push(fieldError.required(path.child('localhostProfile'), localhostRequiredMsg));
        break;
      }
      const v = str(lp);
      const trimmed = goTrimSpace(v);
      if (trimmed !== v) errs.push(fieldError.invalid(path.child('localhostProfile'), v, 'must not be padded with whitespace'));
      else if (trimmed === '') errs.push(fieldError.required(path.child('localhostProfile'), localhostRequiredMsg));
      if (byteLength(v) > maxLocalhostProfileLength) errs.push(fieldError.tooLong(path.child('localhostProfile'), maxLocalhostProfileLength));
      break;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      if (isSet(lp)) errs.push(fieldError.invalid(path.child('localhostProfile'), str(lp), 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errs.push(fieldError.required(path.child('type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(fieldError.notSupported(path.child('type'), str(profile.type), appArmorProfileTypes));
  }
  return errs;
}

/** ValidateAppArmorProfileFormat: the error text, or undefined for an accepted annotation value. */
export function appArmorProfileFormatError(profile: string): string | undefined {
  if (profile === '' || profile === annotationValueRuntimeDefault || profile === annotationValueUnconfined) return undefined;
  if (!profile.startsWith(annotationValueLocalhostPrefix)) return `invalid AppArmor profile name: ${goQuote(profile)}`;
  return undefined;
}

const specRoot = FieldPath.root('spec');

/** podSpecHasContainer: any init, regular or ephemeral container of that name. */
function podSpecHasContainer(spec: PodSpec, name: string): boolean {
  let found = false;
  visitContainersWithPath(spec, specRoot, (c) => {
    if (str(c.name) === name) found = true;
    return !found;
  });
  return found;
}

/**
 * ValidateAppArmorPodAnnotations at `path` (metadata.annotations): each AppArmor annotation names
 * a container of the pod and holds a valid profile. Keys are visited in sorted order (Go's map
 * order is random).
 */
export function validateAppArmorPodAnnotations(annotations: Record<string, string> | undefined, spec: PodSpec, path: FieldPath, errs: FieldError[] = []): FieldError[] {
  if (!annotations || typeof annotations !== 'object') return errs;
  for (const k of sortedKeysOf(annotations)) {
    if (!k.startsWith(appArmorContainerAnnotationKeyPrefix)) continue;
    const containerName = k.slice(appArmorContainerAnnotationKeyPrefix.length);
    if (!podSpecHasContainer(spec, containerName)) errs.push(fieldError.invalid(path.key(k), containerName, 'container not found'));
    const p = str(annotations[k]);
    const msg = appArmorProfileFormatError(p);
    if (msg !== undefined) errs.push(fieldError.invalid(path.key(k), p, msg));
  }
  return errs;
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate: a container's annotation agrees with the profile that applies to it. */
export function validateAppArmorAnnotationsAndFieldsMatchOnCreate(
  annotations: Record<string, string> | undefined,
  spec: PodSpec,
  specPath: FieldPath,
  errs: FieldError[] = [],
): FieldError[] {
  if (spec.os?.name === 'windows') return errs;
  const ann = annotations && typeof annotations === 'object' ? annotations : {};
  const podProfile = spec.securityContext?.appArmorProfile;
  visitContainersWithPath(spec, specPath, (c, cPath) => {
    const own = c.securityContext?.appArmorProfile;
    const profile = isSet(own) ? own : podProfile;
    if (!isSet(profile) || typeof profile !== 'object') return;
    const key = appArmorContainerAnnotationKeyPrefix + str(c.name);
    if (!Object.prototype.hasOwnProperty.call(ann, key)) return;
    const annotation = str(ann[key]);
    const path = cPath.child('securityContext', 'appArmorProfile');
    switch (str(profile!.type)) {
      case 'Unconfined':
        if (annotation !== annotationValueUnconfined) errs.push(fieldError.forbidden(path.child('type'), 'apparmor type in annotation and field must match'));
        break;
      case 'RuntimeDefault':
        if (annotation !== annotationValueRuntimeDefault) errs.push(fieldError.forbidden(path.child('type'), 'apparmor type in annotation and field must match'));
        break;
      case 'Localhost':
        if (!annotation.startsWith(annotationValueLocalhostPrefix)) errs.push(fieldError.forbidden(path.child('type'), 'apparmor type in annotation and field must match'));
        else if (typeof profile!.localhostProfile !== 'string' || annotation.slice(annotationValueLocalhostPrefix.length) !== profile!.localhostProfile) {
          errs.push(fieldError.forbidden(path.child('localhostProfile'), 'apparmor profile in annotation and field must match'));
        }
        break;
    }
  });
  return errs;
}
