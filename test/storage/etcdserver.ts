// A throwaway etcd for tests: Debian's etcd-server (/usr/bin/etcd, installed by
// scripts/install-host-deps.sh --tests) on loopback, on free ports, with a temporary data dir.
// Only the PID started here is ever killed. `sharedEtcd()` gives one per test file (per
// process), stopped when the process exits. No side effects on import.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const etcdBinary = process.env.BULKHEAD_TEST_ETCD ?? '/usr/bin/etcd';

/** Why the etcd tests cannot run here, or undefined when they can. */
export function etcdMissing(): string | undefined {
  return existsSync(etcdBinary) ? undefined : `${etcdBinary} is not installed (Debian's etcd-server; scripts/install-host-deps.sh --tests installs it)`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
    srv.on('error', reject);
  });
}

export interface TestEtcd {
  dir: string;
  /** host:port of its client URL. */
  endpoint: string;
  /** `etcd://host:port`, a --store spec. */
  spec: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startEtcd(): Promise<TestEtcd> {
  const missing = etcdMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-etcd-'));
  for (let attempt = 0; ; attempt++) {
    const [client, peer] = [await freePort(), await freePort()];
    const clientURL = `http://127.0.0.1:${client}`;
    const peerURL = `http://127.0.0.1:${peer}`;
    const child: ChildProcess = spawn(etcdBinary, [
      '--name', 'test', '--data-dir', join(dir, `data-${attempt}`),
      '--listen-client-urls', clientURL, '--advertise-client-urls', clientURL,
      '--listen-peer-urls', peerURL, '--initial-advertise-peer-urls', peerURL,
      '--initial-cluster', `test=${peerURL}`, '--initial-cluster-state', 'new',
      '--log-level', 'error', '--logger', 'zap',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const ready = await waitHealthy(clientURL, child);
    if (!ready) {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      // A port taken between choosing and binding: try new ones.
      if (attempt < 3 && /address already in use/.test(err)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`etcd did not become healthy: ${err}`);
    }
    // Neither the process nor its pipe keeps the test process alive; the exit hook kills it.
    (child.stderr as unknown as { unref?: () => void }).unref?.();
    child.unref();
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.ref(); // else nothing may keep this process alive until the exit is seen
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    };
    return { dir, endpoint: `127.0.0.1:${client}`, spec: `etcd://127.0.0.1:${client}`, pid: child.pid!, stop };
  }
}

async function waitHealthy(url: string, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) return false;
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok && ((await r.json()) as { health?: string }).health === 'true') return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

let shared: Promise<TestEtcd> | undefined;

/** One etcd for this test process, killed (by its PID) when the process exits. */
export function sharedEtcd(): Promise<TestEtcd> {
  if (!shared) {
    shared = startEtcd();
    void shared.then((e) => {
      process.once('exit', () => {
        try {
          process.kill(e.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        rmSync(e.dir, { recursive: true, force: true });
      });
    }, () => {});
  }
  return shared;
}
