// ConfigMap, Secret and ServiceAccount over the real HTTP API (src/apiserver/configstrategies.ts,
// src/controllers/serviceaccounts.ts, src/admission/serviceaccount.ts, src/quota/objectcount.ts),
// then with the real kubectl when one is installed: stringData merged and never returned, the
// immutable and type rules, the 1 MiB limit, object-count quotas refusing the N+1th with
// upstream's 403, the default ServiceAccount created and recreated, pods defaulted to it, every
// namespace's kube-root-ca.crt (src/controllers/rootcacert.ts).

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensurePKI } from '../../src/apiserver/pki.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('configuration objects over HTTP', () => {
  let dir: string;
  let s: RunningServer;
  let c: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-config-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    c = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ns = async (name: string) => {
    const r = await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    assert.equal(r.status, 201, r.text);
  };
  /** GETs `path` until `ok` holds of the answer (the controllers act asynchronously), at most ~5 s. */
  const eventually = async (path: string, ok: (r: Awaited<ReturnType<Client['request']>>) => boolean) => {
    let r = await c.request('GET', path);
    for (let i = 0; i < 500 && !ok(r); i++) {
      await new Promise((done) => setTimeout(done, 10));
      r = await c.request('GET', path);
    }
    return r;
  };

  it('a Secret\'s stringData is merged into data (stringData wins) and never returned', async () => {
    const r = await c.request('POST', '/api/v1/namespaces/default/secrets', {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'plain' },
    });
    assert.equal(r.status, 201, r.text);
    const got = (await c.request('GET', '/api/v1/namespaces/default/secrets/s1')).json();
    assert.deepEqual(got.data, { a: b64('new'), b: b64('keep'), c: b64('plain') });
    assert.equal(got.stringData, undefined);
    assert.equal(got.type, 'Opaque');
    assert.ok(!r.text.includes('stringData'));
    // A patch with stringData merges the same way.
    const p = await c.request('PATCH', '/api/v1/namespaces/default/secrets/s1', { stringData: { b: 'changed' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json().data.b, b64('changed'));
    assert.equal(p.json().stringData, undefined);
  });

  it('a Secret\'s type cannot change', async () => {
    const r = await c.request('PATCH', '/api/v1/namespaces/default/secrets/s1', { type: 'kubernetes.io/basic-auth' }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(r.status, 422, r.text);
    // The new type's own rules are checked too, as ValidateSecretUpdate ends with ValidateSecret.
    assert.equal(
      r.json().message,
      'Secret "s1" is invalid: [type: Invalid value: "kubernetes.io/basic-auth": field is immutable, data[username]: Required value, data[password]: Required value]',
    );
  });

  it('an immutable ConfigMap refuses data changes but takes label changes', async () => {
    const r = await c.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen' }, immutable: true, data: { a: 'b' } });
    assert.equal(r.status, 201, r.text);
    const bad = await c.request('PATCH', '/api/v1/namespaces/default/configmaps/frozen', { data: { a: 'c' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    const ok = await c.request('PATCH', '/api/v1/namespaces/default/configmaps/frozen', { metadata: { labels: { x: 'y' } } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(ok.status, 200, ok.text);
  });

  it('empty metadata lists and maps are omitted, as Go\'s omitempty drops them (the last finalizer removed leaves no finalizers field)', async () => {
    const r = await c.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'omit', labels: {}, annotations: {}, ownerReferences: [], finalizers: ['example.com/hold'] } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(Object.keys(r.json().metadata).filter((k) => ['labels', 'annotations', 'ownerReferences', 'finalizers'].includes(k)), ['finalizers']);
    const p = await c.request('PATCH', '/api/v1/namespaces/default/configmaps/omit', { metadata: { finalizers: [] } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(p.status, 200, p.text);
    assert.equal('finalizers' in p.json().metadata, false, p.text);
    assert.equal('finalizers' in (await c.request('GET', '/api/v1/namespaces/default/configmaps/omit')).json().metadata, false);
  });

  it('more than 1 MiB of data is refused', async () => {
    const cm = await c.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(1024 * 1024 + 1) } });
    assert.equal(cm.status, 422);
    assert.equal(cm.json().message, 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
    const sec = await c.request('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'big' }, stringData: { a: 'x'.repeat(1024 * 1024 + 1) } });
    assert.equal(sec.status, 422);
    assert.equal(sec.json().message, 'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes');
  });

  it('object-count quotas refuse the N+1th configmap, secret and serviceaccount with upstream\'s 403', async () => {
    await ns('counted');
    assert.equal((await eventually('/api/v1/namespaces/counted/configmaps/kube-root-ca.crt', (r) => r.status === 200)).status, 200);
    const q = await c.request('POST', '/api/v1/namespaces/counted/resourcequotas', {
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'objects' },
      spec: { hard: { configmaps: '2', 'count/secrets': '1', 'count/serviceaccounts': '2' } },
    });
    assert.equal(q.status, 201, q.text);
    await s.quota!.idle();
    const used = (await c.request('GET', '/api/v1/namespaces/counted/resourcequotas/objects')).json().status.used;
    assert.deepEqual(used, { configmaps: '1', 'count/secrets': '0', 'count/serviceaccounts': '1' }, 'the default ServiceAccount and kube-root-ca.crt count, as in any cluster');
    const create = (resource: string, kind: string, name: string) =>
      c.request('POST', `/api/v1/namespaces/counted/${resource}`, { apiVersion: 'v1', kind, metadata: { name } });
    assert.equal((await create('configmaps', 'ConfigMap', 'c1')).status, 201);
    const cm2 = await create('configmaps', 'ConfigMap', 'c2');
    assert.equal(cm2.status, 403);
    assert.equal(cm2.json().message, 'configmaps "c2" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
    assert.equal((await create('secrets', 'Secret', 's1')).status, 201);
    const s2 = await create('secrets', 'Secret', 's2');
    assert.equal(s2.status, 403);
    assert.equal(s2.json().message, 'secrets "s2" is forbidden: exceeded quota: objects, requested: count/secrets=1, used: count/secrets=1, limited: count/secrets=1');
    assert.equal((await create('serviceaccounts', 'ServiceAccount', 'bot')).status, 201);
    const sa3 = await create('serviceaccounts', 'ServiceAccount', 'bot2');
    assert.equal(sa3.status, 403);
    assert.equal(sa3.json().message, 'serviceaccounts "bot2" is forbidden: exceeded quota: objects, requested: count/serviceaccounts=1, used: count/serviceaccounts=2, limited: count/serviceaccounts=2');
    // A delete gives the count back (the quota controller recounts).
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/counted/configmaps/c1')).status, 200);
    await s.quota!.idle();
    assert.equal((await c.request('GET', '/api/v1/namespaces/counted/resourcequotas/objects')).json().status.used.configmaps, '1');
    assert.equal((await create('configmaps', 'ConfigMap', 'c2')).status, 201);
  });

  it('every namespace gets a default ServiceAccount, recreated when deleted', async () => {
    for (const n of ['default', 'kube-system', 'kube-public']) {
      assert.equal((await c.request('GET', `/api/v1/namespaces/${n}/serviceaccounts/default`)).status, 200, n);
    }
    await ns('fresh');
    // Pod admission waits for the account as upstream's plugin does, so a pod right after the namespace is admitted.
    const pod = await c.request('POST', '/api/v1/namespaces/fresh/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    assert.equal(pod.status, 201, pod.text);
    assert.equal(pod.json().spec.serviceAccountName, 'default');
    assert.equal(pod.json().spec.serviceAccount, 'default');
    const first = (await c.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).json();
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default')).status, 200);
    let again;
    for (let i = 0; i < 200; i++) {
      again = await c.request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(again!.status, 200);
    assert.notEqual(again!.json().metadata.uid, first.metadata.uid);
  });

  it('every namespace gets kube-root-ca.crt with the cluster CA, put back when deleted or changed', async () => {
    const path = (n: string) => `/api/v1/namespaces/${n}/configmaps/kube-root-ca.crt`;
    const description =
      'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
    for (const n of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const r = await eventually(path(n), (x) => x.status === 200);
      assert.equal(r.status, 200, n);
      assert.deepEqual(r.json().data, { 'ca.crt': s.caCert }, n);
      assert.equal(r.json().metadata.annotations['kubernetes.io/description'], description, n);
    }
    await ns('published');
    const first = (await eventually(path('published'), (x) => x.status === 200)).json();
    assert.deepEqual(first.data, { 'ca.crt': s.caCert });
    assert.equal((await c.request('DELETE', path('published'))).status, 200);
    const again = await eventually(path('published'), (x) => x.status === 200);
    assert.notEqual(again.json().metadata.uid, first.metadata.uid, 'created anew');
    // Changed data is put back; an annotation of the user's stays.
    const edited = await c.request('PATCH', path('published'), { metadata: { annotations: { mine: 'yes' } }, data: { 'ca.crt': 'not a CA', extra: 'x' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(edited.status, 200, edited.text);
    const restored = await eventually(path('published'), (x) => x.json().data?.extra === undefined);
    assert.deepEqual(restored.json().data, { 'ca.crt': s.caCert });
    assert.equal(restored.json().metadata.annotations.mine, 'yes');
    assert.equal(restored.json().metadata.annotations['kubernetes.io/description'], description);
  });

  it('a pod naming a missing ServiceAccount is refused; the deprecated serviceAccount field is read', async () => {
    const mk = (name: string, spec: Record<string, unknown>) =>
      c.request('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });
    const missing = await mk('nosa', { serviceAccountName: 'ghost' });
    assert.equal(missing.status, 403);
    assert.equal(missing.json().message, 'pods "nosa" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
    assert.equal((await c.request('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' }, imagePullSecrets: [{ name: 'reg' }] })).status, 201);
    const dep = await mk('dep', { serviceAccount: 'builder' });
    assert.equal(dep.status, 201, dep.text);
    assert.equal(dep.json().spec.serviceAccountName, 'builder');
    assert.deepEqual(dep.json().spec.imagePullSecrets, [{ name: 'reg' }]);
  });

  it('discovery lists cm, secrets and sa, namespaced', async () => {
    const list = (await c.request('GET', '/api/v1')).json();
    const by = (n: string) => list.resources.find((r: { name: string }) => r.name === n);
    assert.deepEqual(by('configmaps').shortNames, ['cm']);
    assert.deepEqual(by('serviceaccounts').shortNames, ['sa']);
    assert.equal(by('secrets').namespaced, true);
    assert.equal(by('secrets').kind, 'Secret');
  });

  it('secrets can be selected by type', async () => {
    const r = await c.request('GET', '/api/v1/namespaces/default/secrets?fieldSelector=type%3DOpaque');
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json().items.length >= 1);
  });
});

const kubectlFound = (() => {
  if (process.env.BULKHEAD_SKIP_KUBECTL) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

if (!kubectlFound) it('configuration objects with the real kubectl', { skip: 'kubectl not installed (or BULKHEAD_SKIP_KUBECTL set)' }, () => {});
else
  describe('configuration objects with the real kubectl', () => {
    let dir: string;
    let s: RunningServer;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'bulkhead-config-kubectl-'));
      s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    });
    after(async () => {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const kubectl = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });

    it('kubectl create configmap, secret generic, secret tls; get columns; jsonpath base64', async () => {
      const cm = await kubectl('create', 'configmap', 'c', '--from-literal=a=b');
      assert.equal(cm.stdout, 'configmap/c created\n', cm.stderr);
      assert.equal((await kubectl('create', 'secret', 'generic', 's', '--from-literal=p=q')).stdout, 'secret/s created\n');
      // A certificate and key from the repo's PKI helper.
      const pki = await ensurePKI(join(dir, 'certs'), ['example.test']);
      writeFileSync(join(dir, 'tls.crt'), pki.serverCert);
      writeFileSync(join(dir, 'tls.key'), pki.serverKey);
      const tls = await kubectl('create', 'secret', 'tls', 't', `--cert=${join(dir, 'tls.crt')}`, `--key=${join(dir, 'tls.key')}`);
      assert.equal(tls.stdout, 'secret/t created\n', tls.stderr);
      assert.equal(tls.stderr, '');
      const get = await kubectl('get', 'cm,secret,sa');
      assert.equal(get.code, 0, get.stderr);
      const lines = get.stdout.split('\n').map((l) => l.trim().split(/\s+/));
      assert.deepEqual(lines.find((l) => l[0] === 'NAME' && l[1] === 'DATA'), ['NAME', 'DATA', 'AGE']);
      assert.deepEqual(lines.find((l) => l[0] === 'configmap/c')?.slice(0, 2), ['configmap/c', '1']);
      assert.deepEqual(lines.find((l) => l[0] === 'NAME' && l[1] === 'TYPE'), ['NAME', 'TYPE', 'DATA', 'AGE']);
      assert.deepEqual(lines.find((l) => l[0] === 'secret/s')?.slice(0, 3), ['secret/s', 'Opaque', '1']);
      assert.deepEqual(lines.find((l) => l[0] === 'secret/t')?.slice(0, 3), ['secret/t', 'kubernetes.io/tls', '2']);
      assert.deepEqual(lines.find((l) => l[0] === 'NAME' && l[1] === 'SECRETS'), ['NAME', 'SECRETS', 'AGE']);
      assert.deepEqual(lines.find((l) => l[0] === 'serviceaccount/default')?.slice(0, 2), ['serviceaccount/default', '0']);
      const jp = await kubectl('get', 'secret', 's', '-o', 'jsonpath={.data.p}');
      assert.equal(jp.stdout, b64('q'));
      const ar = await kubectl('api-resources', '--api-group=', '--no-headers');
      const row = (n: string) => ar.stdout.split('\n').map((l) => l.trim().split(/\s+/)).find((l) => l[0] === n);
      assert.deepEqual(row('configmaps'), ['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
      assert.deepEqual(row('secrets'), ['secrets', 'v1', 'true', 'Secret']);
      assert.deepEqual(row('serviceaccounts'), ['serviceaccounts', 'sa', 'v1', 'true', 'ServiceAccount']);
    });
  });
