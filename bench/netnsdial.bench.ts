// The agent's CPU for N tcpSocket-probe dials into a pod's network namespace: a busybox nc
// spawned per dial (the old path, still the fallback without perl) against the pod's long-lived
// dialer (streaming/netnsdialer.ts). A pinned network namespace with a listener on 127.0.0.1:8080
// (perl), as a sandbox has; root, unshare, nsenter, perl and /bin/busybox needed. Prints, per
// path: the agent's own CPU (process.cpuUsage), the CPU of the children it spawned and reaped
// (/proc/self/stat cutime+cstime), the dialer's (its process and its reaped connection children),
// the whole machine's busy CPU over the run (the only place the dialer's forked connections show;
// other work on the machine is in it too) and the wall time, with the load average before and after. Not a test: nothing is asserted.
//
//   npx tsc -p . && node dist/bench/netnsdial.bench.js [N]

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinNamespaces, unpinNamespaces } from '../src/agent/runtime/nspin.js';
import { spawnDialer } from '../src/agent/streaming/netnsdial.js';
import { dialerPidName, NetnsDialers, stopNetnsDialer } from '../src/agent/streaming/netnsdialer.js';

const n = Number(process.argv[2] ?? 300);
const ticks = 100; // USER_HZ

function procCPU(pid: number | 'self'): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 14-17 (utime stime cutime cstime) are 11-14 after the state
  return { own: (Number(f[11]) + Number(f[12])) / ticks, children: (Number(f[13]) + Number(f[14])) / ticks };
}

/** The whole machine's busy CPU seconds so far (/proc/stat: all but idle and iowait): what the dialer's forked connections cost is only seen here. */
function machineBusy(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / ticks;
}

async function run(name: string, dial: () => Promise<string | undefined>, dialerPid?: () => number | undefined): Promise<void> {
  const la0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const ch0 = procCPU('self').children;
  const m0 = machineBusy();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const why = await dial();
    if (why !== undefined) throw new Error(`${name}: dial ${i} failed: ${why}`);
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const ch = procCPU('self').children - ch0;
  const machine = machineBusy() - m0;
  const dp = dialerPid?.();
  const d = dp ? procCPU(dp) : undefined;
  const agent = (cpu.user + cpu.system) / 1e6;
  console.log(
    `${name}: ${n} dials, agent ${agent.toFixed(2)} s CPU (${((agent / n) * 1000).toFixed(2)} ms/dial), its spawned children ${ch.toFixed(2)} s, ` +
      `${d ? `dialer ${(d.own + d.children).toFixed(2)} s (own ${d.own.toFixed(2)}, connections ${d.children.toFixed(2)}), ` : ''}machine ${machine.toFixed(2)} s busy, wall ${wall.toFixed(2)} s; load average ${la0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
  );
}

const base = mkdtempSync(join(tmpdir(), 'bulkhead-dial-bench-'));
const bundle = join(base, 'bundle');
const pin = join(bundle, 'ns', 'network');
await pinNamespaces(join(bundle, 'ns'), ['network']);
const server = spawn('nsenter', [`--net=${pin}`, 'perl', '-e', `use Socket; socket(my $l, AF_INET, SOCK_STREAM, 0) or die; setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1); bind($l, pack_sockaddr_in(8080, INADDR_LOOPBACK)) or die; listen($l, 1024) or die; while (accept(my $c, $l)) { close $c }`], { stdio: 'ignore' });
try {
  for (let i = 0; i < 200; i++) {
    if (execFileSync('nsenter', [`--net=${pin}`, '/bin/busybox', 'netstat', '-ltn'], { encoding: 'utf8' }).includes(':8080 ')) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  // The old tcpSocket probe: `nsenter --net=<pin> busybox nc -w 1 127.0.0.1 8080 -e /bin/true` per period.
  await run('spawned busybox nc per dial', () => new Promise((resolve) => {
    const c = spawn('nsenter', [`--net=${pin}`, '/bin/busybox', 'nc', '-w', '1', '127.0.0.1', '8080', '-e', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    c.once('close', (code) => resolve(code === 0 ? undefined : err || `exit ${code}`));
  }));
  void spawnDialer;
  const dialers = new NetnsDialers();
  const check = async () => {
    const c = dialers.check(pin, '127.0.0.1', 8080, 1)!;
    const why = await c.failed;
    c.close();
    return why;
  };
  await check(); // the dialer's start is not counted
  await run("the pod's dialer", check, () => Number(readFileSync(join(bundle, dialerPidName), 'utf8').trim()));
} finally {
  await stopNetnsDialer(bundle);
  server.kill('SIGKILL');
  await unpinNamespaces(join(bundle, 'ns')).catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
}
