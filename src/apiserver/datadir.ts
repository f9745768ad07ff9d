// Whether the server may create its SQLite database afresh. A data directory that already holds
// this cluster's CA and tokens has had a database; if that file is now missing or empty (0
// bytes), opening it would silently start an empty cluster under the old identity, so the start
// is refused instead. Only a new data directory gets a new database. (kube-apiserver has no such
// file; this plays the part of etcd refusing to start on a member directory it cannot read.)

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The SQLite file a --store spec names (as storage/index.ts parses it), or undefined for memory:. */
export function sqlitePathOf(spec: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(spec);
  const path = !m || m[1]!.length === 1 ? spec : m[1]!.toLowerCase() === 'sqlite' ? m[2] : undefined;
  if (!path || path === ':memory:') return undefined;
  return resolve(path);
}

/** What a data directory holds once a server has started in it. */
function clusterFiles(dataDir: string): string[] {
  return [join(dataDir, 'pki', 'ca.crt'), join(dataDir, 'pki', 'ca.key'), join(dataDir, 'pki', 'service-account.key'), join(dataDir, 'tokens.json')].filter((f) => existsSync(f));
}

/** Throws a one-line Error naming the database when it is missing or empty beside an existing cluster's files. */
export function refuseLostDatabase(dataDir: string, storeSpec: string): void {
  const db = sqlitePathOf(storeSpec);
  if (!db) return;
  const size = existsSync(db) ? statSync(db).size : undefined;
  if (size !== undefined && size > 0) return;
  if (clusterFiles(dataDir).length === 0) return;
  const what = size === undefined ? 'is missing' : 'is empty (0 bytes)';
  throw new Error(
    `${db} ${what}, but ${dataDir} already holds this cluster's certificates and tokens: refusing to start an empty cluster in its place (restore the database from a backup, or remove ${dataDir} to start a new cluster)`,
  );
}
