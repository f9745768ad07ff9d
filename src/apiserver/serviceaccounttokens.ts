// Service account tokens in the API server: the JWT signer and verifier over the data
// directory's key (pkg/serviceaccount/jwt.go: ES256 with the key id derived from the public
// key, the issuer looked at before the signature so that other bearer tokens pass on), the
// serviceaccounts/token subresource (pkg/registry/core/serviceaccount/storage/token.go) and the
// bearer-token authenticator for the tokens it issues (jwt.go AuthenticateToken with
// claims.go's Validate). The rules are src/api/serviceaccounttoken.ts.

import { createHash, createPrivateKey, createPublicKey, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldError } from '../api/fielderrors.js';
import { metaTime } from '../api/metatime.js';
import { cannotBeHandled, decodeObject } from '../api/schema/index.js';
import {
  boundObjectKind,
  boundObjectMessages,
  defaultServiceAccountIssuer,
  defaultTokenRequestSpec,
  serviceAccountClaims,
  serviceAccountUser,
  tokenLifetime,
  validateServiceAccountClaims,
  validateTokenRequest,
  type BoundObjects,
  type ClaimedObjects,
  type ServiceAccountClaims,
  type TokenRequest,
} from '../api/serviceaccounttoken.js';
import type { KubeObject, Pod } from '../api/types.js';
import { admitServiceAccountToken, nodeIdentity } from '../admission/noderestriction.js';
import { authenticatedGroup, mastersGroup } from './authorizer.js';
import type { Api, RequestInfo, UserInfo } from './rest.js';
import { decodeBody, isObject, mediaType, readBody, sendJSON, type ResourcePath } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** jwt.go keyIDFromPublicKey: the unpadded base64url SHA-256 of the public key's DER. */
export function keyIDOf(publicKey: KeyObject): string {
  return b64url(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest());
}

/** What a presented token is to this authenticator: not one of its tokens, a valid one, or a rejected one. */
export type TokenCheck = { ours: false } | { ours: true; claims: ServiceAccountClaims } | { ours: true; error: string };

/** jwt.go's generator and the signature and issuer half of its authenticator, for one ES256 key. */
export class ServiceAccountTokenSigner {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  readonly keyID: string;

  constructor(
    privateKeyPem: string,
    readonly issuer: string = defaultServiceAccountIssuer,
  ) {
    this.privateKey = createPrivateKey(privateKeyPem);
    this.publicKey = createPublicKey(this.privateKey);
    this.keyID = keyIDOf(this.publicKey);
  }

