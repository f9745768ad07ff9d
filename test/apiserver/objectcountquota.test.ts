// Object-count quota over the real API for every kind the server counts (src/quota/objectcount.ts
// countsObjects: each namespaced, quotable resource served but pods and upstream's ignored ones,
// as quota/v1/generic's ObjectCountEvaluator is made for any of them): `count/<resource>` for the
// core group, `count/<resource>.<group>` otherwise, and the legacy names of configmaps, secrets
// and resourcequotas. One row per kind: the quota controller counts what is there, the create
// that fits is admitted, the next is refused with the quota admission's 403 in upstream's words,
// and a delete gives the count back. Events are never counted (quota/v1/install's ignoredResources).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';

type Json = Record<string, unknown>;

interface Row {
  /** The quota's resource name. */
  name: string;
  /** The collection path under /api/v1 or /apis/<group>/<version>, with NS for the namespace. */
  path: string;
  /** The object to create, without metadata. */
  body: Json;
  /** How many the namespace holds before the row creates any (made by the controllers or by the row's own quota). */
  base: number;
  /** The resource part of the 403 (`<resource>[.<group>] "name" is forbidden: …`). */
  gr: string;
}

const rows: Row[] = [
  {
    name: 'count/poddisruptionbudgets.policy',
    path: '/apis/policy/v1/namespaces/NS/poddisruptionbudgets',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    base: 0,
    gr: 'poddisruptionbudgets.policy',
  },
  { name: 'count/leases.coordination.k8s.io', path: '/apis/coordination.k8s.io/v1/namespaces/NS/leases', body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: {} }, base: 0, gr: 'leases.coordination.k8s.io' },
  { name: 'count/controllerrevisions.apps', path: '/apis/apps/v1/namespaces/NS/controllerrevisions', body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', data: {}, revision: 1 }, base: 0, gr: 'controllerrevisions.apps' },
  { name: 'count/limitranges', path: '/api/v1/namespaces/NS/limitranges', body: { apiVersion: 'v1', kind: 'LimitRange', spec: { limits: [{ type: 'Container', max: { cpu: '4' } }] } }, base: 0, gr: 'limitranges' },
  { name: 'count/resourcequotas', path: '/api/v1/namespaces/NS/resourcequotas', body: { apiVersion: 'v1', kind: 'ResourceQuota', spec: { hard: { 'count/secrets': '9' } } }, base: 1, gr: 'resourcequotas' },
  { name: 'resourcequotas', path: '/api/v1/namespaces/NS/resourcequotas', body: { apiVersion: 'v1', kind: 'ResourceQuota', spec: { hard: { 'count/secrets': '9' } } }, base: 1, gr: 'resourcequotas' },
  { name: 'count/configmaps', path: '/api/v1/namespaces/NS/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap' }, base: 1, gr: 'configmaps' },
  { name: 'secrets', path: '/api/v1/namespaces/NS/secrets', body: { apiVersion: 'v1', kind: 'Secret' }, base: 0, gr: 'secrets' },
  { name: 'count/endpoints', path: '/api/v1/namespaces/NS/endpoints', body: { apiVersion: 'v1', kind: 'Endpoints', subsets: [{ addresses: [{ ip: '10.1.0.1' }] }] }, base: 0, gr: 'endpoints' },
  { name: 'count/endpointslices.discovery.k8s.io', path: '/apis/discovery.k8s.io/v1/namespaces/NS/endpointslices', body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', addressType: 'IPv4', endpoints: [] }, base: 0, gr: 'endpointslices.discovery.k8s.io' },
  { name: 'count/serviceaccounts', path: '/api/v1/namespaces/NS/serviceaccounts', body: { apiVersion: 'v1', kind: 'ServiceAccount' }, base: 1, gr: 'serviceaccounts' },
  {
    name: 'count/jobs.batch',
    path: '/apis/batch/v1/namespaces/NS/jobs',
    body: { apiVersion: 'batch/v1', kind: 'Job', spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    base: 0,
    gr: 'jobs.batch',
  },
  {
    name: 'count/deployments.apps',
    path: '/apis/apps/v1/namespaces/NS/deployments',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } },
    base: 0,
    gr: 'deployments.apps',
  },
  // Served in two versions: counted once per object, whichever version it is created in.
  {
    name: 'count/horizontalpodautoscalers.autoscaling',
    path: '/apis/autoscaling/v2/namespaces/NS/horizontalpodautoscalers',
    body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 } },
    base: 0,
    gr: 'horizontalpodautoscalers.autoscaling',
  },
  {
    name: 'count/horizontalpodautoscalers.autoscaling',
    path: '/apis/autoscaling/v1/namespaces/NS/horizontalpodautoscalers',
    body: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 } },
    base: 0,
    gr: 'horizontalpodautoscalers.autoscaling',
  },
];

describe('object-count quota for every counted kind, through the API', () => {
  let dir: string;
  let s: RunningServer;
  let c: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-objectcount-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    c = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The quota's status.used[name] once the controller has it at `want` (polled, generous bound). */
  async function usedReaches(ns: string, name: string, want: string): Promise<void> {
    let used: unknown;
    for (let i = 0; i < 400; i++) {
      used = (await c.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/objects`)).json().status?.used?.[name];
      if (used === want) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`status.used[${name}] stayed ${String(used)}, wanted ${want}`);
  }

  rows.forEach((row, i) => {
    it(`${row.name}: counted, the next create refused with the quota's 403, a delete gives it back`, async () => {
      const ns = `oc${i}`;
      const r = await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
      const limit = String(row.base + 1);
      const q = await c.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'objects' }, spec: { hard: { [row.name]: limit } } });
      assert.equal(q.status, 201, q.text);
      // The controllers' own objects (kube-root-ca.crt, the default ServiceAccount) are there first.
      await usedReaches(ns, row.name, String(row.base));
      const path = row.path.replace('NS', ns);
      const create = (name: string) => c.request('POST', path, { ...row.body, metadata: { name } });
      const first = await create('first');
      assert.equal(first.status, 201, first.text);
      const second = await create('second');
      assert.equal(second.status, 403, second.text);
      assert.equal(second.json().reason, 'Forbidden');
      assert.equal(second.json().message, `${row.gr} "second" is forbidden: exceeded quota: objects, requested: ${row.name}=1, used: ${row.name}=${limit}, limited: ${row.name}=${limit}`);
      assert.equal((await c.request('DELETE', `${path}/first`)).status, 200);
      await usedReaches(ns, row.name, String(row.base));
      const again = await create('second');
      assert.equal(again.status, 201, again.text);
      await usedReaches(ns, row.name, limit);
    });
  });

  it('events are not counted (quota/v1/install ignores them): count/events stays out of status.used, and creates pass', async () => {
    const r = await c.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ocevents' } });
    assert.equal(r.status, 201, r.text);
    const q = await c.request('POST', '/api/v1/namespaces/ocevents/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'objects' }, spec: { hard: { 'count/events': '0', 'count/configmaps': '5' } } });
    assert.equal(q.status, 201, q.text);
    await usedReaches('ocevents', 'count/configmaps', '1');
    const ev = await c.request('POST', '/api/v1/namespaces/ocevents/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ocevents' }, reason: 'Test', message: 'm', type: 'Normal',
    });
    assert.equal(ev.status, 201, ev.text);
    const used = (await c.request('GET', '/api/v1/namespaces/ocevents/resourcequotas/objects')).json().status.used;
    assert.equal(used['count/events'], undefined);
  });
});
