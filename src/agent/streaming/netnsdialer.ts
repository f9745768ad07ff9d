// One long-lived dialer per pod network namespace, instead of a process per connection (the
// fallback, netnsdial.ts dialPodPort). A probe period of a tcpSocket, httpGet or gRPC probe, a
// lifecycle hook's GET and each port-forward connection dial a port inside the pod's network
// namespace; the agent cannot enter it itself (setns is per thread), and spawning `nsenter …
// busybox nc` for each of them cost a process spawn from the agent's main thread each time
// (110 pods × 3 probes: ~30 a second).
//
// The dialer is a small perl program (perl-base is Essential on Debian; Socket, Fcntl, POSIX
// and Errno are all in it, as for the attach bridge, monitor/attachsocket.ts) started once per
// sandbox with `nsenter --net=<pin>`. It listens on a Unix socket in the sandbox's bundle,
// `<bundle>/dialer.sock` beside the pin `<bundle>/ns/network` (Unix socket paths are not
// network-namespaced), records its PID in `<bundle>/dialer.pid`, and forks for each connection:
// the child reads one line, `PORT TIMEOUT HOST` (TIMEOUT in seconds, 0: the kernel's) with
// `check ` before it for a bare connect (a tcpSocket probe), connects over TCP inside the pod's
// namespace and answers `ok`, or what busybox nc would have written on stderr (`nc: can't
// connect to remote host (127.0.0.1): Connection refused`, `nc: bad address 'x'`, `nc: timed
// out`), so that every error text stays what ncFailure and the probes' dialError made of nc's.
// After `ok` it relays bytes both ways, a half-close passed on as nc passed its stdin's EOF; a
// client that went away altogether (a zero-length send fails with EPIPE, unlike after a
// half-close) ends it at once.
//
// The agent finds a dialer by connecting to its socket: a refused or missing socket (it died, or
// was never started, or the agent restarted and a stale socket is left) starts a new one, after
// ending the recorded PID if that is still a dialer of this bundle. stopNetnsDialer ends it (the
// recorded PID's process group: the dialer and its connections) when the sandbox is removed;
// and a dialer whose socket file is gone or replaced (its bundle removed) exits by itself within
// two seconds, its connections within a second of it, so none outlives its pod.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { basename, delimiter, dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { defaultBusyboxPath } from '../runtime/rootfs.js';
import { ncFailure, spawnDialer, type PodConnection, type PodDialer } from './netnsdial.js';

export const dialerSocketName = 'dialer.sock';
export const dialerPidName = 'dialer.pid';
/** In the dialer's command line: how its PID is known to be a dialer before it is killed. */
const dialerMarker = 'bulkhead-netns-dialer';

