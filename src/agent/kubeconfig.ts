// Reading a kubeconfig's current context: the server, its CA and a bearer token — what the
// agent needs to talk to the API server (Bulkhead's identities are bearer tokens).

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { load } from 'js-yaml';

export interface ClientConfig {
  server: string;
  ca: string;
  token: string;
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
  const user = pick<{ token?: string; tokenFile?: string }>(doc.users, ctx.user ?? '', 'user', file);
  if (!cluster.server) throw new KubeconfigError(`${file}: cluster "${ctx.cluster}" has no server`);
  let ca: string;
  if (cluster['certificate-authority-data']) ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  else if (cluster['certificate-authority']) ca = readFileSync(resolve(dirname(file), cluster['certificate-authority']), 'utf8');
  else throw new KubeconfigError(`${file}: cluster "${ctx.cluster}" has no certificate authority`);
  let token = user.token;
  if (!token && user.tokenFile) token = readFileSync(resolve(dirname(file), user.tokenFile), 'utf8').trim();
  if (!token) throw new KubeconfigError(`${file}: user "${ctx.user}" has no token (Bulkhead identities are bearer tokens)`);
  return { server: cluster.server, ca, token };
}
