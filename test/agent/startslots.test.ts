// StartSlots: at most `size` pod starts at a time, the others served in the order they came.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StartSlots } from '../../src/agent/startslots.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

/** A task that runs until released, noting when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return {
    fn: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

describe('StartSlots', () => {
  it('runs at most size tasks at once; the rest start first come, first served as slots free up', async () => {
    const slots = new StartSlots(2);
    const log: string[] = [];
    const g = ['a', 'b', 'c', 'd', 'e'].map((n) => gate(log, n));
    const results = g.map((x) => slots.run(x.fn));
    await tick();
    assert.deepEqual(log, ['a', 'b']);
    g[1]!.release();
    await tick();
    assert.deepEqual(log, ['a', 'b', 'c']);
    g[0]!.release();
    await tick();
    assert.deepEqual(log, ['a', 'b', 'c', 'd']);
    for (const x of g) x.release();
    assert.deepEqual(await Promise.all(results), ['a', 'b', 'c', 'd', 'e']);
  });

  it('a task that throws frees its slot, and the caller gets the error', async () => {
    const slots = new StartSlots(1);
    await assert.rejects(slots.run(() => Promise.reject(new Error('runc failed'))), /runc failed/);
    assert.equal(await slots.run(() => Promise.resolve('next')), 'next');
  });

  const bad: [string, number][] = [
    ['zero', 0],
    ['negative', -1],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
  ];
  for (const [name, size] of bad) it(`size ${name} is refused`, () => assert.throws(() => new StartSlots(size), RangeError));
});
