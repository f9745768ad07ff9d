// The name and address a node agent on this host takes by default, as the kubelet picks them.
// In their own module: `bulkhead server` writes the node's kubeconfig and serving certificate
// for them, and importing them from setup.ts loaded the whole agent (its runtime, streaming and
// ws) into a server that runs none of it: 180-280 ms of CPU on each start, measured on a busy
// 2-core machine by importing setup.ts after the server's modules.

import { hostname, networkInterfaces } from 'node:os';

/** The node name the kubelet would pick: the hostname, lowercased. */
export function defaultNodeName(): string {
  return hostname().toLowerCase();
}

/** The first non-internal IPv4 address of this machine, else loopback. */
export function defaultNodeIP(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}
