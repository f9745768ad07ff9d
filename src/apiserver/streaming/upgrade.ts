// HTTP upgrade requests (kubectl exec/attach/port-forward: WebSocket, SPDY/3.1) enter the same
// handler as every request, so authentication, authorization and the pod's lookup are the
// ordinary ones; the handler's response is written on the upgrade's socket. A handler that
// takes the connection over (streaming/proxy.ts) finds the raw socket here.

import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

export interface UpgradeConnection {
  socket: Duplex;
  /** Bytes the client sent after the request's headers (the upgraded protocol's first ones). */
  head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, UpgradeConnection>();

/** The raw connection of an upgrade request; undefined for an ordinary request. */
export function upgradeConnection(req: IncomingMessage): UpgradeConnection | undefined {
  return upgrades.get(req);
}

/**
 * Takes the connection of an upgrade request from its ServerResponse: nothing will be written
 * through `res` any more, the socket is the caller's.
 */
export function takeOver(req: IncomingMessage, res: ServerResponse): UpgradeConnection | undefined {
  const c = upgrades.get(req);
  if (!c) return undefined;
  res.detachSocket(c.socket as never);
  upgrades.delete(req);
  return c;
}

/** Routes `server`'s upgrade requests through `handler`. */
export function serveUpgrades(server: Server, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    upgrades.set(req, { socket, head });
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    // An answer that is not an upgrade ends the connection, as Go's server does after one.
    res.on('finish', () => {
      if (upgrades.has(req)) socket.end();
    });
    handler(req, res);
  });
}
