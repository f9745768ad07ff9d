// Baseline `seccompProfile_baseline`. Upstream: policy/check_seccompProfile_baseline.go.
// - v1.0 to v1.18: the alpha annotations (`seccomp.security.alpha.kubernetes.io/pod` and
//   `container.seccomp.security.alpha.kubernetes.io/<name>` for the pod's containers) must be
//   `runtime/default`, `docker/default` or `localhost/*` when present.
// - v1.19+: pod and container securityContext.seccompProfile.type must be RuntimeDefault or
//   Localhost when a seccompProfile is set.
// Overridden at restricted from v1.19 by `seccompProfile_restricted`.

import { ALLOWED, forbidden, type Check, type CheckResult } from '../check.js';
import { containerPhrase, goQuote, joinQuote, pluralize, sortedSet } from '../format.js';
import { v1 } from '../levels.js';
import {
  annotations, annotationValue, containers, get, has, podSecurityContext, rec, text,
  type PodMetadataInput, type PodSpecInput,
} from '../podfields.js';

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';

const annotationKeyPod = 'seccomp.security.alpha.kubernetes.io/pod';
const annotationKeyContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function validAnnotationValue(v: string): boolean {
  return v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
}

/**
 * For a seccompProfile value: undefined when it is absent or has an allowed type, otherwise the
 * offending type as text (a profile without a type reports "", as Go's zero value would).
 */
export function badSeccompType(profile: unknown): string | undefined {
  if (!has(profile)) return undefined;
  const type = get(rec(profile), 'type');
  if (type === 'RuntimeDefault' || type === 'Localhost') return undefined;
  return text(type);
}

export function seccompProfileBaseline_1_0(podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const annos = annotations(podMetadata);
  const bad: string[] = [];
  const inspect = (key: string) => {
    if (!annos || !Object.prototype.hasOwnProperty.call(annos, key)) return;
    const v = annotationValue(annos[key]);
    if (!validAnnotationValue(v)) bad.push(`${key}=${goQuote(v)}`);
  };
  inspect(annotationKeyPod);
  for (const c of containers(podSpec)) inspect(annotationKeyContainerPrefix + c.name);

  if (bad.length === 0) return ALLOWED;
  const set = sortedSet(bad);
  return forbidden(
    'seccompProfile',
    `forbidden ${pluralize('annotation', 'annotations', set.length)} ${set.join(', ')}`,
  );
}

export function seccompProfileBaseline_1_19(_podMetadata: PodMetadataInput, podSpec: PodSpecInput): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];

  const podBad = badSeccompType(get(podSecurityContext(podSpec), 'seccompProfile'));
  if (podBad !== undefined) {
    badSetters.push('pod');
    badValues.push(podBad);
  }
  const badContainers: string[] = [];
  for (const c of containers(podSpec)) {
    const bad = badSeccompType(get(c.securityContext, 'seccompProfile'));
    if (bad !== undefined) {
      badContainers.push(c.name);
      badValues.push(bad);
    }
  }
  if (badContainers.length > 0) badSetters.push(containerPhrase(badContainers));

  if (badSetters.length === 0) return ALLOWED;
  return forbidden(
    'seccompProfile',
    `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  );
}

export const seccompProfileBaselineCheck: Check = {
  id: SECCOMP_BASELINE_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: v1(0), checkPod: seccompProfileBaseline_1_0 },
    { minimumVersion: v1(19), checkPod: seccompProfileBaseline_1_19 },
  ],
};