export const dialerScript = `use strict; use Socket qw(:DEFAULT getaddrinfo); use Fcntl; use POSIX (); use Errno;
my (undef, $dir) = @ARGV;
chdir $dir or die "chdir $dir: $!\\n";
my $name = '${dialerSocketName}';
unlink $name;
socket(my $l, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!\\n";
bind($l, pack_sockaddr_un($name)) or die "bind $dir/$name: $!\\n";
listen($l, 1024) or die "listen: $!\\n";
my $ino = (stat $name)[1];
open(my $pf, '>', '${dialerPidName}.new') or die "${dialerPidName}: $!\\n";
print $pf "$$\\n"; close $pf or die "${dialerPidName}: $!\\n";
rename('${dialerPidName}.new', '${dialerPidName}') or die "${dialerPidName}: $!\\n";
$SIG{CHLD} = 'IGNORE'; $SIG{PIPE} = 'IGNORE';
$| = 1; print "ready\\n";
open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null');
my $me = $$;
for (;;) {
  my $rin = ''; vec($rin, fileno($l), 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, 2);
  my @st = stat $name;
  exit 0 unless @st && $st[1] == $ino;
  next unless $n > 0;
  accept(my $c, $l) or next;
  my $pid = fork();
  if (defined $pid && $pid == 0) { close $l; serve($c); POSIX::_exit(0); }
  close $c;
}
sub nb { my $f = fcntl($_[0], F_GETFL, 0); fcntl($_[0], F_SETFL, $f | O_NONBLOCK); }
sub gone { my $r = send($_[0], '', MSG_DONTWAIT); return !defined($r) && $!{EPIPE}; }
sub serve {
  my ($c) = @_;
  my $buf = '';
  while (index($buf, "\\n") < 0) {
    my $r = sysread($c, $buf, 4096, length $buf);
    return if !$r || length $buf > 4096;
  }
  my $i = index($buf, "\\n");
  my $line = substr($buf, 0, $i);
  my $p0 = substr($buf, $i + 1);
  my $check = $line =~ s/^check //;
  my ($port, $wait, $host) = split / /, $line, 3;
  my ($err, @ai) = getaddrinfo($host, $port, { socktype => SOCK_STREAM });
  if ($err || !@ai) { syswrite($c, "nc: bad address '$host'\\n"); return; }
  my $a = $ai[0];
  my $what = "can't connect to remote host" . ($a->{family} == AF_INET ? ' (' . inet_ntoa((unpack_sockaddr_in($a->{addr}))[1]) . ')' : '');
  socket(my $s, $a->{family}, SOCK_STREAM, 0) or do { syswrite($c, "nc: socket: $!\\n"); return };
  nb($s); nb($c);
  my $e0 = 0;
  if (!connect($s, $a->{addr})) {
    if (!$!{EINPROGRESS}) { syswrite($c, "nc: $what: $!\\n"); return; }
    my $deadline = $wait > 0 ? time + $wait : 0;
    for (;;) {
      my ($rin, $win) = ('', '');
      vec($win, fileno($s), 1) = 1;
      vec($rin, fileno($c), 1) = 1 unless $e0 || length $p0 > 65536;
      my $n = select(my $rout = $rin, my $wout = $win, undef, 1);
      return if getppid() != $me;
      if ($n > 0 && vec($rout, fileno($c), 1)) {
        my $r = sysread($c, $p0, 65536, length $p0);
        if (defined $r && $r == 0) { $e0 = 1; return if gone($c); }
        return if !defined $r && !$!{EAGAIN};
      }
      last if $n > 0 && vec($wout, fileno($s), 1);
      if ($deadline && time >= $deadline) { syswrite($c, "nc: timed out\\n"); return; }
    }
    my $so = unpack('i', getsockopt($s, SOL_SOCKET, SO_ERROR));
    if ($so) { $! = $so; syswrite($c, "nc: $what: $!\\n"); return; }
  }
  syswrite($c, "ok\\n") or return;
  return if $check;
  my ($p1, $e1, $d0, $d1) = ('', 0, 0, 0);
  for (;;) {
    if ($e0 && $p0 eq '' && !$d0) { shutdown($s, 1); $d0 = 1; }
    if ($e1 && $p1 eq '' && !$d1) { shutdown($c, 1); $d1 = 1; }
    return if $d0 && $d1;
    my ($rin, $win) = ('', '');
    vec($rin, fileno($c), 1) = 1 if !$e0 && $p0 eq '';
    vec($rin, fileno($s), 1) = 1 if !$e1 && $p1 eq '';
    vec($win, fileno($s), 1) = 1 if $p0 ne '';
    vec($win, fileno($c), 1) = 1 if $p1 ne '';
    my $n = select(my $rout = $rin, my $wout = $win, undef, 1);
    return if getppid() != $me || ($e0 && gone($c));
    next if $n <= 0;
    for my $d ([$c, $s, \\$p0, \\$e0], [$s, $c, \\$p1, \\$e1]) {
      my ($from, $to, $p, $e) = @$d;
      if (vec($rout, fileno($from), 1)) {
        my $r = sysread($from, $$p, 65536);
        if (!defined $r) { return unless $!{EAGAIN} || $!{EINTR}; $$p = ''; }
        elsif ($r == 0) { $$e = 1; return if $from == $c && gone($c); }
      }
      if ($$p ne '' && vec($wout, fileno($to), 1)) {
        my $w = syswrite($to, $$p);
        if (defined $w) { substr($$p, 0, $w) = ''; } elsif (!$!{EAGAIN}) { return; }
      }
    }
  }
}
`;

