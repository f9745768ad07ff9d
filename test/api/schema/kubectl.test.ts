// The documents against the real kubectl, when one is installed (skipped otherwise): a minimal
// in-process server answers /version, aggregated discovery, /openapi/v3 and pods, and kubectl
// runs explain, create, client-side apply (whose strategic merge patch kubectl computes from our
// v3 schema) and server-side apply against it.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openAPIBundle } from '../../../src/api/schema/index.js';
import { servedResources } from '../../../src/apiserver/openapidocs.js';

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0;
})();

interface Recorded {
  method: string;
  url: string;
  contentType: string;
  body: string;
}

type Json = Record<string, unknown>;

function startServer(): Promise<{ server: http.Server; port: number; requests: Recorded[] }> {
  const bundle = openAPIBundle(servedResources());
  const requests: Recorded[] = [];
  const pods = new Map<string, Json>();
  const discovery = (group: string, resources: Json[]) => ({
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [{ metadata: group ? { name: group } : { creationTimestamp: null }, versions: [{ version: 'v1', freshness: 'Current', resources }] }],
  });
  const res = (resource: string, kind: string, scope: string, singular: string, group = '') => ({
    resource,
    responseKind: { group, version: 'v1', kind },
    scope,
    singularResource: singular,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  });
  const server = http.createServer((req, resp) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      requests.push({ method: req.method ?? '', url: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), body });
      const send = (code: number, obj: unknown, ct = 'application/json', headers: Record<string, string> = {}) => {
        resp.writeHead(code, { 'content-type': ct, ...headers });
        resp.end(JSON.stringify(obj));
      };
      const notFound = (msg: string) => send(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: msg, reason: 'NotFound', code: 404 });
      const dct = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
      if (u.pathname === '/version') return send(200, { major: '1', minor: '32', gitVersion: 'v1.32.4', gitCommit: '0', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z', goVersion: 'go1.23.6', compiler: 'gc', platform: 'linux/amd64' });
      if (u.pathname === '/api') return send(200, discovery('', [res('pods', 'Pod', 'Namespaced', 'pod'), res('nodes', 'Node', 'Cluster', 'node'), res('namespaces', 'Namespace', 'Cluster', 'namespace')]), dct);
      if (u.pathname === '/apis') return send(200, discovery('coordination.k8s.io', [res('leases', 'Lease', 'Namespaced', 'lease', 'coordination.k8s.io')]), dct);
      if (u.pathname === '/openapi/v3') return send(200, bundle.index);
      if (u.pathname.startsWith('/openapi/v3/')) {
        const d = bundle.documents[u.pathname.slice('/openapi/v3/'.length)];
        if (!d || u.searchParams.get('hash') !== d.hash) return notFound('no such document');
        return send(200, d.doc, 'application/json', { expires: new Date(Date.now() + 3_600_000).toUTCString() });
      }
      const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods(?:\/([^/]+))?$/.exec(u.pathname);
      if (m) {
        const ns = m[1]!;
        if (req.method === 'POST') {
          const o = JSON.parse(body) as Json & { metadata: Json };
          o.metadata = { ...o.metadata, uid: 'u-1', resourceVersion: '1', creationTimestamp: '2024-01-01T00:00:00Z' };
          pods.set(`${ns}/${String(o.metadata['name'])}`, o);
          return send(201, o);
        }
        const key = `${ns}/${m[2] ?? ''}`;
        const stored = pods.get(key);
        if (req.method === 'GET') return stored ? send(200, stored) : notFound(`pods "${m[2]}" not found`);
        if (req.method === 'PATCH') {
          if (stored) return send(200, stored);
          const o = JSON.parse(body) as Json;
          pods.set(key, o);
          return send(201, o);
        }
      }
      notFound('the server could not find the requested resource');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, requests })));
}

const manifest = (image: string, env: string) => `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  volumes:
  - name: data
    emptyDir: {sizeLimit: 1Gi}
  initContainers:
  - {name: side, image: busybox, restartPolicy: Always, oomKillMode: Single}
  containers:
  - name: nginx
    image: ${image}
    oomKillMode: Group
    ports: [{containerPort: 80}]
    env: [{name: A, value: "${env}"}, {name: B, value: "b"}]
    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
    volumeMounts: [{name: data, mountPath: /data}]
    securityContext:
      ulimits: [{name: nofile, soft: 1024, hard: 2048}]
    livenessProbe: {httpGet: {port: 80, path: /}}
  tolerations: [{key: k, operator: Exists}]
`;

