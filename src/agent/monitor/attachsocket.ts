// A container's stdin, as the kubelet's attach delivers it (CRI Attach, served by CRI-O from
// conmon's attach socket): conmon started with --stdin holds the write end of the container's
// stdin pipe (with --terminal, the pty master) and writes into it what clients of its attach
// socket, `<bundle>/attach`, send. When such a client goes away conmon closes the container's
// stdin, unless it was started with --leave-stdin-open: that is the container's stdinOnce. A
// terminal is resized by writing `1 <rows> <columns>\n` to conmon's control FIFO `<bundle>/ctl`.
//
// The attach socket is AF_UNIX SOCK_SEQPACKET, which Node's net module cannot open. What was
// weighed (measured on this host, conmon 2.1.6):
//   - writing to the container's stdin pipe directly (/proc/<pid>/fd/0 opened for writing)
//     delivers bytes, but conmon keeps its own write end open, so the container never reads EOF
//     (`echo hi | kubectl run -i … -- cat` would hang) and stdinOnce could not be kept; for a
//     TTY it would open the pty's slave, i.e. write output, not input. Rejected.
//   - socat (`UNIX-CONNECT:…,socktype=5`, what conmon's own tests use) or python3: neither is
//     on every node, a new host dependency for one socket.
//   - perl: perl-base is Essential in Debian (installed on every Debian/Ubuntu node, as util-linux
//     is), and its Socket module has SOCK_SEQPACKET. A dozen lines of perl bridge the socket:
//     chosen. A node without perl gets a clear error on `kubectl attach -i`, nothing else changes.
//
// The bridge copies its stdin into the socket (one packet per read, well below conmon's 32 KiB
// read buffer, which would truncate a longer packet), shuts the socket's write side at its
// stdin's EOF (conmon then closes the container's stdin when stdinOnce), and reads and drops
// what conmon sends back: every attach client gets the container's output, and conmon writes to
// its clients blocking, so a client that stopped reading would stall conmon, the container's
// output and its log. So it never blocks in a send either (a container that does not read its
// stdin fills the pipe, then conmon stops reading the socket): a packet waits for the socket to
// be writable while the output goes on being drained. The output the agent serves comes from
// the log (streaming/attach.ts), as before. The bridge ends when its socket closes (the
// container ended) or when it is killed (the client went away), which closes the socket.

import { spawn } from 'node:child_process';
import { closeSync, constants as fsc, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';

export const attachSocketName = 'attach';
export const controlFifoName = 'ctl';

const bridgeScript = `use strict; use Socket;
socket(my $s, AF_UNIX, SOCK_SEQPACKET, 0) or die "socket: $!\\n";
connect($s, pack_sockaddr_un($ARGV[0])) or die "connect $ARGV[0]: $!\\n";
syswrite(STDOUT, "attached\\n");
my ($in, $pending) = (1, '');
for (;;) {
  my ($rin, $win) = ('', '');
  vec($rin, fileno($s), 1) = 1;
  vec($rin, fileno(STDIN), 1) = 1 if $in && $pending eq '';
  vec($win, fileno($s), 1) = 1 if $pending ne '';
  my $n = select(my $rout = $rin, my $wout = $win, undef, undef);
  next if $n < 0 && $!{EINTR};
  die "select: $!\\n" if $n < 0;
  if (vec($rout, fileno($s), 1)) { my $r = sysread($s, my $drop, 65536); exit 0 unless $r; }
  if ($pending ne '' && vec($wout, fileno($s), 1)) {
    if (defined(send($s, $pending, MSG_DONTWAIT))) { $pending = ''; }
    elsif (!$!{EAGAIN} && !$!{EWOULDBLOCK}) { die "send: $!\\n"; }
  }
  if ($in && $pending eq '' && vec($rout, fileno(STDIN), 1)) {
    my $r = sysread(STDIN, $pending, 4096);
    if (!$r) { $pending = ''; shutdown($s, 1); $in = 0; syswrite(STDOUT, "eof\\n"); }
  }
}
`;

export interface AttachInput {
  /** What the client types; end() is the client's EOF (closes the container's stdin when stdinOnce). */
  stdin: Writable;
  /** Resolves once connected to conmon; rejects with why not (no perl, no socket: no --stdin). */
  attached: Promise<void>;
  /** Resolves once the client's EOF has been passed on to conmon (stdin.end(), then all of it sent). */
  inputDone: Promise<void>;
  /** Resolves when the bridge has ended (the container ended, or close()). */
  ended: Promise<void>;
  /** Ends the session (the client went away). */
  close(): void;
}

/**
 * Connects to the attach socket of the container conmon runs from `bundle` (started with
 * --stdin). `perl` is the interpreter to use (default `perl` from PATH).
 */
export function attachInput(bundle: string, opts: { perl?: string } = {}): AttachInput {
  // The socket's path is relative to the bundle, the bridge's cwd: sun_path holds 108 bytes,
  // a bundle path may be longer (conmon binds it through /proc/self/fd for the same reason).
  const child = spawn(opts.perl ?? 'perl', ['-e', bridgeScript, attachSocketName], { cwd: bundle, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.on('error', () => undefined);
  let settled = false;
  let inputDone!: () => void;
  const done = new Promise<void>((resolve) => (inputDone = resolve));
  const attached = new Promise<void>((resolve, reject) => {
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      reject(new Error(why));
    };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!settled && out.includes('attached\n')) {
        settled = true;
        resolve();
      }
      if (out.includes('eof\n')) inputDone();
    });
    child.once('error', (e: NodeJS.ErrnoException) => fail(e.code === 'ENOENT' ? `attaching stdin needs perl on the node (Debian's perl-base): ${e.message}` : `attach: ${e.message}`));
    child.once('close', (code) => fail(`attach to the container's stdin failed: ${stderr.trim() || `exit code ${code}`}`));
  });
  attached.catch(() => undefined);
  const ended = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  return {
    stdin: child.stdin!,
    attached,
    inputDone: done,
    ended,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

/**
 * Sets the container's terminal size through conmon's control FIFO (a container started with
 * --terminal). False when there is no FIFO reader (no conmon, or none with a terminal).
 */
export function resizeTerminal(bundle: string, width: number, height: number): boolean {
  let fd: number;
  try {
    fd = openSync(join(bundle, controlFifoName), fsc.O_WRONLY | fsc.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    writeSync(fd, `1 ${height} ${width}\n`);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
