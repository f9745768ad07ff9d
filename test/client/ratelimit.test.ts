// The client-side token bucket: a full bucket at the start, refill at qps, waiters in call order.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from '../../src/client/ratelimit.js';

/** Which of the promises have resolved, after the microtasks now due. */
async function settled(ps: Promise<void>[]): Promise<boolean[]> {
  const done = ps.map(() => false);
  ps.forEach((p, i) => void p.then(() => (done[i] = true)));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('TokenBucket', () => {
  it('grants a burst at once, then makes the next caller wait', async () => {
    let now = 0;
    const b = new TokenBucket(10, 2, () => now);
    const ps = [b.take(), b.take(), b.take()];
    assert.deepEqual(await settled(ps), [true, true, false]);
    b.releaseAll();
    assert.deepEqual(await settled(ps), [true, true, true]);
  });

  it('refills at qps, never above the burst', async () => {
    let now = 0;
    const b = new TokenBucket(10, 2, () => now);
    await b.take();
    await b.take();
    now += 100; // one token back
    assert.deepEqual(await settled([b.take()]), [true]);
    now += 10_000; // refilled, but only to the burst
    const ps = [b.take(), b.take(), b.take()];
    assert.deepEqual(await settled(ps), [true, true, false]);
    b.releaseAll();
  });

  // Mocked timers: the waiter's 20 ms is stepped through, not measured on a busy machine.
  it('a waiter gets its token after the deficit has refilled', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let now = 0;
    const b = new TokenBucket(50, 1, () => now);
    await b.take();
    const waiter = b.take();
    t.mock.timers.tick(19);
    assert.deepEqual(await settled([waiter]), [false], 'not before 1/qps = 20 ms');
    t.mock.timers.tick(1);
    assert.deepEqual(await settled([waiter]), [true]);
  });

  it('qps 0 means no limit', async () => {
    const b = new TokenBucket(0, 0);
    assert.deepEqual(await settled([b.take(), b.take(), b.take()]), [true, true, true]);
  });
});
