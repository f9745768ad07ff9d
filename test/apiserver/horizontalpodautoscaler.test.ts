// autoscaling HorizontalPodAutoscaler through the in-process server: the resource (discovery of
// both versions, v2 stored and v1 converted on every verb, defaults, validation as a 422, the
// status subresource, the kubectl get columns), then the controller against a fake metrics
// source (a rescale with its event and status; a metric failure's condition), then the real
// kubectl: autoscale, get hpa, describe hpa (skipped when kubectl is missing). One row per rule.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PodMetricsReading } from '../../src/policy/hpareplicas.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from './client.js';
import { kubectlFound, kubectlSkip, tableRows, useTestServer } from './kubectlserver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const v2 = (ns: string) => `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
const v1 = (ns: string) => `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const deployments = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`;
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const table = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

async function namespace(admin: Client, name: string): Promise<void> {
  const r = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, r.text);
}

async function deployment(admin: Client, ns: string, replicas: number): Promise<void> {
  const r = await admin.request('POST', deployments(ns), {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'busybox', resources: { requests: { cpu: '100m' } } }] } } },
  });
  assert.equal(r.status, 201, r.text);
}

describe('HorizontalPodAutoscaler over HTTP', () => {
  const t = useTestServer('bulkhead-hpa-');

  it('discovery: autoscaling serves v2 (preferred) and v1, each with horizontalpodautoscalers and its status', async () => {
    const admin = t.admin();
    const group = (await admin.request('GET', '/apis/autoscaling')).json();
    assert.deepEqual(group.versions.map((v: Json) => v.groupVersion), ['autoscaling/v2', 'autoscaling/v1']);
    assert.equal(group.preferredVersion.groupVersion, 'autoscaling/v2');
    for (const version of ['v2', 'v1']) {
      const res = ((await admin.request('GET', `/apis/autoscaling/${version}`)).json().resources as Json[]).filter((x) => x.name.startsWith('horizontalpodautoscalers'));
      assert.deepEqual(res.map((x) => x.name), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
      assert.deepEqual([res[0]!.kind, res[0]!.shortNames, res[0]!.categories, res[0]!.namespaced], ['HorizontalPodAutoscaler', ['hpa'], ['all'], true]);
    }
  });

  it('a v1 create is stored as v2 with the defaults; each version reads its own form', async () => {
    const admin = t.admin();
    await namespace(admin, 'conv');
    const r = await admin.request('POST', v1('conv'), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 9, desiredReplicas: 9 } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([r.json().apiVersion, r.json().spec, r.json().status], ['autoscaling/v1', { scaleTargetRef: target, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 }, { currentReplicas: 0, desiredReplicas: 0 }]);
    const stored = (await admin.request('GET', `${v2('conv')}/web`)).json();
    assert.equal(stored.apiVersion, 'autoscaling/v2');
    assert.deepEqual(stored.spec, { scaleTargetRef: target, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] });
    const list = (await admin.request('GET', v1('conv'))).json();
    assert.deepEqual([list.apiVersion, list.kind, list.items[0].apiVersion, list.items[0].spec.targetCPUUtilizationPercentage], ['autoscaling/v1', 'HorizontalPodAutoscalerList', 'autoscaling/v1', 50]);
    const watched = await admin.request('GET', `${v1('conv')}?watch=1&timeoutSeconds=1`);
    const first = JSON.parse(watched.text.split('\n')[0]!);
    assert.deepEqual([first.type, first.object.apiVersion, first.object.spec.targetCPUUtilizationPercentage], ['ADDED', 'autoscaling/v1', 50]);
  });

  it('a v1 write keeps what only v2 can say (upstream\'s annotations carry it)', async () => {
    const admin = t.admin();
    await namespace(admin, 'keep');
    const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
    const behavior = { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } };
    const c = await admin.request('POST', v2('keep'), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3, metrics: [memory], behavior } });
    assert.equal(c.status, 201, c.text);
    const old = (await admin.request('GET', `${v1('keep')}/web`)).json();
    assert.equal(old.spec.targetCPUUtilizationPercentage, undefined);
    assert.ok(old.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']);
    const u = await admin.request('PUT', `${v1('keep')}/web`, { ...old, spec: { ...old.spec, maxReplicas: 4 } });
    assert.equal(u.status, 200, u.text);
    const now = (await admin.request('GET', `${v2('keep')}/web`)).json();
    assert.deepEqual([now.spec.maxReplicas, now.spec.metrics, now.spec.behavior.scaleDown, now.metadata.annotations], [4, [memory], behavior.scaleDown, undefined]);
    const p = await admin.request('PATCH', `${v1('keep')}/web`, { spec: { minReplicas: 2 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(p.status, 200, p.text);
    assert.deepEqual((await admin.request('GET', `${v2('keep')}/web`)).json().spec.metrics, [memory]);
  });

  it('validation is a 422 in upstream\'s words, at the v2 paths for either version', async () => {
    const admin = t.admin();
    await namespace(admin, 'bad');
    const r = await admin.request('POST', v1('bad'), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, minReplicas: 4, maxReplicas: 3, targetCPUUtilizationPercentage: 0 } });
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'HorizontalPodAutoscaler.autoscaling "web" is invalid: [spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`, spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0]');
  });

  it('spec writes keep the status; the status subresource writes only the status', async () => {
    const admin = t.admin();
    await namespace(admin, 'st');
    await admin.request('POST', v2('st'), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3 } });
    const cur = (await admin.request('GET', `${v2('st')}/web`)).json();
    const s = await admin.request('PUT', `${v2('st')}/web/status`, { ...cur, spec: { ...cur.spec, maxReplicas: 9 }, status: { currentReplicas: 2, desiredReplicas: 3 } });
    assert.equal(s.status, 200, s.text);
    assert.deepEqual([s.json().spec.maxReplicas, s.json().status.desiredReplicas], [3, 3]);
    const u = await admin.request('PUT', `${v2('st')}/web`, { ...(s.json() as Json), status: { desiredReplicas: 0 } });
    assert.equal(u.json().status.desiredReplicas, 3);
  });

  it('the kubectl get columns: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE', async () => {
    const admin = t.admin();
    const r = (await admin.request('GET', v1('conv'), undefined, table)).json();
    assert.deepEqual(r.columnDefinitions.map((c: Json) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    assert.deepEqual(r.rows[0].cells.slice(0, 6), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', 3, 0]);
  });

  describe('with the real kubectl', { skip: kubectlFound ? false : kubectlSkip }, () => {
    it('kubectl autoscale (an autoscaling/v1 protobuf body), get hpa, describe hpa', async () => {
      const admin = t.admin();
      await namespace(admin, 'kc');
      await deployment(admin, 'kc', 1);
      const made = await t.kubectl('-n', 'kc', 'autoscale', 'deploy', 'web', '--max=3', '--cpu-percent=50');
      assert.equal(made.code, 0, made.stderr);
      assert.equal(made.stdout.trim(), 'horizontalpodautoscaler.autoscaling/web autoscaled');
      const got = await t.kubectl('-n', 'kc', 'get', 'hpa');
      assert.equal(got.code, 0, got.stderr);
      const rows = tableRows(got.stdout);
      assert.deepEqual(rows[0], ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
      // REPLICAS is 0 until the controller's first sync (one period after the create), then 1.
      assert.deepEqual(rows[1]!.slice(0, 5), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', '3']);
      const described = await t.kubectl('-n', 'kc', 'describe', 'hpa', 'web');
      assert.equal(described.code, 0, described.stderr);
      assert.match(described.stdout, /Reference:\s+Deployment\/web\n/);
      assert.match(described.stdout, /resource cpu on pods  \(as a percentage of request\):\s+<unknown> \/ 50%\n/);
      assert.match(described.stdout, /Max replicas:\s+3\n/);
    });
  });
});

describe('the horizontal pod autoscaler controller, on a fake metrics source', () => {
  let dir: string;
  let s: RunningServer;
  let admin: Client;
  /** Pod name → cpu usage the fake metrics source reports. */
  const usage = new Map<string, string>();
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-hpactl-'));
    const podMetrics = (pods: { namespace: string; name: string }[]): PodMetricsReading[] =>
      pods.filter((p) => usage.has(p.name)).map((p) => ({ ...p, containers: [{ name: 'app', usage: { cpu: usage.get(p.name)!, memory: '1Mi' } }], time: { timestamp: Date.now(), windowMs: 15_000 } }));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false, workloadControllers: false, podMetrics: { podMetrics }, horizontalPodAutoscaler: { syncPeriodMs: 20 } });
    admin = new Client(s.url, s.caCert, s.adminToken);
  });
  after(async () => {
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A Running, Ready pod of the deployment, started an hour ago (past the CPU initialization period). */
  async function pod(ns: string, name: string): Promise<void> {
    const r = await admin.request('POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'busybox', resources: { requests: { cpu: '100m' } } }] } });
    assert.equal(r.status, 201, r.text);
    const hourAgo = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const st = await admin.request('PUT', `/api/v1/namespaces/${ns}/pods/${name}/status`, { ...(r.json() as Json), status: { phase: 'Running', startTime: hourAgo, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: hourAgo }] } });
    assert.equal(st.status, 200, st.text);
  }

  async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    let last: T | undefined;
    for (let i = 0; i < 400; i++) {
      last = await read();
      if (ok(last)) return last;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`${what} never happened: ${JSON.stringify(last)}`);
  }

  it('pods above the target: the deployment is scaled, SuccessfulRescale, the status says why', async () => {
    await namespace(admin, 'up');
    await deployment(admin, 'up', 2);
    await pod('up', 'a');
    await pod('up', 'b');
    usage.set('a', '90m').set('b', '90m');
    const c = await admin.request('POST', v2('up'), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] } });
    assert.equal(c.status, 201, c.text);
    await waitFor('the scale-up', async () => (await admin.request('GET', `${deployments('up')}/web`)).json(), (d) => d.spec.replicas === 4);
    await waitFor('the status', async () => (await admin.request('GET', `${v2('up')}/web`)).json(), (h) => h.status?.desiredReplicas === 4);
    // The status the rescale wrote, from the autoscaler's history: a later sync (every 20 ms
    // here) may already have replaced its AbleToScale reason with ReadyForNewScale.
    const history = await admin.request('GET', `${v2('up')}?watch=1&resourceVersion=${(c.json() as Json).metadata.resourceVersion}&timeoutSeconds=1`);
    const written = history.text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as Json).object as Json);
    const hpa = written.find((h) => h.status?.desiredReplicas === 4)!;
    assert.deepEqual(hpa.status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90, averageValue: '90m' } } }]);
    assert.ok(hpa.status.lastScaleTime);
    const conds = Object.fromEntries((hpa.status.conditions as Json[]).map((x) => [x.type, [x.status, x.reason]]));
    assert.deepEqual(conds, { AbleToScale: ['True', 'SucceededRescale'], ScalingActive: ['True', 'ValidMetricFound'], ScalingLimited: ['False', 'DesiredWithinRange'] });
    const events = await waitFor('the event', async () => (await admin.request('GET', '/api/v1/namespaces/up/events')).json().items as Json[], (es) => es.some((e) => e.reason === 'SuccessfulRescale'));
    const e = events.find((x) => x.reason === 'SuccessfulRescale')!;
    assert.deepEqual([e.type, e.message, e.source.component, e.involvedObject.kind], ['Normal', 'New size: 4; reason: cpu resource utilization (percentage of request) above target', 'horizontal-pod-autoscaler', 'HorizontalPodAutoscaler']);
  });

  it('no metrics for the pods: ScalingActive False FailedGetResourceMetric, nothing scaled', async () => {
    await namespace(admin, 'none');
    await deployment(admin, 'none', 1);
    await pod('none', 'quiet');
    await admin.request('POST', v1('none'), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } });
    const hpa = await waitFor('the condition', async () => (await admin.request('GET', `${v2('none')}/web`)).json(), (h) => (h.status?.conditions ?? []).some((x: Json) => x.type === 'ScalingActive'));
    const active = (hpa.status.conditions as Json[]).find((x) => x.type === 'ScalingActive')!;
    assert.deepEqual([active.status, active.reason, active.message], ['False', 'FailedGetResourceMetric', 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API']);
    assert.equal(hpa.status.currentReplicas, 1);
    const d = (await admin.request('GET', `${deployments('none')}/web`)).json();
    assert.equal(d.spec.replicas, 1);
  });

  it('a target that does not exist: AbleToScale False FailedGetScale', async () => {
    await namespace(admin, 'gone');
    await admin.request('POST', v2('gone'), { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3 } });
    const hpa = await waitFor('the condition', async () => (await admin.request('GET', `${v2('gone')}/web`)).json(), (h) => (h.status?.conditions ?? []).length > 0);
    const able = (hpa.status.conditions as Json[]).find((x) => x.type === 'AbleToScale')!;
    assert.deepEqual([able.status, able.reason, able.message], ['False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: deployments.apps "web" not found`]);
  });
});
