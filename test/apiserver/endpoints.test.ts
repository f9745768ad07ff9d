// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlice through the in-process server: the
// resources (discovery, 422s in upstream's words, defaults, the kubectl get columns), the
// endpoints and EndpointSlice controllers following a Service's pods (created without an IP,
// given one not ready, then ready, then terminating and deleted; a named target port; the Service deleted), and
// the kubernetes Service's Endpoints and slice from the endpoint reconciler. Then the real
// kubectl: get endpoints, get endpointslices, describe svc (skipped when kubectl is missing).

import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describe, it } from 'node:test';
import type { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer, waitForQuotaStatus } from './kubectlserver.js';
import { advertiseAddress } from '../../src/policy/apiserverendpoints.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const epPath = (ns: string) => `/api/v1/namespaces/${ns}/endpoints`;
const slicePath = (ns: string) => `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;

async function namespace(admin: Client, name: string): Promise<void> {
  const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, r.text);
}

async function service(admin: Client, ns: string, name: string, spec: Json = {}): Promise<Json> {
  const body = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }], ...spec } };
  const r = await admin.request('POST', `/api/v1/namespaces/${ns}/services`, body);
  assert.equal(r.status, 201, r.text);
  return r.json();
}

async function pod(admin: Client, ns: string, name: string): Promise<Json> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox', ports: [{ name: 'http', containerPort: 8080 }] }] } };
  const r = await admin.request('POST', podsPath(ns), body);
  assert.equal(r.status, 201, r.text);
  return r.json();
}

/** The pod's status as its node would write it: an IP, Running, Ready or not. */
async function podStatus(admin: Client, ns: string, name: string, ip: string, ready: boolean): Promise<void> {
  const cur = (await admin.request('GET', `${podsPath(ns)}/${name}`)).json();
  const st = { ...cur, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } };
  const u = await admin.request('PUT', `${podsPath(ns)}/${name}/status`, st);
  assert.equal(u.status, 200, u.text);
}

/** Polls `path` until `ok` holds of its body (404: undefined), with a generous bound. */
async function waitFor(admin: Client, path: string, ok: (o: Json | undefined) => boolean, what: string): Promise<Json | undefined> {
  let last: Json | undefined;
  for (let i = 0; i < 600; i++) {
    const r = await admin.request('GET', path);
    last = r.status === 404 ? undefined : r.json();
    if (ok(last)) return last;
    await new Promise((res) => setTimeout(res, 25));
  }
  assert.fail(`${what}: never reached; last ${JSON.stringify(last)}`);
}

const serviceSlices = (ns: string, svc: string) => `${slicePath(ns)}?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${svc}`)}`;

