// A small Kubernetes REST client for the node agent (and other in-tree clients): JSON over
// HTTPS with the cluster CA and a bearer token, Status errors as exceptions, and watches
// read as newline-delimited events.

import { Agent, request, type RequestOptions } from 'node:https';
import type { Status } from '../api/types.js';

export class KubeError extends Error {
  constructor(readonly code: number, readonly status: Status | undefined, text: string) {
    super(status?.message ?? `HTTP ${code}: ${text.slice(0, 200)}`);
  }
  get reason(): string | undefined {
    return this.status?.reason;
  }
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface WatchHandle {
  stop(): void;
  /** Resolves when the stream ends (closed by the server, stopped, or failed). */
  done: Promise<void>;
}

export interface KubeClientOptions {
  server: string;
  ca: string;
  token: string;
  userAgent?: string;
}

export class KubeClient {
  private readonly agent: Agent;

  constructor(private readonly opts: KubeClientOptions) {
    this.agent = new Agent({ ca: opts.ca, keepAlive: true, maxSockets: 16 });
  }

  private options(method: string, headers: Record<string, string>): RequestOptions {
    return {
      method,
      agent: this.agent,
      headers: { Authorization: `Bearer ${this.opts.token}`, Accept: 'application/json', 'User-Agent': this.opts.userAgent ?? 'bulkhead-agent', ...headers },
    };
  }

  /** One request; resolves with the decoded JSON body, throws KubeError for non-2xx. */
  request<T = unknown>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = payload ? { 'Content-Type': contentType, 'Content-Length': String(payload.length) } : {};
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.opts.server), this.options(method, headers), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          if (code >= 200 && code < 300) resolve(json as T);
          else reject(new KubeError(code, (json as Status | undefined)?.kind === 'Status' ? (json as Status) : undefined, text));
        });
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  create<T>(path: string, obj: unknown): Promise<T> {
    return this.request<T>('POST', path, obj);
  }

  update<T>(path: string, obj: unknown): Promise<T> {
    return this.request<T>('PUT', path, obj);
  }

  mergePatch<T>(path: string, patch: unknown): Promise<T> {
    return this.request<T>('PATCH', path, patch, 'application/merge-patch+json');
  }

  delete<T>(path: string, options: unknown = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  /** Streams `path?watch=true&…`; events arrive in order until the stream ends or stop() is called. */
  watch<T>(path: string, query: Record<string, string>, onEvent: (e: WatchEvent<T>) => void): WatchHandle {
    const url = new URL(path, this.opts.server);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    url.searchParams.set('watch', 'true');
    let stopped = false;
    let finish: () => void = () => undefined;
    const done = new Promise<void>((r) => (finish = r));
    const req = request(url, this.options('GET', {}), (res) => {
      if ((res.statusCode ?? 0) >= 300) {
        res.resume();
        res.on('end', finish);
        return;
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim() && !stopped) onEvent(JSON.parse(line) as WatchEvent<T>);
        }
      });
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.on('error', finish);
    req.end();
    return {
      stop() {
        stopped = true;
        req.destroy();
        finish();
      },
      done,
    };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A namespaced object by name, or null when the API says it does not exist. */
export async function getOrNull<T>(client: KubeClient, path: string): Promise<T | null> {
  try {
    return await client.get<T>(path);
  } catch (e) {
    if (e instanceof KubeError && e.code === 404) return null;
    throw e;
  }
}
