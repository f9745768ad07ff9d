import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { KeyedQueue } from '../../src/controllers/queue.js';

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('KeyedQueue', () => {
  it('a key added while waiting is processed once', async () => {
    const seen: string[] = [];
    const q = new KeyedQueue(async (k) => void seen.push(k));
    q.add('a');
    q.add('a');
    q.add('b');
    await q.idle();
    assert.deepEqual(seen, ['a', 'b']);
  });

  it('a key added while it runs runs again after', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = new KeyedQueue(async (k) => {
      seen.push(k);
      if (seen.length === 1) await gate;
    });
    q.add('a');
    await flush();
    q.add('a');
    assert.deepEqual(seen, ['a'], 'never twice at once');
    release();
    await q.idle();
    assert.deepEqual(seen, ['a', 'a']);
  });

  it('addAfter: the earliest timer for a key wins and the key is added once', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const seen: string[] = [];
      const q = new KeyedQueue(async (k) => void seen.push(k));
      q.addAfter('a', 1000);
      q.addAfter('a', 500);
      q.addAfter('a', 800);
      mock.timers.tick(499);
      await flush();
      assert.deepEqual(seen, []);
      mock.timers.tick(1);
      await flush();
      assert.deepEqual(seen, ['a']);
      mock.timers.tick(1000);
      await flush();
      assert.deepEqual(seen, ['a'], 'the replaced 1000 ms timer never fires');
      q.stop();
    } finally {
      mock.timers.reset();
    }
  });

  it('addAfter past setTimeout\'s 2^31-1 ms does not fire at once (Node would, and a long TTL would spin)', async () => {
    const seen: string[] = [];
    const q = new KeyedQueue(async (k) => void seen.push(k));
    q.addAfter('a', 30 * 24 * 3600 * 1000);
    // Node runs an overflowing timer after 1 ms; give it ample time to show.
    await new Promise((r) => setTimeout(r, 50));
    await flush();
    assert.deepEqual(seen, []);
    q.stop();
  });

  it('stop cancels pending timers', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const seen: string[] = [];
      const q = new KeyedQueue(async (k) => void seen.push(k));
      q.addAfter('a', 100);
      q.stop();
      mock.timers.tick(200);
      await flush();
      assert.deepEqual(seen, []);
    } finally {
      mock.timers.reset();
    }
  });
});
