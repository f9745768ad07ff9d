// User impersonation, as kube-apiserver's WithImpersonation filter
// (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go, the legacy path: the
// ConstrainedImpersonation gate is off). After authentication, the Impersonate-User,
// Impersonate-Group (repeated), Impersonate-Uid and Impersonate-Extra-<key> headers ask to act as
// another user; the requester must be allowed the verb `impersonate` on each thing asked for
// (users, or serviceaccounts in the namespace for system:serviceaccount:<ns>:<name>; groups; uids
// and userextras/<key> in authentication.k8s.io), and from then on the request is the
// impersonated user's: authorization, admission, access reviews, SelfSubjectReview. Upstream adds
// nothing to the new user's extra about who impersonated it (only the audit log records that, and
// Bulkhead has no audit log). The headers are never passed on (nodes/proxy and the streaming
// proxy drop them).

import type { IncomingMessage } from 'node:http';
import { isDNS1123Label, isDNS1123Subdomain } from '../api/validation/names.js';
import { authenticatedGroup, unauthenticatedGroup, type AuthorizationAttributes, type AuthorizationDecision } from './authorizer.js';
import type { UserInfo } from './rest.js';
import { statusErrors } from './status.js';

export const impersonateUserHeader = 'impersonate-user';
export const impersonateGroupHeader = 'impersonate-group';
export const impersonateUidHeader = 'impersonate-uid';
export const impersonateExtraPrefix = 'impersonate-extra-';

/** user.Anonymous and the groups the anonymous authenticator gives it. */
export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: [unauthenticatedGroup] };

const serviceAccountPrefix = 'system:serviceaccount:';

/** One thing asked for (upstream's v1.ObjectReference, in its field order). */
export interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  /** authentication.k8s.io/v1 for UserExtra and UID. */
  apiVersion?: string;
  /** UserExtra: the extra's key. */
  fieldPath?: string;
}

/** The request headers, by lowercase name, each with every value it was sent with (IncomingMessage.headersDistinct). */
export type HeaderValues = Record<string, string[] | undefined>;

/** serviceaccount.SplitUsername: the namespace and name of system:serviceaccount:<ns>:<name>, else undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length || isDNS1123Subdomain(name).length) return undefined;
  return { namespace, name };
}

/** serviceaccount.MakeGroupNames. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/**
 * unescapeExtraKey: url.PathUnescape, the key kept as sent when a `%` is not followed by two hex
 * digits. Decoded bytes that are not UTF-8 become U+FFFD, as Go's JSON encoder writes them.
 */
export function unescapeExtraKey(encoded: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
  return encoded.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/** Go's %v of a []v1.ObjectReference: each struct's fields, space-separated, in braces. */
function formatRequests(requests: readonly ImpersonationRequest[]): string {
  const one = (r: ImpersonationRequest) => `{${[r.kind, r.namespace ?? '', r.name, '', r.apiVersion ?? '', '', r.fieldPath ?? ''].join(' ')}}`;
  return `[${requests.map(one).join(' ')}]`;
}

/**
 * buildImpersonationRequests: what the headers ask for, in upstream's order (user, groups,
 * extras, uid). Groups, extras or a uid without a user are a 400.
 */
export function impersonationRequests(headers: HeaderValues): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = headers[impersonateUserHeader]?.[0] ?? '';
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: user });
  }
  const groups = headers[impersonateGroupHeader] ?? [];
  for (const g of groups) out.push({ kind: 'Group', name: g });
  let hasExtra = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(impersonateExtraPrefix) || !values) continue;
    hasExtra = true;
    const key = unescapeExtraKey(header.slice(impersonateExtraPrefix.length).toLowerCase());
    for (const v of values) out.push({ kind: 'UserExtra', apiVersion: 'authentication.k8s.io/v1', name: v, fieldPath: key });
  }
  const uid = headers[impersonateUidHeader]?.[0] ?? '';
  if (uid) out.push({ kind: 'UID', name: uid, apiVersion: 'authentication.k8s.io/v1' });
  if ((groups.length > 0 || hasExtra || uid) && !user) {
    throw statusErrors.badRequest(`requested ${formatRequests(out)} without impersonating a user`);
  }
  return out;
}

