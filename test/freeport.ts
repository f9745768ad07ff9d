// A loopback TCP port nobody listens on right now, for a child server (bulkhead, etcd) that
// takes its port as a flag. The kernel picks it; it is free again once this probe closes.

import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
    srv.on('error', reject);
  });
}
