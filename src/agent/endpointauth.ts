// Who may call the agent's endpoint, decided as the kubelet decides it with webhook
// authentication and authorization (pkg/kubelet/server/auth.go, the kubelet's
// --anonymous-auth=false --authentication-token-webhook --authorization-mode=Webhook):
//   - a client certificate the cluster CA signed is the user its CN names, in the groups its O
//     names (the API server comes as kube-apiserver-kubelet-client this way);
//   - otherwise a bearer token is asked about by TokenReview;
//   - otherwise the caller is refused with 401 Unauthorized.
// Each request is then authorized by SubjectAccessReview on the node (nodes/<subresource> with
// the verb of its method, as requestAttributes maps the path), with the kubelet's caches: token
// answers for 2 minutes, allowed decisions for 5 minutes, denied ones for 30 seconds.

import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { KubeClient } from '../client/interface.js';
import { subjectAccessReviewsRef, tokenReviewsRef } from '../client/resources.js';

export interface EndpointUser {
  name: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** The authorization attributes of one request: the verb and each subresource to check in turn. */
export interface NodeRequestAttributes {
  verb: string;
  subresources: string[];
}

/** isSubpath: `path` is `base` or below it (a trailing slash on `base` ignored). */
function isSubpath(path: string, base: string): boolean {
  const b = base.replace(/\/$/, '');
  return path === b || (path.startsWith(b) && path[b.length] === '/');
}

/**
 * GetRequestAttributes as in kubelet 1.33 (KubeletFineGrainedAuthz on): /stats, /metrics, /logs
 * and /checkpoint have their own subresource; /pods, /runningpods, /healthz and /configz are
 * checked as theirs first and then as proxy; everything else (containerLogs, exec, attach,
 * portForward, run, spec) is proxy.
 */
export function requestAttributes(method: string, path: string): NodeRequestAttributes {
  const verbs: Record<string, string> = { POST: 'create', GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  const verb = verbs[method] ?? '';
  const subresources: string[] = [];
  if (isSubpath(path, '/pods')) subresources.push('pods');
  else if (isSubpath(path, '/healthz')) subresources.push('healthz');
  else if (isSubpath(path, '/configz')) subresources.push('configz');
  else if (isSubpath(path, '/runningpods/')) subresources.push('pods');
  if (isSubpath(path, '/stats')) subresources.push('stats');
  else if (isSubpath(path, '/metrics')) subresources.push('metrics');
  else if (isSubpath(path, '/logs')) subresources.push('log');
  else if (isSubpath(path, '/checkpoint')) subresources.push('checkpoint');
  else subresources.push('proxy');
  return { verb, subresources };
}

/** The kubelet's 403 text (fine-grained authorization lists every subresource it tried). */
export function forbiddenMessage(user: EndpointUser, a: NodeRequestAttributes): string {
  return `Forbidden (user=${user.name}, verb=${a.verb}, resource=nodes, subresource(s)=[${a.subresources.join(' ')}])`;
}

export interface EndpointAuthenticator {
  /** The caller, or undefined when it brought no credentials the endpoint accepts. */
  authenticate(req: IncomingMessage): Promise<EndpointUser | undefined>;
  /** Whether `user` may do `verb` on nodes/`subresource` of this node. */
  authorize(user: EndpointUser, verb: string, subresource: string): Promise<boolean>;
}

/** The verified client certificate's identity: CN as the user, each O as a group. */
export function certificateUser(req: IncomingMessage): EndpointUser | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.authorized || typeof socket.getPeerCertificate !== 'function') return undefined;
  const subject = socket.getPeerCertificate().subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.CN;
  const name = Array.isArray(cn) ? cn[0] : cn;
  if (!name) return undefined;
  const o = subject?.O;
  const orgs = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { name, groups: [...orgs, 'system:authenticated'] };
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

class TTLCache<V> {
  private entries = new Map<string, { v: V; until: number }>();
  get(k: string, now: number): V | undefined {
    const e = this.entries.get(k);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(k);
      return undefined;
    }
    return e.v;
  }
  set(k: string, v: V, ttlMs: number, now: number): void {
    // Bounded: entries of tokens never seen again must not pile up.
    if (this.entries.size > 10_000) for (const [key, e] of this.entries) if (e.until <= now) this.entries.delete(key);
    this.entries.set(k, { v, until: now + ttlMs });
  }
}

/** The kubelet's defaults: --authentication-token-webhook-cache-ttl and the authorization webhook's. */
export const cacheTTLs = { tokenMs: 120_000, allowedMs: 300_000, deniedMs: 30_000 };

interface TokenReviewAnswer {
  status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } };
}

interface SubjectAccessReviewAnswer {
  status?: { allowed?: boolean };
}

/** Delegates to the API server through the node's client, with the kubelet's caches. */
export function delegatingAuthenticator(client: KubeClient, nodeName: string, now: () => number = Date.now): EndpointAuthenticator {
  const tokens = new TTLCache<EndpointUser | null>();
  const decisions = new TTLCache<boolean>();
  return {
    async authenticate(req) {
      const cert = certificateUser(req);
      if (cert) return cert;
      const token = bearer(req);
      if (!token) return undefined;
      const key = createHash('sha256').update(token).digest('hex');
      const cached = tokens.get(key, now());
      if (cached !== undefined) return cached ?? undefined;
      const review = await client.create<never>(tokenReviewsRef, undefined, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token } } as never);
      const s = (review as TokenReviewAnswer).status;
      const user = s?.authenticated && s.user?.username ? { name: s.user.username, groups: s.user.groups ?? [], ...(s.user.uid ? { uid: s.user.uid } : {}), ...(s.user.extra ? { extra: s.user.extra } : {}) } : null;
      tokens.set(key, user, cacheTTLs.tokenMs, now());
      return user ?? undefined;
    },
    async authorize(user, verb, subresource) {
      const spec = {
        user: user.name,
        groups: user.groups,
        ...(user.uid ? { uid: user.uid } : {}),
        ...(user.extra ? { extra: user.extra } : {}),
        resourceAttributes: { verb, group: '', version: 'v1', resource: 'nodes', subresource, name: nodeName },
      };
      const key = JSON.stringify(spec);
      const cached = decisions.get(key, now());
      if (cached !== undefined) return cached;
      const review = await client.create<never>(subjectAccessReviewsRef, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec } as never);
      const allowed = !!(review as SubjectAccessReviewAnswer).status?.allowed;
      decisions.set(key, allowed, allowed ? cacheTTLs.allowedMs : cacheTTLs.deniedMs, now());
      return allowed;
    },
  };
}
