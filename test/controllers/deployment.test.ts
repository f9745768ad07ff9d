// The Deployment controller (src/controllers/deployment.ts) with the ReplicaSet controller
// against the kind-aware fake client: a first rollout, a rolling update within maxSurge and
// maxUnavailable, a template that comes back (the old ReplicaSet reused, revision bumped,
// revision-history kept), proportional scaling mid-rollout, Recreate waiting for the old pods,
// paused Deployments, revisionHistoryLimit, the progress deadline, and the ScalingReplicaSet
// events. The test plays the kubelet: it marks pods Running and Ready itself.

import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { Deployment, Event, Pod, ReplicaSet } from '../../src/api/types.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { EventRecorder } from '../../src/client/recorder.js';
import { deploymentsRef, eventsRef, podsRef, replicaSetsRef } from '../../src/client/resources.js';
import { DeploymentController } from '../../src/controllers/deployment.js';
import { ReplicaSetController } from '../../src/controllers/replicaset.js';
import { FakeCluster } from './fakecluster.js';

const tpl = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });
function deployment(spec: Partial<NonNullable<Deployment['spec']>> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', annotations: { 'kubernetes.io/change-cause': 'first' } },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: tpl('busybox:1'), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, ...spec },
  };
}

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops) await s();
  stops = [];
});

