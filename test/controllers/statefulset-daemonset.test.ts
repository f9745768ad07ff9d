// The StatefulSet and DaemonSet controllers (src/controllers/statefulset.ts, daemonset.ts) in
// the in-process server with the scheduler, driven by the real kubectl. There is no node agent
// here: a pod's readiness is SIMULATED by writing its status (phase Running, Ready True) through
// the pods/status subresource, and a terminating pod is finished by a forced delete, as the
// kubelet would. Two fake Node objects are created through the API, as the scheduler tests do.
// Every wait polls for a condition; nothing asserts on time.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ControllerRevision, DaemonSet, Event, KubeObject, Pod, StatefulSet } from '../../src/api/types.js';
import type { RequestInfo } from '../../src/apiserver/rest.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from '../apiserver/client.js';
import { node } from '../scheduler/helpers.js';

const kubectlFound = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
const admin: RequestInfo = { user: { name: 'admin', groups: ['system:masters'] }, dryRun: false, fieldValidation: 'Ignore', warnings: [] };
const podsPath = '/api/v1/namespaces/default/pods';

/** Polls until `f` gives a value (the test runner's timeout bounds a hang). */
async function until<T>(f: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v as T;
    await sleep(50);
  }
}

const stsManifest = (image: string, replicas = 3) => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas, serviceName: 'nginx', selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }], terminationGracePeriodSeconds: 30 } },
  },
});

const dsManifest = (image: string) => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet',
  metadata: { name: 'x', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image }] } } },
});

