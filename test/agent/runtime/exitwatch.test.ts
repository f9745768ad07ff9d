// ExitWatch: the end of a process the agent does not parent, from inotify on a file (a cgroup2
// cgroup.events on the real kernel; an ordinary file here, since inotify works the same on any
// file) or from a poll where there is no file to watch. Runs without root: the `alive` check is
// a flag the test flips. The real-kernel case (a sandbox killed, its cgroup.events) is in
// test/agent/podworker.test.ts.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ExitWatch } from '../../../src/agent/runtime/exitwatch.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'bulkhead-exitwatch-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A watched "process": its events file and a flag for alive(). */
function subject(name: string, withFile = true) {
  const file = join(dir, name);
  if (withFile) writeFileSync(file, 'populated 1\n');
  const s = { file, alive: true, exits: 0, checks: 0 };
  return {
    s,
    add: (w: ExitWatch, key = name, eventsFile: string | undefined = withFile ? file : undefined) =>
      w.add(
        key,
        eventsFile,
        () => {
          s.checks++;
          return s.alive;
        },
        () => s.exits++,
      ),
  };
}

// A generous deadline, far below the 60 s poll the inotify tests set: reaching the condition at
// all proves the event path, without judging how fast this machine is.
async function until(what: string, cond: () => boolean, ms = 20_000): Promise<number> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(2);
  }
  return Date.now() - t0;
}

describe('ExitWatch', () => {
  it('a process already gone when the watch is added is reported at once, without an event', () => {
    const w = new ExitWatch();
    const { s, add } = subject('gone');
    s.alive = false;
    add(w);
    assert.equal(s.exits, 1);
    assert.equal(w.has('gone'), false);
  });

  it('a change of the events file makes it look again: reported once it is dead, then the watch ends', async () => {
    const w = new ExitWatch(60_000);
    const { s, add } = subject('events');
    add(w);
    const checks = s.checks;
    writeFileSync(s.file, 'populated 1\n');
    await until('a check after the change', () => s.checks > checks);
    assert.equal(s.exits, 0, 'alive: a change alone is not an exit');
    s.alive = false;
    writeFileSync(s.file, 'populated 0\n');
    await until('the exit (inotify: the 60 s poll cannot be what finds it)', () => s.exits === 1);
    writeFileSync(s.file, 'populated 0\n');
    await sleep(50);
    assert.equal(s.exits, 1, 'reported once');
    assert.equal(w.has('events'), false);
  });

  const polled: [string, string | undefined][] = [
    ['without an events file it polls every pollMs', undefined],
    ['an events file that cannot be watched (missing) falls back to the poll', join(dir, 'no-such-file')],
  ];
  for (const [name, eventsFile] of polled) {
    it(name, async () => {
      const w = new ExitWatch(20);
      const { s, add } = subject(`poll-${polled.findIndex((r) => r[0] === name)}`, false);
      add(w, undefined, eventsFile);
      await until('two polls', () => s.checks >= 2);
      s.alive = false;
      await until('the exit', () => s.exits === 1);
      await sleep(50);
      assert.equal(s.exits, 1);
    });
  }

  it('adding a key twice keeps one watch; delete ends it without a report', async () => {
    const w = new ExitWatch(20);
    const { s, add } = subject('twice', false);
    add(w);
    add(w);
    w.delete('twice');
    s.alive = false;
    await sleep(60);
    assert.equal(s.exits, 0);
    assert.equal(w.has('twice'), false);
  });

  it('close ends every watch', async () => {
    const w = new ExitWatch(20);
    const a = subject('close-a');
    const b = subject('close-b', false);
    a.add(w);
    b.add(w);
    w.close();
    a.s.alive = false;
    b.s.alive = false;
    writeFileSync(a.s.file, 'populated 0\n');
    await sleep(60);
    assert.deepEqual([a.s.exits, b.s.exits], [0, 0]);
  });
});
