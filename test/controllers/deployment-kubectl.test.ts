// Deployments and ReplicaSets in the in-process server driven by the real kubectl: create
// deployment, rollout status, set image, rollout history (revisions and change-cause), rollout
// undo (the template patched back from the old ReplicaSet: the same ReplicaSet reused with a
// higher revision), undo --to-revision, rollout restart, scale, and a deleted pod coming back.
//
// There is no node agent here: pods do not run. A loop in this test plays the kubelet: it marks
// every pod Running and Ready through the pods/status subresource, so that readiness, and with
// it the rollouts, can progress. The scheduler is off, so pods stay unbound and a DELETE removes
// them at once, as the API server does for unscheduled pods. Every wait polls for a condition.

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deployment, Event, Pod, ReplicaSet } from '../../src/api/types.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { Client } from '../apiserver/client.js';

const kubectlFound = (() => {
  if (process.env['BULKHEAD_SKIP_KUBECTL']) return false;
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
})();

const ns = '/api/v1/namespaces/default';
const apps = '/apis/apps/v1/namespaces/default';

async function until<T>(what: string, f: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const v = await f();
    if (v) return v;
    await sleep(50);
  }
}

describe('Deployments with the real kubectl', { skip: kubectlFound ? false : 'kubectl is not installed' }, () => {
  let s: RunningServer;
  let dir: string;
  let admin: Client;
  let kubeletRunning = true;
  let kubeletLoop: Promise<void> | undefined;

  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('kubectl', ['--kubeconfig', s.kubeconfigPath, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const ok = async (...args: string[]) => {
    const r = await kubectl(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  /** Plays the kubelet: every pod not yet Ready becomes Running and Ready. */
  async function kubelet(): Promise<void> {
    while (kubeletRunning) {
      const r = await admin.request('GET', `${ns}/pods`);
      if (r.status === 200) {
        for (const p of r.json().items as Pod[]) {
          if (p.metadata.deletionTimestamp || p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
          const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
          await admin.request('PATCH', `${ns}/pods/${p.metadata.name}/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] } }, { 'Content-Type': 'application/merge-patch+json' });
        }
      }
      await sleep(100);
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-deploy-kubectl-'));
    s = await startServer({ dataDir: join(dir, 'data'), store: 'memory:', port: 0, scheduler: false });
    admin = new Client(s.url, s.caCert, s.adminToken);
    kubeletLoop = kubelet();
  });
  after(async () => {
    kubeletRunning = false;
    await kubeletLoop;
    admin?.close();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const deployment = async () => (await admin.request('GET', `${apps}/deployments/web`)).json() as Deployment;
  const replicaSets = async () => ((await admin.request('GET', `${apps}/replicasets`)).json().items as ReplicaSet[]).sort((a, b) => Number(a.metadata.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations?.['deployment.kubernetes.io/revision']));
  const activePods = async () => ((await admin.request('GET', `${ns}/pods`)).json().items as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
  const rolledOut = async () => {
    const out = await ok('rollout', 'status', 'deployment/web', '--timeout=100s');
    assert.match(out, /deployment "web" successfully rolled out\n$/);
  };

  it('kubectl create deployment: one ReplicaSet at revision 1, two pods, rollout status succeeds', async () => {
    // kubectl sends this typed object as protobuf.
    assert.equal((await ok('create', 'deployment', 'web', '--image=busybox:1.36', '--replicas=2', '--', 'sleep', '3600')).trim(), 'deployment.apps/web created');
    await rolledOut();
    const [rs] = await replicaSets();
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs!.metadata.name, `web-${rs!.metadata.labels?.['pod-template-hash']}`);
    const pods = await activePods();
    assert.equal(pods.length, 2);
    for (const p of pods) {
      assert.match(p.metadata.name!, new RegExp(`^${rs!.metadata.name}-[a-z0-9]{5}$`));
      assert.deepEqual(p.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.controller, o.blockOwnerDeletion]), [['ReplicaSet', rs!.metadata.name, true, true]]);
    }
    const d = await deployment();
    assert.deepEqual([d.status?.replicas, d.status?.updatedReplicas, d.status?.readyReplicas, d.status?.availableReplicas], [2, 2, 2, 2]);
    assert.equal(d.status?.conditions?.find((c) => c.type === 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(d.status?.conditions?.find((c) => c.type === 'Progressing')?.reason, 'NewReplicaSetAvailable');
    // The status as kubectl's columns show it (READY, UP-TO-DATE, AVAILABLE; DESIRED, CURRENT, READY).
    assert.match(await ok('get', 'deployment', 'web'), /^NAME +READY +UP-TO-DATE +AVAILABLE +AGE\nweb +2\/2 +2 +2 +\S+\n$/);
    assert.match(await ok('get', 'rs', rs!.metadata.name!), new RegExp(`^NAME +DESIRED +CURRENT +READY +AGE\\n${rs!.metadata.name} +2 +2 +2 +\\S+\\n$`));
    const events = ((await admin.request('GET', `${ns}/events`)).json().items as Event[]).map((e) => `${e.source?.component} ${e.reason} ${e.message}`);
    assert.ok(events.includes(`deployment-controller ScalingReplicaSet Scaled up replica set ${rs!.metadata.name} from 0 to 2`), events.join('\n'));
    assert.ok(events.some((e) => e.startsWith(`replicaset-controller SuccessfulCreate Created pod: ${rs!.metadata.name}-`)), events.join('\n'));
  });

  it('kubectl set image rolls to a new ReplicaSet; rollout history lists both revisions with the change-cause', async () => {
    assert.equal((await ok('set', 'image', 'deployment/web', 'busybox=busybox:1.37')).trim(), 'deployment.apps/web image updated');
    // Annotated after the change, as the docs do it: the Deployment's annotations are copied to its new ReplicaSet.
    await ok('annotate', 'deployment/web', 'kubernetes.io/change-cause=image 1.37');
    await rolledOut();
    const [old, cur] = await replicaSets();
    assert.equal(cur!.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    assert.equal(cur!.spec?.template?.spec?.containers[0]?.image, 'busybox:1.37');
    assert.equal(old!.spec?.replicas, 0);
    await until('old pods gone', async () => (await activePods()).every((p) => p.metadata.labels?.['pod-template-hash'] === cur!.metadata.labels?.['pod-template-hash']));
    const history = await ok('rollout', 'history', 'deployment/web');
    assert.equal(history, 'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image 1.37\n\n');
  });

  it('kubectl rollout undo: the revision-1 ReplicaSet comes back as revision 3, revision-history 1', async () => {
    const before = await replicaSets();
    assert.equal((await ok('rollout', 'undo', 'deployment/web')).trim(), 'deployment.apps/web rolled back');
    await rolledOut();
    const after = await replicaSets();
    assert.equal(after.length, 2, 'no new ReplicaSet: the old one is reused');
    const back = after.find((r) => r.metadata.uid === before[0]!.metadata.uid)!;
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(back.spec?.replicas, 2);
    assert.equal((await deployment()).metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.match(await ok('rollout', 'history', 'deployment/web'), /^deployment\.apps\/web \nREVISION  CHANGE-CAUSE\n2 +image 1\.37\n3 +<none>\n\n$/);
  });

  it('kubectl rollout undo --to-revision=2', async () => {
    assert.equal((await ok('rollout', 'undo', 'deployment/web', '--to-revision=2')).trim(), 'deployment.apps/web rolled back');
    await rolledOut();
    const rss = await replicaSets();
    const top = rss[rss.length - 1]!;
    assert.equal(top.spec?.template?.spec?.containers[0]?.image, 'busybox:1.37');
    assert.equal(top.metadata.annotations?.['deployment.kubernetes.io/revision'], '4');
    assert.equal(top.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '2');
  });

  it('kubectl rollout restart: a new ReplicaSet with the restartedAt annotation in its template', async () => {
    assert.equal((await ok('rollout', 'restart', 'deployment/web')).trim(), 'deployment.apps/web restarted');
    await rolledOut();
    const rss = await replicaSets();
    const top = rss[rss.length - 1]!;
    assert.ok(top.spec?.template?.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']);
    assert.equal(top.metadata.annotations?.['deployment.kubernetes.io/revision'], '5');
    await until('only the new pods', async () => (await activePods()).every((p) => p.metadata.labels?.['pod-template-hash'] === top.metadata.labels?.['pod-template-hash']));
  });

  it('a deleted pod is replaced', async () => {
    const [p] = await activePods();
    await ok('delete', 'pod', p!.metadata.name!);
    await until('two pods again', async () => {
      const pods = await activePods();
      return pods.length === 2 && !pods.some((x) => x.metadata.name === p!.metadata.name);
    });
    await rolledOut();
  });

  it('kubectl scale deployment/web --replicas=3, then 1 (the scale subresource)', async () => {
    assert.equal((await ok('scale', 'deployment/web', '--replicas=3')).trim(), 'deployment.apps/web scaled');
    await rolledOut();
    await until('three pods', async () => (await activePods()).length === 3);
    assert.equal((await ok('scale', 'deployment/web', '--replicas=1')).trim(), 'deployment.apps/web scaled');
    await rolledOut();
    await until('one pod', async () => (await activePods()).length === 1);
    const d = await deployment();
    assert.deepEqual([d.status?.replicas, d.status?.availableReplicas], [1, 1]);
  });
});
