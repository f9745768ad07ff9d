// The kubelet's service account token rules (pkg/kubelet/token/token_manager.go and
// pkg/volume/projected's serviceAccountToken source), pure: the TokenRequest a projected
// serviceAccountToken asks for (bound to the pod, the projection's audience and lifetime), the
// cache key of a token, and when a cached token must be fetched again: once it is older than
// 24 hours or within 20% of its lifetime from expiring, each less a random jitter of up to 10 s.
// The cache and the requests are src/agent/tokenmanager.ts.

import type { Pod } from '../../api/types.js';
import type { TokenRequest } from '../../api/serviceaccounttoken.js';

/** token_manager.go maxTTL and maxJitter. */
export const maxTokenTTLSeconds = 24 * 60 * 60;
export const maxTokenJitterSeconds = 10;

/** core/v1 ServiceAccountTokenProjection (its expirationSeconds defaults to an hour). */
export interface ServiceAccountTokenProjection {
  audience?: string;
  expirationSeconds?: number;
  path?: string;
}

const projectionDefaultSeconds = 3600;

/** Which token of the pod a projection shows: one per audience and lifetime. */
export function projectionKey(p: ServiceAccountTokenProjection): string {
  return `${p.audience ?? ''}/${p.expirationSeconds ?? projectionDefaultSeconds}`;
}

/** The serviceAccountToken projections of a pod's volumes. */
export function podTokenProjections(pod: Pod): ServiceAccountTokenProjection[] {
  const out: ServiceAccountTokenProjection[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const sources = (v.projected as { sources?: { serviceAccountToken?: ServiceAccountTokenProjection }[] } | undefined)?.sources ?? [];
    for (const s of sources) if (s.serviceAccountToken) out.push(s.serviceAccountToken);
  }
  return out;
}

/** The projected volume's request: the projection's audience (or the API server's), bound to the pod. */
export function projectedTokenRequest(pod: Pod, p: ServiceAccountTokenProjection): TokenRequest {
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: {},
    spec: {
      ...(p.audience ? { audiences: [p.audience] } : {}),
      expirationSeconds: p.expirationSeconds ?? projectionDefaultSeconds,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
    },
  };
}

/** keyFunc: the account, its namespace, the audiences, the lifetime and the bound object. */
export function tokenCacheKey(namespace: string, name: string, tr: TokenRequest): string {
  const ref = tr.spec.boundObjectRef;
  return JSON.stringify([name, namespace, tr.spec.audiences ?? [], tr.spec.expirationSeconds ?? 0, ref ? [ref.kind, ref.apiVersion, ref.name, ref.uid] : null]);
}

/** expired: past the expirationTimestamp the server gave. */
export function tokenExpired(tr: TokenRequest, now: Date): boolean {
  return now.getTime() > Date.parse(tr.status?.expirationTimestamp ?? '');
}

/**
 * requiresRefresh: issued (expiration less lifetime) over 24 h ago, or less than 20% of the
 * lifetime left, each brought forward by `jitterSeconds` (0 to 10, whole seconds, drawn by the
 * caller). A token without a lifetime is never refreshed, as upstream (which logs it).
 */
export function tokenRequiresRefresh(tr: TokenRequest, now: Date, jitterSeconds: number): boolean {
  const seconds = tr.spec.expirationSeconds;
  if (seconds === undefined || seconds === null) return false;
  const exp = Date.parse(tr.status?.expirationTimestamp ?? '');
  const iat = exp - seconds * 1000;
  const jitter = Math.floor(jitterSeconds) * 1000;
  if (now.getTime() > iat + maxTokenTTLSeconds * 1000 - jitter) return true;
  return now.getTime() > exp - Math.floor((seconds * 20) / 100) * 1000 - jitter;
}
