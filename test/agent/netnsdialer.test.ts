// The pods' long-lived network namespace dialers (src/agent/streaming/netnsdialer.ts) on the real
// kernel: a pinned network namespace with loopback up (runtime/nspin.ts, as a sandbox's), an
// echo server inside it (busybox nc -ll -e cat), and the dialer under real perl. Each row pins
// one rule: bytes relayed both ways, errors in the words of the busybox nc per dial it replaces
// (the fallback is run beside it and must say the same), one process for many dials, a restart
// after a kill or after the agent's restart (a stale socket), and nothing left once the sandbox's
// dialer is stopped or its bundle removed. Needs root, unshare, nsenter, perl and /bin/busybox;
// otherwise it skips and says why. No row asserts a duration: waits poll with a generous bound.

import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pinNamespaces, unpinNamespaces } from '../../src/agent/runtime/nspin.js';
import { mountPoints } from '../../src/agent/runtime/overlay.js';
import { spawnDialer, type PodConnection } from '../../src/agent/streaming/netnsdial.js';
import { dialerPidName, dialerSocketName, NetnsDialers, stopNetnsDialer } from '../../src/agent/streaming/netnsdialer.js';
import { realKernelSkipReason } from './cgrouptrees.js';

const reason = realKernelSkipReason(['unshare', 'nsenter', 'perl', 'umount']);
if (reason) console.error(`test/agent/netnsdialer.test: SKIPPING real-kernel dialer tests: ${reason}`);
const opts = reason ? { skip: reason } : {};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Whether `pid` is a process that has not exited (a zombie has: its files are closed). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};
const pidIn = (dir: string) => Number(readFileSync(join(dir, dialerPidName), 'utf8').trim());
/** The PIDs whose parent is `pid` (a dialer's connection children). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

const echoServer = `use Socket; socket(my $l, AF_INET, SOCK_STREAM, 0) or die; setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1);
bind($l, pack_sockaddr_in(7, INADDR_LOOPBACK)) or die; listen($l, 1024) or die; $SIG{CHLD} = 'IGNORE';
while (accept(my $c, $l)) { next if fork(); close $l; while (my $n = sysread($c, my $b, 65536)) { syswrite($c, $b) } exit 0 }`;

/** A server on 8 that accepts and holds its connections, never reading, writing or closing them. */
const holdServer = `use Socket; socket(my $l, AF_INET, SOCK_STREAM, 0) or die; setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1);
bind($l, pack_sockaddr_in(8, INADDR_LOOPBACK)) or die; listen($l, 1024) or die; my @held;
while (accept(my $c, $l)) { push @held, $c }`;

/** Writes `send`, ends the writing side, and reads to the end: what came back (or the dial's error). */
async function exchange(c: PodConnection, send: string): Promise<string> {
  const why = await c.failed;
  if (why !== undefined) return `failed: ${why}`;
  let got = '';
  c.readable.on('data', (b: Buffer) => (got += b.toString()));
  const ended = new Promise<void>((r) => c.readable.once('end', () => r()));
  c.writable.end(send);
  await ended;
  c.close();
  return got;
}

