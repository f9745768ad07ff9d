// Port-forward over SPDY (portforward.k8s.io), the kubelet's pkg/kubelet/cri/streaming/
// portforward/httpstream.go: for each local connection kubectl opens two streams with the same
// requestid header, an error stream and a data stream, both naming the port. Once both are
// there the agent dials the port inside the pod's network namespace and relays the data
// stream; a failure is written on the error stream as the kubelet words it, and both streams
// are closed when the connection ends. The same SPDY connection arrives either straight after
// the HTTP upgrade (kubectl ≤1.30) or tunnelled in WebSocket binary messages (≥1.31).

import type { SpdyConnection, SpdyStream } from './spdy.js';
import { spawnDialer, type PodDialer } from './netnsdial.js';

export interface PortForwardTarget {
  namespace: string;
  pod: string;
  /** The pod's network namespace (path), or 'host'. */
  netns: string;
  /** How the port is dialled; default a busybox nc per connection (the agent's: the pod's dialer). */
  dialer?: PodDialer;
}

interface Pair {
  error?: SpdyStream;
  data?: SpdyStream;
}

export function servePortForward(conn: SpdyConnection, t: PortForwardTarget): void {
  const pairs = new Map<string, Pair>();
  const dialer = t.dialer ?? spawnDialer();
  conn.on('stream', (s: SpdyStream) => {
    s.on('error', () => undefined);
    const type = s.header('streamtype');
    const id = s.header('requestid') ?? s.header('port') ?? '';
    if (type !== 'error' && type !== 'data') {
      conn.reset(s.id, 1);
      return;
    }
    s.reply();
    const p = pairs.get(id) ?? {};
    if (p[type]) {
      conn.reset(s.id, 1);
      return;
    }
    p[type] = s;
    pairs.set(id, p);
    if (p.error && p.data) {
      pairs.delete(id);
      forward(p.error, p.data);
    }
  });

  function forward(errorStream: SpdyStream, data: SpdyStream): void {
    const portText = data.header('port') ?? '';
    const port = Number(portText);
    const fail = (why: string) => {
      errorStream.end(`error forwarding port ${portText} to pod ${t.namespace}/${t.pod}, uid : ${why}`);
      data.end();
    };
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
      fail(`invalid port ${JSON.stringify(portText)}`);
      return;
    }
    const c = dialer.dial(t.netns, '127.0.0.1', port);
    data.pipe(c.writable as never);
    c.readable.pipe(data);
    data.once('close', () => c.close());
    // The error stream ends once the connection has ended and its outcome is known: empty when
    // the port was reached.
    const ended = new Promise<void>((resolve) => c.readable.once('end', resolve));
    void c.failed.then(async (why) => {
      if (why) fail(`failed to execute portforward in network namespace ${JSON.stringify(t.netns)}: ${why}`);
      else {
        await ended;
        errorStream.end();
      }
    });
  }
}
