// ValidatePodSpecificAnnotations (pkg/apis/core/validation, v1.32), for pods and pod
// templates, in its order: the mirror-pod annotation needs spec.nodeName, the
// pod-deletion-cost annotation is an int32, the seccomp annotations hold valid profiles, and
// each AppArmor annotation names a container and a valid profile.
//
// Not covered: the scheduler.alpha.kubernetes.io/tolerations annotation (JSON tolerations,
// validated as spec.tolerations are). PodDeletionCost is on, so a bad cost is refused unless the
// pod being updated already held one (AllowInvalidPodDeletionCost).

import { fieldError, type FieldError, type FieldPath } from '../fielderrors.js';
import { parsePodDeletionCost, podDeletionCostAnnotation } from '../poddeletioncost.js';
import type { PodSpec } from '../types.js';
import { validateAppArmorPodAnnotations } from './apparmor.js';
import { validateSeccompPodAnnotations } from './seccomp.js';

/** MirrorPodAnnotationKey: set by the kubelet on the API copy of a static pod. */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

export function validatePodSpecificAnnotations(
  annotations: Record<string, string> | undefined,
  spec: PodSpec,
  path: FieldPath,
  allowInvalidPodDeletionCost = false,
  errs: FieldError[] = [],
): FieldError[] {
  if (!annotations || typeof annotations !== 'object') return errs;
  const has = (k: string) => Object.prototype.hasOwnProperty.call(annotations, k);
  if (has(mirrorPodAnnotation) && !(typeof spec.nodeName === 'string' && spec.nodeName.length > 0)) {
    errs.push(fieldError.invalid(path.key(mirrorPodAnnotation), String(annotations[mirrorPodAnnotation] ?? ''), 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!allowInvalidPodDeletionCost && has(podDeletionCostAnnotation)) {
    const v = String(annotations[podDeletionCostAnnotation] ?? '');
    if (parsePodDeletionCost(v) === undefined) errs.push(fieldError.invalid(path.key(podDeletionCostAnnotation), v, 'must be a 32bit integer'));
  }
  validateSeccompPodAnnotations(annotations, path, errs);
  validateAppArmorPodAnnotations(annotations, spec, path, errs);
  return errs;
}

/** GetValidationOptionsFromPodSpecAndMeta's AllowInvalidPodDeletionCost for an update from `old`. */
export function hasInvalidPodDeletionCost(annotations: Record<string, string> | undefined): boolean {
  const v = annotations?.[podDeletionCostAnnotation];
  return typeof v === 'string' && parsePodDeletionCost(v) === undefined;
}
