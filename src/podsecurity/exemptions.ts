// Pod Security exemptions (upstream pod-security-admission admission/admission.go exemptNamespace,
// exemptUser, exemptRuntimeClass and where ValidatePod, ValidatePodController, EvaluatePod and
// ValidateNamespace ask them). Exact string matches against the configuration's lists; an empty
// name is never exempt.

import type { PodSecurityExemptions } from './config.js';

/** The `exempt` audit annotation's values: what made a request exempt. */
export type Exemption = 'namespace' | 'user' | 'runtimeClass';

function listed(name: string | undefined, list: readonly string[] | undefined): boolean {
  return !!name && !!list && list.includes(name);
}

/** The request's namespace (a pod's, a pod controller's, or a namespace's own name) is exempt. */
export function isExemptNamespace(exemptions: PodSecurityExemptions, namespace: string | undefined): boolean {
  return listed(namespace, exemptions.namespaces);
}

/** The requesting user (after impersonation) is exempt. No user (an offline plan): never. */
export function isExemptUser(exemptions: PodSecurityExemptions, username: string | undefined): boolean {
  return listed(username, exemptions.usernames);
}

/** The pod's (or pod template's) spec.runtimeClassName is exempt. */
export function isExemptRuntimeClass(exemptions: PodSecurityExemptions, runtimeClassName: unknown): boolean {
  return typeof runtimeClassName === 'string' && listed(runtimeClassName, exemptions.runtimeClasses);
}

/**
 * The exemption a pod or pod controller request gets before anything is evaluated, in upstream's
 * order: the namespace, then the user. A RuntimeClass exemption comes later, inside the
 * evaluation (after the namespace's policy is read and found not fully privileged), since it
 * needs the pod spec.
 */
export function requestExemption(exemptions: PodSecurityExemptions, namespace: string | undefined, username: string | undefined): Exemption | undefined {
  if (isExemptNamespace(exemptions, namespace)) return 'namespace';
  if (isExemptUser(exemptions, username)) return 'user';
  return undefined;
}
