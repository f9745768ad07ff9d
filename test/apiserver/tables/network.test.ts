// The Tables of services, endpoints and endpoint slices against upstream's rows:
// pkg/printers/internalversion printers_test.go (kubernetes/kubernetes, stored file id 100530230)
// TestPrintService, TestPrintServiceLoadBalancer, TestPrintServiceList, TestPrintEndpoint and
// TestPrintEndpointSlice, one row per upstream case (upstream's comment as the name). A
// server-side Table's cells are printed wide (the registry's TableConvertor asks for
// GenerateOptions{Wide: true}), so the one row that pins the non-wide shortening of a load
// balancer's addresses is checked with the wide value the server sends.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ago, cells, MINUTE, SOON, wideCells } from './helpers.js';

interface Row {
  name: string;
  obj: Record<string, unknown>;
  want: unknown[];
  wide?: boolean;
}

const check = (resource: string, rows: Row[]) => rows.forEach((r) => test(r.name, () => assert.deepEqual(r.wide ? wideCells(resource, r.obj) : cells(resource, r.obj), r.want)));
const svc = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}) => ({ metadata: { name }, spec, status });
const lb = (...ingress: Record<string, string>[]) => ({ loadBalancer: { ingress } });

describe('TestPrintService', () => {
  check('services', [
    { name: 'Test name, cluster ip, port with protocol', obj: svc('test1', { type: 'ClusterIP', ports: [{ protocol: 'tcp', port: 2233 }], clusterIPs: ['10.9.8.7'], selector: { foo: 'bar' } }), want: ['test1', 'ClusterIP', '10.9.8.7', '<none>', '2233/tcp', '<unknown>'] },
    { name: 'Test generate options: Wide includes selectors.', obj: svc('test1', { type: 'ClusterIP', ports: [{ protocol: 'tcp', port: 2233 }], clusterIPs: ['10.9.8.7'], selector: { foo: 'bar' } }), want: ['test1', 'ClusterIP', '10.9.8.7', '<none>', '2233/tcp', '<unknown>', 'foo=bar'], wide: true },
    { name: 'Test NodePort service', obj: svc('test2', { type: 'NodePort', ports: [{ protocol: 'tcp', port: 8888, nodePort: 9999 }], clusterIPs: ['10.9.8.7'] }), want: ['test2', 'NodePort', '10.9.8.7', '<none>', '8888:9999/tcp', '<unknown>'] },
    { name: 'Test LoadBalancer service', obj: svc('test3', { type: 'LoadBalancer', ports: [{ protocol: 'tcp', port: 8888 }], clusterIPs: ['10.9.8.7'] }), want: ['test3', 'LoadBalancer', '10.9.8.7', '<pending>', '8888/tcp', '<unknown>'] },
    { name: 'Test LoadBalancer service with single ExternalIP and no LoadBalancerStatus', obj: svc('test4', { type: 'LoadBalancer', ports: [{ protocol: 'tcp', port: 8888 }], clusterIPs: ['10.9.8.7'], externalIPs: ['80.11.12.10'] }), want: ['test4', 'LoadBalancer', '10.9.8.7', '80.11.12.10', '8888/tcp', '<unknown>'] },
    {
      name: 'Test LoadBalancer service with single ExternalIP',
      obj: svc('test5', { type: 'LoadBalancer', ports: [{ protocol: 'tcp', port: 8888 }], clusterIPs: ['10.9.8.7'], externalIPs: ['80.11.12.10'] }, lb({ ip: '3.4.5.6', hostname: 'test.cluster.com' })),
      want: ['test5', 'LoadBalancer', '10.9.8.7', '3.4.5.6,80.11.12.10', '8888/tcp', '<unknown>'],
    },
    {
      name: 'Test LoadBalancer service with mul ExternalIPs',
      obj: svc('test6', { type: 'LoadBalancer', ports: [{ protocol: 'tcp', port: 8888 }], clusterIPs: ['10.9.8.7'], externalIPs: ['80.11.12.10', '80.11.12.11'] }, lb({ ip: '2.3.4.5', hostname: 'test.cluster.local' }, { ip: '3.4.5.6', hostname: 'test.cluster.com' })),
      want: ['test6', 'LoadBalancer', '10.9.8.7', '2.3.4.5,3.4.5.6,80.11.12.10,80.11.12.11', '8888/tcp', '<unknown>'],
    },
    { name: 'Test ExternalName service', obj: svc('test7', { type: 'ExternalName', externalName: 'my.database.example.com' }), want: ['test7', 'ExternalName', '<none>', 'my.database.example.com', '<none>', '<unknown>'] },
  ]);
});

