// The kubelet's token manager (pkg/kubelet/token/token_manager.go): service account tokens for
// the pods' projected volumes, asked of the API server (TokenRequest through the agent's client)
// and cached by account, audiences, lifetime and bound pod; a cached token is handed out until
// it needs a refresh (lifecycle/tokens.ts), and kept when a refresh fails while it is still
// valid. Tokens of a pod go when the pod does; expired ones are swept every minute.

import type { TokenRequest } from '../api/serviceaccounttoken.js';
import { tokenCacheKey, tokenExpired, tokenRequiresRefresh, maxTokenJitterSeconds } from './lifecycle/tokens.js';

export type TokenFetch = (namespace: string, name: string, tr: TokenRequest) => Promise<TokenRequest>;

const gcPeriodMs = 60_000;

export class TokenManager {
  private readonly cache = new Map<string, TokenRequest>();
  private gc?: NodeJS.Timeout;

  constructor(
    private readonly fetch: TokenFetch,
    private readonly clock: () => Date = () => new Date(),
    private readonly jitter: () => number = () => Math.random() * maxTokenJitterSeconds,
  ) {}

  /** GetServiceAccountToken: the cached token, or a new one; the error texts are upstream's. */
  async serviceAccountToken(namespace: string, name: string, tr: TokenRequest): Promise<TokenRequest> {
    const key = tokenCacheKey(namespace, name, tr);
    const cached = this.cache.get(key);
    if (cached && !tokenRequiresRefresh(cached, this.clock(), this.jitter())) return cached;
    let fresh: TokenRequest;
    try {
      fresh = await this.fetch(namespace, name, tr);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (!cached) throw new Error(`failed to fetch token: ${why}`);
      if (tokenExpired(cached, this.clock())) throw new Error(`token ${key} expired and refresh failed: ${why}`);
      return cached;
    }
    this.cache.set(key, fresh);
    this.startGC();
    return fresh;
  }

  /** DeleteServiceAccountToken: every token bound to the pod. */
  deletePodTokens(podUID: string): void {
    for (const [key, tr] of this.cache) if (tr.spec.boundObjectRef?.uid === podUID) this.cache.delete(key);
  }

  /** cleanup: the expired tokens. */
  sweep(): void {
    const now = this.clock();
    for (const [key, tr] of this.cache) if (tokenExpired(tr, now)) this.cache.delete(key);
  }

  get size(): number {
    return this.cache.size;
  }

  private startGC(): void {
    if (this.gc) return;
    this.gc = setInterval(() => this.sweep(), gcPeriodMs);
    this.gc.unref();
  }

  stop(): void {
    if (this.gc) clearInterval(this.gc);
    this.gc = undefined;
  }
}
