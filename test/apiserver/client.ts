// A minimal HTTPS client for tests and benchmarks: keep-alive, the cluster CA, a bearer token
// or a client certificate.

import { Agent, request } from 'node:https';
import { createGunzip } from 'node:zlib';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, decompressed when it came gzipped. */
  text: string;
  /** The body as received (not decompressed). */
  raw: Buffer;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export class Client {
  private readonly agent: Agent;
  /** `clientCert`: authenticate by a client certificate (a node that joined) instead of a token. */
  constructor(readonly baseURL: string, private readonly ca: string, private readonly token?: string, maxSockets = 64, clientCert?: { cert: string; key: string }) {
    this.agent = new Agent({ ca, keepAlive: true, maxSockets, ...clientCert });
  }

  request(method: string, path: string, body?: unknown, headers: Record<string, string | string[]> = {}): Promise<Response> {
    const url = new URL(path, this.baseURL);
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
            Accept: 'application/json',
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          // A gzipped body is decompressed as it arrives (as Go's transport does for kubectl).
          const gunzip = res.headers['content-encoding'] === 'gzip' ? createGunzip() : undefined;
          const plain: Buffer[] = [];
          gunzip?.on('data', (c: Buffer) => plain.push(c));
          gunzip?.on('error', reject);
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            gunzip?.write(c);
          });
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const done = () => {
              const text = (gunzip ? Buffer.concat(plain) : raw).toString('utf8');
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text, raw, json: () => JSON.parse(text) });
            };
            if (!gunzip) return done();
            gunzip.on('end', done);
            gunzip.end();
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