describe('TestPrintServiceLoadBalancer', () => {
  const ports3 = [{ port: 80, protocol: 'TCP' }, { port: 8090, protocol: 'UDP' }, { port: 8000, protocol: 'TCP' }];
  check('services', [
    { name: "Test load balancer service with multiple external IP's", obj: svc('service1', { clusterIPs: ['1.2.3.4'], type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] }, lb({ ip: '2.3.4.5' }, { ip: '3.4.5.6' })), want: ['service1', 'LoadBalancer', '1.2.3.4', '2.3.4.5,3.4.5.6', '80/TCP', '<unknown>'] },
    {
      name: 'Test load balancer service with pending external IP.',
      obj: svc('service2', { clusterIPs: ['1.3.4.5'], type: 'LoadBalancer', ports: [...ports3.slice(0, 3), { port: 7777, protocol: 'SCTP' }] }),
      want: ['service2', 'LoadBalancer', '1.3.4.5', '<pending>', '80/TCP,8090/UDP,8000/TCP,7777/SCTP', '<unknown>'],
    },
    { name: 'Test load balancer service with multiple ports.', obj: svc('service3', { clusterIPs: ['1.4.5.6'], type: 'LoadBalancer', ports: ports3 }, lb({ ip: '2.3.4.5' })), want: ['service3', 'LoadBalancer', '1.4.5.6', '2.3.4.5', '80/TCP,8090/UDP,8000/TCP', '<unknown>'] },
    {
      name: "Long external IP's list gets elided (kubectl's own printing only: the server's cells are wide, never elided)",
      obj: svc('service4', { clusterIPs: ['1.5.6.7'], type: 'LoadBalancer', ports: ports3 }, lb({ ip: '2.3.4.5' }, { ip: '3.4.5.6' }, { ip: '5.6.7.8', hostname: 'host5678' })),
      want: ['service4', 'LoadBalancer', '1.5.6.7', '2.3.4.5,3.4.5.6,5.6.7.8', '80/TCP,8090/UDP,8000/TCP', '<unknown>'],
    },
    {
      name: 'Generate options: Wide, includes selectors.',
      obj: svc('service4', { clusterIPs: ['1.5.6.7'], type: 'LoadBalancer', ports: ports3, selector: { foo: 'bar' } }, lb({ ip: '2.3.4.5' }, { ip: '3.4.5.6' }, { ip: '5.6.7.8', hostname: 'host5678' })),
      want: ['service4', 'LoadBalancer', '1.5.6.7', '2.3.4.5,3.4.5.6,5.6.7.8', '80/TCP,8090/UDP,8000/TCP', '<unknown>', 'foo=bar'],
      wide: true,
    },
  ]);
});

describe('TestPrintServiceList', () => {
  check('services', [
    { name: 'service1: a ClusterIP service', obj: svc('service1', { type: 'ClusterIP', ports: [{ protocol: 'tcp', port: 2233 }], clusterIPs: ['10.9.8.7'] }), want: ['service1', 'ClusterIP', '10.9.8.7', '<none>', '2233/tcp', '<unknown>'] },
    { name: 'service2: a NodePort service', obj: svc('service2', { type: 'NodePort', ports: [{ protocol: 'udp', port: 5566 }], clusterIPs: ['1.2.3.4'] }), want: ['service2', 'NodePort', '1.2.3.4', '<none>', '5566/udp', '<unknown>'] },
  ]);
});

const ips = (...list: string[]) => list.map((ip) => ({ ip }));

describe('TestPrintEndpoint', () => {
  check('endpoints', [
    { name: "Basic endpoint with no IP's", obj: { metadata: { name: 'endpoint1', creationTimestamp: SOON } }, want: ['endpoint1', '<none>', '0s'] },
    { name: 'Endpoint with no ports', obj: { metadata: { name: 'endpoint3', creationTimestamp: ago(5 * MINUTE) }, subsets: [{ addresses: ips('1.2.3.4', '5.6.7.8') }] }, want: ['endpoint3', '1.2.3.4,5.6.7.8', '5m'] },
    { name: "Basic endpoint with two IP's and one port", obj: { metadata: { name: 'endpoint2', creationTimestamp: SOON }, subsets: [{ addresses: ips('1.2.3.4', '5.6.7.8'), ports: [{ port: 8001, protocol: 'tcp' }] }] }, want: ['endpoint2', '1.2.3.4:8001,5.6.7.8:8001', '0s'] },
    {
      name: 'Basic endpoint with greater than three IP\'s triggering "more" string',
      obj: { metadata: { name: 'endpoint2', creationTimestamp: SOON }, subsets: [{ addresses: ips('1.2.3.4', '5.6.7.8', '9.8.7.6', '6.6.6.6'), ports: [{ port: 8001, protocol: 'tcp' }] }] },
      want: ['endpoint2', '1.2.3.4:8001,5.6.7.8:8001,9.8.7.6:8001 + 1 more...', '0s'],
    },
  ]);
});

describe('TestPrintEndpointSlice', () => {
  const port = (name: string, p: number) => ({ name, port: p, protocol: 'TCP' });
  const twoEndpoints = [{ addresses: ['10.1.2.3', '2001:db8::1234:5678'] }, { addresses: ['10.2.3.4', '2001:db8::2345:6789'] }];
  check('endpointslices', [
    { name: 'abcslice.123: one port, one endpoint', obj: { metadata: { name: 'abcslice.123', creationTimestamp: SOON }, addressType: 'IPv4', ports: [port('http', 80)], endpoints: [{ addresses: ['10.1.2.3', '2001:db8::1234:5678'] }] }, want: ['abcslice.123', 'IPv4', '80', '10.1.2.3,2001:db8::1234:5678', '0s'] },
    {
      name: 'longerslicename.123: four addresses, + 1 more',
      obj: { metadata: { name: 'longerslicename.123', creationTimestamp: ago(5 * MINUTE) }, addressType: 'IPv6', ports: [port('http', 80), port('https', 443)], endpoints: twoEndpoints },
      want: ['longerslicename.123', 'IPv6', '80,443', '10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...', '5m'],
    },
    {
      name: 'multiportslice.123: four ports, + 1 more',
      obj: { metadata: { name: 'multiportslice.123', creationTimestamp: ago(5 * MINUTE) }, addressType: 'IPv4', ports: [port('http', 80), port('https', 443), port('extra1', 3000), port('extra2', 3001)], endpoints: twoEndpoints },
      want: ['multiportslice.123', 'IPv4', '80,443,3000 + 1 more...', '10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...', '5m'],
    },
  ]);
});
