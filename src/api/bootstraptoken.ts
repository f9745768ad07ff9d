// Bootstrap tokens, after k8s.io/cluster-bootstrap (token/api/types.go, token/util,
// secret/util) and the API server's bootstrap token authenticator
// (plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go): a token `<id>.<secret>` is kept
// as the Secret `bootstrap-token-<id>` of type bootstrap.kubernetes.io/token in kube-system, and
// authenticates as system:bootstrap:<id> in group system:bootstrappers (plus the token's
// auth-extra-groups) while unexpired and marked for authentication. Pure.

import type { Secret } from './types.js';

export const bootstrapTokenSecretType = 'bootstrap.kubernetes.io/token';
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';
export const bootstrapTokenNamespace = 'kube-system';
export const bootstrapUserPrefix = 'system:bootstrap:';
export const bootstrappersGroup = 'system:bootstrappers';
/** kubeadm's extra group for node tokens, to which it binds node bootstrap and auto-approval. */
export const defaultNodeTokenGroup = 'system:bootstrappers:kubeadm:default-node-token';

/** The Secret's data keys (token/api/types.go). */
export const tokenKeys = {
  description: 'description',
  id: 'token-id',
  secret: 'token-secret',
  expiration: 'expiration',
  usagePrefix: 'usage-bootstrap-',
  extraGroups: 'auth-extra-groups',
} as const;

export const tokenUsages = ['authentication', 'signing'] as const;

const tokenRe = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const groupRe = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** The id and secret of a well-formed token, or undefined. */
export function parseToken(token: string): { id: string; secret: string } | undefined {
  const m = tokenRe.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/** bootstraputil.ValidateBootstrapGroupName's message, or undefined when valid. */
export function bootstrapGroupProblem(group: string): string | undefined {
  return groupRe.test(group) ? undefined : `bootstrap group "${group}" is invalid (must match ${groupRe.source.replace(/^\^|\$$/g, '')})`;
}

export interface BootstrapTokenSpec {
  id: string;
  secret: string;
  description?: string;
  /** RFC 3339, or none for a token that never expires. */
  expiration?: string;
  usages: readonly string[];
  extraGroups: readonly string[];
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** The Secret that holds a token, as kubeadm's BootstrapToken.ToSecret writes it. */
export function bootstrapTokenSecret(t: BootstrapTokenSpec): Secret {
  const data: Record<string, string> = { [tokenKeys.id]: b64(t.id), [tokenKeys.secret]: b64(t.secret) };
  if (t.description) data[tokenKeys.description] = b64(t.description);
  if (t.expiration) data[tokenKeys.expiration] = b64(t.expiration);
  for (const u of t.usages) data[`${tokenKeys.usagePrefix}${u}`] = b64('true');
  if (t.extraGroups.length) data[tokenKeys.extraGroups] = b64(t.extraGroups.join(','));
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${bootstrapTokenSecretPrefix}${t.id}`, namespace: bootstrapTokenNamespace },
    type: bootstrapTokenSecretType,
    data,
  };
}

/** secretutil.GetData: a data value decoded, '' when absent. */
export function secretValue(secret: Secret, key: string): string {
  const v = secret.data?.[key];
  return v ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** The token a Secret holds, read back (for `token list`); undefined when it is not one. */
export function tokenFromSecret(secret: Secret): BootstrapTokenSpec | undefined {
  if (secret.type !== bootstrapTokenSecretType) return undefined;
  const id = secretValue(secret, tokenKeys.id);
  const sec = secretValue(secret, tokenKeys.secret);
  if (!id || !sec) return undefined;
  const groups = secretValue(secret, tokenKeys.extraGroups);
  const description = secretValue(secret, tokenKeys.description);
  const expiration = secretValue(secret, tokenKeys.expiration);
  return {
    id,
    secret: sec,
    ...(description ? { description } : {}),
    ...(expiration ? { expiration } : {}),
    usages: tokenUsages.filter((u) => secretValue(secret, `${tokenKeys.usagePrefix}${u}`) === 'true'),
    extraGroups: groups ? groups.split(',') : [],
  };
}

/** bootstraputil.HasExpired: an expiration that does not parse counts as expired. */
export function tokenExpired(secret: Secret, now: Date): boolean {
  const exp = secretValue(secret, tokenKeys.expiration);
  if (!exp) return false;
  const t = Date.parse(exp);
  return Number.isNaN(t) || now.getTime() > t;
}

export type BootstrapAuthResult = { user: { name: string; groups: string[] } } | { rejected: string };

/** Constant-time string comparison (subtle.ConstantTimeCompare) without Node's I/O modules. */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The bootstrap token authenticator's decision for `token` given the Secret found for its id
 * (undefined when there is none). `rejected` says why the token does not authenticate; as
 * upstream, the caller answers 401 without telling the client which rule failed.
 */
export function authenticateBootstrapToken(token: string, secret: Secret | undefined, now: Date): BootstrapAuthResult {
  const parsed = parseToken(token);
  if (!parsed) return { rejected: 'not a bootstrap token' };
  const name = `${bootstrapTokenSecretPrefix}${parsed.id}`;
  if (!secret) return { rejected: `no secret ${bootstrapTokenNamespace}/${name}` };
  if (secret.metadata?.deletionTimestamp) return { rejected: `secret ${name} is being deleted` };
  if (secret.type !== bootstrapTokenSecretType) return { rejected: `secret ${name} has type "${secret.type ?? ''}", not "${bootstrapTokenSecretType}"` };
  if (!sameString(secretValue(secret, tokenKeys.secret), parsed.secret)) return { rejected: `token secret of ${name} does not match` };
  if (secretValue(secret, tokenKeys.id) !== parsed.id) return { rejected: `token id of ${name} does not match` };
  if (tokenExpired(secret, now)) return { rejected: `token ${parsed.id} has expired` };
  if (secretValue(secret, `${tokenKeys.usagePrefix}authentication`) !== 'true') return { rejected: `token ${parsed.id} is not marked for authentication` };
  const extra = secretValue(secret, tokenKeys.extraGroups);
  const groups = [bootstrappersGroup];
  for (const g of extra ? extra.split(',') : []) {
    const problem = bootstrapGroupProblem(g);
    if (problem) return { rejected: problem };
    if (!groups.includes(g)) groups.push(g);
  }
  return { user: { name: `${bootstrapUserPrefix}${parsed.id}`, groups } };
}
