// kubectl get columns of Endpoints and EndpointSlices (pkg/printers/internalversion printers.go:
// printEndpoints with formatEndpoints, printEndpointSlice with formatDiscoveryPorts and
// formatDiscoveryEndpoints): at most three entries, then "+ N more...".

import type { Endpoints, EndpointSlice } from '../api/types.js';

const max = 3;

function listWithMore(list: string[], more: boolean, count: number): string {
  const s = list.join(',');
  if (more) return `${s} + ${count - max} more...`;
  return s === '' ? '<unset>' : s;
}

/** net.JoinHostPort. */
const joinHostPort = (ip: string, port: number) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/** formatEndpoints(endpoints, nil): ready addresses with each port (bare IPs for a subset without ports). */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = Array.isArray(ep.subsets) ? ep.subsets : [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = Array.isArray(ss?.addresses) ? ss.addresses : [];
    const ports = Array.isArray(ss?.ports) ? ss.ports : [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a?.ip ?? '');
      }
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(a?.ip ?? '', p?.port ?? 0));
      }
    }
  }
  const s = list.join(',');
  return more ? `${s} + ${count - max} more...` : s;
}

/** formatDiscoveryPorts: each port's number, its name when it has none, or `*`. */
export function formatSlicePorts(slice: EndpointSlice): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const p of Array.isArray(slice.ports) ? slice.ports : []) {
    if (list.length < max) list.push(typeof p?.port === 'number' ? String(p.port) : typeof p?.name === 'string' ? p.name : '*');
    else if (list.length === max) more = true;
    count++;
  }
  return listWithMore(list, more, count);
}

/** formatDiscoveryEndpoints: every address of every endpoint. */
export function formatSliceEndpoints(slice: EndpointSlice): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const e of Array.isArray(slice.endpoints) ? slice.endpoints : []) {
    for (const a of Array.isArray(e?.addresses) ? e.addresses : []) {
      if (list.length < max) list.push(a);
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count);
}
