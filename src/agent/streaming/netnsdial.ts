// A TCP connection to localhost:PORT inside a pod's network namespace, from the agent, which
// cannot enter a namespace itself (setns is per thread; Node has none to give). The agent's
// dialer is the pod's long-lived relay (runtime/netnsdialer.ts, one perl process per sandbox);
// without perl it falls back to dialPodPort below: `nsenter --net=<pin> busybox nc 127.0.0.1
// PORT`, one process per connection, its stdin and stdout being the connection (the dockershim
// did the same with socat). A pod on the host's network is dialled directly. Both say a failed
// dial in the same words (ncFailure: what busybox nc's stderr said, mapped).

import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { defaultBusyboxPath } from '../runtime/rootfs.js';

export interface PodConnection {
  /** What the pod's port sends; ends when it closes. */
  readable: NodeJS.ReadableStream;
  /** What is sent to the port; end() closes our side. */
  writable: NodeJS.WritableStream;
  /** Resolves with undefined once connected (or the pod's side closed), or the dial error's text. */
  failed: Promise<string | undefined>;
  close(): void;
}

/**
 * Dials host:port from inside a pod's network namespace (`netns`: its pin, or 'host'). `timeoutSeconds`
 * bounds the connect (0: the kernel's). `relay`: the pod's long-lived dialer answers (false: each
 * dial spawns a busybox nc, dialPodPort).
 */
export interface PodDialer {
  readonly relay: boolean;
  dial(netns: string, host: string, port: number, timeoutSeconds?: number): PodConnection;
  /** A bare connect, closed once made (a tcpSocket probe); undefined where only a spawned nc can dial. */
  check?(netns: string, host: string, port: number, timeoutSeconds?: number): PodConnection | undefined;
}

/** The spawn per connection, the fallback without perl. */
export const spawnDialer = (busybox = defaultBusyboxPath): PodDialer => ({ relay: false, dial: (netns, host, port) => dialPodPort(netns, port, busybox, host) });

/** What a failed dial says, from busybox nc's stderr (or the relay's status line, in the same words). */
export function ncFailure(host: string, port: number, stderr: string, code: number | null): string {
  return /refused/i.test(stderr) ? `dial tcp4 ${host}:${port}: connect: connection refused` : stderr.trim() || `exit status ${code}`;
}

/** `host`: another address than the pod's loopback (a probe's host), dialled from the same namespace. */
export function dialPodPort(netns: string, port: number, busybox = defaultBusyboxPath, host = '127.0.0.1'): PodConnection {
  if (netns === 'host') {
    const s = connect({ host, port });
    const failed = new Promise<string | undefined>((resolve) => {
      s.once('connect', () => resolve(undefined));
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? `dial tcp4 ${host}:${port}: connect: connection refused` : e.message));
    });
    return { readable: s, writable: s, failed, close: () => s.destroy() };
  }
  const child = spawn('nsenter', [`--net=${netns}`, busybox, 'nc', host, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.on('error', () => undefined);
  const out = new PassThrough();
  let got = false;
  child.stdout.once('data', () => (got = true));
  child.stdout.pipe(out);
  const failed = new Promise<string | undefined>((resolve) => {
    child.once('error', (e) => resolve(e.message));
    child.once('close', (code) => {
      if (code !== 0 && !got) resolve(ncFailure(host, port, stderr, code));
      else resolve(undefined);
    });
    // No error on stderr by the first output: connected.
    child.stdout.once('data', () => resolve(undefined));
  });
  return {
    readable: out,
    writable: child.stdin,
    failed,
    close: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** A Duplex over a WebSocket-like message channel (the port-forward tunnel's SPDY bytes). */
export function messageDuplex(send: (b: Buffer) => void, end: () => void): Duplex & { deliver(b: Buffer): void; finish(): void } {
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      send(chunk);
      cb();
    },
    final(cb) {
      end();
      cb();
    },
  }) as Duplex & { deliver(b: Buffer): void; finish(): void };
  d.deliver = (b) => d.push(b);
  d.finish = () => d.push(null);
  return d;
}