/** The authorization question one request asks about the requester. */
function actingAsAttributes(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const base = { user: requestor, verb: 'impersonate', resourceRequest: true, name: r.name };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', resource: 'serviceaccounts', namespace: r.namespace };
    case 'User':
      return { ...base, apiGroup: '', resource: 'users' };
    case 'Group':
      return { ...base, apiGroup: '', resource: 'groups' };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: r.fieldPath };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', resource: 'uids' };
  }
}

/** responsewriters.forbiddenMessage for a resource request. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup ?? ''}" ${scope}`;
}

/**
 * The user the requester acts as, each request authorized first (the first refusal is the
 * 403, with the authorizer's reason). The groups: a service account's own when no group was
 * asked for; then system:authenticated is added for anyone but system:anonymous unless
 * system:authenticated or system:unauthenticated is among them, and system:unauthenticated for
 * system:anonymous unless it is there.
 */
export function impersonate(requestor: UserInfo, requests: readonly ImpersonationRequest[], decide: (a: AuthorizationAttributes) => AuthorizationDecision): UserInfo {
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let name = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const r of requests) {
    const attrs = actingAsAttributes(requestor, r);
    if (r.kind === 'ServiceAccount') {
      name = `${serviceAccountPrefix}${r.namespace}:${r.name}`;
      if (!groupsSpecified) groups = serviceAccountGroups(r.namespace!);
    } else if (r.kind === 'User') name = r.name;
    else if (r.kind === 'Group') groups.push(r.name);
    else if (r.kind === 'UserExtra') (extra[r.fieldPath!] ??= []).push(r.name);
    else uid = r.name;
    const d = decide(attrs);
    if (d.decision !== 'Allow') {
      const message = forbiddenMessage(attrs);
      throw statusErrors.forbidden({ group: attrs.apiGroup ?? '', resource: attrs.resource ?? '' }, attrs.name ?? '', d.reason ? `${message}: ${d.reason}` : message);
    }
  }
  if (name !== anonymousUser.name) {
    if (!groups.some((g) => g === authenticatedGroup || g === unauthenticatedGroup)) groups.push(authenticatedGroup);
  } else if (!groups.includes(unauthenticatedGroup)) groups.push(unauthenticatedGroup);
  return { name, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}

/**
 * The Impersonate-* headers with their values read as UTF-8. Node's parser gives each header byte
 * as one latin1 character; Go's net/http keeps the bytes, so `kubectl --as=José` is the user
 * "José" upstream (bytes that are not UTF-8 become U+FFFD, as Go's JSON encoder writes them).
 */
export function impersonationHeaders(headers: HeaderValues): HeaderValues {
  const out: HeaderValues = {};
  for (const [name, values] of Object.entries(headers)) {
    if (name.startsWith('impersonate-') && values) out[name] = values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));
  }
  return out;
}

/**
 * The request authenticator with WithImpersonation after it: the caller's identity (system:anonymous
 * when there is none, as it asks for someone) is swapped for the impersonated one when the
 * headers ask; a 400 or 403 StatusError is thrown as the filter answers.
 */
export function withImpersonation(
  authenticate: (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>,
  decide: (a: AuthorizationAttributes) => AuthorizationDecision,
): (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined> {
  return (req) => {
    const then = (user: UserInfo | undefined) => {
      const requests = impersonationRequests(impersonationHeaders(req.headersDistinct));
      if (requests.length === 0) return user;
      return impersonate(user ?? anonymousUser, requests, decide);
    };
    const user = authenticate(req);
    return user instanceof Promise ? user.then(then) : then(user);
  };
}
