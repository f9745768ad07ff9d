// Who is calling and what they may do. A client certificate of the cluster CA names its user
// and groups (how a node that joined is system:node:<name>); bearer tokens from the data
// directory identify an admin (group system:masters) and the server's own node, service account
// tokens (src/apiserver/serviceaccounttokens.ts) a service account, and bootstrap
// tokens (src/api/bootstraptoken.ts) a node that is joining; the rules themselves are in authorizer.ts (and, for what a node may write
// into its own Node and Lease, src/admission/noderestriction.ts). Anonymous callers reach only
// version and health, which the handler serves before asking here.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { authenticateBootstrapToken, bootstrapTokenNamespace, bootstrapTokenSecretPrefix, parseToken } from '../api/bootstraptoken.js';
import type { KubeObject, Pod, Secret } from '../api/types.js';
import type { Authorizer, Verb } from './handler.js';
import type { UserInfo } from './rest.js';
import { requestName, type ResourcePath } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';
import { authenticatedGroup, authorize, mastersGroup, rulesFor, type AuthorizationAttributes, type AuthorizationDecision, type PodsOnNode, type RulesReview } from './authorizer.js';
import type { RBACObjects } from '../policy/rbacresolver.js';
import { nodeIdentity } from '../admission/noderestriction.js';

export { mastersGroup } from './authorizer.js';
export { nodesGroup, nodeUserPrefix } from '../admission/noderestriction.js';

export interface TokenEntry {
  token: string;
  user: string;
  groups: string[];
}

export const adminUser = 'bulkhead-admin';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export class TokenFile {
  private entries: TokenEntry[] = [];
  /** Each entry with its token's digest, computed once (a lookup is on every request's path). */
  private byDigest = new Map<string, { entry: TokenEntry; digest: Buffer }>();

  constructor(private readonly path: string) {
    if (existsSync(path)) this.entries = JSON.parse(readFileSync(path, 'utf8')) as TokenEntry[];
    this.index();
  }

  private index(): void {
    this.byDigest = new Map(
      this.entries.map((entry) => {
        const d = digest(entry.token);
        return [d.toString('hex'), { entry, digest: d }];
      }),
    );
  }

  private save(): void {
    writeFileSync(this.path, JSON.stringify(this.entries, null, 2) + '\n', { mode: 0o600 });
  }

  /** The token of `user`, created (and saved) on first use. */
  ensure(user: string, groups: string[]): string {
    const found = this.entries.find((e) => e.user === user);
    if (found) return found.token;
    const entry = { token: newToken(), user, groups };
    this.entries.push(entry);
    this.index();
    this.save();
    return entry.token;
  }

  lookup(token: string): TokenEntry | undefined {
    const d = digest(token);
    const e = this.byDigest.get(d.toString('hex'));
    return e && timingSafeEqual(e.digest, d) ? e.entry : undefined;
  }
}

/** A Secret by namespace and name, from the server's cache (the bootstrap tokens). */
export type SecretLookup = (namespace: string, name: string) => Secret | undefined;

/** What a bearer token authenticator says: the user (and the audiences the token was good for), why it refused the token, or nothing (not its token). */
export type TokenAuthentication = { user: UserInfo; audiences?: string[] } | { error: string } | undefined;

/**
 * A service account token's authenticator (src/apiserver/serviceaccounttokens.ts): undefined at
 * once for a token it did not issue, a promise for one it did (its bound objects are read).
 */
export type ServiceAccountTokenAuthenticator = (token: string, audiences?: readonly string[]) => TokenAuthentication | Promise<TokenAuthentication>;

/**
 * The bearer token authenticators in kube-apiserver's order: the token file (Bulkhead's data
 * directory tokens), then service account tokens, then bootstrap tokens. `audiences` are the
 * ones a TokenReview asks about (the API server's own otherwise). Answered at once for every
 * token but a service account's: a request is then served in the tick it arrived in, as before
 * any token needed the store.
 */
export function tokenAuthenticator(
  tokens: TokenFile,
  secrets?: SecretLookup,
  now: () => Date = () => new Date(),
  serviceAccounts?: ServiceAccountTokenAuthenticator,
): (token: string, audiences?: readonly string[]) => TokenAuthentication | Promise<TokenAuthentication> {
  const bootstrap = (token: string): TokenAuthentication => {
    const parsed = secrets && parseToken(token);
    if (!parsed) return undefined;
    const r = authenticateBootstrapToken(token, secrets!(bootstrapTokenNamespace, `${bootstrapTokenSecretPrefix}${parsed.id}`), now());
    return 'user' in r ? { user: { name: r.user.name, groups: [...r.user.groups, authenticatedGroup] } } : undefined;
  };
  return (token, audiences) => {
    const entry = tokens.lookup(token);
    if (entry) return { user: { name: entry.user, groups: [...entry.groups, authenticatedGroup] } };
    const bySA = serviceAccounts?.(token, audiences);
    if (bySA instanceof Promise) return bySA.then((r) => r ?? bootstrap(token));
    return bySA ?? bootstrap(token);
  };
}

const clientAuthOID = '1.3.6.1.5.5.7.3.2';