async function cluster(fake = new FakeCluster(), opts: { kubelet?: boolean } = {}) {
  const f = new SharedInformerFactory(fake);
  const ev = new EventRecorder(fake, { component: 'deployment-controller' }, { spamBurst: 1000 });
  const rsEv = new EventRecorder(fake, { component: 'replicaset-controller' }, { spamBurst: 1000 });
  const dc = new DeploymentController(fake, f, { events: ev });
  const rc = new ReplicaSetController(fake, f, { events: rsEv });
  await rc.start();
  await dc.start();
  stops.push(async () => {
    await dc.stop();
    await rc.stop();
    f.stop();
  });
  const kubelet = opts.kubelet ?? true;
  /** Runs both controllers until nothing moves; with the kubelet on, every pod becomes Running and Ready, and deleted pods just go. */
  const settle = async () => {
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 3; i++) {
        await dc.idle();
        await rc.idle();
        await new Promise((r) => setImmediate(r));
      }
      let changed = false;
      if (kubelet) {
        for (const p of fake.objectsOf<Pod>(podsRef)) {
          if (p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
          fake.seed(podsRef, { ...p, spec: { ...p.spec, nodeName: 'node-1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] } });
          changed = true;
        }
      }
      if (!changed) break;
    }
    await ev.flush();
    await rsEv.flush();
  };
  return { fake, settle };
}

const get = (fake: FakeCluster) => fake.objectsOf<Deployment>(deploymentsRef)[0]!;
const rss = (fake: FakeCluster) => fake.objectsOf<ReplicaSet>(replicaSetsRef).sort((a, b) => Number(a.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0) - Number(b.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0));
const dEvents = (fake: FakeCluster) => fake.objectsOf<Event>(eventsRef).filter((e) => e.involvedObject?.kind === 'Deployment').map((e) => e.message);
const cond = (d: Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);
function update(fake: FakeCluster, f: (d: Deployment) => void): void {
  const d = get(fake);
  f(d);
  fake.seed(deploymentsRef, { ...d, metadata: { ...d.metadata, generation: (d.metadata.generation ?? 1) + 1 } });
}

describe('Deployment controller', () => {
  test('first rollout: one ReplicaSet web-<hash> at revision 1 with every replica; status and conditions once the pods are ready', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment());
    await settle();
    const [r] = rss(fake);
    const hash = r!.metadata.labels!['pod-template-hash']!;
    assert.equal(r!.metadata.name, `web-${hash}`);
    assert.deepEqual(r!.metadata.annotations, { 'kubernetes.io/change-cause': 'first', 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
    assert.equal(fake.objectsOf<Pod>(podsRef).length, 3);
    const d = get(fake);
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.deepEqual([d.status?.replicas, d.status?.updatedReplicas, d.status?.readyReplicas, d.status?.availableReplicas, d.status?.unavailableReplicas, d.status?.observedGeneration], [3, 3, 3, 3, undefined, 1]);
    assert.deepEqual([cond(d, 'Available')?.status, cond(d, 'Available')?.reason], ['True', 'MinimumReplicasAvailable']);
    assert.deepEqual([cond(d, 'Progressing')?.reason, cond(d, 'Progressing')?.message], ['NewReplicaSetAvailable', `ReplicaSet "web-${hash}" has successfully progressed.`]);
    assert.deepEqual(dEvents(fake), [`Scaled up replica set web-${hash} from 0 to 3`]);
  });

  test('rolling update: the ReplicaSets never hold more than replicas + maxSurge; old set ends at 0; ScalingReplicaSet events', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment({ replicas: 4 }));
    await settle();
    update(fake, (d) => (d.spec!.template = tpl('busybox:2')));
    await settle();
    const [old, cur] = rss(fake);
    assert.equal(old!.spec?.replicas, 0);
    assert.equal(cur!.spec?.replicas, 4);
    assert.equal(cur!.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    // Every ReplicaSet write kept the total within 4 + maxSurge 1.
    const sizes = new Map<string, number>();
    for (const w of fake.writes) {
      if (!w.verb.startsWith('create replicasets') && w.verb !== 'update replicasets') continue;
      const r = w.obj as ReplicaSet;
      sizes.set(r.metadata.name!, r.spec?.replicas ?? 0);
      assert.ok([...sizes.values()].reduce((a, b) => a + b, 0) <= 5, `surge bound at ${JSON.stringify([...sizes])}`);
    }
    const msgs = dEvents(fake);
    assert.ok(msgs.includes(`Scaled up replica set ${cur!.metadata.name} from 0 to 1`), msgs.join('\n'));
    assert.ok(msgs.includes(`Scaled down replica set ${old!.metadata.name} from 4 to 3`), msgs.join('\n'));
    const d = get(fake);
    assert.deepEqual([d.status?.replicas, d.status?.updatedReplicas, d.status?.availableReplicas], [4, 4, 4]);
    assert.equal(cond(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
  });

  test('a template that comes back reuses its ReplicaSet: revision max+1, the old revision in revision-history', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment());
    await settle();
    update(fake, (d) => (d.spec!.template = tpl('busybox:2')));
    await settle();
    update(fake, (d) => (d.spec!.template = tpl('busybox:1')));
    await settle();
    const all = rss(fake);
    assert.equal(all.length, 2, 'no third ReplicaSet');
    const back = all.find((r) => r.spec?.template?.spec?.containers[0]?.image === 'busybox:1')!;
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(back.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(back.spec?.replicas, 3);
    assert.equal(get(fake).metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
  });

  test('scaling mid-rollout is proportional; a scale alone resizes the one active ReplicaSet', async () => {
    const { fake, settle } = await cluster(new FakeCluster(), { kubelet: false });
    fake.seed(deploymentsRef, deployment({ replicas: 10, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } }));
    await settle();
    // No pod ever becomes ready: new 0 → 3 (surge), the 2 unhealthy old replicas the budget
    // allows go (cleanupUnhealthyReplicas: 13 - 8 - 3), new 3 → 5, then it stalls.
    update(fake, (d) => (d.spec!.template = tpl('busybox:2')));
    await settle();
    assert.deepEqual(rss(fake).map((r) => r.spec?.replicas), [8, 5]);
    update(fake, (d) => (d.spec!.replicas = 20));
    await settle();
    // allowed 20 + 3 = 23, +10 shared by max-replicas 13: old round(8·23/13) = 14, new round(5·23/13) = 9.
    assert.deepEqual(rss(fake).map((r) => r.spec?.replicas), [14, 9]);
    assert.ok(rss(fake).every((r) => r.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'] === '20'));
  });

  test('Recreate: old ReplicaSet to 0, the new one only once the old pods are gone', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment({ strategy: { type: 'Recreate' } }));
    await settle();
    update(fake, (d) => (d.spec!.template = tpl('busybox:2')));
    await settle();
    const [old, cur] = rss(fake);
    assert.equal(old!.spec?.replicas, 0);
    assert.equal(cur!.spec?.replicas, 3);
    const oldScaledAt = fake.lines().findIndex((l) => l === `update replicasets ${old!.metadata.name}`);
    const lastOldPodGone = fake.lines().reduce((i, l, j) => (l.startsWith(`delete pods ${old!.metadata.name}-`) ? j : i), -1);
    const newCreated = fake.lines().findIndex((l) => l === `create replicasets ${cur!.metadata.name}`);
    assert.ok(oldScaledAt < lastOldPodGone && lastOldPodGone < newCreated, fake.lines().join('\n'));
  });

  test('paused: a template change makes no new ReplicaSet; Progressing Unknown DeploymentPaused; resume rolls out', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment());
    await settle();
    update(fake, (d) => {
      d.spec!.paused = true;
      d.spec!.template = tpl('busybox:2');
    });
    await settle();
    assert.equal(rss(fake).length, 1);
    assert.deepEqual([cond(get(fake), 'Progressing')?.status, cond(get(fake), 'Progressing')?.reason], ['Unknown', 'DeploymentPaused']);
    update(fake, (d) => (d.spec!.paused = false));
    await settle();
    assert.equal(rss(fake).length, 2);
    assert.equal(cond(get(fake), 'Progressing')?.reason, 'NewReplicaSetAvailable');
  });

  test('revisionHistoryLimit: old ReplicaSets at 0 beyond the limit are deleted once the rollout completes', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment({ revisionHistoryLimit: 1 }));
    await settle();
    for (const v of ['2', '3', '4']) {
      update(fake, (d) => (d.spec!.template = tpl(`busybox:${v}`)));
      await settle();
    }
    assert.deepEqual(rss(fake).map((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision']), ['3', '4']);
  });

  test('no progress past progressDeadlineSeconds: Progressing False ProgressDeadlineExceeded', async () => {
    const { fake, settle } = await cluster(new FakeCluster(), { kubelet: false });
    fake.seed(deploymentsRef, deployment({ progressDeadlineSeconds: 30 }));
    await settle();
    assert.equal(cond(get(fake), 'Progressing')?.status, 'True');
    fake.clock = new Date(fake.clock.getTime() + 31_000);
    // The requeue the controller set falls 31 s later in real time; touch the Deployment instead of waiting.
    const d = get(fake);
    fake.seed(deploymentsRef, { ...d, metadata: { ...d.metadata, labels: { touched: 'yes' } } });
    await settle();
    const c = cond(get(fake), 'Progressing')!;
    assert.deepEqual([c.status, c.reason, c.message], ['False', 'ProgressDeadlineExceeded', `ReplicaSet "${rss(fake)[0]!.metadata.name}" has timed out progressing.`]);
  });

  test('an empty selector: SelectingAll warning, nothing created', async () => {
    const { fake, settle } = await cluster();
    fake.seed(deploymentsRef, deployment({ selector: {} }));
    await settle();
    assert.equal(rss(fake).length, 0);
    assert.ok(dEvents(fake).includes('This deployment is selecting all pods. A non-empty selector is required.'));
  });
});