if (!kubectlFound) it('real kubectl against the documents', { skip: 'kubectl not installed (or BULKHEAD_SKIP_KUBECTL set)' }, () => {});
else describe('real kubectl against the documents', () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  let dir: string;

  before(async () => {
    srv = await startServer();
    dir = mkdtempSync(path.join(tmpdir(), 'bulkhead-kubectl-'));
    writeFileSync(
      path.join(dir, 'kubeconfig'),
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${srv.port}"}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]
current-context: c
users: [{name: u, user: {}}]
`,
    );
    writeFileSync(path.join(dir, 'v1.yaml'), manifest('nginx:1.25', '1'));
    writeFileSync(path.join(dir, 'v2.yaml'), manifest('nginx:1.26', '2'));
    writeFileSync(path.join(dir, 'ssa.yaml'), manifest('nginx:1.25', '1').replace('name: web\n', 'name: ssa\n'));
    writeFileSync(path.join(dir, 'create.yaml'), manifest('nginx:1.25', '1').replace('name: web\n', 'name: created\n'));
  });

  after(() => {
    srv?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'kubectl',
        ['--kubeconfig', path.join(dir, 'kubeconfig'), '--cache-dir', path.join(dir, 'cache'), ...args],
        { timeout: 60_000, env: { ...process.env, KUBECONFIG: path.join(dir, 'kubeconfig'), NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' } },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('explain pod.spec.containers.oomKillMode shows the enum and description', async () => {
    const r = await kubectl('explain', 'pod.spec.containers.oomKillMode');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /FIELD: oomKillMode <string>/);
    assert.match(r.stdout, /ENUM:\s+Single\s+Group/);
    assert.match(r.stdout, /OOM killer/);
  });

  it('explain pod.spec.containers.securityContext.ulimits shows the Ulimit fields', async () => {
    const r = await kubectl('explain', 'pod.spec.containers.securityContext.ulimits');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /FIELD: ulimits <\[\]Ulimit>/);
    assert.match(r.stdout, /soft\s+<integer> -required-/);
    assert.match(r.stdout, /hard\s+<integer> -required-/);
  });

  it('explain finds Node and Lease', async () => {
    const node = await kubectl('explain', 'node.status.declaredFeatures');
    assert.equal(node.code, 0, node.stderr);
    assert.match(node.stdout, /declaredFeatures <\[\]string>/);
    const lease = await kubectl('explain', 'lease.spec.holderIdentity');
    assert.equal(lease.code, 0, lease.stderr);
    assert.match(lease.stdout, /GROUP:\s+coordination.k8s.io/);
  });

  it('create validates through the server (fieldValidation=Strict)', async () => {
    const r = await kubectl('create', '-f', path.join(dir, 'create.yaml'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /pod\/created created/);
    assert.ok(srv.requests.some((q) => q.method === 'POST' && q.url.includes('fieldValidation=Strict')));
  });

  it('client-side apply computes its strategic merge patch from the v3 schema without warnings', async () => {
    const first = await kubectl('apply', '-f', path.join(dir, 'v1.yaml'));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /pod\/web created/);
    const second = await kubectl('apply', '-f', path.join(dir, 'v2.yaml'));
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /pod\/web configured/);
    assert.doesNotMatch(first.stderr + second.stderr, /warning|error calculating patch/i);
    const patch = srv.requests.find((q) => q.method === 'PATCH' && q.contentType === 'application/strategic-merge-patch+json');
    assert.ok(patch, 'no strategic merge patch was sent');
    assert.match(patch.url, /fieldValidation=Strict/);
    const body = JSON.parse(patch.body) as { spec: Json & { containers: Json[] } };
    assert.deepEqual(body.spec['$setElementOrder/containers'], [{ name: 'nginx' }]);
    assert.equal(body.spec.containers[0]!['image'], 'nginx:1.26');
    assert.deepEqual(body.spec.containers[0]!['$setElementOrder/env'], [{ name: 'A' }, { name: 'B' }]);
  });

  it('server-side apply', async () => {
    const r = await kubectl('apply', '--server-side', '-f', path.join(dir, 'ssa.yaml'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /pod\/ssa serverside-applied/);
    const req = srv.requests.find((q) => q.method === 'PATCH' && q.contentType === 'application/apply-patch+yaml');
    assert.ok(req);
    assert.match(req.url, /fieldManager=kubectl&fieldValidation=Strict&force=false/);
  });
});