/**
 * The x509 authenticator (k8s.io/apiserver pkg/authentication/request/x509): a client
 * certificate that chains to the cluster CA and is good for client auth names the user by its
 * CN and the groups by its O. The TLS layer checked the chain against the CA (requestCert
 * without rejectUnauthorized: a client without a certificate goes on to the token).
 */
export function clientCertUser(req: IncomingMessage): UserInfo | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.subject?.CN) return undefined;
  if (!(cert.ext_key_usage ?? []).includes(clientAuthOID)) return undefined;
  const o = cert.subject.O;
  const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { name: Array.isArray(cert.subject.CN) ? cert.subject.CN[0]! : cert.subject.CN, groups: [...groups, authenticatedGroup] };
}

/**
 * The union of the request authenticators: the client certificate first, then a bearer token;
 * 401 for a token nobody accepts. A promise only while a service account token is checked.
 */
export function requestAuthenticator(
  authenticateToken: (token: string) => TokenAuthentication | Promise<TokenAuthentication>,
): (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined> {
  const accepted = (r: TokenAuthentication): UserInfo => {
    if (!r || !('user' in r)) throw statusErrors.unauthorized();
    return r.user;
  };
  return (req) => {
    const byCert = clientCertUser(req);
    if (byCert) return byCert;
    const h = req.headers.authorization;
    if (!h) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    const r = m ? authenticateToken(m[1]!) : undefined;
    return r instanceof Promise ? r.then(accepted) : accepted(r);
  };
}

/** The token file alone (tests that need no bootstrap tokens). */
export function bearerAuthenticator(tokens: TokenFile): (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined> {
  return requestAuthenticator(tokenAuthenticator(tokens));
}

function resourceText(def: ResourceDef, path: ResourcePath): string {
  return path.subresource ? `${def.resource}/${path.subresource}` : def.resource;
}

export function forbiddenText(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, why = ''): string {
  const scope = path.namespace !== undefined ? `in the namespace "${path.namespace}"` : 'at the cluster scope';
  return `User "${user.name}" cannot ${verb} resource "${resourceText(def, path)}" in API group "${def.group}" ${scope}${why ? `: ${why}` : ''}`;
}

export function nonResourceForbiddenText(user: UserInfo, verb: string, path: string, why = ''): string {
  return `User "${user.name}" cannot ${verb} path "${path}"${why ? `: ${why}` : ''}`;
}

/** The request's authorization attributes (what kube-apiserver's RequestInfo resolver derives). */
export function resourceAttributes(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, query: URLSearchParams): AuthorizationAttributes {
  const fieldSelector = query.get('fieldSelector');
  const name = requestName(verb, path, query);
  return {
    user,
    verb,
    resourceRequest: true,
    apiGroup: def.group,
    resource: def.resource,
    subresource: path.subresource,
    namespace: path.namespace,
    name,
    fieldSelector: fieldSelector ?? undefined,
  };
}

/** The handler's face of src/apiserver/authorizer.ts, plus the object check for pods. */
export class NodeAwareAuthorizer implements Authorizer {
  /**
   * `podsOnNode`: the pods bound to a node (the node authorizer's graph); none when absent.
   * `rbac`: the RBAC objects (the server's, rbacindex.ts); the bootstrap policy when absent.
   */
  constructor(private readonly podsOnNode?: PodsOnNode, readonly rbac?: RBACObjects) {}

  /** The decision itself, for the access reviews. */
  decide(attrs: AuthorizationAttributes): AuthorizationDecision {
    return authorize(attrs, this.podsOnNode, this.rbac);
  }

  /** The rules a user holds in a namespace, for the rules review. */
  rulesFor(user: UserInfo, namespace: string): RulesReview {
    return rulesFor(user, namespace, this.rbac);
  }

  authorize(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, query: URLSearchParams): string | undefined {
    const d = authorize(resourceAttributes(user, verb, def, path, query), this.podsOnNode, this.rbac);
    return d.decision === 'Allow' ? undefined : forbiddenText(user, verb, def, path, d.reason);
  }

  authorizePath(user: UserInfo, verb: string, path: string): string | undefined {
    const d = authorize({ user, verb, resourceRequest: false, path }, undefined, this.rbac);
    return d.decision === 'Allow' ? undefined : nonResourceForbiddenText(user, verb, path, d.reason);
  }

  /** The node authorizer's relationship rule: a node may touch only the pods bound to it. */
  relationship(user: UserInfo, def: ResourceDef, obj: KubeObject | undefined): string | undefined {
    const node = nodeIdentity(user);
    if (def.resource !== 'pods' || node === undefined || user.groups.includes(mastersGroup) || !obj) return undefined;
    if ((obj as Pod).spec?.nodeName === node) return undefined;
    return `no relationship found between node '${node}' and this object`;
  }

  checkObject(user: UserInfo, verb: Verb, def: ResourceDef, obj: KubeObject | undefined): string | undefined {
    const why = this.relationship(user, def, obj);
    if (!why || !obj) return undefined;
    return forbiddenText(user, verb, def, { group: def.group, version: def.version, resource: def.resource, namespace: obj.metadata?.namespace, name: obj.metadata?.name }, why);
  }
}
