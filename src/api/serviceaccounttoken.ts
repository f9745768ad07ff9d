// Service account tokens as rules, at v1.32: the TokenRequest's validation
// (pkg/apis/authentication/validation ValidateTokenRequest) and defaults
// (pkg/apis/authentication/v1 SetDefaults_TokenRequestSpec), the claims a token carries
// (pkg/serviceaccount/claims.go Claims, with the ServiceAccountTokenJTI,
// ServiceAccountTokenPodNodeInfo and ServiceAccountTokenNodeBinding gates on, as in 1.32), the
// checks a presented token passes (claims.go Validate, with go-jose's time checks and their
// one-minute leeway), and the user a valid token authenticates as
// (k8s.io/apiserver/pkg/authentication/serviceaccount/util.go). Signing and the key are I/O:
// src/apiserver/serviceaccounttokens.ts.

import { fieldError, type FieldError } from './fielderrors.js';
import type { KubeObject } from './types.js';

export const serviceAccountUsernamePrefix = 'system:serviceaccount:';
export const allServiceAccountsGroup = 'system:serviceaccounts';
export const serviceAccountGroupPrefix = 'system:serviceaccounts:';

/**
 * kube-apiserver's --service-account-issuer as k3s sets it for a single-binary cluster
 * (`https://kubernetes.default.svc.` + the cluster domain); --api-audiences defaults to it.
 */
export const defaultServiceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

/** SetDefaults_TokenRequestSpec: an hour. */
export const defaultTokenExpirationSeconds = 3600;
/** ValidateTokenRequest's bounds (and the projected volume source's). */
export const minTokenExpirationSeconds = 600;
export const maxTokenExpirationSeconds = 2 ** 32;
/** The lifetime the ServiceAccount admission plugin asks for (claims.go WarnOnlyBoundTokenExpirationSeconds). */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** What such a token really lives for under --service-account-extend-token-expiration (on by default). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;
/** go-jose's jwt.DefaultLeeway. */
export const claimsLeewaySeconds = 60;

/** The keys of a service account user's extra (util.go and user.CredentialIDKey). */
export const serviceAccountExtraKeys = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUID: 'authentication.kubernetes.io/node-uid',
  credentialID: 'authentication.kubernetes.io/credential-id',
} as const;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${serviceAccountGroupPrefix}${namespace}`];
}

/** authenticationv1.BoundObjectReference. */
export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

/** authenticationv1.TokenRequest. */
export interface TokenRequest extends KubeObject {
  spec: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectReference };
  status?: { token: string; expirationTimestamp: string };
}

/** SetDefaults_TokenRequestSpec. */
export function defaultTokenRequestSpec(spec: TokenRequest['spec']): TokenRequest['spec'] {
  return spec.expirationSeconds === undefined || spec.expirationSeconds === null ? { ...spec, expirationSeconds: defaultTokenExpirationSeconds } : spec;
}

/** ValidateTokenRequest. */
export function validateTokenRequest(tr: TokenRequest): FieldError[] {
  const errs: FieldError[] = [];
  const seconds = tr.spec.expirationSeconds ?? defaultTokenExpirationSeconds;
  if (seconds < minTokenExpirationSeconds) errs.push(fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > maxTokenExpirationSeconds) errs.push(fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

/** schema.FromAPIVersionAndKind(...).String(): `group/version, Kind=kind`. */
export function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/** Which object a boundObjectRef names: a core Pod, Secret or Node, or the 400 upstream answers. */
export function boundObjectKind(ref: BoundObjectReference): { kind: 'Pod' | 'Secret' | 'Node' } | { badRequest: string } {
  const apiVersion = ref.apiVersion ?? '';
  const kind = ref.kind ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (group === '' && (kind === 'Pod' || kind === 'Secret' || kind === 'Node')) return { kind };
  return { badRequest: `cannot bind token to object of type ${gvkString(apiVersion, kind)}` };
}

/** token.go's messages for a bound object that is not the one the request names. */
export const boundObjectMessages = {
  podServiceAccount: (serviceAccount: string) => `cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`,
  uidMismatch: (uid: string) => `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
};

export interface ObjectRefClaim {
  name: string;
  uid: string;
}

/** The `kubernetes.io` private claim; keys in the order Go's map encoding writes them. */
export interface KubernetesClaims {
  namespace: string;
  node?: ObjectRefClaim;
  pod?: ObjectRefClaim;
  secret?: ObjectRefClaim;
  serviceaccount: ObjectRefClaim;
  warnafter?: number;
}

