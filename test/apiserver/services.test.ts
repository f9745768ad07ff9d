// core/v1 Services through the in-process server: the resource (discovery, defaults, the kubectl
// get columns, the status subresource), cluster IP and node port allocation (pkg/registry/core/
// service/storage alloc.go with ipallocator and portallocator: requested values, conflicts and
// out-of-range values with upstream's wording, a value released by delete or by an update that
// drops it, exact under concurrent creates, a full range), the kubernetes Service, ResourceQuota's
// service evaluator, namespace deletion, and a restart on the same SQLite database. Then the real
// kubectl: apply of a Deployment and Service manifest, get svc, expose, create service,
// cluster-info (skipped when kubectl is missing).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseNodePortRange, parseServiceIPRange } from '../../src/api/servicerange.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { releaseStaleClaims } from '../../src/apiserver/serviceallocations.js';
import { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer, waitForQuotaStatus } from './kubectlserver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const services = (ns: string) => `/api/v1/namespaces/${ns}/services`;
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };

async function namespace(admin: Client, name: string): Promise<void> {
  const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, r.text);
}

const service = (name: string, spec: Json = {}) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec } });

async function create(admin: Client, ns: string, name: string, spec: Json = {}): Promise<Json> {
  const r = await admin.request('POST', services(ns), service(name, spec));
  assert.equal(r.status, 201, r.text);
  return r.json();
}