describe('pod network namespace dialers (real kernel, real perl)', { ...opts, concurrency: false }, () => {
  const base = reason ? '' : mkdtempSync(join(tmpdir(), 'bulkhead-dialer-test-'));
  /** A sandbox bundle as the pod worker lays it out: <bundle>/ns/network is the pin. */
  const bundle = join(base, 'bundles', 'pod-POD-0');
  const pin = join(bundle, 'ns', 'network');
  const started: ChildProcess[] = [];
  const dialers: string[] = [bundle];

  before(async () => {
    if (reason) return;
    await pinNamespaces(join(bundle, 'ns'), ['network']);
    // An echo server on 7 inside the pod's namespace, a process per connection; nothing listens on 9 there.
    const echo = spawn('nsenter', [`--net=${pin}`, 'perl', '-e', echoServer], { stdio: 'ignore' });
    const hold = spawn('nsenter', [`--net=${pin}`, 'perl', '-e', holdServer], { stdio: 'ignore' });
    started.push(echo, hold);
    await until('the echo and holding servers listen', () => {
      try {
        const listening = execFileSync('nsenter', [`--net=${pin}`, '/bin/busybox', 'netstat', '-ltn'], { encoding: 'utf8' });
        return listening.includes(':7 ') && listening.includes(':8 ');
      } catch {
        return false;
      }
    });
  });

  after(async () => {
    if (reason) return;
    for (const d of dialers) await stopNetnsDialer(d);
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await unpinNamespaces(join(bundle, 'ns')).catch(() => undefined);
    for (const m of mountPoints()) if (m.startsWith(base + '/')) execFileSync('umount', [m]);
    rmSync(base, { recursive: true, force: true });
  });

  it('a dial is relayed both ways: what is sent reaches the echo server and comes back, then the connection ends', async () => {
    const d = new NetnsDialers();
    assert.equal(d.relay, true);
    assert.equal(await exchange(d.dial(pin, '127.0.0.1', 7), 'hello through the dialer\n'), 'hello through the dialer\n');
    // A larger payload both ways (more than one read of either side).
    const big = 'x'.repeat(300_000) + '\n';
    assert.equal(await exchange(d.dial(pin, '127.0.0.1', 7), big), big);
  });

  // Each failure in the words the busybox nc per dial used, run beside it: the texts the probes and
  // port-forward build on (ncFailure, dialError) stay what they were.
  const failures: [string, string, number, RegExp][] = [
    ['a refused port', '127.0.0.1', 9, /^dial tcp4 127\.0\.0\.1:9: connect: connection refused$/],
    ['a refused port on IPv6 loopback', '::1', 9, /^dial tcp4 ::1:9: connect: connection refused$/],
    ['an address with no route (only loopback in the namespace)', '1.2.3.4', 80, /^nc: can't connect to remote host \(1\.2\.3\.4\): Network is unreachable$/],
    ['a name that does not resolve', 'no-such-host.invalid', 80, /^nc: bad address 'no-such-host\.invalid'$/],
  ];
  for (const [name, host, port, want] of failures) {
    it(`${name}: the dialer says what busybox nc said`, async () => {
      const viaDialer = await new NetnsDialers().dial(pin, host, port).failed;
      const spawned = spawnDialer().dial(pin, host, port);
      const viaNc = await spawned.failed;
      spawned.close();
      assert.match(viaDialer ?? '(connected)', want);
      assert.equal(viaDialer, viaNc);
    });
  }

  it("a tcpSocket probe's bare connect: ok for a listener, refused in nc's words for none, and its connection does not stay", async () => {
    const d = new NetnsDialers();
    const ok = d.check(pin, '127.0.0.1', 7, 1)!;
    assert.equal(await ok.failed, undefined);
    ok.close();
    const refused = d.check(pin, '127.0.0.1', 9, 1)!;
    assert.equal(await refused.failed, 'dial tcp4 127.0.0.1:9: connect: connection refused');
    await until('no connection child left', () => childrenOf(pidIn(bundle)).length === 0);
    // Without a pin of its own (a process's namespace), there is no bare connect: the probe spawns nc.
    assert.equal(d.check('/proc/1/ns/net', '127.0.0.1', 7), undefined);
  });

  it('one dialer serves many dials: the same process, recorded in the bundle, for every one', async () => {
    const d = new NetnsDialers();
    await exchange(d.dial(pin, '127.0.0.1', 7), 'first\n');
    const pid = pidIn(bundle);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => exchange(d.dial(pin, '127.0.0.1', 7), `dial ${i}\n`)));
    assert.deepEqual(answers, Array.from({ length: 20 }, (_, i) => `dial ${i}\n`));
    assert.equal(pidIn(bundle), pid);
    assert.ok(alive(pid));
    assert.ok(existsSync(join(bundle, dialerSocketName)));
  });

  it('a client that goes away mid-connection ends that connection inside the dialer, even towards a server that never closes', async () => {
    const d = new NetnsDialers();
    const c = d.dial(pin, '127.0.0.1', 8);
    assert.equal(await c.failed, undefined);
    const pid = pidIn(bundle);
    assert.equal(childrenOf(pid).length, 1);
    c.close();
    await until('the connection child ended', () => childrenOf(pid).length === 0);
  });

  it('a dialer that was killed is started again by the next dial', async () => {
    const d = new NetnsDialers();
    await exchange(d.dial(pin, '127.0.0.1', 7), 'before\n');
    const pid = pidIn(bundle);
    process.kill(pid, 'SIGKILL');
    await until('the killed dialer is gone', () => !alive(pid));
    assert.equal(await exchange(d.dial(pin, '127.0.0.1', 7), 'after\n'), 'after\n');
    assert.notEqual(pidIn(bundle), pid);
  });

  it("after the agent's restart: a live dialer is found again; a stale socket (its dialer dead) is replaced", async () => {
    await exchange(new NetnsDialers().dial(pin, '127.0.0.1', 7), 'one agent\n');
    const pid = pidIn(bundle);
    // A new agent: nothing in memory, the same bundle.
    assert.equal(await exchange(new NetnsDialers().dial(pin, '127.0.0.1', 7), 'next agent\n'), 'next agent\n');
    assert.equal(pidIn(bundle), pid);
    process.kill(pid, 'SIGKILL');
    await until('the dialer is gone', () => !alive(pid));
    assert.ok(existsSync(join(bundle, dialerSocketName)), 'the socket file stays behind');
    assert.equal(await exchange(new NetnsDialers().dial(pin, '127.0.0.1', 7), 'a third agent\n'), 'a third agent\n');
    assert.notEqual(pidIn(bundle), pid);
  });

  it("stopping the sandbox's dialer ends it and its open connections and removes its socket and PID file", async () => {
    const d = new NetnsDialers();
    const open = d.dial(pin, '127.0.0.1', 7);
    assert.equal(await open.failed, undefined);
    const pid = pidIn(bundle);
    const kids = childrenOf(pid);
    assert.equal(kids.length, 1);
    const ended = new Promise<void>((r) => open.readable.once('end', () => r()));
    open.readable.resume();
    await stopNetnsDialer(bundle);
    assert.equal(alive(pid), false);
    await until('its connection ended', () => kids.every((k) => !alive(k)));
    await ended;
    assert.equal(existsSync(join(bundle, dialerSocketName)), false);
    assert.equal(existsSync(join(bundle, dialerPidName)), false);
    await stopNetnsDialer(bundle); // none left: a no-op
  });

  it('without perl: every dial spawns busybox nc (the fallback), no dialer is started, the words are the same', async () => {
    await stopNetnsDialer(bundle);
    const d = new NetnsDialers({ perl: null });
    assert.equal(d.relay, false);
    assert.equal(d.check(pin, '127.0.0.1', 7), undefined, 'no bare connect: the tcpSocket probe spawns nc -e /bin/true');
    assert.equal(await d.dial(pin, '127.0.0.1', 9).failed, 'dial tcp4 127.0.0.1:9: connect: connection refused');
    assert.equal(existsSync(join(bundle, dialerSocketName)), false);
    assert.equal(existsSync(join(bundle, dialerPidName)), false);
  });

  it('a dialer whose bundle is removed without it being stopped exits by itself', async () => {
    // Another sandbox bundle, whose dialer is never stopped: its directory goes (rm -r).
    const other = join(base, 'bundles', 'pod-POD-1');
    dialers.push(other);
    await pinNamespaces(join(other, 'ns'), ['network']);
    const d = new NetnsDialers();
    assert.match((await d.dial(join(other, 'ns', 'network'), '127.0.0.1', 7).failed) ?? '', /connection refused/);
    const pid = pidIn(other);
    assert.ok(alive(pid));
    await unpinNamespaces(join(other, 'ns'));
    rmSync(other, { recursive: true, force: true });
    await until('the orphaned dialer exited', () => !alive(pid));
  });
});