/**
 * A token's payload. go-jose merges the public and private claims into one map, so they come
 * out with their keys sorted; the object is built in that order.
 */
export interface ServiceAccountClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti?: string;
  'kubernetes.io': KubernetesClaims;
  nbf: number;
  sub: string;
}

const ref = (o: KubeObject): ObjectRefClaim => ({ name: o.metadata?.name ?? '', uid: o.metadata?.uid ?? '' });

/** What a token is bound to: a pod (and the node it runs on, when known), a secret, or a node. */
export interface BoundObjects {
  pod?: KubeObject;
  /** A pod's node: only its name when the Node object does not exist. */
  node?: KubeObject;
  secret?: KubeObject;
}

/**
 * claims.go Claims: issued and valid from `now` (whole seconds), expiring `expirationSeconds`
 * later, with `warnafter` when the lifetime was extended.
 */
export function serviceAccountClaims(opts: {
  issuer: string;
  serviceAccount: KubeObject;
  bound: BoundObjects;
  expirationSeconds: number;
  warnAfterSeconds?: number;
  audiences: string[];
  now: Date;
  jti: string;
}): ServiceAccountClaims {
  const sa = opts.serviceAccount;
  const namespace = sa.metadata?.namespace ?? '';
  const now = Math.floor(opts.now.getTime() / 1000);
  const k: KubernetesClaims = { namespace, serviceaccount: ref(sa) };
  const { pod, node, secret } = opts.bound;
  if (pod) {
    if (node) k.node = ref(node);
    k.pod = ref(pod);
  } else if (secret) k.secret = ref(secret);
  else if (node) k.node = ref(node);
  const ordered: KubernetesClaims = {
    namespace: k.namespace,
    ...(k.node ? { node: k.node } : {}),
    ...(k.pod ? { pod: k.pod } : {}),
    ...(k.secret ? { secret: k.secret } : {}),
    serviceaccount: k.serviceaccount,
    ...(opts.warnAfterSeconds ? { warnafter: now + opts.warnAfterSeconds } : {}),
  };
  return {
    aud: [...opts.audiences],
    exp: now + opts.expirationSeconds,
    iat: now,
    iss: opts.issuer,
    jti: opts.jti,
    'kubernetes.io': ordered,
    nbf: now,
    sub: serviceAccountUsername(namespace, sa.metadata?.name ?? ''),
  };
}

/**
 * The token REST's expiration rules: --service-account-max-token-expiration (0: none) shortens a
 * longer request, with a warning; a pod-bound request for the admission plugin's 3607 s meant
 * for the API server's own audiences is extended to a year, and warned about after 3607 s.
 */
export function tokenLifetime(opts: {
  requestedSeconds: number;
  maxSeconds: number;
  extend: boolean;
  podBound: boolean;
  audiences: readonly string[];
  apiAudiences: readonly string[];
}): { expirationSeconds: number; tokenSeconds: number; warnAfterSeconds?: number; warning?: string } {
  let seconds = opts.requestedSeconds;
  let warning: string | undefined;
  if (opts.maxSeconds > 0 && seconds > opts.maxSeconds) {
    warning = `requested expiration of ${seconds} seconds shortened to ${opts.maxSeconds} seconds`;
    seconds = opts.maxSeconds;
  }
  const kubeAudiences = opts.audiences.every((a) => opts.apiAudiences.includes(a));
  if (opts.extend && opts.podBound && seconds === warnOnlyBoundTokenExpirationSeconds && kubeAudiences) {
    return { expirationSeconds: seconds, tokenSeconds: expirationExtensionSeconds, warnAfterSeconds: seconds, ...(warning ? { warning } : {}) };
  }
  return { expirationSeconds: seconds, tokenSeconds: seconds, ...(warning ? { warning } : {}) };
}

/** The objects a token's claims name, as they are now (undefined: not found). */
export interface ClaimedObjects {
  serviceAccount?: KubeObject;
  pod?: KubeObject;
  secret?: KubeObject;
  node?: KubeObject;
}

