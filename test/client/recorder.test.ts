// The one event recorder (client-go tools/record): a repeat is folded into a count increment,
// at most 1,000 events wait (the rest are dropped and counted), and each source and object has
// its own token bucket (the EventCorrelator's spam filter). A fake client and an injected clock:
// nothing here waits on time.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../../src/api/types.js';
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
