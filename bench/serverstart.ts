// The server-start part of bench:startup: `bulkhead server` spawned until the first 200 on
// /readyz (polled every 5 ms over HTTPS, a new connection each time), on a fresh data dir (the
// CA, certificates, tokens and database made on the way) and on an existing one, each 5 times.
// Baselines measured in the same run: `node -e ''` spawned until it exits, and a bare Node
// HTTPS server (the same node flags, the server's own certificate) spawned until its first 200.
// Beside each wall time, the CPU time the process had used when it answered (from /proc), which
// a busy machine inflates far less. Target (issue 13): ≤ 300 ms on an existing data dir (the first
// start of a data dir makes the CA and certificates once, with the X.509 library).
// The existing data dir is restarted as a user restarts it: on the same port (a new port would
// have the server rewrite the kubernetes Service's port at start), each run stopped with SIGTERM
// once it is up (the banner printed: its handlers installed) and waited for, so that every start
// follows a clean stop, whose work (the node's serving certificate written, the Endpoints
// released) is done, as after Ctrl-C.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { freePort } from '../test/freeport.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { nodeEnv, nodeFlags } from '../src/cli/nodeflags.js';

// BENCH_MAIN: another build's main.js, to compare builds in one run of the baselines.
const mainJs = process.env.BENCH_MAIN ?? fileURLToPath(new URL('../bin/main.js', import.meta.url));
const runs = Number(process.env.BENCH_START_RUNS ?? 5);

/** The status of GET /readyz, or 0 while nothing answers. */
function readyz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
    req.end();
  });
}

/** CPU time (user + system) the process has used so far, in ms, from /proc; 0 where there is none. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks: USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * Milliseconds from spawning `args` until /readyz on `port` answers 200, and the CPU time the
 * child had used by then (steadier than the wall time on a busy machine); the child is then killed.
 */
async function spawnToReady(args: string[], port: number, cpu: number[], stop: 'kill' | 'clean' = 'kill'): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...nodeEnv } });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d) => (err += d));
  child.stdout!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  let ready = false;
  try {
    for (;;) {
      if ((await readyz(port)) === 200) {
        const ms = performance.now() - t0;
        cpu.push(cpuMs(child.pid!));
        ready = true;
        return ms;
      }
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before answering:\n${err}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    if (stop === 'clean' && ready) {
      // Up once the banner is out (`bulkhead server` prints it after installing its SIGTERM handler).
      const upBy = performance.now() + 30_000;
      while (!out.includes('is running at') && child.exitCode === null && performance.now() < upBy) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 30_000))]);
      if (code !== 0) {
        child.kill('SIGKILL');
        await exited;
        throw new Error(`did not stop cleanly on SIGTERM (${code}):\n${err}`);
      }
    } else {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

async function spawnToExit(args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...nodeEnv } });
  await new Promise((r) => child.once('exit', r));
  return performance.now() - t0;
}

const bareServer = `
const { createServer } = require('node:https');
const { readFileSync } = require('node:fs');
const [dir, port] = process.argv.slice(2);
createServer({ cert: readFileSync(dir + '/pki/apiserver.crt'), key: readFileSync(dir + '/pki/apiserver.key') }, (q, s) => s.end('ok')).listen(+port, '127.0.0.1');
`;

export interface Figures {
  label: string;
  ms: number[];
  /** The process's CPU time at that point, where measured. */
  cpuMs?: number[];
}

/** The figures, each as min / median / max over `runs`, in the order printed. */
export async function serverStartFigures(): Promise<Figures[]> {
  const root = mkdtempSync(join(tmpdir(), 'bulkhead-bench-start-'));
  try {
    const existing = join(root, 'existing');
    const existingPort = await freePort();
    const server = async (dir: string, cpu: number[], port?: number) => {
      const p = port ?? (await freePort());
      return spawnToReady([...nodeFlags, mainJs, 'server', '--data-dir', dir, '--listen', `127.0.0.1:${p}`], p, cpu, port === undefined ? 'kill' : 'clean');
    };
    await server(existing, [], existingPort); // makes the data dir (not measured)
    const bareJs = join(root, 'bare.cjs');
    writeFileSync(bareJs, bareServer);
    const nodeE: number[] = [];
    const bare: number[] = [];
    const fresh: number[] = [];
    const again: number[] = [];
    const cpu = { bare: [] as number[], fresh: [] as number[], again: [] as number[] };
    // Interleaved, so that a busy moment of the machine falls on all of them alike.
    for (let i = 0; i < runs; i++) {
      nodeE.push(await spawnToExit([...nodeFlags, '-e', '']));
      const port = await freePort();
      bare.push(await spawnToReady([...nodeFlags, bareJs, existing, String(port)], port, cpu.bare));
      const dir = join(root, `fresh-${i}`);
      fresh.push(await server(dir, cpu.fresh));
      rmSync(dir, { recursive: true, force: true });
      again.push(await server(existing, cpu.again, existingPort));
    }
    return [
      { label: "baseline  node -e '' (spawn → exit)", ms: nodeE },
      { label: 'baseline  bare Node HTTPS server, same cert (spawn → first 200)', ms: bare, cpuMs: cpu.bare },
      { label: 'server    fresh data dir (spawn → first 200 on /readyz)', ms: fresh, cpuMs: cpu.fresh },
      { label: 'server    existing data dir (spawn → first 200 on /readyz)', ms: again, cpuMs: cpu.again },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function minMedianMax(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(0).padStart(5)}`;
  return `${f(s[0]!)} /${f(s[Math.floor((s.length - 1) / 2)]!)} /${f(s[s.length - 1]!)} ms`;
}