  /** GenerateToken: a compact JWS of the claims (the issuer is always this signer's). */
  sign(claims: ServiceAccountClaims): string {
    const header = b64url(JSON.stringify({ alg: 'ES256', kid: this.keyID }));
    const payload = b64url(JSON.stringify({ ...claims, iss: this.issuer }));
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${header}.${payload}.${b64url(signature)}`;
  }

  /**
   * hasCorrectIssuer, then the signature: a token that is no JWT or names another issuer is not
   * this authenticator's (the next one may know it); one that is, but whose key or signature
   * does not check out, is rejected.
   */
  check(token: string): TokenCheck {
    if (token.trim().startsWith('{')) return { ours: false };
    const parts = token.split('.');
    if (parts.length !== 3) return { ours: false };
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return { ours: false };
    }
    if (!isObject(payload) || payload.iss !== this.issuer) return { ours: false };
    let header: unknown;
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    } catch {
      return { ours: false };
    }
    if (!isObject(header)) return { ours: false };
    if (typeof header.kid === 'string' && header.kid !== '' && header.kid !== this.keyID) return { ours: true, error: 'invalid signature, no keys found' };
    const ok =
      header.alg === 'ES256' &&
      verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: this.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
    if (!ok) return { ours: true, error: 'square/go-jose: error in cryptographic primitive' };
    return { ours: true, claims: payload as unknown as ServiceAccountClaims };
  }
}

/** authenticator.Audiences.Intersect. */
function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

export interface ServiceAccountAuthOptions {
  signer: ServiceAccountTokenSigner;
  /** --api-audiences: what a token must be meant for to reach this server. */
  apiAudiences: readonly string[];
  /** The claimed objects as they are now. */
  lookup(namespace: string, names: { serviceAccount: string; pod?: string; secret?: string; node?: string }): Promise<ClaimedObjects>;
  now?: () => Date;
}

/** The authenticated user and the audiences the token was good for, or why the token is refused. */
export type ServiceAccountAuthResult = { user: UserInfo; audiences: string[] } | { error: string };

/**
 * jwt.go AuthenticateToken for this server's tokens: undefined for a token it did not issue.
 * `audiences` are the ones asked for (a TokenReview's); the API server's own by default.
 */
export function serviceAccountAuthenticator(opts: ServiceAccountAuthOptions): (token: string, audiences?: readonly string[]) => ServiceAccountAuthResult | undefined | Promise<ServiceAccountAuthResult> {
  return (token, audiences) => {
    const checked = opts.signer.check(token);
    if (!checked.ours) return undefined;
    if ('error' in checked) return { error: checked.error };
    const c = checked.claims;
    const tokenAudiences = Array.isArray(c.aud) ? c.aud : typeof c.aud === 'string' ? [c.aud] : [];
    const asked = audiences?.length ? audiences : opts.apiAudiences;
    // A token without audiences is a legacy one, good for the API server's own.
    const good = tokenAudiences.length ? tokenAudiences : [...opts.apiAudiences];
    const auds = intersect(good, asked);
    if (auds.length === 0 && opts.apiAudiences.length !== 0) {
      return { error: `token audiences ${goQuotedList(good)} is invalid for the target audiences ${goQuotedList(asked)}` };
    }
    const k = c['kubernetes.io'];
    if (!isObject(k) || !isObject(k.serviceaccount)) return { error: 'service account token claims could not be validated due to unexpected private claim' };
    const names = {
      serviceAccount: k.serviceaccount.name ?? '',
      ...(k.pod?.name ? { pod: k.pod.name } : {}),
      ...(k.secret?.name ? { secret: k.secret.name } : {}),
      ...(k.node?.name && !k.pod ? { node: k.node.name } : {}),
    };
    return opts.lookup(k.namespace ?? '', names).then((objects): ServiceAccountAuthResult => {
      const r = validateServiceAccountClaims(c, (opts.now ?? (() => new Date()))(), objects);
      if ('error' in r) return r;
      return { user: serviceAccountUser(r.info, authenticatedGroup), audiences: auds };
    });
  };
}

/** %q of a []string, as Go prints it: ["a" "b"]. */
function goQuotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

export interface TokenRequestOptions {
  signer: ServiceAccountTokenSigner;
  apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0: none (the default). */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  extendExpiration?: boolean;
}

const tokenRequestGK = { kind: 'TokenRequest', group: 'authentication.k8s.io' };
const gvk = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };

async function tokenRequestBody(req: IncomingMessage, info: RequestInfo): Promise<TokenRequest> {
  const what = cannotBeHandled(gvk);
  const raw = decodeBody(await readBody(req), mediaType(req), what);
  if (!isObject(raw)) throw statusErrors.badRequest(`${what}: the body must be a JSON object`);
  if (raw.apiVersion !== undefined && raw.apiVersion !== 'authentication.k8s.io/v1') {
    throw statusErrors.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (authentication.k8s.io/v1)`);
  }
  const decoded = decodeObject(raw, gvk, info.fieldValidation);
  if (!decoded.ok) throw statusErrors.badRequest(decoded.message);
  info.warnings.push(...decoded.warnings);
  const o = decoded.object as unknown as TokenRequest;
  return { ...o, metadata: o.metadata ?? {}, spec: defaultTokenRequestSpec(isObject(o.spec) ? o.spec : {}) };
}

