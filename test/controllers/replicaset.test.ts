// The ReplicaSet controller (src/controllers/replicaset.ts) against the kind-aware fake client:
// pods created from the template in slow-start batches with generateName, labels and a
// controller reference; no second round of creates while the informer lags (expectations);
// surplus pods deleted in upstream's order; orphans adopted, pods that stop matching released;
// the status counts and ReplicaFailure on a refused create (one attempt, not N); the events'
// reasons and wording. The kubelet is played by the test, which writes pod status itself.

import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { Event, Pod, ReplicaSet } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import { SharedInformerFactory } from '../../src/client/factory.js';
import { EventRecorder } from '../../src/client/recorder.js';
import { eventsRef, podsRef, replicaSetsRef } from '../../src/client/resources.js';
import { ReplicaSetController } from '../../src/controllers/replicaset.js';
import { FakeCluster } from './fakecluster.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const rs = (replicas: number, extra: Partial<NonNullable<ReplicaSet['spec']>> = {}): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template, ...extra },
});

let running: { c: ReplicaSetController; f: SharedInformerFactory; ev: EventRecorder }[] = [];
afterEach(async () => {
  for (const r of running) {
    await r.c.stop();
    r.f.stop();
  }
  running = [];
});

async function start(fake: FakeCluster) {
  const f = new SharedInformerFactory(fake);
  const ev = new EventRecorder(fake, { component: 'replicaset-controller' }, { spamBurst: 1000 });
  const c = new ReplicaSetController(fake, f, { events: ev });
  running.push({ c, f, ev });
  await c.start();
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      await c.idle();
      await new Promise((r) => setImmediate(r));
    }
    await ev.flush();
  };
  await settle();
  return { c, settle };
}

const pods = (fake: FakeCluster) => fake.objectsOf<Pod>(podsRef);
const events = (fake: FakeCluster) => fake.objectsOf<Event>(eventsRef).map((e) => `${e.type} ${e.reason} ${e.message}`);
const getRS = (fake: FakeCluster) => fake.objectsOf<ReplicaSet>(replicaSetsRef)[0]!;

/** The kubelet's part: Running and Ready since `at`. */
function markReady(fake: FakeCluster, p: Pod, at = fake.clock): void {
  fake.seed(podsRef, { ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at.toISOString().replace(/\.\d{3}Z$/, 'Z') }] } });
}