/** apiserverserviceaccount.ServiceAccountInfo. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  credentialID?: string;
}

/** The time checks go-jose's Claims.Validate makes (in its order), with claims.go's messages. */
export function claimsTimeError(c: Partial<ServiceAccountClaims>, now: Date): string | undefined {
  const t = now.getTime() / 1000;
  if (typeof c.nbf === 'number' && t + claimsLeewaySeconds < c.nbf) return 'service account token is not valid yet';
  if (typeof c.exp === 'number' && t - claimsLeewaySeconds > c.exp) return 'service account token has expired';
  if (typeof c.iat === 'number' && t + claimsLeewaySeconds < c.iat) return 'service account token is issued in the future';
  return undefined;
}

const deletedBefore = (o: KubeObject, limit: number) => {
  const ts = o.metadata?.deletionTimestamp;
  return !!ts && Date.parse(ts) < limit;
};

/**
 * claims.go Validate, after the signature, issuer and audience were checked: the times, then
 * the service account (same uid, not deleted a leeway ago), and the secret, pod or node the
 * token is bound to. The account's info, or the error that makes the token invalid.
 */
export function validateServiceAccountClaims(c: ServiceAccountClaims, now: Date, objects: ClaimedObjects): { info: ServiceAccountInfo } | { error: string } {
  const timeError = claimsTimeError(c, now);
  if (timeError) return { error: timeError };
  const limit = now.getTime() - claimsLeewaySeconds * 1000;
  const k = c['kubernetes.io'] ?? ({} as KubernetesClaims);
  const namespace = k.namespace ?? '';
  const saRef = k.serviceaccount ?? { name: '', uid: '' };
  const sa = objects.serviceAccount;
  if (!sa) return { error: `serviceaccounts "${saRef.name}" not found` };
  if ((sa.metadata?.uid ?? '') !== saRef.uid) return { error: `service account UID (${sa.metadata?.uid ?? ''}) does not match claim (${saRef.uid})` };
  if (deletedBefore(sa, limit)) return { error: `service account ${namespace}/${saRef.name} has been deleted` };
  const invalidated = { error: 'service account token has been invalidated' };
  if (k.secret) {
    const s = objects.secret;
    if (!s) return invalidated;
    if (k.secret.uid !== (s.metadata?.uid ?? '')) return { error: `secret UID (${s.metadata?.uid ?? ''}) does not match service account secret ref claim (${k.secret.uid})` };
    if (deletedBefore(s, limit)) return invalidated;
  }
  const info: ServiceAccountInfo = { namespace, name: saRef.name, uid: saRef.uid };
  if (k.pod) {
    const p = objects.pod;
    if (!p) return invalidated;
    if (k.pod.uid !== (p.metadata?.uid ?? '')) return { error: `pod UID (${p.metadata?.uid ?? ''}) does not match service account pod ref claim (${k.pod.uid})` };
    if (deletedBefore(p, limit)) return invalidated;
    info.podName = k.pod.name;
    info.podUID = k.pod.uid;
  }
  if (k.node) {
    if (k.pod) {
      // A pod-bound token's node is information only.
      info.nodeName = k.node.name;
      info.nodeUID = k.node.uid;
    } else {
      const n = objects.node;
      if (!n) return invalidated;
      if (k.node.uid !== (n.metadata?.uid ?? '')) return { error: `node UID (${n.metadata?.uid ?? ''}) does not match service account node ref claim (${k.node.uid})` };
      if (deletedBefore(n, limit)) return invalidated;
      info.nodeName = k.node.name;
      info.nodeUID = k.node.uid;
    }
  }
  if (c.jti) info.credentialID = `JTI=${c.jti}`;
  return { info };
}

/** ServiceAccountInfo.UserInfo, with system:authenticated as the authenticator union adds it. */
export function serviceAccountUser(info: ServiceAccountInfo, authenticatedGroup: string): { name: string; uid: string; groups: string[]; extra?: Record<string, string[]> } {
  const extra: Record<string, string[]> = {};
  if (info.podName && info.podUID) {
    extra[serviceAccountExtraKeys.podName] = [info.podName];
    extra[serviceAccountExtraKeys.podUID] = [info.podUID];
  }
  if (info.credentialID) extra[serviceAccountExtraKeys.credentialID] = [info.credentialID];
  if (info.nodeName) {
    extra[serviceAccountExtraKeys.nodeName] = [info.nodeName];
    if (info.nodeUID) extra[serviceAccountExtraKeys.nodeUID] = [info.nodeUID];
  }
  return {
    name: serviceAccountUsername(info.namespace, info.name),
    uid: info.uid,
    groups: [...serviceAccountGroups(info.namespace), authenticatedGroup],
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}