describe('Endpoints and EndpointSlices over HTTP', () => {
  const t = useTestServer('bulkhead-endpoints-');

  it('discovery: v1 endpoints (ep) and discovery.k8s.io/v1 endpointslices, namespaced', async () => {
    const core = (await t.admin().request('GET', '/api/v1')).json().resources as Json[];
    const ep = core.find((x) => x.name === 'endpoints')!;
    assert.deepEqual([ep.kind, ep.namespaced, ep.shortNames, ep.singularName], ['Endpoints', true, ['ep'], 'endpoints']);
    const disc = (await t.admin().request('GET', '/apis/discovery.k8s.io/v1')).json().resources as Json[];
    assert.deepEqual(disc.map((x) => [x.name, x.kind, x.namespaced]), [['endpointslices', 'EndpointSlice', true]]);
    const groups = (await t.admin().request('GET', '/apis')).json().groups as Json[];
    assert.ok(groups.some((g) => g.name === 'discovery.k8s.io'));
  });

  it('create: 422s in upstream\'s words; the port protocol defaults to TCP, slice port names to ""', async () => {
    const admin = t.admin();
    await namespace(admin, 'crud');
    const rows: { name: string; path: string; body: Json; message: string }[] = [
      {
        name: 'a loopback endpoint address',
        path: epPath('crud'),
        body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'x' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] },
        message: 'Endpoints "x" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      },
      {
        name: 'a subset without addresses',
        path: epPath('crud'),
        body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'x' }, subsets: [{ ports: [{ port: 80 }] }] },
        message: 'Endpoints "x" is invalid: subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
      },
      {
        name: 'an unknown addressType',
        path: slicePath('crud'),
        body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'x' }, addressType: 'IP', endpoints: [] },
        message: 'EndpointSlice.discovery.k8s.io "x" is invalid: addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
      },
    ];
    for (const r of rows) {
      const got = await admin.request('POST', r.path, r.body);
      assert.equal(got.status, 422, `${r.name}: ${got.text}`);
      assert.equal(got.json().message, r.message, r.name);
    }
    const ep = await admin.request('POST', epPath('crud'), { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'db' }, subsets: [{ addresses: [{ ip: '10.1.0.9' }, { ip: '10.1.0.2' }], ports: [{ port: 5432 }] }] });
    assert.equal(ep.status, 201, ep.text);
    assert.deepEqual(ep.json().subsets, [{ addresses: [{ ip: '10.1.0.2' }, { ip: '10.1.0.9' }], ports: [{ port: 5432, protocol: 'TCP' }] }]);
    const s = await admin.request('POST', slicePath('crud'), { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'db-1' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.0.2'] }], ports: [{ port: 5432 }] });
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(s.json().ports, [{ name: '', protocol: 'TCP', port: 5432 }]);
    const immutable = await admin.request('PUT', `${slicePath('crud')}/db-1`, { ...(s.json() as Json), addressType: 'IPv6', endpoints: [] });
    assert.equal(immutable.status, 422);
    assert.equal(immutable.json().message, 'EndpointSlice.discovery.k8s.io "db-1" is invalid: addressType: Invalid value: "IPv6": field is immutable');
  });

  it('EndpointSlice writes: deprecatedTopology dropped, the FQDN warning, generation moved by content and labels only', async () => {
    const admin = t.admin();
    await namespace(admin, 'slices');
    const made = await admin.request('POST', slicePath('slices'), {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'a' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.0.2'], deprecatedTopology: { 'kubernetes.io/hostname': 'n1' } }],
    });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.json().endpoints, [{ addresses: ['10.1.0.2'] }]);
    assert.equal(made.json().metadata.generation, 1);
    const fqdn = await admin.request('POST', slicePath('slices'), { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'f' }, addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] });
    assert.equal(fqdn.status, 201, fqdn.text);
    assert.equal(fqdn.headers['warning'], '299 - "spec.addressType: FQDN endpoints are deprecated"');
    const put = async (mutate: (o: Json) => void): Promise<number> => {
      const cur = (await admin.request('GET', `${slicePath('slices')}/a`)).json();
      mutate(cur);
      const r = await admin.request('PUT', `${slicePath('slices')}/a`, cur);
      assert.equal(r.status, 200, r.text);
      return r.json().metadata.generation;
    };
    assert.equal(await put((o) => (o.metadata.annotations = { note: 'x' })), 1, 'an annotation is no new generation');
    assert.equal(await put((o) => (o.endpoints = [{ addresses: ['10.1.0.3'] }])), 2, 'new endpoints are');
    assert.equal(await put((o) => (o.metadata.labels = { tier: 'db' })), 3, 'new labels are');
  });

  it('the controllers follow the pods: no IP, not ready, ready, terminating, deleted; the Service deleted', async () => {
    const admin = t.admin();
    await namespace(admin, 'follow');
    const svc = await service(admin, 'follow', 'web');
    await pod(admin, 'follow', 'web-1');
    // No pod IP yet: Endpoints without subsets and a placeholder slice without endpoints.
    await waitFor(admin, `${epPath('follow')}/web`, (e) => !!e && e.subsets === undefined, 'empty Endpoints');
    const placeholder = (await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.length === 1, 'placeholder slice'))!.items[0];
    assert.deepEqual(placeholder.endpoints ?? [], []);
    assert.equal(placeholder.addressType, 'IPv4');
    assert.equal(placeholder.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.match(placeholder.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.deepEqual(placeholder.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);

    const target = { kind: 'Pod', namespace: 'follow', name: 'web-1' };
    await podStatus(admin, 'follow', 'web-1', '10.244.0.5', false);
    const notReady = await waitFor(admin, `${epPath('follow')}/web`, (e) => !!e?.subsets?.[0]?.notReadyAddresses, 'a not-ready address');
    const uid: string = notReady!.subsets[0].notReadyAddresses[0].targetRef.uid;
    assert.deepEqual(notReady!.subsets, [{ notReadyAddresses: [{ ip: '10.244.0.5', nodeName: 'n1', targetRef: { ...target, uid } }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }]);
    const sliceNotReady = (await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.[0]?.endpoints?.length === 1, 'a slice endpoint'))!.items[0];
    assert.deepEqual(sliceNotReady.endpoints[0].conditions, { ready: false, serving: false, terminating: false });
    assert.deepEqual(sliceNotReady.ports, [{ name: 'http', protocol: 'TCP', port: 8080 }]);
    assert.equal(sliceNotReady.metadata.name, placeholder.metadata.name, 'the placeholder is updated in place');

    await podStatus(admin, 'follow', 'web-1', '10.244.0.5', true);
    const ready = await waitFor(admin, `${epPath('follow')}/web`, (e) => !!e?.subsets?.[0]?.addresses, 'a ready address');
    assert.equal(ready!.subsets[0].addresses[0].ip, '10.244.0.5');
    assert.equal(ready!.subsets[0].notReadyAddresses, undefined);
    await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.[0]?.endpoints?.[0]?.conditions?.ready === true, 'a ready slice endpoint');

    // A graceful delete: the pod is terminating; Endpoints drop it, the slice keeps it as terminating.
    const del = await admin.request('DELETE', `${podsPath('follow')}/web-1`);
    assert.equal(del.status, 200, del.text);
    await waitFor(admin, `${epPath('follow')}/web`, (e) => !!e && e.subsets === undefined, 'no subsets once the pod terminates');
    const terminating = (await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.[0]?.endpoints?.[0]?.conditions?.terminating === true, 'a terminating slice endpoint'))!.items[0];
    assert.deepEqual(terminating.endpoints[0].conditions, { ready: false, serving: true, terminating: true });
    const force = await admin.request('DELETE', `${podsPath('follow')}/web-1?gracePeriodSeconds=0`);
    assert.equal(force.status, 200, force.text);
    await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.length === 1 && (l.items[0].endpoints ?? []).length === 0, 'the placeholder again');

    const gone = await admin.request('DELETE', '/api/v1/namespaces/follow/services/web');
    assert.equal(gone.status, 200, gone.text);
    await waitFor(admin, `${epPath('follow')}/web`, (e) => e === undefined, 'the Endpoints deleted with the Service');
    await waitFor(admin, serviceSlices('follow', 'web'), (l) => l?.items?.length === 0, 'the slices collected with the Service');
  });

  it('a Service without a selector: its own Endpoints are kept and mirrored into a slice, which follows them and goes with them', async () => {
    const admin = t.admin();
    await namespace(admin, 'manual');
    await service(admin, 'manual', 'ext', { selector: undefined });
    const mine = await admin.request('POST', epPath('manual'), {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'ext', labels: { team: 'db' } },
      subsets: [{ addresses: [{ ip: '192.0.2.10', nodeName: 'n1' }], notReadyAddresses: [{ ip: '192.0.2.11' }], ports: [{ name: 'http', port: 80 }] }],
    });
    assert.equal(mine.status, 201, mine.text);
    const mirrored = (await waitFor(admin, serviceSlices('manual', 'ext'), (l) => l?.items?.length === 1, 'the mirrored slice'))!.items[0];
    assert.deepEqual(mirrored.metadata.labels, { team: 'db', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
    assert.deepEqual(mirrored.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: mine.json().metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(mirrored.endpoints, [{ addresses: ['192.0.2.10'], conditions: { ready: true }, nodeName: 'n1' }, { addresses: ['192.0.2.11'], conditions: { ready: false } }]);
    assert.deepEqual(mirrored.ports, [{ name: 'http', port: 80, protocol: 'TCP' }]);
    // The endpoints controller leaves them alone: a Service with a selector synced after them has its Endpoints by now.
    await service(admin, 'manual', 'sel');
    await waitFor(admin, `${epPath('manual')}/sel`, (e) => !!e, 'the selector Service\'s Endpoints');
    assert.equal((await admin.request('GET', `${epPath('manual')}/ext`)).json().subsets[0].addresses[0].ip, '192.0.2.10');
    const cur = (await admin.request('GET', `${epPath('manual')}/ext`)).json();
    const upd = await admin.request('PUT', `${epPath('manual')}/ext`, { ...cur, subsets: [{ addresses: [{ ip: '192.0.2.12' }], ports: [{ name: 'http', port: 80 }] }] });
    assert.equal(upd.status, 200, upd.text);
    await waitFor(admin, serviceSlices('manual', 'ext'), (l) => l?.items?.length === 1 && l.items[0].endpoints?.[0]?.addresses?.[0] === '192.0.2.12' && l.items[0].metadata.name === mirrored.metadata.name, 'the mirrored slice updated in place');
    assert.equal((await admin.request('DELETE', `${epPath('manual')}/ext`)).status, 200);
    await waitFor(admin, serviceSlices('manual', 'ext'), (l) => l?.items?.length === 0, 'the mirrored slice gone with its Endpoints');
  });

  it('writes a quota refuses are retried and recorded: FailedToCreateEndpoint on the Endpoints, FailedToUpdateEndpointSlices on the Service', async () => {
    const admin = t.admin();
    await namespace(admin, 'refused');
    const q = await admin.request('POST', '/api/v1/namespaces/refused/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'objects' }, spec: { hard: { 'count/endpoints': '0', 'count/endpointslices.discovery.k8s.io': '0' } } });
    assert.equal(q.status, 201, q.text);
    await waitForQuotaStatus(admin, 'refused', 'objects');
    await service(admin, 'refused', 'web');
    const event = (reason: string) => waitFor(admin, `/api/v1/namespaces/refused/events?fieldSelector=${encodeURIComponent(`reason=${reason}`)}`, (l) => (l?.items?.length ?? 0) > 0, reason).then((l) => l!.items[0]);
    const ep = await event('FailedToCreateEndpoint');
    assert.deepEqual([ep.type, ep.involvedObject.kind, ep.involvedObject.name], ['Warning', 'Endpoints', 'web']);
    assert.equal(ep.message, 'Failed to create endpoint for service refused/web: endpoints "web" is forbidden: exceeded quota: objects, requested: count/endpoints=1, used: count/endpoints=0, limited: count/endpoints=0');
    const sl = await event('FailedToUpdateEndpointSlices');
    assert.deepEqual([sl.type, sl.involvedObject.kind, sl.involvedObject.name], ['Warning', 'Service', 'web']);
    assert.match(sl.message, /^Error updating Endpoint Slices for Service refused\/web: failed to create EndpointSlice for Service refused\/web: endpointslices\.discovery\.k8s\.io "web-[a-z0-9]{5}" is forbidden: exceeded quota: objects, requested: count\/endpointslices\.discovery\.k8s\.io=1, used: count\/endpointslices\.discovery\.k8s\.io=0, limited: count\/endpointslices\.discovery\.k8s\.io=0$/);
  });

  it('the kubernetes Service: Endpoints and slice `kubernetes` with the advertised address and the server\'s port', async () => {
    const admin = t.admin();
    const port = Number(new URL(t.server().url).port);
    const interfaces = Object.values(networkInterfaces()).flatMap((l) => (l ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => a.address));
    const ip = advertiseAddress('127.0.0.1', [], interfaces);
    const ep = (await admin.request('GET', `${epPath('default')}/kubernetes`)).json();
    assert.equal(ep.metadata.labels['endpointslice.kubernetes.io/skip-mirror'], 'true');
    const slice = (await admin.request('GET', `${slicePath('default')}/kubernetes`)).json();
    assert.deepEqual(slice.metadata.labels, { 'kubernetes.io/service-name': 'kubernetes' });
    // skip-mirror: the mirroring controller leaves it alone, so it is the one slice of the Service.
    assert.deepEqual((await admin.request('GET', serviceSlices('default', 'kubernetes'))).json().items.map((x: Json) => x.metadata.name), ['kubernetes']);
    if (!ip) {
      // Only loopback here: no address can be an endpoint.
      assert.equal(ep.subsets, undefined);
      return;
    }
    assert.deepEqual(ep.subsets, [{ addresses: [{ ip }], ports: [{ name: 'https', port, protocol: 'TCP' }] }]);
    assert.deepEqual(slice.endpoints, [{ addresses: [ip], conditions: { ready: true } }]);
    assert.deepEqual(slice.ports, [{ name: 'https', protocol: 'TCP', port }]);
  });

  describe('with the real kubectl', { skip: kubectlFound ? false : kubectlSkip }, () => {
    it('kubectl get endpoints ("+ N more..."), get endpointslices, describe svc', async () => {
      const admin = t.admin();
      await namespace(admin, 'kc');
      await service(admin, 'kc', 'web');
      for (let i = 1; i <= 4; i++) {
        await pod(admin, 'kc', `web-${i}`);
        await podStatus(admin, 'kc', `web-${i}`, `10.244.1.${i}`, true);
      }
      await waitFor(admin, `${epPath('kc')}/web`, (e) => e?.subsets?.[0]?.addresses?.length === 4, 'four addresses');
      await waitFor(admin, serviceSlices('kc', 'web'), (l) => l?.items?.[0]?.endpoints?.length === 4, 'four slice endpoints');
      const ep = await t.kubectl('-n', 'kc', 'get', 'endpoints');
      assert.equal(ep.code, 0, ep.stderr);
      const rows = tableRows(ep.stdout);
      assert.deepEqual(rows[0], ['NAME', 'ENDPOINTS', 'AGE']);
      assert.deepEqual(rows[1]!.slice(0, 2), ['web', '10.244.1.1:8080,10.244.1.2:8080,10.244.1.3:8080 + 1 more...']);
      const slices = await t.kubectl('-n', 'kc', 'get', 'endpointslices');
      assert.equal(slices.code, 0, slices.stderr);
      const srows = tableRows(slices.stdout);
      assert.deepEqual(srows[0], ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
      assert.deepEqual(srows[1]!.slice(1, 4), ['IPv4', '8080', '10.244.1.1,10.244.1.2,10.244.1.3 + 1 more...']);
      const described = await t.kubectl('-n', 'kc', 'describe', 'svc', 'web');
      assert.equal(described.code, 0, described.stderr);
      assert.match(described.stdout, /^Endpoints:\s+10\.244\.1\.1:8080,10\.244\.1\.2:8080,10\.244\.1\.3:8080 \+ 1 more\.\.\.$/m);
    });

    it('kubectl apply (client-side, then server-side; the manifest as the server stores it) of a selectorless Service with its own Endpoints: get ep, describe svc and get endpointslices from the mirrored slice', async () => {
      const admin = t.admin();
      await namespace(admin, 'ext');
      const manifest = `apiVersion: v1
kind: Service
metadata: {name: db, namespace: ext}
spec:
  ports: [{name: pg, port: 5432}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: db, namespace: ext}
subsets:
- addresses: [{ip: 192.0.2.30}, {ip: 192.0.2.40}]
  ports: [{name: pg, port: 5432, protocol: TCP}]
`;
      const { writeFileSync } = await import('node:fs');
      const file = `${t.dir()}/db.yaml`;
      writeFileSync(file, manifest);
      for (const args of [['apply', '-f', file], ['apply', '--server-side', '-f', file]]) {
        const r = await t.kubectl(...args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      }
      const ep = await t.kubectl('-n', 'ext', 'get', 'ep', 'db', '--no-headers');
      assert.match(ep.stdout, /^db\s+192\.0\.2\.30:5432,192\.0\.2\.40:5432\s/);
      // kubectl 1.32's describe reads the Service's EndpointSlices: the mirrored one.
      await waitFor(admin, serviceSlices('ext', 'db'), (l) => l?.items?.[0]?.endpoints?.length === 2, 'the mirrored slice');
      const described = await t.kubectl('-n', 'ext', 'describe', 'svc', 'db');
      assert.match(described.stdout, /^Endpoints:\s+192\.0\.2\.30:5432,192\.0\.2\.40:5432$/m);
      const slice = await t.kubectl('-n', 'ext', 'get', 'endpointslices', '-l', 'kubernetes.io/service-name=db', '--no-headers');
      assert.match(slice.stdout, /^db-[a-z0-9]{5}\s+IPv4\s+5432\s+192\.0\.2\.30,192\.0\.2\.40\s/);
    });
  });
});
