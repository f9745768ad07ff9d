// What the endpoints and EndpointSlice controllers want for a Service (src/policy/endpoints.ts),
// one row per rule of pkg/controller/endpoint, pkg/controller/endpointslice and their helpers
// (ShouldPodBeInEndpoints, FindPort, ShouldSetHostname, RepackSubsets, podToEndpoint).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Endpoints, EndpointSubset, Pod, Service } from '../../src/api/types.js';
import { desiredEndpoints, desiredSlices, endpointSubsets, findPort, managesEndpoints, mirroredSlices, repackSubsets, shouldMirror, shouldPodBeInEndpoints, sliceObject } from '../../src/policy/endpoints.js';

function svc(extra: Partial<NonNullable<Service['spec']>> = {}, labels?: Record<string, string>): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid', ...(labels ? { labels } : {}) },
    spec: { selector: { app: 'web' }, clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...extra },
  };
}

interface PodOpts {
  ip?: string;
  ready?: boolean;
  phase?: string;
  restartPolicy?: string;
  deleting?: boolean;
  node?: string;
  hostname?: string;
  subdomain?: string;
  ports?: { name: string; containerPort: number; protocol?: string }[];
}

function pod(name: string, o: PodOpts = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {
      containers: [{ name: 'c', image: 'i', ...(o.ports ? { ports: o.ports } : {}) }],
      restartPolicy: o.restartPolicy ?? 'Always',
      ...(o.node !== undefined ? { nodeName: o.node } : { nodeName: 'n1' }),
      ...(o.hostname ? { hostname: o.hostname } : {}),
      ...(o.subdomain ? { subdomain: o.subdomain } : {}),
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(o.ip !== '' ? { podIP: o.ip ?? '10.0.0.1', podIPs: [{ ip: o.ip ?? '10.0.0.1' }] } : {}),
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  } as Pod;
}

const ref = (name: string) => ({ kind: 'Pod', namespace: 'ns', name, uid: `uid-${name}` });

describe('which services get endpoints from the controllers', () => {
  const rows: { name: string; svc: Service; want: boolean }[] = [
    { name: 'a service with a selector', svc: svc(), want: true },
    { name: 'an empty selector still counts (it selects every pod)', svc: svc({ selector: {} }), want: true },
    { name: 'no selector: endpoints are written by hand', svc: svc({ selector: undefined }), want: false },
    { name: 'ExternalName services get none', svc: svc({ type: 'ExternalName' }), want: false },
  ];
  for (const r of rows) test(r.name, () => assert.equal(managesEndpoints(r.svc), r.want));
});

describe('ShouldPodBeInEndpoints', () => {
  const rows: { name: string; pod: Pod; includeTerminating: boolean; want: boolean }[] = [
    { name: 'a running pod with an IP', pod: pod('a'), includeTerminating: false, want: true },
    { name: 'a pod without an IP is left out', pod: pod('a', { ip: '' }), includeTerminating: false, want: false },
    { name: 'a terminating pod is left out', pod: pod('a', { deleting: true }), includeTerminating: false, want: false },
    { name: 'a terminating pod is kept when terminating pods are included', pod: pod('a', { deleting: true }), includeTerminating: true, want: true },
    { name: 'restartPolicy Never: a failed pod is left out', pod: pod('a', { restartPolicy: 'Never', phase: 'Failed' }), includeTerminating: false, want: false },
    { name: 'restartPolicy Never: a succeeded pod is left out', pod: pod('a', { restartPolicy: 'Never', phase: 'Succeeded' }), includeTerminating: false, want: false },
    { name: 'restartPolicy OnFailure: a failed pod stays (it restarts)', pod: pod('a', { restartPolicy: 'OnFailure', phase: 'Failed' }), includeTerminating: false, want: true },
    { name: 'restartPolicy OnFailure: a succeeded pod is left out', pod: pod('a', { restartPolicy: 'OnFailure', phase: 'Succeeded' }), includeTerminating: false, want: false },
    { name: 'restartPolicy Always: a succeeded pod stays', pod: pod('a', { phase: 'Succeeded' }), includeTerminating: false, want: true },
  ];
  for (const r of rows) test(r.name, () => assert.equal(shouldPodBeInEndpoints(r.pod, r.includeTerminating), r.want));
});

