// A real API server in this process and the real kubectl pointed at it, for end-to-end tests.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/start.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestCluster {
  server: RunningServer;
  dir: string;
  /**
   * Async: the server runs in this process, so a synchronous spawn would deadlock it. `binary`
   * picks another client, e.g. a side binary kubectl.1.27 (with a discovery cache of its own).
   */
  kubectl(args: string[], input?: string, binary?: string): Promise<KubectlResult>;
  kubectlAsync(args: string[]): { done: Promise<KubectlResult>; kill(): void; output(): string };
  file(name: string, text: string): string;
  stop(): Promise<void>;
}

export function kubectlAvailable(): string | undefined {
  const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `kubectl is not on PATH (${r.error?.message ?? r.stderr.trim()})`;
}

export async function startCluster(opts: Partial<ServerOptions> = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-e2e-'));
  const server = await startServer({ dataDir: join(dir, 'data'), port: 0, quotaResyncSeconds: 5, ...opts });
  const env = { ...process.env, KUBECONFIG: server.kubeconfigPath, HOME: dir };
  const base = ['--cache-dir', join(dir, 'kube-cache'), '--request-timeout', '20s'];
  return {
    server,
    dir,
    kubectl(args, input, binary) {
      const cache = binary ? ['--cache-dir', join(dir, `kube-cache-${basename(binary)}`)] : [];
      const child = spawn(binary ?? 'kubectl', [...base, ...cache, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.stdin.end(input ?? '');
      return new Promise((resolve) =>
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code: code ?? -1, stdout, stderr });
        }),
      );
    },
    kubectlAsync(args) {
      const child = spawn('kubectl', [...base, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const done = new Promise<KubectlResult>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
      return { done, kill: () => child.kill('SIGTERM'), output: () => stdout };
    },
    file(name, text) {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
