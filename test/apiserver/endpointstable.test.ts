// The kubectl get cells of Endpoints and EndpointSlices (pkg/printers/internalversion
// formatEndpoints, formatDiscoveryPorts, formatDiscoveryEndpoints), one row per rule.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Endpoints, EndpointSlice } from '../../src/api/types.js';
import { formatEndpoints, formatSliceEndpoints, formatSlicePorts } from '../../src/apiserver/endpointstable.js';

const ep = (subsets: Endpoints['subsets']): Endpoints => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e' }, ...(subsets ? { subsets } : {}) });
const slice = (endpoints: string[][], ports?: EndpointSlice['ports']): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 's' },
  addressType: 'IPv4',
  endpoints: endpoints.map((addresses) => ({ addresses })),
  ...(ports ? { ports } : {}),
});

describe('formatEndpoints', () => {
  const rows: { name: string; ep: Endpoints; want: string }[] = [
    { name: 'no subsets: <none>', ep: ep(undefined), want: '<none>' },
    { name: 'ready addresses with each port', ep: ep([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }] }]), want: '10.0.0.1:80,10.0.0.2:80' },
    { name: 'not-ready addresses are not shown', ep: ep([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]), want: '' },
    { name: 'a subset without ports (headless): bare IPs', ep: ep([{ addresses: [{ ip: '10.0.0.1' }] }]), want: '10.0.0.1' },
    { name: 'IPv6 addresses are bracketed', ep: ep([{ addresses: [{ ip: '2001:db8::1' }], ports: [{ port: 80 }] }]), want: '[2001:db8::1]:80' },
    { name: 'three shown, then "+ N more..." counting every address and port', ep: ep([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] }]), want: '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...' },
  ];
  for (const r of rows) test(r.name, () => assert.equal(formatEndpoints(r.ep), r.want));
});

describe('formatDiscoveryPorts and formatDiscoveryEndpoints', () => {
  const rows: { name: string; slice: EndpointSlice; ports: string; endpoints: string }[] = [
    { name: 'nothing: <unset>', slice: slice([]), ports: '<unset>', endpoints: '<unset>' },
    { name: 'port numbers and addresses', slice: slice([['10.0.0.1'], ['10.0.0.2']], [{ name: 'http', port: 80 }, { name: 'https', port: 443 }]), ports: '80,443', endpoints: '10.0.0.1,10.0.0.2' },
    { name: 'a port without a number: its name, or * without one', slice: slice([], [{ name: 'http' }, {}]), ports: 'http,*', endpoints: '<unset>' },
    { name: 'more than three: "+ N more..."', slice: slice([['10.0.0.1', '10.0.0.2'], ['10.0.0.3'], ['10.0.0.4'], ['10.0.0.5']], [{ port: 1 }, { port: 2 }, { port: 3 }, { port: 4 }]), ports: '1,2,3 + 1 more...', endpoints: '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      assert.equal(formatSlicePorts(r.slice), r.ports);
      assert.equal(formatSliceEndpoints(r.slice), r.endpoints);
    });
  }
});
