// A real `bulkhead server` in a child process, for tests that must survive (and see) the
// server dying: kill -9 durability, and the fuzz test's crash and memory checks.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../freeport.js';
import { join } from 'node:path';
import { Client } from './client.js';

export interface ChildServer {
  child: ChildProcess;
  port: number;
  ca: string;
  /** The bearer token of a user in the data dir's tokens.json (the admin, or system:node:<name>). */
  token(user: string): string;
  /** The node `bulkhead server` wrote node.kubeconfig for (this host's name). */
  nodeName(): string;
  client: Client;
  output(): string;
  /** Peak resident memory of the server process in bytes, from /proc/<pid>/status (VmHWM). */
  peakRSS(): number;
  stop(): Promise<void>;
}

export async function waitFor(what: string, fn: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startChildServer(dataDir: string, extraArgs: string[] = []): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/bin/main.js', 'server', '--data-dir', dataDir, '--listen', `127.0.0.1:${port}`, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await waitFor('server start', () => out.includes('is running at') || child.exitCode !== null);
  if (child.exitCode !== null) throw new Error(`bulkhead server exited ${child.exitCode}:\n${out}`);
  const ca = readFileSync(join(dataDir, 'pki', 'ca.crt'), 'utf8');
  const entries = () => JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8')) as { token: string; user: string }[];
  const token = (user: string) => {
    const e = entries().find((t) => t.user === user);
    if (!e) throw new Error(`no token for ${user} in tokens.json`);
    return e.token;
  };
  const client = new Client(`https://127.0.0.1:${port}`, ca, token('bulkhead-admin'), 16);
  return {
    child,
    port,
    ca,
    token,
    nodeName: () => entries().find((t) => t.user.startsWith('system:node:'))!.user.slice('system:node:'.length),
    client,
    output: () => out,
    peakRSS() {
      const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : NaN;
    },
    async stop() {
      client.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
