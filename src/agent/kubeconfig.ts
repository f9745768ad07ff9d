// Reading a kubeconfig's current context: the server, its CA and a bearer token or a client
// certificate — what the agent needs to talk to the API server (the server's own node has a
// token; a node that joined with a bootstrap token has the certificate the cluster CA signed).

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { load } from 'js-yaml';
import { renderKubeconfig } from '../api/kubeconfig.js';

export interface ClientConfig {
  server: string;
  ca: string;
  /** A bearer token, or a client certificate and its key (PEM): a node that joined has the latter. */
  token?: string;
  cert?: string;
  key?: string;
}

interface Named<T> {
  name: string;
  [k: string]: unknown;
  value?: T;
}

export class KubeconfigError extends Error {}

function pick<T>(list: unknown, name: string, field: string, file: string): T {
  const items = Array.isArray(list) ? (list as Named<T>[]) : [];
  const hit = items.find((i) => i && i.name === name);
  if (!hit || typeof hit[field] !== 'object' || hit[field] === null) throw new KubeconfigError(`${file}: no ${field} named "${name}"`);
  return hit[field] as T;
}

export function readKubeconfig(file: string): ClientConfig {
  let doc: Record<string, unknown>;
  try {
    doc = load(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as { reason?: string }).reason ?? (e as Error).message.split('\n')[0];
    throw new KubeconfigError(`cannot read kubeconfig ${file}: ${why}`);
  }
  if (!doc || typeof doc !== 'object') throw new KubeconfigError(`${file}: not a kubeconfig`);
  const current = doc['current-context'];
  if (typeof current !== 'string' || !current) throw new KubeconfigError(`${file}: no current-context`);
  const ctx = pick<{ cluster?: string; user?: string }>(doc.contexts, current, 'context', file);
  const cluster = pick<{ server?: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string }>(doc.clusters, ctx.cluster ?? '', 'cluster', file);
  const user = pick<{ token?: string; tokenFile?: string; 'client-certificate-data'?: string; 'client-key-data'?: string; 'client-certificate'?: string; 'client-key'?: string }>(doc.users, ctx.user ?? '', 'user', file);
  if (!cluster.server) throw new KubeconfigError(`${file}: cluster "${ctx.cluster}" has no server`);
  let ca: string;
  if (cluster['certificate-authority-data']) ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  else if (cluster['certificate-authority']) ca = readFileSync(resolve(dirname(file), cluster['certificate-authority']), 'utf8');
  else throw new KubeconfigError(`${file}: cluster "${ctx.cluster}" has no certificate authority`);
  const data = (inline: string | undefined, path: string | undefined) =>
    inline ? Buffer.from(inline, 'base64').toString('utf8') : path ? readFileSync(resolve(dirname(file), path), 'utf8') : undefined;
  const cert = data(user['client-certificate-data'], user['client-certificate']);
  const key = data(user['client-key-data'], user['client-key']);
  if (cert && key) return { server: cluster.server, ca, cert, key };
  let token = user.token;
  if (!token && user.tokenFile) token = readFileSync(resolve(dirname(file), user.tokenFile), 'utf8').trim();
  if (!token) throw new KubeconfigError(`${file}: user "${ctx.user}" has neither a token nor a client certificate and key`);
  return { server: cluster.server, ca, token };
}

/** A kubeconfig whose user is a client certificate (what a node that joined writes). */
export function certKubeconfig(server: string, ca: string, user: string, cert: string, key: string, context = 'bulkhead'): string {
  return renderKubeconfig({ server, ca, user, credentials: { clientCertificate: cert, clientKey: key }, context });
}