describe('FindPort', () => {
  const named = pod('a', { ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }] });
  const rows: { name: string; target: number | string | undefined; protocol?: string; want: number | undefined }[] = [
    { name: 'a number is the port', target: 9090, want: 9090 },
    { name: 'no targetPort: the service port', target: undefined, want: 80 },
    { name: 'a name is the container port of that name', target: 'http', want: 8080 },
    { name: 'a name must match the protocol too', target: 'dns', protocol: 'TCP', want: undefined },
    { name: 'a name with its protocol', target: 'dns', protocol: 'UDP', want: 53 },
    { name: 'a name no container has', target: 'grpc', want: undefined },
  ];
  for (const r of rows) test(r.name, () => assert.equal(findPort(named, { port: 80, protocol: r.protocol ?? 'TCP', ...(r.target !== undefined ? { targetPort: r.target } : {}) }), r.want));
});

describe('the endpoints controller\'s subsets', () => {
  const rows: { name: string; svc: Service; pods: Pod[]; want: EndpointSubset[] }[] = [
    { name: 'no pods: no subsets', svc: svc(), pods: [], want: [] },
    {
      name: 'a ready pod is an address with its target, node and the target port',
      svc: svc(),
      pods: [pod('a')],
      want: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'a pod that is not ready is a notReadyAddress',
      svc: svc(),
      pods: [pod('a', { ready: false })],
      want: [{ notReadyAddresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'publishNotReadyAddresses makes every pod ready, terminating ones included',
      svc: svc({ publishNotReadyAddresses: true }),
      pods: [pod('a', { ready: false }), pod('b', { ip: '10.0.0.2', deleting: true })],
      want: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }, { ip: '10.0.0.2', nodeName: 'n1', targetRef: ref('b') }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'ready and not-ready pods share a subset, addresses sorted by IP',
      svc: svc(),
      pods: [pod('b', { ip: '10.0.0.9' }), pod('a', { ip: '10.0.0.2' }), pod('c', { ip: '10.0.0.5', ready: false })],
      want: [
        {
          addresses: [{ ip: '10.0.0.2', nodeName: 'n1', targetRef: ref('a') }, { ip: '10.0.0.9', nodeName: 'n1', targetRef: ref('b') }],
          notReadyAddresses: [{ ip: '10.0.0.5', nodeName: 'n1', targetRef: ref('c') }],
          ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        },
      ],
    },
    {
      name: 'a named target port resolves per pod: pods with different numbers are different subsets, a pod without the name is left out',
      svc: svc({ ports: [{ port: 80, targetPort: 'web', protocol: 'TCP' }] }),
      pods: [pod('a', { ports: [{ name: 'web', containerPort: 8080 }] }), pod('b', { ip: '10.0.0.2', ports: [{ name: 'web', containerPort: 9090 }] }), pod('c', { ip: '10.0.0.3' })],
      want: [
        { addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }], ports: [{ port: 8080, protocol: 'TCP' }] },
        { addresses: [{ ip: '10.0.0.2', nodeName: 'n1', targetRef: ref('b') }], ports: [{ port: 9090, protocol: 'TCP' }] },
      ],
    },
    {
      name: 'several service ports: one subset with every port',
      svc: svc({ ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }, { name: 'admin', port: 81, targetPort: 8081, protocol: 'TCP', appProtocol: 'http' }] }),
      pods: [pod('a')],
      want: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }], ports: [{ name: 'admin', port: 8081, protocol: 'TCP', appProtocol: 'http' }, { name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'a headless service without ports: addresses without ports',
      svc: svc({ clusterIP: 'None', ports: [] }),
      pods: [pod('a')],
      want: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }] }],
    },
    {
      name: 'a pod whose subdomain is the service gets its hostname',
      svc: svc(),
      pods: [pod('a', { hostname: 'web-0', subdomain: 'web' })],
      want: [{ addresses: [{ ip: '10.0.0.1', hostname: 'web-0', nodeName: 'n1', targetRef: ref('a') }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    { name: 'pods without an IP, finished or terminating are left out', svc: svc(), pods: [pod('a', { ip: '' }), pod('b', { restartPolicy: 'Never', phase: 'Succeeded' }), pod('c', { deleting: true })], want: [] },
  ];
  for (const r of rows) test(r.name, () => assert.deepEqual(endpointSubsets(r.svc, r.pods), r.want));
});

describe('RepackSubsets', () => {
  test('an address ready in one copy and not ready in another is ready', () => {
    const a = { ip: '10.0.0.1' };
    const p = { port: 80, protocol: 'TCP' };
    assert.deepEqual(repackSubsets([{ notReadyAddresses: [a], ports: [p] }, { addresses: [a], ports: [p] }]), [{ addresses: [a], ports: [p] }]);
  });
  test('addresses serving the same ports are grouped, different port sets split', () => {
    const p80 = { port: 80, protocol: 'TCP' };
    const p81 = { port: 81, protocol: 'TCP' };
    const got = repackSubsets([{ addresses: [{ ip: '10.0.0.2' }], ports: [p80] }, { addresses: [{ ip: '10.0.0.1' }], ports: [p80, p81] }]);
    assert.deepEqual(got, [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [p80] }, { addresses: [{ ip: '10.0.0.1' }], ports: [p81] }]);
  });
});

