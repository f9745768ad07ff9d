// The ServiceAccount admission plugin for pod creates (plugin/pkg/admission/serviceaccount
// admission.go, Admit then Validate): a pod without a service account runs as `default`; the
// account it names must exist, else the pod is refused with upstream's wording; the account's
// imagePullSecrets are copied into a pod that lists none; mirror pods may not reference service
// accounts or secrets. Pure: the caller looks the account up (with upstream's retries for
// `default`, which the serviceaccounts controller creates shortly after a namespace).
// Unless the pod or its account turns automountServiceAccountToken off, the API token is mounted
// (mountServiceAccountToken, TokenVolumeSource): a projected `kube-api-access-<5 random>` volume
// with a 3607 s service account token, the cluster CA from kube-root-ca.crt and the namespace,
// read-only at /var/run/secrets/kubernetes.io/serviceaccount in every init and app container
// that has nothing mounted there (ephemeral containers are not touched: a create has none, and
// an ephemeralcontainers update is validated, never mutated). The random suffix comes from the
// caller (names.SimpleNameGenerator in the server); `bulkhead plan` looks no account up and so
// runs none of this plugin. Left out: the enforce-mountable-secrets annotation.

import type { Container, Pod, ServiceAccount, Volume, VolumeMount } from '../api/types.js';

export const defaultServiceAccountName = 'default';
export const mirrorPodAnnotationKey = 'kubernetes.io/config.mirror';
/** The prefix of the token volume's name (ServiceAccountVolumeName + "-"). */
export const serviceAccountVolumePrefix = 'kube-api-access-';
/** Where the token, CA and namespace are mounted (DefaultAPITokenMountPath). */
export const defaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The lifetime the plugin asks for (WarnOnlyBoundTokenExpirationSeconds). */
const tokenExpirationSeconds = 3607;
/** corev1.ProjectedVolumeSourceDefaultMode (0644), set explicitly as upstream does. */
const projectedDefaultMode = 420;

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

/** TokenVolumeSource: the projected volume of the API token, the cluster CA and the namespace. */
export function tokenVolumeSource(): NonNullable<Volume['projected']> {
  return {
    defaultMode: projectedDefaultMode,
    sources: [
      { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  } as NonNullable<Volume['projected']>;
}

/** shouldAutomount: the pod's choice, else the account's, else yes. */
export function shouldAutomount(account: ServiceAccount, pod: Pod): boolean {
  const fromPod = (pod.spec as { automountServiceAccountToken?: boolean | null }).automountServiceAccountToken;
  if (fromPod !== undefined && fromPod !== null) return fromPod;
  const fromAccount = (account as { automountServiceAccountToken?: boolean | null }).automountServiceAccountToken;
  if (fromAccount !== undefined && fromAccount !== null) return fromAccount;
  return true;
}

/**
 * mountServiceAccountToken: the mount in every init and app container without one at the token
 * path, and the volume unless the pod has a `kube-api-access-` volume already (its name is then
 * the mounts'). `spec` is changed in place (the caller's copy).
 */
export function mountServiceAccountToken(spec: Pod['spec'], generateName: (prefix: string) => string): void {
  const volumes = spec.volumes ?? [];
  const existing = volumes.find((v) => v.name.startsWith(serviceAccountVolumePrefix));
  const name = existing?.name ?? generateName(serviceAccountVolumePrefix);
  const mount: VolumeMount = { name, readOnly: true, mountPath: defaultAPITokenMountPath };
  let needsVolume = false;
  const withMount = (c: Container): Container => {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === defaultAPITokenMountPath)) return c;
    needsVolume = true;
    return { ...c, volumeMounts: [...(c.volumeMounts ?? []), { ...mount }] };
  };
  if (spec.initContainers) spec.initContainers = spec.initContainers.map(withMount);
  spec.containers = (spec.containers ?? []).map(withMount);
  if (!existing && needsVolume) spec.volumes = [...volumes, { name, projected: tokenVolumeSource() } as Volume];
}

export type ServiceAccountAdmission = { pod: Pod; message?: undefined } | { pod?: undefined; message: string };

/**
 * Admit + Validate for a pod create in `namespace`. `account` is the looked-up ServiceAccount
 * named by podServiceAccountName (undefined: not found). `message` is the inner text of a 403.
 * `generateName` names the token volume (names.SimpleNameGenerator); without it the token is
 * not mounted.
 */
export function admitPodServiceAccount(pod: Pod, namespace: string, account: ServiceAccount | undefined, generateName?: (prefix: string) => string): ServiceAccountAdmission {
  if (isMirrorPod(pod)) {
    if (pod.spec?.serviceAccountName) return { message: 'a mirror pod may not reference service accounts' };
    if (podReferencesSecrets(pod)) return { message: 'a mirror pod may not reference secrets' };
    const projections = (pod.spec?.volumes ?? []).flatMap((v) => ((v.projected as { sources?: { serviceAccountToken?: unknown }[] } | undefined)?.sources ?? []));
    if (projections.some((p) => p.serviceAccountToken)) return { message: 'a mirror pod may not use ServiceAccountToken volume projections' };
    return { pod };
  }
  const name = podServiceAccountName(pod)!;
  if (!account) return { message: `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found` };
  const spec: Pod['spec'] & { imagePullSecrets?: { name?: string }[] } = { ...pod.spec, serviceAccountName: name, serviceAccount: name };
  if (generateName && shouldAutomount(account, pod)) mountServiceAccountToken(spec, generateName);
  if ((spec.imagePullSecrets ?? []).length === 0 && (account.imagePullSecrets ?? []).length > 0) {
    spec.imagePullSecrets = (account.imagePullSecrets ?? []).map((s) => ({ name: s.name ?? '' }));
  }
  return { pod: { ...pod, spec } };
}
