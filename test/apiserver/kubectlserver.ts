// What the server-tier suites of the API groups share: a server (memory store, no scheduler or
// workload controllers) started before a suite and removed after it, with an admin client;
// whether the real kubectl is there, kubectl run against the server, and its table output split
// into cells. Also the wait for the quota controller's first status, before quota-charged creates.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

export const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

export const kubectlSkip = 'kubectl not installed (or BULKHEAD_SKIP_KUBECTL set)';

export interface TestServer {
  server(): RunningServer;
  /** The suite's temporary directory (the data dir is its `data`). */
  dir(): string;
  /** A client with the admin token. */
  admin(): Client;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Registers before/after hooks in the calling suite: a server (memory store, no scheduler or workload controllers) in a temporary directory. */
export function useTestServer(prefix: string): TestServer {
  let dir: string;
  let s: RunningServer;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    server: () => s,
    dir: () => dir,
    admin: () => admin,
    kubectl: (...args) =>
      new Promise((resolve) => {
        execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      }),
  };
}

/** A table's non-empty lines, split into cells (kubectl separates columns by two or more spaces). */
export const tableRows = (out: string) => out.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s{2,}/));

/** The quota controller fills status.used; until it has, creates are refused as "status unknown". */
export async function waitForQuotaStatus(admin: Client, namespace: string, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const got = await admin.request('GET', `/api/v1/namespaces/${namespace}/resourcequotas/${name}`);
    if (got.json().status?.used) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}