describe('the Endpoints object', () => {
  test('named as the service, its labels, and the headless label for a headless service', () => {
    const e = desiredEndpoints(svc({ clusterIP: 'None' }, { tier: 'front' }), []);
    assert.deepEqual(e.metadata, { name: 'web', namespace: 'ns', labels: { tier: 'front', 'service.kubernetes.io/headless': '' } });
    assert.equal(e.subsets, undefined);
  });
  test('more than 1000 addresses are truncated and annotated over-capacity', () => {
    const pods = Array.from({ length: 1001 }, (_, i) => pod(`p${i}`, { ip: `10.1.${i >> 8}.${(i & 255) + 1}` }));
    const e = desiredEndpoints(svc(), pods);
    assert.equal(e.subsets!.reduce((n, s) => n + (s.addresses?.length ?? 0), 0), 1000);
    assert.equal(e.metadata?.annotations?.['endpoints.kubernetes.io/over-capacity'], 'truncated');
  });
});

describe('the EndpointSlice controller\'s slices', () => {
  test('one endpoint per pod with ready, serving and terminating conditions, target, node and zone', () => {
    const [s] = desiredSlices(svc(), [pod('a'), pod('b', { ip: '10.0.0.2', ready: false }), pod('c', { ip: '10.0.0.3', deleting: true })], () => 'zone-a');
    assert.deepEqual(s!.ports, [{ name: 'http', protocol: 'TCP', port: 8080 }]);
    assert.deepEqual(s!.endpoints, [
      { addresses: ['10.0.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: ref('a'), nodeName: 'n1', zone: 'zone-a' },
      { addresses: ['10.0.0.2'], conditions: { ready: false, serving: false, terminating: false }, targetRef: ref('b'), nodeName: 'n1', zone: 'zone-a' },
      { addresses: ['10.0.0.3'], conditions: { ready: false, serving: true, terminating: true }, targetRef: ref('c'), nodeName: 'n1', zone: 'zone-a' },
    ]);
  });
  test('publishNotReadyAddresses: every endpoint ready', () => {
    const [s] = desiredSlices(svc({ publishNotReadyAddresses: true }), [pod('a', { ready: false })]);
    assert.deepEqual(s!.endpoints[0]!.conditions, { ready: true, serving: false, terminating: false });
  });
  test('no pods: one placeholder slice without endpoints or ports', () => {
    assert.deepEqual(desiredSlices(svc(), []), [{ ports: [], endpoints: [] }]);
  });
  test('pods serving different ports are in different slices', () => {
    const s = svc({ ports: [{ name: 'web', port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const got = desiredSlices(s, [pod('a', { ports: [{ name: 'web', containerPort: 8080 }] }), pod('b', { ip: '10.0.0.2', ports: [{ name: 'web', containerPort: 9090 }] })]);
    assert.deepEqual(got.map((x) => [x.ports.map((p) => p.port), x.endpoints.map((e) => e.addresses[0])]), [[[8080], ['10.0.0.1']], [[9090], ['10.0.0.2']]]);
  });
  test('at most 100 endpoints a slice', () => {
    const pods = Array.from({ length: 150 }, (_, i) => pod(`p${String(i).padStart(3, '0')}`, { ip: `10.1.0.${i + 1}` }));
    assert.deepEqual(desiredSlices(svc(), pods).map((x) => x.endpoints.length), [100, 50]);
  });
  test('the slice: generated name, service-name and managed-by labels, the service as controller owner', () => {
    const o = sliceObject(svc({ clusterIP: 'None' }, { tier: 'front' }), { ports: [], endpoints: [] });
    assert.deepEqual(o.metadata, {
      generateName: 'web-',
      namespace: 'ns',
      labels: { tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'service.kubernetes.io/headless': '' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true }],
    });
    assert.equal(o.addressType, 'IPv4');
  });
});

describe('the mirroring controller\'s slices of hand-written Endpoints', () => {
  const ep = (subsets: EndpointSubset[], meta: Partial<Endpoints['metadata']> = {}): Endpoints => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'db', namespace: 'ns', uid: 'ep-uid', ...meta }, subsets });
  const port = { name: 'pg', port: 5432, protocol: 'TCP' };
  test('ready and not-ready addresses with the ready condition, node, hostname and target; the subset\'s ports', () => {
    const [s, ...rest] = mirroredSlices(ep([{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', hostname: 'db-0', targetRef: { kind: 'Pod', name: 'p' } }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: [port] }]));
    assert.equal(rest.length, 0);
    assert.deepEqual(s!.endpoints, [
      { addresses: ['10.0.0.1'], conditions: { ready: true }, hostname: 'db-0', targetRef: { kind: 'Pod', name: 'p' }, nodeName: 'n1' },
      { addresses: ['10.0.0.2'], conditions: { ready: false } },
    ]);
    assert.deepEqual(s!.ports, [{ name: 'pg', port: 5432, protocol: 'TCP' }]);
    assert.equal(s!.addressType, 'IPv4');
  });
  test('labels and annotations of the Endpoints (not the trigger time or last-applied), service-name and managed-by, owned by the Endpoints', () => {
    const [s] = mirroredSlices(ep([{ addresses: [{ ip: '10.0.0.1' }] }], { labels: { team: 'db' }, annotations: { note: 'x', 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'endpoints.kubernetes.io/last-change-trigger-time': 't' } }));
    assert.deepEqual(s!.metadata, {
      generateName: 'db-',
      namespace: 'ns',
      labels: { team: 'db', 'kubernetes.io/service-name': 'db', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' },
      annotations: { note: 'x' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: 'db', uid: 'ep-uid', controller: true, blockOwnerDeletion: true }],
    });
  });
  test('subsets with the same ports share a slice; other ports and IPv6 addresses get their own', () => {
    const got = mirroredSlices(ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [port] }, { addresses: [{ ip: '10.0.0.2' }, { ip: '2001:db8::2' }], ports: [port] }, { addresses: [{ ip: '10.0.0.3' }], ports: [{ ...port, port: 5433 }] }]));
    assert.deepEqual(got.map((s) => [s.addressType, s.ports?.[0]?.port, s.endpoints.map((e) => e.addresses[0])]), [
      ['IPv4', 5432, ['10.0.0.1', '10.0.0.2']],
      ['IPv6', 5432, ['2001:db8::2']],
      ['IPv4', 5433, ['10.0.0.3']],
    ]);
  });
  test('no subsets: no slices (no placeholder)', () => assert.deepEqual(mirroredSlices(ep([])), []));
  test('skip-mirror and leader-election Endpoints are not mirrored', () => {
    assert.equal(shouldMirror(ep([])), true);
    assert.equal(shouldMirror(ep([], { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } })), false);
    assert.equal(shouldMirror(ep([], { annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } })), false);
  });
});
