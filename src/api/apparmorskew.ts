// The pod strategy's PrepareForCreate step applyAppArmorVersionSkew (pkg/registry/core/pod/
// strategy.go @ v1.32): the deprecated per-container AppArmor annotations and the appArmorProfile
// fields are kept in step on a new pod, so a kubelet that reads only one of them enforces the
// same profile. Not for Windows pods.
//   - A container without an annotation gets one from its own field, else from the pod's
//     (nothing for a Localhost profile without a name, nor an unknown type).
//   - A container with an annotation and no field of its own gets the field the annotation
//     stands for, unless that is invalid or equal to the pod's profile; the deprecation warning
//     is given when no valid field came of it, or when one was copied.

import { FieldPath } from './fielderrors.js';
import type { AppArmorProfile, Container, Pod } from './types.js';
import { validateAppArmorProfileField } from './validation/apparmor.js';

const annotationKeyPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const valueUnconfined = 'unconfined';
const valueRuntimeDefault = 'runtime/default';
const valueLocalhostPrefix = 'localhost/';
const deprecated = 'deprecated since v1.30; use the "appArmorProfile" field instead';

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** appArmorAnnotationForField: "" when the field stands for no annotation. */
function annotationForField(f: AppArmorProfile): string {
  switch (f.type) {
    case 'Unconfined':
      return valueUnconfined;
    case 'RuntimeDefault':
      return valueRuntimeDefault;
    case 'Localhost':
      return typeof f.localhostProfile === 'string' ? valueLocalhostPrefix + f.localhostProfile : '';
    default:
      return '';
  }
}

/** apparmorFieldForAnnotation: the profile an annotation value stands for, if any. */
function fieldForAnnotation(value: string): AppArmorProfile | undefined {
  if (value === valueUnconfined) return { type: 'Unconfined' };
  if (value === valueRuntimeDefault) return { type: 'RuntimeDefault' };
  if (value.startsWith(valueLocalhostPrefix)) {
    const localhostProfile = value.slice(valueLocalhostPrefix.length);
    if (localhostProfile !== '') return { type: 'Localhost', localhostProfile };
  }
  return undefined;
}

/** Semantic equality of two profiles (the pod's may be absent). */
function sameProfile(a: AppArmorProfile, b: AppArmorProfile | undefined): boolean {
  return !!b && a.type === b.type && (a.localhostProfile ?? undefined) === (b.localhostProfile ?? undefined);
}

/** Applies the step to `pod` in place (the caller's own copy) and returns the warnings it gives. */
export function applyAppArmorVersionSkew(pod: Pod): string[] {
  const warnings: string[] = [];
  const spec = pod.spec;
  if (!spec || spec.os?.name === 'windows') return warnings;
  const podProfile = set(spec.securityContext?.appArmorProfile) ? spec.securityContext!.appArmorProfile : undefined;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    const cs = spec[list] as Container[] | undefined;
    if (!Array.isArray(cs)) continue;
    for (const c of cs) {
      if (!c || typeof c !== 'object') continue;
      const key = annotationKeyPrefix + (c.name ?? '');
      const annotations = pod.metadata?.annotations;
      const containerProfile = set(c.securityContext?.appArmorProfile) ? c.securityContext!.appArmorProfile : undefined;
      if (!annotations || !Object.hasOwn(annotations, key)) {
        const from = containerProfile ?? podProfile;
        const value = from ? annotationForField(from) : '';
        if (value !== '') {
          pod.metadata ??= {};
          pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [key]: value };
        }
        continue;
      }
      if (containerProfile) continue;
      let field = fieldForAnnotation(annotations[key] ?? '');
      if (field && validateAppArmorProfileField(field, FieldPath.root('')).length > 0) field = undefined;
      let warn = field === undefined;
      if (field && !sameProfile(field, podProfile)) {
        c.securityContext = { ...(c.securityContext ?? {}), appArmorProfile: field };
        warn = true;
      }
      if (warn) warnings.push(`metadata.annotations[${key}]: ${deprecated}`);
    }
  }
  return warnings;
}
