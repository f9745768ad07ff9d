// A request's deadline is carried only once a store that reads it asks for it (carryDeadlines):
// the AsyncLocalStorage behind it hooks every promise in Node 20, which a SQLite server, whose
// store never reads a deadline, should not pay for.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { carryDeadlines, currentDeadline, earliest, withDeadline, withoutDeadline } from '../../src/storage/deadline.js';

it('not carried until a store asks; then carried through awaits, lifted by withoutDeadline', async () => {
  const inside = async () => {
    await Promise.resolve();
    return currentDeadline();
  };
  assert.equal(await withDeadline({ at: 5 }, inside), undefined, 'nobody reads it yet: not carried');
  carryDeadlines();
  assert.deepEqual(await withDeadline({ at: 5 }, inside), { at: 5 });
  assert.equal(await withDeadline({ at: 5 }, () => withoutDeadline(inside)), undefined);
  assert.equal(currentDeadline(), undefined, 'nothing leaks out of the run');
});

it('earliest of several', () => {
  assert.deepEqual(earliest([undefined, { at: 9 }, { at: 3 }]), { at: 3 });
  assert.equal(earliest([undefined]), undefined);
});
