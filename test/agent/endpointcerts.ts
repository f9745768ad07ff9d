// Certificates for tests of the agent endpoint, made by the server's own PKI code: a cluster CA,
// a node serving certificate for 127.0.0.1, client certificates it signed, and (from a second,
// unrelated CA) one it did not.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNodeServingCert, ensurePKI, issueCert } from '../../src/apiserver/pki.js';
import { certificateUser, type EndpointAuthenticator, type EndpointUser } from '../../src/agent/endpointauth.js';

export interface TestCerts {
  ca: string;
  serving: { cert: string; key: string };
  /** A client certificate the cluster CA signed. */
  client(commonName: string, organizations?: string[]): Promise<{ cert: string; key: string }>;
  /** A client certificate for `commonName` from a CA the endpoint does not trust. */
  stranger(commonName: string): Promise<{ cert: string; key: string }>;
  cleanup(): void;
}

export async function testCerts(node = 'n1'): Promise<TestCerts> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-certs-'));
  const pki = await ensurePKI(join(dir, 'cluster'));
  await ensurePKI(join(dir, 'other'));
  const caOf = (d: string) => ({ cert: readFileSync(join(dir, d, 'ca.crt'), 'utf8'), key: readFileSync(join(dir, d, 'ca.key'), 'utf8') });
  return {
    ca: pki.caCert,
    serving: await ensureNodeServingCert(join(dir, 'cluster'), node, ['127.0.0.1']),
    client: (cn, orgs) => issueCert(caOf('cluster'), { commonName: cn, organizations: orgs, usage: 'client' }),
    stranger: (cn) => issueCert(caOf('other'), { commonName: cn, usage: 'client' }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An authenticator with fixed answers, for endpoint tests: certificates as the real one reads
 * them, `tokens` for bearer tokens, `allowed(user, verb, subresource)` for decisions.
 */
export function fixedAuthenticator(tokens: Record<string, EndpointUser>, allowed: (user: EndpointUser, verb: string, subresource: string) => boolean): EndpointAuthenticator {
  return {
    authenticate: async (req) => {
      const cert = certificateUser(req);
      if (cert) return cert;
      const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      return m ? tokens[m[1]!] : undefined;
    },
    authorize: async (user, verb, sub) => allowed(user, verb, sub),
  };
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** One HTTPS request to the endpoint, verifying its certificate against `ca`. */
export function httpsGet(url: string, o: { ca: string; token?: string; cert?: { cert: string; key: string }; method?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', ca: o.ca, ...(o.cert ?? {}), agent: false, headers: o.token ? { Authorization: `Bearer ${o.token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