/**
 * Where the dialer of a pinned network namespace lives: the sandbox's bundle for
 * `<bundle>/ns/network`, else the pin's directory; none for a namespace that is no pin (a
 * process's /proc/PID/ns/net: its dials spawn busybox nc).
 */
export function dialerDir(pin: string): string | undefined {
  if (pin === 'host' || pin.startsWith('/proc/')) return undefined;
  const d = dirname(pin);
  return basename(d) === 'ns' ? dirname(d) : d;
}

/** The first executable `name` on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const d of (process.env['PATH'] ?? '').split(delimiter)) {
    if (d && existsSync(join(d, name))) return join(d, name);
  }
  return undefined;
}

/** The PID recorded in `dir` if that process is a dialer of `dir` (not a zombie, not a reused PID). */
function recordedDialer(dir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, dialerPidName), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  return isDialerOf(pid, dir) ? pid : undefined;
}

function isDialerOf(pid: number, dir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const at = argv.indexOf(dialerMarker);
    return at >= 0 && argv[at + 1] === dir;
  } catch {
    return false;
  }
}

/** Whether `pid` has exited (gone, or a zombie: its files, the socket among them, are closed). */
function exited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Ends the dialer recorded in `dir` (by its PID, after checking that it is one; its process
 * group, so its connections too) and removes its socket and PID file. A no-op without one.
 */
export async function stopNetnsDialer(dir: string): Promise<void> {
  const pid = recordedDialer(dir);
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Not a group of its own (it always is, started detached): the process alone.
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    for (let i = 0; i < 500 && !exited(pid); i++) await sleep(10);
  }
  for (const n of [dialerSocketName, dialerPidName, `${dialerPidName}.new`]) rmSync(join(dir, n), { force: true });
}

/** A Unix socket connection to `path`; a path longer than sun_path's 107 bytes is reached through its directory's /proc/self/fd entry. */
function connectUnix(path: string): Promise<Socket> {
  let fd: number | undefined;
  let target = path;
  if (Buffer.byteLength(path) > 107) {
    fd = openSync(dirname(path), 'r');
    target = `/proc/self/fd/${fd}/${basename(path)}`;
  }
  return new Promise<Socket>((resolve, reject) => {
    const s = connect(target);
    const done = () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    };
    s.once('connect', () => {
      done();
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', (e) => {
      done();
      reject(e);
    });
  });
}

export interface NetnsDialerOptions {
  /** perl; default the first on PATH (none: every dial spawns busybox nc). */
  perl?: string | null;
  nsenter?: string;
  busybox?: string;
}

/** The agent's PodDialer: a pod's long-lived dialer when perl is there, a spawned busybox nc per dial when not. */
export class NetnsDialers implements PodDialer {
  readonly relay: boolean;
  private readonly perl: string | undefined;
  private readonly nsenter: string;
  private readonly fallback: PodDialer;
  /** Dialers being started, by directory: concurrent first dials share one start. */
  private readonly starting = new Map<string, Promise<void>>();

  constructor(opts: NetnsDialerOptions = {}) {
    this.perl = opts.perl === null ? undefined : (opts.perl ?? onPath('perl'));
    this.relay = this.perl !== undefined;
    this.nsenter = opts.nsenter ?? 'nsenter';
    this.fallback = spawnDialer(opts.busybox ?? defaultBusyboxPath);
  }

  dial(netns: string, host: string, port: number, timeoutSeconds = 0): PodConnection {
    const dir = this.perl ? dialerDir(netns) : undefined;
    return dir ? this.open(dir, netns, host, port, timeoutSeconds, false) : this.fallback.dial(netns, host, port, timeoutSeconds);
  }

  /** A bare connect (a tcpSocket probe): `failed` says whether it opened; the connection is closed at once. */
  check(netns: string, host: string, port: number, timeoutSeconds = 0): PodConnection | undefined {
    const dir = this.perl ? dialerDir(netns) : undefined;
    return dir ? this.open(dir, netns, host, port, timeoutSeconds, true) : undefined;
  }

