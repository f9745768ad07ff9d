// The one event recorder (client-go tools/record): a repeat is folded into a count increment,
// at most 1,000 events wait (the rest are dropped and counted), and each source and object has
// its own token bucket (the EventCorrelator's spam filter). A fake client and an injected clock:
// nothing here waits on time.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event, KubeObject, Status } from '../../src/api/types.js';
import { ApiError } from '../../src/client/errors.js';
import { TokenBucket } from '../../src/client/ratelimit.js';
import { EventRecorder, maxQueuedEvents } from '../../src/client/recorder.js';
import { defaultSpamBurst, SpamFilter, spamKey } from '../../src/client/spamfilter.js';
import { FakeClient, pod } from './fakeclient.js';

const source = { component: 'default-scheduler' };

describe('EventRecorder', () => {
  it('writes an event about the object, then folds a repeat into a count increment', async () => {
    const c = new FakeClient();
    const r = new EventRecorder(c, source);
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'no nodes available to schedule pods');
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'no nodes available to schedule pods');
    r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'something else');
    await r.flush();
    assert.deepEqual(
      c.writes.map((w) => [w.verb, (w.obj as Event).message, (w.obj as Event).count]),
      [
        ['create', 'no nodes available to schedule pods', 1],
        ['update', 'no nodes available to schedule pods', 2],
        ['create', 'something else', 1],
      ],
    );
    const first = c.writes[0]!.obj as Event;
    assert.deepEqual([first.source, first.involvedObject.uid, first.firstTimestamp, first.action], [source, 'uid-a', '2025-01-01T00:00:00Z', 'Scheduling']);
  });

  it('a repeat of an event that is gone is written anew', async () => {
    const c = new FakeClient();
    const r = new EventRecorder(c, source);
    r.record(pod('a'), 'Normal', 'Scheduled', 'Binding', 'assigned');
    await r.flush();
    c.objects.clear();
    r.record(pod('a'), 'Normal', 'Scheduled', 'Binding', 'assigned');
    await r.flush();
    assert.deepEqual(c.writes.map((w) => w.verb), ['create', 'create']);
  });

  it(`keeps at most ${maxQueuedEvents} events waiting and drops (and counts) the rest`, async () => {
    const c = new FakeClient();
    // A limiter that grants nothing for a long while holds the first write back.
    const r = new EventRecorder(c, source, { limiter: new TokenBucket(0.001, 0) });
    for (let i = 0; i <= maxQueuedEvents + 5; i++) r.record(pod(`p${i}`), 'Warning', 'FailedScheduling', 'Scheduling', `m${i}`);
    assert.equal(r.dropped, 5);
    await r.stop();
    assert.equal(c.writes.length, 0);
  });

  it('limits each object to its burst, refilled by the clock; other objects are not affected', async () => {
    const c = new FakeClient();
    let now = Date.parse('2025-01-01T00:00:00Z');
    const r = new EventRecorder(c, source, { now: () => new Date(now), spamBurst: 3, spamQPS: 1 });
    for (let i = 0; i < 5; i++) r.record(pod('noisy'), 'Warning', 'BackOff', 'Scheduling', `m${i}`);
    r.record(pod('quiet'), 'Normal', 'Scheduled', 'Binding', 'assigned');
    await r.flush();
    assert.equal(r.spamFiltered, 2);
    assert.deepEqual(c.writes.map((w) => (w.obj as Event).message), ['m0', 'm1', 'm2', 'assigned']);
    // One second later one more token: one more event about that object.
    now += 1000;
    r.record(pod('noisy'), 'Warning', 'BackOff', 'Scheduling', 'm5');
    r.record(pod('noisy'), 'Warning', 'BackOff', 'Scheduling', 'm6');
    await r.flush();
    assert.equal(r.spamFiltered, 3);
    assert.deepEqual(c.writes.slice(4).map((w) => (w.obj as Event).message), ['m5']);
  });

  it('a count increment takes a token too (upstream filters after folding)', async () => {
    const c = new FakeClient();
    const r = new EventRecorder(c, source, { now: () => new Date(0), spamBurst: 2, spamQPS: 1 });
    for (let i = 0; i < 4; i++) r.record(pod('a'), 'Warning', 'FailedScheduling', 'Scheduling', 'same');
    await r.flush();
    assert.deepEqual(c.writes.map((w) => [w.verb, (w.obj as Event).count]), [['create', 1], ['update', 2]]);
    assert.equal(r.spamFiltered, 2);
  });
});