describe('ReplicaSet controller', () => {
  test('creates the missing pods: generateName <rs>-, template labels, controller reference; SuccessfulCreate events; slow-start batches', async () => {
    const fake = new FakeCluster();
    const created = fake.seed(replicaSetsRef, rs(7));
    const { settle } = await start(fake);
    await settle();
    const ps = pods(fake);
    assert.equal(ps.length, 7);
    for (const p of ps) {
      assert.match(p.metadata.name!, /^web-/);
      assert.equal(p.metadata.generateName, 'web-');
      assert.deepEqual(p.metadata.labels, { app: 'web' });
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    assert.deepEqual(events(fake).sort(), ps.map((p) => `Normal SuccessfulCreate Created pod: ${p.metadata.name}`).sort());
    assert.equal(getRS(fake).status?.replicas, 7);
    assert.equal(getRS(fake).status?.observedGeneration, 1);
  });

  test('a lagging informer does not cause a second round of creates (expectations)', async () => {
    const fake = new FakeCluster();
    fake.seed(replicaSetsRef, rs(3));
    fake.holdWatches = true;
    const { c, settle } = await start(fake);
    await settle();
    assert.equal(pods(fake).length, 3);
    assert.deepEqual(c.expectations.pending('default/web'), { add: 3, del: 0 });
    // Something else touches the ReplicaSet: a sync, but the three creates are not yet seen.
    fake.holdWatches = false;
    const cur = getRS(fake);
    fake.seed(replicaSetsRef, { ...cur, metadata: { ...cur.metadata, annotations: { touch: '1' } } });
    fake.holdWatches = true;
    await settle();
    assert.equal(pods(fake).length, 3, 'no pod created twice');
    fake.release();
    await settle();
    assert.equal(pods(fake).length, 3);
    assert.deepEqual(c.expectations.pending('default/web'), { add: 0, del: 0 });
  });

  test('scale-down deletes the most deletable pods first (not ready before ready); SuccessfulDelete events', async () => {
    const fake = new FakeCluster();
    fake.seed(replicaSetsRef, rs(3));
    const { settle } = await start(fake);
    await settle();
    const [a, b] = pods(fake);
    markReady(fake, { ...a!, spec: { ...a!.spec, nodeName: 'n1' } });
    markReady(fake, { ...b!, spec: { ...b!.spec, nodeName: 'n1' } });
    await settle();
    const cur = getRS(fake);
    fake.seed(replicaSetsRef, { ...cur, spec: { ...cur.spec, replicas: 2 }, metadata: { ...cur.metadata, generation: 2 } });
    await settle();
    const left = pods(fake).map((p) => p.metadata.name).sort();
    assert.deepEqual(left, [a!.metadata.name, b!.metadata.name].sort(), 'the unassigned, not-ready pod went');
    assert.ok(events(fake).some((e) => /^Normal SuccessfulDelete Deleted pod: web-/.test(e)));
    assert.equal(getRS(fake).status?.readyReplicas, 2);
    assert.equal(getRS(fake).status?.observedGeneration, 2);
  });

  test('a deleted pod is replaced', async () => {
    const fake = new FakeCluster();
    fake.seed(replicaSetsRef, rs(2));
    const { settle } = await start(fake);
    await settle();
    const [a] = pods(fake);
    await fake.delete(podsRef, 'default', a!.metadata.name!);
    await settle();
    assert.equal(pods(fake).length, 2);
    assert.ok(!pods(fake).some((p) => p.metadata.name === a!.metadata.name));
  });

  test('an orphan that matches is adopted (and counted); a pod whose labels stop matching is released', async () => {
    const fake = new FakeCluster();
    fake.seed(podsRef, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const r = fake.seed(replicaSetsRef, rs(2));
    const { settle } = await start(fake);
    await settle();
    const orphan = pods(fake).find((p) => p.metadata.name === 'orphan')!;
    assert.equal(orphan.metadata.ownerReferences?.[0]?.uid, r.metadata.uid);
    assert.equal(pods(fake).length, 2, 'the adopted pod counts: one more created, not two');
    fake.seed(podsRef, { ...orphan, metadata: { ...orphan.metadata, labels: { app: 'other' } } });
    await settle();
    const released = pods(fake).find((p) => p.metadata.name === 'orphan')!;
    assert.equal(released.metadata.ownerReferences, undefined);
    assert.equal(pods(fake).length, 3, 'a replacement was made for the released pod');
  });

  test('a pod controlled by another owner is left alone', async () => {
    const fake = new FakeCluster();
    fake.seed(podsRef, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'theirs', namespace: 'default', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicaSet', name: 'x', uid: 'x', controller: true }] }, spec: { containers: [] } });
    fake.seed(replicaSetsRef, rs(1));
    const { settle } = await start(fake);
    await settle();
    assert.equal(pods(fake).find((p) => p.metadata.name === 'theirs')!.metadata.ownerReferences![0]!.uid, 'x');
    assert.equal(pods(fake).length, 2);
  });

  test('a refused create: one attempt (slow start), FailedCreate event, ReplicaFailure; cleared once creates succeed', async () => {
    const fake = new FakeCluster();
    const message = 'pods "web-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1';
    fake.failCreates.push({ resource: 'pods', error: new ApiError(403, { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 403, reason: 'Forbidden', message } as never) });
    fake.seed(replicaSetsRef, rs(4));
    const { settle } = await start(fake);
    await new Promise((r) => setTimeout(r, 50));
    await settle();
    assert.ok(events(fake).includes(`Warning FailedCreate Error creating: ${message}`));
    assert.equal(fake.lines().filter((l) => l.startsWith('create pods')).length, 4, 'the failed attempt was alone in its batch; the retry made all four');
    assert.equal(pods(fake).length, 4);
    const failure = fake.writes.find((w) => w.verb === 'update replicasets/status' && (w.obj as ReplicaSet).status?.conditions?.length);
    assert.deepEqual((failure!.obj as ReplicaSet).status!.conditions!.map((c) => [c.type, c.status, c.reason, c.message]), [['ReplicaFailure', 'True', 'FailedCreate', message]]);
    assert.equal(getRS(fake).status?.conditions, undefined);
  });

  test('status: ready and available with minReadySeconds; fullyLabeledReplicas', async () => {
    const fake = new FakeCluster();
    fake.seed(replicaSetsRef, rs(2, { minReadySeconds: 30 }));
    const { settle } = await start(fake);
    await settle();
    const [a, b] = pods(fake);
    markReady(fake, a!, new Date(fake.clock.getTime() - 60_000));
    markReady(fake, b!);
    await settle();
    const s = getRS(fake).status!;
    assert.deepEqual([s.replicas, s.fullyLabeledReplicas, s.readyReplicas, s.availableReplicas], [2, 2, 2, 1]);
  });
});
