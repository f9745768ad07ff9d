// The ServiceAccount admission plugin for pod creates (plugin/pkg/admission/serviceaccount
// admission.go, Admit then Validate): a pod without a service account runs as `default`; the
// account it names must exist, else the pod is refused with upstream's wording; the account's
// imagePullSecrets are copied into a pod that lists none; mirror pods may not reference service
// accounts or secrets. Pure: the caller looks the account up (with upstream's retries for
// `default`, which the serviceaccounts controller creates shortly after a namespace).
// Left out: automounting the API token (upstream adds a projected `kube-api-access-*` volume;
// Bulkhead issues no service account tokens) and the enforce-mountable-secrets annotation.

import type { Pod, ServiceAccount } from '../api/types.js';

export const defaultServiceAccountName = 'default';
export const mirrorPodAnnotationKey = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: Pod): boolean {
  return Object.prototype.hasOwnProperty.call(pod.metadata?.annotations ?? {}, mirrorPodAnnotationKey);
}

/**
 * The account a pod will run as: spec.serviceAccountName, else the deprecated
 * spec.serviceAccount (as the v1 conversion reads it), else `default`. Undefined for a mirror
 * pod, which is not defaulted.
 */
export function podServiceAccountName(pod: Pod): string | undefined {
  if (isMirrorPod(pod)) return undefined;
  return pod.spec?.serviceAccountName || pod.spec?.serviceAccount || defaultServiceAccountName;
}

/** The parts of a pod spec that can name a secret (api/types.ts does not model them all). */
interface SecretRefsView {
  imagePullSecrets?: { name?: string }[];
  volumes?: { secret?: unknown; projected?: { sources?: { secret?: unknown }[] } }[];
  containers?: ContainerRefsView[];
  initContainers?: ContainerRefsView[];
  ephemeralContainers?: ContainerRefsView[];
}
interface ContainerRefsView {
  env?: { valueFrom?: { secretKeyRef?: unknown } }[];
  envFrom?: { secretRef?: unknown }[];
}

function podReferencesSecrets(pod: Pod): boolean {
  const spec = (pod.spec ?? {}) as SecretRefsView;
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  if ((spec.volumes ?? []).some((v) => v.secret || (v.projected?.sources ?? []).some((s) => s.secret))) return true;
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])];
  return containers.some((c) => (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef) || (c.envFrom ?? []).some((e) => e.secretRef));
}

export type ServiceAccountAdmission = { pod: Pod; message?: undefined } | { pod?: undefined; message: string };

/**
 * Admit + Validate for a pod create in `namespace`. `account` is the looked-up ServiceAccount
 * named by podServiceAccountName (undefined: not found). `message` is the inner text of a 403.
 */
export function admitPodServiceAccount(pod: Pod, namespace: string, account: ServiceAccount | undefined): ServiceAccountAdmission {
  if (isMirrorPod(pod)) {
    if (pod.spec?.serviceAccountName) return { message: 'a mirror pod may not reference service accounts' };
    if (podReferencesSecrets(pod)) return { message: 'a mirror pod may not reference secrets' };
    return { pod };
  }
  const name = podServiceAccountName(pod)!;
  if (!account) return { message: `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found` };
  const spec: Pod['spec'] & { imagePullSecrets?: { name?: string }[] } = { ...pod.spec, serviceAccountName: name, serviceAccount: name };
  if ((spec.imagePullSecrets ?? []).length === 0 && (account.imagePullSecrets ?? []).length > 0) {
    spec.imagePullSecrets = (account.imagePullSecrets ?? []).map((s) => ({ name: s.name ?? '' }));
  }
  return { pod: { ...pod, spec } };
}