// A refused write is dropped; whether it is reported follows client-go's recordToSink: the two
// refusals it logs only at V(5) (AlreadyExists, a namespace being terminated: on namespace
// deletion a pod's own Killing events would otherwise fill the log) never are. The node agent
// gives a log; a recorder without one reports only failures that are not a refusal.
describe('EventRecorder: refused writes', () => {
  const status = (code: number, reason: string, message: string, causes?: { reason?: string; message?: string; field?: string }[]): Status =>
    ({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason, code, ...(causes ? { details: { kind: 'events', causes } } : {}) }) as Status;
  const terminating = 'events "web.1" is forbidden: unable to create new content in namespace default because it is being terminated';
  const rows: { name: string; error: Error; logged: boolean }[] = [
    {
      name: 'namespace terminating, as kube-apiserver says it (403 with the NamespaceTerminating cause): dropped quietly',
      error: new ApiError(403, status(403, 'Forbidden', terminating, [{ reason: 'NamespaceTerminating', message: 'namespace default is being terminated', field: 'metadata.namespace' }])),
      logged: false,
    },
    { name: 'namespace terminating, from a server that sends only the lifecycle message: dropped quietly', error: new ApiError(403, status(403, 'Forbidden', terminating)), logged: false },
    { name: 'AlreadyExists: dropped quietly', error: new ApiError(409, status(409, 'AlreadyExists', 'events "web.1" already exists')), logged: false },
    { name: 'another 403 (not allowed to create events) is logged', error: new ApiError(403, status(403, 'Forbidden', 'events is forbidden: User "system:node:n1" cannot create resource "events" in API group "" in the namespace "default"')), logged: true },
    { name: 'a 404 (the namespace is gone) is logged', error: new ApiError(404, status(404, 'NotFound', 'namespaces "default" not found')), logged: true },
    { name: 'a 500 without a Status is logged', error: new ApiError(500, undefined, 'boom'), logged: true },
    { name: 'a connection failure is logged', error: new Error('connect ECONNREFUSED 127.0.0.1:6443'), logged: true },
  ];
  for (const r of rows) {
    it(r.name, async () => {
      const c = new FakeClient();
      c.create = async <T extends KubeObject>(): Promise<T> => {
        throw r.error;
      };
      const logs: string[] = [];
      const rec = new EventRecorder(c, { component: 'kubelet', host: 'n1' }, { log: (m) => logs.push(m) });
      rec.record(pod('web'), 'Normal', 'Killing', '', 'Stopping container web');
      await rec.flush();
      assert.deepEqual(logs, r.logged ? [`event Killing for default/web: ${r.error.message}`] : []);
    });
  }

  it('the kubelet\'s events carry no action (the legacy core/v1 recorder)', async () => {
    const c = new FakeClient();
    const rec = new EventRecorder(c, { component: 'kubelet', host: 'n1' });
    rec.record(pod('web'), 'Normal', 'Pulled', '', 'Container image "busybox" already present on machine');
    await rec.flush();
    const ev = c.writes[0]!.obj as Event;
    assert.deepEqual([ev.action, ev.source, ev.reportingComponent, ev.reportingInstance], [undefined, { component: 'kubelet', host: 'n1' }, 'kubelet', 'n1']);
  });

  const annotated: { name: string; annotations: Record<string, string> | undefined; want: Record<string, string> | undefined }[] = [
    { name: 'AnnotatedEventf: the annotations are the event\'s metadata.annotations', annotations: { starved_resource: 'memory', offending_containers: '' }, want: { starved_resource: 'memory', offending_containers: '' } },
    { name: 'an empty map gives no metadata.annotations (omitempty)', annotations: {}, want: undefined },
    { name: 'none given: no metadata.annotations', annotations: undefined, want: undefined },
  ];
  for (const a of annotated) {
    it(a.name, async () => {
      const c = new FakeClient();
      const rec = new EventRecorder(c, { component: 'kubelet', host: 'n1' });
      rec.record(pod('web'), 'Warning', 'Evicted', '', 'The node was low on resource: memory. ', a.annotations);
      await rec.flush();
      assert.deepEqual((c.writes[0]!.obj as Event).metadata.annotations, a.want);
    });
  }
});

describe('SpamFilter', () => {
  it(`upstream's defaults: ${defaultSpamBurst} at once, then one per five minutes`, () => {
    let now = 0;
    const f = new SpamFilter(() => now);
    const key = spamKey(source, pod('a'));
    const allowed = Array.from({ length: defaultSpamBurst + 1 }, () => f.allow(key));
    assert.deepEqual([allowed.filter(Boolean).length, allowed[defaultSpamBurst]], [defaultSpamBurst, false]);
    now += 299_000;
    assert.equal(f.allow(key), false);
    now += 1_000;
    assert.equal(f.allow(key), true);
  });

  it('keys by source and involved object', () => {
    assert.notEqual(spamKey(source, pod('a')), spamKey(source, pod('b')));
    assert.notEqual(spamKey(source, pod('a')), spamKey({ component: 'kubelet', host: 'n1' }, pod('a')));
  });
});
