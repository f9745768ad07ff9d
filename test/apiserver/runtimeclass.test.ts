// node.k8s.io/v1 RuntimeClass through the real HTTP API (pkg/registry/node/runtimeclass and the
// RuntimeClass admission plugin): CRUD with validation and the immutable handler, the columns
// kubectl prints, discovery, a node's read of every class (NodeRules); then pods: overhead,
// nodeSelector and tolerations from the class, the 403s with upstream's messages, and the overhead
// in the quota's usage. Then kubectl get runtimeclass (skipped when kubectl is not installed).

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const base = '/apis/node.k8s.io/v1/runtimeclasses';
const rc = (name: string, handler: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler, ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '100m', memory: '32Mi' } } }], ...spec },
});
const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
const pods = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const dnsLabelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('RuntimeClass over HTTP', () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-rc-'));
    s = await startServer({ dataDir: join(dir, 'data'), port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    for (const ns of ['rc', 'rcquota']) {
      const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const creates: { name: string; body: unknown; status: number; message?: string }[] = [
    { name: 'a class with overhead and scheduling', body: rc('sandboxed', 'crun', { overhead: { podFixed: { cpu: '250m', memory: '64Mi' } }, scheduling: { nodeSelector: { 'runtime/crun': 'true' }, tolerations: [{ key: 'runtime', operator: 'Exists', effect: 'NoSchedule' }] } }), status: 201 },
    { name: 'a plain class', body: rc('plain', 'runc'), status: 201 },
    { name: 'a handler that is not a DNS label: 422', body: rc('bad', 'runc.v2'), status: 422, message: 'RuntimeClass.node.k8s.io "bad" is invalid: handler: Invalid value: "runc.v2": must not contain dots' },
    { name: 'an empty handler: 422', body: rc('empty', ''), status: 422, message: `RuntimeClass.node.k8s.io "empty" is invalid: handler: Invalid value: "": ${dnsLabelMsg}` },
    { name: 'no handler at all: 422 as the empty one', body: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'none' } }, status: 422 },
    { name: 'a negative overhead: 422 at overhead.limits[cpu]', body: rc('neg', 'runc', { overhead: { podFixed: { cpu: '-1' } } }), status: 422, message: 'RuntimeClass.node.k8s.io "neg" is invalid: overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0' },
  ];
  for (const c of creates) {
    it(`create: ${c.name}`, async () => {
      const r = await admin.request('POST', base, c.body);
      assert.equal(r.status, c.status, r.text);
      if (c.message) assert.equal(r.json().message, c.message);
    });
  }

  it('the overhead is stored as the server prints quantities (1024Mi is 1Gi)', async () => {
    const r = await admin.request('POST', base, rc('spelled', 'runc', { overhead: { podFixed: { memory: '1024Mi', cpu: '0.5' } } }));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().overhead, { podFixed: { cpu: '500m', memory: '1Gi' } });
  });

  it('update: the handler is immutable', async () => {
    const r = await admin.request('PATCH', `${base}/plain`, { handler: 'crun' }, mergePatch);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json().message, 'RuntimeClass.node.k8s.io "plain" is invalid: handler: Invalid value: "crun": field is immutable');
  });

  it('update: labels and scheduling may change', async () => {
    const r = await admin.request('PATCH', `${base}/plain`, { metadata: { labels: { a: 'b' } }, scheduling: { nodeSelector: { x: 'y' } } }, mergePatch);
    assert.equal(r.status, 200, r.text);
    const back = await admin.request('PATCH', `${base}/plain`, { scheduling: null }, mergePatch);
    assert.equal(back.status, 200, back.text);
  });

  it('kubectl get columns: NAME HANDLER AGE (printRuntimeClass)', async () => {
    const r = await admin.request('GET', base, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const t = r.json();
    assert.deepEqual(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Handler', 'Age']);
    const row = (t.rows as { cells: unknown[] }[]).find((x) => x.cells[0] === 'sandboxed')!;
    assert.equal(row.cells[1], 'crun');
  });

  it('discovery: node.k8s.io/v1 runtimeclasses, cluster-scoped, no short name, every verb', async () => {
    const r = (await admin.request('GET', '/apis/node.k8s.io/v1')).json();
    const e = (r.resources as Record<string, unknown>[]).find((x) => x['name'] === 'runtimeclasses')!;
    assert.deepEqual([e['namespaced'], e['kind'], e['shortNames'] ?? [], e['singularName']], [false, 'RuntimeClass', [], 'runtimeclass']);
    assert.deepEqual(e['verbs'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const groups = (await admin.request('GET', '/apis')).json();
    assert.ok((groups.groups as { name: string }[]).some((g) => g.name === 'node.k8s.io'));
  });

  it('a node may get, list and watch RuntimeClasses (NodeRules) but not write them', async () => {
    const node = new Client(s.url, s.caCert, s.nodeToken('n1'));
    try {
      assert.equal((await node.request('GET', `${base}/sandboxed`)).status, 200);
      assert.equal((await node.request('GET', base)).status, 200);
      assert.equal((await node.request('POST', base, rc('mine', 'runc'))).status, 403);
    } finally {
      node.close();
    }
  });

  const podRows: { name: string; body: unknown; status: number; message?: string; check?: (p: Record<string, any>) => void }[] = [
    {
      name: 'a pod of a class gets its overhead, nodeSelector and tolerations',
      body: pod('web', { runtimeClassName: 'sandboxed' }),
      status: 201,
      check: (p) => {
        assert.deepEqual(p.spec.overhead, { cpu: '250m', memory: '64Mi' });
        assert.deepEqual(p.spec.nodeSelector, { 'runtime/crun': 'true' });
        assert.deepEqual(p.spec.tolerations.map((t: { key: string }) => t.key), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'runtime']);
      },
    },
    { name: 'an unknown class: 403', body: pod('nope', { runtimeClassName: 'gvisor' }), status: 403, message: 'pods "nope" is forbidden: pod rejected: RuntimeClass "gvisor" not found' },
    {
      name: 'a conflicting nodeSelector: 403',
      body: pod('conflict', { runtimeClassName: 'sandboxed', nodeSelector: { 'runtime/crun': 'false' } }),
      status: 403,
      message: 'pods "conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime/crun] = true; pod.spec.nodeSelector[runtime/crun] = false',
    },
    { name: 'an overhead other than the class\'s: 403', body: pod('other', { runtimeClassName: 'sandboxed', overhead: { cpu: '1' } }), status: 403, message: 'pods "other" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead' },
    { name: 'an overhead without a class: 403', body: pod('bare', { overhead: { cpu: '1' } }), status: 403, message: 'pods "bare" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
    { name: 'a class without overhead or scheduling: the pod as it was', body: pod('plain', { runtimeClassName: 'plain' }), status: 201, check: (p) => assert.equal(p.spec.overhead, undefined) },
  ];
  for (const r of podRows) {
    it(`pod create: ${r.name}`, async () => {
      const res = await admin.request('POST', pods('rc'), r.body);
      assert.equal(res.status, r.status, res.text);
      if (r.message) assert.equal(res.json().message, r.message);
      r.check?.(res.json());
    });
  }

  it('a class created just before its pod is found (a cache miss reads the store)', async () => {
    assert.equal((await admin.request('POST', base, rc('fresh', 'runc', { overhead: { podFixed: { memory: '1Mi' } } }))).status, 201);
    const res = await admin.request('POST', pods('rc'), pod('fresh', { runtimeClassName: 'fresh' }));
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.json().spec.overhead, { memory: '1Mi' });
  });

  it('the quota charges the overhead in requests and limits, and refuses what it takes over', async () => {
    const hard = { 'requests.cpu': '600m', 'limits.memory': '256Mi' };
    const q = await admin.request('POST', '/api/v1/namespaces/rcquota/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard } });
    assert.equal(q.status, 201, q.text);
    const first = await admin.request('POST', pods('rcquota'), pod('a', { runtimeClassName: 'sandboxed' }));
    assert.equal(first.status, 201, first.text);
    const used = (await admin.request('GET', '/api/v1/namespaces/rcquota/resourcequotas/q')).json().status.used;
    assert.deepEqual(used, { 'limits.memory': '96Mi', 'requests.cpu': '350m' });
    const second = await admin.request('POST', pods('rcquota'), pod('b', { runtimeClassName: 'sandboxed' }));
    assert.equal(second.status, 403, second.text);
    assert.equal(second.json().message, 'pods "b" is forbidden: exceeded quota: q, requested: requests.cpu=350m, used: requests.cpu=350m, limited: requests.cpu=600m');
  });
});

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

describe('RuntimeClass with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-rc-kubectl-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl apply a RuntimeClass, kubectl get runtimeclass prints NAME HANDLER AGE', async () => {
    const file = join(dir, 'rc.yaml');
    writeFileSync(file, 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: crun\nhandler: crun\noverhead:\n  podFixed:\n    memory: 32Mi\n');
    const a = await kubectl('apply', '-f', file);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout.trim(), 'runtimeclass.node.k8s.io/crun created');
    const r = await kubectl('get', 'runtimeclass');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(lines[0], ['NAME', 'HANDLER', 'AGE']);
    assert.deepEqual(lines[1]!.slice(0, 2), ['crun', 'crun']);
  });

  it('kubectl api-resources lists runtimeclasses as upstream does', async () => {
    const r = await kubectl('api-resources', '--api-group=node.k8s.io');
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.startsWith('runtimeclasses'))!;
    assert.deepEqual(line.trim().split(/\s+/), ['runtimeclasses', 'node.k8s.io/v1', 'false', 'RuntimeClass']);
  });

  it('kubectl run into a missing class: the server\'s 403 as kubectl prints it', async () => {
    const r = await kubectl('run', 'x', '--image=busybox', '--overrides={"spec":{"runtimeClassName":"gvisor"}}');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(Forbidden\): pods "x" is forbidden: pod rejected: RuntimeClass "gvisor" not found/);
  });
});