describe('Services over HTTP', () => {
  const t = useTestServer('bulkhead-services-');
  before(async () => {
    for (const ns of ['a', 'b', 'q']) await namespace(t.admin(), ns);
  });

  it('discovery lists services (svc, category all) with its status subresource', async () => {
    const list = (await t.admin().request('GET', '/api/v1')).json();
    const svc = list.resources.find((r: Json) => r.name === 'services');
    assert.deepEqual([svc.kind, svc.namespaced, svc.shortNames, svc.categories], ['Service', true, ['svc'], ['all']]);
    assert.deepEqual(list.resources.find((r: Json) => r.name === 'services/status').verbs, ['get', 'patch', 'update']);
  });

  it('the kubernetes Service: default namespace, the first address of the range, 443 to the API server\'s port', async () => {
    const k = (await t.admin().request('GET', '/api/v1/namespaces/default/services/kubernetes')).json();
    assert.deepEqual(k.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    assert.equal(k.spec.clusterIP, '10.96.0.1');
    assert.deepEqual(k.spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: Number(new URL(t.server().url).port) }]);
  });

  it('a create is defaulted and allocated as upstream does: a cluster IP from the upper band, IPv4 single-stack', async () => {
    const s = await create(t.admin(), 'a', 'web', { ports: [{ port: 80, targetPort: 8080 }] });
    const ip = parseServiceIPRange('10.96.0.0/12');
    const index = s.spec.clusterIP.split('.').reduce((n: number, o: string) => n * 256 + Number(o), 0) - ip.network - 1;
    assert.ok(index >= ip.offset && index < ip.size, `${s.spec.clusterIP} is in the upper band of 10.96.0.0/12`);
    assert.deepEqual(
      { ...s.spec, clusterIP: 'X', clusterIPs: ['X'] },
      { selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], clusterIP: 'X', clusterIPs: ['X'] },
    );
    assert.deepEqual(s.status, { loadBalancer: {} });
  });

  const conflicts: { name: string; first: Json; second: Json; message: (first: Json) => string }[] = [
    {
      name: 'a cluster IP another Service holds: provided IP is already allocated',
      first: { clusterIP: '10.96.0.10' },
      second: { clusterIP: '10.96.0.10' },
      message: () => 'Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    },
    {
      name: 'a cluster IP outside the range',
      first: {},
      second: { clusterIP: '10.0.0.5' },
      message: () => 'Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: the provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    },
    {
      name: 'the range\'s broadcast address is outside it',
      first: {},
      second: { clusterIP: '10.111.255.255' },
      message: () => 'Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.111.255.255"}: failed to allocate IP 10.111.255.255: the provided IP (10.111.255.255) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    },
    {
      name: 'a node port another Service holds, in another namespace: provided port is already allocated',
      first: { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] },
      second: { type: 'NodePort', ports: [{ port: 80, nodePort: 30100 }] },
      message: () => 'Service "second" is invalid: spec.ports[0].nodePort: Invalid value: 30100: provided port is already allocated',
    },
    {
      name: 'a node port outside the range',
      first: {},
      second: { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] },
      message: () => 'Service "second" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    },
    {
      name: 'a dual-stack demand on this single-stack cluster',
      first: {},
      second: { ipFamilyPolicy: 'RequireDualStack' },
      message: () => 'Service "second" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    },
    {
      name: 'an IPv6 family on this IPv4 cluster',
      first: {},
      second: { ipFamilies: ['IPv6'] },
      message: () => 'Service "second" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    },
  ];
  for (const [i, c] of conflicts.entries()) {
    it(c.name, async () => {
      const ns = `conflict${i}`;
      await namespace(t.admin(), ns);
      const first = await create(t.admin(), 'a', `first${i}`, c.first);
      const r = await t.admin().request('POST', services(ns), service('second', c.second));
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json().message, c.message(first));
      await t.admin().request('DELETE', `${services('a')}/first${i}`);
    });
  }

  it('a deleted Service releases its cluster IP and node ports', async () => {
    await create(t.admin(), 'a', 'held', { type: 'NodePort', clusterIP: '10.96.0.20', ports: [{ port: 80, nodePort: 30200 }] });
    assert.equal((await t.admin().request('POST', services('b'), service('taker', { type: 'NodePort', clusterIP: '10.96.0.20', ports: [{ port: 80, nodePort: 30200 }] }))).status, 422);
    assert.equal((await t.admin().request('DELETE', `${services('a')}/held`)).status, 200);
    const s = await create(t.admin(), 'b', 'taker', { type: 'NodePort', clusterIP: '10.96.0.20', ports: [{ port: 80, nodePort: 30200 }] });
    assert.deepEqual([s.spec.clusterIP, s.spec.ports[0].nodePort], ['10.96.0.20', 30200]);
  });

  it('the repair sweep deletes the claims of Services that went and keeps those of Services that hold them', async () => {
    const store = t.server().store;
    await create(t.admin(), 'a', 'swept', { type: 'NodePort', clusterIP: '10.96.0.60', ports: [{ port: 80, nodePort: 30600 }] });
    await create(t.admin(), 'a', 'kept', { type: 'NodePort', clusterIP: '10.96.0.61', ports: [{ port: 80, nodePort: 30601 }] });
    assert.equal((await t.admin().request('DELETE', `${services('a')}/swept`)).status, 200);
    const keys = ['/registry/ranges/serviceips/10.96.0.60', '/registry/ranges/servicenodeports/30600', '/registry/ranges/serviceips/10.96.0.61', '/registry/ranges/servicenodeports/30601'];
    const present = async () => Promise.all(keys.map(async (k) => !!(await store.get(k))));
    assert.deepEqual(await present(), [true, true, true, true]);
    assert.ok((await releaseStaleClaims(t.server().api)) >= 2);
    assert.deepEqual(await present(), [false, false, true, true]);
  });

  it('an update to ClusterIP drops the node ports and releases them; back to NodePort allocates anew', async () => {
    await create(t.admin(), 'a', 'flip', { type: 'NodePort', ports: [{ port: 80, nodePort: 30300 }] });
    const toClusterIP = await t.admin().request('PATCH', `${services('a')}/flip`, { spec: { type: 'ClusterIP' } }, mergePatch);
    assert.equal(toClusterIP.status, 200, toClusterIP.text);
    assert.equal(toClusterIP.json().spec.ports[0].nodePort, undefined);
    assert.equal(toClusterIP.json().spec.externalTrafficPolicy, undefined);
    const other = await create(t.admin(), 'b', 'flipper', { type: 'NodePort', ports: [{ port: 80, nodePort: 30300 }] });
    assert.equal(other.spec.ports[0].nodePort, 30300);
    const back = await t.admin().request('PATCH', `${services('a')}/flip`, { spec: { type: 'NodePort' } }, mergePatch);
    assert.equal(back.status, 200, back.text);
    assert.notEqual(back.json().spec.ports[0].nodePort, 30300);
  });

  it('an update keeps what was allocated when the body leaves it out, and the cluster IP is immutable', async () => {
    const s = await create(t.admin(), 'a', 'keep', { type: 'NodePort' });
    const put = structuredClone(s);
    delete put.spec.clusterIP;
    delete put.spec.clusterIPs;
    delete put.spec.ports[0].nodePort;
    put.metadata.labels = { changed: 'yes' };
    const r = await t.admin().request('PUT', `${services('a')}/keep`, put);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json().spec.clusterIP, r.json().spec.ports[0].nodePort], [s.spec.clusterIP, s.spec.ports[0].nodePort]);
    const change = await t.admin().request('PATCH', `${services('a')}/keep`, { spec: { clusterIP: '10.96.0.99', clusterIPs: ['10.96.0.99'] } }, mergePatch);
    assert.equal(change.status, 422);
    assert.equal(change.json().message, 'Service "keep" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set');
  });

  it('concurrent creates of one requested node port in four namespaces: exactly one wins', async () => {
    for (const ns of ['r1', 'r2', 'r3', 'r4']) await namespace(t.admin(), ns);
    const results = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((ns) => t.admin().request('POST', services(ns), service('race', { type: 'NodePort', ports: [{ port: 80, nodePort: 30400 }] }))));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) assert.match(r.json().message, /provided port is already allocated/);
  });

  it('the status subresource changes only status', async () => {
    const s = await create(t.admin(), 'a', 'lb', { type: 'LoadBalancer' });
    const r = await t.admin().request('PUT', `${services('a')}/lb/status`, { ...s, spec: { ...s.spec, type: 'ClusterIP' }, status: { loadBalancer: { ingress: [{ ip: '192.0.2.7' }] } } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json().spec.type, r.json().status.loadBalancer.ingress], ['LoadBalancer', [{ ip: '192.0.2.7' }]]);
    const bad = await t.admin().request('PATCH', `${services('a')}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: 'x' }] } } }, mergePatch);
    assert.equal(bad.json().message, 'Service "lb" is invalid: status.loadBalancer.ingress[0].ip: Invalid value: "x": must be a valid IP address');
  });

  it('the table: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, SELECTOR at priority 1', async () => {
    await create(t.admin(), 'b', 'tbl', { type: 'NodePort', clusterIP: '10.96.0.30', ports: [{ name: 'http', port: 80, nodePort: 30500 }, { name: 'dns', port: 53, protocol: 'UDP' }] });
    const table = (await t.admin().request('GET', `${services('b')}/tbl`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json();
    assert.deepEqual(table.columnDefinitions.map((c: Json) => [c.name, c.priority]), [['Name', 0], ['Type', 0], ['Cluster-IP', 0], ['External-IP', 0], ['Port(s)', 0], ['Age', 0], ['Selector', 1]]);
    const cells = table.rows[0].cells;
    assert.deepEqual([cells[0], cells[1], cells[2], cells[3], cells[6]], ['tbl', 'NodePort', '10.96.0.30', '<none>', 'app=tbl']);
    assert.match(cells[4], /^80:30500\/TCP,53:3\d{4}\/UDP$/);
  });

  it('ResourceQuota counts services, services.nodeports and services.loadbalancers, and gives them back on delete', async () => {
    const q = await t.admin().request('POST', '/api/v1/namespaces/q/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { services: '2', 'count/services': '9', 'services.nodeports': '1', 'services.loadbalancers': '0' } } });
    assert.equal(q.status, 201, q.text);
    await waitForQuotaStatus(t.admin(), 'q', 'q');
    await create(t.admin(), 'q', 'np', { type: 'NodePort' });
    const rows: [string, Json, string][] = [
      ['np2', { type: 'NodePort' }, 'services "np2" is forbidden: exceeded quota: q, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1'],
      ['lb', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }, 'services "lb" is forbidden: exceeded quota: q, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0'],
    ];
    for (const [name, spec, message] of rows) {
      const r = await t.admin().request('POST', services('q'), service(name, spec));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json().message, message);
    }
    await create(t.admin(), 'q', 'c1');
    const charged = (await t.admin().request('GET', '/api/v1/namespaces/q/resourcequotas/q')).json().status.used;
    assert.deepEqual([charged['count/services'], charged['services']], ['2', '2']);
    const third = await t.admin().request('POST', services('q'), service('c2'));
    assert.equal(third.json().message, 'services "c2" is forbidden: exceeded quota: q, requested: services=1, used: services=2, limited: services=2');
    const toNodePort = await t.admin().request('PATCH', `${services('q')}/c1`, { spec: { type: 'NodePort' } }, mergePatch);
    assert.equal(toNodePort.status, 403, toNodePort.text);
    assert.equal((await t.admin().request('DELETE', `${services('q')}/np`)).status, 200);
    let used: Json = {};
    for (let i = 0; i < 400 && used['services'] !== '1'; i++) {
      used = (await t.admin().request('GET', '/api/v1/namespaces/q/resourcequotas/q')).json().status.used;
      if (used['services'] !== '1') await new Promise((r) => setTimeout(r, 25));
    }
    // count/services is the service evaluator's alone: charged once per Service, never by the generic object count too.
    assert.deepEqual(used, { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  });

  it('namespace deletion removes its Services and frees their values', async () => {
    await namespace(t.admin(), 'gone');
    await create(t.admin(), 'gone', 'x', { clusterIP: '10.96.0.40' });
    assert.equal((await t.admin().request('DELETE', '/api/v1/namespaces/gone')).status, 200);
    for (let i = 0; i < 400 && (await t.admin().request('GET', '/api/v1/namespaces/gone')).status !== 404; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal((await t.admin().request('GET', '/api/v1/namespaces/gone')).status, 404);
    await create(t.admin(), 'a', 'after-gone', { clusterIP: '10.96.0.40' });
  });

  describe('with kubectl', { skip: kubectlFound ? false : kubectlSkip }, () => {
    before(async () => namespace(t.admin(), 'kc'));
    it('apply of a Deployment and a Service, twice; get svc; get svc -o wide; expose; create service; cluster-info', async () => {
      const manifest = join(t.dir(), 'app.yaml');
      writeFileSync(
        manifest,
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: kc}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: busybox, ports: [{containerPort: 8080}]}]}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: kc}
spec:
  type: NodePort
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080}
  - {name: https, port: 443, targetPort: 8443, nodePort: 30443}
`,
      );
      const first = await t.kubectl('apply', '-f', manifest);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /service\/web created/);
      const again = await t.kubectl('apply', '-f', manifest);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /service\/web unchanged/);
      const ssa = await t.kubectl('apply', '--server-side', '-f', manifest);
      assert.equal(ssa.code, 0, ssa.stderr);
      const get = tableRows((await t.kubectl('-n', 'kc', 'get', 'svc')).stdout);
      assert.deepEqual(get[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
      assert.deepEqual(get[1]!.slice(0, 2), ['web', 'NodePort']);
      assert.match(get[1]![4]!, /^80:3\d{4}\/TCP,443:30443\/TCP$/);
      const wide = tableRows((await t.kubectl('-n', 'kc', 'get', 'svc', '-o', 'wide')).stdout);
      assert.deepEqual([wide[0]![6], wide[1]![6]], ['SELECTOR', 'app=web']);
      const expose = await t.kubectl('-n', 'kc', 'expose', 'deployment', 'web', '--name', 'web2', '--port', '81', '--target-port', '8080');
      assert.equal(expose.code, 0, expose.stderr);
      assert.match(expose.stdout, /service\/web2 exposed/);
      const exposed = JSON.parse((await t.kubectl('-n', 'kc', 'get', 'svc', 'web2', '-o', 'json')).stdout);
      assert.deepEqual([exposed.spec.selector, exposed.spec.ports[0].port, exposed.spec.ports[0].targetPort], [{ app: 'web' }, 81, 8080]);
      const created = await t.kubectl('-n', 'kc', 'create', 'service', 'nodeport', 'n1', '--tcp=5678:8080', '--node-port=30443');
      assert.notEqual(created.code, 0);
      assert.match(created.stderr, /spec\.ports\[0\]\.nodePort: Invalid value: 30443: provided port is already allocated/);
      const info = await t.kubectl('cluster-info');
      assert.equal(info.code, 0, info.stderr);
      assert.match(info.stdout, new RegExp(`Kubernetes control plane is running at ${t.server().url.replace(/[.]/g, '\\.')}`));
      const deleted = await t.kubectl('delete', '-f', manifest);
      assert.equal(deleted.code, 0, deleted.stderr);
      const reuse = await t.kubectl('-n', 'kc', 'create', 'service', 'nodeport', 'n1', '--tcp=5678:8080', '--node-port=30443');
      assert.equal(reuse.code, 0, reuse.stderr);
    });
  });
});

