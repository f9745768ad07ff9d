// Baseline `appArmorProfile` (v1.0+): the pod and container appArmorProfile.type must be
// RuntimeDefault, Localhost or unset; the deprecated per-container annotations must be empty,
// `runtime/default` or `localhost/*`. Upstream: policy/check_appArmorProfile.go.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, goQuote, joinQuote, pluralize, sortedSet, goCompare } from '../format.js';
import { v1 } from '../levels.js';
import {
  annotations, annotationValue, containers, get, has, podSecurityContext, rec, text,
  type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

const annotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

function allowedAnnotationValue(v: string): boolean {
  return v === '' || v === 'runtime/default' || v.startsWith('localhost/');
}

/** The bad profile type of a present appArmorProfile, or undefined when it is allowed/absent. */
function badProfileType(profile: unknown): string | undefined {
  if (!has(profile)) return undefined;
  const type = get(rec(profile), 'type');
  if (type === 'RuntimeDefault' || type === 'Localhost') return undefined;
  return text(type);
}

export function appArmorProfile_1_0(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];

  const podBad = badProfileType(get(podSecurityContext(podSpec), 'appArmorProfile'));
  if (podBad !== undefined) {
    badSetters.push('pod');
    badValues.push(podBad);
  }

  const badContainers: string[] = [];
  for (const c of containers(podSpec)) {
    const bad = badProfileType(get(c.securityContext, 'appArmorProfile'));
    if (bad !== undefined) {
      badContainers.push(c.name);
      badValues.push(bad);
    }
  }
  if (badContainers.length > 0) badSetters.push(containerPhrase(badContainers));

  const forbiddenAnnotations: string[] = [];
  const annos = annotations(podMetadata);
  if (annos) {
    for (const k of Object.keys(annos)) {
      if (!k.startsWith(annotationPrefix)) continue;
      const v = annotationValue(annos[k]);
      if (!allowedAnnotationValue(v)) forbiddenAnnotations.push(`${k}=${goQuote(v)}`);
    }
  }

  const badValueList = sortedSet(badValues);
  if (forbiddenAnnotations.length > 0) {
    forbiddenAnnotations.sort(goCompare);
    badValueList.push(...forbiddenAnnotations);
    badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));
  }

  if (badSetters.length === 0) return ALLOWED;
  return forbidden(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  );
}

export const appArmorProfileCheck: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumVersion: v1(0), checkPod: appArmorProfile_1_0 }],
};