describe('StatefulSet and DaemonSet controllers with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  let api: Client;
  let kubelet: NodeJS.Timeout | undefined;

  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const apply = async (obj: object) => {
    const f = join(dir, `m-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, JSON.stringify(obj));
    const r = await kubectl('apply', '-f', f);
    assert.equal(r.code, 0, r.stderr);
  };
  const getPod = async (name: string): Promise<Pod | undefined> => {
    const r = await api.request('GET', `${podsPath}/${name}`);
    return r.status === 200 ? (r.json() as Pod) : undefined;
  };
  const listPods = async (label: string): Promise<Pod[]> => (await api.request('GET', `${podsPath}?labelSelector=${encodeURIComponent(label)}`)).json().items;
  const sts = async (): Promise<StatefulSet> => (await api.request('GET', '/apis/apps/v1/namespaces/default/statefulsets/web')).json();
  /** What the kubelet would report for a started pod: Running and Ready (SIMULATED, no containers run). */
  const markReady = async (name: string) => {
    const p = await until(async () => {
      const got = await getPod(name);
      return got?.spec.nodeName ? got : undefined;
    });
    const now = new Date().toISOString();
    const status = { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }, { type: 'PodScheduled', status: 'True', lastTransitionTime: now }] };
    const r = await api.request('PUT', `${podsPath}/${name}/status`, { ...p, status });
    assert.equal(r.status, 200, r.text);
  };
  const forceDelete = (name: string) => api.request('DELETE', `${podsPath}/${name}?gracePeriodSeconds=0`);
  /** A stand-in kubelet: marks bound pods Ready and finishes terminating ones. */
  const startKubelet = () => {
    let busy = false;
    kubelet = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        for (const p of (await api.request('GET', podsPath)).json().items as Pod[]) {
          if (p.metadata.deletionTimestamp) await forceDelete(p.metadata.name!);
          else if (p.spec.nodeName && p.status?.phase !== 'Running') await markReady(p.metadata.name!).catch(() => undefined);
        }
        // A poll still in flight when the server closes gets a hang-up: the test is over by then.
      })()
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, 50);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-stsds-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0 });
    api = new Client(s.url, s.caCert, s.adminToken);
    for (const n of ['n1', 'n2']) await s.api.create(s.api.def('nodes'), undefined, node(n, { cpu: '4', memory: '8Gi', pods: '110' }) as KubeObject, { ...admin, warnings: [] });
  });
  after(async () => {
    if (kubelet) clearInterval(kubelet);
    api?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('OrderedReady: web-0, then web-1 only once web-0 is Running and Ready (readiness simulated through pods/status), then web-2', async () => {
    await apply(stsManifest('busybox:1.36'));
    const web0 = await until(() => getPod('web-0'));
    await s.statefulSets!.idle();
    assert.equal(await getPod('web-1'), undefined, 'web-1 must wait for web-0 to be Ready');
    assert.equal(web0.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-0');
    assert.equal(web0.metadata.labels?.['apps.kubernetes.io/pod-index'], '0');
    assert.match(web0.metadata.labels?.['controller-revision-hash'] ?? '', /^web-[a-z0-9]+$/);
    assert.deepEqual([web0.spec.hostname, web0.spec.subdomain], ['web-0', 'nginx']);
    assert.deepEqual(web0.metadata.ownerReferences?.map((r) => `${r.kind}/${r.name}/${r.controller}`), ['StatefulSet/web/true']);
    await markReady('web-0');
    await until(() => getPod('web-1'));
    await s.statefulSets!.idle();
    assert.equal(await getPod('web-2'), undefined, 'web-2 must wait for web-1');
    await markReady('web-1');
    await until(() => getPod('web-2'));
    await markReady('web-2');
    const st = await until(async () => ((await sts()).status?.readyReplicas === 3 ? (await sts()).status : undefined));
    assert.deepEqual([st!.replicas, st!.currentReplicas, st!.updatedReplicas, st!.availableReplicas, st!.currentRevision === st!.updateRevision], [3, 3, 3, 3, true]);
    const ev = await until(async () => {
      const items = (await api.request('GET', '/api/v1/namespaces/default/events')).json().items as Event[];
      return items.find((e) => e.involvedObject.kind === 'StatefulSet' && e.message === 'create Pod web-0 in StatefulSet web successful');
    });
    assert.equal(ev.reason, 'SuccessfulCreate');
    assert.equal(ev.source?.component, 'statefulset-controller');
  });

  it('kubectl rollout status sts/web reports the finished rollout', async () => {
    const r = await kubectl('rollout', 'status', 'sts/web', '--timeout=60s');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /partitioned roll out complete: 3 new pods have been updated/);
  });

  it('a deleted pod comes back under the same name (a new uid)', async () => {
    const before = (await getPod('web-1'))!;
    await forceDelete('web-1');
    const again = await until(async () => {
      const p = await getPod('web-1');
      return p && p.metadata.uid !== before.metadata.uid ? p : undefined;
    });
    assert.equal(again.metadata.name, 'web-1');
    await markReady('web-1');
    await until(async () => (await sts()).status?.readyReplicas === 3);
  });

  it('scale down removes the highest ordinal first and waits for it to terminate', async () => {
    // A spec patch, not `kubectl scale`: the scale subresource comes with the apps API's branch.
    const r = await kubectl('patch', 'sts/web', '--type=merge', '-p', '{"spec":{"replicas":1}}');
    assert.equal(r.code, 0, r.stderr);
    // web-2 is bound, so its deletion is graceful: it stays terminating until the "kubelet" finishes it.
    await until(async () => !!(await getPod('web-2'))?.metadata.deletionTimestamp);
    await s.statefulSets!.idle();
    assert.equal((await getPod('web-1'))?.metadata.deletionTimestamp, undefined, 'web-1 waits while web-2 terminates');
    await forceDelete('web-2');
    await until(async () => !!(await getPod('web-1'))?.metadata.deletionTimestamp);
    await forceDelete('web-1');
    await until(async () => (await sts()).status?.replicas === 1);
    assert.ok(await getPod('web-0'));
  });

  it('a template change is a new ControllerRevision; kubectl rollout history and undo use them', async () => {
    startKubelet();
    const first = (await sts()).status!.currentRevision!;
    const set = await kubectl('set', 'image', 'sts/web', 'c=busybox:1.37');
    assert.equal(set.code, 0, set.stderr);
    const rolled = await kubectl('rollout', 'status', 'sts/web', '--timeout=60s');
    assert.equal(rolled.code, 0, rolled.stderr);
    await until(async () => (await getPod('web-0'))?.spec.containers[0]?.image === 'busybox:1.37');
    const hist = await kubectl('rollout', 'history', 'sts/web');
    assert.equal(hist.code, 0, hist.stderr);
    assert.match(hist.stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const revs = (await api.request('GET', '/apis/apps/v1/namespaces/default/controllerrevisions')).json().items as ControllerRevision[];
    assert.ok(revs.some((r) => r.metadata.name === first && r.revision === 1));

    const undo = await kubectl('rollout', 'undo', 'sts/web');
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /statefulset.apps\/web rolled back/);
    await until(async () => (await getPod('web-0'))?.spec.containers[0]?.image === 'busybox:1.36' && (await sts()).status?.updateRevision === first);
    // The old revision is renumbered rather than copied: revisions 2 and 3.
    const after = await kubectl('rollout', 'history', 'sts/web');
    assert.match(after.stdout, /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
  });

  it('volumeClaimTemplates are refused: the claim cannot be created (no PVCs are served), so FailedCreate events and no pod', async () => {
    const m = stsManifest('busybox:1.36', 1) as ReturnType<typeof stsManifest> & { spec: { volumeClaimTemplates?: object[] } };
    m.metadata.name = 'db';
    m.spec.selector = { matchLabels: { app: 'db' } };
    m.spec.template.metadata.labels = { app: 'db' };
    m.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    await apply(m);
    const events = await until(async () => {
      const items = ((await api.request('GET', '/api/v1/namespaces/default/events')).json().items as Event[]).filter((e) => e.involvedObject.name === 'db' && e.reason === 'FailedCreate');
      return items.length >= 2 ? items : undefined;
    });
    assert.ok(events.some((e) => e.message?.startsWith('create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: ')), events.map((e) => e.message).join('\n'));
    assert.ok(events.some((e) => e.message?.startsWith('create Pod db-0 in StatefulSet db failed error: failed to create PVC data-db-0: ')));
    assert.equal(await getPod('db-0'), undefined);
    assert.equal((await kubectl('delete', 'sts/db')).code, 0);
  });

  it('DaemonSet: one pod per node, named to its node by a metadata.name node affinity and bound there by the scheduler', async () => {
    await apply(dsManifest('busybox:1.36'));
    const pods = await until(async () => {
      const ps = await listPods('app=x');
      return ps.length === 2 && ps.every((p) => p.spec.nodeName) ? ps : undefined;
    });
    const nodes = pods.map((p) => p.spec.nodeName).sort();
    assert.deepEqual(nodes, ['n1', 'n2']);
    for (const p of pods) {
      const term = (p.spec.affinity?.nodeAffinity as { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchFields: { key: string; values: string[] }[] }[] } }).requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!.matchFields[0]!;
      assert.deepEqual([term.key, term.values], ['metadata.name', [p.spec.nodeName]]);
      assert.ok(p.spec.tolerations?.some((t) => t.key === 'node.kubernetes.io/unschedulable' && t.effect === 'NoSchedule'));
      assert.match(p.metadata.labels?.['controller-revision-hash'] ?? '', /^[a-z0-9]+$/);
      assert.equal(p.metadata.labels?.['pod-template-generation'], '1');
    }
    const ds = await until(async () => {
      const d = (await api.request('GET', '/apis/apps/v1/namespaces/default/daemonsets/x')).json() as DaemonSet;
      return d.status?.numberReady === 2 ? d : undefined;
    });
    assert.deepEqual([ds.status!.desiredNumberScheduled, ds.status!.currentNumberScheduled, ds.status!.updatedNumberScheduled, ds.status!.numberAvailable, ds.status!.numberMisscheduled ?? 0], [2, 2, 2, 2, 0]);
    const items = (await api.request('GET', '/api/v1/namespaces/default/events')).json().items as Event[];
    assert.ok(items.some((e) => e.involvedObject.kind === 'DaemonSet' && e.reason === 'SuccessfulCreate' && /^Created pod: x-[a-z0-9]{5}$/.test(e.message ?? '')), 'Created pod event');
    const r = await kubectl('rollout', 'status', 'ds/x', '--timeout=60s');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /daemon set "x" successfully rolled out/);
  });

  it('DaemonSet RollingUpdate replaces pods node by node; kubectl rollout history ds/x lists both revisions', async () => {
    const set = await kubectl('set', 'image', 'ds/x', 'c=busybox:1.37');
    assert.equal(set.code, 0, set.stderr);
    const r = await kubectl('rollout', 'status', 'ds/x', '--timeout=60s');
    assert.equal(r.code, 0, r.stderr);
    await until(async () => {
      const ps = await listPods('app=x');
      return ps.length === 2 && ps.every((p) => p.spec.containers[0]?.image === 'busybox:1.37');
    });
    const hist = await kubectl('rollout', 'history', 'ds/x');
    assert.equal(hist.code, 0, hist.stderr);
    assert.match(hist.stdout, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
  });
});
