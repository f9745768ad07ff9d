// The client over HTTPS: JSON with the cluster CA and a bearer token, Status bodies as
// ApiErrors (or a client certificate), watches read as newline-delimited events (client-go's rest.RESTClient and
// watch.StreamWatcher, in the shape of the dynamic client). The node agent's client
// (src/agent/connect.ts), with the node's token from its kubeconfig.

import type { TokenRequest } from '../api/serviceaccounttoken.js';
import { Agent, request, type RequestOptions } from 'node:https';
import type { KubeObject, Scale, Status } from '../api/types.js';
import { ApiError } from './errors.js';
import type { DeleteOptions, KubeClient, ListOptions, ObjectList, PatchType, ResourceRef, Watch, WatchEvent, WatchHandlers, WriteOptions } from './interface.js';
import { groupVersionPath, resourcePath } from './resources.js';

export interface HttpClientOptions {
  server: string;
  ca: string;
  /** A bearer token, or a client certificate and key (PEM), or both (the certificate wins). */
  token?: string;
  cert?: string;
  key?: string;
  userAgent?: string;
}

function query(opts: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(opts)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function parseJSON(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function apiError(code: number, text: string): ApiError {
  const json = parseJSON(text) as Status | undefined;
  return new ApiError(code, json?.kind === 'Status' ? json : undefined, text);
}

export class HttpClient implements KubeClient {
  private readonly agent: Agent;

  constructor(private readonly opts: HttpClientOptions) {
    this.agent = new Agent({ ca: opts.ca, keepAlive: true, maxSockets: 16, ...(opts.cert && opts.key ? { cert: opts.cert, key: opts.key } : {}) });
  }

  private options(method: string, headers: Record<string, string>): RequestOptions {
    return {
      method,
      agent: this.agent,
      headers: { ...(this.opts.token ? { Authorization: `Bearer ${this.opts.token}` } : {}), Accept: 'application/json', 'User-Agent': this.opts.userAgent ?? 'bulkhead', ...headers },
    };
  }

  /** One request; resolves with the decoded JSON body, rejects with an ApiError for non-2xx. */
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
          if (code >= 200 && code < 300) resolve(parseJSON(text) as T);
          else reject(apiError(code, text));
        });
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
    return this.request<T>('GET', resourcePath(ref, namespace, name));
  }

  async list<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const r = await this.request<{ items?: T[]; metadata?: { resourceVersion?: string; continue?: string } }>('GET', resourcePath(ref, namespace) + query({ ...opts }));
    const out: ObjectList<T> = { items: r.items ?? [], resourceVersion: r.metadata?.resourceVersion ?? '' };
    if (r.metadata?.continue) out.continue = r.metadata.continue;
    return out;
  }

  watch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, opts: ListOptions, on: WatchHandlers<T>): Promise<Watch> {
    const url = new URL(resourcePath(ref, namespace) + query({ ...opts, watch: true, allowWatchBookmarks: true }), this.opts.server);
    return new Promise((resolve, reject) => {
      let stopped = false;
      let ended = false;
      const end = () => {
        if (ended || stopped) return;
        ended = true;
        on.end();
      };
      const req = request(url, this.options('GET', {}), (res) => {
        const code = res.statusCode ?? 0;
        if (code >= 300) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(apiError(code, Buffer.concat(chunks).toString('utf8'))));
          return;
        }
        resolve({
          stop() {
            stopped = true;
            req.destroy();
          },
        });
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim() && !stopped) on.event(JSON.parse(line) as WatchEvent<T>);
          }
        });
        res.on('end', end);
        res.on('error', end);
        res.on('close', end);
      });
      req.on('error', (e) => {
        if (!stopped) reject(e);
        end();
      });
      req.end();
    });
  }

  create<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.request<T>('POST', resourcePath(ref, namespace, undefined, opts.subresource) + query({ fieldManager: opts.fieldManager, dryRun: opts.dryRun ? 'All' : undefined }), obj);
  }

  update<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, obj: T, opts: WriteOptions = {}): Promise<T> {
    const path = resourcePath(ref, namespace, obj.metadata?.name ?? '', opts.subresource);
    return this.request<T>('PUT', path + query({ fieldManager: opts.fieldManager, dryRun: opts.dryRun ? 'All' : undefined }), obj);
  }

  patch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, patch: unknown, opts: WriteOptions = {}): Promise<T> {
    const path = resourcePath(ref, namespace, name, opts.subresource);
    return this.request<T>('PATCH', path + query({ fieldManager: opts.fieldManager, dryRun: opts.dryRun ? 'All' : undefined }), patch, type);
  }

  delete(ref: ResourceRef, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    return this.request<KubeObject>('DELETE', resourcePath(ref, namespace, name), { apiVersion: 'v1', kind: 'DeleteOptions', ...opts });
  }

  getScale(ref: ResourceRef, namespace: string, name: string): Promise<Scale> {
    return this.request<Scale>('GET', resourcePath(ref, namespace, name, 'scale'));
  }

  updateScale(ref: ResourceRef, namespace: string, scale: Scale): Promise<Scale> {
    return this.request<Scale>('PUT', resourcePath(ref, namespace, scale.metadata?.name ?? '', 'scale'), scale);
  }

  async bind(namespace: string, name: string, node: string, opts: { uid?: string; annotations?: Record<string, string> } = {}): Promise<void> {
    const metadata = { name, ...(opts.uid ? { uid: opts.uid } : {}), ...(opts.annotations ? { annotations: opts.annotations } : {}) };
    await this.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata, target: { kind: 'Node', name: node } });
  }

  async evict(namespace: string, name: string, opts: DeleteOptions = {}): Promise<void> {
    await this.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions: opts });
  }

  createToken(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest> {
    return this.request<TokenRequest>('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`, request);
  }

  async finalizeNamespace(name: string): Promise<void> {
    const ns = await this.request<KubeObject>('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`);
    await this.request('PUT', `/api/v1/namespaces/${encodeURIComponent(name)}/finalize`, { ...ns, spec: { finalizers: [] } });
  }

  async namespacedResources(): Promise<ResourceRef[]> {
    const out: ResourceRef[] = [];
    const groups = await this.request<{ groups?: { preferredVersion?: { groupVersion?: string } }[] }>('GET', '/apis');
    const versions = [{ group: '', version: 'v1' }];
    for (const g of groups.groups ?? []) {
      const gv = g.preferredVersion?.groupVersion ?? '';
      const slash = gv.indexOf('/');
      if (slash > 0) versions.push({ group: gv.slice(0, slash), version: gv.slice(slash + 1) });
    }
    for (const gv of versions) {
      const list = await this.request<{ resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[] }>('GET', groupVersionPath(gv));
      for (const r of list.resources ?? []) {
        if (r.namespaced && !r.name.includes('/') && r.verbs?.includes('list')) out.push({ ...gv, resource: r.name, kind: r.kind, namespaced: true, verbs: r.verbs });
      }
    }
    return out;
  }

  now(): Date {
    return new Date();
  }

  close(): void {
    this.agent.destroy();
  }
}
