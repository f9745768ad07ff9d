// The kubernetes Service's endpoints as the API server's endpoint reconciler computes them
// (src/policy/apiserverendpoints.ts): the advertised address, the live leases, the objects.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advertiseAddress, kubernetesEndpoints, kubernetesEndpointSlice, liveLeaseIPs } from '../../src/policy/apiserverendpoints.js';

describe('the advertised address', () => {
  const rows: { name: string; host: string; advertise: string[]; interfaces: string[]; want: string | undefined }[] = [
    { name: 'the listen address when it can be an endpoint', host: '10.0.0.5', advertise: ['10.0.0.6'], interfaces: ['192.0.2.2'], want: '10.0.0.5' },
    { name: 'loopback listen address: the first --advertise IP that can', host: '127.0.0.1', advertise: ['my-host', '127.0.0.2', '10.0.0.6'], interfaces: ['192.0.2.2'], want: '10.0.0.6' },
    { name: 'all interfaces (0.0.0.0): the host\'s first usable interface address', host: '0.0.0.0', advertise: [], interfaces: ['169.254.1.1', '192.0.2.2'], want: '192.0.2.2' },
    { name: 'nothing but loopback and link-local: none', host: '127.0.0.1', advertise: [], interfaces: ['169.254.1.1'], want: undefined },
  ];
  for (const r of rows) test(r.name, () => assert.equal(advertiseAddress(r.host, r.advertise, r.interfaces), r.want));
});

describe('the live leases', () => {
  test('leases renewed within 15 s count, older ones do not; sorted, each address once', () => {
    const now = 100_000;
    assert.deepEqual(
      liveLeaseIPs([{ ip: '10.0.0.9', renewTime: now - 1_000 }, { ip: '10.0.0.2', renewTime: now - 14_999 }, { ip: '10.0.0.3', renewTime: now - 15_000 }, { ip: '10.0.0.9', renewTime: now }], now),
      ['10.0.0.2', '10.0.0.9'],
    );
  });
});

describe('the objects', () => {
  test('Endpoints: the addresses with port https, labelled skip-mirror; none without leases', () => {
    assert.deepEqual(kubernetesEndpoints(['10.0.0.2'], 6443), {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
      subsets: [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
    });
    assert.equal(kubernetesEndpoints([], 6443).subsets, undefined);
  });
  test('EndpointSlice `kubernetes`: ready endpoints, the same port, only the service-name label', () => {
    assert.deepEqual(kubernetesEndpointSlice(['10.0.0.2', '10.0.0.3'], 6443), {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.2'], conditions: { ready: true } }, { addresses: ['10.0.0.3'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    });
  });
});
