// The loopback client goes through what an HTTP request goes through: a pod the API refuses
// (validation, quota admission) is refused over loopback with the same code and message as over
// HTTPS with the HTTP client; an informer over loopback is current as soon as a write resolves.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/types.js';
import { errorCode } from '../../src/client/errors.js';
import { HttpClient } from '../../src/client/http.js';
import { SharedIndexInformer } from '../../src/client/informer.js';
import type { KubeClient } from '../../src/client/interface.js';
import { LoopbackClient } from '../../src/client/loopback.js';
import { namespacesRef, podsRef, resourceQuotasRef } from '../../src/client/resources.js';
import { startServer, type RunningServer } from '../../src/server/start.js';

const pod = (name: string, image = 'busybox'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image }] } }) as KubeObject;

async function refusal(c: KubeClient, namespace: string, obj: KubeObject): Promise<[number | undefined, string]> {
  try {
    await c.create(podsRef, namespace, obj);
  } catch (e) {
    return [errorCode(e), (e as Error).message];
  }
  return [201, 'created'];
}

describe('LoopbackClient', () => {
  let s: RunningServer;
  let dir: string;
  let http: HttpClient;
  let loop: LoopbackClient;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-loopback-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    http = new HttpClient({ server: s.url, ca: s.caCert, token: s.adminToken });
    loop = new LoopbackClient(s.api, { user: 'system:serviceaccount:kube-system:test-controller' });
    await loop.create(namespacesRef, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'capped' } });
    await loop.create(resourceQuotasRef, 'capped', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '0' } } } as KubeObject);
    await s.quota!.idle();
  });
  after(async () => {
    http?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, string, KubeObject][] = [
    ['an invalid pod (no image) is refused by validation', 'default', pod('bad', '')],
    ['a pod over its namespace quota is refused by admission', 'capped', pod('over')],
    ['a pod in a namespace that does not exist is refused', 'missing', pod('lost')],
  ];
  for (const [name, ns, obj] of cases) {
    it(`${name}, the same over loopback as over HTTP`, async () => {
      const overHttp = await refusal(http, ns, obj);
      const overLoopback = await refusal(loop, ns, obj);
      assert.ok(overHttp[0]! >= 400 && overHttp[0]! < 500, `HTTP answered ${overHttp.join(' ')}`);
      assert.deepEqual(overLoopback, overHttp);
    });
  }

  it('a write is seen by an informer over loopback when it resolves (no wait for the watch)', async () => {
    const inf = new SharedIndexInformer(loop, podsRef, { namespace: 'default' });
    await inf.start();
    await loop.create(podsRef, 'default', pod('seen'));
    assert.equal(inf.lister.get('default', 'seen')?.metadata?.name, 'seen');
    await loop.delete(podsRef, 'default', 'seen', { gracePeriodSeconds: 0 });
    inf.stop();
  });

  it('informers over loopback hold the watch cache\'s objects: one deep-frozen copy for all of them, listed or watched', async () => {
    await loop.create(podsRef, 'default', pod('listed'));
    const a = new SharedIndexInformer(loop, podsRef, { namespace: 'default' });
    const b = new SharedIndexInformer(new LoopbackClient(s.api, { user: 'system:kube-scheduler' }), podsRef);
    await a.start();
    await b.start();
    await loop.create(podsRef, 'default', pod('watched'));
    for (const name of ['listed', 'watched']) {
      const held = a.lister.get('default', name)!;
      assert.equal(held, b.lister.get('default', name), `${name}: the two informers hold one object`);
      assert.equal(held, (await loop.list(podsRef, 'default')).items.find((p) => p.metadata?.name === name), `${name}: a LIST answers the same object`);
      // A reader that changed a nested part would change what every LIST and WATCH sends next.
      assert.throws(() => ((held as unknown as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image = 'changed'), TypeError);
      assert.throws(() => (held.metadata!.labels = {}), TypeError);
    }
    a.stop();
    b.stop();
    for (const name of ['listed', 'watched']) await loop.delete(podsRef, 'default', name, { gracePeriodSeconds: 0 });
  });

  it('writes are recorded under the identity\'s User-Agent, as the manager of managedFields', async () => {
    const ua = new LoopbackClient(s.api, { user: 'system:serviceaccount:kube-system:x', userAgent: 'kube-controller-manager/v1.32.4 (linux/amd64) kubernetes/0000000/x' });
    const p = await ua.create(podsRef, 'default', pod('managed'));
    assert.deepEqual(p.metadata?.managedFields?.map((m) => m.manager), ['kube-controller-manager']);
  });
});