describe('Service allocations across a restart and in a small range', () => {
  let dir: string;
  let s: RunningServer | undefined;
  let admin: Client | undefined;
  const ranges = { ip: parseServiceIPRange('10.200.0.0/29'), nodePorts: parseNodePortRange('31000-31003') };
  const start = async () => {
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false, workloadControllers: false, serviceRanges: ranges });
    admin = new Client(s.url, s.caCert, s.adminToken);
  };
  const stop = async () => {
    admin?.close();
    await s?.close();
    admin = undefined;
    s = undefined;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-services-restart-'));
    await start();
  });
  after(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('concurrent creates fill a /29 exactly: five distinct addresses (the kubernetes Service holds the first), then range is full', async () => {
    for (const ns of ['x', 'y']) await namespace(admin!, ns);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => admin!.request('POST', services(i % 2 ? 'x' : 'y'), service(`s${i}`))));
    const ok = results.filter((r) => r.status === 201).map((r) => r.json().spec.clusterIP);
    assert.equal(ok.length, 5, results.map((r) => r.text).join('\n'));
    assert.deepEqual([...new Set(ok)].sort(), ['10.200.0.2', '10.200.0.3', '10.200.0.4', '10.200.0.5', '10.200.0.6']);
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 500);
      assert.equal(r.json().message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
    }
  });

  it('node ports: a full range is an internal error', async () => {
    await namespace(admin!, 'np');
    await create(admin!, 'np', 'four', { clusterIP: 'None', type: 'ClusterIP', ports: [{ port: 1 }] });
    const del = await admin!.request('DELETE', `${services('y')}/s0`);
    assert.equal(del.status, 200);
    await create(admin!, 'np', 'ports', { type: 'NodePort', ports: [1, 2, 3, 4].map((p) => ({ name: `p${p}`, port: p })) });
    await admin!.request('DELETE', `${services('x')}/s1`);
    const full = await admin!.request('POST', services('np'), service('more', { type: 'NodePort' }));
    assert.equal(full.status, 500, full.text);
    assert.equal(full.json().message, 'Internal error occurred: failed to allocate a nodePort: range is full');
  });

  it('after a restart on the same database every allocation is still held, and a delete still frees', async () => {
    const before = (await admin!.request('GET', '/api/v1/services')).json().items.map((x: Json) => [x.metadata.namespace, x.metadata.name, x.spec.clusterIP, (x.spec.ports ?? []).map((p: Json) => p.nodePort ?? 0)]);
    await stop();
    await start();
    const after = (await admin!.request('GET', '/api/v1/services')).json().items.map((x: Json) => [x.metadata.namespace, x.metadata.name, x.spec.clusterIP, (x.spec.ports ?? []).map((p: Json) => p.nodePort ?? 0)]);
    assert.deepEqual(after, before);
    const taken = await admin!.request('POST', services('np'), service('ip', { clusterIP: '10.200.0.1' }));
    assert.equal(taken.json().message, 'Service "ip" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: provided IP is already allocated');
    const port = await admin!.request('POST', services('np'), service('port', { clusterIP: 'None', type: 'ClusterIP' }));
    assert.equal(port.status, 201, port.text);
    const full = await admin!.request('POST', services('np'), service('more', { type: 'NodePort' }));
    assert.equal(full.status, 500);
    assert.equal((await admin!.request('DELETE', `${services('np')}/ports`)).status, 200);
    const freed = await admin!.request('POST', services('np'), service('more', { type: 'NodePort', ports: [{ port: 80, nodePort: 31002 }] }));
    assert.equal(freed.status, 201, freed.text);
  });

  it('a deleted kubernetes Service is put back (the kubernetes service controller reconciles every 10 s)', async () => {
    const path = '/api/v1/namespaces/default/services/kubernetes';
    const uid = (await admin!.request('GET', path)).json().metadata.uid;
    assert.equal((await admin!.request('DELETE', path)).status, 200);
    let back: Json = {};
    for (let i = 0; i < 300 && !(back.metadata?.uid && back.metadata.uid !== uid); i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = (await admin!.request('GET', path)).json();
    }
    assert.notEqual(back.metadata?.uid, uid);
    assert.equal(back.spec.clusterIP, '10.200.0.1');
  });
});
