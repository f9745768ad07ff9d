// The kubelet's restart/image back-off (client-go flowcontrol.Backoff, no jitter) and Go's
// duration text, which the CrashLoopBackOff message prints.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, goDuration, kubeletBackoff } from '../../../src/agent/lifecycle/backoff.js';
import { formatPod, messages } from '../../../src/agent/lifecycle/wording.js';
import type { Pod } from '../../../src/api/types.js';

describe('goDuration prints like Go\'s time.Duration', () => {
  const rows: [number, string][] = [
    [0, '0s'],
    [200, '200ms'],
    [999, '999ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [1250, '1.25s'],
    [10_000, '10s'],
    [80_000, '1m20s'],
    [160_000, '2m40s'],
    [300_000, '5m0s'],
    [3_600_000, '1h0m0s'],
    [3_723_500, '1h2m3.5s'],
  ];
  for (const [ms, text] of rows) it(`${ms} ms → ${text}`, () => assert.equal(goDuration(ms), text));
});

describe('Backoff follows flowcontrol.Backoff', () => {
  const s = 1000;
  type Step = [op: 'next' | 'since' | 'update', eventTime: number, now: number, expect?: number];
  const rows: { name: string; steps: Step[] }[] = [
    { name: 'no entry: not in back-off (the first restart is immediate)', steps: [['since', 0, 1, 0]] },
    { name: 'first next: 10 s from the exit', steps: [['next', 0, 0], ['since', 0, 3 * s, 7 * s], ['since', 0, 10 * s, 0]] },
    {
      name: 'each next doubles: 10, 20, 40 … capped at 300 s',
      steps: [['next', 0, 0], ['next', 10 * s, 20 * s], ['since', 30 * s, 30 * s, 20 * s], ['next', 30 * s, 50 * s], ['next', 60 * s, 100 * s], ['next', 110 * s, 180 * s], ['next', 200 * s, 340 * s], ['next', 350 * s, 650 * s], ['since', 700 * s, 700 * s, 300 * s]],
    },
    { name: 'an exit more than 2 × max after the last restart resets the back-off (the container ran 10 min)', steps: [['next', 0, 0], ['next', 10 * s, 20 * s], ['since', 20 * s + 601 * s, 20 * s + 601 * s, 0], ['next', 20 * s + 601 * s, 20 * s + 601 * s], ['since', 621 * s, 621 * s, 10 * s]] },
    { name: 'image back-off is measured from the last pull attempt', steps: [['next', 5 * s, 5 * s], ['update', 0, 9 * s, 6 * s], ['next', 15 * s, 15 * s], ['update', 0, 20 * s, 15 * s]] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const b = new Backoff(kubeletBackoff);
      for (const [op, ev, now, expect] of r.steps) {
        if (op === 'next') b.next('k', ev, now);
        else if (op === 'since') assert.equal(b.remainingSince('k', ev, now), expect, `remainingSince(${ev}, ${now})`);
        else assert.equal(b.remainingSinceUpdate('k', now), expect, `remainingSinceUpdate(${now})`);
      }
    });
  }

  it('get reports the current back-off; forget drops a pod\'s entries by prefix, reset exactly one', () => {
    const b = new Backoff({ initialMs: 200, maxMs: 800 });
    b.next('uid1/c', 0, 0);
    b.next('uid1/c', 1, 1);
    b.next('uid2/c', 0, 0);
    assert.equal(b.get('uid1/c'), 400);
    b.forget('uid1');
    assert.equal(b.get('uid1/c'), 0);
    assert.equal(b.get('uid2/c'), 200);
    b.next('uid2/c2', 0, 0);
    b.reset('uid2/c');
    assert.deepEqual([b.get('uid2/c'), b.get('uid2/c2')], [0, 200]);
  });

  it('refuses a nonsensical configuration', () => {
    assert.throws(() => new Backoff({ initialMs: 0, maxMs: 10 }), RangeError);
    assert.throws(() => new Backoff({ initialMs: 10, maxMs: 5 }), RangeError);
  });
});

describe('the kubelet\'s back-off wording', () => {
  const pod = { metadata: { name: 'web', namespace: 'shop', uid: 'u-1' }, spec: { containers: [] } } as unknown as Pod;
  const rows: [string, string, string][] = [
    ['format.Pod is name_namespace(uid)', formatPod(pod), 'web_shop(u-1)'],
    ['CrashLoopBackOff waiting message', messages.crashLoopWaiting(10_000, 'app', pod), 'back-off 10s restarting failed container=app pod=web_shop(u-1)'],
    ['CrashLoopBackOff at the cap', messages.crashLoopWaiting(300_000, 'app', pod), 'back-off 5m0s restarting failed container=app pod=web_shop(u-1)'],
    ['BackOff event message', messages.backOffRestarting('app', pod), 'Back-off restarting failed container app in pod web_shop(u-1)'],
    ['Created event (1.32 wording, with a colon)', messages.created('app'), 'Created container: app'],
    ['Started event', messages.started('app'), 'Started container app'],
    ['Killing event', messages.stopping('app'), 'Stopping container app'],
    ['Pulled event for a present image', messages.imagePresent('busybox:1.36'), 'Container image "busybox:1.36" already present on machine'],
    ['ErrImageNeverPull', messages.imageNeverPull('x:1'), 'Container image "x:1" is not present with pull policy of Never'],
    ['ImagePullBackOff waiting message wraps the last pull error', messages.backOffPullingWaiting('x:1', 'boom'), 'Back-off pulling image "x:1": ErrImagePull: boom'],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.equal(got, want));
});