  private open(dir: string, netns: string, host: string, port: number, timeoutSeconds: number, check: boolean): PodConnection {
    const input = new PassThrough();
    const out = new PassThrough();
    let sock: Socket | undefined;
    let closed = false;
    let settle!: (why: string | undefined) => void;
    const failed = new Promise<string | undefined>((r) => (settle = r));
    const endOut = () => {
      if (!out.writableEnded) out.end();
    };
    const fail = (why: string) => {
      settle(why);
      input.resume();
      endOut();
      sock?.destroy();
    };
    // A host no request line can carry is one no resolver knows.
    if (/[\s\0]/.test(host) || host === '') {
      fail(ncFailure(host, port, `nc: bad address '${host}'`, 1));
      return { readable: out, writable: input, failed, close: () => undefined };
    }
    const wait = Number.isFinite(timeoutSeconds) ? Math.max(0, Math.ceil(timeoutSeconds)) : 0;
    // A dialer that dies while a dial reaches it (its socket still open, its process exiting)
    // closes the connection before any answer: that dial is made once more, to a new dialer.
    const attempt = (retried: boolean) =>
      this.connect(dir, netns, retried).then(
        (s) => {
          if (closed) {
            s.destroy();
            return;
          }
          sock = s;
          s.on('error', () => undefined);
          let head = Buffer.alloc(0);
          let answered = false;
          const onData = (b: Buffer) => {
            head = Buffer.concat([head, b]);
            const nl = head.indexOf(10);
            if (nl < 0) return;
            s.removeListener('data', onData);
            answered = true;
            const status = head.subarray(0, nl).toString('utf8');
            if (status !== 'ok') {
              fail(ncFailure(host, port, status, 1));
              return;
            }
            settle(undefined);
            const rest = head.subarray(nl + 1);
            if (rest.length) out.write(rest);
            s.pipe(out);
            input.pipe(s);
          };
          s.on('data', onData);
          s.once('close', () => {
            if (answered || closed) endOut();
            else if (!retried && head.length === 0) void attempt(true);
            else fail(`the pod's network namespace dialer closed the connection to ${host}:${port}`);
          });
          s.write(`${check ? 'check ' : ''}${port} ${wait} ${host}\n`);
        },
        (e: Error) => fail(e.message),
      );
    void attempt(false);
    return {
      readable: out,
      writable: input,
      failed,
      close: () => {
        closed = true;
        settle('connection closed');
        sock?.destroy();
        endOut();
      },
    };
  }

  /** A connection to the dialer of `dir`, started first if none answers (or `restart`: the one that answered died). */
  private async connect(dir: string, netns: string, restart = false): Promise<Socket> {
    const path = join(dir, dialerSocketName);
    if (!restart) {
      try {
        return await connectUnix(path);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ECONNREFUSED' && code !== 'ENOENT') throw e;
      }
    }
    let p = this.starting.get(dir);
    if (!p) {
      p = this.start(dir, netns).finally(() => this.starting.delete(dir));
      this.starting.set(dir, p);
    }
    await p;
    return connectUnix(path);
  }

  private async start(dir: string, netns: string): Promise<void> {
    // Another dial may have started it since this one was refused.
    const alive = await connectUnix(join(dir, dialerSocketName)).then(
      (s) => (s.destroy(), true),
      () => false,
    );
    if (alive) return;
    await stopNetnsDialer(dir);
    const child = spawn(this.nsenter, [`--net=${netns}`, this.perl!, '-e', dialerScript, dialerMarker, dir], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('ready\n')) resolve();
      });
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.once('error', (e) => reject(new Error(`starting the pod's network namespace dialer: ${e.message}`)));
      child.once('close', (code) => reject(new Error(`the pod's network namespace dialer did not start: ${err.trim() || `exit status ${code}`}`)));
    });
    child.removeAllListeners('close');
    child.on('error', () => undefined);
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.unref();
  }
}
