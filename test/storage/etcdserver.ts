// A throwaway etcd for tests: Debian's etcd-server (/usr/bin/etcd, installed by
// scripts/install-host-deps.sh --tests) on loopback, on free ports, with a temporary data dir.
// Only the PID started here is ever killed. `sharedEtcd()` gives one per test file (per
// process), stopped when the process exits. No side effects on import.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../freeport.js';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const etcdBinary = process.env.BULKHEAD_TEST_ETCD ?? '/usr/bin/etcd';

/** Why the etcd tests cannot run here, or undefined when they can. */
export function etcdMissing(): string | undefined {
  return existsSync(etcdBinary) ? undefined : `${etcdBinary} is not installed (Debian's etcd-server; scripts/install-host-deps.sh --tests installs it)`;
}

export interface TestEtcd {
  dir: string;
  /** host:port of its client URL. */
  endpoint: string;
  /** `etcd://host:port`, a --store spec. */
  spec: string;
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL and start again on the same ports and data dir (an etcd crash and restart). */
  restart(): Promise<void>;
}

/** PEM files for a member that serves TLS and requires client certificates signed by `trustedCaFile`. */
export interface EtcdServerTLS {
  certFile: string;
  keyFile: string;
  trustedCaFile: string;
  /** A client certificate and key the health check may use. */
  client: { ca: Buffer; cert: Buffer; key: Buffer };
}

interface Member {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Starts one member on these ports and data dir; undefined (and the reason) when it did not become healthy. */
async function spawnMember(dataDir: string, client: number, peer: number, tls: EtcdServerTLS | undefined, state: 'new' | 'existing'): Promise<Member | { error: string }> {
  const clientURL = `${tls ? 'https' : 'http'}://127.0.0.1:${client}`;
  const peerURL = `http://127.0.0.1:${peer}`;
  const child: ChildProcess = spawn(etcdBinary, [
    '--name', 'test', '--data-dir', dataDir,
    '--listen-client-urls', clientURL, '--advertise-client-urls', clientURL,
    '--listen-peer-urls', peerURL, '--initial-advertise-peer-urls', peerURL,
    '--initial-cluster', `test=${peerURL}`, '--initial-cluster-state', state,
    '--log-level', 'error', '--logger', 'zap',
    ...(tls ? ['--cert-file', tls.certFile, '--key-file', tls.keyFile, '--client-cert-auth', '--trusted-ca-file', tls.trustedCaFile] : []),
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  if (!(await waitHealthy(clientURL, child, tls?.client))) {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    return { error: err };
  }
  // Neither the process nor its pipe keeps the test process alive; the exit hook kills it.
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  child.unref();
  return { child, exited };
}

async function kill(m: Member): Promise<void> {
  if (m.child.exitCode === null && m.child.signalCode === null) {
    m.child.ref(); // else nothing may keep this process alive until the exit is seen
    m.child.kill('SIGKILL');
    await m.exited;
  }
}

export async function startEtcd(tls?: EtcdServerTLS): Promise<TestEtcd> {
  const missing = etcdMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'bulkhead-etcd-'));
  for (let attempt = 0; ; attempt++) {
    const [client, peer] = [await freePort(), await freePort()];
    const dataDir = join(dir, `data-${attempt}`);
    const started = await spawnMember(dataDir, client, peer, tls, 'new');
    if ('error' in started) {
      // A port taken between choosing and binding: try new ones.
      if (attempt < 3 && /address already in use/.test(started.error)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`etcd did not become healthy: ${started.error}`);
    }
    let member = started;
    const etcd: TestEtcd = {
      dir,
      endpoint: `127.0.0.1:${client}`,
      spec: `etcd://127.0.0.1:${client}`,
      pid: member.child.pid!,
      async stop() {
        await kill(member);
        rmSync(dir, { recursive: true, force: true });
      },
      async restart() {
        await kill(member);
        const again = await spawnMember(dataDir, client, peer, tls, 'existing');
        if ('error' in again) throw new Error(`etcd did not come back: ${again.error}`);
        member = again;
        etcd.pid = member.child.pid!;
      },
    };
    return etcd;
  }
}

/** GET /health, over TLS with a client certificate when given. */
function health(url: string, client?: { ca: Buffer; cert: Buffer; key: Buffer }): Promise<boolean> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(`${url}/health`, client ? { ca: client.ca, cert: client.cert, key: client.key } : {}, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve(res.statusCode === 200 && /"health":\s*"true"/.test(body)));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => req.destroy());
  });
}

async function waitHealthy(url: string, child: ChildProcess, client?: { ca: Buffer; cert: Buffer; key: Buffer }): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) return false;
    if (await health(url, client)) return true;
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