/** POST serviceaccounts/NAME/token: token.go's Create. */
export function tokenRequestHandler(opts: TokenRequestOptions) {
  return async (api: Api, _def: ResourceDef, path: ResourcePath, req: IncomingMessage, res: ServerResponse, info: RequestInfo): Promise<void> => {
    if (req.method !== 'POST') throw statusErrors.methodNotSupported({ group: '', resource: 'serviceaccounts' }, req.method ?? '');
    const namespace = path.namespace ?? '';
    const name = path.name ?? '';
    const tr = await tokenRequestBody(req, info);
    const meta = tr.metadata ?? {};
    if (meta.name && meta.name !== name) {
      throw statusErrors.invalid(tokenRequestGK.kind, tokenRequestGK.group, name, [fieldError.invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
    }
    if (meta.namespace && meta.namespace !== namespace) {
      throw statusErrors.invalid(tokenRequestGK.kind, tokenRequestGK.group, name, [fieldError.invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const sa = await api.tryGet(api.def('serviceaccounts'), namespace, name);
    if (!sa) throw statusErrors.notFound({ group: '', resource: 'serviceaccounts' }, name);
    const audiences = tr.spec.audiences?.length ? tr.spec.audiences : [...opts.apiAudiences];
    const now = api.now();
    const spec: TokenRequest['spec'] = { ...tr.spec, audiences };
    if (!spec.boundObjectRef) delete spec.boundObjectRef;
    const out: TokenRequest = { ...tr, metadata: { ...meta, name: meta.name || name, namespace: meta.namespace || namespace, creationTimestamp: metaTime(now) }, spec };
    delete out.status;
    const errs = validateTokenRequest(out);
    if (errs.length) throw statusErrors.invalid(tokenRequestGK.kind, tokenRequestGK.group, '', errs);
    // Validating admission: NodeRestriction for a node's request.
    const node = nodeIdentity(info.user);
    if (node !== undefined && !info.user.groups.includes(mastersGroup)) {
      const ref = spec.boundObjectRef ?? undefined;
      const pod = ref?.kind === 'Pod' && ref.name ? await api.tryGet<Pod>(api.def('pods'), namespace, ref.name) : undefined;
      const why = admitServiceAccountToken(node, ref, pod);
      if (why === 'notFound') throw statusErrors.notFound({ group: '', resource: 'pods' }, ref?.name ?? '');
      if (why) throw statusErrors.forbidden({ group: '', resource: 'serviceaccounts' }, name, why);
    }
    const bound: BoundObjects = {};
    const ref = spec.boundObjectRef ?? undefined;
    if (ref) {
      const which = boundObjectKind(ref);
      if ('badRequest' in which) throw statusErrors.badRequest(which.badRequest);
      // The registry's key function refuses an empty name before any read.
      if (!ref.name) throw statusErrors.badRequest('Name parameter required.');
      let uid = '';
      if (which.kind === 'Pod') {
        const pod = await api.tryGet<Pod>(api.def('pods'), namespace, ref.name ?? '');
        if (!pod) throw statusErrors.notFound({ group: '', resource: 'pods' }, ref.name ?? '');
        if (name !== pod.spec?.serviceAccountName) throw statusErrors.badRequest(boundObjectMessages.podServiceAccount(name));
        uid = pod.metadata.uid ?? '';
        bound.pod = pod;
        const nodeName = pod.spec?.nodeName;
        // ServiceAccountTokenPodNodeInfo: the pod's node, by name alone when it is gone.
        if (nodeName) bound.node = (await api.tryGet(api.def('nodes'), undefined, nodeName)) ?? { metadata: { name: nodeName } };
      } else if (which.kind === 'Node') {
        const n = await api.tryGet(api.def('nodes'), undefined, ref.name ?? '');
        if (!n) throw statusErrors.notFound({ group: '', resource: 'nodes' }, ref.name ?? '');
        uid = n.metadata?.uid ?? '';
        bound.node = n;
      } else {
        const s = await api.tryGet(api.def('secrets'), namespace, ref.name ?? '');
        if (!s) throw statusErrors.notFound({ group: '', resource: 'secrets' }, ref.name ?? '');
        uid = s.metadata?.uid ?? '';
        bound.secret = s;
      }
      if (ref.uid && ref.uid !== uid) throw statusErrors.conflict({ group: '', resource: which.kind }, ref.name ?? '', boundObjectMessages.uidMismatch(ref.uid));
    }
    const life = tokenLifetime({
      requestedSeconds: spec.expirationSeconds!,
      maxSeconds: opts.maxExpirationSeconds ?? 0,
      extend: opts.extendExpiration ?? true,
      podBound: !!bound.pod,
      audiences,
      apiAudiences: opts.apiAudiences,
    });
    if (life.warning) info.warnings.push(life.warning);
    spec.expirationSeconds = life.expirationSeconds;
    const claims = serviceAccountClaims({
      issuer: opts.signer.issuer,
      serviceAccount: sa,
      bound,
      expirationSeconds: life.tokenSeconds,
      ...(life.warnAfterSeconds ? { warnAfterSeconds: life.warnAfterSeconds } : {}),
      audiences,
      now,
      jti: randomUUID(),
    });
    out.status = { token: opts.signer.sign(claims), expirationTimestamp: metaTime(new Date(now.getTime() + life.expirationSeconds * 1000)) };
    sendJSON(res, 201, { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', ...out }, info.warnings);
  };
}

/** The claimed objects from the API (the service account from its cache when it has one). */
export function claimedObjectsFrom(api: Api): ServiceAccountAuthOptions['lookup'] {
  return async (namespace, names) => {
    const get = (resource: string, ns: string | undefined, name: string | undefined): Promise<KubeObject | undefined> =>
      name ? api.tryGet(api.def(resource), ns, name) : Promise.resolve(undefined);
    const cached = api.caches.get('serviceaccounts')?.get(namespace, names.serviceAccount)?.obj;
    const [serviceAccount, pod, secret, node] = await Promise.all([
      cached ? Promise.resolve(cached) : get('serviceaccounts', namespace, names.serviceAccount),
      get('pods', namespace, names.pod),
      get('secrets', namespace, names.secret),
      get('nodes', undefined, names.node),
    ]);
    return { serviceAccount, pod, secret, node };
  };
}
